"""Behaviour digests: seeded random games over every scenario and player count, hashed step by step.

    .venv/bin/python bench/digests.py --games 200 --out before.json      # record
    .venv/bin/python bench/digests.py --games 200 --compare before.json  # after a change: same bytes?

``--ck N`` adds N games with Cities & Knights stacked onto the scenarios that take it (keys ``SID+ck``).
``--compare`` plays exactly the games the file records (scenario, players, seed), so scenarios added
since leave the comparison as it was.

Each game is played by ``selfplay.play_game``; at every step the full verdict text (state, events,
derived values, as the API writes it) and the legal-action list of the acting player (as
``POST /v1/legal-actions`` writes it) feed one running SHA-256 per game. A refactoring that changes no
behaviour leaves every digest as it was; ``--compare`` prints the games whose digest differs (exit 1).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


STRIP = None
DROP: tuple[str, ...] = ()


CK = "cities_and_knights"


def game_digest(job: tuple[str, int, int, int, bool]) -> tuple[str, str, int]:
    from service.api.service import verdict_text
    from service.engine.legal import legal_actions
    from service.engine.scenarios import get_scenario, with_expansions
    from service.engine.selfplay import play_game
    import orjson
    sid, n, seed, cap, ck = job
    options = {CK: True} if ck else None
    h = hashlib.sha256()
    scen = with_expansions(get_scenario(sid), options)
    graphs = {}

    def step(state, action, verdict):
        text = verdict_text(verdict)
        if (STRIP and sid != "GOLD") or DROP:   # keys the compared version has and this one lacks, or the reverse
            v = json.loads(text)
            if STRIP and sid != "GOLD":
                for p in (v.get("state") or {}).get("players", []):
                    p.pop(STRIP, None)
            for k in DROP:
                v.pop(k, None)
            text = json.dumps(v, separators=(",", ":"), ensure_ascii=False)
        h.update(text.encode())
        if verdict.graph is not None:
            graphs["g"] = verdict.graph

    g = play_game(sid, n, seed, max_actions=cap, check=False, on_step=step, options=options)
    # the legal actions of every player in the final position
    from service.engine.mapgraph import MapGraph
    graph = MapGraph.build(g.final.terrain_map())
    for p in range(n):
        la = legal_actions(g.final, graph, scen, p)
        h.update(orjson.dumps(la.to_json() if hasattr(la, "to_json") else repr(la)))
    return f"{sid}{'+ck' if ck else ''}/{n}/{seed}", h.hexdigest(), g.actions


def ck_scenarios() -> list[tuple[str, int]]:
    """(scenario, players) pairs of the games Cities & Knights stacks onto (not those with it built in)."""
    from service.engine.scenarios import all_games, get_scenario
    from service.engine.selfplay import playable_scenarios
    stacked = {label.split(" with ")[0] for label in all_games() if label.endswith(" with " + CK)}
    return [(sid, n) for sid, n in playable_scenarios() if sid in stacked
            and CK not in get_scenario(sid).composition.modules]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--cap", type=int, default=150)
    ap.add_argument("--ck", type=int, default=40, help="games more with Cities & Knights switched on, over the "
                    "scenarios that take it (keys SID+ck/players/seed)")
    ap.add_argument("--ck-cap", type=int, default=500, help="actions per Cities & Knights game (long enough for "
                    "barbarian attacks)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--compare")
    ap.add_argument("--drop", help="verdict keys left out of the comparison (comma-separated)")
    ap.add_argument("--strip-player-key", help="compare without this player key (outside GOLD)")
    args = ap.parse_args()
    global STRIP, DROP
    STRIP = args.strip_player_key
    DROP = tuple(k for k in (args.drop or "").split(",") if k)
    from service.engine.selfplay import playable_scenarios
    pairs = playable_scenarios()
    jobs = [(*pairs[i % len(pairs)], 1 + i // len(pairs), 400 if pairs[i % len(pairs)][0] == "base" else args.cap,
             False) for i in range(args.games)]
    ck_pairs = ck_scenarios()
    jobs += [(*ck_pairs[i % len(ck_pairs)], 1 + i // len(ck_pairs), args.ck_cap, True) for i in range(args.ck)]
    if args.compare:
        # The games the file records, whatever scenarios were added since (a new scenario shifts the
        # round-robin above, and must not make every recorded game look changed).
        recorded = json.loads(Path(args.compare).read_text())
        jobs = [(sid.removesuffix("+ck"), int(n), int(seed),
                 args.ck_cap if sid.endswith("+ck") else 400 if sid == "base" else args.cap, sid.endswith("+ck"))
                for sid, n, seed in (k.split("/") for k in recorded)]
    with ProcessPoolExecutor(args.workers) as ex:
        results = list(ex.map(game_digest, jobs, chunksize=2))
    digests = {k: d for k, d, _ in results}
    print(f"{len(results)} games, {sum(a for *_, a in results)} actions, {len(pairs)} scenario/player pairs")
    if args.out:
        Path(args.out).write_text(json.dumps(digests, indent=1, sort_keys=True))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        diff = sorted(k for k in before if digests.get(k) != before[k])
        print(f"{len(before) - len(diff)} of {len(before)} games identical; differing: {diff[:20]}")
        sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
