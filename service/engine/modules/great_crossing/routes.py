"""The Great Crossing's trade routes (SC10-004..013, R-024, R-025).

A *trade route* is a simple path of pieces between two settlements/cities ``a`` and ``b`` on different
islands, with no settlement or city on an interior intersection (SC10-009), made of the pieces of at
most two players: the owner of ``a`` (a run of pieces starting at ``a``) and the owner of ``b`` (a run
starting at ``b``). Inside one player's run roads and ships never alternate (that needs a building,
SEA-009); where the two runs meet any switch is allowed with no building (SC10-006/007). One run only:
a *direct* route of its owner (SC10-004 own ships to an opponent's building, SC10-005 to an own
settlement on the neighbouring island). Two runs: an *indirect* route (SC10-006 lane meets a road,
SC10-007 lane meets a lane; SC10-008 a branching lane gives one route per building reached).

Tokens (SC10-010/011, R-024): one per unordered pair of buildings; a direct route's token goes to its
owner, an indirect route's to the player with more links in it, on equal links to the player whose
placement completed it (the stored ``closer``). The token lies under the winner's end building; for a
route between two of the winner's own buildings, under the one on his home island (where the route
originates). Where several paths join the same pair, the one with fewest links counts, and among those
the current holder's.

Tokens are live (SC10-013, R-025): after every action the routes are recomputed; a token whose route is
gone goes back, a new route awards one, a route whose winner changes hands it over.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...geometry import Node, node_hexes
from ...lanes import closed_ships, is_foremost
from ...mapgraph import MapGraph
from ...memo import bounded_put
from ...state import State
from ...svp import award_svp, remove_svp
from ...scenarios._sc_common import as_node

if TYPE_CHECKING:  # pragma: no cover
    from ...core import Ctx

MAX_PATHS = 50_000      # a guard on the path search (15 roads + 15 ships per player keep it far below)


def node_island(node: Node, imap: dict) -> Optional[str]:
    names = {imap[h] for h in node_hexes(node) if h in imap}
    return next(iter(names)) if len(names) == 1 else None


#: find_routes results by everything they depend on (read-only: callers build their own answers).
_FOUND: dict[tuple, dict[tuple, list[dict]]] = {}


def find_routes(state: State, graph: MapGraph, imap: dict) -> dict[tuple, list[dict]]:
    """Every trade-route path, by unordered pair of end buildings: ``{(a, b): [candidate, ...]}`` with
    candidate ``{"a", "b", "runs": [(player, kind, links), ...], "path": [edges]}`` (runs from ``a``).

    Memoised per process (bounded) under the board's graph, the roads, ships and buildings and the island
    map: one verdict asks twice (``update_routes`` after the action, ``describe_routes`` for the answer),
    and a game asks again about routes its last move did not touch. The result is shared: read it only."""
    key = (graph.memo_token, tuple(state.roads.items()), tuple(state.ships.items()),
           tuple(state.buildings.items()), tuple(imap.items()))
    found = _FOUND.get(key)
    if found is None:
        found = _find_routes(state, graph, imap)
        bounded_put(_FOUND, key, found)
    return found


def _find_routes(state: State, graph: MapGraph, imap: dict) -> dict[tuple, list[dict]]:
    pieces: dict[int, tuple[int, str]] = {}
    for e, p in state.roads.items():
        if e in graph.edge_index:
            pieces[graph.edge_index[e]] = (p, "road")
    for e, p in state.ships.items():
        if e in graph.edge_index:
            pieces[graph.edge_index[e]] = (p, "ship")
    out: dict[tuple, list[dict]] = {}
    budget = [MAX_PATHS]
    for a in sorted(state.buildings):
        if a not in graph.node_index:
            continue
        owner_a = state.buildings[a][0]
        island_a = node_island(a, imap)
        if island_a is None:
            continue
        start = graph.node_index[a]
        visited = {start}
        path: list[int] = []

        def dfs(nid: int, runs: list[tuple[int, str, int]]) -> None:
            if budget[0] <= 0:
                return
            budget[0] -= 1
            for eid in sorted(graph.node_edge_ids[nid]):
                piece = pieces.get(eid)
                if piece is None:
                    continue
                m = graph.other_node(eid, nid)
                if m in visited:
                    continue
                o, k = piece
                if not runs:
                    new = [(o, k, 1)]
                elif runs[-1][0] == o:
                    if runs[-1][1] != k:
                        continue                      # SEA-009: a road and a ship of one player meet only at a building
                    new = runs[:-1] + [(o, k, runs[-1][2] + 1)]
                elif len(runs) == 2 or runs[0][0] != owner_a:
                    continue                          # at most two players: the owners of the two ends
                else:
                    new = runs + [(o, k, 1)]          # SC10-006/007: the runs meet without a building
                path.append(eid)
                node_m = graph.nodes[m]
                b = state.buildings.get(node_m)
                if b is not None:
                    # SC10-009: a route ends at the first settlement or city it reaches.
                    owner_b = b[0]
                    island_b = node_island(node_m, imap)
                    ok = island_b is not None and island_b != island_a and (
                        (len(new) == 1 and new[0][0] in (owner_a, owner_b))
                        or (len(new) == 2 and new[1][0] == owner_b))
                    if ok:
                        key = tuple(sorted((a, node_m)))
                        out.setdefault(key, []).append(
                            {"a": a, "b": node_m, "runs": new, "path": [graph.edges[x] for x in path]})
                else:
                    visited.add(m)
                    dfs(m, new)
                    visited.discard(m)
                path.pop()

        dfs(start, [])
    return out


def winner_of(cand: dict, closer: Optional[int]) -> int:
    """SC10-010: a direct route's token goes to its owner. SC10-011 / R-024: an indirect route's to the
    player with more links in it; with equal links, to the player who closed the route."""
    runs = cand["runs"]
    if len(runs) == 1:
        return runs[0][0]
    (pa, _, na), (pb, _, nb) = runs
    if na != nb:
        return pa if na > nb else pb
    return closer if closer in (pa, pb) else pa


def token_node(state: State, cand: dict, winner: int, imap: dict) -> Node:
    """SC10-010: under the winner's end building; between two of his own, the one on his home island."""
    a, b = cand["a"], cand["b"]
    ends = [n for n in (a, b) if state.buildings[n][0] == winner]
    if len(ends) == 2:
        home = (state.scenario_state.get("home") or {}).get(str(winner))
        for n in ends:
            if home is not None and node_island(n, imap) == home:
                return n
        return min(ends)
    return ends[0]


def update_routes(ctx: "Ctx", s: State, imap: dict) -> None:
    """SC10-013 / R-025: recompute every route after an action; surrender, award and hand over tokens."""
    old = {(as_node(r["a"]), as_node(r["b"])): r for r in s.scenario_state.get("routes") or []}
    found = find_routes(s, ctx.graph, imap)
    routes: list[dict[str, Any]] = []
    for key in sorted(found):
        prev = old.pop(key, None)
        closer = prev["closer"] if prev else ctx.action.player
        best = min(len(c["path"]) for c in found[key])
        shortest = [c for c in found[key] if len(c["path"]) == best]
        holder = prev["holder"] if prev else None
        cand = next((c for c in shortest if winner_of(c, closer) == holder), shortest[0])
        win = winner_of(cand, closer)
        node = token_node(s, cand, win, imap)
        if prev is None or (prev["holder"], as_node(prev["node"])) != (win, node):
            if prev is not None:
                remove_svp(ctx, s, prev["holder"], as_node(prev["node"]), 1, "SC10-013: trade route handed over")
            kind = "direct" if len(cand["runs"]) == 1 else "indirect"
            award_svp(ctx, s, win, node, 1, f"{'SC10-010' if kind == 'direct' else 'SC10-011'}: {kind} trade route")
        routes.append({"a": list(key[0]), "b": list(key[1]), "holder": win, "closer": closer, "node": list(node),
                       "kind": "direct" if len(cand["runs"]) == 1 else "indirect",
                       "links": {str(p): n for p, _, n in cand["runs"]}})
    for key, prev in sorted(old.items()):
        # SC10-013: the route is interrupted, so its token is surrendered.
        remove_svp(ctx, s, prev["holder"], as_node(prev["node"]), 1, "SC10-013: trade route interrupted")
        ctx.emit("trade_route_lost", a=list(key[0]), b=list(key[1]), player=prev["holder"])
    s.scenario_state["routes"] = routes


def describe_routes(state: State, graph: MapGraph, imap: dict) -> list[dict[str, Any]]:
    """The routes with a witness path, and (SC10-012) the ships either owner may move out of it: a route
    of two players' lanes is an open lane, so each owner's foremost ship of it may move (R-010/R-013)."""
    found = find_routes(state, graph, imap)
    out = []
    stored = {(as_node(r["a"]), as_node(r["b"])): r for r in state.scenario_state.get("routes") or []}
    for key in sorted(found):
        best = min(found[key], key=lambda c: len(c["path"]))
        owners = sorted({p for p, _, _ in best["runs"]})
        movable = []
        for p in owners:
            closed = closed_ships(state, graph, p)
            for e in best["path"]:
                if state.ships.get(e) == p and e not in closed and is_foremost(state, graph, p, e):
                    movable.append({"player": p, "edge": list(e)})
        r = stored.get(key, {})
        out.append({"a": list(key[0]), "b": list(key[1]), "holder": r.get("holder"),
                    "kind": "direct" if len(best["runs"]) == 1 else "indirect",
                    "path": [list(e) for e in best["path"]], "movable_ships": movable})
    return out
