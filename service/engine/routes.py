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
    breaks the line.
    """
    if pieces is None:
        pieces = player_route_pieces(state, player)
    eids: list[int] = []
    kinds: list[str] = []
    for e, k in pieces:
        eid = graph.edge_index.get(e)
        if eid is not None:
            eids.append(eid)
            kinds.append(k)
    if not eids:
        return 0, []
    # Local adjacency: node id -> list of local edge indices.
    at: dict[int, list[int]] = {}
    ends: list[tuple[int, int]] = []
    for i, eid in enumerate(eids):
        a, b = graph.edge_node_ids[eid]
        ends.append((a, b))
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    blocked: set[int] = set()   # BASE-LR-2: opponent's building, cannot pass through
    own: set[int] = set()       # SEA-022: own building, road <-> ship switch allowed
    nodes = graph.nodes
    for nid in at:
        b = state.buildings.get(nodes[nid])
        if b is not None:
            (own if b[0] == player else blocked).add(nid)

    best_len = 0
    best_path: list[int] = []
    used = [False] * len(eids)
    path: list[int] = []

    def dfs(node: int, last_kind: Optional[str]) -> None:
        nonlocal best_len, best_path
        if len(path) > best_len:
            best_len = len(path)
            best_path = list(path)
        if path and node in blocked:
            return
        for i in at[node]:
            if used[i]:
                continue
            k = kinds[i]
            if last_kind is not None and k != last_kind and node not in own:
                continue  # SEA-022: road and ship meet only at an own building
            used[i] = True
            path.append(i)
            a, b = ends[i]
            dfs(b if a == node else a, k)
            path.pop()
            used[i] = False

    # Start points: every node is tried, but a trail's start can be taken at a node of odd local degree,
    # a blocked node, or an own building (where the kind can switch); a node of even degree suffices
    # only when no such node exists in its part. Trying all is simple and the networks are small.
    starts = sorted(at, key=lambda n: (len(at[n]) % 2 == 0, n))
    total = len(eids)
    for n in starts:
        dfs(n, None)
        if best_len == total:
            break
    return best_len, [graph.edges[eids[i]] for i in best_path]


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
