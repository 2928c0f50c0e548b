"""Cities & Knights explained in plain words (``explanations.modules``): a barbarian attack now, step by
step (the ship's track, the barbarians' strength, each player's active knights, who loses a city and which
cities they may choose, or who is Defender of Catan), the city improvements and metropolis holders, and
each player's victory points by source.
"""
from __future__ import annotations

from typing import Any

from ...derive import victory_points
from ...geometry import node_str
from ...state import State
from . import store
from .barbarians import outcome, plain_cities
from .data import LEVEL_NAMES, METROPOLIS_LEVEL, TRACKS


def explain_extra(state: State, scen: Any) -> dict[str, Any]:
    if not state.scenario_state.get(store.KEY):
        return {}
    return {"barbarian_attack": barbarian_attack(state, scen), "improvements": improvements(state),
            "ck_victory_points": vp_by_source(state, scen)}


def _players(ps: list) -> str:
    return ", ".join(map(str, ps))


def barbarian_attack(state: State, scen: Any = None) -> dict[str, Any]:
    """What an attack now would do, each step with its rule (the knights ``scen`` lets meet the barbarians)."""
    c = store.ck(state)
    o = outcome(state, None, scen)
    n = state.num_players
    pos, steps = c["barbarian"], c["barbarian_steps"]
    side = store.sideways(state)
    metro = store.metropolis_nodes(state)
    cities = {p: sorted(nd for nd, (q, k) in state.buildings.items() if q == p and k == "city" and nd not in side)
              for p in range(n)}
    knights = {p: [k for k in c["knights"] if k["player"] == p and k["active"]] for p in range(n)}
    double = bool(state.options.get("metropolis_counts_double"))
    out_steps = [
        f"1. the barbarian ship has advanced {pos} of {steps} spaces; it attacks on the {steps}th ship face, "
        f"{steps - pos} more (CK-BARB-1)",
        f"2. the barbarians' strength is {o['barbarians']}: one per city on the board, every player's ("
        + "; ".join(f"player {p}: {len(cs)}" for p, cs in cities.items()) + ")"
        + ("; a metropolis counts twice (the metropolis_counts_double option)" if double else
           "; a city with a metropolis counts once")
        + (f"; {len(side)} city(ies) on their side count as settlements" if side else "") + " (CK-BARB-2)",
        f"3. Catan's defence is {o['defence']}: the strength of every active knight (basic 1, strong 2, mighty 3; "
        "inactive knights count 0): " + "; ".join(
            f"player {p}: {o['knights'][str(p)]}" + (
                " (" + ", ".join(f"{LEVEL_NAMES[k['level']]} at {node_str(tuple(k['node']))}" for k in ks) + ")"
                if ks else "") for p, ks in knights.items()) + " (CK-BARB-3)"
        + ("; with CK-VAR-MEANIES each player may send fewer, counted here as all" if
           state.options.get("CK-VAR-MEANIES") else ""),
    ]
    may_choose: dict[str, list] = {}
    if o["catan_wins"]:
        out_steps.append(f"4. defence {o['defence']} is at least strength {o['barbarians']}: Catan wins (a tie favours "
                         "Catan, CK-BARB-6)")
        if o["defender"] is not None:
            out_steps.append(f"5. player {o['defender']} alone has the strongest active knights "
                             f"({o['knights'][str(o['defender'])]}) and takes a Defender of Catan card, 1 VP "
                             "(CK-BARB-6, CK-BARB-7)")
        elif o["tied_defenders"]:
            out_steps.append(f"5. players {_players(o['tied_defenders'])} tie for the strongest active knights: no "
                             "Defender card; each draws a progress card from a deck of their choice (CK-BARB-6)")
        else:
            out_steps.append("5. nobody has an active knight (the barbarians have no strength): nothing is awarded "
                             "(CK-BARB-12)")
    else:
        out_steps.append(f"4. strength {o['barbarians']} is more than defence {o['defence']}: the barbarians win "
                         "(CK-BARB-4)")
        immune = [p for p in range(n) if not plain_cities(state, p)]
        for p in o["lose_city"]:
            may_choose[str(p)] = [list(x) for x in plain_cities(state, p)]
        out_steps.append(
            (f"5. players without a city the barbarians can take (only settlements or metropolises) are out of the comparison ({_players(immune)}); "
             if immune else "5. ") +
            (f"among the others the lowest knight strength is {o['knights'][str(o['lose_city'][0])]}: player(s) "
             f"{_players(o['lose_city'])} each lose a city, which its owner chooses among their cities without a "
             "metropolis: " + "; ".join(f"player {p}: " + ", ".join(node_str(tuple(x)) for x in xs)
                                        for p, xs in may_choose.items())
             + " (CK-BARB-4, CK-BARB-10, CK-IMP-10); it becomes a settlement, or lies on its side with no "
               "settlement piece left, and loses its wall (CK-BARB-5, CK-WALL-3)"
             if o["lose_city"] else "nobody has a city the barbarians can take (CK-BARB-4, CK-IMP-10)"))
    out_steps.append(f"{len(out_steps) + 1}. afterwards every knight is inactive, the ship goes back to its start, and "
                     "the robber " + ("stays awake" if c["attacks"] else "wakes up") + " (CK-BARB-8, CK-SEVEN-3)")
    return {"position": pos, "steps": steps, "to_attack": steps - pos, "strength": o["barbarians"],
            "defence": o["defence"], "knights": o["knights"], "catan_wins": o["catan_wins"],
            "would_lose_city": o["lose_city"], "may_choose": may_choose, "defender": o["defender"],
            "tied_defenders": o["tied_defenders"], "metropolises": [list(x) for x in sorted(metro)],
            "attack_steps": out_steps, "why": "; ".join(out_steps)}


def improvements(state: State) -> dict[str, Any]:
    c = store.ck(state)
    levels = {str(p): {t: store.level(state, p, t) for t in TRACKS} for p in range(state.num_players)}
    holders = {}
    parts = []
    for t in TRACKS:
        h = c["metropolises"].get(t)
        if h:
            holders[t] = {"player": h["player"], "node": list(h["node"])}
            lvl = levels[str(h["player"])][t]
            keep = ("keeps it for good at level 5 (CK-IMP-9)" if lvl >= 5 else
                    "keeps it until another player first reaches level 5 (CK-IMP-9)")
            parts.append(f"the metropolis of {t} stands on player {h['player']}'s city at {node_str(tuple(h['node']))}: "
                         f"they reached level {METROPOLIS_LEVEL} first (CK-IMP-7) and {keep}")
        else:
            holders[t] = None
            parts.append(f"nobody has reached level {METROPOLIS_LEVEL} in {t}, so its metropolis is unclaimed (CK-IMP-7)")
    lv = "; ".join(f"player {p}: " + ", ".join(f"{t} {v[t]}" for t in TRACKS) for p, v in levels.items())
    return {"levels": levels, "metropolises": holders,
            "why": f"improvement levels ({lv}) are bought one at a time per track (CK-IMP-1); " + "; ".join(parts)}


#: What each VP source is and its rule, as the explanation says it ("<points> from <this>").
_SOURCE = {"settlements": "settlements: 1 each (CK-VP table)", "cities": "cities: 2 each (CK-VP table)",
           "metropolises": "metropolises: 2 more on a city each (CK-IMP-7)",
           "defenders": "Defender of Catan cards: 1 each (CK-BARB-6, CK-BARB-7)",
           "progress_vp": "Printer and Constitution: 1 each, laid face up (CK-PROG-4)",
           "merchant": "the merchant: 1 while controlled (CK-PROG-T3)",
           "sideways_cities": "cities on their side: count as settlements, 1 less each (CK-BARB-5)",
           "longest_road": "the Longest Road card: 2 (CK-VP table)",
           "special": "special victory point tokens: 1 each (SEA-019, CK-SEA-14)"}


def vp_by_source(state: State, scen: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in range(state.num_players):
        vp = victory_points(state, scen, p)
        items = []
        for k, v in vp.items():
            if k == "total" or not v:
                continue
            said = _SOURCE.get(k, f"{k.replace('_', ' ')}: the scenario's own source")
            items.append({"source": k, "points": v, "why": f"{v} from {said}"})
        out[str(p)] = {"total": vp["total"], "sources": items,
                       "why": f"player {p} has {vp['total']} of the {state.vp_target} VP needed on their own turn "
                              "(CK-VP-1" + (", raised by 2 with Seafarers, CK-SEA-1" if scen.ships else "") + "): "
                              + (", ".join(i["why"] for i in items) or "nothing yet")}
    return out


__all__ = ["explain_extra", "barbarian_attack", "improvements", "vp_by_source"]
