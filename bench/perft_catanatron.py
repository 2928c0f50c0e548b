"""The base game's set-up perft counted by another engine, catanatron, to check ours against.

catanatron is never a dependency of the service: it runs in a virtualenv of its own, made for this bench,
and this script imports nothing of the service (it only reads the published table to compare with):

    python3 -m venv /tmp/catanatron-venv && /tmp/catanatron-venv/bin/pip install catanatron
    nice /tmp/catanatron-venv/bin/python bench/perft_catanatron.py --players 3 4 --depth 5 \\
        --compare tests/fixtures/perft_tables.json

It counts, from catanatron's own opening position (a random base board: the set-up counts depend only on
the board's shape, which every base board shares), the sequences of ``depth`` playable actions (the
initial settlements and roads), the leaf level counted by the size of the playable-action list as ours
is, and compares each depth with the ``base`` rows of the table (exit 1 on a difference).
"""
from __future__ import annotations

import argparse
import json
import sys
import time


def count(game, depth: int, stats: dict) -> int:
    actions = game.state.playable_actions
    stats["lists"] += 1
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        g = game.copy()
        g.execute(a)
        total += count(g, depth - 1, stats)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", help="the published table (JSON) to compare with")
    args = ap.parse_args()
    from catanatron import Color, Game, RandomPlayer
    import catanatron
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    out: dict[str, list[int]] = {}
    for n in args.players:
        game = Game([RandomPlayer(c) for c in colors[:n]], seed=args.seed)
        counts = []
        for d in range(1, args.depth + 1):
            stats = {"lists": 0}
            t0 = time.process_time()
            counts.append(count(game, d, stats))
            dt = time.process_time() - t0
            print(f"catanatron {getattr(catanatron, '__version__', '?')} base {n} players perft({d}) = "
                  f"{counts[-1]}  ({stats['lists']} lists, {dt:.1f} s, {stats['lists'] / max(dt, 1e-9):,.0f} lists/s)",
                  file=sys.stderr)
        out[str(n)] = counts
    print(json.dumps(out))
    if not args.compare:
        return 0
    with open(args.compare, encoding="utf-8") as f:
        table = json.load(f)
    bad = 0
    for row in table["rows"]:
        if row["scenario"] != "base" or row.get("options") or str(row["players"]) not in out:
            continue
        theirs = out[str(row["players"])]
        ours = row["counts"]
        k = min(len(ours), len(theirs))
        same = ours[:k] == theirs[:k]
        print(f"base {row['players']} players, depths 1..{k}: ours {ours[:k]}, catanatron {theirs[:k]}: "
              f"{'same' if same else 'DIFFERENT'}")
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
