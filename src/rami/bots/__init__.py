"""Bots behind one interface, for every game in the registry: ``make_bot(game, level, seed)``.

Levels: ``random`` (uniform legal moves, the baseline, for any game), ``greedy`` (the
game's fast evaluation on its solvers), ``search`` (flat determinized Monte Carlo over
greedy simulations, the previous ``hard``), ``ismcts`` (information-set Monte Carlo
tree search with opponent modelling, ``rami.bots.ismcts``). The names users see:
``easy`` = greedy with noise, ``medium`` = greedy, ``hard`` = ismcts with the game's
``hard_iterations`` a decision, ``expert`` = ismcts with its ``expert_iterations``.
Every level but ``random`` needs the game's bot kit (``rami.bots.kit.BotKit``, the
``bots`` hook of its ``rami.games.Game``).

``learned:PATH`` plays a policy file written by ``rami train`` (extra ``rl``).

``hard+value``, ``expert+value`` and ``ismcts+value`` (budgets as below) score the
search's depth cut with the game's learned position value (the kit's ``learned_leaf``,
``rami train --policy value``, ``rami.bots.value_net``) instead of its hand-made
estimate: measured no stronger yet, so the plain levels keep the estimate.

A level may carry a budget for the search bots: ``search:50ms`` (time per decision) or
``search:64it`` (simulations per decision: the same moves on any machine), likewise
``ismcts:…``, ``hard:…`` and ``expert:…``. Plain ``search`` thinks for 200 ms.

The rules engines never import this package; bots see views only.
"""

from __future__ import annotations

from rami.bots.base import Bot
from rami.bots.kit import kit_of
from rami.errors import InputError
from rami.games import get_game

__all__ = ["KINDS", "LEVELS", "STRENGTHS", "Bot", "check_spec", "make_bot"]

KINDS = ("random", "greedy", "search", "ismcts")  # the bots by how they play
STRENGTHS = ("easy", "medium", "hard", "expert")  # the names a person chooses from
LEVELS = KINDS + STRENGTHS  # the one list of bot levels (server seats, cli, solo, ladder)
SEARCHERS = ("search", "ismcts", "hard", "expert")  # the levels that take a budget
DEFAULT_BUDGET_MS = 200.0


def _parse(game: str, spec: str) -> tuple[str, float | None, int | None]:
    """``(level, time budget in ms, iterations)`` of a bot spec; ``InputError`` if bad."""
    spec_game = get_game(game)  # InputError naming the registered games
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"a bot is named by its level: {', '.join(LEVELS)}")
    level, _, budget = spec.strip().lower().partition(":")
    if level not in LEVELS:
        raise InputError(f"unknown bot {spec!r}: choose one of {', '.join(LEVELS)}")
    if level != "random" and spec_game.bots is None:
        raise InputError(f"{spec_game.title} has only the random bot, not {level!r}")
    if not budget:
        return level, None, None
    if level not in SEARCHERS:
        raise InputError(
            f"bot {spec!r}: only {', '.join(SEARCHERS)} take a budget such as search:50ms"
        )
    try:
        if budget.endswith("ms"):
            ms = float(budget[:-2])
            if ms <= 0:
                raise ValueError
            return level, ms, None
        if budget.endswith("it"):
            its = int(budget[:-2])
            if its < 1:
                raise ValueError
            return level, None, its
    except ValueError:
        pass
    raise InputError(f"bad budget in {spec!r}: write e.g. search:50ms or search:64it")


VALUE = "+value"  # the suffix of a search level that uses the learned value


def _valued(game: str, spec: str) -> tuple[str, bool]:
    """``spec`` without a ``+value`` suffix on its level, and whether it had one;
    ``InputError`` if the level is not IS-MCTS or the game has no learned value."""
    if not isinstance(spec, str):
        return spec, False
    level, colon, budget = spec.strip().partition(":")
    if not level.lower().endswith(VALUE):
        return spec, False
    level = level[: -len(VALUE)]
    if level.lower() not in ("ismcts", "hard", "expert"):
        raise InputError(f"bot {spec!r}: only ismcts, hard and expert take {VALUE}")
    if kit_of(game).learned_leaf is None:
        raise InputError(f"{get_game(game).title} has no learned value for {spec!r}")
    return level + colon + budget, True


def _learned_path(spec: object) -> str | None:
    """The policy file of a ``learned:PATH`` spec (``rami train``), else None."""
    if isinstance(spec, str) and spec.strip().lower().startswith("learned:"):
        return spec.strip()[len("learned:") :]
    return None


def check_spec(game: str, spec: str) -> None:
    """Raise ``InputError`` unless ``spec`` names a bot of ``game``."""
    path = _learned_path(spec)
    if path is not None:
        from rami.bots.learned import check_policy

        _parse(game, "random")  # the game's name
        check_policy(game, path)
        return
    spec, _ = _valued(game, spec)
    _parse(game, spec)


def make_bot(game: str, level: str, seed: int = 0) -> Bot:
    """The bot of ``level`` (see the module docstring) for ``game``, seeded by ``seed``."""
    path = _learned_path(level)
    if path is not None:
        from rami.bots.learned import LearnedBot

        _parse(game, "random")  # the game's name
        return LearnedBot(game, path, seed)
    level, valued = _valued(game, level)
    name, ms, its = _parse(game, level)
    game = get_game(game).name
    bot: Bot
    if name == "random":
        from rami.bots.random_bot import RandomBot

        bot = RandomBot(seed)
    elif name in ("greedy", "medium", "easy"):
        kit = kit_of(game)
        bot = kit.greedy(seed, kit.easy_noise if name == "easy" else 0.0)
    elif name == "search":
        from rami.bots.search import SearchBot

        budget = DEFAULT_BUDGET_MS if ms is None and its is None else ms
        bot = SearchBot(game, seed, budget_ms=budget, iterations=its)
    else:
        from rami.bots.ismcts import ISMCTSBot

        if ms is None and its is None:
            kit = kit_of(game)
            its = kit.expert_iterations if name == "expert" else kit.hard_iterations
        bot = ISMCTSBot(game, seed, budget_ms=ms, iterations=its, valued=valued)
    if name in ("easy", "medium", "hard", "expert"):
        bot.name = name
    if ms is not None or its is not None:
        bot.name = level.strip().lower()
    if valued:
        head, colon, tail = bot.name.partition(":")
        bot.name = head + VALUE + colon + tail
    return bot
