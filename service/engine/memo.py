"""Bounded per-process memos: how the engine (and the service above it) keep derived results between
requests: route lengths, MNR witnesses, trade routes, island groups, loaded boards.

Every memo is bounded twice: in entries (``size``) and in bytes (``max_bytes``, :data:`MEMO_BYTES` by
default), the oldest entry going first. A value read several times from one position (a player's harbour rates,
the domestic trades open to them) is kept by :func:`per_position`: one position per key, a handful of
keys. Bytes are estimated (:func:`approx_bytes`: the objects an entry
holds, shared ones counted again), so the bound errs on the side of keeping less.

>>> d = {}
>>> for k in range(4):
...     bounded_put(d, k, k * k, size=3)
>>> d
{1: 1, 2: 4, 3: 9}
>>> e = {}
>>> for k in range(10):
...     bounded_put(e, k, "x" * 100, max_bytes=1000)
>>> len(e) < 10 and held_bytes(e) <= 1000
True
"""
from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable, Optional

#: The default bound: entries kept before the oldest goes.
MEMO_SIZE = 8192
#: The default bound in bytes, per memo (the service may set it from its configuration at start-up).
MEMO_BYTES = 8 << 20

def per_board(graph: Any, key: str, compute: Callable[[Any], Any]) -> Any:
    """Data derived from a board's map graph alone (a module's network of spaces, distances...): computed
    once per graph and kept on it (``MapGraph.derived``), under ``key`` (the module's name for it)."""
    got = graph.derived.get(key)
    if got is None:
        got = graph.derived[key] = compute(graph)
    return got


def per_position(memo: dict, key: Hashable, inputs: tuple, compute: Callable[[], Any], size: int = 16) -> Any:
    """A value computed from one position, kept while the position stays the same: ``compute()`` the
    first time, then again only when ``inputs`` (a tuple of what the value reads of the position: dicts
    of values never changed in place, such as counts, names and coordinate tuples; lists of such dicts;
    values never changed in place) differs from the inputs it was computed from. The inputs are compared by value, against
    a copy taken when the value was computed, so a position changed in place is seen as another one.
    ``key`` separates the values kept (a rule's name and the player, say); one value per key, at most
    ``size`` keys (each holding one position's inputs), the oldest going first. The value is shared
    between the calls that find it: treat it as read-only.

    >>> memo, hand = {}, {"ore": 1}
    >>> per_position(memo, "n", (hand,), lambda: sum(hand.values()))
    1
    >>> hand["ore"] = 2
    >>> per_position(memo, "n", (hand,), lambda: sum(hand.values()))
    2
    """
    hit = memo.get(key)
    if hit is not None and hit[0] == inputs:
        return hit[1]
    value = compute()
    if hit is None and len(memo) >= size:
        try:
            del memo[next(iter(memo))]
        except (KeyError, RuntimeError, StopIteration):    # another request dropped it at once: harmless
            pass
    memo[key] = (_kept(inputs), value)
    return value


def _kept(inputs: tuple) -> tuple:
    """A copy of ``per_position``'s inputs: every dict, and every list and the dicts in it, copied; what
    they hold shared."""
    out = []
    for x in inputs:
        t = type(x)
        if t is dict:
            x = x.copy()
        elif t is list:
            x = [y.copy() if type(y) is dict else y for y in x]
        out.append(x)
    return tuple(out)


_getsizeof = sys.getsizeof
_SAMPLE = 8                 # a container longer than twice this is measured by its first items
_ATOMS = (int, float, str, bytes, bool, type(None))


def approx_bytes(obj: Any, depth: int = 8) -> int:
    """Roughly how many bytes ``obj`` holds: its own size and, for tuples, lists, sets, dicts and objects
    with ``__dict__`` or ``__slots__``, what they hold (``depth`` levels down; shared objects counted
    each time they are met, so the figure errs high; a long container by a sample of its items)."""
    n = _getsizeof(obj)
    if depth <= 0 or isinstance(obj, _ATOMS):
        return n
    depth -= 1
    if isinstance(obj, dict):
        if len(obj) > _SAMPLE * 2:                      # a long one: a sample, scaled up
            part = 0
            for i, (k, v) in enumerate(obj.items()):
                if i == _SAMPLE:
                    break
                part += approx_bytes(k, depth) + approx_bytes(v, depth)
            return n + part * len(obj) // _SAMPLE
        for k, v in obj.items():
            n += approx_bytes(k, depth) + approx_bytes(v, depth)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        if len(obj) > _SAMPLE * 2:
            part = 0
            for i, x in enumerate(obj):
                if i == _SAMPLE:
                    break
                part += approx_bytes(x, depth)
            return n + part * len(obj) // _SAMPLE
        for x in obj:
            n += approx_bytes(x, depth)
    else:
        d = getattr(obj, "__dict__", None)
        if d is not None:
            n += approx_bytes(d, depth)
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                x = getattr(obj, name, None)
                if x is not None:
                    n += approx_bytes(x, depth)
    return n


class _Ledger:
    __slots__ = ("total", "sizes")

    def __init__(self) -> None:
        self.total = 0
        self.sizes: dict[int, int] = {}                 # id of a key held -> its entry's bytes


_LEDGERS: dict[int, _Ledger] = {}


def held_bytes(d: dict) -> int:
    """The estimated bytes the memo ``d`` holds (0 for one never written by :func:`bounded_put`)."""
    led = _LEDGERS.get(id(d))
    return led.total if led is not None and d else 0


def bounded_put(d: dict, key: Hashable, value: Any, size: int = MEMO_SIZE, nbytes: Optional[int] = None,
                max_bytes: Optional[int] = None) -> None:
    """``d[key] = value``, dropping the oldest entries first while ``d`` holds ``size`` entries or the
    new entry would take it over ``max_bytes`` (:data:`MEMO_BYTES` when None). ``nbytes`` is the entry's
    size when the caller knows it (else :func:`approx_bytes` of key and value). An entry larger than the
    whole bound is not kept. Entries are counted by the identity of their key (held by ``d``, so it
    stays the same while the entry is there; no second hash of a long key); a key put again while held
    (two requests at once) is counted twice until the memo empties, which errs on the side of keeping
    less. Safe under threads: another request dropping the same entry at once is harmless."""
    cap = MEMO_BYTES if max_bytes is None else max_bytes
    n = nbytes if nbytes is not None else approx_bytes(key) + approx_bytes(value)
    led = _LEDGERS.get(id(d))
    if led is None:
        led = _LEDGERS[id(d)] = _Ledger()
    elif not d and led.total:                           # cleared since
        led.total = 0
        led.sizes.clear()
    if n > cap:
        return
    sizes = led.sizes
    if len(d) >= size or led.total + n > cap:
        try:
            while d and (len(d) >= size or led.total + n > cap):
                k = next(iter(d))
                del d[k]
                led.total -= sizes.pop(id(k), 0)
        except (KeyError, RuntimeError, StopIteration):
            pass
    d[key] = value
    sizes[id(key)] = n
    led.total += n


class ByteLRU:
    """A thread-safe least-recently-used map bounded in bytes (each entry's size given when it is put)
    and in entries.

    >>> c = ByteLRU(max_bytes=10)
    >>> c.put("a", b"12345", 5); c.put("b", b"123", 3); c.get("a") is not None
    True
    >>> c.put("c", b"1234", 4); c.get("b") is None, c.held
    (True, 9)
    """

    def __init__(self, max_bytes: int, max_entries: int = 1 << 30) -> None:
        self.max_bytes = max(0, int(max_bytes))
        self.max_entries = max(1, int(max_entries))
        self.data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.held = 0
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self.lock:
            hit = self.data.get(key)
            if hit is None:
                return None
            self.data.move_to_end(key)
            return hit[0]

    def put(self, key: Hashable, value: Any, nbytes: int) -> None:
        """Keep ``value`` under ``key`` unless it is larger than the whole bound; drop the least recently
        used entries while the bounds are exceeded."""
        if nbytes > self.max_bytes:
            return
        with self.lock:
            old = self.data.pop(key, None)
            if old is not None:
                self.held -= old[1]
            self.data[key] = (value, nbytes)
            self.held += nbytes
            while self.held > self.max_bytes or len(self.data) > self.max_entries:
                _, (_, n) = self.data.popitem(last=False)
                self.held -= n

    def clear(self) -> None:
        with self.lock:
            self.data.clear()
            self.held = 0

    def __len__(self) -> int:
        return len(self.data)
