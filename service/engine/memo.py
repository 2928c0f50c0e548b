"""Bounded per-process memos: how the engine (and the service above it) keep derived results between
requests: route lengths, MNR witnesses, trade routes, island groups, loaded boards.

>>> d = {}
>>> for k in range(4):
...     bounded_put(d, k, k * k, size=3)
>>> d
{1: 1, 2: 4, 3: 9}
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

#: The default bound: entries kept before the oldest goes.
MEMO_SIZE = 8192


def per_board(graph: Any, key: str, compute: Callable[[Any], Any]) -> Any:
    """Data derived from a board's map graph alone (a module's network of spaces, distances...): computed
    once per graph and kept on it (``MapGraph.derived``), under ``key`` (the module's name for it)."""
    got = graph.derived.get(key)
    if got is None:
        got = graph.derived[key] = compute(graph)
    return got


def bounded_put(d: dict, key: Hashable, value: Any, size: int = MEMO_SIZE) -> None:
    """``d[key] = value``, dropping the oldest entry first when ``d`` holds ``size``. Safe under threads:
    another request dropping the same entry at once is harmless."""
    if len(d) >= size:
        try:
            del d[next(iter(d))]
        except (KeyError, RuntimeError, StopIteration):
            pass
    d[key] = value
