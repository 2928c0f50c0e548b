"""Every legal action of a position: candidates per action type, filtered through the referee's checks.

For each action type a generator proposes candidates (a superset of what could be legal: every empty
edge for a road, every hex and victim for the robber...), and each candidate is kept only if
:func:`service.engine.referee.check_action` finds no violation, the very function ``adjudicate`` runs.
So a listed action is legal by construction, and a legal action missing from the list means a
generator proposed too little (the property test in ``tests/test_legal_property.py`` looks for that).
Where the engine's own handler judges a type, a prefilter proposes only the candidates that meet
necessary conditions of that handler's check; when the scenario adds no check of its own, the prefilters
that state the whole check list their candidates without judging them again (``tests/test_legal_fast.py``
holds that list to the one that judges every candidate).

Some choices are too many to list and are described as *ranges* instead, each with one concrete
example that was checked: discarding (any cards of the hand adding up to the count owed), Year of Plenty
and gold-field picks (any cards of the bank adding up to the count), domestic trades (any cards, and any
currency a module declares, of one hand for any of the other's, at least one each way, no kind on both
sides), and a module's own ranged types by its ``RangeKind`` (GOLD's trades with the bank).

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

from .actions.robber import robbable
from .actions.seafarers import next_gold_chooser
from .bank import COSTS
from .core import Action, Ctx, Violation
from .module import RANGE_KINDS
from .mapgraph import LAND, RESOURCES, MapGraph
from .placement import road_connected, road_site, ship_connected, ship_site
from .referee import HANDLERS, check_action
from .rng import Rng
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

#: Action types whose choices are described as ranges, not listed one by one.
#: The engine's own ranged types (a module's are marked ``ranged`` in its ``ActionSpec``).
RANGE_TYPES = ("discard", "play_year_of_plenty", "choose_gold", "domestic_trade")


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
    t = type(v)
    if t is int or t is str or t is bool or v is None:
        return v
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
        partners = [q for q in range(state.num_players) if q != p] if p == state.current_player \
            else [state.current_player]
        # the hand (and any currency a module declares) on each side; at most the (first kind held, first
        # other kind the partner holds) as the example
        players = state.players
        currencies = scen.composition.currencies
        kinds = RESOURCES + currencies
        mine = {r: hand.get(r, 0) for r in RESOURCES}
        for c in currencies:
            mine[c] = players[p].extra.get(c, 0)
        held = [r for r in kinds if mine[r] > 0]
        if not held:
            return
        for q in partners:
            other = players[q]
            res = other.resources
            theirs = {r: res.get(r, 0) for r in RESOURCES}
            for c in currencies:
                theirs[c] = other.extra.get(c, 0)
            pair = None
            for a in held:
                for b in kinds:
                    if b != a and theirs[b] > 0:
                        pair = a, b
                        break
                if pair is not None:
                    break
            if pair is None:
                continue
            a, b = pair
            spec = {"partner": q, "accepted": True,
                    "give": {"at_least": 1, "at_most": mine},
                    "get": {"at_least": 1, "at_most": theirs},
                    "no_type_on_both_sides": True}
            ex = Action(type_, p, {"partner": q, "give": {a: 1}, "get": {b: 1}, "accepted": True})
            yield spec, ex


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


def range_admits(type_: str, spec: dict[str, Any], action: Action) -> bool:
    """Whether a concrete action lies inside a range spec (the property test samples both ways)."""
    cards_ok = cards_in_range
    if action.type != type_:
        return False
    kind = RANGE_KINDS.get(type_)
    if kind is not None:
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
        return acts[rng.below(len(acts))]
    specs = la.ranges[t]
    return sample_range(specs[rng.below(len(specs))], rng)



# -- whole types ruled out at once ------------------------------------------------------------------------
#
# A part of the engine's own check for a type that reads no parameter of the action (no such card playable
# this turn, ``dev.may_play``; no piece left, ``placement.supply_left``; the cost not in hand after set-up,
# ``bank.cannot_pay``): when it fails every candidate of the type fails it too, and trying them one by one
# would only find the same violation each time. Only for the engine's handlers (a scenario's replacement
# may rule differently); ``_entry`` records what to read, the loop in ``_legal_actions`` reads it.

_DEV_CARD = {"play_knight": "knight", "play_road_building": "road_building",
             "play_year_of_plenty": "year_of_plenty", "play_monopoly": "monopoly"}
_PIECE = {"build_road": ("roads", "road"), "build_settlement": ("settlements", "settlement"),
          "build_ship": ("ships", "ship"), "build_city": ("cities", "city")}


# -- prefilters: the candidates worth judging ----------------------------------------------------------
#
# For an action type judged by the engine's own handler, a *prefilter* proposes only candidates that pass
# necessary conditions of that handler's check (the check is a conjunction: a candidate failing one part
# of it is illegal whatever the scenario adds on top), so nothing legal is lost; the survivors are still
# judged by ``check_action``. Where the scenario adds no check of its own (its ``check`` hook is the
# base no-op) and the prefilter states the handler's whole check (``exact``), the survivors are the legal
# actions themselves and are listed without judging them again; ``tests/test_legal_fast.py`` holds that
# list to the plain one (every candidate judged by ``check_action``) on many random positions.


class _Pos:
    """What several prefilters read of one position, for one player, computed once per call."""
    __slots__ = ("state", "graph", "player", "_hexes", "_building_ids", "_road_ids", "_ship_ids")

    def __init__(self, state: State, graph: MapGraph, player: int) -> None:
        self.state, self.graph, self.player = state, graph, player
        self._hexes = self._building_ids = self._road_ids = self._ship_ids = None

    @property
    def hexes(self) -> list:
        if self._hexes is None:
            self._hexes = sorted(self.state.hexes)
        return self._hexes

    def _ids(self, pieces: dict) -> list[int]:
        index, p = self.graph.edge_index, self.player
        return [index[e] for e, o in pieces.items() if o == p and e in index]

    @property
    def building_ids(self) -> list[int]:
        """Node ids of the player's buildings."""
        if self._building_ids is None:
            index, p = self.graph.node_index, self.player
            self._building_ids = [index[n] for n, (o, _) in self.state.buildings.items() if o == p and n in index]
        return self._building_ids

    @property
    def road_ids(self) -> list[int]:
        if self._road_ids is None:
            self._road_ids = self._ids(self.state.roads)
        return self._road_ids

    @property
    def ship_ids(self) -> list[int]:
        if self._ship_ids is None:
            self._ship_ids = self._ids(self.state.ships)
        return self._ship_ids

    def reach(self, piece_ids: list[int]) -> set[int]:
        """Edge ids a new piece of the kind of ``piece_ids`` (own roads, or own ships) may connect on
        (BASE-BUILD-4/5, SEA-008): every edge at an own building, and every edge at an end of such a piece
        that holds no building."""
        g, buildings = self.graph, self.state.buildings
        nodes, node_edges = g.nodes, g.node_edge_ids
        out: set[int] = set()
        for nid in self.building_ids:
            out.update(node_edges[nid])
        ends = g.edge_node_ids
        for eid in piece_ids:
            for nid in ends[eid]:
                if nodes[nid] not in buildings:
                    out.update(node_edges[nid])
        return out


def _pays(hand: dict[str, int], cost: dict[str, int]) -> bool:
    for r, n in cost.items():
        if hand.get(r, 0) < n:
            return False
    return True


def _strict_phases_closed(state: State) -> bool:
    """BASE-VAR-STRICT-PHASES (``trade.strict_phases_violation``): no trade after building."""
    return bool(state.options.get("BASE-VAR-STRICT-PHASES") and state.flags.built)


def _setup_last_id(state: State, graph: MapGraph) -> Optional[int]:
    last = state.setup.last_settlement
    return None if last is None else graph.node_index.get(last)


def _f_settlement(state, graph, scen, p, pos):
    # builder (BASE-COST-3 / set-up order), step, empty land node, distance rule (BASE-BUILD-2), and after
    # set-up a touch on an own road or ship (BASE-BUILD-3, SEA-012); supply and cost: the type's block.
    if p != state.current_player:
        return []
    if state.phase == "setup":
        if state.setup.step != "settlement":
            return []
        ids: Iterable[int] = range(len(graph.nodes))
    else:
        ends = graph.edge_node_ids
        near: set[int] = set()
        for eid in pos.road_ids:
            near.update(ends[eid])
        for eid in pos.ship_ids:
            near.update(ends[eid])
        ids = sorted(near)
    nodes, land, nbrs, buildings = graph.nodes, graph.node_land, graph.node_neighbour_ids, state.buildings
    out = []
    for nid in ids:
        if not land[nid]:
            continue
        n = nodes[nid]
        if n in buildings:
            continue
        for m in nbrs[nid]:
            if nodes[m] in buildings:
                break
        else:
            out.append(Action("build_settlement", p, {"node": n}))
    return out


def _edge_pieces(type_: str, site_ok: Callable[[int], bool], piece_ids_of: str):
    def gen(state, graph, scen, p, pos):
        # builder, set-up step and the touch on the last settlement (BASE-SETUP-4, SEA-026), or the
        # connection (BASE-BUILD-4/5, SEA-008/009); an empty edge of the right kind (BASE-BUILD-1, SEA-007,
        # SEA-010); supply and cost: the type's block.
        if p != state.current_player:
            return []
        if state.phase == "setup":
            if state.setup.step != "road":
                return []
            last = _setup_last_id(state, graph)
            if last is None:
                return []
            ids: Iterable[int] = sorted(graph.node_edge_ids[last])
        else:
            ids = sorted(pos.reach(getattr(pos, piece_ids_of)))
        edges, roads, ships, kind = graph.edges, state.roads, state.ships, graph.edge_kind
        out = []
        for eid in ids:
            if kind[eid] not in site_ok:
                continue
            e = edges[eid]
            if e in roads or e in ships:
                continue
            out.append(Action(type_, p, {"edge": e}))
        return out
    return gen


def _f_city(state, graph, scen, p, pos):
    # BASE-BUILD-6 (an own settlement), BASE-COMP-1 (a city left), BASE-COST-1.
    pl = state.players[p]
    if pl.supply.get("cities", 0) <= 0 or not _pays(pl.resources, COSTS["city"]):
        return []
    return [Action("build_city", p, {"node": n}) for n, (o, k) in state.buildings.items()
            if o == p and k == "settlement"]


def _robber_ok(scen: "Scenario", pirate: bool):
    """The scenario's ``pirate_hex_ok`` / ``robber_hex_ok`` as (state, hex, tile) -> bool (the defaults read
    the tile's terrain)."""
    if pirate:
        if "pirate_hex_ok" not in scen.composition.hooks:
            return lambda state, h, t: t.terrain == "sea"
        return lambda state, h, t: scen.pirate_hex_ok(state, h)
    if "robber_hex_ok" not in scen.composition.hooks:
        return lambda state, h, t: t.terrain in LAND
    return lambda state, h, t: scen.robber_hex_ok(state, h)


def _moves(state, graph, scen, p, pos, type_: str, target: str, extra: dict) -> list[Action]:
    """``move_violations``: the hex (the scenario's ``robber_hex_ok``/``pirate_hex_ok``, not where the
    piece stands) and the victim (one of the players there, or nobody when there is none)."""
    if target == "pirate" and not scen.pirate:
        return []
    cur = state.pirate if target == "pirate" else state.robber
    ok = _robber_ok(scen, target == "pirate")
    hexes = state.hexes
    out = []
    for h in pos.hexes:
        if h == cur or not ok(state, h, hexes[h]):
            continue
        for v in robbable(state, graph, target, h, p) or (None,):
            out.append(Action(type_, p, {"hex": h, "steal_from": v, "card": None, **extra}))
    return out


def _f_move_robber(state, graph, scen, p, pos):
    return _moves(state, graph, scen, p, pos, "move_robber", "robber", {})


def _f_move_pirate(state, graph, scen, p, pos):
    return _moves(state, graph, scen, p, pos, "move_pirate", "pirate", {})


def _f_knight(state, graph, scen, p, pos):
    out = _moves(state, graph, scen, p, pos, "play_knight", "robber", {"target": "robber"})
    if scen.pirate:
        out += _moves(state, graph, scen, p, pos, "play_knight", "pirate", {"target": "pirate"})
    return out


def _f_maritime(state, graph, scen, p, pos):
    # strict phases, the player's rate for the resource given (BASE-TRADE-6/7/8), the cards held, the bank
    if _strict_phases_closed(state):
        return []
    hand, bank = state.players[p].resources, state.bank
    rates = None
    out = []
    for gr in RESOURCES:
        have = hand.get(gr, 0)
        if have < 2:
            continue
        if rates is None:
            rates = _harbor_rates(state, graph, pos or _Pos(state, graph, p))
        rate = rates[gr]
        for m in range(1, have // rate + 1):
            for wr in RESOURCES:
                if wr != gr and bank.get(wr, 0) >= m:
                    out.append(Action("maritime_trade", p, {"give": {gr: m * rate}, "get": {wr: m}}))
    return out


def _harbor_rates(state: State, graph: MapGraph, pos: _Pos) -> dict[str, int]:
    """``trade.harbor_rates``, read from the edges at the player's buildings."""
    rates = {r: 4 for r in RESOURCES}
    harbors = state.harbors
    if not harbors:
        return rates
    edges, node_edges = graph.edges, graph.node_edge_ids
    for nid in pos.building_ids:
        for eid in node_edges[nid]:
            kind = harbors.get(edges[eid])
            if kind is None:
                continue
            if kind == "3:1":
                for r in rates:
                    if rates[r] > 3:
                        rates[r] = 3
            else:
                rates[kind] = 2
    return rates


def _domestic_ranges(state: State, p: int) -> list[dict[str, Any]]:
    """``_range_specs("domestic_trade")`` without ``coins``, as listed (``_range_exact``: every example legal)."""
    players = state.players
    hand = players[p].resources
    mine = dict(hand) if tuple(hand) == RESOURCES else {r: hand.get(r, 0) for r in RESOURCES}
    held = [r for r in RESOURCES if mine[r] > 0]
    out: list[dict[str, Any]] = []
    if not held:
        return out
    cp = state.current_player
    t = "domestic_trade"
    for q in (range(state.num_players) if p == cp else (cp,)):
        if q == p:
            continue
        res = players[q].resources
        theirs = dict(res) if tuple(res) == RESOURCES else {r: res.get(r, 0) for r in RESOURCES}
        for a in held:                      # the first (a, b) in kind order: a held, b theirs, a != b
            for b in RESOURCES:
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


def _f_buy(state, graph, scen, p, pos):
    # BASE-COMP-3 (a card in the deck), BASE-DEV-1 (the cost)
    if sum(state.dev_deck.values()) <= 0 or not _pays(state.players[p].resources, COSTS["development_card"]):
        return []
    return [Action("buy_development_card", p, {"card": None})]


def _f_monopoly(state, graph, scen, p, pos):
    return [Action("play_monopoly", p, {"resource": r}) for r in RESOURCES]     # may_play: the type's block


def _f_roll(state, graph, scen, p, pos):
    return [Action("roll", p, {"dice": None})]


def _f_end_turn(state, graph, scen, p, pos):
    return [Action("end_turn", p, {})]


#: Prefilter per action type, and whether it states the engine handler's whole check (given the gate and
#: the type's block), so that with a scenario adding no check its candidates are exactly the legal ones.
PREFILTERS: dict[str, tuple[Callable, bool, bool]] = {
    # type: (prefilter, exact, whether it reads the player's pieces through a ``_Pos``)
    "build_settlement": (_f_settlement, True, True),
    "build_road": (_edge_pieces("build_road", frozenset({"land", "coast"}), "road_ids"), True, True),
    "build_ship": (_edge_pieces("build_ship", frozenset({"sea", "coast"}), "ship_ids"), False, True),
    "build_city": (_f_city, True, False),
    "move_robber": (_f_move_robber, True, True),
    "move_pirate": (_f_move_pirate, True, True),
    "play_knight": (_f_knight, True, True),
    "maritime_trade": (_f_maritime, True, False),
    "buy_development_card": (_f_buy, True, False),
    "play_monopoly": (_f_monopoly, True, False),
    "roll": (_f_roll, True, False),
    "end_turn": (_f_end_turn, True, False),
}


def _gate_open(state: State, h, player: int) -> bool:
    """``not referee.gate(...)``: the gate reads only the phase, the handler and the actor."""
    phase = state.phase
    if phase == "game_over" or phase not in h.phases:
        return False
    return h.actor != "current" or player == state.current_player


def _range_exact(t: str, state: State, scenario: "Scenario") -> bool:
    """Whether the example of a range of ``t`` (``_range_specs``) is legal without judging it, for the
    engine's handler and a scenario adding no check: Year of Plenty's example takes what the bank holds
    (the card itself: the type's block); a domestic trade's gives one card held for one the partner
    holds, of another kind, accepted (strict phases aside)."""
    if t == "play_year_of_plenty":
        return True
    if t == "domestic_trade":
        return not scenario.composition.currencies and not _strict_phases_closed(state)
    return False


_SORTED_TYPES: dict[frozenset, list[str]] = {}


def _sorted_types(types: frozenset) -> list[str]:
    out = _SORTED_TYPES.get(types)
    if out is None:
        if len(_SORTED_TYPES) > 64:
            _SORTED_TYPES.clear()
        out = _SORTED_TYPES[types] = sorted(types)
    return out


# -- the list ----------------------------------------------------------------------------------------

def legal_actions(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int] = None) -> LegalActions:
    """Every legal action of ``player`` (default: the first of :func:`players_to_act`)."""
    return _legal_actions(state, graph, scenario, player, True)


def _legal_actions(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int],
                   prefilter: bool) -> LegalActions:
    """The list; with ``prefilter`` off every candidate of the full generators is judged (the reference
    the prefiltered list is tested against)."""
    to_act = players_to_act(state)
    if player is None:
        player = to_act[0] if to_act else state.current_player
    out = LegalActions(player, to_act)
    extra: dict[str, list[Action]] = {}
    for a in scenario.legal_candidates(state, graph, player):
        extra.setdefault(a.type, []).append(a)
    for fn in scenario.composition.candidates:      # the candidates a module's ActionSpec declares
        for a in fn(state, graph, scenario, player):
            extra.setdefault(a.type, []).append(a)
    plain = "check" not in scenario.composition.hooks and not scenario.composition.checks
    pos: Optional[_Pos] = None
    pl = state.players[player]
    main = state.phase == "main"
    for t, h, replaced, block, ranged, pf in _plan(scenario, state, player):
        own = replaced is None and t not in extra
        # the type's block: a part of the engine's own check that reads no parameter fails
        if block is not None and replaced is None and (ranged is False or (prefilter and own)):
            if block.__class__ is str:                          # ``dev.may_play``
                if state.flags.dev_card_played or pl.dev_cards.get(block, 0) <= 0:
                    continue
            else:
                supply, cost = block                            # ``placement.supply_left``, ``bank.cannot_pay``
                if pl.supply.get(supply, 0) <= 0 or (main and not _pays(pl.resources, cost)):
                    continue
        if ranged:
            exact = prefilter and own and plain and _range_exact(t, state, scenario)
            if exact and t == "domestic_trade":
                specs = _domestic_ranges(state, player)
                if specs:
                    out.ranges[t] = specs
                continue
            for spec, example in _range_specs(t, state, graph, scenario, player):
                if exact or is_legal(state, example, graph, scenario):
                    # a domestic trade's example holds no default (None) and no coordinate: its JSON form
                    # is its parameters as they are (the example itself is not kept)
                    ex = ({"type": t, "player": example.player, **example.params} if t == "domestic_trade"
                          else action_json(example))
                    out.ranges.setdefault(t, []).append({"type": t, "player": player, **spec, "example": ex})
            continue
        if pf is not None and prefilter and own:
            fn, exact, needs_pos = pf
            if needs_pos and pos is None:
                pos = _Pos(state, graph, player)
            cands = fn(state, graph, scenario, player, pos)
            if not (exact and plain):
                cands = [a for a in cands if not check_action(Ctx(state, a, graph, scenario), h)]
            if cands:
                out.actions[t] = cands
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


_RANGE_SET = frozenset(RANGE_TYPES)
_PLANS: dict[tuple, list] = {}


def _entry(t: str, h, replaced, ranged: Optional[bool] = None) -> tuple:
    """(type, handler, the scenario's replacement or None, what the type's block reads (a card name, or
    the supply kind and the cost; only for the engine's own handler), whether it is a range type, its
    prefilter)."""
    block: Any = None
    if h is HANDLERS.get(t):
        if t in _DEV_CARD:
            block = _DEV_CARD[t]
        elif t in _PIECE:
            block = (_PIECE[t][0], COSTS[_PIECE[t][1]])
    return t, h, replaced, block, (t in _RANGE_SET) if ranged is None else ranged, PREFILTERS.get(t)


def _plan(scenario: "Scenario", state: State, player: int) -> list[tuple]:
    """``_entry`` for each type of the scenario, in name order, whose gate is open (``referee.gate``
    reads only the phase, the handler and the actor). Kept between calls for scenarios that replace no
    handler (then it depends on the types, the phase and whether ``player`` is the current player alone)."""
    types = scenario.action_types()
    if not scenario.composition.own_handlers:
        key = (types, state.phase, player == state.current_player)
        plan = _PLANS.get(key)
        if plan is None:
            if len(_PLANS) > 256:
                _PLANS.clear()
            plan = _PLANS[key] = [_entry(t, HANDLERS[t], None) for t in _sorted_types(types)
                                  if t in HANDLERS and _gate_open(state, HANDLERS[t], player)]
        return plan
    plan = []
    actions = scenario.composition.actions
    for t in _sorted_types(types):
        replaced = scenario.handler(t)
        h = replaced or HANDLERS.get(t)
        if h is not None and _gate_open(state, h, player):
            plan.append(_entry(t, h, replaced, actions[t].ranged))
    return plan


__all__ = ["LegalActions", "legal_actions", "violations_of", "is_legal", "players_to_act", "action_json",
           "range_admits", "sample_range", "random_action", "RANGE_TYPES", "CANDIDATES"]
