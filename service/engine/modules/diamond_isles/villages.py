"""Island villages on any board: which intersections are village spots, who has a trade route with
which village, which ships those routes freeze, and the diamond payments.

Data (``scenario_state``, JSON values):

- ``villages``: ``[{"hex": [q, r], "diamonds": n}]``, the island villages in village order (R-048: the
  order villages pay in); a village's number is its hex's number token (DIAM-004);
- ``diamond_cache``: the general cache (DIAM-003: 10 at the start);
- ``diamond_reserve``: the other counters of the 50 (R-047: they back the cache);
- ``diamonds``: ``{"<player>": n}``, the diamonds each player holds (missing: 0);
- ``trade_routes``: ``{"<player>": [[q, r], ...]}``, the villages each player has a trade route with,
  recorded the moment it was made (its first diamond is paid then, once, R-048; "for the rest of the
  game" it pays on the village's number, DIAM-007).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

from ...geometry import Edge, Hex
from ...mapgraph import MapGraph
from ...legal.listing import per_listing
from ...memo import bounded_put
from ...state import State

if TYPE_CHECKING:  # pragma: no cover
    from ...core import Ctx


def as_hex(v: Any) -> Hex:
    return (int(v[0]), int(v[1]))


def villages(state: State) -> list[tuple[Hex, int]]:
    """``[(hex, diamonds left)]`` in village order."""
    return [(as_hex(v["hex"]), int(v.get("diamonds", 0))) for v in state.scenario_state.get("villages") or ()]


def village_number(state: State, h: Hex) -> Optional[int]:
    """DIAM-004: a village's number is the number token on its hex."""
    t = state.hexes.get(h)
    return None if t is None else t.number


def village_of_node(state: State, graph: MapGraph) -> dict[int, int]:
    """Node id -> village index, for the six corners of every village (R-045: the village spots). Every
    ship judged by one legal-action list asks for it: kept for that list (``legal.listing.per_listing``).
    Read-only."""
    return per_listing(("diamond_isles.village_of_node",), lambda: _village_of_node(state, graph), state, graph)


def _village_of_node(state: State, graph: MapGraph) -> dict[int, int]:
    hexes = tuple(h for h, _ in villages(state))
    key = ("vmap", graph.memo_token, hexes)
    got = _MEMO.get(key)
    if got is None:
        got = {}
        for i, h in enumerate(hexes):
            for nid in graph.hex_node_ids.get(h, ()):
                got[nid] = i
        bounded_put(_MEMO, key, got, MEMO_SIZE)
    return got


#: Results kept per process under exactly what they depend on (the board's graph, the villages, the
#: player's ships and recorded routes, every building and its owner); the oldest entry goes first.
_MEMO: dict = {}
MEMO_SIZE = 4096


def _position_key(state: State, graph: MapGraph, player: int) -> tuple:
    ss = state.scenario_state
    return (graph.memo_token, player, tuple([tuple(v["hex"]) for v in ss.get("villages") or ()]),
            frozenset([e for e, p in state.ships.items() if p == player]),
            frozenset([(n, b[0]) for n, b in state.buildings.items()]),
            tuple([tuple(h) for h in (ss.get("trade_routes") or {}).get(str(player), ())]))


def diamonds_of(state: State, player: int) -> int:
    return int((state.scenario_state.get("diamonds") or {}).get(str(player), 0))


def recorded_routes(state: State, player: int) -> set[int]:
    """The village indices ``player`` has a trade route with (as recorded when each was made)."""
    hexes = [h for h, _ in villages(state)]
    out = set()
    for v in (state.scenario_state.get("trade_routes") or {}).get(str(player), ()):
        h = as_hex(v)
        if h in hexes:
            out.add(hexes.index(h))
    return out


def _ship_adjacency(state: State, graph: MapGraph, player: int) -> dict[int, list[tuple[int, Edge]]]:
    at: dict[int, list[tuple[int, Edge]]] = {}
    edge_index, edge_node_ids = graph.edge_index, graph.edge_node_ids
    for e, p in state.ships.items():
        if p != player:
            continue
        eid = edge_index.get(e)
        if eid is None:
            continue
        a, b = edge_node_ids[eid]
        at.setdefault(a, []).append((b, e))
        at.setdefault(b, []).append((a, e))
    return at


def _buildings(state: State, graph: MapGraph, player: int) -> tuple[set[int], set[int]]:
    own, opp = set(), set()
    node_index = graph.node_index
    for n, (owner, _) in state.buildings.items():
        nid = node_index.get(n)
        if nid is not None:
            (own if owner == player else opp).add(nid)
    return own, opp


def connected_villages(state: State, graph: MapGraph, player: int,
                       vmap: Optional[dict[int, int]] = None) -> set[int]:
    """R-045 (DIAM-006, DIAM-012): the villages ``player`` has a trade route with: those recorded, and
    every village one of the player's ships touches (a corner of its hex) that is joined through the
    player's ships to one of their settlements or cities, or to a village they already have a route with
    (a connected village is one anchor: all its corners). A line of ships does not pass an opponent's
    settlement or city (R-013). Kept for the legal-action list under way (``legal.listing.per_listing``:
    every ship it judges asks)."""
    return set(per_listing(("diamond_isles.connected_villages", player),
                           lambda: _connected_memo(state, graph, player, _position_key(state, graph, player), vmap),
                           state, graph))


def _connected_memo(state: State, graph: MapGraph, player: int, pk: tuple,
                    vmap: Optional[dict[int, int]] = None) -> frozenset:
    key = ("conn", pk)
    got = _MEMO.get(key)
    if got is None:
        got = frozenset(_connected(state, graph, player, village_of_node(state, graph) if vmap is None else vmap))
        bounded_put(_MEMO, key, got, MEMO_SIZE)
    return got


def _connected(state: State, graph: MapGraph, player: int, vmap: dict[int, int]) -> set[int]:
    found = recorded_routes(state, player)
    at = _ship_adjacency(state, graph, player)
    if not at:
        return found
    own, opp = _buildings(state, graph, player)
    corners: dict[int, list[int]] = {}
    for nid, i in vmap.items():
        corners.setdefault(i, []).append(nid)
    start = set(own)
    for i in found:
        start.update(corners.get(i, ()))
    seen = set(start)
    stack = list(start)
    while stack:
        n = stack.pop()
        if n in opp:
            continue                                  # reached, not passed
        for m, _ in at.get(n, ()):
            if m in seen:
                continue
            seen.add(m)
            stack.append(m)
            i = vmap.get(m)
            if i is not None and i not in found:
                found.add(i)                          # the village's other corners anchor too
                for c in corners[i]:
                    if c not in seen:
                        seen.add(c)
                        stack.append(c)
    return found


def route_ships(state: State, graph: MapGraph, player: int, connected: Optional[set[int]] = None,
                vmap: Optional[dict[int, int]] = None) -> tuple[set[Edge], dict[int, set[Edge]]]:
    """DIAM-011 / R-046: the player's closed ships, and per connected village the ships of the closed
    routes ending there. Anchors are the player's settlements and cities and the villages they have a
    trade route with (each village hex one anchor); a ship is closed when it lies on a simple path of the
    player's ships between two distinct anchors that passes no opponent's building (R-013)."""
    vmap = village_of_node(state, graph) if vmap is None else vmap
    pk = _position_key(state, graph, player)
    if connected is None:
        connected = _connected_memo(state, graph, player, pk, vmap)
    key = ("closed", frozenset(connected), pk)
    got = _MEMO.get(key)
    if got is None:
        got = _route_ships(state, graph, player, connected, vmap)
        bounded_put(_MEMO, key, got, MEMO_SIZE)
    return got


def _route_ships(state: State, graph: MapGraph, player: int, connected: set[int],
                 vmap: dict[int, int]) -> tuple[set[Edge], dict[int, set[Edge]]]:
    at = _ship_adjacency(state, graph, player)
    closed: set[Edge] = set()
    by_village: dict[int, set[Edge]] = {i: set() for i in connected}
    if not at:
        return closed, by_village

    def rep(nid: int) -> Any:
        i = vmap.get(nid)
        return ("v", i) if i is not None and i in connected else nid

    adj: dict[Any, list[tuple[Any, Edge]]] = {}
    for n, links in at.items():
        rn = rep(n)
        for m, e in links:
            rm = rep(m)
            if rm != rn:                              # a ship along one village's coast joins it to itself
                adj.setdefault(rn, []).append((rm, e))
    own, opp = _buildings(state, graph, player)
    anchors = set(own) | {("v", i) for i in connected}
    path: list[Edge] = []
    for start in anchors:
        if start not in adj:
            continue
        visited = {start}

        def dfs(n: Any) -> None:
            for m, e in adj.get(n, ()):
                if m in visited:
                    continue
                path.append(e)
                if m in anchors:
                    closed.update(path)
                    for end in (start, m):
                        if isinstance(end, tuple):
                            by_village[end[1]].update(path)
                if m not in opp:                      # own anchors may be passed
                    visited.add(m)
                    dfs(m)
                    visited.discard(m)
                path.pop()

        dfs(start)
    return closed, by_village


def anchored_at_village(state: State, graph: MapGraph, player: int, edge: Edge) -> Optional[int]:
    """DIAM-013 / R-045: the village (index) whose corner ``edge`` touches and with which ``player`` has
    a trade route, making it a connection point for a new ship; None if there is none."""
    eid = graph.edge_index.get(edge)
    if eid is None:
        return None
    vmap = village_of_node(state, graph)
    touched = [vmap[n] for n in graph.edge_node_ids[eid] if n in vmap]
    if not touched:
        return None
    connected = connected_villages(state, graph, player, vmap)
    for i in touched:
        if i in connected:
            return i
    return None


# -- payments -------------------------------------------------------------------------------------------

def pay_diamond(ctx: "Ctx", s: State, player: int, village: int, why: str) -> None:
    """One diamond to ``player`` from ``village``; DIAM-008: from the general cache when the village has
    none left; R-047: from the spare counters when the cache is empty too. A counter that does not exist
    is not paid (only a posted position can run all 50 out: the game ends as soon as one village is
    empty, R-049, so the cache covers at most one roll's shortfall)."""
    ss = s.scenario_state
    vs = ss["villages"]
    if vs[village]["diamonds"] > 0:
        vs[village]["diamonds"] -= 1
        source = "village"
    elif ss.get("diamond_cache", 0) > 0:
        ss["diamond_cache"] -= 1
        source = "cache"
    elif ss.get("diamond_reserve", 0) > 0:
        ss["diamond_reserve"] -= 1
        source = "reserve"
    else:
        ctx.emit("diamond_unpaid", player=player, village=list(as_hex(vs[village]["hex"])), reason=why)
        return
    d = ss.setdefault("diamonds", {})
    d[str(player)] = int(d.get(str(player), 0)) + 1
    ctx.emit("diamond", player=player, village=list(as_hex(vs[village]["hex"])), source=source, reason=why)


def seat_order(s: State, first: int) -> Iterable[int]:
    n = s.num_players
    return ((first + k) % n for k in range(n))


def record_new_routes(ctx: "Ctx", s: State) -> None:
    """DIAM-006: the moment a player's ships join a village to their harbour (R-045), the player has a
    trade route with it and takes one diamond from it at once; once per player and village (R-048).
    Players are looked at from the actor clockwise, villages in village order."""
    graph = ctx.graph
    vmap = village_of_node(s, graph)
    if not vmap:
        return
    for p in seat_order(s, ctx.action.player):
        had = recorded_routes(s, p)
        new = connected_villages(s, graph, p, vmap) - had
        for i in sorted(new):
            routes = s.scenario_state.setdefault("trade_routes", {})
            routes.setdefault(str(p), []).append(list(as_hex(s.scenario_state["villages"][i]["hex"])))
            ctx.emit("trade_route", player=p, village=list(as_hex(s.scenario_state["villages"][i]["hex"])))
            pay_diamond(ctx, s, p, i, "route")


def pay_roll(ctx: "Ctx", s: State, total: int) -> None:
    """DIAM-007: every village showing the rolled number pays one diamond to each player with a trade
    route to it; R-048: villages in village order, players from the roller clockwise, each diamond from
    the village while it has any, then from the cache (DIAM-008). The robber on a village blocks nothing:
    diamonds are no production of the hex (decided here; the texts give the robber no part in it)."""
    vs = villages(s)
    for i, (h, _) in enumerate(vs):
        if village_number(s, h) != total:
            continue
        for p in seat_order(s, s.current_player):
            if i in recorded_routes(s, p):
                pay_diamond(ctx, s, p, i, "roll")


def villages_with_diamonds(state: State) -> int:
    return sum(1 for _, d in villages(state) if d > 0)


def diamond_total(state: State) -> int:
    """Every counter: villages, cache, spare counters and players' (DIAM-003: 50)."""
    ss = state.scenario_state
    return (sum(d for _, d in villages(state)) + int(ss.get("diamond_cache", 0)) + int(ss.get("diamond_reserve", 0))
            + sum(int(v) for v in (ss.get("diamonds") or {}).values()))


_GRAPHS: dict[int, tuple[Any, MapGraph]] = {}


def board_graph(state: State) -> MapGraph:
    """The map graph of ``state``'s board, for hooks that are given none (``validate_state``): kept per
    board object (copies of a state share their board), a handful at a time."""
    got = _GRAPHS.get(id(state.hexes))
    if got is not None and got[0] is state.hexes:
        return got[1]
    g = MapGraph.build(state.terrain_map())
    bounded_put(_GRAPHS, id(state.hexes), (state.hexes, g), 16)
    return g
