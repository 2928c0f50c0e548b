"""GOLD searches on the map graph: the front coast, ship spaces, the Minimum Number of Roads (MNR) and
the front-coast settlement statements A, B and C.

Everything here works on small-int arrays over one board's :class:`MapGraph` (precomputed once per
graph and kept beside it), so a settlement verdict on the full map stays in the low milliseconds.

*Spaces* (R-031): an edge between two hexes of the board of which at least one is water. Two spaces are
adjacent when they share an endpoint; ``d(e, e')`` is the number of steps between them.

*MNR* (GOLD-038, R-036) of a *pending* player q (at least one building, none on the front coast): the fewest new
roads from q's network to a *target* (an empty front-coast intersection with no building next to it), by
0-1 breadth-first search over road edges: q's own road costs 0, an empty edge 1, another player's road
and any intersection holding another player's building cannot be used. ``None`` when no target is
reachable (∞).

*Statements* (R-037..R-039) for player p building a settlement at s, and the decision (GOLD-042, R-040):
A (GOLD-039): some pending opponent's MNR rises by 2 or more (finite -> ∞ counts, ∞ -> ∞ does not); B
(GOLD-040): s is not on the front coast, or p already has a front-coast building; C (GOLD-041): another
target s' that p reaches with at
most one new road exists where building (with that road, if one is needed) makes A false. The
settlement is illegal exactly when A and (B or C).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable, Optional

from ...geometry import Edge, Node
from ...islands import land_components
from ...mapgraph import MapGraph
from ...memo import bounded_put, per_board
from ...state import State

INF = 1 << 30
#: Memoised MNR witnesses (``Board._witness``), oldest out first.
_WITNESSES: dict[tuple, tuple] = {}


def clear_memo() -> None:
    """Forget every memoised MNR witness (benchmarks' cold figures)."""
    _WITNESSES.clear()
#: Terrains that are water for a space (R-031; the frame is water for the sides it shares, R-102).
WATER = frozenset({"sea", "frame"})
#: R-035 fallback: a main-island coast intersection is front coast within this many spaces of a gold dock.
FALLBACK_REACH = 4


# -- per-graph precomputation ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Net:
    """One board's road and water structure as arrays (built once per map graph)."""
    road_adj: tuple[tuple[tuple[int, int], ...], ...]   # node -> ((road edge, other node), ...)
    space: tuple[bool, ...]                              # edge -> is a space
    space_adj: tuple[tuple[int, ...], ...]               # space -> adjacent spaces
    gold_dock: tuple[bool, ...]                          # edge -> between a gold hex and water (GOLD-032)
    gold_dist: tuple[int, ...]                           # space -> steps to the nearest gold dock (INF)


def net_of(g: MapGraph) -> Net:
    """The :class:`Net` of a map graph (kept on the graph: ``memo.per_board``)."""
    return per_board(g, "GOLD.net", _build_net)


def _build_net(g: MapGraph) -> Net:
    from ...geometry import edge_hexes
    n_nodes, n_edges = len(g.nodes), len(g.edges)
    road_adj: list[list[tuple[int, int]]] = [[] for _ in range(n_nodes)]
    space = [False] * n_edges
    gold_dock = [False] * n_edges
    for eid, e in enumerate(g.edges):
        a, b = g.edge_node_ids[eid]
        if g.road_edge(eid):
            road_adj[a].append((eid, b))
            road_adj[b].append((eid, a))
        ta, tb = (g.terrain.get(h, "frame") for h in edge_hexes(e))
        if ta in WATER or tb in WATER:
            if not (ta == "frame" and tb == "frame"):
                space[eid] = True
                gold_dock[eid] = "gold" in (ta, tb)
    space_adj: list[tuple[int, ...]] = []
    for eid in range(n_edges):
        if not space[eid]:
            space_adj.append(())
            continue
        out = []
        for nid in g.edge_node_ids[eid]:
            out.extend(o for o in g.node_edge_ids[nid] if o != eid and space[o])
        space_adj.append(tuple(out))
    dist = [INF] * n_edges
    q = deque()
    for eid in range(n_edges):
        if gold_dock[eid]:
            dist[eid] = 0
            q.append(eid)
    while q:
        e = q.popleft()
        for f in space_adj[e]:
            if dist[f] == INF:
                dist[f] = dist[e] + 1
                q.append(f)
    return Net(tuple(tuple(x) for x in road_adj), tuple(space), tuple(space_adj), tuple(gold_dock), tuple(dist))


# -- spaces (R-031) ----------------------------------------------------------------------------------

def is_space(g: MapGraph, e: Edge) -> bool:
    eid = g.edge_index.get(e)
    return eid is not None and net_of(g).space[eid]


def spaces_adjacent(g: MapGraph, a: Edge, b: Edge) -> bool:
    """R-031: two spaces are adjacent when they share exactly one endpoint intersection."""
    ia, ib = g.edge_index.get(a), g.edge_index.get(b)
    if ia is None or ib is None or ia == ib:
        return False
    return ib in net_of(g).space_adj[ia]


def is_gold_dock(g: MapGraph, e: Edge) -> bool:
    """GOLD-032: a space between a gold hex and a water hex."""
    eid = g.edge_index.get(e)
    return eid is not None and net_of(g).gold_dock[eid]


def is_home_dock(g: MapGraph, e: Edge, home: Node) -> bool:
    """GOLD-031, R-032: a space touching the ship's own home intersection."""
    eid, nid = g.edge_index.get(e), g.node_index.get(home)
    return eid is not None and nid is not None and net_of(g).space[eid] and nid in g.edge_node_ids[eid]


def home_dock_spaces(g: MapGraph, home: Node) -> list[Edge]:
    nid = g.node_index.get(home)
    if nid is None:
        return []
    net = net_of(g)
    return [g.edges[e] for e in g.node_edge_ids[nid] if net.space[e]]


def site_gold_distance(g: MapGraph, node: Node) -> Optional[int]:
    """GOLD-034 / R-031: min over the spaces touching ``node`` of the steps to the nearest gold dock."""
    nid = g.node_index.get(node)
    if nid is None:
        return None
    net = net_of(g)
    best = min((net.gold_dist[e] for e in g.node_edge_ids[nid] if net.space[e]), default=INF)
    return None if best >= INF else best


# -- the front coast (R-035) -------------------------------------------------------------------------

def front_coast(state: State, g: MapGraph) -> frozenset[Node]:
    """The front-coast intersections (GOLD-043): the map's tag (``scenario_state["front_coast"]``), else the R-035
    fallback: main-island (largest land mass) intersections touching water whose spaces are within 4
    spaces of a gold dock."""
    tagged = state.scenario_state.get("front_coast")
    if tagged is not None:
        return frozenset((int(q), int(r), str(c)) for q, r, c in tagged)
    return derived_front_coast(state, g)


def derived_front_coast(state: State, g: MapGraph) -> frozenset[Node]:
    comps = [c for c in land_components(state.hexes) if any(state.hexes[h].terrain != "gold" for h in c)]
    if not comps:
        return frozenset()
    main = max(comps, key=lambda c: (len(c), sorted(c)[0]))
    out = set()
    for nid, n in enumerate(g.nodes):
        if not g.node_water[nid] or not any(h in main for h in g.node_hexes[nid]):
            continue
        d = site_gold_distance(g, n)
        if d is not None and d <= FALLBACK_REACH:
            out.add(n)
    return frozenset(out)


# -- the board as arrays -------------------------------------------------------------------------------

class Board:
    """Buildings and roads of one position as arrays over node / edge ids, with the front coast.

    Hypothetical pieces (the statements' "if built" boards) are put with :meth:`put_building` /
    :meth:`put_road` and taken back with :meth:`undo`, so one board serves every search of a verdict."""

    __slots__ = ("g", "net", "bown", "rown", "fc", "fc_ids", "players", "built", "roads_of", "_undo", "_cache")

    def __init__(self, state: State, g: MapGraph, fc: Optional[Iterable[Node]] = None) -> None:
        self.g = g
        self.net = net_of(g)
        self.players = state.num_players
        self.bown = [-1] * len(g.nodes)
        self.built: list[set[int]] = [set() for _ in range(self.players)]
        for n, (p, _) in state.buildings.items():
            nid = g.node_index.get(n)
            if nid is not None and 0 <= p < self.players:
                self.bown[nid] = p
                self.built[p].add(nid)
        self.rown = [-1] * len(g.edges)
        self.roads_of: list[list[int]] = [[] for _ in range(self.players)]
        for e, p in state.roads.items():
            eid = g.edge_index.get(e)
            if eid is not None and 0 <= p < self.players:
                self.rown[eid] = p
                self.roads_of[p].append(eid)
        self.fc = frozenset(fc) if fc is not None else front_coast(state, g)
        self.fc_ids = tuple(sorted(g.node_index[n] for n in self.fc if n in g.node_index))
        self._undo: list[tuple] = []
        self._cache: dict[int, tuple] = {}         # q -> MNR witness on the real board

    # -- hypothetical pieces ---------------------------------------------------------------------------
    def put_building(self, p: int, v: int) -> None:
        self._undo.append(("b", v, self.bown[v]))
        self.bown[v] = p
        self.built[p].add(v)

    def put_road(self, p: int, eid: int) -> None:
        self._undo.append(("r", eid, self.rown[eid]))
        self.rown[eid] = p
        self.roads_of[p].append(eid)

    def undo(self, marks: int = 0) -> None:
        """Take back hypothetical pieces until ``marks`` remain."""
        while len(self._undo) > marks:
            kind, i, old = self._undo.pop()
            if kind == "b":
                self.built[self.bown[i]].discard(i)
                self.bown[i] = old
            else:
                self.roads_of[self.rown[i]].remove(i)
                self.rown[i] = old

    # -- who and where ----------------------------------------------------------------------------------
    def pending(self, q: int) -> bool:
        """R-036: q has a building on the board and none on the front coast."""
        return bool(self.built[q]) and not self.has_fc_building(q)

    def has_fc_building(self, p: int) -> bool:
        bown = self.bown
        return any(bown[v] == p for v in self.fc_ids)

    def targets(self) -> list[int]:
        """Empty front-coast intersections with no building one edge away (the distance rule)."""
        bown, nbr = self.bown, self.g.node_neighbour_ids
        return [v for v in self.fc_ids if bown[v] < 0 and all(bown[m] < 0 for m in nbr[v])]

    def sources(self, q: int) -> set[int]:
        """q's buildings and the ends of q's roads, not where an opponent's building stands."""
        bown, ends = self.bown, self.g.edge_node_ids
        out = set(self.built[q])
        for eid in self.roads_of[q]:
            a, b = ends[eid]
            if bown[a] < 0 or bown[a] == q:
                out.add(a)
            if bown[b] < 0 or bown[b] == q:
                out.add(b)
        return out

    def search(self, q: int, targets: Optional[set[int]] = None) -> tuple[dict[int, int], dict[int, int]]:
        """0-1 BFS from q's network (R-036): distances to the intersections reached, and the edge each
        was reached by (-1 at a source). With ``targets``, stops at the first target settled."""
        bown, rown, adj = self.bown, self.rown, self.net.road_adj
        dist: dict[int, int] = {}
        via: dict[int, int] = {}
        dq: deque[int] = deque()
        for v in self.sources(q):
            dist[v] = 0
            via[v] = -1
            dq.append(v)
        done: set[int] = set()
        while dq:
            v = dq.popleft()
            if v in done:
                continue
            done.add(v)
            if targets is not None and v in targets:
                break
            d = dist[v]
            for eid, w in adj[v]:
                ow = rown[eid]
                if ow >= 0 and ow != q:
                    continue                      # another player's road
                b = bown[w]
                if b >= 0 and b != q:
                    continue                      # no passing through an opponent's building
                if ow == q:
                    if d < dist.get(w, INF):
                        dist[w] = d
                        via[w] = eid
                        dq.appendleft(w)
                elif d + 1 < dist.get(w, INF):
                    dist[w] = d + 1
                    via[w] = eid
                    dq.append(w)
        return dist, via

    def _witness(self, q: int) -> tuple[Optional[int], int, list[int]]:
        """(MNR, target reached, edges of the cheapest path in order) on the board as it stands now.

        Memoised per process (bounded) under all it depends on: the board's graph, the front coast, who
        owns each intersection and each road, and q: a game asks again and again about networks that
        did not change."""
        key = (self.g.memo_token, self.fc_ids, tuple(self.bown), tuple(self.rown), q)
        hit = _WITNESSES.get(key)
        if hit is None:
            m, site, path = self._search_witness(q)
            hit = (m, site, tuple(path))
            bounded_put(_WITNESSES, key, hit)
        return hit[0], hit[1], list(hit[2])

    def _search_witness(self, q: int) -> tuple[Optional[int], int, list[int]]:
        t = set(self.targets())
        if not t:
            return None, -1, []
        dist, via = self.search(q, t)
        reached = [v for v in t if v in dist]
        if not reached:
            return None, -1, []
        nodes = self.g.nodes
        site = min(reached, key=lambda v: (dist[v], nodes[v][1], nodes[v][0], nodes[v][2]))
        path: list[int] = []
        v = site
        while via[v] >= 0:
            eid = via[v]
            path.append(eid)
            v = self.g.other_node(eid, v)
        path.reverse()
        return dist[site], site, path

    def _base(self, q: int) -> tuple[Optional[int], int, list[int], frozenset[int]]:
        """The witness on the real board (no hypothetical pieces), kept for the verdict's later searches."""
        hit = self._cache.get(q)
        if hit is None:
            m, site, path = self._witness(q)
            nodes = {site}
            for eid in path:
                nodes.update(self.g.edge_node_ids[eid])
            hit = self._cache[q] = (m, site, path, frozenset(nodes))
        return hit

    def mnr(self, q: int) -> Optional[int]:
        """R-036: q's Minimum Number of Roads to a viable front-coast site (None = unreachable).

        Hypothetical pieces of another player can only raise it (they block intersections, edges and
        sites), so while the cheapest path on the real board stays open, its value stands unchanged."""
        if not self._undo:
            return self._base(q)[0]
        hit = self._cache.get(q)
        if hit is not None and hit[0] is not None and self._still_open(q, hit[1], hit[2], hit[3]):
            return hit[0]
        return self._witness(q)[0]

    def _still_open(self, q: int, site: int, path: list[int], nodes: frozenset[int]) -> bool:
        nbr = self.g.node_neighbour_ids[site]
        for kind, i, _ in self._undo:
            if kind == "b":
                if self.bown[i] != q and (i in nodes or i in nbr):
                    return False
            elif self.rown[i] != q and i in path:
                return False
        return True

    def mnr_witness(self, q: int) -> Optional[dict]:
        """MNR with a witness: the site reached and the road sites (edges) to build, in order."""
        m, site, path = self._witness(q)
        if m is None:
            return None
        g = self.g
        return {"roads": m, "site": list(g.nodes[site]),
                "path": [list(g.edges[e]) for e in path if self.rown[e] != q],
                "route": [list(g.edges[e]) for e in path]}


def increase_cuts(before: Optional[int], after: Optional[int]) -> bool:
    """R-037: 'raises the MNR by more than one road': +2 or more, finite -> ∞ counts, ∞ -> ∞ does not."""
    if before is None:
        return False
    if after is None:
        return True
    return after - before >= 2


@dataclass(slots=True)
class Statements:
    A: bool
    B: bool
    C: bool
    mnr_before: dict[int, Optional[int]]
    mnr_if_built: dict[int, Optional[int]]
    alternative: Optional[dict] = None           # the site (and road) that makes C true

    @property
    def illegal(self) -> bool:
        """GOLD-042: illegal exactly when A is true and B or C is true."""
        return self.A and (self.B or self.C)


def _after(board: Board, opponents: list[int], p: int, site: int, road: int = -1) -> dict[int, Optional[int]]:
    """Opponents' MNR with p's settlement at ``site`` (and p's road on ``road``), the board restored after."""
    if road >= 0:
        board.put_road(p, road)
    board.put_building(p, site)
    try:
        return {q: board.mnr(q) for q in opponents}
    finally:
        board.undo()


def statements(board: Board, p: int, site: Node) -> Statements:
    """A, B and C (R-037..R-039) for p's settlement at ``site``, with the pending opponents' MNR."""
    g = board.g
    sid = g.node_index[site]
    opponents = [q for q in range(board.players) if q != p and board.pending(q)]
    before = {q: board.mnr(q) for q in opponents}
    after = _after(board, opponents, p, sid)
    a = any(increase_cuts(before[q], after[q]) for q in opponents)
    b = site not in board.fc or board.has_fc_building(p)
    c, alt = _statement_c(board, p, sid, opponents, before)
    return Statements(a, b, c, before, after, alt)


def _statement_c(board: Board, p: int, sid: int, opponents: list[int],
                 before: dict[int, Optional[int]]) -> tuple[bool, Optional[dict]]:
    """R-039: a target s' != s that p reaches with <= 1 new road, where (with that road) A is false."""
    g, rown, bown = board.g, board.rown, board.bown
    dist, _ = board.search(p)
    for v in board.targets():
        dv = dist.get(v, INF)
        if v == sid or dv > 1:
            continue
        if dv == 0:
            roads = [-1]
        else:
            roads = [eid for eid, w in board.net.road_adj[v]
                     if rown[eid] < 0 and dist.get(w, INF) == 0 and (bown[w] < 0 or bown[w] == p)]
        for road in roads:
            after = _after(board, opponents, p, v, road)
            if not any(increase_cuts(before[q], after[q]) for q in opponents):
                return True, {"site": list(g.nodes[v]), "road": None if road < 0 else list(g.edges[road])}
    return False, None


def road_cuts_off(board: Board, p: int, edge: Edge) -> Optional[tuple[int, int]]:
    """R-040 (GOLD-036): the first pending opponent whose finite MNR a road of p on ``edge`` makes ∞,
    as ``(opponent, MNR before)``; None when the road cuts nobody off."""
    eid = board.g.edge_index[edge]
    for q in range(board.players):
        if q == p or not board.pending(q):
            continue
        before = board.mnr(q)
        if before is None:
            continue
        board.put_road(p, eid)
        try:
            after = board.mnr(q)
        finally:
            board.undo()
        if after is None:
            return q, before
    return None


def road_mnr(board: Board, p: int, edge: Edge) -> tuple[dict[int, Optional[int]], dict[int, Optional[int]]]:
    """Pending opponents' MNR before and with p's road on ``edge`` (reported with a road verdict)."""
    eid = board.g.edge_index[edge]
    opponents = [q for q in range(board.players) if q != p and board.pending(q)]
    before = {q: board.mnr(q) for q in opponents}
    board.put_road(p, eid)
    try:
        after = {q: board.mnr(q) for q in opponents}
    finally:
        board.undo()
    return before, after


__all__ = ["Board", "Statements", "statements", "road_cuts_off", "road_mnr", "front_coast", "derived_front_coast",
           "net_of", "is_space", "spaces_adjacent", "is_gold_dock", "is_home_dock", "home_dock_spaces",
           "site_gold_distance", "increase_cuts", "space_path", "INF"]


def space_path(g: MapGraph, start: Edge, goal: str = "gold", home: Optional[Node] = None) -> Optional[list[Edge]]:
    """A shortest walk of spaces (R-031) from ``start`` to the nearest gold dock (``goal="gold"``) or to a
    space touching ``home`` (``goal="home"``), not counting ``start``; None when there is none."""
    net = net_of(g)
    s = g.edge_index.get(start)
    if s is None or not net.space[s]:
        return None
    hid = g.node_index.get(home) if home is not None else None

    def done(e: int) -> bool:
        return net.gold_dock[e] if goal == "gold" else hid in g.edge_node_ids[e]

    prev = {s: -1}
    q = deque([s])
    while q:
        e = q.popleft()
        if done(e):
            out = []
            while e != s:
                out.append(g.edges[e])
                e = prev[e]
            return out[::-1]
        for f in net.space_adj[e]:
            if f not in prev:
                prev[f] = e
                q.append(f)
    return None
