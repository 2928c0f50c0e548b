"""Positions for the wagon-train tests (WAG): a small synthetic board (R-001 allows any consistent board).

The board: a west island of land hexes (q 0..4, r 0..2), a one-hex-wide strait of sea (q 5), an east island
(q 6..7), all framed. The Castle stands on (1, 1), the Glassworks on (3, 1) (west island), the Quarry on
(7, 1) (east island): each a desert marked in ``scenario_state.trade_hexes``. Paths are named by the two
hexes they run between (:func:`ends`), so a test says exactly which hexes flank a step.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

import service.engine.scenarios  # noqa: F401  (the registry first: it imports the scenario packages)
from service.engine.geometry import edge_nodes, hex_corners, hex_neighbours
from service.engine.modules.wagon_train.maps import side_between

from .helpers import hand, state

CASTLE, GLASSWORKS, QUARRY = (1, 1), (3, 1), (7, 1)
WEST = [(q, r) for q in range(0, 5) for r in range(0, 3)]
EAST = [(q, r) for q in range(6, 8) for r in range(0, 3)]
SEA = [(5, r) for r in range(0, 3)]
TERRAINS = ("forest", "pasture", "fields", "hills", "mountains")


def board() -> list[dict]:
    tiles: dict[tuple, Any] = {}
    for i, h in enumerate(WEST + EAST):
        tiles[h] = "desert" if h in (CASTLE, GLASSWORKS, QUARRY) else (TERRAINS[i % 5], (4, 5, 6, 8, 9, 10)[i % 6])
    for h in SEA:
        tiles[h] = "sea"
    for h in list(tiles):
        for m in hex_neighbours(h):
            if m not in tiles:
                tiles[m] = "frame"
    out = []
    for (q, r), v in tiles.items():
        t, n = (v, None) if isinstance(v, str) else v
        out.append({"q": q, "r": r, "terrain": t, "number": n})
    return out


def ends(a, b) -> tuple:
    """The two intersections of the path between hexes ``a`` and ``b`` (in ``edge_nodes`` order)."""
    return edge_nodes(side_between(a, b))


def edge(a, b) -> list:
    return list(side_between(a, b))


def corner(h, name: str) -> tuple:
    return hex_corners(h)[("N", "NE", "SE", "S", "SW", "NW").index(name)]


def L(n) -> list:
    return list(n)


def wag(*, players: int = 3, wagons: Optional[dict] = None, gold=(5, 5, 5, 5), hands=None, roads=(), ships=(),
        settlements=(), cities=(), barbarians=None, rivers=(), bridges=(), warships=None, turn=None,
        options=None, stacks=None, robber=None, pirate=None, current: int = 0, phase: str = "main",
        waivers=None, pool: int = 0, lairs=()) -> dict:
    """A posted WAG position on :func:`board`; ``wagons``: ``{player: node | "castle" | dict}``."""
    ws = {}
    for p in range(players):
        w = (wagons or {}).get(p)
        rec = {"node": None, "plaza": None, "level": 1, "token": None, "delivered": {}}
        if isinstance(w, dict):
            rec.update(w)
        elif isinstance(w, str):
            rec["plaza"] = w
        elif w is not None:
            rec["node"] = list(w)
        ws[str(p)] = rec
    ss = {
        "trade_hexes": {"castle": list(CASTLE), "glassworks": list(GLASSWORKS), "quarry": list(QUARRY)},
        "stacks": copy.deepcopy(stacks) if stacks is not None else {"castle": {"tools": 3, "sand": 3},
                                                                     "quarry": {"marble": 3, "sand": 3},
                                                                     "glassworks": {"glass": 3, "tools": 3}},
        "wagons": ws,
        "barbarians": {f"{q},{r}": n for (q, r), n in (barbarians or {}).items()},
        "rivers": [list(e) for e in rivers],
        "bridges": [{"edge": list(e), "player": o} for e, o in bridges],
        "warships": {str(o): list(h) for o, h in (warships or {}).items()},
        "pirate_pool": pool,
        "toll_waivers": {str(o): list(v) for o, v in (waivers or {}).items()},
        "pirate_lairs": [list(h) for h in lairs],
        "wagon_turn": turn,
    }
    st = state(board(), players=players, phase=phase, current=current, hands=hands or {}, roads=roads, ships=ships,
               settlements=settlements, cities=cities, scenario="WAG", robber=robber, pirate=pirate,
               scenario_state=ss, options={"large_map_bonus": False, **(options or {})})
    for i, p in enumerate(st["players"]):
        p["gold"] = gold[i]
    return st


def move(player: int = 0, path=(), plaza=None, jump=None, grain=False, draw=None) -> dict:
    a: dict[str, Any] = {"type": "move_wagon", "player": player, "path": [list(n) for n in path]}
    if plaza is not None:
        a["plaza"] = plaza
    if jump is not None:
        a["jump"] = list(jump)
    if grain:
        a["grain"] = True
    if draw is not None:
        a["draw"] = draw
    return a


def gold_of(st: dict) -> list[int]:
    return [p["gold"] for p in st["players"]]


__all__ = ["board", "ends", "edge", "corner", "wag", "move", "gold_of", "hand", "CASTLE", "GLASSWORKS", "QUARRY"]
