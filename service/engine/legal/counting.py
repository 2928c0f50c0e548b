"""How many actions a range of the legal-action list holds, counted exactly (not enumerated), and each of
them once when a count must go past them (a perft count, ``engine/perft.py``).

One side of a range is counts of cards (``ranges.cards_in_range``): ``at_most`` per kind, and an exact
``total``, or ``at_least`` / ``total_at_most`` / ``multiple_of``. The number of hands inside a side is a
product of small polynomials (one per kind: any count from 0 to its cap), read off at the totals allowed.

>>> count_cards({"total": 2, "at_most": {"brick": 2, "wool": 1}})
2
>>> sorted(tuple(sorted(c.items())) for c in cards_of({"total": 2, "at_most": {"brick": 2, "wool": 1}}))
[(('brick', 1), ('wool', 1)), (('brick', 2), ('wool', 0))]
>>> domestic_count({"give": {"at_least": 1, "at_most": {"brick": 1}}, "get": {"at_least": 1, "at_most": {"wool": 2}}})
2
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

from ..core import Action
from ..module import RANGE_KINDS


def _totals(side: dict[str, Any]) -> list[int]:
    """``out[t]``: the number of hands inside the caps of ``side`` holding ``t`` cards in all."""
    out = [1]
    for cap in side["at_most"].values():
        cap = max(0, int(cap))
        if not cap:
            continue
        nxt = [0] * (len(out) + cap)
        for t, n in enumerate(out):
            if n:
                for k in range(cap + 1):
                    nxt[t + k] += n
        out = nxt
    return out


def _fits(side: dict[str, Any], total: int) -> bool:
    if "total" in side:
        return total == side["total"]
    if total > side.get("total_at_most", total) or total % side.get("multiple_of", 1):
        return False
    return total >= side.get("at_least", 0)


def count_cards(side: dict[str, Any]) -> int:
    """The number of hands inside one side of a range (as ``cards_in_range`` reads it)."""
    return sum(n for t, n in enumerate(_totals(side)) if _fits(side, t))


def cards_of(side: dict[str, Any]) -> Iterator[dict[str, int]]:
    """Each hand inside one side of a range once (every kind of ``at_most`` named, 0 included)."""
    kinds = list(side["at_most"])
    caps = [max(0, int(side["at_most"][k])) for k in kinds]
    most = side.get("total", side.get("total_at_most", sum(caps)))
    picked = [0] * len(kinds)

    def walk(i: int, total: int) -> Iterator[dict[str, int]]:
        if i == len(kinds):
            if _fits(side, total):
                yield dict(zip(kinds, picked))
            return
        for k in range(min(caps[i], most - total) + 1):
            picked[i] = k
            yield from walk(i + 1, total + k)
        picked[i] = 0

    yield from walk(0, 0)


def _plain_side(side: dict[str, Any]) -> bool:
    return set(side) <= {"at_least", "at_most"} and side.get("at_least", 0) <= 1


def domestic_count(spec: dict[str, Any]) -> int:
    """The domestic trades inside a range: a hand given and one got, each inside its side, no kind on both
    sides. Per kind: give some of it, or get some of it, or neither; counted with whether anything was
    given and anything got so far (each side asks at least one card)."""
    give, get = spec["give"], spec["get"]
    if not (_plain_side(give) and _plain_side(get)):
        raise ValueError("a domestic range with totals cannot be counted")
    # ways[gave][got]
    ways = [[1, 0], [0, 0]]
    for k in sorted(set(give["at_most"]) | set(get["at_most"])):
        g, h = max(0, int(give["at_most"].get(k, 0))), max(0, int(get["at_most"].get(k, 0)))
        nxt = [[0, 0], [0, 0]]
        for a in (0, 1):
            for b in (0, 1):
                n = ways[a][b]
                if not n:
                    continue
                nxt[a][b] += n                          # neither
                if g:
                    nxt[1][b] += n * g                  # give 1..g of it
                if h:
                    nxt[a][1] += n * h                  # get 1..h of it
        ways = nxt
    need_give, need_get = give.get("at_least", 0), get.get("at_least", 0)
    return sum(ways[a][b] for a in (0, 1) for b in (0, 1) if a >= need_give and b >= need_get)


def domestic_members(spec: dict[str, Any]) -> Iterator[Action]:
    """Each domestic trade inside a range once (the cards given and got named only where not 0)."""
    give_side, get_side = spec["give"], spec["get"]
    for give in cards_of(give_side):
        gave = {k: n for k, n in give.items() if n}
        rest = {k: (0 if gave.get(k) else n) for k, n in get_side["at_most"].items()}
        for get in cards_of({**get_side, "at_most": rest}):
            got = {k: n for k, n in get.items() if n}
            yield Action("domestic_trade", spec["player"], {"partner": spec["partner"], "give": gave,
                                                            "get": got, "accepted": True})


def range_count(spec: dict[str, Any], state: Any = None, graph: Any = None, scenario: Any = None) -> Optional[int]:
    """The exact number of actions inside a listed range (``LegalActions.ranges``); None when its kind
    does not say (a module's ``RangeKind`` without ``count``, or a ``positional`` kind asked without its
    position: ``state``, ``graph`` and ``scenario``)."""
    t = spec["type"]
    kind = RANGE_KINDS.get(t)
    if kind is not None:
        if kind.count is None:
            return None
        if kind.positional:
            return None if state is None else kind.count(spec, state, graph, scenario)
        return kind.count(spec)
    if t == "domestic_trade":
        return domestic_count(spec)
    return count_cards(spec["resources"])


def range_members(spec: dict[str, Any], state: Any = None, graph: Any = None,
                  scenario: Any = None) -> Optional[Iterator[Action]]:
    """Each action inside a listed range once, or None when its kind does not say (a ``positional``
    kind: at the position given)."""
    t = spec["type"]
    kind = RANGE_KINDS.get(t)
    if kind is not None:
        if kind.members is None:
            return None
        if kind.positional:
            return None if state is None else iter(kind.members(spec, state, graph, scenario))
        return iter(kind.members(spec))
    if t == "domestic_trade":
        return domestic_members(spec)
    p = spec["player"]
    return (Action(t, p, {"resources": hand}) for hand in cards_of(spec["resources"]))
