"""The default Greater Catan (TD&E) boards for 3 and 4 players, and the check of what the text states.

The seed's illustrations are missing (R-054, R-001), so each board is designed to hold every number the
text gives, and nothing it does not give is presented as the book's:

- **Home island** (TDE3-003). 3 players: 14 land hexes (rows 2-3-4-3-2), laid at random, no desert
  (translator's note: the robber starts off the board, TDE3-008 / R-062), their 14 tokens on fixed
  positions (``NUMBERS_3P``, red numbers apart). 4 players: the base game's island (19 hexes with the
  desert, its 18 tokens dealt blind with the red numbers apart, BASE-COMP-8).
- **Sea** (TDE3-003: "placed as shown"). A fixed ring of sea around the home island; for 3 players two
  more fixed sea hexes at the east and west ends of the middle row. The pirate's "x" (TDE3-008) is a
  sea hex of the map (``PIRATE_3P``, ``PIRATE_4P``).
- **New islands** (TDE3-004, R-062). The grey area is the ring of cells outside the sea ring: 20 cells for
  3 players (the table's 17 plus the erratum's 3 sea hexes), 26 for 4 players (the ring of 24 and one
  cell beyond each end of the middle row). Its hexes are shuffled face up onto those cells, with no
  number token; land and sea mix, so the grey area breaks into small islands.
- **Reserve** (TDE3-005). 4 tokens (3 players) or 5 (4 players), shuffled face down next to the board:
  ``scenario_state["token_pile"]``, drawn blind (R-063).

Not stated by the text, chosen here (engine defaults, kept within one TD&E box plus the base game and
Seafarers): the terrain mix of the 3-player home island (3 forest, 3 pasture, 3 fields, 2 hills,
3 mountains) and its token values (3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11); the grey area's mix
(3 players: 7 sea + 13 land; 4 players: 9 sea + 17 land) and the reserve values (3 players 4, 5, 9, 10;
4 players 3, 4, 5, 9, 10); the harbours, one on every other hex of the sea ring, each facing the home
island, kinds dealt blind (SEA-003): 8 for 3 players (5 x 2:1, 3 x 3:1), 9 for 4 players (5 x 2:1,
4 x 3:1).
"""
from __future__ import annotations

from typing import Any

from ...geometry import Hex
from ...scenarios.base import BASE_TERRAINS, BASE_TOKENS
from ...scenarios.components import add, counts, harbor_row, hex_row, token_row
from ...scenarios.mapdata import PRODUCING, MapSpec
from ...state import State

#: Cell characters: ``m`` home island, ``n`` new-island (grey) area, ``s`` fixed sea.
HOME, NEW = "m", "n"

ROWS_3P = (
    "    n n n n",
    "   n s s s n",
    "  n s m m s n",
    " n s m m m s n",
    "s s m m m m s s",
    " n s m m m s n",
    "  n s m m s n",
    "   n s s s n",
    "    n n n n",
)
ROWS_4P = (
    "      n n n n n",
    "     n s s s s n",
    "    n s m m m s n",
    "   n s m m m m s n",
    "n n s m m m m m s n n",
    "   n s m m m m s n",
    "    n s m m m s n",
    "     n s s s s n",
    "      n n n n n",
)
ORIGIN_3P = (-1, -4)
ORIGIN_4P = (-3, -4)

#: TDE3-003: the 3-player home island's land, shuffled face up (no desert: R-062).
HOME_3P = hex_row(0, 0, 0, 3, 2, 3, 3, 3)
#: TDE3-003: the 3-player home island's tokens "as illustrated": fixed positions, red numbers apart.
NUMBERS_3P: dict[Hex, int] = {
    (1, -2): 10, (2, -2): 3,
    (0, -1): 9, (1, -1): 6, (2, -1): 4,
    (-1, 0): 6, (0, 0): 5, (1, 0): 10, (2, 0): 8,
    (-1, 1): 4, (0, 1): 8, (1, 1): 9,
    (-1, 2): 11, (0, 2): 5,
}
#: TDE3-004 (R-062): the new-island area, 20 hexes (17 of the table + 3 sea) / 26 hexes.
NEW_3P = hex_row(7, 0, 0, 3, 3, 2, 2, 3)
NEW_4P = hex_row(9, 0, 0, 3, 3, 3, 4, 4)
#: TDE3-005: the reserve, shuffled face down beside the board.
RESERVE_3P = token_row(0, 0, 1, 1, 0, 0, 1, 1, 0, 0)
RESERVE_4P = token_row(0, 1, 1, 1, 0, 0, 1, 1, 0, 0)
RESERVE = {3: RESERVE_3P, 4: RESERVE_4P}

HARBORS_3P = harbor_row(5, 3)
HARBORS_4P = harbor_row(5, 4)
SLOTS_3P = (((-1, -1), "E"), ((1, -3), "SE"), ((3, -3), "SW"), ((3, -1), "W"), ((2, 1), "NW"), ((0, 3), "NW"),
            ((-2, 3), "NE"), ((-2, 1), "E"))
SLOTS_4P = (((-2, -1), "E"), ((0, -3), "SE"), ((2, -3), "SW"), ((3, -2), "W"), ((3, 0), "W"), ((1, 2), "NW"),
            ((-1, 3), "NE"), ((-3, 3), "NE"), ((-3, 1), "E"))
#: TDE3-008: the pirate's "x".
PIRATE_3P: Hex = (4, 0)
PIRATE_4P: Hex = (3, -1)

MAP_3P = MapSpec(
    rows=ROWS_3P, origin=ORIGIN_3P,
    legend={HOME: "pool:home island", NEW: "pool:new islands"},
    pools={"home island": HOME_3P, "new islands": NEW_3P},
    numbers=NUMBERS_3P,
    harbors=SLOTS_3P, harbor_kinds=HARBORS_3P,
    hidden_tokens=RESERVE_3P,
    regions={"home": HOME},
    pirate=PIRATE_3P,
)
MAP_4P = MapSpec(
    rows=ROWS_4P, origin=ORIGIN_4P,
    legend={HOME: "pool:home island", NEW: "pool:new islands"},
    pools={"home island": counts(BASE_TERRAINS), "new islands": NEW_4P},
    tokens={HOME: counts(BASE_TOKENS)},              # TDE3-003: the base game's island and tokens
    harbors=SLOTS_4P, harbor_kinds=HARBORS_4P,
    hidden_tokens=RESERVE_4P,
    regions={"home": HOME},
    pirate=PIRATE_4P,
)
MAPS = {3: MAP_3P, 4: MAP_4P}


def _sea(spec: MapSpec) -> int:
    return sum(1 for ch in spec.cells().values() if ch == "s")


COMPONENT_TABLES: dict[int, dict[str, Any]] = {
    3: {"hexes": add(HOME_3P, NEW_3P, {"sea": _sea(MAP_3P)}), "tokens": counts(NUMBERS_3P.values()),
        "harbors": HARBORS_3P, "hidden": {"tokens": RESERVE_3P}},
    4: {"hexes": add(counts(BASE_TERRAINS), NEW_4P, {"sea": _sea(MAP_4P)}), "tokens": counts(BASE_TOKENS),
        "harbors": HARBORS_4P, "hidden": {"tokens": RESERVE_4P}},
}

#: What the text states, per player count (TDE3-003..005, TDE3-008, R-062).
STATED = {
    3: {"home_land": 14, "home_desert": 0, "new_area": 20, "reserve": 4, "robber_on_board": False},
    4: {"home_land": 19, "home_desert": 1, "new_area": 26, "reserve": 5, "robber_on_board": True},
}


def stated_problems(state: State) -> list[tuple[str, str]]:
    """Every number the text states, checked on a board laid from the default map (a new game): the
    home island's land hexes and tokens (TDE3-003), the new-island area's hexes, face up and without
    tokens (TDE3-004, R-062), the reserve (TDE3-005), robber and pirate (TDE3-008, R-062).
    ``[(rule, reason)]``, empty when the board holds them all."""
    n = state.num_players
    spec, want = MAPS[n], STATED[n]
    cells = spec.cells()
    out: list[tuple[str, str]] = []
    home = [h for h, ch in cells.items() if ch == HOME]
    new = [h for h, ch in cells.items() if ch == NEW]
    tiles = state.hexes
    home_land = [h for h in home if tiles[h].terrain != "sea"]
    deserts = [h for h in home if tiles[h].terrain == "desert"]
    if len(home_land) != want["home_land"] or len(deserts) != want["home_desert"]:
        out.append(("TDE3-003", f"the home island has {len(home_land)} land hexes ({len(deserts)} desert), "
                    f"not {want['home_land']} ({want['home_desert']})"))
    untokened = [h for h in home if tiles[h].terrain in PRODUCING and tiles[h].number is None]
    if untokened:
        out.append(("TDE3-003", f"home-island hexes without a token: {untokened}"))
    if n == 3 and any(tiles[h].number != v for h, v in NUMBERS_3P.items()):
        out.append(("TDE3-003", "the 3-player home island's tokens are not on their fixed positions"))
    if len(new) != want["new_area"]:
        out.append(("TDE3-004", f"the new-island area has {len(new)} hexes, not {want['new_area']}"))
    if any(tiles[h].terrain in ("unknown", "frame") for h in new):
        out.append(("TDE3-004", "every new-island hex lies face up"))
    if any(tiles[h].number is not None for h in new):
        out.append(("TDE3-004", "the new-island hexes start without number tokens"))
    pile = list((state.scenario_state or {}).get("token_pile") or [])
    if len(pile) != want["reserve"] or counts(pile) != RESERVE[n]:
        out.append(("TDE3-005", f"the reserve holds {len(pile)} tokens, not {want['reserve']}"))
    if (state.robber is not None) != want["robber_on_board"] or \
            (state.robber is not None and tiles[state.robber].terrain != "desert"):
        out.append(("TDE3-008", f"the robber starts {'on the home desert' if want['robber_on_board'] else 'off the board'}"))
    if state.pirate != spec.pirate:
        out.append(("TDE3-008", f"the pirate starts on the sea hex marked x, {spec.pirate}"))
    return out


__all__ = ["MAPS", "MAP_3P", "MAP_4P", "COMPONENT_TABLES", "RESERVE", "STATED", "stated_problems", "HOME", "NEW"]
