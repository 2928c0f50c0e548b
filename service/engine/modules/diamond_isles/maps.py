"""The default Diamond Isles map (R-001, R-053): the seed's picture is missing, so the map holds every
number the text states and nothing more is claimed.

Decided layout (the same board for 3 and 4 players, as the base game's island is): the base game's 19
land hexes as one island in the middle (desert fixed in the centre, the other 18 shuffled, the 18 base
number tokens dealt blind with the reds apart, the 9 base harbours on fixed coast slots), a sea of
radius 4 around it, and the four island villages (DIAM-002) as single land hexes out at sea, one
towards each quarter, each surrounded by sea and three hexes from the island (a route takes at least three
ships). A village is a non-producing land hex (terrain ``desert``) with a fixed number token
(DIAM-004, R-045); the board's ``scenario_state.villages`` lists them with the diamonds each holds.
"""
from __future__ import annotations

from ...scenarios.base import BASE_TERRAINS, BASE_TOKENS
from ...scenarios.components import counts, harbor_row
from ...scenarios.mapdata import MapSpec, parse_rows

ROWS = (
    "        s s",
    "       s V s",
    "      s s s s s",
    "     s s s s s s s s",
    "    s s L L L s s V s",
    "   s s L L L L s s s",
    "  s s L L d L L s s",
    " s s s L L L L s s",
    "s V s s L L L s s",
    " s s s s s s s s",
    "      s s s s s",
    "         s V s",
    "          s s",
)
ORIGIN = (-2, -6)

#: The villages, north to south (their order is the village id of R-048), with their number tokens.
VILLAGE_NUMBERS = {(2, -5): 5, (5, -2): 9, (-5, 2): 4, (-2, 5): 10}
VILLAGES = tuple(sorted(VILLAGE_NUMBERS, key=lambda h: (h[1], h[0])))

#: DIAM-003: 5 diamonds on every village, 10 in the general cache; R-047: the other 20 of the 50
#: counters back the cache.
DIAMONDS_PER_VILLAGE = 5
CACHE = 10
TOTAL_DIAMONDS = 50
RESERVE = TOTAL_DIAMONDS - CACHE - DIAMONDS_PER_VILLAGE * len(VILLAGES)

ISLAND = {t: n for t, n in counts(t for t in BASE_TERRAINS if t != "desert").items()}
HARBOR_SLOTS = (((0, -2), "NW"), ((2, -2), "NE"), ((2, -1), "E"), ((2, 0), "E"), ((1, 1), "SE"),
                ((0, 2), "SE"), ((-2, 2), "SW"), ((-2, 1), "W"), ((-1, -1), "NW"))

MAP = MapSpec(
    rows=ROWS,
    origin=ORIGIN,
    legend={"L": "pool:island", "V": "desert"},
    pools={"island": ISLAND},
    tokens={"*": counts(BASE_TOKENS)},
    numbers=dict(VILLAGE_NUMBERS),
    harbors=HARBOR_SLOTS,
    harbor_kinds=harbor_row(5, 4),
    robber=(0, 0),
    pirate=(-4, 0),
)

#: The component table of the default map (R-001): counted tiles, tokens (the villages' four included)
#: and harbours; the villages and diamonds are checked by ``scenario.diamond_components``.
_cells = parse_rows(ROWS, ORIGIN)
TABLE = {
    "hexes": {"sea": sum(1 for c in _cells.values() if c == "s"), "desert": 1 + len(VILLAGES), **ISLAND},
    "tokens": counts(list(BASE_TOKENS) + list(VILLAGE_NUMBERS.values())),
    "harbors": harbor_row(5, 4),
}
assert all(_cells[h] == "V" for h in VILLAGES) and sum(1 for c in _cells.values() if c == "V") == len(VILLAGES)
