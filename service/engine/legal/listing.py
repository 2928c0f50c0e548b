"""Values kept for the duration of one listing: computed once while one call of ``legal_actions`` judges
its candidates, forgotten when it returns.

The list judges many candidates of one position with the referee's own checks, and some of those checks
read a value of the whole position that every candidate asks for again (C&K's rates with the bank, its
plan of the roll's choices). The list never changes the state it judges, so within one call such a value
stays what it was: :func:`per_listing` keeps it under a key for the rest of that call. It is kept only
while the state, map graph and scenario asked about are the very objects of the listing under way
(compared by identity: a copy, or another position judged meanwhile, computes afresh), and forgotten
when the list is done, so nothing from one call reaches another, however the state is changed in place
between them (unlike :func:`memo.per_position`, which compares the inputs it names by value). Outside a
listing (``adjudicate``, a test calling a check) every call computes afresh.

The key names the value and whatever else it reads beside the state, and the graph and scenario given
with it (the player...).
The value is shared between the calls of the listing that ask for it: treat it as read-only. Per thread;
a listing started inside another (a module listing another position) keeps its own values and gives the
outer ones back when it returns.

>>> calls = []
>>> def rates():
...     calls.append(1)
...     return {"ore": 4}
>>> st, g, sc = object(), object(), object()
>>> per_listing(("rates", 0), rates, st, g, sc) and per_listing(("rates", 0), rates, st, g, sc) and len(calls)
2
>>> token = open_listing(st, g, sc)
>>> per_listing(("rates", 0), rates, st, g, sc) is per_listing(("rates", 0), rates, st, g, sc), len(calls)
(True, 3)
>>> close_listing(token)
>>> per_listing(("rates", 0), rates, st, g, sc) and len(calls)
4
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Hashable, Optional

class _Now(threading.local):
    #: The listing under way in this thread: (state, graph, scenario, values kept), or None.
    scope: Optional[tuple] = None


NOW = _Now()


def open_listing(state: Any, graph: Any, scenario: Any) -> Optional[tuple]:
    """Start keeping values for a listing of ``state``; give the token back to :func:`close_listing`."""
    outer = NOW.scope
    NOW.scope = (state, graph, scenario, {})
    return outer


def close_listing(token: Optional[tuple]) -> None:
    """Forget the listing's values (the outer listing's, if any, are in force again)."""
    NOW.scope = token


def per_listing(key: Hashable, compute: Callable[[], Any], state: Any, graph: Any = None, scenario: Any = None) -> Any:
    """``compute()``, kept under ``key`` for the rest of the listing under way when ``state`` is its own
    object, and so are ``graph`` and ``scenario`` when given (give those the value reads); computed afresh
    otherwise."""
    scope = NOW.scope
    if (scope is None or scope[0] is not state or (graph is not None and scope[1] is not graph)
            or (scenario is not None and scope[2] is not scenario)):
        return compute()
    kept = scope[3]
    if key in kept:
        return kept[key]
    value = kept[key] = compute()
    return value
