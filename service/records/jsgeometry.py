"""JSettlers2's board coordinates mapped onto ours (``docs/coordinates.md``; pictures in ``docs/records.md``).

JSettlers2 writes hexes, nodes and edges as integers on one grid. Two encodings are read here:

* **v1** (the classic 4-player board, ``layout1``): one byte ``0xXY``; X runs north-west to south-east,
  Y south-west to north-east; the centre hex is ``0x77``; a hex has two odd digits. The 37 hexes of the
  board (land and the ring of water/port hexes) are listed row by row in ``V1_HEXES``.
* **v3** (the sea board, ``layout2`` with ``boardEncodingFormat`` 3): ``0xRRCC``, row R (north to south)
  and column C (west to east) in half-hex units; hexes have odd rows, columns ``C`` with ``(R - 1) / 2 + C``
  even.

Each hex maps to our axial ``[q, r]`` (pointy-top); a node to the canonical ``[q, r, "N"|"S"]``; an edge to the
canonical ``[q, r, "NE"|"E"|"SE"]``. The formulas, checked against the encodings' own neighbour tables
(``tests/test_records_geometry.py``):

* v1 hex ``(X, Y)`` -> ``q = (Y - 7) / 2``, ``r = (X - Y) / 2``. Node ``(X, Y)`` with Y even is the N corner of
  hex ``(X, Y-1)``; with X even the S corner of hex ``(X-1, Y)``. Edge ``(X, Y)`` with both digits even is the
  E side of hex ``(X-1, Y-1)``; X odd, Y even the NE side of hex ``(X, Y-1)``; X even, Y odd the SE side of hex
  ``(X-1, Y)``.
* v3 hex ``(R, C)`` -> ``r = (R - 1) / 2``, ``q = (C - r) / 2``. Node ``(R, C)`` is the N corner of hex ``(R+1, C)``
  when that is a hex, else the S corner of hex ``(R - 1, C)``. Edge ``(R, C)`` with R odd (``|``) is the E side of
  hex ``(R, C-1)``; with R even it joins nodes ``(R, C)`` and ``(R, C+1)``: it is the path between their two
  canonical names.
"""
from __future__ import annotations

from typing import Optional

from ..engine.geometry import canonical_edge, edge_nodes, node_edges

Hex = tuple[int, int]
Node = tuple[int, int, str]
Edge = tuple[int, int, str]

#: The v1 board's 37 hexes in ``hexLayout`` order (row by row, north to south).
V1_HEXES = (
    0x17, 0x39, 0x5B, 0x7D,
    0x15, 0x37, 0x59, 0x7B, 0x9D,
    0x13, 0x35, 0x57, 0x79, 0x9B, 0xBD,
    0x11, 0x33, 0x55, 0x77, 0x99, 0xBB, 0xDD,
    0x31, 0x53, 0x75, 0x97, 0xB9, 0xDB,
    0x51, 0x73, 0x95, 0xB7, 0xD9,
    0x71, 0x93, 0xB5, 0xD7,
)

#: JSettlers2's facings 1..6 (the side of a hex towards a neighbour, or a port's side towards land).
FACINGS = {1: "NE", 2: "E", 3: "SE", 4: "SW", 5: "W", 6: "NW"}


# ---- v1 -------------------------------------------------------------------------------------------

def _v1_hex_xy(x: int, y: int) -> Hex:
    return ((y - 7) // 2, (x - y) // 2)


def v1_hex(c: int) -> Optional[Hex]:
    if not 0 <= c <= 0xFF or (c >> 4) % 2 == 0 or (c & 0xF) % 2 == 0:
        return None
    return _v1_hex_xy(c >> 4, c & 0xF)


def v1_node(c: int) -> Optional[Node]:
    if not 0 <= c <= 0xFF:
        return None
    x, y = c >> 4, c & 0xF
    if x % 2 == 1 and y % 2 == 0:
        return (*_v1_hex_xy(x, y - 1), "N")
    if x % 2 == 0 and y % 2 == 1:
        return (*_v1_hex_xy(x - 1, y), "S")
    return None


def v1_edge(c: int) -> Optional[Edge]:
    if not 0 <= c <= 0xFF:
        return None
    x, y = c >> 4, c & 0xF
    if x == 0xF or y == 0xF:          # its far node would be off the encoding
        return None
    if x % 2 == 0 and y % 2 == 0:
        return (*_v1_hex_xy(x - 1, y - 1), "E")
    if x % 2 == 1 and y % 2 == 0:
        return (*_v1_hex_xy(x, y - 1), "NE")
    if x % 2 == 0 and y % 2 == 1:
        return (*_v1_hex_xy(x - 1, y), "SE")
    return None


def v1_edge_nodes(c: int) -> tuple[int, int]:
    """The two nodes of a v1 edge, by JSettlers2's own rule (used to check our mapping, never to map)."""
    x, y = c >> 4, c & 0xF
    if (x + y) % 2 == 0:
        return c + 0x01, c + 0x10
    return c, c + 0x11


# ---- v3 -------------------------------------------------------------------------------------------

def v3_is_hex(row: int, col: int) -> bool:
    return row % 2 == 1 and ((row - 1) // 2 + col) % 2 == 0


def _v3_hex_rc(row: int, col: int) -> Hex:
    r = (row - 1) // 2
    return ((col - r) // 2, r)


def v3_hex(c: int) -> Optional[Hex]:
    if not 0 < c <= 0xFFFF or not v3_is_hex(c >> 8, c & 0xFF):
        return None
    return _v3_hex_rc(c >> 8, c & 0xFF)


def v3_node(c: int) -> Optional[Node]:
    if not 0 <= c <= 0xFFFF:
        return None
    row, col = c >> 8, c & 0xFF
    if row % 2 == 1:
        return None
    if v3_is_hex(row + 1, col):
        return (*_v3_hex_rc(row + 1, col), "N")
    return (*_v3_hex_rc(row - 1, col), "S")


def v3_edge_nodes(c: int) -> tuple[int, int]:
    """The two nodes of a v3 edge, by JSettlers2's own rule."""
    if (c >> 8) % 2 == 1:
        return c - 0x100, c + 0x100
    return c, c + 1


def v3_edge(c: int) -> Optional[Edge]:
    if not 0 < c <= 0xFFFF:
        return None
    row, col = c >> 8, c & 0xFF
    if row % 2 == 1:
        if not v3_is_hex(row, col - 1):
            return None
        return (*_v3_hex_rc(row, col - 1), "E")
    a, b = v3_node(c), v3_node(c + 1)
    if a is None or b is None:
        return None
    return edge_between(a, b)


# ---- our side -------------------------------------------------------------------------------------

def edge_between(a: Node, b: Node) -> Optional[Edge]:
    """The canonical path joining two canonical intersections, or None when they are not neighbours."""
    for e in node_edges(a):
        if set(edge_nodes(e)) == {a, b}:
            return e
    return None


def side_of(h: Hex, side: str) -> Edge:
    """The canonical name of side ``side`` (NE, E, SE, SW, W, NW) of hex ``h``."""
    return canonical_edge(h[0], h[1], side)
