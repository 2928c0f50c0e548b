"""Positions for the Cities & Knights tests: a small board (R-001 allows synthetic boards) around hex
(0, 0), in the API's JSON shape, with the module's data in ``scenario_state.cities_and_knights``."""
from __future__ import annotations

import copy
from typing import Any, Optional

from service.engine.modules.cities_and_knights import store

from .helpers import hand, hexes
from .helpers import state as base_state

OPT = {"cities_and_knights": True}

#: Radius-1 land with one terrain of each kind near the middle, framed (R-102).
TERRAIN = {(0, 0): ("forest", 6), (1, -1): ("fields", 8), (1, 0): ("mountains", 5), (0, 1): ("pasture", 9),
           (-1, 1): ("hills", 4), (-1, 0): ("fields", 10), (0, -1): ("mountains", 3)}

# Around hex (0, 0), clockwise from its north corner: the corners and the sides between them.
N, NE, SE, S, SW, NW = (0, 0, "N"), (1, -1, "S"), (0, 1, "N"), (0, 0, "S"), (-1, 1, "N"), (0, -1, "S")
E_N_NE, E_NE_SE, E_SE_S, E_S_SW, E_SW_NW, E_NW_N = ((0, 0, "NE"), (0, 0, "E"), (0, 0, "SE"), (-1, 1, "NE"),
                                                    (-1, 0, "E"), (0, -1, "SE"))


def board(extra: Optional[dict] = None) -> list[dict]:
    from service.engine.geometry import hex_distance
    rows: dict = dict(TERRAIN)
    for q in range(-3, 4):
        for r in range(-3, 4):
            if hex_distance((0, 0), (q, r)) == 2:
                rows[(q, r)] = "frame"
    rows.update(extra or {})
    return hexes(rows)


def ck(players: int = 3, **over: Any) -> dict:
    out = store.initial(players)
    for k, v in over.items():
        out[k] = v
    return out


def position(*, players: int = 3, phase: str = "main", current: int = 0, cities=((0, N), (1, S)),
             settlements=(), roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW), (1, E_SW_NW)),
             hands: Optional[dict] = None, ck_state: Optional[dict] = None, robber=(-1, 0),
             scenario: str = "base", brd: Optional[list] = None, options: Optional[dict] = None,
             **extra: Any) -> dict:
    st = base_state(brd or board(), players=players, phase=phase, current=current, hands=hands or {},
                    settlements=[(p, list(n)) for p, n in settlements], cities=[(p, list(n)) for p, n in cities],
                    roads=[(p, list(e)) for p, e in roads], scenario=scenario, robber=list(robber) if robber else None,
                    **extra)
    st["options"] = {**OPT, **(options or {})}
    st["scenario_state"] = {store.KEY: ck_state if ck_state is not None else ck(players)}
    if phase in ("main", "discard", "robber", "gold_choice"):
        st.setdefault("turn_flags", {})["rolled"] = True
    return st


def knight(p: int, node, level: int = 1, active: bool = False, **kw: Any) -> dict:
    return {"node": list(node), "player": p, "level": level, "active": active, "activated": False, "acted": False,
            "promoted": False, **kw}


def with_commodities(c: dict, p: int, **cards: int) -> dict:
    """Give ``p`` commodities out of the commodity bank (kept conserved, CK-COMP-1)."""
    c = copy.deepcopy(c)
    for k, n in cards.items():
        c["commodities"][str(p)][k] += n
        c["commodity_bank"][k] -= n
    return c


def with_cards(c: dict, p: int, *cards: str) -> dict:
    """Give ``p`` progress cards out of their decks (CK-COMP-4)."""
    from service.engine.modules.cities_and_knights.data import DECK_OF, VP_CARDS
    c = copy.deepcopy(c)
    for card in cards:
        c["decks"][DECK_OF[card]][card] -= 1
        where = c["vp_cards"] if card in VP_CARDS else c["hands"]
        where[str(p)][card] = where[str(p)].get(card, 0) + 1
    return c


def act(type_: str, player: int = 0, **kw: Any) -> dict:
    return {"type": type_, "player": player, **kw}


def post(client, st: dict, action: Optional[dict]) -> dict:
    before = copy.deepcopy(st)
    r = client.post("/v1/adjudicate", json={"state": st, "action": action})
    assert r.status_code == 200, r.get_json()
    assert st == before
    return r.get_json()


def ckof(verdict: dict) -> dict:
    return verdict["state"]["scenario_state"][store.KEY]


def rules(v: dict) -> list[str]:
    return [x["rule"] for x in v["violations"]]


__all__ = ["OPT", "board", "ck", "position", "knight", "with_commodities", "with_cards", "act", "post", "ckof", "rules",
           "hand", "N", "NE", "SE", "S", "SW", "NW", "E_N_NE", "E_NE_SE", "E_SE_S", "E_S_SW", "E_SW_NW", "E_NW_N"]
