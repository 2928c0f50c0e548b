"""What Diamond Isles adds to the board picture: the island villages (DIAM-002) with the diamonds each
still holds (DIAM-003), the ships of closed trade routes (DIAM-011), and a panel for what lies off the
board: the general cache and its spare counters (DIAM-008, R-047), each player's diamonds and their
victory points (DIAM-009), and how near the villages are to ending the game (DIAM-021).
"""
from __future__ import annotations

from typing import Any

from ...mapgraph import MapGraph
from ...picture import Glyph, Layer, Panel
from ...state import State
from .maps import TOTAL_DIAMONDS
from .villages import (connected_villages, diamond_total, diamonds_of, recorded_routes, route_ships, village_number,
                       village_of_node, villages, villages_with_diamonds)

VILLAGE_COLOUR = "#6a1b9a"
DIAMOND_COLOUR = "#b2ebf2"
ROUTE_COLOUR = "#ffd600"


def _number(state: State, h) -> str:
    n = village_number(state, h)
    return "no number" if n is None else f"number {n}"


def board_layers(state: State, graph: MapGraph) -> list[Any]:
    """The villages (a ring round each), their diamonds (a diamond with the count), the closed routes' ships
    (a band along each, noting whose route to which village) and the diamond panel."""
    vs = villages(state)
    if not vs:
        return []
    n = state.num_players
    ring = Layer("diam-village", "island village (DIAM-002)", "ring", VILLAGE_COLOUR, tuple(
        Glyph(h, "", None, f"island village on {h[0]},{h[1]}, {_number(state, h)}: pays a diamond to every route "
                           f"on its number (DIAM-004, DIAM-007); no settlement on its corners (DIAM-005)")
        for h, _ in vs))
    gems = Layer("diam-diamonds", "diamonds left on a village (DIAM-003)", "diamond", DIAMOND_COLOUR, tuple(
        Glyph(h, str(d), None, f"{d} diamond{'s' if d != 1 else ''} left on the village on {h[0]},{h[1]} "
                               "(DIAM-003; then the cache pays, DIAM-008)")
        for h, d in vs))
    vmap = village_of_node(state, graph)
    ships: dict[tuple, list[str]] = {}
    owner: dict[tuple, int] = {}
    for p in range(n):
        _, by_v = route_ships(state, graph, p, connected_villages(state, graph, p, vmap), vmap)
        for i, edges in sorted(by_v.items()):
            if i not in recorded_routes(state, p):
                continue
            h = vs[i][0]
            for e in edges:
                ships.setdefault(e, []).append(f"{h[0]},{h[1]}")
                owner[e] = p
    routes = Layer("diam-route", "ship of a closed trade route (DIAM-011: never moves)", "band", ROUTE_COLOUR, tuple(
        Glyph(e, "", None, f"player {owner[e]}'s ship on a closed trade route to the village on "
                           f"{' and '.join(ships[e])}: it never moves (DIAM-011)")
        for e in sorted(ships)))
    return [ring, gems, routes, diamond_panel(state)]


def diamond_panel(state: State) -> Panel:
    """The diamonds off the board: the cache, the spare counters, each player's, and the end of the game."""
    ss = state.scenario_state
    cache, reserve = int(ss.get("diamond_cache", 0)), int(ss.get("diamond_reserve", 0))
    left = villages_with_diamonds(state)
    on_villages = sum(d for _, d in villages(state))
    held = {p: diamonds_of(state, p) for p in range(state.num_players)}
    lines = [f"general cache: {cache} (pays when a village runs out, DIAM-008), spare counters: {reserve} (R-047)",
             "players: " + ", ".join(f"{p}: {d} diamond{'s' if d != 1 else ''} = {d // 2} VP" for p, d in held.items())
             + " (a pair is 1 VP, DIAM-009)",
             f"on the villages: {on_villages}; every counter: {diamond_total(state)} of {TOTAL_DIAMONDS} (DIAM-003)",
             f"{left} villages still hold diamonds: the game ends when only 3 do (DIAM-021)"]
    return Panel("diam-cache", "Diamonds", tuple(lines))


__all__ = ["board_layers", "diamond_panel"]
