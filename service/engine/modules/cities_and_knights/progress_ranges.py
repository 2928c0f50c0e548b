"""Progress-card plays too many to list, given as ranges of ``play_progress`` beside its listed plays:
the cards whose resolution asks other players for cards of their choice, and the Commercial Harbor.

- Saboteur (CK-PROG-P6) and Wedding (CK-PROG-P9): ``{"card": ..., "cards": {"<player>": {"total": n,
  "at_most": {...}}}}``: inside when, for each player named, ``cards`` gives exactly ``n`` cards of their
  hand, each kind at most ``at_most`` (what they hold), and names no other player.
- Commercial Harbor (CK-PROG-T1): ``{"card": "commercial_harbor", "offers": {"<player>": {"give": [...],
  "get": [...]}}, "give_at_most": {...}}``: inside when ``offers`` names one or more of the players
  listed, each offered one resource of its ``give`` (all offers together within ``give_at_most``, the
  hand) and giving back one commodity of its ``get`` (no ``get`` when that list is empty: the trade is
  void).

One example, checked, goes with each range (the first choices in card order).
"""
from __future__ import annotations

from typing import Any, Iterable

from ...core import Action, Ctx
from ...mapgraph import RESOURCES
from ...module import RangeKind
from ...state import State
from . import store
from .data import CARDS, COMMODITIES
from .discards import first_cards
from .store import ck

RANGED_CARDS = ("commercial_harbor", "saboteur", "wedding")


def specs(state: State, graph: Any, scen: Any, p: int) -> Iterable[tuple[dict, Action]]:
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    from .progress import CARDS_PLAYED
    h = store.hand_of(state, p)
    for card in RANGED_CARDS:
        if not h.get(card, 0):
            continue
        if card == "commercial_harbor":
            mine = {r: state.players[p].resources.get(r, 0) for r in RESOURCES}
            give = [r for r in RESOURCES if mine[r]]
            done = set(ck(state)["turn"].get("harbor_partners") or [])
            partners = [q for q in range(state.num_players) if q != p and q not in done]
            if not give or not partners:
                continue
            offers = {str(q): {"give": give, "get": [c for c in COMMODITIES if store.commodities_of(state, q).get(c, 0)]}
                      for q in partners}
            q0 = str(partners[0])
            ex = {"give": give[0], "get": offers[q0]["get"][0] if offers[q0]["get"] else None}
            yield ({"card": card, "offers": offers, "give_at_most": {r: n for r, n in mine.items() if n}},
                   Action("play_progress", p, {"card": card, "offers": {q0: ex}}))
        else:
            owed = CARDS_PLAYED[card].owed(Ctx(state, Action("play_progress", p, {"card": card}), graph, scen))
            cards = {}
            for q, n in sorted(owed.items()):
                held = store.cards_of(state, q)
                cards[str(q)] = {"total": n, "at_most": {k: min(held.get(k, 0), n) for k in CARDS if held.get(k, 0)}}
            ex = {q: first_cards(c["total"], c["at_most"]) for q, c in cards.items()}
            yield {"card": card, "cards": cards}, Action("play_progress", p, {"card": card, "cards": ex})


def admits(spec: dict, action: Action) -> bool:
    if action.type != "play_progress" or action.get("card") != spec["card"]:
        return False
    if spec["card"] == "commercial_harbor":
        offers = action.get("offers") or {}
        if not offers:
            return False
        left = dict(spec["give_at_most"])
        for q, o in offers.items():
            allowed = spec["offers"].get(str(q))
            if allowed is None or o.get("give") not in allowed["give"] or left.get(o["give"], 0) <= 0:
                return False
            left[o["give"]] -= 1
            if (o.get("get") not in allowed["get"]) if allowed["get"] else o.get("get") is not None:
                return False
        return True
    gifts = action.get("cards") or {}
    if any(str(q) not in spec["cards"] and any(g.values()) for q, g in gifts.items()):
        return False
    for q, c in spec["cards"].items():
        g = {k: v for k, v in (gifts.get(q) or {}).items() if v}
        if sum(g.values()) != c["total"] or any(v > c["at_most"].get(k, 0) for k, v in g.items()):
            return False
    return True


def sample(spec: dict, rng: Any) -> Action:
    from ...legal import draw_cards
    p, card = spec["player"], spec["card"]
    if card == "commercial_harbor":
        left = dict(spec["give_at_most"])
        offers = {}
        qs = sorted(spec["offers"])
        pick = [q for q in qs if rng.below(2)] or [qs[rng.below(len(qs))]]
        for q in pick:
            give = [r for r in spec["offers"][q]["give"] if left.get(r, 0) > 0]
            if not give:
                break
            r = give[rng.below(len(give))]
            left[r] -= 1
            got = spec["offers"][q]["get"]
            offers[q] = {"give": r, "get": got[rng.below(len(got))] if got else None}
        return Action("play_progress", p, {"card": card, "offers": offers})
    return Action("play_progress", p, {"card": card, "cards": {q: {k: v for k, v in draw_cards(
        rng, c["total"], c["at_most"]).items() if v} for q, c in spec["cards"].items()}})


def _harbor_offers(spec: dict) -> Iterable[dict]:
    """Each ``offers`` of a Commercial Harbor range once: one or more of the players listed, in order,
    each offered one resource of its ``give`` (together within ``give_at_most``) and giving back one
    commodity of its ``get`` (None when that list is empty)."""
    qs = sorted(spec["offers"])

    def walk(i: int, left: dict, chosen: dict) -> Iterable[dict]:
        if i == len(qs):
            if chosen:
                yield dict(chosen)
            return
        yield from walk(i + 1, left, chosen)               # this player not asked
        q, allowed = qs[i], spec["offers"][qs[i]]
        for r in allowed["give"]:
            if left.get(r, 0) <= 0:
                continue
            left[r] -= 1
            for c in (allowed["get"] or [None]):
                chosen[q] = {"give": r, "get": c}
                yield from walk(i + 1, left, chosen)
                del chosen[q]
            left[r] += 1

    yield from walk(0, dict(spec["give_at_most"]), {})


def _gifts(spec: dict) -> Iterable[dict]:
    from ...legal.counting import cards_of
    qs = sorted(spec["cards"])

    def walk(i: int, chosen: dict) -> Iterable[dict]:
        if i == len(qs):
            yield dict(chosen)
            return
        for g in cards_of(spec["cards"][qs[i]]):
            chosen[qs[i]] = {k: v for k, v in g.items() if v}
            yield from walk(i + 1, chosen)

    yield from walk(0, {})


def count(spec: dict) -> int:
    """The plays inside a range (Saboteur, Wedding: the product over the players asked of the hands each
    may give; the Commercial Harbor: its offers, each counted)."""
    if spec["card"] == "commercial_harbor":
        return sum(1 for _ in _harbor_offers(spec))
    from ...legal.counting import count_cards
    n = 1
    for c in spec["cards"].values():
        n *= count_cards(c)
    return n


def members(spec: dict) -> Iterable[Action]:
    p, card = spec["player"], spec["card"]
    if card == "commercial_harbor":
        for offers in _harbor_offers(spec):
            yield Action("play_progress", p, {"card": card, "offers": offers})
        return
    for gifts in _gifts(spec):
        yield Action("play_progress", p, {"card": card, "cards": gifts})


RANGES = RangeKind(specs, admits, sample, count=count, members=members)

__all__ = ["RANGES", "RANGED_CARDS", "specs", "admits", "sample"]
