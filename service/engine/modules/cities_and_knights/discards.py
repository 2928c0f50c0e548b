"""Discarding on a 7 with Cities & Knights (CK-SEVEN-2, CK-COM-3) as a range in the legal-action list,
like the base game's ``discard``: any resources and commodities of the hand adding up to the count owed.

A range is ``{"total": n, "resources": {"at_most": {...}}, "commodities": {"at_most": {...}}}``: an
action lies inside it when its two fields together name exactly ``n`` cards, each kind at most what
``at_most`` says (what the player holds, and never more than ``n``). One example, checked, goes with it.
"""
from __future__ import annotations

from typing import Any, Iterable

from ...core import Action
from ...mapgraph import RESOURCES
from ...module import RangeKind
from ...state import State
from . import store
from .data import CARDS, COMMODITIES


def first_cards(total: int, held: dict[str, int]) -> dict[str, int]:
    """``total`` cards of ``held`` taken in the cards' order (a range's checked example)."""
    out, left = {}, total
    for k in CARDS:
        n = min(left, held.get(k, 0))
        if n:
            out[k] = n
            left -= n
    return out


def _split(cards: dict[str, int]) -> dict[str, dict[str, int]]:
    return {"resources": {k: cards.get(k, 0) for k in RESOURCES},
            "commodities": {k: cards.get(k, 0) for k in COMMODITIES}}


def specs(state: State, graph: Any, scen: Any, p: int) -> Iterable[tuple[dict, Action]]:
    """CK-SEVEN-2: the one range of a player who owes a discard, with the cards taken greedily as example."""
    owed = state.pending_discards.get(p)
    if owed is None or state.phase != "discard":
        return
    held = store.cards_of(state, p)
    spec = {"total": owed,
            "resources": {"at_most": {k: min(held.get(k, 0), owed) for k in RESOURCES}},
            "commodities": {"at_most": {k: min(held.get(k, 0), owed) for k in COMMODITIES}}}
    yield spec, Action("discard_cards", p, _split(first_cards(owed, held)))


def admits(spec: dict, action: Action) -> bool:
    total = 0
    for side in ("resources", "commodities"):
        cap = spec[side]["at_most"]
        for k, n in (action.get(side) or {}).items():
            if n and (k not in cap or n > cap[k]):
                return False
            total += n
    return total == spec["total"]


def sample(spec: dict, rng: Any) -> Action:
    from ...legal import draw_cards
    pool = {**spec["resources"]["at_most"], **spec["commodities"]["at_most"]}
    return Action(spec["type"], spec["player"], _split(draw_cards(rng, spec["total"], pool)))


def _pool(spec: dict) -> dict:
    return {"total": spec["total"], "at_most": {**spec["resources"]["at_most"], **spec["commodities"]["at_most"]}}


def count(spec: dict) -> int:
    """The discards inside a range: every hand of ``total`` cards within the caps."""
    from ...legal.counting import count_cards
    return count_cards(_pool(spec))


def members(spec: dict) -> Iterable[Action]:
    from ...legal.counting import cards_of
    for cards in cards_of(_pool(spec)):
        yield Action(spec["type"], spec["player"], _split(cards))


RANGES = RangeKind(specs, admits, sample, count=count, members=members)

__all__ = ["RANGES", "specs", "admits", "sample"]
