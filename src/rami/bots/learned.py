"""A bot that plays a trained policy file (``learned:PATH``, see ``rami train``).

It sees what every bot sees, the view: the view is encoded by ``rami.rl.observation``,
the legal actions become ids of the game's fixed action space (``rami.games``), and the
policy's best legal id is played. A ranking policy (``rami train --policy rank``)
instead scores each legal action from what it leads to on a determinization of the view
(``rami.rl.afterstate``), drawn from a generator seeded by the view alone. Needs numpy
(extra ``rl``); torch is not needed.

``PATH`` may also name a model shipped with rami (``rami/rl/models/NAME.npz``, e.g.
``learned:tunisian_1v1``) when no file of that name exists.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rami.bots.base import Bot
from rami.engine import Action
from rami.errors import InputError
from rami.games import get_game
from rami.views import TypedView

__all__ = ["LearnedBot", "check_policy", "learned_levels", "shipped_models"]

_SHIPPED = Path(__file__).resolve().parent.parent / "rl" / "models"


def shipped_models() -> list[str]:
    """The names of the models shipped with rami (``learned:NAME``)."""
    return sorted(p.stem for p in _SHIPPED.glob("*.npz"))


def learned_levels(
    game: str, players: int | None = None, preset: str | None = None
) -> tuple[str, ...]:
    """The ``learned:NAME`` levels of the shipped models trained for ``game`` (and for
    ``players`` seats, ``preset``, when given): what the terminal and the server offer
    beside the named levels. Only shipped models: a person or a web request never names
    a file. Empty without numpy."""
    out = []
    for name in shipped_models():
        try:
            meta = _policy(name).meta
        except (InputError, ImportError):
            continue
        if meta.get("game") != game:
            continue
        if players is not None and meta.get("players") != players:
            continue
        if preset is not None and meta.get("preset") != preset:
            continue
        out.append(f"learned:{name}")
    return tuple(out)


def _resolve(path: str) -> str:
    """``path``, or the shipped model it names when no such file exists."""
    if os.path.exists(path) or os.sep in path or "/" in path:
        return path
    shipped = _SHIPPED / f"{path.removesuffix('.npz')}.npz"
    return str(shipped) if shipped.exists() else path


_LOADED: dict[tuple[str, float], Any] = {}


def _policy(path: str) -> Any:
    """The policy in ``path``, read once per file version (simulations make many bots)."""
    path = _resolve(path)
    try:
        from rami.rl.policy import load_policy
    except ImportError:  # pragma: no cover - numpy missing
        raise InputError("learned bots need numpy: pip install 'rami[rl]'") from None
    try:
        key = (os.path.abspath(path), os.path.getmtime(path))
    except OSError:
        if not os.path.exists(path):
            names = ", ".join(shipped_models()) or "none"
            raise InputError(f"no policy file {path} (models shipped with rami: {names})") from None
        return load_policy(path)  # says what is wrong with the path
    found = _LOADED.get(key)
    if found is None:
        if len(_LOADED) > 8:
            _LOADED.clear()
        found = _LOADED[key] = load_policy(path)
    return found


def check_policy(game: str, path: str) -> Any:
    """The policy in ``path`` if it was trained for ``game``; ``InputError`` otherwise."""
    if not path:
        raise InputError("name the policy file: learned:PATH (written by 'rami train')")
    policy = _policy(path)
    trained = policy.meta.get("game")
    if trained != get_game(game).name:
        raise InputError(f"{path} was trained for {trained}, not {game}")
    return policy


class LearnedBot(Bot):
    """Plays the highest-scoring legal action of a trained policy."""

    def __init__(self, game: str, path: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy = check_policy(game, path)
        self.game = get_game(game)
        self.name = f"learned:{path}"
        self._tables: dict[tuple[int, str], tuple[Any, Any]] = {}
        self._ranking = self.policy.meta.get("policy") == "rank"

    def choose(self, view: TypedView) -> Action:
        from rami.rl.observation import encoder_for

        key = (view.players, repr(view.rules))
        if self._ranking:
            return self._choose_ranked(view, key)
        found = self._tables.get(key)
        if found is None:
            assert self.game.action_space is not None
            found = self._tables[key] = (encoder_for(view), self.game.action_space(view.rules))
        encoder, space = found
        expected = self.policy.meta.get("observation_size")
        if expected is not None and encoder.size != expected:
            raise InputError(
                f"the policy reads {expected} numbers, this table gives {encoder.size} "
                f"(trained for {self.policy.meta.get('preset')}, "
                f"{self.policy.meta.get('players')} players)"
            )
        encoder.reset()  # views may come from any deal: read the history afresh
        actions = list(view.legal)
        ids = space.ids_of(actions)
        best = self.policy.best(encoder.encode(view), ids)
        return space.action_from_id(best)

    def _choose_ranked(self, view: TypedView, key: tuple[int, str]) -> Action:
        """A ranking policy's move: the best-scored legal action (``rami.rl.afterstate``)."""
        from rami.rl.afterstate import AfterstateFeatures

        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = (AfterstateFeatures(view), None)
        features: AfterstateFeatures = found[0]
        expected = self.policy.meta.get("observation_size")
        if features.size != expected:
            raise InputError(
                f"the policy reads {expected} numbers, this table gives {features.size} "
                f"(trained for {self.policy.meta.get('preset')}, "
                f"{self.policy.meta.get('players')} players)"
            )
        if list(features.extras) != self.policy.meta.get("extras"):
            raise InputError(
                f"{self.name} was trained on other action inputs than this rami builds "
                "(train it again with this version)"
            )
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        candidates = features.build(view, self.rng(view, "rank"))
        best: int = self.policy.best(candidates)
        return candidates.legal[best]
