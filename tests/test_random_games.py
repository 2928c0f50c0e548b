"""Random full games (seeded): invariants after every action, the log replays to the same bytes, and the
winner is the one the rules give. ``bench/soak.py`` plays 1,000+ of them; this is the modest default set."""
from __future__ import annotations

import pytest

from bench.soak import http_game
from service.api.replay import canonical_json
from service.engine.core import Action
from service.engine.selfplay import invariants, play_game, playable_scenarios
from service.engine.scenarios import get_scenario
from service.engine.mapgraph import MapGraph

SCENARIO_PAIRS = playable_scenarios()


def test_every_scenario_with_a_map_is_played():
    ids = {sid for sid, _ in SCENARIO_PAIRS}
    assert "base" in ids and len(ids) >= 2


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2)])
def test_a_random_base_game_is_played_to_its_winner(players, seed):
    g = play_game("base", players, seed, max_actions=3000, dump=canonical_json)
    assert g.failures == []
    assert g.ended == "won" and g.final.phase == "game_over"
    assert g.winner == g.final.current_player          # BASE-VP-2: only on one's own turn


@pytest.mark.parametrize("sid,players", SCENARIO_PAIRS, ids=[f"{s}-{n}" for s, n in SCENARIO_PAIRS])
def test_random_play_keeps_every_invariant(sid, players):
    g = play_game(sid, players, 7, max_actions=50, dump=canonical_json)
    assert g.failures == []
    assert g.actions == 50 or g.ended == "won"


def test_http_play_gives_the_engines_bytes(client):
    out = http_game(client, "base", 3, 11, 40)
    assert out["failures"] == [] and out["actions"] == 40


def test_the_invariants_catch_a_lost_card():
    scen = get_scenario("base")
    s = scen.new_game(3, 1)
    s.bank["ore"] -= 1
    assert any("ore not conserved" in f for f in invariants(s, MapGraph.build(s.terrain_map()), scen))


def test_the_invariants_catch_a_winner_the_rules_do_not_give():
    from service.engine.referee import adjudicate
    g = play_game("base", 3, 1, max_actions=60)
    s = g.final.copy()
    s.phase, s.winner = "game_over", (s.current_player + 1) % 3
    scen = get_scenario("base")
    assert any("winner" in f for f in invariants(s, MapGraph.build(s.terrain_map()), scen))
    assert not adjudicate(g.final, Action("end_turn", (g.final.current_player + 1) % 3),
                          MapGraph.build(s.terrain_map()), scen).legal
