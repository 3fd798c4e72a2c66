"""Bounded, thread-safe memo tables for every solver: the one place their policy lives.

Two kinds. ``BoundedMemo`` drops the least recently used entry first; it takes a lock
around each operation (an ``OrderedDict`` reordering is not atomic) and suits tables
read a few times per call. ``GenerationMemo`` is for the solvers' inner loops: its
``table`` is a plain ``dict`` read directly (``memo.table.get``: no method call, no lock),
and once full it starts a new generation, dropping every entry but its *base* entries
(the ones recursions end on) in place, under a lock, so a reader in another thread
sees an entry or its absence, never a table without its base. Keys and values are plain
immutable data (bytes, tuples, ints), so the tables hold no reference cycles and the
cyclic garbage collector never has to walk them (``gc.freeze`` friendly, steady RSS).
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["BoundedMemo", "GenerationMemo", "rules_of"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
R = TypeVar("R")

_MISSING = object()


class BoundedMemo(Generic[K, V]):
    """A thread-safe LRU map holding at most ``size`` entries."""

    __slots__ = ("_data", "_lock", "hits", "misses", "size")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a memo holds at least one entry")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        """The value stored for ``key`` (now the most recent), or None."""
        with self._lock:
            value = self._data.get(key, _MISSING)
            if value is _MISSING:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return value  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        """Store ``value``; the least recently used entry goes if the table is full."""
        with self._lock:
            data = self._data
            data[key] = value
            data.move_to_end(key)
            while len(data) > self.size:
                data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class GenerationMemo(Generic[K, V]):
    """A memo read as a plain ``dict`` (``table``), bounded by generations of ``size``.

    ``remember`` stores an entry, first dropping all but the ``base`` entries when the
    table holds ``size``; ``new_generation`` does that drop (also the benches' cold
    start). The table object itself never changes, so hot code may keep a reference.
    """

    __slots__ = ("_lock", "base", "generations", "size", "table")

    def __init__(self, size: int, base: dict[K, V] | None = None) -> None:
        if size < 1:
            raise ValueError("a memo holds at least one entry")
        self.size = size
        self.base: dict[K, V] = dict(base or {})
        self.table: dict[K, V] = dict(self.base)
        self.generations = 0
        self._lock = threading.Lock()

    @classmethod
    def over(cls, table: dict[K, V], size: int) -> GenerationMemo[K, V]:
        """A memo on the existing dict ``table`` (kept, not copied; its entries now are
        the base), for modules whose hot loops name the dict itself."""
        memo = cls(size, table)
        memo.table = table
        return memo

    def get(self, key: K) -> V | None:
        return self.table.get(key)

    def remember(self, key: K, value: V) -> V:
        """Store ``value`` for ``key`` (a new generation first if the table is full)."""
        table = self.table
        if len(table) >= self.size:
            self.new_generation()
        table[key] = value
        return value

    def new_generation(self) -> None:
        """Drop every entry but the base ones, in place (readers keep a valid table)."""
        with self._lock:
            table = self.table
            base = self.base
            if not base:
                table.clear()  # atomic, and back to a small table (fast lookups)
            else:
                for key in list(table):
                    if key not in base:
                        table.pop(key, None)
                table.update(base)
            self.generations += 1

    def __len__(self) -> int:
        return len(self.table)


_RULES: GenerationMemo[tuple[Hashable, ...], Any] = GenerationMemo(512)


def rules_of(doc: Mapping[str, object], build: Callable[[dict[str, object]], R]) -> R:
    """``build`` of a view's rules, memoised on their plain values: bots and determinizers
    read a view's rules at every decision and every sample, and building the rules object
    each time would dominate them."""
    key = (
        build,
        *sorted((k, repr(v) if isinstance(v, (list, dict)) else v) for k, v in doc.items()),
    )
    found = _RULES.table.get(key)
    if found is None:
        found = _RULES.remember(key, build(dict(doc)))
    result: R = found
    return result
