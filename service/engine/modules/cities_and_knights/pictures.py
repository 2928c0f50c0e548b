"""What Cities & Knights adds to the board picture: knights with their strength (1 basic, 2 strong,
3 mighty) and whether they are active, city walls, the metropolis of each track, cities laid on their
side, the merchant; and, off the board, panels for the barbarian ship's track (its strength against the
active knights) and the city improvements with the metropolis holders.
"""
from __future__ import annotations

from typing import Any

from ...geometry import node_str
from ...picture import Glyph, Layer, Panel
from ...state import State
from . import store
from .barbarians import outcome
from .data import LEVEL_NAMES, TRACKS

TRACK_COLOUR = {"trade": "#fdd835", "politics": "#1e88e5", "science": "#43a047"}
TRACK_LETTER = {"trade": "T", "politics": "P", "science": "S"}


def board_layers(state: State, scen: Any = None) -> list[Any]:
    c = state.scenario_state.get(store.KEY)
    if not c:
        return []
    out: list[Any] = []
    for active, shape, legend in ((True, "disc", "active knight, its strength (CK-KNIGHT-3)"),
                                  (False, "square", "inactive knight, its strength (counts 0, CK-BARB-3)")):
        out.append(Layer("ck-knight-active" if active else "ck-knight-inactive", legend, shape, "#bdbdbd", tuple(
            Glyph(tuple(k["node"]), str(k["level"]), k["player"],
                  f"player {k['player']}'s {LEVEL_NAMES[k['level']]} knight (strength {k['level']}), "
                  f"{'active' if active else 'inactive'}, at {node_str(tuple(k['node']))} (CK-KNIGHT-1..4)")
            for k in c["knights"] if bool(k["active"]) is active)))
    out.append(Layer("ck-wall", "city wall (CK-WALL-1)", "ring", "#4e342e", tuple(
        Glyph(tuple(n), "", None, f"city wall under player {state.buildings.get(tuple(n), ('?',))[0]}'s city at "
                                  f"{node_str(tuple(n))}: 2 more cards in the hand limit (CK-WALL-2)")
        for n in c["walls"])))
    for t in TRACKS:
        h = c["metropolises"].get(t)
        out.append(Layer(f"ck-metropolis-{t}", f"metropolis of {t} (CK-IMP-7)", "triangle", TRACK_COLOUR[t], (
            Glyph(tuple(h["node"]), TRACK_LETTER[t], None,
                  f"player {h['player']}'s metropolis of {t} at {node_str(tuple(h['node']))}: 2 more VP, never "
                  "pillaged (CK-IMP-7, CK-IMP-10)"),) if h else ()))
    out.append(Layer("ck-sideways", "city on its side: a settlement until restored (CK-BARB-5)", "cross", "#d50000",
                     tuple(Glyph(tuple(n), "", None, f"pillaged city at {node_str(tuple(n))}, on its side (CK-BARB-5)")
                           for n in sorted(store.sideways(state)))))
    m = c.get("merchant")
    out.append(Layer("ck-merchant", "merchant (CK-PROG-T3)", "triangle", "#8d6e63", (
        Glyph(tuple(m["hex"]), "M", m["player"],
              f"player {m['player']}'s merchant: 2:1 for this hex's resource and 1 VP (CK-PROG-T3)"),) if m else ()))
    out += [barbarian_panel(state, scen), improvement_panel(state)]
    return out


def barbarian_panel(state: State, scen: Any = None) -> Panel:
    """The barbarian ship's track (its position of the steps to Catan), its strength against the knights."""
    c = store.ck(state)
    o = outcome(state, None, scen)
    pos, steps = c["barbarian"], c["barbarian_steps"]
    per = ", ".join(f"player {p}: {v}" for p, v in o["knights"].items())
    if o["catan_wins"]:
        verdict = ("Catan would win" + (f"; player {o['defender']} would be Defender of Catan"
                                        if o["defender"] is not None else
                                        f"; players {', '.join(map(str, o['tied_defenders']))} tie and draw a card"
                                        if o["tied_defenders"] else "") + " (CK-BARB-6)")
    else:
        verdict = ("the barbarians would win: " + (
            f"player(s) {', '.join(map(str, o['lose_city']))} would lose a city" if o["lose_city"]
            else "nobody has a city to lose") + " (CK-BARB-4)")
    lines = (f"ship {pos} of {steps} spaces: it attacks in {steps - pos} more ship face(s) (CK-BARB-1); "
             f"attacks so far {c['attacks']}, robber {'awake' if c['attacks'] else 'asleep'} (CK-SEVEN-3)",
             f"strength {o['barbarians']} (cities, CK-BARB-2) against defence {o['defence']} (active knights, "
             f"CK-BARB-3: {per}): {verdict}")
    return Panel("ck-barbarians", "Barbarians", lines, track=(pos, steps))


def improvement_panel(state: State) -> Panel:
    """City improvement levels per player and track, the metropolis holders, the Defender of Catan VP."""
    c = store.ck(state)
    lines = []
    for p in range(state.num_players):
        lv = c["improvements"].get(str(p), {})
        metro = [t for t, h in c["metropolises"].items() if h and h["player"] == p]
        lines.append(f"player {p}: " + ", ".join(f"{t} {lv.get(t, 0)}" for t in TRACKS)
                     + (f"; metropolis of {' and '.join(metro)}" if metro else "")
                     + (f"; Defender of Catan {c['defenders'].get(str(p), 0)}" if c["defenders"].get(str(p)) else ""))
    return Panel("ck-improvements", "City improvements (CK-IMP-1; metropolis at 4, CK-IMP-7)", tuple(lines))


__all__ = ["board_layers", "barbarian_panel", "improvement_panel"]
