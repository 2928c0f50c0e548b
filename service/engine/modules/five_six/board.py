"""The 5-6 board: 30 land hexes in rows of 3-4-5-6-5-4-3 inside 22 frame hexes, 28 lettered tokens,
11 harbours (``rules/five-six.md`` BASE56-008..022), as data and as a generator.

``default_board()`` is the service's default map (BASE56-021, digest section 1.1); ``variable_board(rng)``
lays a board out as the rules do it (BASE56-015..019): terrain shuffled, tokens in letter order on the
spiral from a corner, harbour kinds shuffled onto the harbour positions.
"""
from __future__ import annotations

import math
from typing import Any

from ...geometry import Edge, Hex, canonical_edge, hex_neighbours
from ...rng import Rng
from ...scenarios.base import no_adjacent_reds
from ...scenarios.components import harbor_row, hex_row, token_row
from ...state import Tile

#: BASE56-013: the land rows, north to south, as (r, first q, last q).
ROWS = ((-3, 0, 2), (-2, -1, 2), (-1, -2, 2), (0, -3, 2), (1, -3, 1), (2, -3, 0), (3, -3, -1))
LAND: tuple[Hex, ...] = tuple((q, r) for r, q0, q1 in ROWS for q in range(q0, q1 + 1))
#: BASE56-012 / BASE56-014: the 22 frame hexes round the land (R-102: terrain ``frame``).
FRAME: tuple[Hex, ...] = tuple(sorted({n for h in LAND for n in hex_neighbours(h) if n not in LAND},
                                      key=lambda h: (h[1], h[0])))
#: BASE56-008: 6 forest, 6 pasture, 6 fields, 5 hills, 5 mountains, 2 desert.
TERRAINS = ["forest"] * 6 + ["pasture"] * 6 + ["fields"] * 6 + ["hills"] * 5 + ["mountains"] * 5 + ["desert"] * 2
#: BASE56-010: the 28 tokens in letter order, A..Z, Za, Zb, Zc (BASE56-009: their values).
LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T",
           "U", "V", "W", "X", "Y", "Za", "Zb", "Zc")
TOKENS = (2, 5, 4, 6, 3, 9, 8, 11, 11, 10, 6, 3, 8, 4, 8, 10, 11, 12, 10, 5, 4, 9, 5, 9, 12, 3, 2, 6)
#: BASE56-011: 5 generic 3:1 and 6 special 2:1 (two wool).
HARBORS = ["3:1"] * 5 + ["brick", "lumber", "wool", "wool", "grain", "ore"]

#: The component table of a 5-6 board (BASE56-008, -009, -011), the same for 5 and 6 players (BASE56-002).
TABLE = {"hexes": hex_row(0, 2, 0, 6, 5, 5, 6, 6),
         "tokens": token_row(2, 3, 3, 3, 3, 3, 3, 3, 3, 2),
         "harbors": {**harbor_row(5, 5), "wool": 2}}

#: BASE56-021 (digest section 1.1): the default map's terrain and tokens, ``(q, r): (terrain, token)``.
DEFAULT_LAND: dict[Hex, tuple[str, Any]] = {
    (0, -3): ("forest", 4), (1, -3): ("pasture", 5), (2, -3): ("fields", 2),
    (-1, -2): ("hills", 6), (0, -2): ("mountains", 11), (1, -2): ("hills", 10), (2, -2): ("pasture", 8),
    (-2, -1): ("desert", None), (-1, -1): ("forest", 12), (0, -1): ("fields", 12), (1, -1): ("forest", 9),
    (2, -1): ("fields", 4),
    (-3, 0): ("fields", 3), (-2, 0): ("forest", 10), (-1, 0): ("mountains", 3), (0, 0): ("hills", 6),
    (1, 0): ("hills", 5), (2, 0): ("forest", 8),
    (-3, 1): ("pasture", 9), (-2, 1): ("mountains", 5), (-1, 1): ("fields", 2), (0, 1): ("desert", None),
    (1, 1): ("pasture", 3),
    (-3, 2): ("hills", 8), (-2, 2): ("pasture", 4), (-1, 2): ("pasture", 9), (0, 2): ("mountains", 6),
    (-3, 3): ("mountains", 11), (-2, 3): ("fields", 11), (-1, 3): ("forest", 10),
}
#: BASE56-020 / U-9: the default map's robber starts on this desert.
DEFAULT_ROBBER: Hex = (-2, -1)
#: BASE56-021: the default harbour positions (clockwise from the north-west) and kinds.
DEFAULT_HARBORS: tuple[tuple[Edge, str], ...] = tuple((canonical_edge(q, r, side), kind) for q, r, side, kind in (
    (0, -4, "SE", "3:1"), (1, -3, "NE", "wool"), (2, -2, "NE", "3:1"), (2, 0, "E", "3:1"), (1, 1, "SE", "brick"),
    (-1, 3, "E", "wool"), (-2, 3, "SE", "lumber"), (-4, 4, "NE", "3:1"), (-4, 2, "E", "grain"), (-4, 1, "NE", "3:1"),
    (-3, -1, "E", "ore")))
#: BASE56-022: the alternating positions (1996 / JSettlers), equally valid.
ALTERNATE_HARBOR_EDGES: tuple[Edge, ...] = tuple(canonical_edge(q, r, side) for q, r, side in (
    (0, -4, "SE"), (1, -3, "NE"), (2, -2, "NE"), (2, -1, "E"), (1, 1, "E"), (0, 2, "SE"), (-2, 3, "SE"),
    (-4, 4, "NE"), (-4, 2, "NE"), (-4, 0, "E"), (-2, -2, "SE")))


def _xy(h: Hex) -> tuple[float, float]:
    q, r = h
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


def _ring_order(ring: list[Hex], start: Hex) -> list[Hex]:
    """The hexes of ``ring`` counterclockwise as seen on the board (north up), from ``start``."""
    cx = sum(_xy(h)[0] for h in LAND) / len(LAND)
    cy = sum(_xy(h)[1] for h in LAND) / len(LAND)

    def angle(h: Hex) -> float:                 # counterclockwise on screen: y grows southwards
        x, y = _xy(h)
        return math.atan2(-(y - cy), x - cx)
    a0 = angle(start)
    return sorted(ring, key=lambda h: (angle(h) - a0) % (2 * math.pi))


def _rings() -> list[list[Hex]]:
    outer = [h for h in LAND if any(n not in LAND for n in hex_neighbours(h))]
    middle = [h for h in LAND if h not in outer and any(n in outer for n in hex_neighbours(h))]
    centre = [h for h in LAND if h not in outer and h not in middle]
    return [outer, middle, centre]


RINGS = _rings()
#: BASE56-016: the corner hexes of the outer ring (three frame neighbours), where the spiral may start.
CORNERS: tuple[Hex, ...] = tuple(h for h in RINGS[0] if sum(n not in LAND for n in hex_neighbours(h)) == 3)


def spiral(corner: Hex) -> list[Hex]:
    """BASE56-017: the 30 land hexes in token order: the outer ring counterclockwise from ``corner``, then
    the next ring from the hex one step inward from the previous start (U-10), then the centre."""
    out: list[Hex] = []
    start = corner
    for i, ring in enumerate(RINGS):
        if i:
            inward = [n for n in hex_neighbours(start) if n in ring]
            start = min(inward, key=lambda h: (_dist_centre(h), h[1], h[0])) if inward else ring[0]
        out += _ring_order(ring, start)
    return out


def _dist_centre(h: Hex) -> float:
    cx = sum(_xy(x)[0] for x in LAND) / len(LAND)
    cy = sum(_xy(x)[1] for x in LAND) / len(LAND)
    x, y = _xy(h)
    return (x - cx) ** 2 + (y - cy) ** 2


def lay_tokens(terrain: dict[Hex, str], corner: Hex) -> dict[Hex, int]:
    """BASE56-016: the tokens in letter order on the spiral from ``corner``, deserts skipped."""
    producing = [h for h in spiral(corner) if terrain[h] != "desert"]
    return dict(zip(producing, TOKENS))


def _with_frame(land: dict[Hex, Tile], harbors: dict[Edge, str], robber: Hex) -> dict[str, Any]:
    hexes = dict(land)
    for h in FRAME:
        hexes[h] = Tile("frame")                               # BASE56-012
    return {"hexes": hexes, "harbors": harbors, "robber": robber, "pirate": None}


def default_board() -> dict[str, Any]:
    """BASE56-021: the service's default 5-6 map (digest section 1.1); robber on (-2, -1) (BASE56-020)."""
    land = {h: Tile(t, n) for h, (t, n) in DEFAULT_LAND.items()}
    return _with_frame(land, dict(DEFAULT_HARBORS), DEFAULT_ROBBER)


def variable_board(rng: Rng) -> dict[str, Any]:
    """BASE56-015: the 30 terrain hexes shuffled; BASE56-016/017: tokens in letter order on the spiral from a
    corner drawn at random, deserts skipped; BASE56-018 (U-13): redealt until no 6 or 8 touch (BASE-COMP-8);
    BASE56-019: the 11 harbour kinds shuffled onto the harbour positions; BASE56-020: the robber on a desert."""
    for _ in range(1000):
        terrain = dict(zip(LAND, rng.shuffle(TERRAINS)))
        corner = CORNERS[rng.below(len(CORNERS))]
        tokens = lay_tokens(terrain, corner)
        if no_adjacent_reds(tokens):
            break
    else:  # pragma: no cover  (BASE56-018: the spiral never puts reds together)
        raise ValueError("could not lay the 5-6 board with the red numbers apart")
    land = {h: Tile(terrain[h], tokens.get(h)) for h in LAND}
    kinds = rng.shuffle(HARBORS)
    harbors = {e: kinds[i] for i, (e, _) in enumerate(DEFAULT_HARBORS)}
    desert = min((h for h in LAND if terrain[h] == "desert"), key=lambda h: (h[1], h[0]))
    return _with_frame(land, harbors, desert)


__all__ = ["LAND", "FRAME", "TERRAINS", "TOKENS", "LETTERS", "HARBORS", "TABLE", "DEFAULT_LAND", "DEFAULT_ROBBER",
           "DEFAULT_HARBORS", "ALTERNATE_HARBOR_EDGES", "CORNERS", "RINGS", "spiral", "lay_tokens", "default_board",
           "variable_board"]
