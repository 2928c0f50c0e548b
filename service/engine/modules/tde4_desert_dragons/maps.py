"""The default maps of "The Desert Dragons" (R-054: the printed maps are missing).

What the text states, and every map here holds (checked by ``tests/test_tde4_desert_dragons.py``):

- TDE4-003: on the home island (west) the three deserts, the two forests and the two pastures lie on
  fixed hexes; the island's other hexes are shuffled face up onto the rest of it; its number tokens and
  its 3:1 harbours are fixed;
- TDE4-004: the neighbouring island (east) is shuffled face up from its table; its tokens and harbours are
  fixed; with 3 players its tokens hold three 4s and two 5s (the erratum, R-068);
- TDE4-005 / R-054: 18 desert dragons wait beside the board (``scenario_state``), none on it.

Decided here (nothing else is stated): the home island is a hexagon of 19 hexes (a base-game island
whose lone desert, one fields and one mountains give way to the three deserts), the same for 3 and 4
players; it carries the base game's tokens less an 11 and the 12, laid by hand with no two reds
touching. Two sea hexes separate it from the neighbouring island (9 hexes with 3 players, 11 with 4),
which no dragon can reach across the sea (TDE4-020). The home island has four 3:1 harbours, the
neighbouring island one 2:1 harbour per resource it may need (3 with 3 players, 5 with 4).

Cells: ``d`` desert, ``W`` forest and ``P`` pasture (fixed), ``h`` a shuffled home-island hex, ``e`` a
shuffled neighbouring-island hex, ``s`` sea.
"""
from __future__ import annotations

from typing import Any

from ...geometry import Hex
from ...scenarios.components import add, counts, hex_row, token_row
from ...scenarios.mapdata import MapSpec, drawn_slots, parse_rows

HOME_ROWS_3 = (
    "   s s s s s s s s s s",
    "  s h W h s s s e e s",
    " s h d h P s s e e e s",
    "s W h h d h s s s e e s",
    " s P d h h s s e e s",
    "  s h h h s s s s s",
    "   s s s s s s s s",
)
HOME_ROWS_4 = (
    "   s s s s s s s s s s",
    "  s h W h s s s e e s",
    " s h d h P s s e e e s",
    "s W h h d h s s s e e s",
    " s P d h h s s e e s",
    "  s h h h s s s e e s",
    "   s s s s s s s s s",
)

#: TDE4-003: the home island's shuffled hexes (12) beside its fixed ones (3 deserts, 2 forests, 2 pastures).
HOME_POOL = hex_row(fields=3, hills=3, mountains=2, pasture=2, forest=2)
HOME_FIXED = hex_row(desert=3, pasture=2, forest=2)
#: TDE4-004: the neighbouring island's table per player count.
EAST_POOL = {3: hex_row(fields=2, hills=1, mountains=2, pasture=2, forest=2),
             4: hex_row(fields=3, hills=2, mountains=2, pasture=2, forest=2)}

#: TDE4-003: the home island's tokens, on its producing hexes in reading order (north to south, west to
#: east; deserts carry none).
HOME_NUMBERS = (10, 2, 9,
                5, 4, 11,
                3, 6, 10, 8,
                9, 5, 4,
                8, 3, 6)
#: TDE4-004 / R-068: the neighbouring island's tokens in reading order. 3 players: three 4s and two 5s.
EAST_NUMBERS = {3: (4, 10,
                    5, 8, 3,
                    4, 11,
                    5, 4),
                4: (4, 10,
                    5, 8, 3,
                    9, 11,
                    5, 6,
                    4, 5)}

#: TDE4-003: the home island's four 3:1 harbours; TDE4-004: the neighbouring island's 2:1 harbours, each
#: of a fixed kind. Slots: ((column, row) of the tile as drawn, side).
HOME_HARBORS = (((4, 1), "NW"), ((3, 2), "W"), ((3, 4), "SW"), ((8, 5), "SE"))
EAST_HARBORS = {3: ((((18, 1), "NE"), "ore"), (((20, 3), "E"), "brick"), (((17, 4), "SE"), "wool")),
                4: ((((18, 1), "NE"), "ore"), (((19, 2), "E"), "lumber"), (((20, 3), "E"), "brick"),
                    (((18, 5), "SE"), "wool"), (((15, 4), "SW"), "grain"))}


def _numbers(rows: tuple[str, ...], chars: str, values: tuple[int, ...]) -> dict[Hex, int]:
    cells = parse_rows(rows)
    order = [h for h in sorted(cells, key=lambda h: (h[1], h[0])) if cells[h] in chars]
    if len(order) != len(values):
        raise ValueError(f"{len(values)} numbers for {len(order)} producing hexes")
    return dict(zip(order, values))


def _spec(n: int) -> MapSpec:
    rows = HOME_ROWS_3 if n == 3 else HOME_ROWS_4
    slots = HOME_HARBORS + tuple(s for s, _ in EAST_HARBORS[n])
    return MapSpec(
        rows=rows,
        legend={"h": "pool:home", "e": "pool:east"},
        pools={"home": HOME_POOL, "east": EAST_POOL[n]},
        numbers={**_numbers(rows, "hWP", HOME_NUMBERS), **_numbers(rows, "e", EAST_NUMBERS[n])},
        harbors=drawn_slots(rows, slots),
        harbor_kinds=counts(["3:1"] * len(HOME_HARBORS) + [k for _, k in EAST_HARBORS[n]]),
        regions={"home": "hdWP", "east": "e"},
    )


MAP_SPECS = {3: _spec(3), 4: _spec(4)}


def fixed_harbors(n: int) -> dict:
    """TDE4-003/004: every harbour's kind as shown (the map spec's slots in order)."""
    spec = MAP_SPECS[n]
    kinds = ["3:1"] * len(HOME_HARBORS) + [k for _, k in EAST_HARBORS[n]]
    from ...scenarios.mapdata import harbor_edge
    return {harbor_edge(h, side): k for (h, side), k in zip(spec.harbors, kinds)}


def component_table(n: int) -> dict[str, Any]:
    spec = MAP_SPECS[n]
    sea = sum(1 for ch in spec.cells().values() if ch == "s")
    hexes = add(HOME_POOL, HOME_FIXED, EAST_POOL[n], {"sea": sea})
    return {"hexes": hexes, "tokens": counts(HOME_NUMBERS + EAST_NUMBERS[n]),
            "harbors": counts(["3:1"] * len(HOME_HARBORS) + [k for _, k in EAST_HARBORS[n]])}


#: R-068: the 3-player neighbouring island's tokens of value 4 and 5 (the erratum's numbers).
ERRATUM_3P = token_row(0, 0, 3, 2, 0, 0, 0, 0, 0, 0)

__all__ = ["MAP_SPECS", "fixed_harbors", "component_table", "HOME_POOL", "HOME_FIXED", "EAST_POOL",
           "HOME_NUMBERS", "EAST_NUMBERS", "ERRATUM_3P"]
