"""Soak: many random full games over every scenario that can start a new game, invariants after every action.

    .venv/bin/python bench/soak.py                       # 1,000 games, 2 worker processes
    .venv/bin/python bench/soak.py --games 64 --workers 1
    .venv/bin/python bench/soak.py --options '{"cities_and_knights": true}' --only base,SC01,GOLD,TDE2 \
        --cap 6000 --games 16                          # Cities & Knights games played to a winner
    .venv/bin/python bench/soak.py --only TDE --games 80 --cap 3000   # TD&E 1-4, every player count, to the end
    .venv/bin/python bench/soak.py --players 5,6 --games 8 --workers 1          # the 5-6 extension, to a winner

Games go round the (scenario, player count) pairs of ``selfplay.playable_scenarios()`` with seeds 1, 2, ...
Each is played by ``service.engine.selfplay.play_game`` (seeded random legal actions, leaning towards
building) with every invariant checked after every action: cards conserved, pieces within supply, the
position consistent, VP = the sum of its sources, exactly one player to act, the posted state unchanged by
judging (canonical JSON before and after), the winner the rules give; at the end the action log replayed
from the initial state must give the final state byte for byte. A game stops when it is won or at the
action cap (``--cap`` for Seafarers scenarios, ``--base-cap`` for the base game: random play on the big
Seafarers maps rarely reaches its VP target within a bounded run; capped games are counted and reported).
A sample of games (``--http``) is also played through the HTTP API (Flask test client): every answer's
state must equal the engine's, byte for byte.

Prints the number of games (won / capped), actions, failures (must be 0) and actions per second
(wall time, all workers together; the per-worker CPU rate is printed too).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _canon(d) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def engine_game(job: tuple) -> dict:
    from service.api.replay import canonical_json
    from service.engine.selfplay import play_game
    sid, n, seed, cap, options = job
    t = time.process_time()
    g = play_game(sid, n, seed, max_actions=cap, dump=canonical_json, options=options)
    return {"scenario": sid, "players": n, "seed": seed, "actions": g.actions, "ended": g.ended,
            "winner": g.winner, "turn": g.final.turn, "failures": g.failures[:5], "cpu": time.process_time() - t}


def http_game(client, sid: str, n: int, seed: int, cap: int, options=None) -> dict:
    """One random game through the HTTP API: new game, then one ``/v1/adjudicate`` per action; the state of
    every answer must equal the engine's own, byte for byte (canonical JSON)."""
    from service.api.codec import dump_state
    from service.engine.legal import action_json, legal_actions, players_to_act
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate
    from service.engine.rng import Rng
    from service.engine.scenarios import get_scenario, with_expansions
    from service.engine.selfplay import avoiding, leaning, pick_action
    scen = with_expansions(get_scenario(sid), options, n)
    failures: list[str] = []
    state = scen.new_game(n, seed, options) if options else scen.new_game(n, seed)
    options = options or state.options or None       # a scenario played only with an expansion names it
    r = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": seed, **({"options": options}
                                                                                     if options else {})})
    if r.status_code not in (200, 201):
        return {"actions": 0, "failures": [f"POST /v1/games answered {r.status_code}"]}
    posted = r.get_json()["state"]
    if _canon(dump_state(state)) != _canon(posted):
        failures.append("POST /v1/games gave another state than Scenario.new_game")
    graph = MapGraph.build(state.terrain_map())
    rng = Rng(seed, 0x5EED)
    actions = 0
    while state.phase != "game_over" and actions < cap and not failures:
        to_act = players_to_act(state)
        a = pick_action(legal_actions(state, graph, scen, to_act[rng.below(len(to_act))]), rng, leaning(scen), state,
                        avoiding(scen))
        if a is None:
            failures.append(f"no legal action in phase {state.phase}")
            break
        body = {"state": posted, "action": action_json(a)}
        sent = _canon(body)
        r = client.post("/v1/adjudicate", json=body)
        if r.status_code != 200:
            failures.append(f"{a.type}: HTTP {r.status_code} {r.get_data(as_text=True)[:200]}")
            break
        if _canon(body) != sent:
            failures.append(f"{a.type}: the request body was changed")
        verdict = r.get_json()
        v = adjudicate(state, a, graph, scen, with_derived=False)
        if not verdict["legal"] or not v.legal:
            failures.append(f"{a.type}: legal over HTTP {verdict['legal']}, in the engine {v.legal}")
            break
        if _canon(verdict["state"]) != _canon(dump_state(v.state)):
            failures.append(f"{a.type}: the answer's state differs from the engine's")
        state, posted = v.state, verdict["state"]
        actions += 1
    return {"scenario": sid, "players": n, "seed": seed, "actions": actions, "ended": state.phase,
            "failures": failures}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cap", type=int, default=120, help="action cap of a Seafarers scenario game")
    ap.add_argument("--base-cap", type=int, default=3000, help="action cap of a base game")
    ap.add_argument("--http", type=int, default=4, help="games also played through the HTTP API")
    ap.add_argument("--json")
    ap.add_argument("--only", "--scenarios", dest="only", default=None,
                    help="play only these scenarios: ids or id prefixes, comma separated (e.g. TDE for TDE1..TDE4)")
    ap.add_argument("--options", default=None,
                    help='game options as JSON, e.g. \'{"cities_and_knights": true}\' (expansions included)')
    ap.add_argument("--players", default=None,
                    help="play these player counts (comma separated) instead of each scenario's own, e.g. 5,6 for "
                         "the 5-6 extension (a scenario refusing a count is left out)")
    args = ap.parse_args()
    from service.engine.selfplay import playable_scenarios
    pairs = playable_scenarios()
    if args.players:
        from service.engine.scenarios import GameRefused, start_game
        counts = [int(x) for x in args.players.split(",") if x.strip()]

        def starts(sid: str, n: int) -> bool:
            try:
                start_game(sid, n, 1)
                return True
            except GameRefused:
                return False
        pairs = [(sid, n) for sid in dict.fromkeys(sid for sid, _ in pairs) for n in counts if starts(sid, n)]
    if args.only:
        wanted = tuple(x.strip() for x in args.only.split(",") if x.strip())
        pairs = [(sid, n) for sid, n in pairs if sid.startswith(wanted)]
    options = json.loads(args.options) if args.options else None
    if options:
        from service.engine.scenarios import get_scenario
        pairs = [(sid, n) for sid, n in pairs if not get_scenario(sid).option_problems(options, n)]
    jobs = []
    for i in range(args.games):
        sid, n = pairs[i % len(pairs)]
        jobs.append((sid, n, 1 + i // len(pairs), args.base_cap if sid == "base" else args.cap, options))
    t0 = time.perf_counter()
    results = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            for res in ex.map(engine_game, jobs, chunksize=4):
                results.append(res)
    else:
        results = [engine_game(j) for j in jobs]
    wall = time.perf_counter() - t0
    actions = sum(r["actions"] for r in results)
    cpu = sum(r["cpu"] for r in results)
    failed = [r for r in results if r["failures"]]
    ended = Counter(r["ended"] for r in results)
    per = {}
    for r in results:
        k = f"{r['scenario']}/{r['players']}"
        e = per.setdefault(k, {"games": 0, "won": 0, "actions": 0})
        e["games"] += 1
        e["won"] += r["ended"] == "won"
        e["actions"] += r["actions"]
    http = []
    if args.http:
        from service.api import create_app
        client = create_app({"TESTING": True}).test_client()
        for i in range(args.http):
            sid, n = pairs[(i * 5) % len(pairs)]
            http.append(http_game(client, sid, n, 100 + i, 150, options))
    summary = {
        "games": len(results), "won": ended.get("won", 0), "capped": ended.get("action cap", 0),
        "actions": actions, "failures": len(failed), "wall_s": round(wall, 1),
        "actions_per_s": round(actions / wall, 1), "actions_per_cpu_s": round(actions / cpu, 1),
        "http_games": len(http), "http_actions": sum(h["actions"] for h in http),
        "http_failures": sum(1 for h in http if h["failures"]),
        "by_scenario": per,
    }
    print(json.dumps(summary, indent=1))
    for r in failed[:10]:
        print("FAILED", r["scenario"], r["players"], r["seed"], r["failures"])
    for h in http:
        if h["failures"]:
            print("HTTP FAILED", h)
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "games": results, "http": http}, indent=1))
    sys.exit(1 if failed or summary["http_failures"] else 0)


if __name__ == "__main__":
    main()
