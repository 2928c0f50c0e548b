"""The default maps of the wagon-train variant (WAG) for 3 and 4 players (the text gives none: R-001, R-104).

What the rulings ask of a WAG map, and every map here holds (``tests/test_wagon_train.py`` checks it):

- R-089 / R-093: exactly three trade hexes, the Castle, the Quarry and the Glassworks, each a desert tile
  marked in ``scenario_state.trade_hexes`` (cells ``C``, ``Q`` and ``G``), with a central plaza;
- the Quarry stands on the east coast of a western island ("Desert Island"), one sea hex from the main
  island: tools and marble can reach it only over a closed shipping lane (R-085, WAG-022);
- R-095 / R-109: a river crosses the main island from its north coast, with two public bridges;
- R-104: three barbarians, one on a land hex beside each trade hex;
- R-007 / WAG-031: the pirate starts in the strait, so a toll for a lane across it goes to the pirate pool;
- R-009: the robber starts on the one real desert (cell ``d``), marked, since the trade hexes are deserts too.

Land tiles (``L``) are dealt at random from the map's pool with their number tokens (reds apart); the sea,
the trade hexes, the desert and the harbour slots are fixed, the harbour kinds dealt. The component tables
are computed from these specs (:func:`component_table`).
"""
from __future__ import annotations

from typing import Any

from ...geometry import Edge, Hex, canonical_edge, hex_sides
from ...scenarios.components import add, harbor_row, hex_row, token_row
from ...scenarios.mapdata import MapSpec

TRADE_CELLS = {"C": "castle", "Q": "quarry", "G": "glassworks"}

ROWS_4 = (
    "  s s s s s s s s s s s",
    " s L L s s L L L L L s",
    "s L L Q s L L C L L G s",
    " s L L s s L L d L L s",
    "  s s s s L L L L L s",
    "   s s s s s s s s s",
)
ROWS_3 = (
    "  s s s s s s s s s s s",
    " s L L s s L L L L L s",
    "s L L Q s L L C L L G s",
    " s L L s s L L d L L s",
    "  s s s s s L L L s s",
    "   s s s s s s s s s",
)
POOLS = {4: hex_row(fields=5, hills=4, mountains=5, pasture=5, forest=5),
         3: hex_row(fields=4, hills=4, mountains=4, pasture=5, forest=5)}
TOKENS = {4: token_row(1, 2, 3, 3, 2, 2, 3, 3, 3, 2), 3: token_row(1, 2, 3, 2, 2, 2, 3, 3, 2, 2)}
HARBORS = {4: (((5, 1), "NW"), ((3, 4), "SW"), ((9, 1), "NE"), ((1, 1), "NW")),
           3: (((5, 1), "NW"), ((4, 4), "SW"), ((9, 1), "NE"), ((1, 1), "NW"))}
HARBOR_KINDS = harbor_row(2, 2)
ROBBER = (6, 3)
PIRATE = (3, 2)                          # the strait between the Desert Island and the main island

#: R-095: the river, as the pairs of hexes it runs between (north coast to south), and its two public
#: bridges (R-109: no owner).
RIVER = (((7, 1), (8, 1)), ((7, 2), (8, 1)), ((7, 2), (8, 2)), ((7, 3), (8, 2)), ((7, 3), (8, 3)))
BRIDGES = (((7, 1), (8, 1)), ((7, 3), (8, 3)))
#: R-104: one barbarian beside each trade hex.
BARBARIANS = ((1, 2), (5, 2), (9, 1))


def side_between(a: Hex, b: Hex) -> Edge:
    """The path two neighbouring hexes share."""
    common = set(hex_sides(a)) & set(hex_sides(b))
    if len(common) != 1:
        raise ValueError(f"hexes {a} and {b} are not neighbours")
    return common.pop()


def _spec(n: int) -> MapSpec:
    return MapSpec(rows=ROWS_4 if n == 4 else ROWS_3,
                   legend={"L": "pool:land", "C": "desert", "Q": "desert", "G": "desert"},
                   pools={"land": POOLS[n]}, tokens={"L": TOKENS[n]}, harbors=HARBORS[n],
                   harbor_kinds=HARBOR_KINDS, robber=ROBBER, pirate=PIRATE)


MAP_SPECS = {3: _spec(3), 4: _spec(4)}


def trade_hexes(n: int) -> dict[str, Hex]:
    """R-089: the three trade hexes of the ``n``-player map, by name."""
    cells = MAP_SPECS[n].cells()
    return {TRADE_CELLS[ch]: h for h, ch in sorted(cells.items()) if ch in TRADE_CELLS}


def map_marks(n: int) -> dict[str, Any]:
    """The map's WAG marks as ``scenario_state`` data: trade hexes, rivers, bridges and barbarians."""
    return {
        "trade_hexes": {k: list(h) for k, h in trade_hexes(n).items()},
        "rivers": [list(side_between(a, b)) for a, b in RIVER],
        "bridges": [{"edge": list(side_between(a, b)), "player": None} for a, b in BRIDGES],
        "barbarians": {f"{q},{r}": 1 for q, r in BARBARIANS},
    }


def component_table(n: int) -> dict[str, Any]:
    """The components of the ``n``-player map, counted from its spec."""
    cells = MAP_SPECS[n].cells()
    fixed = {"sea": sum(1 for ch in cells.values() if ch == "s"),
             "desert": sum(1 for ch in cells.values() if ch in "dCQG")}
    return {"hexes": add(POOLS[n], fixed), "tokens": dict(TOKENS[n]), "harbors": dict(HARBOR_KINDS)}


__all__ = ["MAP_SPECS", "trade_hexes", "map_marks", "component_table", "side_between", "RIVER", "BRIDGES",
           "BARBARIANS", "PIRATE", "ROBBER"]
