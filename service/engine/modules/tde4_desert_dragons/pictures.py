"""What "The Desert Dragons" (TDE4) adds to the board picture and to the explanations (``explain=true``):
the dragons on the deserts (with their number) and on the landscape hexes, the hexes the next roll of
their number would invade, the blocked roads and buildings; in words, the gathering, the invasion and its
next targets, what is blocked and why, the scenario's 7 and its knights, the VP by source.

Pure functions of the state (no drawing code: ``service/render`` draws the layers).
"""
from __future__ import annotations

from typing import Any

from ...geometry import edge_hexes, edge_str, hex_str, node_hexes, node_str
from ...picture import Glyph, Layer
from ...state import State
from . import dragons as D

DRAGON = "#b71c1c"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('x') else 's'}"


def dragon_layers(state: State) -> list[Layer]:
    counts = D.desert_counts(state)
    mine = sorted(D.landscape_dragons(state), key=D.order)
    holding = D.dragon_hexes(state)
    desert = Layer("desert-dragons", "dragons on a desert (how many, TDE4-009/010)", "diamond", "#4a148c",
                   tuple(Glyph(h, str(n), None, f"desert {hex_str(h)}: {_plural(n, 'dragon')} (TDE4-010)")
                         for h, n in sorted(counts.items(), key=lambda x: D.order(x[0])) if n > 0))
    landscape = Layer("dragon", "dragon on a landscape hex (it produces nothing, TDE4-016)", "diamond", DRAGON,
                      tuple(Glyph(h, "D", None, f"a dragon on {state.hexes[h].terrain} {hex_str(h)}: no production "
                                  "(TDE4-016); a knight removes it (TDE4-021)") for h in mine if h in state.hexes))
    targets = []
    for n, hexes in sorted(D.invasion_targets(state).items(), key=lambda kv: int(kv[0])):
        for h in hexes:
            targets.append(Glyph(tuple(h), "", None, f"a roll of {n} sends a dragon onto {hex_str(tuple(h))} "
                                 "(TDE4-012..015, R-065)"))
    target = Layer("invasion-target", "next invasion target (on a roll of its number, R-065)", "ring", "#ff6f00",
                   tuple(sorted(targets, key=lambda g: D.order(g.at))))
    roads = Layer("blocked-road", "blocked road (between two dragon hexes: no trade route, no road onto it, "
                  "TDE4-018)", "band", "#000000",
                  tuple(Glyph(e, "", None, f"player {p}'s road {edge_str(e)} is blocked (TDE4-018, R-066)")
                        for e, p in D.blocked_roads(state, holding)))
    buildings = Layer("blocked-building", "blocked building (dragons all round: 0 VP, TDE4-019)", "cross", "#000000",
                      tuple(Glyph(n, "", None, f"player {p}'s {k} at {node_str(n)} is blocked: 0 VP (TDE4-019, R-066)")
                            for n, p, k in D.blocked_buildings(state, holding)))
    return [desert, landscape, target, roads, buildings]


# -- explanations -----------------------------------------------------------------------------------


def dragons_explained(state: State, scen: Any) -> dict[str, Any]:
    counts = D.desert_counts(state)
    done, gone = D.gathered(state), D.removed(state)
    mine = sorted(D.landscape_dragons(state), key=D.order)
    per = D.PER_BUILD.get(state.num_players, 2)
    on_deserts = ", ".join(f"{hex_str(h)}: {n}" for h, n in sorted(counts.items(), key=lambda x: D.order(x[0])))
    gathering = (f"{done} of the {D.DRAGONS} dragons gathered, {max(0, D.DRAGONS - done)} beside the board "
                 f"(TDE4-005); every settlement or city built after the set-up adds {per} with {state.num_players} "
                 f"players (TDE4-009; set-up buildings add none, R-064), each onto the desert with the fewest, the "
                 f"first north to south on a tie (TDE4-010, R-064); on the deserts now: {on_deserts or 'no desert'}")
    if D.invasion_active(state):
        targets = D.invasion_targets(state)
        nxt = "; ".join(f"a {n} invades {', '.join(hex_str(tuple(h)) for h in hs)}" for n, hs in
                        sorted(targets.items(), key=lambda kv: int(kv[0]))) or "no roll would invade a hex now"
        invasion = ("the invasion is on (all 18 gathered, TDE4-011, R-064): after a roll's production (TDE4-017), "
                    "every landscape hex of the number rolled next to a dragon's hex, with none on it, takes one "
                    "from the desert holding the most (TDE4-012..015), judged on the dragons before the roll: no "
                    f"chaining within a roll (R-065); next: {nxt}")
    else:
        targets = {}
        invasion = (f"no invasion yet: it starts on the roll after the 18th dragon is gathered (TDE4-011, R-064), "
                    f"{D.DRAGONS - done} to go")
    hexes = (f"{_plural(len(mine), 'landscape hex')} hold a dragon and produce nothing (TDE4-016): "
             + ", ".join(f"{state.hexes[h].terrain} {hex_str(h)}" for h in mine if h in state.hexes)
             if mine else "no landscape hex holds a dragon")
    knights = (f"{_plural(gone, 'dragon')} removed by knights; a knight removes the dragon of a landscape hex (not "
               "a desert's), steals nothing, and there is no Largest Army (TDE4-021/022, R-067); a freed hex "
               "produces from the next roll (TDE4-023)")
    return {"deserts": {hex_str(h): n for h, n in sorted(counts.items(), key=lambda x: D.order(x[0]))},
            "hexes": [list(h) for h in mine], "gathered": done, "removed": gone, "invasion": D.invasion_active(state),
            "invasion_targets": targets,
            "why": "; ".join((gathering, invasion, hexes, knights))}


def blocked_explained(state: State) -> dict[str, Any]:
    holding = D.dragon_hexes(state)
    roads = [{"edge": list(e), "player": p,
              "why": f"player {p}'s road {edge_str(e)} lies between two hexes holding dragons "
                     f"({D.why_blocked(state, edge_hexes(e))}): it is left out of the trade route and no road "
                     "is built onto it (TDE4-018, R-066)"} for e, p in D.blocked_roads(state, holding)]
    blds = [{"node": list(n), "player": p, "kind": k,
             "why": f"player {p}'s {k} at {node_str(n)} has a dragon on every hex round it "
                    f"({D.why_blocked(state, node_hexes(n))}): it scores 0 VP and produces nothing"
                    + ("; it may still become a city, 0 VP while blocked" if k == "settlement" else "")
                    + " (TDE4-019, R-066)"} for n, p, k in D.blocked_buildings(state, holding)]
    why = (f"{_plural(len(roads), 'road')} and {_plural(len(blds), 'building')} blocked. A road is blocked when "
           "both hexes at its sides are land holding a dragon (a desert with its dragons counts), a building when "
           "every hex at its corner is (TDE4-018/019, R-066); a building on the coast never is (TDE4-020); "
           "blocks are lifted as soon as a knight frees a hex (TDE4-023)")
    return {"roads": roads, "buildings": blds, "why": why}


def seven_explained() -> dict[str, Any]:
    return {"why": "no robber and no pirate (TDE4-007): on a 7, players holding more than 7 resource cards discard "
                   "half (rounded down), then the roller may take 1 random card from any one other player's hand "
                   "(TDE4-008, R-069)"}


__all__ = ["dragon_layers", "dragons_explained", "blocked_explained", "seven_explained"]
