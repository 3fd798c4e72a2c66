"""Bounded memo tables for the solvers: least recently used entries go first.

The server runs solvers from worker threads, so a table takes a lock around each
operation (an ``OrderedDict`` reordering is not atomic). Keys and values are plain
immutable data (bytes, tuples, ints), so the tables hold no reference cycles and the
cyclic garbage collector never has to walk them (``gc.freeze`` friendly, steady RSS).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedMemo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

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
