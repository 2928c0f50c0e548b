"""Choices given as ranges (counts of cards) with a checked example, and drawing from them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

from ..core import Action
from ..module import RANGE_KINDS
from ..mapgraph import RESOURCES, MapGraph
from ..rng import Rng
from ..state import State
from ..actions.trade import trade_partners
from ..memo import per_position

if TYPE_CHECKING:  # pragma: no cover
    from ..scenarios.base import Scenario

from .common import LegalActions

# -- ranges --------------------------------------------------------------------------------------------

def _greedy(total: int, at_most: dict[str, int]) -> dict[str, int]:
    out = {r: 0 for r in RESOURCES}
    left = total
    for r in RESOURCES:
        k = min(left, at_most.get(r, 0))
        out[r] = k
        left -= k
    return out


def _cards_range(total: int, at_most: dict[str, int]) -> dict[str, Any]:
    return {"total": total, "at_most": {r: min(at_most.get(r, 0), total) for r in RESOURCES}}


def _range_specs(type_: str, state: State, graph: MapGraph, scen: "Scenario", p: int) -> Iterable[tuple[dict, Action]]:
    """(range spec, one concrete action inside it) for each range of ``type_``."""
    own = scen.composition.actions[type_].ranges
    if own is not None:                      # a module's ranged type
        yield from own.specs(state, graph, scen, p)
        return
    hand = state.players[p].resources
    if type_ == "discard":
        owed = state.pending_discards.get(p)
        if owed is not None:
            yield {"resources": _cards_range(owed, hand)}, Action("discard", p, {"resources": _greedy(owed, hand)})
    elif type_ == "play_year_of_plenty":
        total = min(2, sum(state.bank.values()))
        yield ({"resources": _cards_range(total, state.bank)},
               Action(type_, p, {"resources": _greedy(total, state.bank)}))
    elif type_ == "choose_gold":
        owed = state.pending_gold.get(p)
        if owed is not None:
            total = min(owed, sum(state.bank.values()))
            yield ({"resources": _cards_range(total, state.bank)},
                   Action(type_, p, {"resources": _greedy(total, state.bank)}))
    elif type_ == "domestic_trade":
        for listed in domestic_ranges(state, p, scen.composition.currencies):
            yield ({k: v for k, v in listed.items() if k not in ("type", "player", "example")},
                   domestic_example(listed))


_DOMESTIC: dict = {}


def domestic_ranges(state: State, p: int, currencies: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The domestic trades of ``p`` as listed ranges, one per partner (``trade.trade_partners``) holding a
    kind ``p`` does not give: any cards (and any amount of the game's ``currencies``) of the hand for any
    of the partner's, at least one each way, no kind on both sides (``trade.DomesticTrade``); the example
    gives the first kind held for the first other kind the partner holds. Computed once per position
    (``memo.per_position``: the hands, and the currencies held, are what it reads); read-only."""
    players = state.players
    inputs = (state.current_player, [pl.resources for pl in players],
              [tuple([pl.extra.get(c, 0) for c in currencies]) for pl in players] if currencies else None)
    return per_position(_DOMESTIC, (p, currencies), inputs, lambda: _domestic(state, p, currencies))


def domestic_example(listed: dict[str, Any]) -> Action:
    """The example of a listed domestic-trade range, as an action."""
    ex = listed["example"]
    return Action(ex["type"], ex["player"], {k: v for k, v in ex.items() if k != "type" and k != "player"})


def _domestic(state: State, p: int, currencies: tuple[str, ...]) -> list[dict[str, Any]]:
    t = "domestic_trade"
    players = state.players
    kinds = RESOURCES + currencies
    hands = []
    for pl in players:
        res = pl.resources
        hand = dict(res) if tuple(res) == RESOURCES else {r: res.get(r, 0) for r in RESOURCES}
        for c in currencies:
            hand[c] = pl.extra.get(c, 0)
        hands.append(hand)
    mine = hands[p]
    held = [r for r in kinds if mine[r] > 0]
    out: list[dict[str, Any]] = []
    if not held:
        return out
    for q in trade_partners(state, p):
        theirs = hands[q]
        for a in held:                      # the first (a, b) in kind order: a held, b theirs, a != b
            for b in kinds:
                if b != a and theirs[b] > 0:
                    break
            else:
                continue
            break
        else:
            continue
        out.append({"type": t, "player": p, "partner": q, "accepted": True,
                    "give": {"at_least": 1, "at_most": mine}, "get": {"at_least": 1, "at_most": theirs},
                    "no_type_on_both_sides": True,
                    "example": {"type": t, "player": p, "partner": q, "give": {a: 1}, "get": {b: 1},
                                "accepted": True}})
    return out


def cards_in_range(cards: dict[str, int], rng: dict[str, Any]) -> bool:
    """Whether counts of cards lie inside one side of a range spec (``at_most``, ``total``...)."""
    cards = {r: n for r, n in cards.items() if n}
    if any(r not in rng["at_most"] or n > rng["at_most"].get(r, 0) for r, n in cards.items()):
        return False
    total = sum(cards.values())
    if "total" in rng:
        return total == rng["total"]
    if total > rng.get("total_at_most", total) or total % rng.get("multiple_of", 1):
        return False
    return total >= rng.get("at_least", 0)


def draw_cards(rng: Rng, total: int, at_most: dict[str, int]) -> dict[str, int]:
    """``total`` cards drawn at random within ``at_most`` (for sampling a range)."""
    pool = [r for r in at_most for _ in range(at_most.get(r, 0))]
    out = {r: 0 for r in at_most}
    for r in rng.shuffle(pool)[:total]:
        out[r] += 1
    return out


def range_admits(type_: str, spec: dict[str, Any], action: Action, state: Optional[State] = None,
                 graph: Optional[MapGraph] = None, scenario: Optional["Scenario"] = None) -> bool:
    """Whether a concrete action lies inside a range spec (the property test samples both ways). A
    module's ``positional`` range is judged at its position: give ``state``, ``graph`` and ``scenario``."""
    cards_ok = cards_in_range
    if action.type != type_:
        return False
    kind = RANGE_KINDS.get(type_)
    if kind is not None:
        if kind.positional:
            if state is None or graph is None or scenario is None:
                raise ValueError(f"a range of {type_} is judged at its position: give state, graph and scenario")
            return kind.admits(spec, action, state, graph, scenario)
        return kind.admits(spec, action)
    if type_ == "domestic_trade":
        give = {r: n for r, n in action.get("give").items() if n}
        get = {r: n for r, n in action.get("get").items() if n}
        return (action.get("partner") == spec["partner"] and bool(action.get("accepted"))
                and cards_ok(give, spec["give"]) and cards_ok(get, spec["get"]) and not set(give) & set(get))
    return cards_ok(action.get("resources"), spec["resources"])


def sample_range(spec: dict[str, Any], rng: Rng) -> Action:
    """One concrete action inside a range, drawn with ``rng`` (for random play and tests)."""
    t, p = spec["type"], spec["player"]

    def draw(total: int, at_most: dict[str, int]) -> dict[str, int]:
        return draw_cards(rng, total, at_most)

    kind = RANGE_KINDS.get(t)
    if kind is not None:
        return kind.sample(spec, rng)
    if t != "domestic_trade":
        return Action(t, p, {"resources": draw(spec["resources"]["total"], spec["resources"]["at_most"])})
    mine, theirs = spec["give"]["at_most"], spec["get"]["at_most"]
    give = draw(1 + rng.below(min(3, sum(mine.values()))), mine)
    left = {r: (0 if give[r] else n) for r, n in theirs.items()}
    if not sum(left.values()):
        return Action(t, p, {k: v for k, v in spec["example"].items() if k not in ("type", "player")})
    get = draw(1 + rng.below(min(3, sum(left.values()))), left)
    return Action(t, p, {"partner": spec["partner"], "give": give, "get": get, "accepted": True})


def random_action(la: LegalActions, rng: Rng) -> Optional[Action]:
    """A legal action picked at random: a type first (uniformly), then one of its actions or ranges."""
    types = sorted(set(la.actions) | set(la.ranges))
    if not types:
        return None
    t = types[rng.below(len(types))]
    if t in la.actions:
        acts = la.actions[t]
        specs = la.ranges.get(t)
        if specs:                           # a listed type with ranges beside: one of either, uniformly
            i = rng.below(len(acts) + len(specs))
            return acts[i] if i < len(acts) else sample_range(specs[i - len(acts)], rng)
        return acts[rng.below(len(acts))]
    specs = la.ranges[t]
    return sample_range(specs[rng.below(len(specs))], rng)



