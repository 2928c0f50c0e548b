"""Warnings: things about a posted position that are possible but suspicious, reported beside a verdict
and never a reason for ``legal: false`` (a house map or a position typed in by hand may mean them).

- ``token-on-sea`` / ``token-on-desert``: a number token where nothing produces (BASE-PROD-3, BASE-COMP-5);
- ``unjoined-road`` / ``unjoined-ship``: a road or ship touching none of its owner's buildings, nor (for a
  road) his roads or (for a ship) his ships, so no placement rule could have put it there (BASE-BUILD-4,
  SEA-008);
- ``component-count``: the board does not match the scenario's component table for its player count
  (R-001 makes that check separate from any verdict; the warning says so without refusing the board).

Each warning is ``{"code", "message", "path", "rule"}``; ``path`` points into the request.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .geometry import edge_str
from .mapgraph import MapGraph
from .memo import bounded_put
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

Where = Callable[[str, tuple], str]

# Component checks kept per board (the tiles, harbours and piles a table counts): a client posts the same
# board with every move of a game.
_COMPONENTS: dict[Any, list[dict[str, str]]] = {}
COMPONENTS_KEPT = 256


def position_warnings(state: State, graph: MapGraph, scenario: "Scenario", where: Where,
                      prefix: str = "/state") -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for i, (h, t) in enumerate(state.hexes.items()):
        if t.number is None:
            continue
        if t.terrain == "sea":
            out.append({"code": "token-on-sea", "rule": "BASE-PROD-3", "path": f"{prefix}/board/hexes/{i}/number",
                        "message": f"hex {h[0]},{h[1]} is sea but carries the number {t.number}; sea never produces"})
        elif t.terrain == "desert":
            out.append({"code": "token-on-desert", "rule": "BASE-COMP-5", "path": f"{prefix}/board/hexes/{i}/number",
                        "message": f"hex {h[0]},{h[1]} is a desert but carries the number {t.number}; a desert "
                                   "takes no token and never produces"})
    buildings = state.buildings
    for kind, pieces, rule in (("roads", state.roads, "BASE-BUILD-4"), ("ships", state.ships, "SEA-008")):
        for edge, p in pieces.items():
            eid = graph.edge_index.get(edge)
            if eid is None:
                continue
            if not _joined(graph, eid, p, pieces, buildings):
                piece = kind[:-1]
                out.append({"code": f"unjoined-{piece}", "rule": rule, "path": where(kind, edge),
                            "message": f"player {p}'s {piece} on {edge_str(edge)} touches none of their buildings "
                                       f"or {kind}: no placement could have put it there"})
    out.extend(_component_warnings(state, scenario))
    return out


def _joined(graph: MapGraph, eid: int, p: int, pieces: dict, buildings: dict) -> bool:
    for nid in graph.edge_node_ids[eid]:
        b = buildings.get(graph.nodes[nid])
        if b is not None:
            if b[0] == p:
                return True
            continue                         # an opponent's building: nothing joins through it
        for other in graph.node_edge_ids[nid]:
            if other != eid and pieces.get(graph.edges[other]) == p:
                return True
    return False


def _component_warnings(state: State, scenario: "Scenario") -> list[dict[str, str]]:
    tables = getattr(scenario, "component_tables", None) or {}
    if state.num_players not in tables and not scenario.red_numbers_apart(state):
        return []
    from .scenarios.components import check_components, hidden_pile_of
    pile = hidden_pile_of(state)
    key = (scenario.id, state.num_players, tuple(state.hexes.items()), tuple(state.harbors.items()), repr(pile))
    found = _COMPONENTS.get(key)
    if found is None:
        found = [{"code": "red-numbers-adjacent", "rule": v.rule, "path": v.path,
                  "message": f"{v.message} (BASE-COMP-8; a verdict never depends on it, R-001)"}
                 if v.rule == "BASE-COMP-8" else
                 {"code": "component-count", "rule": v.rule, "path": "/state/board",
                  "message": f"{v.message} (a verdict never depends on it, R-001)"}
                 for v in check_components(scenario, state.num_players, state)]
        bounded_put(_COMPONENTS, key, found, COMPONENTS_KEPT)
    return [dict(w) for w in found]
