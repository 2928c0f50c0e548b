"""Longest road / longest trade route: the longest trail through one player's roads (and ships).

A trail uses no edge twice but may revisit an intersection (BASE-LR-1: a loop counts all its edges). It
may not pass *through* an intersection holding an opponent's building, though it may end there
(BASE-LR-2). With ships, a road and a ship join only at the player's own settlement or city (SEA-022,
R-030).
"""
from __future__ import annotations

from typing import Iterable, Optional

from .mapgraph import MapGraph
from .state import State


def player_route_pieces(state: State, player: int, include_ships: bool = True) -> list[tuple[tuple, str]]:
    """The pieces that count for ``player``'s route: ``[(edge, "road" | "ship")]``."""
    out = [(e, "road") for e, p in state.roads.items() if p == player]
    if include_ships:
        out += [(e, "ship") for e, p in state.ships.items() if p == player]
    return out


def longest_route(state: State, graph: MapGraph, player: int,
                  pieces: Optional[Iterable[tuple[tuple, str]]] = None) -> tuple[int, list[tuple]]:
    """Length and one witness trail (ordered edges) of ``player``'s longest road / trade route.

    SEA-021: roads and ships both count (open and closed lanes alike); SEA-022: a road and a ship
    continue each other only at the player's own settlement or city; BASE-LR-2: an opponent's building
    breaks the line (R-030).

    The rules are folded into the graph so that what is left is the plain longest-trail problem:

    - an intersection holding an opponent's building is split into one dead end per piece touching it
      (a trail may end there, never pass through; a loop broken there is a chain from it round to it);
    - an intersection without an own building is split into a road end and a ship end (they do not join);
    - an own building keeps one node: roads and ships meet there.

    Then, per connected part: a longest trail starts and ends at nodes of odd degree when there are any
    (else it could be extended), so a part with 0 or 2 of them is covered whole by an Euler trail;
    otherwise chains of degree-2 nodes are contracted to weighted links and an exhaustive trail search
    (bitmask of used links) runs from the odd nodes only, stopping as soon as a trail uses every piece.
    """
    if pieces is None:
        pieces = player_route_pieces(state, player)
    edge_index, edge_node_ids, gnodes = graph.edge_index, graph.edge_node_ids, graph.nodes
    buildings = state.buildings
    eids: list[int] = []
    for e, k in pieces:
        eid = edge_index.get(e)
        if eid is not None:
            eids.append(eid if k == "road" else ~eid)    # ~eid marks a ship
    m = len(eids)
    if m == 0:
        return 0, []
    # -- fold the connection rules into split nodes --------------------------------------------------
    key_of: dict[tuple, int] = {}
    ends: list[tuple[int, int]] = []
    adj: list[list[int]] = []
    for i, x in enumerate(eids):
        ship = x < 0
        eid = ~x if ship else x
        pair = []
        for nid in edge_node_ids[eid]:
            b = buildings.get(gnodes[nid])
            if b is None:
                key = (nid, ship)                 # SEA-022: no building, roads and ships stay apart
            elif b[0] == player:
                key = (nid, None)                 # own building: the junction
            else:
                key = (nid, i)                    # BASE-LR-2: a dead end for this piece only
            v = key_of.get(key)
            if v is None:
                v = key_of[key] = len(adj)
                adj.append([])
            adj[v].append(i)
            pair.append(v)
        ends.append((pair[0], pair[1]))
    # -- connected parts ------------------------------------------------------------------------------
    n = len(adj)
    part = [-1] * n
    parts: list[tuple[list[int], list[int]]] = []      # (nodes, pieces)
    for v0 in range(n):
        if part[v0] >= 0:
            continue
        pid = len(parts)
        part[v0] = pid
        stack, nodes_, seen_e = [v0], [v0], set()
        while stack:
            v = stack.pop()
            for i in adj[v]:
                seen_e.add(i)
                a, b = ends[i]
                w = b if a == v else a
                if part[w] < 0:
                    part[w] = pid
                    nodes_.append(w)
                    stack.append(w)
        parts.append((nodes_, sorted(seen_e)))
    parts.sort(key=lambda p: -len(p[1]))
    best_len, best_path = 0, []
    for nodes_, pcs in parts:
        if len(pcs) <= best_len:
            break
        odd = [v for v in nodes_ if len(adj[v]) % 2]
        if len(odd) <= 2:
            path = _euler_trail(adj, ends, odd[0] if odd else nodes_[0], len(pcs))
        else:
            path = _search(adj, ends, nodes_, odd, len(pcs), best_len)
        if len(path) > best_len:
            best_len, best_path = len(path), path
    return best_len, [graph.edges[~eids[i] if eids[i] < 0 else eids[i]] for i in best_path]


def _euler_trail(adj: list[list[int]], ends: list[tuple[int, int]], start: int, size: int) -> list[int]:
    """Hierholzer: a trail through every piece of a part with 0 or 2 odd nodes (``start`` odd if any)."""
    used: set[int] = set()
    pos = {}
    stack: list[tuple[int, int]] = [(start, -1)]
    out: list[int] = []
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

    def dfs(v: int, used: int, length: int) -> bool:
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
