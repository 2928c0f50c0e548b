"""Positions of 5-6 player games for the tests (``rules/five-six.md``, BASE56-*): posted states on the default
30-hex board, in the API's JSON shape, and a driver judging actions in them through ``POST /v1/adjudicate``."""
from __future__ import annotations

import copy
from typing import Any, Iterable, Optional

from service.engine.geometry import edge_nodes, hex_sides, node_edges
from service.engine.modules.five_six import board as B

from .helpers import adjudicate, hand


def board_json(land: Optional[dict] = None, frame_terrain: str = "frame",
               harbors: Optional[Iterable] = None) -> dict:
    land = land or {h: (t, n) for h, (t, n) in B.DEFAULT_LAND.items()}
    hexes = [{"q": q, "r": r, "terrain": t, "number": n} for (q, r), (t, n) in land.items()]
    hexes += [{"q": q, "r": r, "terrain": frame_terrain, "number": None} for q, r in B.FRAME]
    hb = B.DEFAULT_HARBORS if harbors is None else harbors
    return {"hexes": hexes, "harbors": [{"edge": list(e), "kind": k} for e, k in hb]}


#: A settlement and a road per seat, far apart (node, edge from it).
SEATS = [((0, -2, "N"), (0, -2, "NE")), ((2, -2, "N"), (2, -2, "NE")), ((1, 1, "S"), (1, 1, "SE")),
         ((-3, 1, "N"), (-3, 1, "NE")), ((-3, 3, "S"), (-3, 3, "SE")), ((0, 2, "S"), (0, 2, "SE"))]


def position(n: int = 5, *, phase: str = "main", current: int = 0, hands: Optional[dict] = None,
             scenario: str = "base", mode: Optional[str] = None, settlements: Iterable = (), cities: Iterable = (),
             roads: Iterable = (), ships: Iterable = (), scenario_state: Optional[dict] = None,
             frame_terrain: str = "frame", seats: bool = True, **extra: Any) -> dict:
    """A posted 5-6 position: the default board, each seat with a settlement and a road (``SEATS``)."""
    hands = hands or {}
    st_settlements = [(p, SEATS[p][0]) for p in range(n)] if seats else []
    st_roads = [(p, SEATS[p][1]) for p in range(n)] if seats else []
    st = {
        "scenario": scenario,
        "board": board_json(frame_terrain=frame_terrain),
        "players": [{"resources": hands.get(i, hand())} for i in range(n)],
        "pieces": {
            "settlements": [{"player": p, "node": list(x)} for p, x in st_settlements + list(settlements)],
            "cities": [{"player": p, "node": list(x)} for p, x in cities],
            "roads": [{"player": p, "edge": list(x)} for p, x in st_roads + list(roads)],
            "ships": [{"player": p, "edge": list(x)} for p, x in ships],
        },
        "robber": list(B.DEFAULT_ROBBER),
        "pirate": None,
        "phase": phase,
        "current_player": current,
    }
    if mode:
        st["options"] = {"five_six_mode": mode}
    if scenario_state:
        st["scenario_state"] = scenario_state
    if phase in ("main",):
        st["turn_flags"] = {"rolled": True}
    st.update(extra)
    return st


def sbp(n: int = 5, ended: int = 0, slot: Optional[int] = None, **kw: Any) -> dict:
    """A position in the Special Building Phase after ``ended``'s turn, ``slot``'s slot (BASE56-033)."""
    slot = (ended + 1) % n if slot is None else slot
    return position(n, phase="special_build", current=slot, scenario_state={"special_build": {"ended": ended}}, **kw)


def paired(n: int = 5, first: int = 0, **kw: Any) -> dict:
    """A position in P2's action phase after P1 = ``first`` (BASE56-043)."""
    return position(n, phase="paired", current=(first + 3) % n, mode="paired",
                    scenario_state={"paired": {"first": first}}, **kw)


def act(client, st: dict, action: dict) -> dict:
    return adjudicate(client, st, action)


def then(verdict: dict) -> dict:
    """The state of a legal verdict, to post with the next action."""
    assert verdict["legal"], verdict["violations"]
    return copy.deepcopy(verdict["state"])


def rich(**extra: int) -> dict:
    base = {"lumber": 6, "brick": 6, "wool": 6, "grain": 6, "ore": 6}
    base.update(extra)
    return base


def ring_roads(h: tuple) -> list:
    """Five sides of hex ``h`` in a row, from its N corner to its NW corner (a road of length 5)."""
    return list(hex_sides(h))[:5]


def edge_away(node: tuple, avoid: Iterable) -> tuple:
    """An edge at ``node`` not among ``avoid``."""
    from service.engine.geometry import edge_hexes
    avoid = set(map(tuple, avoid))
    land, board = set(B.LAND), set(B.LAND) | set(B.FRAME)

    def site(e):
        a, b = edge_hexes(e)
        return a in board and b in board and (a in land or b in land)
    return next(e for e in node_edges(node) if e not in avoid and site(e))


def other_end(edge: tuple, node: tuple) -> tuple:
    a, b = edge_nodes(edge)
    return b if a == node else a
