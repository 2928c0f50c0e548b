"""Candidate actions per action type: every action of the type that could be legal (``CANDIDATES``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Optional

from ..core import Action, Ctx
from ..mapgraph import RESOURCES, MapGraph
from ..placement import road_site, ship_site
from ..state import State

if TYPE_CHECKING:  # pragma: no cover
    from ..scenarios.base import Scenario

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


def ship_move_sources(state: State, p: int) -> list:
    """The ships a move of ``p`` is proposed from (``_move_ship``): their own, in edge order."""
    return sorted(e for e, o in state.ships.items() if o == p)


def ship_move_targets(graph: MapGraph) -> list:
    """The edges a ship move is proposed to (``_move_ship``): every edge a ship may lie on."""
    return [e for eid, e in enumerate(graph.edges) if graph.ship_edge(eid)]


@candidates("move_ship")
def _move_ship(state, graph, scen, p):
    targets = ship_move_targets(graph)
    for src in ship_move_sources(state, p):
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
        site = road_site if k == "road" else ship_site
        for e in graph.edges:
            if not site(probe, e, "") and not scen.piece_connection(probe, k, e, p, ""):
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
        # one piece alone, legal when no place is left for a second or the first wins
        yield Action("play_road_building", p, {"pieces": [{"kind": k1, "edge": e1}]})


