"""Seeded catanatron games (its own random players), written in its game JSON (``catanatron.json.GameEncoder``).

Run with a Python that has catanatron installed (a bench virtualenv, never a dependency of the service):

    python3 -m venv /tmp/catbench && /tmp/catbench/bin/pip install catanatron
    /tmp/catbench/bin/python bench/catanatron_games.py --games 200 --out /tmp/catanatron-games

Game ``i`` is played with ``random.seed(i)`` by 3 or 4 ``RandomPlayer``s (even seeds 4 players, odd 3), to its
end or catanatron's turn limit. Then ``bench/records_catanatron.py`` imports and replays them.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def play(seed: int) -> str:
    from catanatron.game import Game
    from catanatron.json import GameEncoder
    from catanatron.models.player import Color, RandomPlayer
    random.seed(seed)
    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE][: 4 if seed % 2 == 0 else 3]
    game = Game([RandomPlayer(c) for c in colors], seed=seed)
    game.play()
    return json.dumps(game, cls=GameEncoder)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for seed in range(a.first, a.first + a.games):
        (a.out / f"catanatron-{seed:04d}.json").write_text(play(seed), encoding="utf-8")
    print(f"{a.games} games written to {a.out}")


if __name__ == "__main__":
    main()
