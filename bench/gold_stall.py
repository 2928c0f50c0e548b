"""The GOLD game that stalls at two settlements each (soak seed 90002, 3 players): a dead end of the rules,
a gap in the legal-action list, or the random policy?

    .venv/bin/python bench/gold_stall.py                 # 6,000 actions (~1,800 turns), a few minutes
    .venv/bin/python bench/gold_stall.py --actions 20000

1. Plays the soak's game (``selfplay.play_game("GOLD", 3, 90002)``) and counts what was played and what
   the acting player held: how often the four cards of a settlement were in hand, and with 2 gold.
2. At positions along the game, with the hands as they were and with every hand made rich, judges every
   ``build_settlement``/``build_city``/``build_road``/``build_ship`` on the board and reports any legal
   one the legal-action list leaves out (a gap), and how many settlement sites are legal when affordable
   (none would be a dead end of the rules).
3. From the final position, a saving policy (keep the cards a settlement needs, buy gold with the rest,
   trade spare cards at a harbour for a missing one, build whenever listed) plays on and reports how many
   turns the first settlements take.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=90002)
    args = ap.parse_args()
    from service.engine.core import Action
    from service.engine.legal import action_json, legal_actions, players_to_act, random_action
    from service.engine.rng import Rng
    from service.engine.mapgraph import RESOURCES, MapGraph
    from service.engine.referee import adjudicate
    from service.engine.scenarios import get_scenario
    from service.engine.selfplay import play_game

    scen = get_scenario("GOLD")
    played: collections.Counter = collections.Counter()
    held: collections.Counter = collections.Counter()
    samples = []

    def step(s, a, v):
        played[a.type] += 1
        if s.phase == "main" and a.player == s.current_player:
            p = s.players[s.current_player]
            held["main-phase actions"] += 1
            if all(p.resources[r] >= 1 for r in ("lumber", "brick", "wool", "grain")):
                held["the four settlement cards"] += 1
                if p.gold >= 2:
                    held["... and 2 gold"] += 1
            held[f"gold {min(p.gold, 3)}{'+' if p.gold >= 3 else ''}"] += 1
            if sum(played.values()) % max(1, args.actions // 12) == 0:
                samples.append(s)

    g = play_game("GOLD", 3, args.seed, max_actions=args.actions, check=False, on_step=step)
    graph = MapGraph.build(g.initial.terrain_map())
    final = g.final
    samples.append(final)

    def key(a):
        return json.dumps(action_json(a), sort_keys=True)

    unlisted: collections.Counter = collections.Counter()
    sites = []
    judged = 0
    for s in samples:
        if s.phase != "main":
            continue
        for rich in (False, True):
            x = s.copy()
            if rich:
                for p in x.players:
                    p.resources = {r: 10 for r in RESOURCES}
                    p.gold = 20
            who = x.current_player
            listed = {key(a) for acts in legal_actions(x, graph, scen, who).actions.values() for a in acts}
            legal_sites = 0
            for t, coords in (("build_settlement", graph.nodes), ("build_city", graph.nodes),
                              ("build_road", graph.edges), ("build_ship", graph.edges)):
                for c in coords:
                    a = Action(t, who, {"node" if t in ("build_settlement", "build_city") else "edge": c})
                    judged += 1
                    if adjudicate(x, a, graph, scen, with_derived=False).legal:
                        legal_sites += t == "build_settlement"
                        if key(a) not in listed:
                            unlisted[t] += 1
            if rich:
                sites.append((s.turn, legal_sites))

    # a saving policy from the final position
    rng = Rng(args.seed, 1)
    s, built, turns0, stopped = final, collections.Counter(), final.turn, "20,000 actions without 3 settlements"
    need = {"lumber": 1, "brick": 1, "wool": 1, "grain": 1}
    for _ in range(20_000):
        if s.phase == "game_over" or built["build_settlement"] >= 3:
            stopped = "the game was won" if s.phase == "game_over" else "3 settlements built"
            break
        la = None
        for who in players_to_act(s):
            la = legal_actions(s, graph, scen, who)
            if la.actions or la.ranges:
                break
        acts = la.actions if la is not None else {}
        if la is None or not (la.actions or la.ranges):
            stopped = f"nothing listed in phase {s.phase}"
            break
        pick = next((acts[t][0] for t in ("build_settlement", "build_city", "build_ship") if t in acts), None)
        if pick is None and s.phase == "main":
            p = s.players[who]
            spare = [r for r in RESOURCES for _ in range(max(0, p.resources[r] - need.get(r, 0)))]
            if p.gold < 2 and len(spare) >= 3:
                c = Action("gold_trade", who, {"give": dict(collections.Counter(spare[:3])), "get": {"gold": 1}})
                pick = c if adjudicate(s, c, graph, scen, with_derived=False).legal else None
            if pick is None:   # a harbour or 4:1 trade of spare cards for a missing settlement card
                pick = next((m for m in acts.get("maritime_trade", [])
                             if any(p.resources[r] == 0 and (m.get("get") or {}).get(r) for r in need)
                             and all(p.resources[r] - k >= need.get(r, 0) for r, k in (m.get("give") or {}).items())),
                            None)
            pick = pick or acts["end_turn"][0]
        pick = pick or random_action(la, rng)   # (discards, the robber: any legal choice)
        v = adjudicate(s, pick, graph, scen, with_derived=False)
        if not v.legal:
            stopped = f"{pick.type} judged illegal: {[x.rule for x in v.violations]}"
            break
        if pick.type.startswith("build_"):
            built[pick.type] += 1
        s = v.state

    print(json.dumps({
        "game": {"actions": g.actions, "turns": final.turn, "ended": g.ended,
                 "buildings": dict(collections.Counter(f"{b[1]}s of {b[0]}" for b in final.buildings.values())),
                 "played": dict(played.most_common())},
        "acting player held": dict(held),
        "legal-action list": {"positions": len(samples) * 2, "candidates judged": judged,
                              "legal but not listed": dict(unlisted)},
        "settlement sites legal with a rich hand (turn, sites)": sites,
        "saving policy from the final position": {"turns": s.turn - turns0, "built": dict(built),
                                                   "stopped": stopped},
    }, indent=1))


if __name__ == "__main__":
    main()
