"""Playing a game through a client generated from openapi.yaml (tests/test_client_generation.py).

A client is given as three functions over its own types: ``new_game(body) -> state``,
``legal(state, player) -> listing`` (as plain JSON, for choosing) and ``adjudicate(state, action_json) ->
(legal, violations, state)``. The state stays in the client's own model from answer to request: whatever
the client's default serialisation writes is what the service must accept (decision D-not-in-this-game,
docs/clients.md)."""
from __future__ import annotations

import random
from typing import Any, Callable

from service.engine.scenarios import GameRefused, all_games, start_game


def games() -> list[tuple[str, str, int, dict[str, Any]]]:
    """Every game ``POST /v1/games`` can start: (label, scenario, players, options)."""
    out = []
    for label, g in all_games().items():
        sid, _, option = label.partition(" with ")
        opts = {option: True} if option else {}
        try:
            start_game(sid, max(g.players), 1, opts)
        except GameRefused:     # (no map of its own, or an option it needs)
            continue
        out.append((label, sid, max(g.players), opts))
    return out


def play(new_game: Callable[[dict], Any], legal: Callable[[Any, int | None], dict],
         adjudicate: Callable[[Any, dict], tuple[bool, list, Any]], scenario: str, players: int,
         options: dict[str, Any], moves: int, seed: int = 1) -> int:
    """Plays up to ``moves`` legal actions chosen at random (seeded) from the listings; every action the
    service listed must be judged legal on the state as the client posts it back. Returns the moves made."""
    rng = random.Random(seed)
    body: dict[str, Any] = {"scenario": scenario, "players": players, "seed": seed}
    if options:
        body["options"] = options
    state = new_game(body)
    made = 0
    for _ in range(moves):
        listing = legal(state, None)
        if listing["players_to_act"] and listing["player"] not in listing["players_to_act"]:
            listing = legal(state, listing["players_to_act"][0])
        choices = [a for acts in listing["actions"].values() for a in acts]
        choices += [r["example"] for rs in listing.get("ranges", {}).values() for r in rs if r.get("example")]
        if not choices:
            break
        kinds = sorted({a["type"] for a in choices})
        kind = rng.choice(kinds)
        action = rng.choice([a for a in choices if a["type"] == kind])
        ok, violations, after = adjudicate(state, action)
        assert ok, (scenario, options, action, violations)
        state = after
        made += 1
    return made
