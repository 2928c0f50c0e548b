"""Diamond Isles explained in plain words (``explanations.modules``): each player's diamonds and the victory
points they give, the closed trade routes and why they pay, who may move the robber and the pirate now
and why, and how the game ends and who would win.
"""
from __future__ import annotations

from typing import Any

from ...mapgraph import MapGraph
from ...state import State
from . import handlers as H
from .villages import (connected_villages, diamonds_of, recorded_routes, route_ships, village_number,
                       village_of_node, villages)


def explain_extra(state: State, graph: MapGraph, scen: Any, game_end: dict[str, Any]) -> dict[str, Any]:
    if not villages(state):
        return {}
    return {"diamonds": _diamonds(state), "trade_routes": _routes(state, graph),
            "robber_and_pirate": _may_move(state, scen), "game_end": game_end}


def _diamonds(state: State) -> dict[str, Any]:
    per = {str(p): {"diamonds": diamonds_of(state, p), "vp": diamonds_of(state, p) // 2}
           for p in range(state.num_players)}
    text = "; ".join(f"player {p} has {v['diamonds']} diamond{'s' if v['diamonds'] != 1 else ''}, worth {v['vp']} VP"
                     for p, v in per.items())
    return {"players": per, "why": f"{text} (each full pair of diamonds is 1 victory point, DIAM-009; an odd "
                                   "diamond still breaks a tie at the end, DIAM-022)"}


def _routes(state: State, graph: MapGraph) -> dict[str, Any]:
    vs = villages(state)
    vmap = village_of_node(state, graph)
    per: dict[str, list] = {}
    parts = []
    for p in range(state.num_players):
        _, by_v = route_ships(state, graph, p, connected_villages(state, graph, p, vmap), vmap)
        rows = []
        for i in sorted(recorded_routes(state, p)):
            h, left = vs[i]
            num = village_number(state, h)
            ships = sorted(by_v.get(i, ()))
            pays = ("the village pays it" if left else "the village is empty, so the general cache pays it")
            rows.append({"village": list(h), "number": num, "ships": [list(e) for e in ships],
                         "why": f"player {p}'s {len(ships)} ship(s) join the village on {h[0]},{h[1]} to their "
                                f"harbour, so the route is closed: it paid 1 diamond when made (DIAM-006), pays 1 "
                                f"on every roll of {num} (DIAM-007; {pays}, DIAM-008), and its ships never move "
                                "(DIAM-011) though it may be extended or branched (DIAM-012, DIAM-013)"})
        per[str(p)] = rows
        if rows:
            parts.append(f"player {p} trades with " + ", ".join(
                f"{r['village'][0]},{r['village'][1]} (on {r['number']})" for r in rows))
    why = ("; ".join(parts) + " (DIAM-006, DIAM-007)") if parts else (
        "nobody has a trade route yet: a line of one's own ships from a settlement or city (or from a village "
        "already traded with) to a corner of an island village makes one (DIAM-006)")
    return {"players": per, "why": why}


def _may_move(state: State, scen: Any) -> dict[str, Any]:
    n = state.num_players
    vps = {p: H.public_vp(state, scen, p) for p in range(n)}
    best = max(vps.values(), default=0)
    robber = H.robber_allowed(state, scen)
    pirate = [p for p in range(n) if H.pirate_allowed(state, p)]
    leaders = [p for p, v in vps.items() if v >= 3]
    r_why = (f"the robber may be moved: player(s) {', '.join(map(str, leaders))} have 3 or more victory points "
             "everyone can see (DIAM-014, R-050)" if robber else
             f"the robber may not be moved yet: the most victory points anyone shows is {best}, under 3 (DIAM-014, "
             "R-050: hidden Victory Point cards do not count)")
    p_why = (f"the pirate may be moved by player(s) {', '.join(map(str, pirate))}, who have a trade route with an "
             "island village (DIAM-015); the mover takes a card or a diamond, as they choose, from a player whose "
             "ships border the pirate's hex (DIAM-016, R-051)" if pirate else
             "nobody may move the pirate: only a player with a trade route with an island village may (DIAM-015)")
    cur = state.current_player
    mine = robber or cur in pirate
    now = (f"player {cur}, whose turn it is, may move " + " or ".join(
        x for x, ok in (("the robber", robber), ("the pirate", cur in pirate)) if ok) if mine else
        f"on a 7 (or a Knight) now player {cur} moves nothing and steals nothing (R-050)")
    return {"robber": robber, "pirate": pirate, "public_vp": {str(p): v for p, v in vps.items()},
            "why": f"{r_why}; {p_why}; {now}"}


__all__ = ["explain_extra"]
