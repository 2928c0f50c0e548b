"""The default map of "Enchanted Land" (R-054: the printed map is missing), the same for 3 and 4 players.

What the text states, and the map holds (checked by ``tests/test_tde6_enchanted_land.py``):

- TDE6-003: the home island (west) has its desert fixed on its left edge; its other land hexes are
  shuffled face up; its number tokens and harbours are fixed;
- TDE6-004: the Enchanted Land (east) has 5 deserts and 2 gold fields on fixed hexes; its other 9 land
  hexes are shuffled face up; its number tokens are fixed;
- TDE6-005: 19 dragon tokens, shuffled, dragon side up on 19 marked intersections of the Enchanted Land.

Decided here (nothing else is stated): the home island has 16 hexes (the desert and 3 each of fields,
hills, mountains, pasture and forest) carrying the base game's tokens less a 2, an 11 and the 12, and six
fixed harbours; two sea hexes separate it from the Enchanted Land (16 hexes: 5 deserts, 2 gold fields,
9 shuffled: 2 each of fields, hills, pasture and forest and 1 mountains), which has no harbour. 15 of
the dragons lie on inland intersections (three inland ones stay free), 4 on the coast.

Cells: ``d`` the home desert, ``h`` a shuffled home hex, ``D`` an Enchanted Land desert, ``g`` gold,
``e`` a shuffled Enchanted Land hex, ``s`` sea.
"""
from __future__ import annotations

from typing import Any

from ...geometry import Hex, Node
from ...scenarios.components import add, counts, hex_row
from ...scenarios.mapdata import MapSpec, drawn_slots, harbor_edge, hex_at, parse_rows

ROWS = (
    "  s s s s s s s s s s s s s s",
    "   s h h h s s s e e e s s s",
    "  s h h h h s s e D g D e s",
    " s d h h h s s e D g D e s",
    "  s h h h s s s e D e s s",
    "   s h h s s s s s s s s",
    "    s s s s s s s s s s",
)

HOME, ENCHANTED = "home", "enchanted"
#: TDE6-003: the home island's shuffled hexes beside its fixed desert.
HOME_POOL = hex_row(fields=3, hills=3, mountains=3, pasture=3, forest=3)
HOME_FIXED = hex_row(desert=1)
#: TDE6-004: the Enchanted Land's 9 shuffled land hexes beside its 5 deserts and 2 gold fields.
ENCHANTED_POOL = hex_row(fields=2, hills=2, mountains=1, pasture=2, forest=2)
ENCHANTED_FIXED = hex_row(desert=5, gold=2)
ENCHANTED_DESERTS, ENCHANTED_GOLD, ENCHANTED_RANDOM = 5, 2, 9

#: TDE6-003: the home island's tokens on its producing hexes in reading order (north to south, west to east).
HOME_NUMBERS = (6, 3, 8,
                10, 9, 4, 5,
                4, 8, 10,
                9, 3, 11,
                6, 5)
#: TDE6-004: the Enchanted Land's tokens in reading order (its gold fields carry the 9 and the 4).
ENCHANTED_NUMBERS = (8, 5, 11,
                     3, 9, 6,
                     10, 4, 12,
                     2, 5)

#: TDE6-003: the home island's harbours, fixed. Slots: ((column, row) of the tile as drawn, side).
HOME_HARBORS = ((((5, 1), "NW"), "3:1"), (((10, 2), "E"), "wool"), (((4, 2), "W"), "3:1"),
                (((4, 4), "SW"), "brick"), (((7, 5), "SE"), "3:1"), (((9, 3), "E"), "ore"))

#: TDE6-005: the 19 marked intersections of the dragon tokens (15 inland, 4 on the coast).
DRAGON_NODES: tuple[Node, ...] = (
    (7, 2, "S"), (7, 3, "N"), (7, 3, "S"), (7, 4, "N"), (8, 1, "S"), (8, 2, "S"), (8, 3, "N"), (8, 3, "S"),
    (8, 4, "N"), (9, 1, "S"), (9, 2, "N"), (9, 2, "S"), (9, 3, "N"), (10, 1, "S"), (10, 3, "N"),
    (6, 5, "N"), (9, 0, "S"), (11, 1, "S"), (9, 3, "S"),
)
DRAGONS = 19
#: R-077: the dragons' flags are token data; the text gives none (engine default, not in the source):
#: 8 one-flag, 6 two-flag and 5 three-flag dragons.
FLAG_TOKENS = {1: 8, 2: 6, 3: 5}


def _numbers(chars: str, values: tuple[int, ...]) -> dict[Hex, int]:
    cells = parse_rows(ROWS)
    order = [h for h in sorted(cells, key=lambda h: (h[1], h[0])) if cells[h] in chars]
    if len(order) != len(values):
        raise ValueError(f"{len(values)} numbers for {len(order)} producing hexes")
    return dict(zip(order, values))


HOME_DESERT: Hex = hex_at(ROWS, 3, 3)

MAP_SPEC = MapSpec(
    rows=ROWS,
    legend={"h": "pool:home", "e": "pool:enchanted", "D": "desert"},
    pools={"home": HOME_POOL, "enchanted": ENCHANTED_POOL},
    numbers={**_numbers("h", HOME_NUMBERS), **_numbers("eg", ENCHANTED_NUMBERS)},
    harbors=drawn_slots(ROWS, tuple(s for s, _ in HOME_HARBORS)),
    harbor_kinds=counts(k for _, k in HOME_HARBORS),
    regions={HOME: "dh", ENCHANTED: "Deg"},
    robber=HOME_DESERT,                                   # TDE6-008: the robber starts on the home desert
)
MAP_SPECS = {3: MAP_SPEC, 4: MAP_SPEC}


def fixed_harbors() -> dict:
    """TDE6-003: every harbour's kind as shown."""
    return {harbor_edge(h, side): k for (h, side), (_, k) in zip(MAP_SPEC.harbors, HOME_HARBORS)}


def component_table(n: int) -> dict[str, Any]:
    sea = sum(1 for ch in MAP_SPEC.cells().values() if ch == "s")
    return {"hexes": add(HOME_POOL, HOME_FIXED, ENCHANTED_POOL, ENCHANTED_FIXED, {"sea": sea}),
            "tokens": counts(HOME_NUMBERS + ENCHANTED_NUMBERS),
            "harbors": counts(k for _, k in HOME_HARBORS)}


__all__ = ["ROWS", "MAP_SPEC", "MAP_SPECS", "HOME", "ENCHANTED", "HOME_POOL", "ENCHANTED_POOL", "ENCHANTED_FIXED",
           "HOME_NUMBERS", "ENCHANTED_NUMBERS", "DRAGON_NODES", "DRAGONS", "FLAG_TOKENS", "HOME_DESERT",
           "fixed_harbors", "component_table"]
