"""Every state the service answers is accepted when posted back, and answers the same (item: states the
service answers but refuses). Seeded random games of every scenario, alone and with Cities & Knights where
the scenario takes it: the state of each verdict sampled is dumped as the API writes it, loaded as the API
loads a posted state (every consistency check, no tag), and must give the same state back (as JSON, key order aside) and the same
derived values.

The default run plays a short stretch of each game (``POSTED_BACK_ACTIONS``, default 40, every
``POSTED_BACK_EVERY``-th verdict and the last); the ``slow`` test (``RUN_SLOW=1``) plays each game to its end and checks every
verdict (GOLD with C&K: a pillaged city keeps the ships it homes, R-044; TDE6 with C&K: a game won on a roll
keeps the gold picks it left owed)."""
from __future__ import annotations

import os
from typing import Any

import orjson
import pytest

from service.api.codec import ENCODE, dump_state
from service.api.errors import Problem
from service.api.service import parse_state_where
from service.cache import GraphCache
from service.engine.derive import derive
from service.engine.scenarios import all_games, scenario_of
from service.engine.selfplay import play_game, playable_scenarios

CK = {"cities_and_knights": True}
ACTIONS = int(os.environ.get("POSTED_BACK_ACTIONS", "40"))
EVERY = int(os.environ.get("POSTED_BACK_EVERY", "5"))
_CACHE = GraphCache()


def _games() -> list[tuple[str, int, Any]]:
    stackable = all_games()
    out = []
    for sid, n in playable_scenarios():
        out.append((sid, n, None))
        if f"{sid} with cities_and_knights" in stackable:
            out.append((sid, n, CK))
    return out


GAMES = _games()


def _label(g) -> str:
    sid, n, options = g
    return f"{sid}-{n}p" + ("-ck" if options else "")


def _posted_back(state, graph) -> None:
    raw = orjson.loads(ENCODE(dump_state(state)))
    try:
        back, g2, _ = parse_state_where(raw, _CACHE)
    except Problem as p:
        raise AssertionError(f"phase {state.phase}: the answered state is refused when posted back: "
                             f"{p.body.get('errors') if hasattr(p, 'body') else p}") from None
    assert orjson.loads(ENCODE(dump_state(back))) == raw              # (key order aside)
    scen = scenario_of(state)
    assert _no_paths(orjson.loads(ENCODE(derive(back, g2, scen)))) == _no_paths(orjson.loads(ENCODE(derive(state, graph, scen))))


def _no_paths(v: Any) -> Any:
    """Derived values without the route drawn for each length: among routes of equal length the one shown
    follows the order the pieces were placed in, which a posted state does not carry (noted, not a verdict)."""
    if isinstance(v, dict):
        return {k: _no_paths(x) for k, x in v.items() if k != "path"}
    if isinstance(v, list):
        return [_no_paths(x) for x in v]
    return v


def _play(game, max_actions: int, every: int, seed: int) -> int:
    sid, n, options = game
    seen = []

    def step(_state, _action, verdict):
        seen.append(1)
        if verdict.state is not None and (len(seen) % every == 0 or verdict.state.phase == "game_over"):
            _posted_back(verdict.state, verdict.graph)

    g = play_game(sid, n, seed, max_actions=max_actions, check=False, on_step=step, options=options)
    return g.actions


@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
def test_answered_states_are_accepted_when_posted_back(game):
    assert _play(game, ACTIONS, EVERY, 3 + GAMES.index(game)) > 0


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RUN_SLOW"), reason="a long budget: RUN_SLOW=1 (or -m slow with it)")
@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
def test_answered_states_are_accepted_when_posted_back_to_the_end(game):
    for seed in (1, 2):
        _play(game, 3000, 1, seed)
