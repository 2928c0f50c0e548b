"""Building positions for tests: small synthetic boards (R-001 allows them) in the API's JSON shape."""
from __future__ import annotations

import copy
from typing import Any, Iterable, Optional

RES = ("lumber", "brick", "wool", "grain", "ore")


def hexes(rows: dict[tuple[int, int], Any]) -> list[dict]:
    """``{(q, r): "forest"}`` or ``{(q, r): ("forest", 6)}`` -> the board's hex list."""
    out = []
    for (q, r), v in rows.items():
        t, n = (v, None) if isinstance(v, str) else v
        out.append({"q": q, "r": r, "terrain": t, "number": n})
    return out


def hand(**kw: int) -> dict[str, int]:
    return {r: kw.get(r, 0) for r in RES}


def state(board: list[dict], *, players: int = 3, phase: str = "main", current: int = 0,
          hands: Optional[dict[int, dict]] = None, settlements: Iterable = (), cities: Iterable = (),
          roads: Iterable = (), ships: Iterable = (), scenario: str = "base", robber=None, pirate=None,
          harbors: Iterable = (), **extra: Any) -> dict:
    """A posted state: pieces as ``(player, [q, r, corner])`` / ``(player, [q, r, side])``."""
    hands = hands or {}
    st = {
        "scenario": scenario,
        "board": {"hexes": board, "harbors": [{"edge": list(e), "kind": k} for e, k in harbors]},
        "players": [{"resources": hands.get(i, hand())} for i in range(players)],
        "pieces": {
            "settlements": [{"player": p, "node": list(n)} for p, n in settlements],
            "cities": [{"player": p, "node": list(n)} for p, n in cities],
            "roads": [{"player": p, "edge": list(e)} for p, e in roads],
            "ships": [{"player": p, "edge": list(e)} for p, e in ships],
        },
        "robber": robber,
        "pirate": pirate,
        "phase": phase,
        "current_player": current,
    }
    st.update(extra)
    return st


def radius_board(radius: int = 2, terrain: str = "forest", number: Optional[int] = 6, frame: bool = True) -> list[dict]:
    """A hexagon of one land terrain (handy when only geometry matters), framed (R-102)."""
    from service.engine.geometry import hex_distance
    rows: dict = {}
    for q in range(-radius - 1, radius + 2):
        for r in range(-radius - 1, radius + 2):
            d = hex_distance((0, 0), (q, r))
            if d <= radius:
                rows[(q, r)] = (terrain, number)
            elif d == radius + 1 and frame:
                rows[(q, r)] = "frame"
    return hexes(rows)


def adjudicate(client, st: dict, action: Optional[dict]) -> dict:
    """POST /v1/adjudicate; asserts a 200 and that the posted state was not changed."""
    before = copy.deepcopy(st)
    r = client.post("/v1/adjudicate", json={"state": st, "action": action})
    assert r.status_code == 200, r.get_json()
    assert st == before, "the posted state was mutated"
    return r.get_json()


def rules(verdict: dict) -> list[str]:
    return [v["rule"] for v in verdict["violations"]]


def place_pirate(st):
    """R-007: a new game whose pirate hex was not named opens with the starting player placing the pirate
    (``place_pirate``); this places it on the board's first sea hex, north to south, and returns the state."""
    from service.engine.core import Action
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate as judge
    from service.engine.scenarios import get_scenario
    if st.scenario_state.get("pirate_pending") is not True:
        return st
    sea = min((h for h, t in st.hexes.items() if t.terrain == "sea"), key=lambda h: (h[1], h[0]))
    v = judge(st, Action("place_pirate", st.current_player, {"hex": sea}), MapGraph.build(st.terrain_map()),
              get_scenario(st.scenario))
    assert v.legal, v.violations
    return v.state
