"""Shipping lanes: which ships are in a closed lane (R-013) and which may move (R-010)."""
from __future__ import annotations

from typing import Any

from .geometry import Edge
from .mapgraph import MapGraph
from .memo import per_position
from .state import State


_CLOSED: dict = {}


def closed_ships(state: State, graph: MapGraph, player: int, ends: frozenset = frozenset()) -> set[Edge]:
    """SEA-014 / R-013: ships on a simple path of the player's ships between two distinct own
    settlements/cities, not passing through an opponent's building. Computed once per position
    (``memo.per_position``: the ships and the buildings are what it reads; the legal-action list asks it
    for every move of a ship) and shared by every caller: read-only. ``ends``: further intersections
    that end the player's lanes as an opponent's building does (a module whose pieces break lanes)."""
    return per_position(_CLOSED, (graph.memo_token, player, ends), (state.ships, state.buildings),
                        lambda: _closed_ships(state, graph, player, ends), size=16)


def _closed_ships(state: State, graph: MapGraph, player: int, ends: frozenset = frozenset()) -> set[Edge]:
    at: dict[int, list[tuple[int, Edge]]] = {}
    for e, p in state.ships.items():
        if p != player:
            continue
        eid = graph.edge_index.get(e)
        if eid is None:
            continue
        a, b = graph.edge_node_ids[eid]
        at.setdefault(a, []).append((b, e))
        at.setdefault(b, []).append((a, e))
    own, opp = set(), set()
    for nid in at:
        bld = state.buildings.get(graph.nodes[nid])
        if bld is not None:
            (own if bld[0] == player else opp).add(nid)
        elif ends and graph.nodes[nid] in ends:
            opp.add(nid)
    closed: set[Edge] = set()
    for start in own:
        visited = {start}
        path: list[Edge] = []

        def dfs(n: int) -> None:
            for m, e in at.get(n, ()):
                if m in visited:
                    continue
                path.append(e)
                if m in own:
                    closed.update(path)       # ends at a distinct own building: closed
                if m not in opp:               # an opponent's building cannot be passed
                    visited.add(m)
                    dfs(m)
                    visited.discard(m)
                path.pop()

        dfs(start)
    return closed


def shipping_lanes(state: State, graph: MapGraph, player: int) -> list[set[Edge]]:
    """SEA-011: chains of adjacent own ships (sharing an intersection) are shipping lanes; an opponent's
    building on the shared intersection ends a lane (R-010)."""
    mine = [e for e, p in state.ships.items() if p == player and e in graph.edge_index]
    at: dict[int, list[Edge]] = {}
    for e in mine:
        for nid in graph.edge_node_ids[graph.edge_index[e]]:
            b = state.buildings.get(graph.nodes[nid])
            if b is None or b[0] == player:
                at.setdefault(nid, []).append(e)
    seen: set[Edge] = set()
    lanes = []
    for e0 in sorted(mine):
        if e0 in seen:
            continue
        lane, stack = set(), [e0]
        seen.add(e0)
        while stack:
            e = stack.pop()
            lane.add(e)
            for nid in graph.edge_node_ids[graph.edge_index[e]]:
                for f in at.get(nid, ()):
                    if f not in seen:
                        seen.add(f)
                        stack.append(f)
        lanes.append(lane)
    return lanes


def is_foremost(state: State, graph: MapGraph, player: int, edge: Edge, anchors: Any = (),
                ends: Any = ()) -> bool:
    """R-010: at least one end of the ship has no other own ship and no own building on it; an
    opponent's building there ends the lane. ``anchors``: ids of further intersections that hold the
    player's lanes as an own building does (DIAM: the corners of a village the player trades with);
    ``ends``: further intersections that end them as an opponent's building does."""
    eid = graph.edge_index[edge]
    for nid in graph.edge_node_ids[eid]:
        if nid in anchors:
            continue
        bld = state.buildings.get(graph.nodes[nid])
        if ends and graph.nodes[nid] in ends:
            return True
        if bld is not None:
            if bld[0] != player:
                return True
            continue
        if not any(state.ships.get(graph.edges[o]) == player for o in graph.node_edge_ids[nid] if o != eid):
            return True
    return False
