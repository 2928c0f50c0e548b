"""Prefilters: the candidates worth judging, proposed by necessary conditions of the engine's own checks."""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from ..actions.dev import PlayRoadBuilding, deck_left
from ..actions.robber import victims
from ..actions.seafarers import move_source_violations
from ..actions.trade import harbor_rates, strict_phases_closed
from ..bank import COSTS, can_pay
from ..core import Action, Ctx
from ..mapgraph import RESOURCES, MapGraph
from ..placement import connection_edges, piece_at_edge, settlement_connection_nodes, settlement_site_fault, ship_site
from ..state import State

# -- prefilters: the candidates worth judging ----------------------------------------------------------
#
# For an action type judged by the engine's own handler, a *prefilter* proposes only candidates that pass
# necessary conditions of that handler's check (the check is a conjunction: a candidate failing one part
# of it is illegal whatever the scenario adds on top), so nothing legal is lost; the survivors are still
# judged by ``check_action``. Where the scenario adds no check of its own (its ``check`` hook is the
# base no-op) and the prefilter covers the handler's whole check (``exact``), the survivors are the legal
# actions themselves and are listed without judging them again; ``tests/test_legal_fast.py`` holds that
# list to the plain one (every candidate judged by ``check_action``) on many random positions.
#
# A prefilter states no rule of its own: it calls the functions the handler's check calls (where that
# function also words the violation, the cheap form beside it that only answers: ``bank.can_pay``,
# ``placement.settlement_site_fault``, ``trade.strict_phases_closed``...), so a rule is written, and its
# ID cited, once, where it is enforced. The comment of each prefilter names the functions it follows.


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
        """Edge ids a new piece of the kind of ``piece_ids`` (own roads, or own ships) may connect on:
        ``placement.connection_edges``, the listing form of ``road_connected``/``ship_connected``."""
        return connection_edges(self.graph, self.state.buildings, self.building_ids, piece_ids)


def _setup_last_id(state: State, graph: MapGraph) -> Optional[int]:
    last = state.setup.last_settlement
    return None if last is None else graph.node_index.get(last)


def _f_settlement(state, graph, scen, p, pos):
    # builder and set-up step (``_setup_step``), the site (``placement.settlement_site_fault``), and after
    # set-up a touch on an own road or ship (``placement.settlement_connection_nodes``, the listing form of
    # ``settlement_connected``); supply and cost: the type's block.
    setup = _setup_step(state, p, "settlement")
    if setup is None:
        return []
    if setup:
        ids: Iterable[int] = range(len(graph.nodes))
    else:
        ids = sorted(settlement_connection_nodes(graph, pos.road_ids + pos.ship_ids))
    nodes, buildings = graph.nodes, state.buildings
    return [Action("build_settlement", p, {"node": nodes[nid]}) for nid in ids
            if settlement_site_fault(graph, buildings, nid) is None]


def _setup_step(state: State, p: int, step: str) -> Optional[bool]:
    """None when ``p`` may not build now (not the builder, or another set-up step: the handler's
    set-up order), else whether the game is in set-up."""
    if p != state.current_player:
        return None
    if state.phase == "setup":
        return True if state.setup.step == step else None
    return False


def _edge_pieces(type_: str, site_ok: Callable[[MapGraph, int], bool], piece_ids_of: str):
    def gen(state, graph, scen, p, pos):
        # builder and set-up step (``_setup_step``); in set-up the touch on the last settlement, after it
        # the connection (``placement.connection_edges``, via ``_Pos.reach``); an empty
        # edge of the right kind (``MapGraph.road_edge``/``ship_edge``, ``placement.piece_at_edge``);
        # supply and cost: the type's block.
        setup = _setup_step(state, p, "road")
        if setup is None:
            return []
        if setup:
            last = _setup_last_id(state, graph)
            if last is None:
                return []
            ids: Iterable[int] = sorted(graph.node_edge_ids[last])
        else:
            ids = sorted(pos.reach(getattr(pos, piece_ids_of)))
        edges = graph.edges
        return [Action(type_, p, {"edge": edges[eid]}) for eid in ids
                if site_ok(graph, eid) and piece_at_edge(state, edges[eid]) is None]
    return gen


def _f_move_ship(state, graph, scen, p, pos):
    # ``seafarers.MoveShip``: which ship may move (``seafarers.move_source_violations``, judged once per
    # own ship), and where: another edge, empty, of sea, off the pirate (``placement.ship_site``, the ship
    # itself taken as gone), touching the player's buildings or other ships (``placement.connection_edges``
    # with the own ships but the one moving: the listing form of ``ship_connected`` with ``ignore``).
    edges, index = graph.edges, graph.edge_index
    out = []
    for src in sorted(e for e, o in state.ships.items() if o == p):
        probe = Ctx(state, Action("move_ship", p, {"from": src, "to": src}), graph, scen)
        if move_source_violations(probe, src):
            continue
        sid = index[src]
        ids = connection_edges(graph, state.buildings, pos.building_ids, [i for i in pos.ship_ids if i != sid])
        for eid in sorted(ids):
            dst = edges[eid]
            if dst != src and not ship_site(probe, dst, "/action/to", ignore=src):
                out.append(Action("move_ship", p, {"from": src, "to": dst}))
    return out


_EDGE_OF = {"road": MapGraph.road_edge, "ship": MapGraph.ship_edge}


def _f_road_building(state, graph, scen, p, pos):
    # ``dev.PlayRoadBuilding``: as many pieces as its ``count_violations`` allows (asked of one piece and
    # of two; one of two is then judged by its ``fewer_violations``, R-123); each piece (``dev._free_piece_violations``) of a kind the scenario has, while the supply
    # holds one, on an empty edge of its kind (``MapGraph.road_edge``/``ship_edge``,
    # ``placement.piece_at_edge``) that it connects on (``placement.connection_edges``, via ``_Pos.reach``;
    # for the second piece with the first among the pieces of its kind, and not on the first's edge); the
    # card: the type's block. In the generator's order (``candidates._road_building``).
    def probe(n: int) -> Ctx:
        return Ctx(state, Action("play_road_building", p, {"pieces": [{}] * n}), graph, scen)

    count = PlayRoadBuilding.count_violations
    if not count(probe(2)):
        pieces = 2
    elif not count(probe(1)):
        pieces = 1
    else:
        return []
    kinds = ("road", "ship") if scen.ships else ("road",)
    edges, sup = graph.edges, state.players[p].supply
    own = {"road": pos.road_ids, "ship": pos.ship_ids}

    def free(kind: str, ids: Iterable[int], taken: Optional[int] = None) -> list[int]:
        fits = _EDGE_OF[kind]
        return [eid for eid in ids if eid != taken and fits(graph, eid) and piece_at_edge(state, edges[eid]) is None]

    firsts = [(k, eid) for k in kinds if sup.get(k + "s", 0) > 0 for eid in free(k, sorted(pos.reach(own[k])))]
    if pieces == 1:
        return [Action("play_road_building", p, {"pieces": [{"kind": k, "edge": edges[eid]}]}) for k, eid in firsts]
    out = []
    for k1, e1 in firsts:
        first = {"kind": k1, "edge": edges[e1]}
        for k2 in kinds:
            ids = pos.reach(own[k2] + [e1]) if k2 == k1 else pos.reach(own[k2])
            for e2 in sorted(edges[eid] for eid in free(k2, ids, e1)):
                out.append(Action("play_road_building", p, {"pieces": [first, {"kind": k2, "edge": e2}]}))
        out.append(Action("play_road_building", p, {"pieces": [first]}))     # ``fewer_violations``
    return out


def _f_city(state, graph, scen, p, pos):
    # an own settlement (``actions.build``); supply and cost: the type's block.
    return [Action("build_city", p, {"node": n}) for n, (o, k) in state.buildings.items()
            if o == p and k == "settlement"]


def _moves(state, graph, scen, p, pos, type_: str, target: str, extra: dict) -> list[Action]:
    """``robber.move_violations``: the hex (the scenario's ``robber_hex_ok``/``pirate_hex_ok``, not where
    the piece stands) and the victim (``robber.victims``: one of ``robber.robbable`` there, or nobody when
    none of them holds anything, R-124)."""
    if target == "pirate":
        if not scen.pirate:
            return []
        cur, ok = state.pirate, scen.pirate_hex_ok
    else:
        cur, ok = state.robber, scen.robber_hex_ok
    out = []
    for h in pos.hexes:
        if h == cur or not ok(state, h):
            continue
        for v in victims(state, graph, scen, target, h, p):
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
    # ``trade.MaritimeTrade``: strict phases, the player's rate for the resource given, the cards held,
    # the bank
    hand, bank = state.players[p].resources, state.bank
    rates = None
    out = []
    for gr in RESOURCES:
        have = hand.get(gr, 0)
        if have < 2:                        # no rate is below 2:1
            continue
        if rates is None:
            if strict_phases_closed(state):
                return []
            rates = harbor_rates(state, graph, p)
        rate = rates[gr]
        for m in range(1, have // rate + 1):
            for wr in RESOURCES:
                if wr != gr and bank.get(wr, 0) >= m:
                    out.append(Action("maritime_trade", p, {"give": {gr: m * rate}, "get": {wr: m}}))
    return out


def _f_buy(state, graph, scen, p, pos):
    # ``dev.BuyDevelopmentCard``: a card in the deck, the cost
    if not can_pay(state.players[p].resources, COSTS["development_card"]) or not deck_left(state):
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
    "build_road": (_edge_pieces("build_road", MapGraph.road_edge, "road_ids"), True, True),
    "build_ship": (_edge_pieces("build_ship", MapGraph.ship_edge, "ship_ids"), False, True),
    "build_city": (_f_city, True, False),
    "move_ship": (_f_move_ship, True, True),
    "play_road_building": (_f_road_building, False, True),
    "move_robber": (_f_move_robber, True, True),
    "move_pirate": (_f_move_pirate, True, True),
    "play_knight": (_f_knight, True, True),
    "maritime_trade": (_f_maritime, True, False),
    "buy_development_card": (_f_buy, True, False),
    "play_monopoly": (_f_monopoly, True, False),
    "roll": (_f_roll, True, False),
    "end_turn": (_f_end_turn, True, False),
}


