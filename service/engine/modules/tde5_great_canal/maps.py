"""The default map of "The Great Canal" (R-054: the printed map is missing), one map for 3 and 4 players.

What the text states, and the map holds (checked by ``tests/test_tde5_great_canal.py``):

- TDE5-003: the fields and the mountains lie on fixed hexes; desert "A" (the basin, west) is fixed; the
  small islands' hexes are fixed; the light-brown area takes 4 hills, 5 pastures and 4 forests at random;
- TDE5-004: the tokens of the two gold hexes (the 8s, R-070) and of the fields are fixed, the fields'
  face down (``scenario_state.barren``) until the basin is flooded;
- TDE5-005: the other tokens are dealt at random with no two reds touching (R-021); harbours and Catan
  chips lie on fixed places;
- TDE5-019 / R-072: 9 canal hexes, listed in order from lake "B" (east) to the basin, each with 2 chips.

Decided here (nothing else is stated): the home island is three rows across (32 hexes); its middle row
runs from the basin "A" on the west coast through the 9 canal hexes to lake "B" (a ``lake`` hex, neither
sea nor coast, R-002) inside the east; the canal hexes are dry ground (deserts, no token) the canal is
dug through. Two small islands lie east of the home island across the sea, each a gold hex and one
landscape hex bearing a special 2:1 harbour. The home island has three 3:1 harbours and two 2:1.

Cells: ``A`` the basin (desert), ``c`` a canal hex (desert), ``~`` lake B, ``F`` fields and ``M``
mountains (fixed), ``r`` the light-brown area (shuffled), ``g`` gold, ``h`` / ``w`` the small islands'
hills and forest, ``s`` sea.
"""
from __future__ import annotations

from typing import Any

from ...geometry import Hex
from ...scenarios.components import add, counts, hex_row
from ...scenarios.mapdata import MapSpec, harbor_edge, parse_rows

ROWS = (
    "   s s s s s s s s s s s s s s s s",
    "  s s F F r r M r r M r r s g h s",
    " s A c c c c c c c c c ~ r s s s s",
    "  s s F F r r M r r M r r s w g s",
    "   s s s s s s s s s s s s s s s",
)
LEGEND = {"A": "desert", "c": "desert", "r": "pool:brown", "h": "hills", "w": "forest"}

#: TDE5-003: the light-brown area's landscapes, laid at random.
BROWN = hex_row(hills=4, pasture=5, forest=4)
#: The hexes laid as shown: the basin and the canal course (deserts), the fields, the mountains, the gold
#: hexes and the small islands' landscapes.
FIXED = {**hex_row(desert=10, fields=4, mountains=4, gold=2, hills=1, forest=1), "lake": 1}

_CELLS = parse_rows(ROWS)
_ORDER = sorted(_CELLS, key=lambda h: (h[1], h[0]))

#: R-072: the canal course, in order from lake B to the basin; each hex starts with 2 Catan chips.
CANAL: tuple[Hex, ...] = tuple(sorted((h for h in _ORDER if _CELLS[h] == "c"), key=lambda h: -h[0]))
BASIN: Hex = next(h for h in _ORDER if _CELLS[h] == "A")
LAKE: Hex = next(h for h in _ORDER if _CELLS[h] == "~")
CHIPS_PER_HEX = 2

#: TDE5-004: the fields' tokens (face down), in reading order; R-070: the gold hexes' 8s.
FIELD_NUMBERS = (9, 5, 10, 4)
FIELDS: dict[Hex, int] = dict(zip([h for h in _ORDER if _CELLS[h] == "F"], FIELD_NUMBERS))
GOLD: dict[Hex, int] = {h: 8 for h in _ORDER if _CELLS[h] == "g"}
#: TDE5-005: the tokens dealt at random on the mountains, the light-brown area and the small islands.
RANDOM_TOKENS = {2: 1, 3: 3, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}

#: TDE5-005: the harbours as shown, (hex, side) -> kind; the small islands' are their special ports
#: (TDE5-017).
HOME_HARBORS = {((3, 1), "NE"): "3:1", ((7, 1), "NE"): "brick", ((11, 2), "E"): "3:1",
                ((1, 3), "SW"): "3:1", ((6, 3), "SE"): "lumber"}
ISLAND_HARBORS = {((14, 1), "E"): "ore", ((12, 3), "W"): "wool"}
HARBORS = {**HOME_HARBORS, **ISLAND_HARBORS}

SPEC = MapSpec(
    rows=ROWS,
    legend=LEGEND,
    pools={"brown": BROWN},
    tokens={"*": RANDOM_TOKENS},
    numbers={**FIELDS, **GOLD},
    harbors=tuple(HARBORS),
    harbor_kinds=counts(HARBORS.values()),
    regions={"home": "AcFMr~", "small_islands": "ghw"},
)
MAP_SPECS = {3: SPEC, 4: SPEC}


def fixed_harbors() -> dict:
    """TDE5-005: every harbour's kind as shown."""
    return {harbor_edge(h, side): k for (h, side), k in HARBORS.items()}


def component_table() -> dict[str, Any]:
    sea = sum(1 for ch in _CELLS.values() if ch == "s")
    return {"hexes": add(BROWN, FIXED, {"sea": sea}),
            "tokens": counts([*FIELD_NUMBERS, *GOLD.values(), *(n for n, k in RANDOM_TOKENS.items()
                                                                for _ in range(k))]),
            "harbors": counts(HARBORS.values())}


__all__ = ["MAP_SPECS", "SPEC", "CANAL", "BASIN", "LAKE", "FIELDS", "GOLD", "BROWN", "FIXED", "RANDOM_TOKENS",
           "HARBORS", "HOME_HARBORS", "ISLAND_HARBORS", "CHIPS_PER_HEX", "fixed_harbors", "component_table"]
