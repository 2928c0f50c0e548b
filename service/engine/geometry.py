"""Board coordinates: hexes, intersections (nodes) and paths (edges).

The one convention (``docs/coordinates.md``): axial ``(q, r)`` pointy-top hexes, ``q`` growing east,
``r`` growing one row south. Every intersection is the ``N`` or ``S`` corner of exactly one hex and every
path is the ``NE``, ``E`` or ``SE`` side of exactly one hex; those are the canonical names.

>>> canonical_node(0, 0, "NE")
(1, -1, 'S')
>>> canonical_edge(0, 0, "W")
(-1, 0, 'E')
>>> edge_nodes((0, 0, "E"))
((1, -1, 'S'), (0, 1, 'N'))
>>> sorted(node_hexes((0, 0, "N")))
[(0, -1), (0, 0), (1, -1)]
"""
from __future__ import annotations

from typing import Iterable

Hex = tuple[int, int]
Node = tuple[int, int, str]
Edge = tuple[int, int, str]

NODE_CORNERS = ("N", "S")
EDGE_SIDES = ("NE", "E", "SE")
CORNER_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
SIDE_NAMES = ("NE", "E", "SE", "SW", "W", "NW")

#: Neighbour offsets by side name.
NEIGHBOUR = {
    "E": (1, 0), "W": (-1, 0), "NE": (1, -1), "NW": (0, -1), "SE": (0, 1), "SW": (-1, 1),
}

_CORNER_ALIAS = {  # corner -> (dq, dr, canonical corner)
    "N": (0, 0, "N"), "S": (0, 0, "S"),
    "NE": (1, -1, "S"), "SE": (0, 1, "N"), "SW": (-1, 1, "N"), "NW": (0, -1, "S"),
}
_SIDE_ALIAS = {  # side -> (dq, dr, canonical side)
    "NE": (0, 0, "NE"), "E": (0, 0, "E"), "SE": (0, 0, "SE"),
    "W": (-1, 0, "E"), "NW": (0, -1, "SE"), "SW": (-1, 1, "NE"),
}


class CoordinateError(ValueError):
    """A corner or side name that does not exist."""


def canonical_node(q: int, r: int, corner: str) -> Node:
    """The canonical name of corner ``corner`` of hex ``(q, r)``.

    >>> canonical_node(2, 3, "SW")
    (1, 4, 'N')
    """
    try:
        dq, dr, c = _CORNER_ALIAS[corner]
    except KeyError:
        raise CoordinateError(f"{corner!r} is not a corner name (one of {', '.join(CORNER_NAMES)})") from None
    return (q + dq, r + dr, c)


def canonical_edge(q: int, r: int, side: str) -> Edge:
    """The canonical name of side ``side`` of hex ``(q, r)``.

    >>> canonical_edge(0, 0, "NW")
    (0, -1, 'SE')
    """
    try:
        dq, dr, s = _SIDE_ALIAS[side]
    except KeyError:
        raise CoordinateError(f"{side!r} is not a side name (one of {', '.join(SIDE_NAMES)})") from None
    return (q + dq, r + dr, s)


def hex_neighbours(h: Hex) -> list[Hex]:
    """The six hexes sharing a side with ``h`` (E, NE, NW, W, SW, SE)."""
    q, r = h
    return [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]


def hex_distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes.

    >>> hex_distance((0, 0), (2, -1))
    2
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_corners(h: Hex) -> list[Node]:
    """The six corners of a hex, canonical, clockwise from N."""
    q, r = h
    return [canonical_node(q, r, c) for c in CORNER_NAMES]


def hex_sides(h: Hex) -> list[Edge]:
    """The six sides of a hex, canonical, clockwise from NE."""
    q, r = h
    return [canonical_edge(q, r, s) for s in SIDE_NAMES]


def node_hexes(n: Node) -> tuple[Hex, Hex, Hex]:
    """The three hexes meeting at a node (some may be off the board)."""
    q, r, c = n
    if c == "N":
        return ((q, r), (q, r - 1), (q + 1, r - 1))
    return ((q, r), (q, r + 1), (q - 1, r + 1))


def edge_hexes(e: Edge) -> tuple[Hex, Hex]:
    """The two hexes sharing an edge."""
    q, r, s = e
    dq, dr = NEIGHBOUR[s]
    return ((q, r), (q + dq, r + dr))


def edge_nodes(e: Edge) -> tuple[Node, Node]:
    """The two endpoint nodes of an edge."""
    q, r, s = e
    if s == "NE":
        return ((q, r, "N"), (q + 1, r - 1, "S"))
    if s == "E":
        return ((q + 1, r - 1, "S"), (q, r + 1, "N"))
    return ((q, r + 1, "N"), (q, r, "S"))


def node_edges(n: Node) -> tuple[Edge, Edge, Edge]:
    """The three edges meeting at a node."""
    q, r, c = n
    if c == "N":
        return ((q, r, "NE"), (q, r - 1, "SE"), (q, r - 1, "E"))
    return ((q, r, "SE"), (q - 1, r + 1, "NE"), (q - 1, r + 1, "E"))


def node_neighbours(n: Node) -> list[Node]:
    """The three nodes one edge away from ``n``."""
    out = []
    for e in node_edges(n):
        a, b = edge_nodes(e)
        out.append(b if a == n else a)
    return out


def node_str(n: Node) -> str:
    return f"{n[0]},{n[1]},{n[2]}"


def hex_str(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def hexes_bbox(hexes: Iterable[Hex]) -> tuple[int, int, int, int]:
    qs, rs = zip(*hexes)
    return min(qs), max(qs), min(rs), max(rs)


def edge_str(e: Edge) -> str:
    return f"{e[0]},{e[1]},{e[2]}"
