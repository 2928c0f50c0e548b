"""Prefilters: the candidates worth judging, proposed by necessary conditions of the engine's own checks."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from ..actions.robber import robbable
from ..bank import COSTS
from ..core import Action
from ..mapgraph import LAND, RESOURCES, MapGraph
from ..state import State

if TYPE_CHECKING:  # pragma: no cover
    from ..scenarios.base import Scenario

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


