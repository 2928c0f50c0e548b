"""The seeded generator kept in the state: ``(seed, counter)`` -> the next number.

Counter-based (splitmix64 of seed and counter), so the generator's whole state is two integers in the
JSON and a replay draws exactly the same numbers.

>>> r = Rng(42, 0)
>>> [r.below(6) + 1 for _ in range(5)]
[4, 2, 2, 3, 6]
>>> r.counter
5
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Optional

MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


class Rng:
    __slots__ = ("seed", "counter")

    def __init__(self, seed: int, counter: int) -> None:
        self.seed = seed & MASK
        self.counter = counter

    def next64(self) -> int:
        v = splitmix64(self.seed ^ splitmix64(self.counter))
        self.counter += 1
        return v

    def below(self, n: int) -> int:
        """A number in ``range(n)``."""
        if n <= 0:
            raise ValueError("empty range")
        forced = FORCED.get()
        if forced is not None:                  # a perft count walking every outcome (``perft.outcomes``)
            self.counter += 1
            return forced.draw(n)
        return self.next64() % n

    def shuffle(self, items: list) -> list:
        """A new list: ``items`` shuffled (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def pick_weighted(self, counts: dict[str, int], order: tuple[str, ...]) -> str:
        """One item drawn uniformly from a multiset given as counts (in a fixed key order)."""
        forced = FORCED.get()
        if forced is not None:                  # one branch per item held, however many of it
            held = [k for k in order if counts.get(k, 0) > 0]
            if not held:
                raise ValueError("empty range")
            self.counter += 1
            return held[forced.draw(len(held))]
        total = sum(counts.get(k, 0) for k in order)
        i = self.below(total)
        for k in order:
            c = counts.get(k, 0)
            if i < c:
                return k
            i -= c
        raise AssertionError("unreachable")


#: While set (``perft.outcomes``, for the calls inside one ``with forcing(...)``), every draw is taken from
#: it instead of from the seed: ``draw(n)`` answers a number in ``range(n)``, so a count can walk every
#: outcome of a chance step. ``pick_weighted`` then draws among the distinct items held, not the copies.
FORCED: ContextVar[Optional[Any]] = ContextVar("seafarers_rng_forced", default=None)
