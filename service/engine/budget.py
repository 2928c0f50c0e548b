"""A cost budget per request: a deadline that long loops check, so one request cannot hold a worker.

The engine reads no clock of its own: the caller makes a :class:`Budget` with the clock it wants (the
service uses the CPU time of the request's thread) and either passes it to a loop that takes one
(``replay``) or makes it the current budget for everything it calls (:func:`running`), which the
searches deep in the engine (the longest-route search) consult through :func:`check`.

>>> t = [0.0]
>>> b = Budget(2.0, lambda: t[0])
>>> b.check(); t[0] = 2.5
>>> try:
...     b.check()
... except BudgetExceeded as e:
...     print(e.seconds)
2.0
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator, Optional


class BudgetExceeded(Exception):
    """The request used up its budget (``seconds``) before its answer was ready."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the request needs more than its budget of {seconds:g} s")
        self.seconds = seconds


class Budget:
    """``seconds`` of ``clock`` from now; :meth:`check` raises :class:`BudgetExceeded` once they are spent."""

    __slots__ = ("seconds", "clock", "deadline")

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds, self.clock = float(seconds), clock
        self.deadline = clock() + self.seconds

    def check(self) -> None:
        if self.clock() > self.deadline:
            raise BudgetExceeded(self.seconds)


_CURRENT: ContextVar[Optional[Budget]] = ContextVar("seafarers_budget", default=None)


def current() -> Optional[Budget]:
    """The budget made current by :func:`running` (None: unbounded)."""
    return _CURRENT.get()


def check() -> None:
    """Check the current budget, if any."""
    b = _CURRENT.get()
    if b is not None and b.clock() > b.deadline:
        raise BudgetExceeded(b.seconds)


@contextmanager
def running(budget: Optional[Budget]) -> Iterator[Optional[Budget]]:
    """Make ``budget`` the current one for the calls inside the ``with`` block."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def install(budget: Optional[Budget]) -> None:
    """Make ``budget`` current until the next :func:`install` (for a request's before/after hooks)."""
    _CURRENT.set(budget)
