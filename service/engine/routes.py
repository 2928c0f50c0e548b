"""Longest road / longest trade route: the longest trail through one player's roads (and ships).

A trail uses no edge twice but may revisit an intersection (BASE-LR-1: a loop counts all its edges). It
may not pass *through* an intersection holding an opponent's building, though it may end there
(BASE-LR-2). With ships, a road and a ship join only at the player's own settlement or city (SEA-022,
R-030).
"""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import check as check_budget
from .mapgraph import MapGraph
from .memo import bounded_put
from .state import State


#: Bound of the route memo (entries, one per board, player network and building layout; the oldest entry
#: goes first) and of the interned building keys; both are bounded in bytes too (``memo.MEMO_BYTES``).
MEMO_SIZE = 8192


def player_route_pieces(state: State, player: int, include_ships: bool = True) -> list[tuple[tuple, str]]:
    """The pieces that count for ``player``'s route: ``[(edge, "road" | "ship")]``."""
    out = [(e, "road") for e, p in state.roads.items() if p == player]
    if include_ships:
        out += [(e, "ship") for e, p in state.ships.items() if p == player]
    return out


def route_context(state: State, graph: MapGraph, blockers: Optional[dict] = None,
                  owners: Optional[dict[int, int]] = None) -> tuple[dict[int, int], frozenset]:
    """What a route result depends on among the buildings, computed once per position and shared by every
    player: the owner of each built intersection (by node id; a city counts as its settlement did), and
    of each intersection a module's other pieces hold (``blockers``, the ``route_blockers`` hook), and
    the same as a memo key, interned so that comparing equal keys is an identity check. ``owners``: the
    owners of the built intersections when the caller has counted them already (completed here with the
    blockers)."""
    node_index = graph.node_index
    if owners is None:
        owners = {}
        for n, b in state.buildings.items():
            nid = node_index.get(n)
            if nid is not None:
                owners[nid] = b[0]
    if blockers:
        for n, p in blockers.items():
            nid = node_index.get(n)
            if nid is not None:
                owners[nid] = p
    key = frozenset(owners.items())
    same = _BUILDING_KEYS.get(key)
    if same is not None:
        return owners, same
    bounded_put(_BUILDING_KEYS, key, key, MEMO_SIZE, 256 + 150 * len(key))
    return owners, key


_BUILDING_KEYS: dict[frozenset, frozenset] = {}


def piece_ids(graph: MapGraph, pieces: Iterable[tuple[tuple, str]]) -> list[int]:
    """Pieces as edge ids, a ship as ``~eid``, in their order; a piece off this board is left out."""
    edge_index = graph.edge_index
    out = []
    for e, k in pieces:
        eid = edge_index.get(e)
        if eid is not None:
            out.append(eid if k == "road" else ~eid)
    return out


_MEMO: dict[tuple, tuple[int, tuple]] = {}
#: Per network (board, player, pieces): the buildings it was last searched among and the answer (both
#: shared with the route memo's entry and the position's other networks; emptied when it holds
#: :data:`NETWORKS_KEPT`, so at most ~1 MB beside the memo: ~1 KB of buildings per position).
_NETWORKS: dict[tuple, tuple[dict[int, int], tuple[int, tuple]]] = {}
NETWORKS_KEPT = 1024


def clear_memo(graph: Optional[MapGraph] = None) -> None:
    """Forget every memoised route and interned building key (benchmarks' cold figures; ``graph`` is
    accepted for the callers' convenience, the memo is one for all boards)."""
    _MEMO.clear()
    _NETWORKS.clear()
    _BUILDING_KEYS.clear()


def longest_route(state: State, graph: MapGraph, player: int,
                  pieces: Optional[Iterable[tuple[tuple, str]]] = None,
                  context: Optional[tuple[dict[int, int], frozenset]] = None,
                  blockers: Optional[dict] = None) -> tuple[int, list[tuple]]:
    """Length and one witness trail (ordered edges) of ``player``'s longest road / trade route.

    SEA-021: roads and ships both count (open and closed lanes alike); SEA-022: a road and a ship
    continue each other only at the player's own settlement or city; BASE-LR-2: an opponent's building
    breaks the line (R-030). ``pieces`` default to :func:`player_route_pieces`; ``context`` is
    :func:`route_context` of the position (computed here if not given).
    """
    if pieces is None:
        pieces = player_route_pieces(state, player)
    owners, bkey = route_context(state, graph, blockers) if context is None else context
    return route_of(graph, player, piece_ids(graph, pieces), owners, bkey)


def route_of(graph: MapGraph, player: int, eids: list[int], owners: dict[int, int],
             bkey: frozenset) -> tuple[int, list[tuple]]:
    """:func:`route_hit` with the witness as a list of its own."""
    n, path = route_hit(graph, player, eids, owners, bkey)
    return n, list(path)


def route_hit(graph: MapGraph, player: int, eids: list[int], owners: dict[int, int],
              bkey: frozenset) -> tuple[int, tuple]:
    """:func:`longest_route` of the pieces ``eids`` (:func:`piece_ids`) among the buildings ``owners``
    (:func:`route_context`, ``bkey`` its key).

    The rules are folded into the graph so that what is left is the plain longest-trail problem:

    - an intersection holding an opponent's building is split into one dead end per piece touching it
      (a trail may end there, never pass through; a loop broken there is a chain from it round to it);
    - an intersection without an own building is split into a road end and a ship end (they do not join);
    - an own building keeps one node: roads and ships meet there.

    Then, per connected part: a longest trail starts and ends at nodes of odd degree when there are any
    (else it could be extended), so a part with 0 or 2 of them is covered whole by an Euler trail;
    otherwise chains of degree-2 nodes are contracted to weighted links and a trail search bounded by
    proofs (:func:`_search`) runs from the odd nodes; it answers what an exhaustive search would.

    Results are memoised (one bounded memo per process, oldest out first) under exactly what they depend
    on: the board (``graph.memo_token``), the player, their pieces in order (the order decides which of
    several longest trails is the witness) and who owns which intersection. Most actions leave most
    networks as they were, so a position judged after the one before it finds them there.

    The answer is ``(length, witness as a tuple of edges)``, the memo's own: shared, never to be changed.
    """
    if len(eids) <= 1:
        if not eids:
            return _NO_ROUTE
        x = eids[0]
        return 1, (graph.edges[~x if x < 0 else x],)
    pieces = tuple(eids)
    token = graph.memo_token
    key = (token, player, pieces, bkey)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    # Not with these buildings. The result depends only on the buildings on this network's own junctions:
    # when the network was last searched among buildings that agree with these there (an opponent built
    # elsewhere on the board), that answer stands; only a player whose pieces or junctions changed is
    # searched again.
    net = (token, player, pieces)
    last = _NETWORKS.get(net)
    if last is not None and _same_junctions(graph.edge_node_ids, pieces, last[0], owners):
        hit = last[1]
    else:
        n, path = _longest_route(owners, graph, player, eids)
        hit = (n, tuple(path))
    if len(_NETWORKS) >= NETWORKS_KEPT:
        _NETWORKS.clear()
    _NETWORKS[net] = (owners, hit)
    bounded_put(_MEMO, key, hit, MEMO_SIZE, 300 + 40 * len(eids) + 8 * len(hit[1]))
    return hit


_NO_ROUTE: tuple[int, tuple] = (0, ())


def _same_junctions(edge_node_ids: list[tuple[int, int]], pieces: tuple[int, ...], a: dict[int, int],
                    b: dict[int, int]) -> bool:
    """Whether the buildings ``a`` and ``b`` (node id -> owner) agree on every junction the pieces touch."""
    ga, gb = a.get, b.get
    for x in pieces:
        u, v = edge_node_ids[~x if x < 0 else x]
        if ga(u) != gb(u) or ga(v) != gb(v):
            return False
    return True


def _longest_route(owners: dict[int, int], graph: MapGraph, player: int,
                   eids: list[int]) -> tuple[int, list[tuple]]:
    """The search behind :func:`route_of` (not memoised): the rules folded into the graph; without a
    junction of three pieces every part is a path or a cycle (:func:`_paths`), else per part an Euler
    trail or the bounded search (:func:`_general` over :func:`_fold`)."""
    best = _paths(owners, graph.edge_node_ids, player, eids)
    return len(best), _edges(graph.edges, eids, best)


def _paths(owners: dict[int, int], edge_node_ids: list[tuple[int, int]], player: int,
           eids: list[int]) -> list[int]:
    """The longest trail as pieces (indexes into ``eids``), for the common case (most networks of a game)
    in one pass: no node joins three pieces, so every part is a path or a cycle, covered whole. The rules
    fold as in :func:`_fold` (the same keys); per node the pieces met there are kept as one int: ``~i``
    for the one piece ``i``, ``i + j`` for two (the piece beyond ``i`` is then that minus ``i``). A third
    piece at a node hands the network over to :func:`_general` (over :func:`_fold`, with the keys found
    so far).

    The witness is the longest part (the first found of equal ones), walked from where :func:`_general`'s
    Euler trail would start, so that it is the one it would give. Parts are taken in the order of their
    first nodes (numbered as a piece first meets them): a part's first node is the first end of its first
    piece, and every other piece of the part comes later, so the parts are walked from their first pieces
    in order. A path is walked from its end if its first node is one; else from the end beyond its first
    piece if that piece is the whole side, otherwise from the end beyond its second piece; a cycle from
    its first node along its first piece."""
    get_b = owners.get
    if len(eids) == 2:
        # Two pieces: one part when they meet at a junction (walked from the first one, either way
        # round, they come in their order), else two parts of one piece each (the first one kept).
        a, b = _end_keys(edge_node_ids, get_b, player, eids[0], 0)
        c, d = _end_keys(edge_node_ids, get_b, player, eids[1], 1)
        if a == c or a == d or b == c or b == d:       # (keys at opponents' buildings never meet)
            return [0, 1]
        return [0]
    ends: list[tuple[int, int]] = []
    at: dict[int, int] = {}
    get_at = at.get
    i = 0
    for x in eids:
        ka, kb = _end_keys(edge_node_ids, get_b, player, x, i)
        s = get_at(ka)
        if s is None:
            at[ka] = ~i
        elif s < 0:
            at[ka] = i - s - 1                          # ~s + i
        else:                                           # a third piece here
            return _general(*_fold(owners, edge_node_ids, player, eids, ends))
        s = get_at(kb)
        if s is None:
            at[kb] = ~i
        elif s < 0:
            at[kb] = i - s - 1
        else:
            return _general(*_fold(owners, edge_node_ids, player, eids, ends))
        ends.append((ka, kb))
        i += 1
    walked = [False] * i
    best: list[int] = []
    left = i
    for i0 in range(i):
        if left <= len(best):
            break                                       # no part left is longer
        if walked[i0]:
            continue
        v0 = ends[i0][0]
        side = []
        via = i0
        v = v0
        while True:                                     # from v0 along its first piece
            side.append(via)
            walked[via] = True
            a, b = ends[via]
            v = b if a == v else a
            if v == v0:
                break                                   # round a cycle
            s = at[v]
            if s < 0:
                break                                   # the end of a path
            via = s - via
        left -= len(side)
        s = at[v0] if v != v0 else -1
        if s >= 0:                                      # and the other way from v0
            other = []
            via = s - i0
            v = v0
            while True:
                other.append(via)
                walked[via] = True
                a, b = ends[via]
                v = b if a == v else a
                s = at[v]
                if s < 0:
                    break
                via = s - via
            left -= len(other)
            if len(side) + len(other) > len(best):
                if len(side) == 1:
                    side.extend(other)
                    best = side
                else:
                    other.reverse()
                    other.extend(side)
                    best = other
        elif len(side) > len(best):
            best = side
    return best


#: The keys of :func:`_fold` (and :func:`_paths`) for the ends at an opponent's building start here (past
#: every node id).
_APART = 1 << 40


def _end_keys(edge_node_ids: list[tuple[int, int]], get_b, player: int, x: int, i: int) -> tuple[int, int]:
    """The node keys (see :func:`_fold`) of the two ends of ``x``, the ``i``-th piece: a road end its node
    id, a ship end ``~nid`` where no building stands (SEA-022), the node id at an own building, and a key of
    its own past every node id at an opponent's building (BASE-LR-2: a trail ends there)."""
    if x < 0:
        a, b = edge_node_ids[~x]
        bd = get_b(a)
        ka = ~a if bd is None else a if bd == player else _APART + i + i
        bd = get_b(b)
        return ka, ~b if bd is None else b if bd == player else _APART + 1 + i + i
    a, b = edge_node_ids[x]
    bd = get_b(a)
    ka = a if bd is None or bd == player else _APART + i + i
    bd = get_b(b)
    return ka, b if bd is None or bd == player else _APART + 1 + i + i


def _fold(owners: dict[int, int], edge_node_ids: list[tuple[int, int]], player: int, eids: list[int],
          known: list[tuple[int, int]] = ()) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """The connection rules folded into split nodes: per node its pieces (by index into ``eids``, in the
    order met), and per piece its two nodes; nodes are numbered as a piece first meets them.

    Node keys: a road end is its node id, a ship end ``~nid`` where no building stands (SEA-022: a road
    and a ship do not join there), the node id at an own building (roads and ships meet), and a key of
    its own, past every node id, for each end at an opponent's building (BASE-LR-2: a trail may end
    there, never pass through). ``known``: the keys of the first pieces' ends, found already."""
    num: dict[int, int] = {}
    get_n = num.get
    adj: list[list[int]] = []
    ends: list[tuple[int, int]] = []
    get_b = owners.get
    m = len(known)
    i = 0
    for x in eids:
        ka, kb = known[i] if i < m else _end_keys(edge_node_ids, get_b, player, x, i)
        va = get_n(ka)
        if va is None:
            va = num[ka] = len(adj)
            adj.append([i])
        else:
            adj[va].append(i)
        vb = get_n(kb)
        if vb is None:
            vb = num[kb] = len(adj)
            adj.append([i])
        else:
            adj[vb].append(i)
        ends.append((va, vb))
        i += 1
    return adj, ends


def _general(adj: list[list[int]], ends: list[tuple[int, int]]) -> list[int]:
    """The longest trail when some node joins three pieces, per connected part (largest first): a part
    with 0 or 2 odd nodes is covered whole by an Euler trail (a longest trail starts and ends at odd
    nodes when there are any, else it could be extended); otherwise :func:`_search`."""
    n = len(adj)
    part = [-1] * n
    parts: list[list[int]] = []
    for v0 in range(n):
        if part[v0] >= 0:
            continue
        pid = len(parts)
        part[v0] = pid
        stack, nodes_ = [v0], [v0]
        while stack:
            v = stack.pop()
            for i in adj[v]:
                a, b = ends[i]
                w = b if a == v else a
                if part[w] < 0:
                    part[w] = pid
                    nodes_.append(w)
                    stack.append(w)
        parts.append(nodes_)
    if len(parts) == 1:
        sized = [(len(ends), parts[0])]
    else:
        count = [0] * len(parts)
        for a, _ in ends:
            count[part[a]] += 1
        sized = sorted(zip(count, parts), key=lambda cp: -cp[0])
    best: list[int] = []
    for size, nodes_ in sized:
        if size <= len(best):
            break
        odd = [v for v in nodes_ if len(adj[v]) & 1]
        if len(odd) <= 2:
            path = _euler_trail(adj, ends, odd[0] if odd else nodes_[0])
        else:
            path = _search(adj, ends, nodes_, odd, size, len(best))
        if len(path) > len(best):
            best = path
    return best


def _edges(gedges: list, eids: list[int], path: list[int]) -> list[tuple]:
    """The witness as edges (``eids`` holds a ship as ``~eid``)."""
    out = []
    for i in path:
        x = eids[i]
        out.append(gedges[~x if x < 0 else x])
    return out


def _euler_trail(adj: list[list[int]], ends: list[tuple[int, int]], start: int) -> list[int]:
    """Hierholzer: a trail through every piece of a part with 0 or 2 odd nodes (``start`` odd if any)."""
    used: set[int] = set()
    pos = {}
    stack: list[tuple[int, int]] = [(start, -1)]
    out = []
    while stack:
        v, via = stack[-1]
        k = pos.get(v, 0)
        lst = adj[v]
        while k < len(lst) and lst[k] in used:
            k += 1
        pos[v] = k
        if k < len(lst):
            i = lst[k]
            used.add(i)
            a, b = ends[i]
            stack.append((b if a == v else a, i))
        else:
            stack.pop()
            if via >= 0:
                out.append(via)
    out.reverse()
    return out


def _search(adj: list[list[int]], ends: list[tuple[int, int]], nodes_: list[int], odd: list[int],
            size: int, floor: int) -> list[int]:
    """Longest trail of one part with 4+ odd nodes, longer than ``floor`` (else ``[]``).

    Chains of nodes of degree 2 are contracted into weighted links (:func:`_links`); a depth-first search
    over links (used links as an int bitmask) runs from each odd node in turn, links in the order met. The
    witness is the first trail in that order to reach the greatest length (the exhaustive search this
    replaces kept a trail only when strictly longer than every earlier one, so the answer is the same).
    Two things cut it short without changing which trail that is:

    - a proven bound on the length (:func:`_bound`; for a small part, the count of odd nodes alone: a
      trail leaves out at least one link for every two odd nodes beyond its two ends): once a trail
      reaches it, no later one can be longer, so the search stops there;
    - a branch that reaches a node by the same set of links as an earlier one (in another order) has the
      same continuations, of the same lengths, all searched already: none of them can be strictly longer
      than the best found since, so the branch is cut.
    """
    check_budget()                                      # the request's cost budget, once per search
    links, at = _links(adj, ends, nodes_)
    if len(links) <= SMALL:
        top = size - sum(sorted(lk[2] for lk in links)[:(len(odd) - 2) // 2])
    else:
        top = _bound([(a, b, ln) for a, b, ln, _ in links], floor)
    if top <= floor:
        return []
    if len(links) <= SMALL:
        return _ordered(links, at, odd, top, floor, None)[0] or []
    # A large part: the greatest length and the nodes trails of that length start from, when that is
    # cheap to tell (few sets of links are light enough to leave out); then the search from those nodes
    # only, stopped at that length. Else the search from every start, under the bound as it then stands.
    got = _longest_ends(links, at, odd, size, top, floor)
    if got is not None:
        top, found = got
        if found:
            return _ordered(links, at, [v for v in odd if found >> v & 1], top, floor, None)[0] or []
    if top <= floor:
        return []
    return _ordered(links, at, odd, top, floor, None)[0] or []


def _ordered(links: list, at: dict[int, list[tuple[int, int, int]]], starts: list[int], top: int, floor: int,
             budget: Optional[int]) -> tuple[Optional[list[int]], int]:
    """The depth-first search: from each of ``starts`` in turn, links in the order met, the first trail
    to reach the greatest length above ``floor`` (as pieces; ``[]`` if none is longer), stopped when a
    trail reaches ``top``; None if it takes more than ``budget`` steps (``_ordered.best_seen`` is then the
    longest trail it saw). A branch that reaches a node by the same set of links as an earlier one (in
    another order) has the same continuations, of the same lengths, all searched already: none of them
    can be longer than the best found since, so the branch is cut."""
    best = [floor, None]
    trail: list[tuple[int, int]] = []
    seen: set[int] = set()
    shift = max(at).bit_length()
    steps = [budget if budget is not None else -1]

    def dfs(v: int, used: int, length: int) -> bool:
        if length > best[0]:
            best[0] = length
            best[1] = list(trail)
            if length >= top:
                return True
        state = used << shift | v
        if state in seen:
            return False
        seen.add(state)
        steps[0] -= 1
        if steps[0] == 0:
            return True
        if not steps[0] & 1023:   # the request's cost budget, every 1,024 steps of the search
            check_budget()
        for bit, w, ln in at[v]:
            if used & bit:
                continue
            trail.append((bit, v))
            if dfs(w, used | bit, length + ln):
                return True
            trail.pop()
        return False

    for s in starts:
        if dfs(s, 0, 0):
            break
    if steps[0] == 0:
        return None, max(best[0], floor + 1)
    if best[1] is None:
        return [], floor
    out: list[int] = []
    for bit, frm in best[1]:
        a, b, ln, chain = links[bit.bit_length() - 1]
        out.extend(chain if a == frm else reversed(chain))
    return out, best[0]


def _links(adj: list[list[int]], ends: list[tuple[int, int]], nodes_: list[int]
           ) -> tuple[list[tuple[int, int, int, list[int]]], dict[int, list[tuple[int, int, int]]]]:
    """The part's chains of nodes of degree 2 contracted: ``links`` ``(from, to, length, pieces in order
    from -> to)``, walked from every node of degree other than 2 along each of its pieces in turn; and
    ``at``: per such node, ``(link bit, other end, length)`` in that order (a loop listed twice)."""
    links: list[tuple[int, int, int, list[int]]] = []
    done: set[int] = set()
    for v in nodes_:
        if len(adj[v]) == 2:
            continue
        for i in adj[v]:
            if i in done:
                continue
            chain, u, j = [], v, i
            while True:
                done.add(j)
                chain.append(j)
                a, b = ends[j]
                u = b if a == u else a
                if len(adj[u]) != 2:
                    break
                x, y = adj[u]
                j = y if x == j else x
            links.append((v, u, len(chain), chain))
    at: dict[int, list[tuple[int, int, int]]] = {}
    for k, (a, b, ln, _) in enumerate(links):
        at.setdefault(a, []).append((1 << k, b, ln))
        at.setdefault(b, []).append((1 << k, a, ln))
    return links, at


#: Steps the search for the lightest parity-fixing links may take before the bound falls back to the count
#: of odd nodes alone (it is a bound either way; the budget keeps its cost below the search it serves).
PARITY_BUDGET = 1000
#: Parts of at most this many links are searched with the count bound alone (cheaper than finding more).
SMALL = 10


def _bound(links: list, floor: int) -> int:
    """No trail over ``links`` is longer than this (or, when this is at most ``floor``, none is longer
    than ``floor``).

    The lesser of two bounds: the bridges' (:func:`_bridge_bound`), and parity's: the trees hanging off
    the rest folded away (:func:`_fold_trees`), what is left bounded by parity (:func:`_parity_bound`)."""
    by_bridges = _bridge_bound(links)
    core, inside = _fold_trees(links)
    if not core:
        return min(inside, by_bridges)
    return min(by_bridges, _core_bound(core, inside, floor))


def _core_bound(core: list[tuple[int, int, int]], inside: int, floor: int) -> int:
    """:func:`_parity_bound` of what is left when trees are folded away, or ``inside`` if more."""
    deg: dict[int, int] = {}
    for a, b, _ in core:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    # nodes renumbered dead ends first, so that the parity search settles them first (fewest choices)
    order = {v: i for i, v in enumerate(sorted(deg, key=lambda v: deg[v]))}
    core = [(order[a], order[b], ln) for a, b, ln in core]
    at: dict[int, list[tuple[int, int, int]]] = {}
    total = 0
    for k, (a, b, ln) in enumerate(core):
        total += ln
        at.setdefault(a, []).append((1 << k, b, ln))
        at.setdefault(b, []).append((1 << k, a, ln))
    odd = [order[v] for v, d in deg.items() if d & 1]
    if len(odd) <= 2:
        return max(inside, total)
    return max(inside, _parity_bound(core, at, odd, total, max(floor, inside)))


def _bridge_bound(links: list[tuple[int, int, int]]) -> int:
    """No trail over the connected ``links`` ``(a, b, length)`` is longer than this.

    A link whose removal cuts the part in two (a bridge) is crossed at most once, so a trail runs along a
    path of the tree the bridges make between the pieces that hold together without them (blobs): it
    starts in one blob, crosses into the next by a bridge, ..., and ends in another (or stays in one).
    Within a blob it goes from where it came in to where it goes out (or to a free end), and leaves out
    at least one link for every two odd nodes beyond those (every link left out changes two nodes'
    parity): the shortest such links of the blob. The best path through that tree (the longest path of a
    tree, each blob weighed by how it is crossed) is the bound."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for k, (a, b, _) in enumerate(links):
        adj.setdefault(a, []).append((k, b))
        adj.setdefault(b, []).append((k, a))
    # bridges: a link into a subtree of the depth-first tree that nothing in the subtree climbs above
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    bridges: set[int] = set()
    for root in adj:
        if root in disc:
            continue
        disc[root] = low[root] = len(disc)
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            v, via, it = stack[-1]
            for k, w in it:
                if k == via:
                    continue
                if w in disc:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                else:
                    disc[w] = low[w] = len(disc)
                    stack.append((w, k, iter(adj[w])))
                    break
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] > disc[u]:
                        bridges.add(via)
    if not bridges:                                     # one blob: the count of odd nodes alone
        deg: dict[int, int] = {}
        for a, b, _ in links:
            deg[a] = deg.get(a, 0) + 1
            deg[b] = deg.get(b, 0) + 1
        k = sum(1 for d in deg.values() if d & 1)
        return sum(lk[2] for lk in links) - sum(sorted(lk[2] for lk in links)[:max(0, k - 2) // 2])
    # blobs: what holds together without the bridges
    blob: dict[int, int] = {}
    for v in adj:
        if v in blob:
            continue
        b_id = len(set(blob.values()))
        blob[v] = b_id
        stack = [v]
        while stack:
            u = stack.pop()
            for k, w in adj[u]:
                if k not in bridges and w not in blob:
                    blob[w] = b_id
                    stack.append(w)
    count = len(set(blob.values()))
    weight = [0] * count
    lens: list[list[int]] = [[] for _ in range(count)]
    odd: list[set[int]] = [set() for _ in range(count)]
    for k, (a, b, ln) in enumerate(links):
        if k in bridges:
            continue
        bb = blob[a]
        weight[bb] += ln
        lens[bb].append(ln)
        odd[bb] ^= {a}
        odd[bb] ^= {b}                                  # a loop adds two: no change
    shortest = []
    for bb in range(count):
        acc = [0]
        for ln in sorted(lens[bb]):
            acc.append(acc[-1] + ln)
        shortest.append(acc)

    def through(bb: int, x: Optional[int], y: Optional[int]) -> int:
        """At most the length of a trail within blob ``bb`` from ``x`` to ``y`` (None: anywhere)."""
        ends_ = set(odd[bb])
        if x is not None:
            ends_ ^= {x}
        if y is not None:
            ends_ ^= {y}
        left_out = (max(0, len(ends_) - (x is None) - (y is None)) + 1) // 2
        acc = shortest[bb]
        return max(0, weight[bb] - acc[min(left_out, len(acc) - 1)])

    # the trees of blobs (one per part), each rooted at its first blob; children before parents
    nbrs: list[list[tuple[int, int, int, int]]] = [[] for _ in range(count)]   # (own node, other node, blob, length)
    for k in bridges:
        a, b, ln = links[k]
        nbrs[blob[a]].append((a, b, blob[b], ln))
        nbrs[blob[b]].append((b, a, blob[a], ln))
    parent = [-1] * count
    order: list[int] = []
    for root in range(count):
        if parent[root] >= 0:
            continue
        parent[root] = root
        i = len(order)
        order.append(root)
        while i < len(order):
            bb = order[i]
            i += 1
            for _, _, c, _ in nbrs[bb]:
                if parent[c] < 0:
                    parent[c] = bb
                    order.append(c)
    down: dict[tuple[int, int], int] = {}               # (blob, node it is entered at) -> best onwards
    best = 0
    for bb in reversed(order):
        kids = [(u, ln + down[(c, v)]) for u, v, c, ln in nbrs[bb] if parent[c] == bb and c != bb]
        best = max(best, through(bb, None, None))
        for i, (u, gain) in enumerate(kids):
            best = max(best, through(bb, None, u) + gain)
            for u2, gain2 in kids[i + 1:]:
                best = max(best, through(bb, u, u2) + gain + gain2)
        up = parent[bb]
        for a in {v for _, v, c, _ in nbrs[up] if c == bb} if up != bb else ():
            down[(bb, a)] = max([through(bb, a, None)] + [through(bb, a, u) + gain for u, gain in kids])
    return best


def _fold_trees(links: list) -> tuple[list[tuple[int, int, int]], int]:
    """``links`` with every tree hanging off the rest folded into single links: ``(core, inside)``.

    A node of degree 3 holding two dead-end links (lengths ``x >= y``) and one more link (length ``z``)
    towards the rest: a trail that also uses the rest takes at most one of the dead ends, so it gains no
    more than from one dead-end link of length ``z + x`` in their place; a trail that does not stays on
    the three links and is no longer than ``x + y`` (or ``x + z``, ``y + z``: those trails also fit the
    folded link, whose whole length is kept). Repeated until no node holds two dead ends; a part that is
    one link in the end is a tree, whose longest trail goes into ``inside`` with the others' bounds.
    Every trail over ``links`` is thus no longer than ``inside`` or than some trail over ``core``."""
    a_of = [lk[0] for lk in links]
    b_of = [lk[1] for lk in links]
    ln_of = [lk[2] for lk in links]
    at: dict[int, set[int]] = {}
    for k in range(len(links)):
        at.setdefault(a_of[k], set()).add(k)
        at.setdefault(b_of[k], set()).add(k)
    alive = set(range(len(links)))
    inside = 0

    def degree(v: int) -> int:
        return sum(2 if a_of[k] == b_of[k] else 1 for k in at[v])

    def other(k: int, v: int) -> int:
        return b_of[k] if a_of[k] == v else a_of[k]

    todo = [v for v in at if degree(v) == 1]
    while todo:
        u = todo.pop()
        if len(at[u]) != 1 or degree(u) != 1:
            continue
        (k,) = at[u]
        p = other(k, u)
        dp = degree(p)
        if dp == 1:                                   # the whole part is this one link
            inside = max(inside, ln_of[k])
            alive.discard(k)
            at[u].clear()
            at[p].clear()
            continue
        if dp == 3:
            ends_ = [j for j in at[p] if j != k and a_of[j] != b_of[j] and len(at[other(j, p)]) == 1
                     and degree(other(j, p)) == 1]
            if not ends_:
                continue
            j = ends_[0]
            inside = max(inside, ln_of[k] + ln_of[j])
            if ln_of[j] > ln_of[k]:
                k, j, u = j, k, other(j, p)
            alive.discard(j)                          # the shorter dead end
            w = other(j, p)
            at[w].clear()
            at[p].discard(j)
        # now p holds the dead end k and one other link: join them into one dead end
        rest = [j for j in at[p] if j != k]
        if len(rest) != 1 or a_of[rest[0]] == b_of[rest[0]]:
            continue
        j = rest[0]
        q = other(j, p)
        if q == u:                                    # two links between the same two nodes: a cycle
            continue
        inside = max(inside, ln_of[k] + ln_of[j])
        ln_of[j] += ln_of[k]
        if a_of[j] == p:
            a_of[j] = u
        else:
            b_of[j] = u
        alive.discard(k)
        at[p].clear()
        at[u] = {j}
        todo.append(u)
        if degree(q) == 1:
            todo.append(q)
    return [(a_of[k], b_of[k], ln_of[k]) for k in sorted(alive)], inside


def _parity_bound(links: list, at: dict[int, list[tuple[int, int, int]]], odd: list[int], size: int,
                  floor: int) -> int:
    """No trail over ``links`` (of total length ``size``) is longer than this (or, when this is at most
    ``floor``, none is longer than ``floor``).

    A trail's own odd nodes are at most its two ends, so the links it leaves out change the parity of
    every other odd node: they hold a link at each, and each link changes the parity of two nodes. The
    lightest such set of links is searched for: take the lowest odd node not yet let be an end; either
    let it be one of the (at most two) ends, or leave out one of its links (which changes the parity of
    its two nodes). A branch is cut when what it left out, plus the lightest links that could fix the
    odd nodes still left (one link for two), cannot be lighter than the lightest set found; the search
    stops when the lightest set found weighs what the count of odd nodes allows (``(k - 2) / 2`` links),
    or after :data:`PARITY_BUDGET` steps (then the count alone is the bound)."""
    shortest = [0]
    for ln in sorted(lk[2] for lk in links):
        shortest.append(shortest[-1] + ln)
    oddm = 0
    for v in odd:
        oddm |= 1 << v
    loops = 0
    for k, (a, b, _) in enumerate(links):
        if a == b:
            loops |= 1 << k
    least = shortest[(len(odd) - 2) // 2]
    lightest = [size - floor]                           # heavier sets leave no trail above ``floor``
    budget = [PARITY_BUDGET]

    def search(oddm: int, ends: int, free_ends: int, dropped: int, weight: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return True                                 # given up
        todo = oddm & ~ends
        rest = todo.bit_count() - free_ends
        if rest <= 0:
            if weight < lightest[0]:
                lightest[0] = weight
            return weight <= least
        if weight + shortest[(rest + 1) // 2] >= lightest[0]:
            return False
        low = todo & -todo
        if free_ends and search(oddm, ends | low, free_ends - 1, dropped, weight):
            return True
        for bit, flip, ln in drops[low.bit_length() - 1]:
            if dropped & bit:
                continue
            if search(oddm ^ flip, ends, free_ends, dropped | bit, weight + ln):
                return True
        return False

    drops = {u: [(bit, (1 << u) ^ (1 << w), ln) for bit, w, ln in lst if not loops & bit] for u, lst in at.items()}
    search(oddm, 0, 2, 0, 0)
    if budget[0] < 0:
        return size - least
    return size - lightest[0]


#: How far the bound may leave out more than the count of odd nodes asks for, for the ends of the trails
#: that reach it to be looked for first.
SLACK = 4
#: Steps the search for the longest trails' ends may take (see :func:`_longest_ends`) before it gives up
#: and the depth-first search runs from every start.
ENDS_BUDGET = 4000


def _longest_ends(links: list, at: dict[int, list[tuple[int, int, int]]], odd: list[int], size: int,
                  top: int, floor: int) -> Optional[tuple[int, int]]:
    """``(length, starts)``: the greatest length of a trail over ``links`` and the nodes (bitmask) from
    which a trail of that length starts; or, with no starts (0), a bound on the length lower than ``top``
    (a proven bound) when that much was cheap to tell; None when the search ran out of steps.

    The lengths are asked for from ``top`` down while few sets of links are light enough to leave out
    for them (at most :data:`SLACK` more than the count of odd nodes asks for): ``top`` first (settled at
    once when a trail reaches it), then one less, and so on.

    A trail covers a connected set of links with at most two odd nodes (its ends; none when it is closed,
    and then it may start at any of its nodes); the links it leaves out fix the parity of every other odd
    node. The search takes the lowest odd node not yet let be an end and either lets it be one of the (at
    most two) ends, or leaves out one of its links (which changes the parity of its two nodes); when every
    odd node left is an end, each connected part of the links kept is a trail's, and the heaviest parts
    found so far give the length and the starts. Every trail is found so: the links it leaves out for
    parity's sake are such a sequence of choices, and the part holding it is no lighter (so it is the
    trail itself when that is a longest one). A branch is cut when what it left out, plus the lightest
    links that could fix the odd nodes still left (one link for two), leaves less than the heaviest part
    found; the search ends early when the first odd node starts a trail of length ``top`` (a proven
    bound: there is nothing longer, and no start before it). Nodes are numbered dead ends first, so that
    the search settles first the nodes with the fewest choices."""
    shortest = [0]
    for ln in sorted(lk[2] for lk in links):
        shortest.append(shortest[-1] + ln)
    back = sorted(at, key=lambda v: len(at[v]))
    rank = {v: i for i, v in enumerate(back)}
    ends_ = [(rank[a], rank[b], ln) for a, b, ln, _ in links]
    at = {rank[v]: [(bit, rank[w], ln) for bit, w, ln in lst] for v, lst in at.items()}
    oddm = 0
    for v in odd:
        oddm |= 1 << rank[v]
    first = 1 << rank[odd[0]]
    loops = 0
    for k, (a, b, _) in enumerate(ends_):
        if a == b:
            loops |= 1 << k
    full = (1 << len(links)) - 1
    best = [top, 0]                                     # the heaviest part (at least best[0]), its starts
    bound = [top]
    steps = [ENDS_BUDGET]

    def look(dropped: int, parity: int, weight: int) -> None:
        kept = full & ~dropped
        left = kept
        rest = size - weight                            # the links kept not yet in a part looked at
        while left and rest >= best[0]:
            low = left & -left
            comp = 0
            wt = 0
            a = ends_[low.bit_length() - 1][0]
            stack = [a]
            seen = 1 << a
            while stack:
                u = stack.pop()
                for bit, w, ln in at[u]:
                    if kept & bit and not comp & bit:
                        comp |= bit
                        wt += ln
                        if not seen >> w & 1:
                            seen |= 1 << w
                            stack.append(w)
            left &= ~comp
            rest -= wt
            if wt >= best[0]:
                odd_ends = parity & seen
                starts = odd_ends if odd_ends else seen & oddm
                if wt > best[0]:
                    best[0], best[1] = wt, starts
                else:
                    best[1] |= starts

    def search(parity: int, ends: int, free_ends: int, dropped: int, weight: int) -> bool:
        steps[0] -= 1
        if steps[0] < 0:
            return True
        todo = parity & ~ends
        rest = todo.bit_count() - free_ends
        if rest <= 0:
            look(dropped, parity, weight)
            return best[0] >= bound[0] and bool(best[1] & first)
        if size - weight - shortest[(rest + 1) // 2] < best[0]:
            return False
        low = todo & -todo
        if free_ends and search(parity, ends | low, free_ends - 1, dropped, weight):
            return True
        for bit, flip, ln in drops[low.bit_length() - 1]:
            if dropped & bit:
                continue
            if search(parity ^ flip, ends, free_ends, dropped | bit, weight + ln):
                return True
        return False

    # per node, the links it may leave out: (link bit, the parity change, length); loops change nothing
    drops = {u: [(bit, (1 << u) ^ (1 << w), ln) for bit, w, ln in lst if not loops & bit] for u, lst in at.items()}
    count = shortest[(len(odd) - 2) // 2]
    least = top
    while least > floor and size - least - count <= SLACK:
        best[0], best[1] = least, 0
        search(oddm, 0, 2, 0, 0)
        if steps[0] < 0:
            return None
        if best[1]:
            out = 0
            for i, v in enumerate(back):
                if best[1] >> i & 1:
                    out |= 1 << v
            return best[0], out
        bound[0] = least - 1                            # nothing reaches ``least``
        least = bound[0] - 1 if least == top else bound[0]
    return bound[0], 0


def update_route_award(lengths: dict[int, int], holder: Optional[int], minimum: int = 5,
                       broken_tie_holder_keeps: bool = True) -> Optional[int]:
    """Who holds the Longest Road / Trade Route card after a change (BASE-LR-3..8).

    >>> update_route_award({0: 5, 1: 4}, None)
    0
    >>> update_route_award({0: 5, 1: 5}, 0)
    0
    >>> update_route_award({0: 4, 1: 6, 2: 6}, 0) is None
    True
    """
    best = max(lengths.values(), default=0)
    leaders = [p for p, n in lengths.items() if n == best]
    if best < minimum:
        return None  # BASE-LR-6(d): nobody has 5+, the card is set aside
    if holder is not None and lengths.get(holder, 0) == best and (broken_tie_holder_keeps or len(leaders) == 1):
        return holder  # BASE-LR-4 / BASE-LR-6(a): ties keep the holder
    if len(leaders) == 1:
        return leaders[0]  # BASE-LR-3 / BASE-LR-6(b) / BASE-LR-7: strictly longest takes it
    return None  # BASE-LR-6(c): others tie without the holder: set aside
