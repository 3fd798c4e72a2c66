"""Bounded, thread-safe memo tables for every solver: the one place their policy lives.

Two kinds. ``BoundedMemo`` drops the least recently used entry first; it takes a lock
around each operation (an ``OrderedDict`` reordering is not atomic) and suits tables
read a few times per call. ``GenerationMemo`` is for the solvers' inner loops: its
``table`` is a plain ``dict`` read directly (``memo.table.get``: no method call, no lock),
and once full it starts a new generation, dropping every entry but its *base* entries
(the ones recursions end on) in place, under a lock, so a reader in another thread
sees an entry or its absence, never a table without its base. Keys and values are plain
immutable data (bytes, tuples, ints), so the tables hold no reference cycles.

One budget bounds them all (``BUDGET``, ``MemoBudget``): the solvers' tables are made
``shared`` and draw on one count of entries; when their total passes it, the largest
shared table drops its oldest half (``drop_oldest``). Tables that must start over together (the
Tunisian search memos) keep their own bound and the budget reserves it. Every named
memo is registered (``registered``, ``total_entries``), for the memory bench and tests.
The total is what bounds the RSS (about 150 bytes an entry, keys and values included),
and the cyclic GC's full passes walk every entry of a tracked table: ``freeze_collector``
takes long-lived tables out of those passes in long-running processes.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import gc
import itertools
import math
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

__all__ = [
    "BUDGET",
    "BoundedMemo",
    "GenerationMemo",
    "MemoBudget",
    "budget_mib",
    "capacity",
    "entry_size",
    "freeze_collector",
    "is_pin",
    "registered",
    "release_memory",
    "reserved",
    "rules_of",
    "scaled",
    "set_budget",
    "stored",
    "total_entries",
    "weighed_bytes",
]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
R = TypeVar("R")

_MISSING = object()


class _Pin:
    """The key of a pinned table's one tracked entry: equal to no solver key."""

    __slots__ = ()


_PIN = _Pin()
_PIN_VALUE: list[object] = []  # a list: always tracked by the cyclic GC


def _pin_into(table: dict[Any, Any]) -> None:
    table[_PIN] = _PIN_VALUE


def stored(table: Mapping[Any, Any]) -> int:
    """The solver entries of a memo table: its length, a frozen table's pin aside."""
    return len(table) - (_PIN in table)


def is_pin(value: object) -> bool:
    """Whether ``value`` is the pin ``freeze_collector`` puts in a table (not an answer)."""
    return value is _PIN_VALUE


#: Entries the shared solver memos hold in all (``RAMI_MEMO_BUDGET`` overrides it).
#: Chosen on the memory bench against the warm self-play rate (docs/architecture.md).
DEFAULT_BUDGET = 160_000

#: What one memo entry costs, keys, values and the dict slot included, in bytes, as the
#: budget in MiB counts it: Tunisian and cover entries (ints and small tuples) take about
#: that (the RSS over 4,000 Tunisian deals grows about 0.85 MiB a budget MiB); indian
#: entries are larger, about 290 bytes (docs/architecture.md, *Shared helpers*).
ENTRY_BYTES = 160

#: MiB every named memo holds at most with the default bounds: the shared budget plus the
#: bounds reserved by the tables that start over together (about 217,000 entries, mostly
#: the Tunisian search), 377,000 entries of ``ENTRY_BYTES``. ``RAMI_MEMO_MB`` or
#: ``set_budget`` scale every bound by ``mib / DEFAULT_MB``.
DEFAULT_MB = 60.0


def _positive(mib: float) -> bool:
    return math.isfinite(mib) and mib > 0


def _mib_setting() -> float | None:
    """``RAMI_MEMO_MB`` as a positive number of MiB, or None (unset, or said on stderr
    and ignored when it is not one)."""
    text = os.environ.get("RAMI_MEMO_MB", "").strip()
    if not text:
        return None
    try:
        mib = float(text)
    except ValueError:
        mib = 0.0
    if _positive(mib):
        return mib
    print(
        f"rami: RAMI_MEMO_MB={text!r} is not a positive number of MiB; "
        f"the solver caches keep the default budget ({DEFAULT_MB:g} MiB)",
        file=sys.stderr,
    )
    return None


_SCALE = [(_mib_setting() or DEFAULT_MB) / DEFAULT_MB]  # a list: set_budget changes it


def scaled(size: int) -> int:
    """``size`` entries (a default bound) scaled by the memory budget, at least 16
    (or ``size`` if less)."""
    return max(min(size, 16), int(size * _SCALE[0]))


def budget_mib() -> float:
    """The memory budget of all the named memos together, in MiB."""
    return _SCALE[0] * DEFAULT_MB


def capacity() -> int:
    """Entries the named memos may hold in all under the budget: the shared budget plus
    every bound reserved outside it (a pinned table's one extra entry aside)."""
    return BUDGET.limit + reserved()


#: Entries weighed per table at each budget check (``GenerationMemo.measure``).
_SAMPLE = 64


def entry_size(key: object, value: object) -> int:
    """The deep size in bytes of a memo entry's key and value (``sys.getsizeof`` of the
    containers and what they hold; other objects count their own size only, as they
    are shared with the games)."""
    return _deep_size(key, 0) + _deep_size(value, 0)


def _deep_size(obj: object, depth: int) -> int:
    if obj is None or isinstance(obj, bool) or (isinstance(obj, int) and -5 <= obj <= 256):
        return 0  # one object the interpreter shares
    size = sys.getsizeof(obj)
    if depth < 6:
        if isinstance(obj, (tuple, list, frozenset, set)):
            size += sum(_deep_size(x, depth + 1) for x in obj)
        elif isinstance(obj, dict):
            size += sum(_deep_size(k, depth + 1) + _deep_size(v, depth + 1) for k, v in obj.items())
    return size


class MemoBudget:
    """One bound on the entries of the ``shared`` generation memos, all tables together.

    Each store counts; every ``check`` stores the tables' lengths are summed, and while
    the total is above ``limit - check`` the largest table drops its oldest half. So
    the total stays under ``limit`` (give or take the counts that threads race on), the
    tables that grow are the ones that give room, and the check costs nothing per read.

    The bound is also in bytes (``limit_bytes``, ``limit`` entries of ``ENTRY_BYTES``):
    at each check every table's entries are weighed (``GenerationMemo.measure``: the deep
    size of a sample of its oldest and newest entries), and the heaviest tables give
    room while the weighed total is
    above it. Entries larger than ``ENTRY_BYTES`` (indian ones: about 250-400 bytes) so
    make room in bytes, not in entries, and the budget in MiB holds in every game.
    """

    __slots__ = ("_lock", "check", "evictions", "limit", "limit_bytes", "members", "writes")

    def __init__(self, limit: int) -> None:
        self.members: list[GenerationMemo[Any, Any]] = []
        self._lock = threading.Lock()
        self.evictions = 0
        self.writes = 0
        self.limit = 1
        self.limit_bytes = ENTRY_BYTES
        self.check = 1
        self.resize(limit)

    def resize(self, limit: int) -> None:
        """A new ``limit`` (entries, and ``limit * ENTRY_BYTES`` bytes); tables over it
        give room at the next store."""
        if limit < 1:
            raise ValueError("a memo budget holds at least one entry")
        self.limit = limit
        self.limit_bytes = limit * ENTRY_BYTES
        self.check = max(1, limit // 32)
        self.writes = self.check  # settle at the next store

    def entries(self) -> int:
        return sum(len(m.table) for m in self.members)

    def weight(self) -> int:
        """The shared tables' bytes as last weighed (entries times measured entry size)."""
        return sum(len(m.table) * m.entry_bytes for m in self.members)

    def settle(self) -> None:
        """Weigh the tables, then start new generations in the largest ones (in bytes)
        until both the entries and the bytes have room."""
        with self._lock:
            self.writes = 0
            target = self.limit - self.check
            target_bytes = self.limit_bytes - self.check * ENTRY_BYTES
            for member in self.members:
                member.measure()
            total = self.entries()
            weight = self.weight()
            evictions = self.evictions
            while total > target or weight > target_bytes:
                largest = max(
                    self.members, key=lambda m: (m.droppable() * m.entry_bytes, m.droppable())
                )
                if largest.droppable() <= 0:
                    break  # only base entries (and pinned tables' one entry) left
                largest.drop_oldest()
                self.evictions += 1
                total = self.entries()
                weight = self.weight()
            if self.evictions != evictions:
                release_memory()


class BoundedMemo(Generic[K, V]):
    """A thread-safe LRU map holding at most ``size`` entries."""

    __slots__ = ("_data", "_lock", "bound", "default", "hits", "misses", "name", "shared", "size")

    def __init__(self, size: int, *, name: str = "") -> None:
        if size < 1:
            raise ValueError("a memo holds at least one entry")
        self.default = size
        self.size = scaled(size) if name else size
        self.bound = self.size
        self.name = name
        self.shared = False
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        if name:
            _REGISTRY.append(self)

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
    A ``shared`` memo also draws on ``BUDGET``: the largest shared table drops its oldest
    half when their total is full, so a shared table must not be read as holding what it stored
    (read it with ``get``, compute on a miss). A ``name`` registers the memo; ``bound``
    is its part of a bound several tables share (their owner starts them over together),
    if less than ``size``.
    """

    __slots__ = (
        "_lock",
        "base",
        "bound",
        "default",
        "entry_bytes",
        "generations",
        "name",
        "pinned",
        "shared",
        "size",
        "stores",
        "table",
    )

    def __init__(
        self,
        size: int,
        base: dict[K, V] | None = None,
        *,
        name: str = "",
        shared: bool = False,
        bound: int = 0,
    ) -> None:
        if size < 1:
            raise ValueError("a memo holds at least one entry")
        self.default = (size, bound or size)
        # a named memo's bounds follow the memory budget (``set_budget``)
        self.size = scaled(size) if name else size
        self.bound = scaled(bound or size) if name else bound or size
        self.base: dict[K, V] = dict(base or {})
        self.table: dict[K, V] = dict(self.base)
        self.generations = 0
        self.stores = 0
        self.entry_bytes = ENTRY_BYTES
        self.name = name
        self.shared = shared
        self.pinned = False
        self._lock = threading.Lock()
        if name:
            _REGISTRY.append(self)
        if shared:
            BUDGET.members.append(self)

    @classmethod
    def over(
        cls, table: dict[K, V], size: int, *, name: str = "", shared: bool = False
    ) -> GenerationMemo[K, V]:
        """A memo on the existing dict ``table`` (kept, not copied; its entries now are
        the base), for modules whose hot loops name the dict itself."""
        memo = cls(size, table, name=name, shared=shared)
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
        self.stores += 1
        if self.shared:
            budget = BUDGET
            budget.writes += 1
            if budget.writes >= budget.check:
                budget.settle()
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
            if self.pinned:
                _pin_into(table)
            self.generations += 1

    def drop_oldest(self) -> None:
        """Drop the oldest half of the entries a new generation would drop, in place:
        how the budget makes room. Emptying a whole table at once made a sawtooth whose
        peaks the allocator's arenas kept (nepali RSS rising 5,000 to 20,000 deals, issue
        27); halving keeps the newest entries (the ones being read) and the total near its
        bound. A dict keeps insertion order, so the first keys are the oldest."""
        with self._lock:
            table = self.table
            base = self.base
            count = (self.droppable() + 1) // 2
            try:  # one C call under the GIL; a table changed meanwhile gives room later
                keys = list(itertools.islice(table, count + len(base) + 1))
            except RuntimeError:
                return
            dropped = 0
            for key in keys:
                if dropped >= count:
                    break
                if key is _PIN or key in base:
                    continue
                table.pop(key, None)
                dropped += 1
            self.generations += 1

    def droppable(self) -> int:
        """The entries a new generation drops: all but the base ones and a pinned
        table's one tracked entry (which comes back at once)."""
        return len(self.table) - len(self.base) - (1 if self.pinned else 0)

    def measure(self) -> int:
        """Weigh an entry (``entry_bytes``): the mean deep size of ``_SAMPLE`` entries
        spread evenly over the table, oldest to newest (later entries may be larger,
        nepali cover memos keyed by larger holdings), keys, values and the dict's slot,
        kept while the table is empty. An even spread, not the two ends: an estimate off
        by chance let the tables' bytes overshoot the budget, and the RSS keeps the
        highest overshoot seen (issue 27, nepali)."""
        table = self.table
        count = len(table)
        if count > 0:
            stride = max(1, count // _SAMPLE)
            try:  # one C call under the GIL; a table changed meanwhile is weighed later
                sample = list(itertools.islice(table.items(), 0, None, stride))
            except RuntimeError:
                return self.entry_bytes
            slot = sys.getsizeof(table) // count
            sizes = [entry_size(k, v) for k, v in sample if k is not _PIN]
            if sizes:
                self.entry_bytes = slot + sum(sizes) // len(sizes)
        return self.entry_bytes

    def pin(self) -> None:
        """Keep the table tracked by the cyclic GC for good (``freeze_collector``).

        A dict holding only untracked data is untracked by a full pass and tracked
        again, as a new object, by the next tuple stored; frozen while untracked, it
        would come back to the collector's generations. A tracked entry under a key no
        reader asks for (a private object) keeps it tracked, so a frozen table stays
        frozen. It counts as one entry.
        """
        with self._lock:
            self.pinned = True
            _pin_into(self.table)

    def __len__(self) -> int:
        return len(self.table)


_TRIM: list[Callable[[], object] | None] = []  # found at the first use: [] not yet


def _malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None where there is none (musl, macOS, Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


def release_memory() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim(0)``;
    nothing elsewhere): after the budget drops entries, the memory they held is free
    in the heap, and without a trim the RSS keeps it. The budget calls it after each
    check that dropped entries (every few hundred deals at most)."""
    if not _TRIM:
        _TRIM.append(_malloc_trim())
    trim = _TRIM[0]
    if trim is not None:
        trim()


def _budget_limit() -> int:
    text = os.environ.get("RAMI_MEMO_BUDGET", "")
    return int(text) if text.isdigit() and int(text) > 0 else scaled(DEFAULT_BUDGET)


#: The budget every ``shared`` memo draws on.
BUDGET = MemoBudget(_budget_limit())
_REGISTRY: list[BoundedMemo[Any, Any] | GenerationMemo[Any, Any]] = []


def set_budget(mib: float) -> None:
    """Bound every named memo by about ``mib`` MiB in all (``RAMI_MEMO_MB`` at start-up).

    Every bound (the shared budget, each table's size and reserved bound) is scaled by
    ``mib / DEFAULT_MB``; a table over its new size starts a new generation now, and the
    shared tables give room at the next store. Memos only save work: answers do not
    change, a smaller budget costs speed. Raises ``ValueError`` unless ``mib > 0``.
    """
    if not _positive(mib):
        raise ValueError(f"a memo budget is a positive number of MiB, not {mib!r}")
    _SCALE[0] = mib / DEFAULT_MB
    BUDGET.resize(scaled(DEFAULT_BUDGET))
    for memo in _REGISTRY:
        if isinstance(memo, GenerationMemo):
            size, bound = memo.default
            memo.size, memo.bound = scaled(size), scaled(bound)
            if len(memo.table) - len(memo.base) > memo.size:
                memo.new_generation()
        else:
            memo.size = memo.bound = scaled(memo.default)
            with memo._lock:
                while len(memo._data) > memo.size:
                    memo._data.popitem(last=False)


def registered() -> list[BoundedMemo[Any, Any] | GenerationMemo[Any, Any]]:
    """Every named memo (module-level tables), in creation order."""
    return list(_REGISTRY)


def total_entries() -> int:
    """Entries held by every named memo."""
    return sum(len(m) for m in _REGISTRY)


def weighed_bytes() -> int:
    """The bytes every named memo holds, weighed now (entries times the measured size of
    a sample of each table's entries): what the memory bench reports against the budget."""
    total = 0
    for memo in _REGISTRY:
        if isinstance(memo, GenerationMemo):
            total += len(memo.table) * memo.measure()
        else:
            with memo._lock:
                items = list(itertools.islice(memo._data.items(), _SAMPLE))
                count = len(memo._data)
            if items:
                sizes = [entry_size(k, v) for k, v in items]
                total += count * (sum(sizes) // len(sizes) + sys.getsizeof(memo._data) // count)
    return total


def reserved() -> int:
    """The most the named memos outside the shared budget hold: their own bounds (a
    pinned table's one extra entry aside)."""
    return sum(m.bound for m in _REGISTRY if not m.shared)


def freeze_collector() -> None:
    """Pin the registered tables, collect, then move every object alive (modules,
    functions, the memo tables) to the collector's permanent generation: for
    long-running processes (server, simulations), once after start-up.

    A full GC pass visits every entry of every tracked table (tens of milliseconds at
    a few hundred thousand entries); frozen tables are never walked again. Their
    values are immutable data that refer to nothing mutable, so they form no cycle the
    collector would have had to find; entries are still freed by reference counting.
    """
    for memo in _REGISTRY:
        if isinstance(memo, GenerationMemo):
            memo.pin()
    gc.collect()
    gc.freeze()


_RULES: GenerationMemo[tuple[Hashable, ...], Any] = GenerationMemo(512, name="memo.rules")


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
