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
from itertools import chain, islice
from typing import Any, Mapping

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
        "hex_node_ids", "hex_edge_ids", "memo_token", "derived", "__weakref__",
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
        #: Per-board data rule modules derive from this graph (``memo.per_board``): kept with the graph, so it
        #: lives exactly as long as the graph is cached and never outlives the board it was derived from.
        self.derived: dict[str, Any] = {}

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
        """The graph ``to_dict`` wrote, from data that may have been damaged (it comes from a shared
        cache): every list is checked for shape, element types and index ranges, mostly by C-level
        passes (``map``, ``set``, ``min``/``max``) so that reading stays well below building. Any
        mismatch raises ``ValueError`` (the caller then builds the graph instead).
        """
        try:
            return cls._from_dict(d)
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"malformed map graph: {e.__class__.__name__}") from None

    @classmethod
    def _from_dict(cls, d: dict) -> "MapGraph":
        if type(d) is not dict or d.get("format") != GRAPH_FORMAT:
            raise ValueError("map graph format mismatch")
        g = cls()
        terrain, nodes, edges = _rows(d["terrain"], 3), _rows(d["nodes"], 3), _rows(d["edges"], 3)
        _typed(terrain, (int, int, str))
        _typed(nodes, (int, int, str), third=_NODE_NAMES)
        _typed(edges, (int, int, str), third=_EDGE_NAMES)
        n, m = len(nodes), len(edges)
        g.terrain = {(q, r): t for q, r, t in terrain}
        g.nodes = nodes
        g.node_index = {x: i for i, x in enumerate(nodes)}
        g.edges = edges
        g.edge_index = {x: i for i, x in enumerate(edges)}
        if len(g.terrain) != len(terrain) or len(g.node_index) != n or len(g.edge_index) != m:
            raise ValueError("map graph names a hex, node or edge twice")
        kinds = d["edge_kind"]
        if type(kinds) is not list or not _EDGE_KINDS.issuperset(kinds):
            raise ValueError("map graph edge kinds are unknown")
        g.edge_kind = list(kinds)
        g.edge_node_ids = _ids(_rows(d["edge_node_ids"], 2), n)
        g.node_edge_ids = _ids(_rows(d["node_edge_ids"]), m)
        g.node_neighbour_ids = _ids(_rows(d["node_neighbour_ids"]), n)
        node_hexes = _rows(d["node_hexes"])   # per node, its tiles: checked as one flat list of [q, r]
        pairs = iter(_typed(_rows(list(chain.from_iterable(node_hexes)), 2), (int, int)))
        g.node_hexes = [tuple(islice(pairs, k)) for k in map(len, node_hexes)]
        g.node_land, g.node_water = _flags(d["node_land"]), _flags(d["node_water"])
        g.hex_node_ids = _hex_ids(d["hex_node_ids"], n)
        g.hex_edge_ids = _hex_ids(d["hex_edge_ids"], m)
        if not (len(g.edge_kind) == len(g.edge_node_ids) == m and len(g.node_edge_ids) == n
                and len(g.node_neighbour_ids) == n and len(g.node_hexes) == n and len(g.node_land) == n
                and len(g.node_water) == n):
            raise ValueError("map graph lists disagree in length")
        return g


_NODE_NAMES = frozenset(("N", "S"))
_EDGE_NAMES = frozenset(("NE", "E", "SE"))
_EDGE_KINDS = frozenset(("land", "coast", "sea", "hidden", "lake", "none"))


def _rows(rows: list, width: int | None = None) -> list[tuple]:
    """``rows`` (a list of lists, each ``width`` long when given) as a list of tuples."""
    if type(rows) is not list or not all(map(list.__instancecheck__, rows)):
        raise ValueError("map graph rows are not lists")
    out = list(map(tuple, rows))
    if width is not None and out and set(map(len, out)) != {width}:
        raise ValueError(f"map graph rows are not {width} long")
    return out


def _typed(rows: list[tuple], types: tuple[type, ...], third: frozenset | None = None) -> list[tuple]:
    """Check that column ``i`` of ``rows`` holds exactly ``types[i]`` (and the third, names of ``third``)."""
    if rows:
        for column, t in zip(zip(*rows), types):
            if set(map(type, column)) != {t}:
                raise ValueError("map graph values have the wrong type")
        if third is not None and not third.issuperset(next(islice(zip(*rows), 2, None))):
            raise ValueError("map graph names an unknown corner or side")
    return rows


def _ids(rows: list[tuple], limit: int) -> list[tuple[int, ...]]:
    """Rows of indices, each an int in ``range(limit)``."""
    flat = list(chain.from_iterable(rows))
    if flat and (set(map(type, flat)) != {int} or min(flat) < 0 or max(flat) >= limit):
        raise ValueError("map graph index out of range")
    return rows


def _flags(values: list) -> list[bool]:
    if type(values) is not list or (values and set(map(type, values)) != {bool}):
        raise ValueError("map graph flags are not booleans")
    return list(values)


def _hex_ids(rows: list, limit: int) -> dict[Hex, tuple[int, ...]]:
    """``[[q, r, [ids]]]`` -> ``{(q, r): (ids)}``."""
    rows = _rows(rows, 3)
    _typed(rows, (int, int, list))
    out = {(q, r): tuple(ids) for q, r, ids in rows}
    _ids(list(out.values()), limit)
    if len(out) != len(rows):
        raise ValueError("map graph names a hex twice")
    return out


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
