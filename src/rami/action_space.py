"""Integer action ids: a fixed, documented numbering of every action a game can offer.

RL libraries (PettingZoo, Gymnasium, OpenSpiel) want a finite action space ``0 … N-1``
and a mask of the legal ids. Each game builds one ``ActionSpace`` per rules object
(``rami.<game>.action_ids.action_space(rules)``): a list of *blocks* (a verb and the
actions it can take, in a fixed order), so ``id_of(action)`` and ``action_from_id(i)``
are table look-ups and the numbering never depends on a deal. The tables are pinned by
a test (``tests/test_rl_action_ids.py``): changing a numbering is a breaking change.

Only the standard library is used: the engine stays dependency-free.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rami.engine import Action, GameState
from rami.errors import IllegalAction

__all__ = ["ActionSpace", "Block"]


@dataclass(frozen=True)
class Block:
    """A run of consecutive ids: ``first`` … ``first + size - 1`` for one verb."""

    verb: str
    first: int
    size: int
    meaning: str


class ActionSpace:
    """A bijection between the actions a game may list and ``0 … size-1``."""

    __slots__ = ("_alive", "_fields", "_ids", "_known", "_known_cap", "actions", "blocks", "name")

    def __init__(self, name: str, blocks: Sequence[tuple[str, str, Iterable[Action]]]) -> None:
        self.name = name
        actions: list[Action] = []
        out: list[Block] = []
        ids: dict[Action, int] = {}
        for verb, meaning, items in blocks:
            first = len(actions)
            for a in items:
                if a in ids:
                    continue  # a block may repeat a shape another block already numbers
                ids[a] = len(actions)
                actions.append(a)
            out.append(Block(verb, first, len(actions) - first, meaning))
        self.actions: tuple[Action, ...] = tuple(actions)
        self.blocks: tuple[Block, ...] = tuple(out)
        self._ids = ids
        # the same numbering keyed by an action's fields: a tuple of a str, ints and None
        # hashes and compares in C, several times faster than the dataclass's own hash
        self._fields: dict[tuple[str, tuple[int, ...], int | None], int] = {
            (a.kind, a.cards, a.target): i for a, i in ids.items()
        }
        self._known_cap = 2 * len(self.actions) + 4096
        self._forget()

    def _forget(self) -> None:
        """Empty the identity cache of ``ids_of`` (see there)."""
        # id(action) -> its id, for the Action objects in ``_alive``: the engines hand out
        # the same (interned) Action objects position after position (99 % of the listed
        # actions, measured in random play), so most look-ups need no key tuple
        self._known: dict[int, int] = {}
        self._alive: list[Action] = []  # holds every keyed object, so no id is reused

    def __getstate__(self) -> tuple[str, tuple[Action, ...], tuple[Block, ...]]:
        # the identity cache is keyed by this process's object ids: never copied
        return self.name, self.actions, self.blocks

    def __setstate__(self, state: tuple[str, tuple[Action, ...], tuple[Block, ...]]) -> None:
        self.name, self.actions, self.blocks = state
        self._ids = {a: i for i, a in enumerate(self.actions)}
        self._fields = {(a.kind, a.cards, a.target): i for i, a in enumerate(self.actions)}
        self._known_cap = 2 * len(self.actions) + 4096
        self._forget()

    @property
    def size(self) -> int:
        return len(self.actions)

    def id_of(self, action: Action) -> int:
        """The id of ``action`` (in its canonical form); ``IllegalAction`` if it has none."""
        found = self._ids.get(action)
        if found is None:
            raise IllegalAction(f"'{action}' is not in the {self.name} action space")
        return found

    def action_from_id(self, action_id: int) -> Action:
        """The action numbered ``action_id``; ``IllegalAction`` if out of range."""
        if isinstance(action_id, bool) or not 0 <= int(action_id) < len(self.actions):
            raise IllegalAction(
                f"action id {action_id!r} is outside 0 … {len(self.actions) - 1} ({self.name})"
            )
        return self.actions[int(action_id)]

    def legal_action_ids(self, state: GameState) -> list[int]:
        """The ids of ``state.legal_actions()``, ascending."""
        return sorted(self.ids_of(state.legal_actions()))

    def ids_of(self, actions: Iterable[Action]) -> list[int]:
        """The ids of these actions, in their order (``KeyError`` for one outside the
        space: the engine lists only actions the space numbers).

        An action object seen before is found by its identity (an int key: about 2/3 of
        the cost of building and hashing the fields' tuple, measured); a list holding one
        not seen yet is keyed by its fields and its new objects remembered. The cache keeps
        a reference to each object it keys, so an id cannot stand for another object, and
        starts over past ``_known_cap`` entries."""
        if not isinstance(actions, (list, tuple)):
            actions = list(actions)
        known = self._known
        try:  # in C: the ids of the objects' identities
            return list(map(known.__getitem__, map(id, actions)))
        except KeyError:
            pass
        fields = self._fields
        out = [fields[(a.kind, a.cards, a.target)] for a in actions]
        if len(known) + len(out) > self._known_cap:
            self._forget()
            known = self._known
        alive = self._alive
        for a, i in zip(actions, out, strict=True):
            if id(a) not in known:
                known[id(a)] = i
                alive.append(a)
        return out

    def digest(self) -> str:
        """A short hash of the whole numbering, for the test that pins it."""
        text = "\n".join(a.text(ascii=True) for a in self.actions)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def table(self) -> list[tuple[str, int, int, str]]:
        """``(verb, first id, last id, meaning)`` per block, for the docs."""
        return [(b.verb, b.first, b.first + b.size - 1, b.meaning) for b in self.blocks]
