"""The map graph: everything derived from a board's hex list alone.

Which nodes and edges exist, what kind of water or land an edge borders, which hexes touch a node and
which nodes and edges ring a hex. Built once per distinct board (the service caches it by content
hash, :func:`board_key`) and then read on every request, so it is plain lists and dicts of small ints.

>>> g = MapGraph.build({(0, 0): "forest", (1, 0): "sea"})
>>> g.edge_kind[g.edge_index[(0, 0, "E")]]
'coast'
>>> len(g.hex_node_ids[(0, 0)])
6
"""
from __future__ import annotations

import hashlib
import json
from typing import Mapping

from .geometry import Edge, Hex, Node, edge_hexes, edge_nodes, hex_corners, hex_sides, node_hexes, node_neighbours

#: Terrains that are land (settlements, roads). Gold counts as land (R-002).
LAND = frozenset({"forest", "hills", "pasture", "fields", "mountains", "desert", "gold"})
#: Terrains that are water for the sides they share with tiles (R-102).
WATER = frozenset({"sea", "frame"})
#: A hex not yet explored (Oceans "?", TDE fog): neither land nor water until revealed.
HIDDEN = frozenset({"unknown"})
#: Special terrains some scenarios add: a lake is neither sea nor coast (R-002).
OTHER = frozenset({"lake"})
TERRAINS = LAND | WATER | HIDDEN | OTHER

RESOURCE_OF = {"forest": "lumber", "hills": "brick", "pasture": "wool", "fields": "grain", "mountains": "ore"}
RESOURCES = ("lumber", "brick", "wool", "grain", "ore")

GRAPH_FORMAT = 1  # bump when the serialised shape changes (it is part of every cache key)


def board_key(hexes: Mapping[Hex, str]) -> str:
    """Content hash of a board's hex list (terrain per coordinate), independent of order.

    Numbers are not part of the graph, so a board's graph is shared by every token layout.
    """
    canon = sorted((q, r, t) for (q, r), t in hexes.items())
    digest = hashlib.blake2b(json.dumps(canon, separators=(",", ":")).encode(), digest_size=16).hexdigest()
    return f"mapgraph:v{GRAPH_FORMAT}:{digest}"


class MapGraph:
    """Nodes, edges and adjacency of one board, indexed by small ints."""

    __slots__ = (
        "terrain", "nodes", "node_index", "edges", "edge_index", "edge_kind", "edge_node_ids",
        "node_edge_ids", "node_neighbour_ids", "node_hexes", "node_land", "node_water",
        "hex_node_ids", "hex_edge_ids", "memo_token",
    )

    def __init__(self) -> None:
        self.terrain: dict[Hex, str] = {}
        self.nodes: list[Node] = []
        self.node_index: dict[Node, int] = {}
        self.edges: list[Edge] = []
        self.edge_index: dict[Edge, int] = {}
        self.edge_kind: list[str] = []          # "land" | "coast" | "sea" | "hidden" | "lake"
        self.edge_node_ids: list[tuple[int, int]] = []
        self.node_edge_ids: list[tuple[int, ...]] = []
        self.node_neighbour_ids: list[tuple[int, ...]] = []
        self.node_hexes: list[tuple[Hex, ...]] = []   # tiles (non-frame hexes on the board) at the node
        self.node_land: list[bool] = []
        self.node_water: list[bool] = []
        self.hex_node_ids: dict[Hex, tuple[int, ...]] = {}
        self.hex_edge_ids: dict[Hex, tuple[int, ...]] = {}
        #: This board's part of the keys under which ``routes.py`` memoises route results (a new object
        #: per graph, equal to no other); not part of the graph's content (never serialised).
        self.memo_token = object()

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def build(cls, terrain: Mapping[Hex, str]) -> "MapGraph":
        """Derive the graph from ``{(q, r): terrain}``.

        A node exists where at least one tile (a non-frame hex) meets; an edge exists where two hexes of
        the board meet and at least one is a tile (R-002, R-102).
        """
        g = cls()
        g.terrain = dict(terrain)
        tiles = sorted((h for h, t in terrain.items() if t != "frame"), key=lambda h: (h[1], h[0]))
        for h in tiles:
            for n in hex_corners(h):
                if n not in g.node_index:
                    g.node_index[n] = len(g.nodes)
                    g.nodes.append(n)
        for n in g.nodes:
            hs = tuple(h for h in node_hexes(n) if terrain.get(h, "frame") != "frame")
            g.node_hexes.append(hs)
            g.node_land.append(any(terrain[h] in LAND for h in hs))
            g.node_water.append(any(terrain.get(h) in WATER for h in node_hexes(n) if h in terrain))
        for h in tiles:
            for e in hex_sides(h):
                if e in g.edge_index:
                    continue
                a, b = edge_hexes(e)
                if a not in terrain or b not in terrain:
                    continue  # a side with nothing beyond it holds no piece
                g.edge_index[e] = len(g.edges)
                g.edges.append(e)
                g.edge_kind.append(_edge_kind(terrain[a], terrain[b]))
                n1, n2 = edge_nodes(e)
                g.edge_node_ids.append((g.node_index[n1], g.node_index[n2]))
        node_edges: list[list[int]] = [[] for _ in g.nodes]
        for i, (a, b) in enumerate(g.edge_node_ids):
            node_edges[a].append(i)
            node_edges[b].append(i)
        g.node_edge_ids = [tuple(x) for x in node_edges]
        g.node_neighbour_ids = [
            tuple(g.node_index[m] for m in node_neighbours(n) if m in g.node_index) for n in g.nodes
        ]
        for h in tiles:
            g.hex_node_ids[h] = tuple(g.node_index[n] for n in hex_corners(h))
            g.hex_edge_ids[h] = tuple(g.edge_index[e] for e in hex_sides(h) if e in g.edge_index)
        return g

    # -- queries ------------------------------------------------------------------------------------
    def is_tile(self, h: Hex) -> bool:
        """A hex of the board that is not frame."""
        return self.terrain.get(h, "frame") != "frame" and h in self.terrain

    def road_edge(self, eid: int) -> bool:
        """Can a road lie here (land/land or coast, BASE-BUILD-1)?"""
        return self.edge_kind[eid] in ("land", "coast")

    def ship_edge(self, eid: int) -> bool:
        """Can a ship lie here (sea/sea or coast, SEA-007)?"""
        return self.edge_kind[eid] in ("sea", "coast")

    def other_node(self, eid: int, nid: int) -> int:
        a, b = self.edge_node_ids[eid]
        return b if a == nid else a

    # -- serialisation (safe data, for the shared cache) -------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": GRAPH_FORMAT,
            "terrain": [[q, r, t] for (q, r), t in self.terrain.items()],
            "nodes": [list(n) for n in self.nodes],
            "edges": [list(e) for e in self.edges],
            "edge_kind": self.edge_kind,
            "edge_node_ids": [list(x) for x in self.edge_node_ids],
            "node_edge_ids": [list(x) for x in self.node_edge_ids],
            "node_neighbour_ids": [list(x) for x in self.node_neighbour_ids],
            "node_hexes": [[list(h) for h in hs] for hs in self.node_hexes],
            "node_land": self.node_land,
            "node_water": self.node_water,
            "hex_node_ids": [[q, r, list(ids)] for (q, r), ids in self.hex_node_ids.items()],
            "hex_edge_ids": [[q, r, list(ids)] for (q, r), ids in self.hex_edge_ids.items()],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "MapGraph":
        if d.get("format") != GRAPH_FORMAT:
            raise ValueError("map graph format mismatch")
        g = cls()
        g.terrain = {(int(q), int(r)): str(t) for q, r, t in d["terrain"]}
        g.nodes = [(int(q), int(r), str(c)) for q, r, c in d["nodes"]]
        g.node_index = {n: i for i, n in enumerate(g.nodes)}
        g.edges = [(int(q), int(r), str(s)) for q, r, s in d["edges"]]
        g.edge_index = {e: i for i, e in enumerate(g.edges)}
        g.edge_kind = [str(k) for k in d["edge_kind"]]
        g.edge_node_ids = [(int(a), int(b)) for a, b in d["edge_node_ids"]]
        g.node_edge_ids = [tuple(int(x) for x in xs) for xs in d["node_edge_ids"]]
        g.node_neighbour_ids = [tuple(int(x) for x in xs) for xs in d["node_neighbour_ids"]]
        g.node_hexes = [tuple((int(q), int(r)) for q, r in hs) for hs in d["node_hexes"]]
        g.node_land = [bool(x) for x in d["node_land"]]
        g.node_water = [bool(x) for x in d["node_water"]]
        g.hex_node_ids = {(int(q), int(r)): tuple(int(x) for x in ids) for q, r, ids in d["hex_node_ids"]}
        g.hex_edge_ids = {(int(q), int(r)): tuple(int(x) for x in ids) for q, r, ids in d["hex_edge_ids"]}
        n, m = len(g.nodes), len(g.edges)
        if not (len(g.edge_kind) == len(g.edge_node_ids) == m and len(g.node_edge_ids) == n
                and len(g.node_neighbour_ids) == n and len(g.node_hexes) == n and len(g.node_land) == n):
            raise ValueError("map graph lists disagree in length")
        for a, b in g.edge_node_ids:
            if not (0 <= a < n and 0 <= b < n):
                raise ValueError("map graph edge refers to a missing node")
        return g


def _edge_kind(a: str, b: str) -> str:
    if a == "frame" and b == "frame":
        return "none"
    kinds = {_cls(a), _cls(b)}
    if kinds == {"land"}:
        return "land"
    if kinds == {"water"}:
        return "sea"
    if kinds == {"land", "water"}:
        return "coast"
    if "hidden" in kinds:
        return "hidden"
    return "lake"


def _cls(t: str) -> str:
    if t in LAND:
        return "land"
    if t in WATER:
        return "water"
    if t in HIDDEN:
        return "hidden"
    return "lake"
