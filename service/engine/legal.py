"""Every legal action of a position: candidates per action type, filtered through the referee's checks.

For each action type a generator proposes candidates (a superset of what could be legal: every empty
edge for a road, every hex and victim for the robber...), and each candidate is kept only if
:func:`service.engine.referee.check_action` finds no violation, the very function ``adjudicate`` runs.
So a listed action is legal by construction, and a legal action missing from the list means a
generator proposed too little (the property test in ``tests/test_legal_property.py`` looks for that).

Some choices are too many to list and are described as *ranges* instead, each with one concrete
example that was checked: discarding (any cards of the hand adding up to the count owed), Year of Plenty
and gold-field picks (any cards of the bank adding up to the count), domestic trades (any cards, and
with GOLD any coins, of one hand for any of the other's, at least one each way, no kind on both sides),
and GOLD's trades with the bank (``gold_trade``: ``direction`` "buy", ``rate`` gold per card got, the
cards within ``get``; or "sell", a multiple of ``rate`` cards within ``give`` for one gold per ``rate``).

Listing conventions: parameters that report a chance outcome (dice, a drawn or stolen card, what an
unexplored space turned out to be) are listed at their default, left to the seeded generator; GOLD's
``sail_ship`` is listed once per reachable space and extension choice, with one shortest path (any
other path within the allowance ending there is legal too).

Scenario-specific action types come from the scenario hook ``legal_candidates(state, graph, player)``.

>>> from service.engine.scenarios import get_scenario
>>> from service.engine.mapgraph import MapGraph
>>> scen = get_scenario("base")
>>> state = scen.new_game(3, seed=7)
>>> la = legal_actions(state, MapGraph.build(state.terrain_map()), scen)
>>> la.player, sorted(la.actions), len(la.actions["build_settlement"])
(0, ['build_settlement'], 54)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from .actions.gold import BUY_RATE, SELL_RATE
from .actions.seafarers import next_gold_chooser
from .actions.dev import may_play
from .bank import COSTS, cannot_pay
from .core import Action, Ctx, Violation
from .mapgraph import RESOURCES, MapGraph
from .placement import road_connected, road_site, ship_connected, ship_site
from .referee import HANDLERS, check_action, gate
from .rng import Rng
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

#: Action types whose choices are described as ranges, not listed one by one.
RANGE_TYPES = ("discard", "play_year_of_plenty", "choose_gold", "domestic_trade", "gold_trade")


@dataclass
class LegalActions:
    """The legal actions of one player: listed ones by type, and ranges (with a checked example)."""
    player: int
    players_to_act: list[int]
    actions: dict[str, list[Action]] = field(default_factory=dict)
    ranges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.actions.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "players_to_act": self.players_to_act,
            "count": self.count,
            "actions": {t: [action_json(a) for a in acts] for t, acts in sorted(self.actions.items())},
            "ranges": {t: specs for t, specs in sorted(self.ranges.items())},
        }


def handler_for(scenario: "Scenario", type_: str):
    return scenario.handler(type_) or HANDLERS.get(type_)


def violations_of(state: State, action: Action, graph: MapGraph, scenario: "Scenario") -> list[Violation]:
    """The violations ``adjudicate`` would report for ``action`` (empty: legal), without applying it."""
    return check_action(Ctx(state, action, graph, scenario), handler_for(scenario, action.type))


def is_legal(state: State, action: Action, graph: MapGraph, scenario: "Scenario") -> bool:
    return not violations_of(state, action, graph, scenario)


def players_to_act(state: State) -> list[int]:
    """Who may act now: the players owing a discard, the next gold picker, else the current player.

    (In the main phase the other players may also take part in a domestic trade with the current
    player; ask for them by name.)"""
    if state.phase == "game_over":
        return []
    if state.phase == "discard":
        return sorted(state.pending_discards)
    if state.phase == "gold_choice":
        nxt = next_gold_chooser(state)
        return [nxt] if nxt >= 0 else []
    return [state.current_player]


# -- JSON form ---------------------------------------------------------------------------------------

def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def action_json(a: Action) -> dict[str, Any]:
    """The action as a client would post it (parameters left at their default are left out)."""
    out: dict[str, Any] = {"type": a.type, "player": a.player}
    for k, v in a.params.items():
        if v is not None:
            out[k] = _plain(v)
    return out


# -- candidates per action type ----------------------------------------------------------------------

Candidates = Callable[[State, MapGraph, "Scenario", int], Iterable[Action]]
CANDIDATES: dict[str, Candidates] = {}


def candidates(*types: str):
    def register(fn: Candidates) -> Candidates:
        for t in types:
            CANDIDATES[t] = fn
        return fn
    return register


def _occupied(state: State, e) -> bool:
    return e in state.roads or e in state.ships


@candidates("build_settlement")
def _settlements(state, graph, scen, p):
    for n, land in zip(graph.nodes, graph.node_land):
        if land and n not in state.buildings:
            yield Action("build_settlement", p, {"node": n})


@candidates("build_city")
def _cities(state, graph, scen, p):
    for n, (owner, kind) in state.buildings.items():
        if owner == p and kind == "settlement":
            yield Action("build_city", p, {"node": n})


@candidates("build_road")
def _roads(state, graph, scen, p):
    for eid, e in enumerate(graph.edges):
        if graph.road_edge(eid) and not _occupied(state, e):
            yield Action("build_road", p, {"edge": e})


@candidates("build_ship")
def _ships(state, graph, scen, p):
    for eid, e in enumerate(graph.edges):
        if graph.ship_edge(eid) and not _occupied(state, e):
            yield Action("build_ship", p, {"edge": e})


@candidates("roll")
def _roll(state, graph, scen, p):
    yield Action("roll", p, {"dice": None})          # the seeded generator rolls; observed dice may be posted


@candidates("end_turn")
def _end_turn(state, graph, scen, p):
    yield Action("end_turn", p, {})


@candidates("buy_development_card")
def _buy(state, graph, scen, p):
    yield Action("buy_development_card", p, {"card": None})   # drawn by the seeded generator


@candidates("play_monopoly")
def _monopoly(state, graph, scen, p):
    for r in RESOURCES:
        yield Action("play_monopoly", p, {"resource": r})


def _victims(state: State, p: int) -> list[Optional[int]]:
    return [None] + [q for q in range(state.num_players) if q != p]


def _move_typed(type_: str):
    def gen(state, graph, scen, p):
        for h in sorted(state.hexes):
            for v in _victims(state, p):
                yield Action(type_, p, {"hex": h, "steal_from": v, "card": None})
    return gen


CANDIDATES["move_robber"] = _move_typed("move_robber")
CANDIDATES["move_pirate"] = _move_typed("move_pirate")


@candidates("play_knight")
def _knight(state, graph, scen, p):
    targets = ("robber", "pirate") if scen.pirate else ("robber",)
    for target in targets:
        for h in sorted(state.hexes):
            for v in _victims(state, p):
                yield Action("play_knight", p, {"hex": h, "steal_from": v, "card": None, "target": target})


@candidates("maritime_trade")
def _maritime(state, graph, scen, p):
    hand = state.players[p].resources
    for gr in RESOURCES:
        for rate in (2, 3, 4):
            for m in range(1, hand.get(gr, 0) // rate + 1):
                for wr in RESOURCES:
                    if wr != gr:
                        yield Action("maritime_trade", p, {"give": {gr: m * rate}, "get": {wr: m}})


def _network_nodes(state: State, graph: MapGraph, p: int) -> set[int]:
    nodes = {graph.node_index[n] for n, (o, _) in state.buildings.items() if o == p and n in graph.node_index}
    for pieces in (state.roads, state.ships):
        for e, o in pieces.items():
            if o == p and e in graph.edge_index:
                nodes.update(graph.edge_node_ids[graph.edge_index[e]])
    return nodes


@candidates("move_ship")
def _move_ship(state, graph, scen, p):
    own = sorted(e for e, o in state.ships.items() if o == p)
    targets = [e for eid, e in enumerate(graph.edges) if graph.ship_edge(eid)]
    for src in own:
        for dst in targets:
            yield Action("move_ship", p, {"from": src, "to": dst})


@candidates("play_road_building")
def _road_building(state, graph, scen, p):
    kinds = ("road", "ship") if scen.ships else ("road",)
    sup = state.players[p].supply
    avail = sum(sup.get(k + "s", 0) for k in kinds)
    probe = Ctx(state, Action("play_road_building", p, {}), graph, scen)
    firsts = []
    for k in kinds:
        if sup.get(k + "s", 0) <= 0:
            continue
        site, connected = (road_site, road_connected) if k == "road" else (ship_site, ship_connected)
        for e in graph.edges:
            if not site(probe, e, "") and not connected(probe, e, p, ""):
                firsts.append((k, e))
    if avail == 1:
        for k, e in firsts:
            yield Action("play_road_building", p, {"pieces": [{"kind": k, "edge": e}]})
        return
    near = _network_nodes(state, graph, p)
    for k1, e1 in firsts:
        ends = near | set(graph.edge_node_ids[graph.edge_index[e1]])
        seconds = sorted({graph.edges[eid] for n in ends for eid in graph.node_edge_ids[n]} - {e1})
        for k2 in kinds:
            for e2 in seconds:
                yield Action("play_road_building", p, {"pieces": [{"kind": k1, "edge": e1}, {"kind": k2, "edge": e2}]})


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
        partners = [q for q in range(state.num_players) if q != p] if p == state.current_player \
            else [state.current_player]
        kinds = RESOURCES + (("gold",) if scen.coins else ())
        mine = {**hand, "gold": state.players[p].gold}
        for q in partners:
            theirs = {**state.players[q].resources, "gold": state.players[q].gold}
            pair = next(((a, b) for a in kinds for b in kinds
                         if a != b and mine.get(a, 0) > 0 and theirs.get(b, 0) > 0), None)
            if pair is None:
                continue
            a, b = pair
            spec = {"partner": q, "accepted": True,
                    "give": {"at_least": 1, "at_most": {r: mine.get(r, 0) for r in kinds}},
                    "get": {"at_least": 1, "at_most": {r: theirs.get(r, 0) for r in kinds}},
                    "no_type_on_both_sides": True}
            ex = Action(type_, p, {"partner": q, "give": {a: 1}, "get": {b: 1}, "accepted": True})
            yield spec, ex
    elif type_ == "gold_trade":
        # GOLD-016: 2 gold buy 1 card (several at once, any mix the bank holds); GOLD-018: any 3 cards of
        # the hand buy 1 gold (a multiple of 3 at once). Never both directions in one trade.
        gold = state.players[p].gold
        k = gold // SELL_RATE
        bank = {r: min(state.bank.get(r, 0), k) for r in RESOURCES}
        if k and sum(bank.values()):
            yield ({"direction": "buy", "rate": SELL_RATE, "give": {"at_most": {"gold": SELL_RATE * k}},
                    "get": {"at_least": 1, "total_at_most": k, "at_most": bank}},
                   Action(type_, p, {"give": {"gold": SELL_RATE},
                                     "get": {next(r for r in RESOURCES if bank[r]): 1}}))
        m = sum(hand.values()) // BUY_RATE
        if m:
            yield ({"direction": "sell", "rate": BUY_RATE, "get": {"at_most": {"gold": m}},
                    "give": {"at_least": BUY_RATE, "total_at_most": BUY_RATE * m, "multiple_of": BUY_RATE,
                             "at_most": {r: min(hand.get(r, 0), BUY_RATE * m) for r in RESOURCES}}},
                   Action(type_, p, {"give": _greedy(BUY_RATE, hand), "get": {"gold": 1}}))


def range_admits(type_: str, spec: dict[str, Any], action: Action) -> bool:
    """Whether a concrete action lies inside a range spec (the property test samples both ways)."""
    def cards_ok(cards: dict[str, int], rng: dict[str, Any]) -> bool:
        cards = {r: n for r, n in cards.items() if n}
        if any(r not in rng["at_most"] or n > rng["at_most"].get(r, 0) for r, n in cards.items()):
            return False
        total = sum(cards.values())
        if "total" in rng:
            return total == rng["total"]
        if total > rng.get("total_at_most", total) or total % rng.get("multiple_of", 1):
            return False
        return total >= rng.get("at_least", 0)
    if action.type != type_:
        return False
    if type_ == "gold_trade":
        give = {r: n for r, n in action.get("give").items() if n}
        get = {r: n for r, n in action.get("get").items() if n}
        if spec["direction"] == "buy":
            return cards_ok(get, spec["get"]) and give == {"gold": spec["rate"] * sum(get.values())}
        return cards_ok(give, spec["give"]) and get == {"gold": sum(give.values()) // spec["rate"]}
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
        pool = [r for r in at_most for _ in range(at_most.get(r, 0))]
        out = {r: 0 for r in at_most}
        for r in rng.shuffle(pool)[:total]:
            out[r] += 1
        return out

    if t == "gold_trade":
        if spec["direction"] == "buy":
            get = draw(1 + rng.below(spec["get"]["total_at_most"]), spec["get"]["at_most"])
            return Action(t, p, {"give": {"gold": spec["rate"] * sum(get.values())}, "get": get})
        lots = spec["give"]["total_at_most"] // spec["rate"]
        give = draw(spec["rate"] * (1 + rng.below(lots)), spec["give"]["at_most"])
        return Action(t, p, {"give": give, "get": {"gold": sum(give.values()) // spec["rate"]}})
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
        return acts[rng.below(len(acts))]
    specs = la.ranges[t]
    return sample_range(specs[rng.below(len(specs))], rng)



# -- whole types ruled out at once ------------------------------------------------------------------------

_DEV_CARD = {"play_knight": "knight", "play_road_building": "road_building",
             "play_year_of_plenty": "year_of_plenty", "play_monopoly": "monopoly"}
_PIECE = {"build_road": ("roads", "road"), "build_settlement": ("settlements", "settlement"),
          "build_ship": ("ships", "ship")}


def _type_blocked(t: str, state: State, graph: MapGraph, scenario: "Scenario", p: int, h) -> bool:
    """Whether a part of the engine's own check for ``t`` that reads no parameter of the action fails
    (no such card playable this turn; no piece left; the cost not in hand): then every candidate of the
    type fails it too, and trying them one by one would only find the same violation each time. Only
    for the engine's handlers (a scenario's replacement may rule differently)."""
    if scenario.handler(t) is not None or h is not HANDLERS.get(t):
        return False
    card = _DEV_CARD.get(t)
    if card is not None:
        return bool(may_play(Ctx(state, Action(t, p, {}), graph, scenario), card))
    piece = _PIECE.get(t)
    if piece is not None:
        kind, cost = piece
        if state.players[p].supply.get(kind, 0) <= 0:          # supply_left, checked in set-up and after
            return True
        return state.phase == "main" and bool(cannot_pay(state, p, COSTS[cost], cost))
    return False


# -- the list ----------------------------------------------------------------------------------------

def legal_actions(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int] = None) -> LegalActions:
    """Every legal action of ``player`` (default: the first of :func:`players_to_act`)."""
    to_act = players_to_act(state)
    if player is None:
        player = to_act[0] if to_act else state.current_player
    out = LegalActions(player, to_act)
    types = sorted(scenario.action_types())
    extra: dict[str, list[Action]] = {}
    for a in scenario.legal_candidates(state, graph, player):
        extra.setdefault(a.type, []).append(a)
    for t in types:
        h = handler_for(scenario, t)
        if h is None:
            continue
        # The gate reads only the type, the player and the phase: a type it refuses has no legal action.
        if gate(Ctx(state, Action(t, player, {}), graph, scenario), h):
            continue
        if t in RANGE_TYPES:
            for spec, example in _range_specs(t, state, graph, scenario, player):
                if is_legal(state, example, graph, scenario):
                    out.ranges.setdefault(t, []).append(
                        {"type": t, "player": player, **spec, "example": action_json(example)})
            continue
        if _type_blocked(t, state, graph, scenario, player, h):
            continue
        found: list[Action] = []
        seen: set[str] = set()
        skip_from: set = set()
        gen = CANDIDATES.get(t)
        cands = list(gen(state, graph, scenario, player)) if gen else []
        dedupe = t in extra          # the generators yield no duplicates; a scenario's extras may repeat them
        cands += extra.get(t, [])
        for a in cands:
            if t == "move_ship" and a.get("from") in skip_from:
                continue
            if dedupe:
                key = repr(sorted(action_json(a).items()))
                if key in seen:
                    continue
                seen.add(key)
            v = check_action(Ctx(state, a, graph, scenario), h)
            if not v:
                found.append(a)
            elif t == "move_ship" and v[0].path == "/action/from":
                skip_from.add(a.get("from"))       # the ship itself may not move: no destination helps
        if found:
            out.actions[t] = found
    return out


__all__ = ["LegalActions", "legal_actions", "violations_of", "is_legal", "players_to_act", "action_json",
           "range_admits", "sample_range", "random_action", "RANGE_TYPES", "CANDIDATES"]
