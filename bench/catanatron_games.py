"""Seeded catanatron games (its own random players), written in its game JSON (``catanatron.json.GameEncoder``).

Run with a Python that has catanatron installed (a bench virtualenv, never a dependency of the service):

    python3 -m venv /tmp/catbench && /tmp/catbench/bin/pip install catanatron
    /tmp/catbench/bin/python bench/catanatron_games.py --games 200 --out /tmp/catanatron-games

Game ``i`` is played with ``random.seed(i)`` by 3 or 4 ``RandomPlayer``s (even seeds 4 players, odd 3), to its
end or catanatron's turn limit. ``--player fresh-cards-kept``: the same random player, never playing a
development card the turn it bought it (catanatron 3.2 allows that; our rules do not, BASE-DEV-4), so that
more games reach their end and their derived values can be compared. Then ``bench/records_catanatron.py`` imports and replays them.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


PLAYS = {"PLAY_KNIGHT_CARD": "KNIGHT", "PLAY_YEAR_OF_PLENTY": "YEAR_OF_PLENTY", "PLAY_MONOPOLY": "MONOPOLY",
         "PLAY_ROAD_BUILDING": "ROAD_BUILDING"}


def play(seed: int, player: str = "random") -> str:
    from catanatron.game import Game
    from catanatron.json import GameEncoder
    from catanatron.models.player import Color, RandomPlayer
    random.seed(seed)
    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE][: 4 if seed % 2 == 0 else 3]

    class FreshCardsKept(RandomPlayer):
        """catanatron's random player, never playing a card bought this turn (BASE-DEV-4), which catanatron
        3.2 allows: the same random choice among the actions left."""

        def decide(self, game, playable_actions):
            bought: dict[str, int] = {}
            for a in reversed(game.state.actions):
                if a.action_type.value == "END_TURN":
                    break
                if a.action_type.value == "BUY_DEVELOPMENT_CARD" and a.color == self.color:
                    bought[a.value] = bought.get(a.value, 0) + 1
            key = f"P{game.state.color_to_index[self.color]}_"
            ok = [a for a in playable_actions if a.action_type.value not in PLAYS
                  or game.state.player_state[key + PLAYS[a.action_type.value] + "_IN_HAND"]
                  > bought.get(PLAYS[a.action_type.value], 0)]
            return random.choice(ok or playable_actions)

    cls = RandomPlayer if player == "random" else FreshCardsKept
    game = Game([cls(c) for c in colors], seed=seed)
    game.play()
    return json.dumps(game, cls=GameEncoder)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--player", choices=("random", "fresh-cards-kept"), default="random",
                    help="catanatron's RandomPlayer, or the same never playing a card bought this turn")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for seed in range(a.first, a.first + a.games):
        (a.out / f"catanatron-{seed:04d}.json").write_text(play(seed, a.player), encoding="utf-8")
    print(f"{a.games} games written to {a.out}")


if __name__ == "__main__":
    main()
