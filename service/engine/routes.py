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
#: goes first) and of the interned building keys.
MEMO_SIZE = 8192


def player_route_pieces(state: State, player: int, include_ships: bool = True) -> list[tuple[tuple, str]]:
    """The pieces that count for ``player``'s route: ``[(edge, "road" | "ship")]``."""
    out = [(e, "road") for e, p in state.roads.items() if p == player]
    if include_ships:
        out += [(e, "ship") for e, p in state.ships.items() if p == player]
    return out


def route_context(state: State, graph: MapGraph, blockers: Optional[dict] = None) -> tuple[dict[int, int], frozenset]:
    """What a route result depends on among the buildings, computed once per position and shared by every
    player: the owner of each built intersection (by node id; a city counts as its settlement did), and
    of each intersection a module's other pieces hold (``blockers``, the ``route_blockers`` hook), and
    the same as a memo key, interned so that comparing equal keys is an identity check."""
    node_index = graph.node_index
    owners: dict[int, int] = {}
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
    bounded_put(_BUILDING_KEYS, key, key, MEMO_SIZE)
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


def clear_memo(graph: Optional[MapGraph] = None) -> None:
    """Forget every memoised route and interned building key (benchmarks' cold figures; ``graph`` is
    accepted for the callers' convenience, the memo is one for all boards)."""
    _MEMO.clear()
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
    """:func:`longest_route` of the pieces ``eids`` (:func:`piece_ids`) among the buildings ``owners``
    (:func:`route_context`, ``bkey`` its key).

    The rules are folded into the graph so that what is left is the plain longest-trail problem:

    - an intersection holding an opponent's building is split into one dead end per piece touching it
      (a trail may end there, never pass through; a loop broken there is a chain from it round to it);
    - an intersection without an own building is split into a road end and a ship end (they do not join);
    - an own building keeps one node: roads and ships meet there.

    Then, per connected part: a longest trail starts and ends at nodes of odd degree when there are any
    (else it could be extended), so a part with 0 or 2 of them is covered whole by an Euler trail;
    otherwise chains of degree-2 nodes are contracted to weighted links and an exhaustive trail search
    (bitmask of used links) runs from the odd nodes only, stopping as soon as a trail uses every piece.

    Results are memoised (one bounded memo per process, oldest out first) under exactly what they depend
    on: the board (``graph.memo_token``), the player, their pieces in order (the order decides which of
    several longest trails is the witness) and who owns which intersection. Most actions leave most networks as they were, so a
    position judged after the one before it finds them there.
    """
    if len(eids) <= 1:
        if not eids:
            return 0, []
        x = eids[0]
        return 1, [graph.edges[~x if x < 0 else x]]
    key = (graph.memo_token, player, tuple(eids), bkey)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit[0], list(hit[1])
    n, path = _longest_route(owners, graph, player, eids)
    bounded_put(_MEMO, key, (n, tuple(path)), MEMO_SIZE)
    return n, path


def _longest_route(owners: dict[int, int], graph: MapGraph, player: int,
                   eids: list[int]) -> tuple[int, list[tuple]]:
    """The search behind :func:`route_of` (not memoised).

    First the common case, no junction of three pieces: the rules folded as in :func:`_longest_general`
    into flat arrays (the first and second piece at each node), each part a path or cycle walked whole.
    A third piece at a node hands over to the general search."""
    edge_node_ids = graph.edge_node_ids
    m = len(eids)
    if m == 1:
        return 1, [graph.edges[~eids[0] if eids[0] < 0 else eids[0]]]
    key_of: dict[int, int] = {}
    first: list[int] = []          # per node: its first piece
    second: list[int] = []         # per node: its second piece, -1 for an end
    end_a: list[int] = []          # per piece: its two nodes
    end_b: list[int] = []
    get_b = owners.get
    for i in range(m):
        x = eids[i]
        if x < 0:
            ship = 1
            a, b = edge_node_ids[~x]
        else:
            ship = 0
            a, b = edge_node_ids[x]
        bd = get_b(a)
        if bd is None or bd == player:
            k = a + a + ship if bd is None else a + a
            va = key_of.get(k)
            if va is None:
                va = key_of[k] = len(first)
                first.append(i)
                second.append(-1)
            elif second[va] < 0:
                second[va] = i
            else:
                return _longest_general(owners, graph, player, eids)
        else:
            va = len(first)
            first.append(i)
            second.append(-1)
        bd = get_b(b)
        if bd is None or bd == player:
            k = b + b + ship if bd is None else b + b
            vb = key_of.get(k)
            if vb is None:
                vb = key_of[k] = len(first)
                first.append(i)
                second.append(-1)
            elif second[vb] < 0:
                second[vb] = i
            else:
                return _longest_general(owners, graph, player, eids)
        else:
            vb = len(first)
            first.append(i)
            second.append(-1)
        end_a.append(va)
        end_b.append(vb)
    # Every part a simple path or cycle, covered whole: the longest part (the first found of equal ones),
    # walked from where the general search's Euler trail starts, so that the witness is the same: a path
    # from its end if the part is found there; else from the first node found, from the end beyond its
    # first piece if that piece is the whole side, otherwise from the end beyond its second piece; a cycle
    # from its first node along its first piece.
    n = len(first)
    seen = [False] * n
    best: list[int] = []
    for v0 in range(n):
        if seen[v0]:
            continue
        seen[v0] = True
        via = first[v0]
        p1, v = [], v0
        while True:
            p1.append(via)
            v = end_b[via] if end_a[via] == v else end_a[via]
            seen[v] = True
            if v == v0:
                break                                     # round a cycle
            nxt = second[v]
            if nxt < 0:
                break                                     # the end of a path
            if nxt == via:
                nxt = first[v]
            via = nxt
        if v == v0 or second[v0] < 0:
            path = p1
        else:
            via = second[v0]
            p2, v = [], v0
            while True:
                p2.append(via)
                v = end_b[via] if end_a[via] == v else end_a[via]
                seen[v] = True
                nxt = second[v]
                if nxt < 0:
                    break
                if nxt == via:
                    nxt = first[v]
                via = nxt
            if len(p1) == 1:
                path = p1 + p2
            else:
                p2.reverse()
                path = p2 + p1
        if len(path) > len(best):
            best = path
    return len(best), _edges(graph.edges, eids, best)


def _longest_general(owners: dict[int, int], graph: MapGraph, player: int,
                     eids: list[int]) -> tuple[int, list[tuple]]:
    """:func:`_longest_route` with junctions: fold, parts, Euler trail or exhaustive search."""
    edge_node_ids = graph.edge_node_ids
    m = len(eids)
    # -- fold the connection rules into split nodes --------------------------------------------------
    # Node keys are ints: 2*nid (+1 for a ship end) where no building stands; 2*nid at an own building
    # (roads and ships meet); an opponent's building gives every piece its own dead end (no key).
    key_of: dict[int, int] = {}
    ends: list[tuple[int, int]] = []
    adj: list[list[int]] = []
    get_b = owners.get
    branched = False
    for i, x in enumerate(eids):
        if x < 0:
            ship = 1
            a, b = edge_node_ids[~x]
        else:
            ship = 0
            a, b = edge_node_ids[x]
        bd = get_b(a)
        if bd is None or bd == player:
            k = a + a + ship if bd is None else a + a
            va = key_of.get(k)
            if va is None:
                va = key_of[k] = len(adj)
                adj.append([i])
            else:
                lst = adj[va]
                lst.append(i)
                if len(lst) > 2:
                    branched = True
        else:                                             # BASE-LR-2: a dead end for this piece only
            va = len(adj)
            adj.append([i])
        bd = get_b(b)
        if bd is None or bd == player:
            k = b + b + ship if bd is None else b + b
            vb = key_of.get(k)
            if vb is None:
                vb = key_of[k] = len(adj)
                adj.append([i])
            else:
                lst = adj[vb]
                lst.append(i)
                if len(lst) > 2:
                    branched = True
        else:
            vb = len(adj)
            adj.append([i])
        ends.append((va, vb))
    if not branched:
        return _longest_unbranched(adj, ends, len(adj), eids, graph.edges)
    # -- connected parts (nodes in discovery order), largest first -------------------------------------
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
        sized = [(m, parts[0])]
    else:
        count = [0] * len(parts)
        for a, _ in ends:
            count[part[a]] += 1
        sized = sorted(zip(count, parts), key=lambda cp: -cp[0])
    best_len, best_path = 0, []
    for size, nodes_ in sized:
        if size <= best_len:
            break
        odd = [v for v in nodes_ if len(adj[v]) & 1]
        if len(odd) <= 2:
            path = _euler_trail(adj, ends, odd[0] if odd else nodes_[0], size, branched)
        else:
            path = _search(adj, ends, nodes_, odd, size, best_len)
        if len(path) > best_len:
            best_len, best_path = len(path), path
    return best_len, _edges(graph.edges, eids, best_path)


def _longest_unbranched(adj: list[list[int]], ends: list[tuple[int, int]], n: int, eids: list[int],
                        gedges: list) -> tuple[int, list[tuple]]:
    """No node of degree 3: every part is a simple path or cycle, covered whole. The longest part (the
    first found of equal ones), walked from where the general case's Euler trail starts, so the witness
    is the same: a path's end if the part is found there; else from the first node found, the end beyond
    its first piece if that piece is the whole side, otherwise the end beyond its second piece; a cycle
    from its first node along its first piece."""
    seen = [False] * n
    best: list[int] = []
    for v0 in range(n):
        if seen[v0]:
            continue
        seen[v0] = True
        first = adj[v0]
        p1, v, via = [], v0, first[0]
        while True:
            p1.append(via)
            a, b = ends[via]
            v = b if a == v else a
            seen[v] = True
            if v == v0:
                break                                     # round a cycle
            nxt = adj[v]
            if len(nxt) == 1:
                break                                     # the end of a path
            via = nxt[1] if nxt[0] == via else nxt[0]
        if v == v0 or len(first) == 1:
            path = p1
        else:
            p2, v, via = [], v0, first[1]
            while True:
                p2.append(via)
                a, b = ends[via]
                v = b if a == v else a
                seen[v] = True
                nxt = adj[v]
                if len(nxt) == 1:
                    break
                via = nxt[1] if nxt[0] == via else nxt[0]
            if len(p1) == 1:
                path = p1 + p2
            else:
                p2.reverse()
                path = p2 + p1
        if len(path) > len(best):
            best = path
    return len(best), _edges(gedges, eids, best)


def _edges(gedges: list, eids: list[int], path: list[int]) -> list[tuple]:
    """The witness as edges (``eids`` holds a ship as ``~eid``)."""
    out = []
    for i in path:
        x = eids[i]
        out.append(gedges[~x if x < 0 else x])
    return out


def _euler_trail(adj: list[list[int]], ends: list[tuple[int, int]], start: int, size: int,
                 branched: bool = True) -> list[int]:
    """Hierholzer: a trail through every piece of a part with 0 or 2 odd nodes (``start`` odd if any)."""
    if not branched:
        # A simple path or cycle: the walk from ``start`` (what Hierholzer gives there).
        out, v, via = [], start, -1
        while len(out) < size:
            for i in adj[v]:
                if i != via:
                    break
            out.append(i)
            a, b = ends[i]
            v = b if a == v else a
            via = i
        return out
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
    """Longest trail of one part with 4+ odd nodes: contract degree-2 chains into weighted links, then
    a depth-first search over links (used links as an int bitmask) from each odd node."""
    # Links: walk from every node of degree != 2 along each piece until the next such node.
    links: list[tuple[int, int, int, list[int]]] = []     # (from, to, length, pieces in order from -> to)
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
    at: dict[int, list[tuple[int, int, int]]] = {}          # node -> [(link bit, other end, length)]
    for k, (a, b, ln, _) in enumerate(links):
        at.setdefault(a, []).append((1 << k, b, ln))
        if b != a:
            at.setdefault(b, []).append((1 << k, a, ln))
        else:
            at[a].append((1 << k, a, ln))
    best = [floor, None]
    trail: list[int] = []
    calls = [0]

    def dfs(v: int, used: int, length: int) -> bool:
        calls[0] += 1
        if not calls[0] & 1023:   # the request's cost budget, every 1,024 steps of the search
            check_budget()
        if length > best[0]:
            best[0] = length
            best[1] = (trail[0][1] if trail else v, list(trail))
            if length == size:
                return True
        for bit, w, ln in at.get(v, ()):
            if used & bit:
                continue
            trail.append((bit, v))
            if dfs(w, used | bit, length + ln):
                return True
            trail.pop()
        return False

    for s in odd:
        if dfs(s, 0, 0):
            break
    if best[1] is None:
        return []
    out: list[int] = []
    for bit, frm in best[1][1]:
        a, b, ln, chain = links[bit.bit_length() - 1]
        out.extend(chain if a == frm else reversed(chain))
    return out


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
