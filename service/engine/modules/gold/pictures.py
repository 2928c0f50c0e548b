"""What GOLD adds to the board picture: its ships (single mobile pieces with a cargo, GOLD-020), the front
coast (GOLD-043), the road sites of each Minimum Number of Roads witness (GOLD-038), and a panel with
Largest Fleet (GOLD-037), each player's gold and cargo, and each MNR still owed.
"""
from __future__ import annotations

from typing import Any

from ...geometry import node_str
from ...mapgraph import MapGraph
from ...picture import Glyph, Layer, Panel
from ...state import State
from .actions import fleet_sizes, ship_edge, ships_of
from .mnr import Board, front_coast

FRONT_COAST_COLOUR = "#ffd54f"
MNR_COLOUR = "#ab47bc"


def board_layers(state: State, graph: MapGraph) -> list[Any]:
    """The ships (a diamond in the owner's colour, its cargo as the label), the front coast (a ring at each
    intersection), each pending MNR witness's road sites (a band) and the panel."""
    n = state.num_players
    ships = Layer("gold-ship", "ship with its cargo of gold (GOLD-020)", "diamond", "#ffffff", tuple(
        Glyph(ship_edge(sh), str(sh.get("cargo", 0)), sh["player"],
              f"player {sh['player']}'s ship {sh.get('id')} carrying {sh.get('cargo', 0)} gold (GOLD-020)")
        for sh in ships_of(state) if 0 <= sh.get("player", -1) < n))
    fc = sorted(front_coast(state, graph), key=lambda x: (x[1], x[0], x[2]))
    coast = Layer("gold-front-coast", "front coast (GOLD-043)", "ring", FRONT_COAST_COLOUR, tuple(
        Glyph(v, "", None, f"front coast intersection {node_str(v)} (GOLD-043)") for v in fc))
    board = Board(state, graph)
    witness = {p: board.mnr_witness(p) for p in range(n) if board.pending(p)}
    sites: dict[tuple, list[int]] = {}
    for p, w in witness.items():
        for e in (w or {}).get("path", ()):
            sites.setdefault(tuple(e), []).append(p)
    mnr = Layer("gold-mnr", "road site of a Minimum Number of Roads (GOLD-038)", "band", MNR_COLOUR, tuple(
        Glyph(e, "", None, f"a road player{'s' if len(ps) > 1 else ''} {', '.join(map(str, ps))} still need"
                           f"{'' if len(ps) > 1 else 's'} to reach the front coast (GOLD-038)")
        for e, ps in sorted(sites.items())))
    return [ships, coast, mnr, gold_panel(state, witness)]


def gold_panel(state: State, witness: dict[int, Any]) -> Panel:
    n = state.num_players
    holder = state.scenario_state.get("largest_fleet")
    sizes = fleet_sizes(state)
    cargo = [0] * n
    for sh in ships_of(state):
        if 0 <= sh.get("player", -1) < n:
            cargo[sh["player"]] += sh.get("cargo", 0)
    lines = ["Largest Fleet (GOLD-037, 2 VP): " + ("nobody" if holder is None else f"player {holder}") +
             "; ships " + ", ".join(f"player {p}: {sizes[p]}" for p in range(n)),
             "Gold: " + ", ".join(f"player {p}: {state.players[p].extra.get('gold', 0)} + {cargo[p]} in cargo"
                                  for p in range(n))]
    if witness:
        lines.append("Minimum Number of Roads (GOLD-038): " + ", ".join(
            f"player {p}: " + ("none reachable" if w is None else f"{w['roads']} to {node_str(tuple(w['site']))}")
            for p, w in sorted(witness.items())))
    else:
        lines.append("Minimum Number of Roads (GOLD-038): nobody owes one (each has a front-coast building or "
                     "no building yet)")
    return Panel("gold", "Gold / Front Coast", tuple(lines))
