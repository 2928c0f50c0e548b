"""Where pieces may go: the placement rules shared by building, set-up and development cards.

Each function returns the violations of one placement, in the order a player would be told them;
an empty list means the placement is legal.
"""
from __future__ import annotations

from typing import Any, Optional

from .core import Ctx, Violation
from .geometry import Edge, Node, edge_str, node_str
from .state import State


def piece_at_edge(state: State, e: Edge) -> Optional[tuple[int, str]]:
    if e in state.roads:
        return state.roads[e], "road"
    if e in state.ships:
        return state.ships[e], "ship"
    return None


def settlement_site_fault(g, buildings: dict, nid: Optional[int]) -> Optional[tuple[str, Optional[Node]]]:
    """Why node id ``nid`` (None: off the board) cannot take a settlement: ``("land", None)`` it touches no
    land hex, ``("taken", node)`` it holds a building, ``("distance", other)`` the distance rule, a
    building on ``other`` one edge away (BASE-BUILD-2); None when it can."""
    if nid is None or not g.node_land[nid]:
        return "land", None
    nodes = g.nodes
    node = nodes[nid]
    if node in buildings:
        return "taken", node
    for m in g.node_neighbour_ids[nid]:
        other = nodes[m]
        if other in buildings:
            return "distance", other
    return None


def off_land_rule(ctx: Ctx) -> str:
    """D-settlement-on-land (docs/rule-checks.md): the rule a settlement off land breaks. Settlements go on
    the corners of land hexes (the base game's intersections); no rule ID states that alone, so the verdict
    cites the placement rule that brings a settlement there: in set-up the starting settlement
    (BASE-SETUP-2), with ships the lane's end on an island's coastline (SEA-012), else the road that reaches
    it (BASE-BUILD-3), which never leaves the land (BASE-BUILD-1). Never the distance rule."""
    if ctx.state.phase == "setup":
        return "BASE-SETUP-2"
    return "SEA-012" if ctx.scenario.ships else "BASE-BUILD-3"


def settlement_site(ctx: Ctx, node: Node, path: str) -> list[Violation]:
    """An empty land intersection with no building one edge away (:func:`settlement_site_fault`)."""
    g, s = ctx.graph, ctx.state
    fault = settlement_site_fault(g, s.buildings, g.node_index.get(node))
    if fault is None:
        return []
    why, other = fault
    if why == "land":
        return [Violation(off_land_rule(ctx), f"a settlement goes on an intersection of a land hex; "
                          f"{node_str(node)} touches no land hex of this board", path)]
    owner, kind = s.buildings[other]
    if why == "taken":
        return [Violation("BASE-BUILD-2", f"a settlement needs an empty intersection; {node_str(node)} "
                          f"already holds player {owner}'s {kind}", path)]
    return [Violation("BASE-BUILD-2", f"distance rule: no building may stand one edge away; "
                      f"player {owner}'s {kind} is on {node_str(other)}, next to {node_str(node)}", path)]


def settlement_connected(ctx: Ctx, node: Node, player: int, path: str) -> list[Violation]:
    """After set-up a settlement must touch one of the builder's roads (BASE-BUILD-3) or, with
    Seafarers, one of their ships (SEA-012)."""
    g, s = ctx.graph, ctx.state
    nid = g.node_index[node]
    for eid in g.node_edge_ids[nid]:
        e = g.edges[eid]
        if s.roads.get(e) == player or s.ships.get(e) == player:
            return []
    what = "road or ship" if ctx.scenario.ships else "road"
    return [Violation("BASE-BUILD-3", f"a settlement must touch one of your own {what}s; "
                      f"none of player {player}'s {what}s touches {node_str(node)}", path)]


def settlement_connection_nodes(graph: Any, piece_ids: Any) -> set[int]:
    """The rule of :func:`settlement_connected` read the other way round, for listing: the ids of the
    intersections at an end of the player's roads and ships (``piece_ids``), where a settlement may touch one."""
    ends = graph.edge_node_ids
    out: set[int] = set()
    for eid in piece_ids:
        out.update(ends[eid])
    return out


def _edge_of_kind(g: Any, edge: Edge, fits: Any, rule: str, need: str, path: str) -> tuple[Any, list[Violation]]:
    """The index of ``edge`` on the board and no violation when a piece may lie there (``fits(edge index)``:
    land for a road, sea for a ship); else the violation of ``rule`` saying what the edge is."""
    eid = g.edge_index.get(edge)
    if eid is not None and fits(eid):
        return eid, []
    kind = "not a side shared by two hexes of this board" if eid is None else f"a {g.edge_kind[eid]} edge"
    return eid, [Violation(rule, f"{need}; {edge_str(edge)} is {kind}", path)]


def road_site(ctx: Ctx, edge: Edge, path: str) -> list[Violation]:
    """A road lies on an empty land or coast edge (BASE-BUILD-1, SEA-010)."""
    g, s = ctx.graph, ctx.state
    eid, wrong = _edge_of_kind(g, edge, g.road_edge, "BASE-BUILD-1", "a road needs an edge with land on at least "
                               "one side", path)
    if wrong:
        return wrong
    occ = piece_at_edge(s, edge)
    if occ is not None:
        rule = "SEA-010" if occ[1] == "ship" else "BASE-BUILD-1"
        return [Violation(rule, f"an edge holds at most one road or ship; {edge_str(edge)} already holds "
                          f"player {occ[0]}'s {occ[1]}", path)]
    return []


def edge_ends(ctx: Ctx, edge: Edge, player: int, ignore: Optional[Edge] = None):
    """For each end of ``edge``: the building there (or None) and whether the player has a road, and a
    ship, on another edge meeting there (``ignore`` is an edge treated as empty): what a new road or ship
    connects to (BASE-BUILD-4/5, SEA-008/009). At the player's own building, which anchors either piece,
    the two flags are left False."""
    g, s = ctx.graph, ctx.state
    eid = g.edge_index[edge]
    for nid in g.edge_node_ids[eid]:
        b = s.buildings.get(g.nodes[nid])
        if b is not None and b[0] == player:
            yield b, False, False
            continue
        own_road = own_ship = False
        for other in g.node_edge_ids[nid]:
            if other == eid:
                continue
            oe = g.edges[other]
            if oe == ignore:
                continue
            own_road = own_road or s.roads.get(oe) == player
            own_ship = own_ship or s.ships.get(oe) == player
        yield b, own_road, own_ship


def road_connected(ctx: Ctx, edge: Edge, player: int, path: str) -> list[Violation]:
    """A new road touches the builder's road, settlement or city (BASE-BUILD-4), not through an
    opponent's building (BASE-BUILD-5), and never directly a ship (SEA-009); a settlement at the end of a
    shipping lane anchors roads too (SEA-013). Any own road or building is
    an anchor: the player's pieces need not form one connected network (BASE-BUILD-7)."""
    through_opponent = via_ship = False
    for b, own_road, own_ship in edge_ends(ctx, edge, player):
        if b is not None and b[0] == player:
            return []
        if b is not None:
            through_opponent = through_opponent or own_road or own_ship
            continue
        if own_road:
            return []
        via_ship = via_ship or own_ship
    if through_opponent:
        return [Violation("BASE-BUILD-5", f"a road may not connect through an opponent's building; "
                          f"{edge_str(edge)} reaches your road only across an opponent's settlement or city",
                          path)]
    if via_ship:
        return [Violation("SEA-009", f"a road joins a ship only at your own settlement or city; "
                          f"{edge_str(edge)} touches your ship but no road or building of yours", path)]
    return [Violation("BASE-BUILD-4", f"a new road must touch your own road, settlement or city; "
                      f"{edge_str(edge)} touches none of player {player}'s", path)]


def connection_edges(graph: Any, buildings: Any, building_ids: Any, piece_ids: Any) -> set[int]:
    """The connection rule of :func:`road_connected` / :func:`ship_connected` read the other way round, for
    listing: the ids of every edge a new piece may touch, given the ids of the player's buildings and of
    their pieces of that kind (own roads for a road, own ships for a ship). An own building anchors every
    edge at it; an own piece anchors the edges at its ends that hold no building (an opponent's building
    there breaks it, BASE-BUILD-5); a road never continues a ship but at a building (SEA-009), since only
    pieces of its own kind are given. The property tests of the legal-action list hold the two forms equal."""
    nodes, node_edges, ends = graph.nodes, graph.node_edge_ids, graph.edge_node_ids
    out: set[int] = set()
    for nid in building_ids:
        out.update(node_edges[nid])
    for eid in piece_ids:
        for nid in ends[eid]:
            if nodes[nid] not in buildings:
                out.update(node_edges[nid])
    return out


def ship_site(ctx: Ctx, edge: Edge, path: str, ignore: Optional[Edge] = None) -> list[Violation]:
    """A ship lies on an empty sea or coast edge (SEA-007, SEA-010), not beside the pirate (SEA-032)."""
    g, s = ctx.graph, ctx.state
    eid, wrong = _edge_of_kind(g, edge, g.ship_edge, "SEA-007", "a ship needs an edge with sea on at least one side",
                               path)
    if wrong:
        return wrong
    occ = piece_at_edge(s, edge)
    if occ is not None and edge != ignore:
        return [Violation("SEA-010", f"an edge holds at most one road or ship; {edge_str(edge)} already "
                          f"holds player {occ[0]}'s {occ[1]}", path)]
    if s.pirate is not None and eid in g.hex_edge_ids.get(s.pirate, ()):
        return [Violation("SEA-032", f"no ship may be placed on an edge of the pirate's hex "
                          f"{s.pirate[0]},{s.pirate[1]}; {edge_str(edge)} is one", path)]
    return []


def ship_connected(ctx: Ctx, edge: Edge, player: int, path: str, ignore: Optional[Edge] = None) -> list[Violation]:
    """A new ship touches the builder's settlement, city or ship (SEA-008), never only a road (SEA-009).
    An own settlement founded at the end of a shipping lane anchors new ships and roads (SEA-013).
    ``ignore`` is a ship being moved (it is not on the board while it moves, SEA-016)."""
    via_road = through_opponent = False
    for b, own_road, own_ship in edge_ends(ctx, edge, player, ignore):
        if b is not None and b[0] == player:
            return []
        if b is not None:
            through_opponent = through_opponent or own_ship
            continue
        if own_ship:
            return []
        via_road = via_road or own_road
    if via_road:
        return [Violation("SEA-009", f"a ship joins a road only at your own settlement or city; "
                          f"{edge_str(edge)} touches your road but no ship or building of yours", path)]
    if through_opponent:
        return [Violation("SEA-008", f"a ship must touch your settlement, city or ship; {edge_str(edge)} "
                          f"reaches your ship only across an opponent's building", path)]
    return [Violation("SEA-008", f"a ship must touch your settlement, city or ship; edge {edge_str(edge)} "
                      f"touches none of player {player}'s", path)]


def supply_left(ctx: Ctx, player: int, kind: str, path: str = "/action") -> list[Violation]:
    """BASE-COMP-1: a piece not in the player's supply cannot be built."""
    if ctx.state.players[player].supply.get(kind, 0) <= 0:
        return [Violation("BASE-COMP-1", f"a piece is built from the builder's own supply; player {player} has "
                          f"no {kind} left in it", path)]
    return []
