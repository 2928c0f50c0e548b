"""POST /v1/replay: a game log judged action by action, the first illegal one named exactly."""
from __future__ import annotations

import copy
import json

import pytest

from service.api.codec import dump_state
from service.api.replay import canonical_json, state_digest
from service.engine.legal import action_json, legal_actions, random_action
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.rng import Rng
from service.engine.scenarios import get_scenario

from .spec_util import check_response

NEW_GAME = {"scenario": "base", "players": 4, "seed": 11}


def scripted_game(n: int = 500, seed: int = 3):
    """A log of ``n`` legal actions from a new base game (random legal play, seeded), with its states."""
    scen = get_scenario("base")
    state = scen.new_game(NEW_GAME["players"], NEW_GAME["seed"])
    graph = MapGraph.build(state.terrain_map())
    rng = Rng(seed, 0)
    log, states = [], [state]
    while len(log) < n:
        a = random_action(legal_actions(state, graph, scen), rng)
        v = adjudicate(state, a, graph, scen, with_derived=False)
        log.append(action_json(a))
        state = v.state
        states.append(state)
        if state.phase == "game_over":
            break
    return log, states


@pytest.fixture(scope="module")
def game():
    return scripted_game()


def post(client, **body):
    r = client.post("/v1/replay", json=body)
    check_response("/v1/replay", "post", r)
    return r


def test_a_500_action_game_replays_legal_to_the_same_final_state(client, game):
    log, states = game
    assert len(log) == 500
    r = post(client, new_game=NEW_GAME, actions=log)
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["all_legal"] and out["applied"] == 500 and out["first_illegal"] is None
    assert out["final"]["state"] == dump_state(states[-1])
    assert out["final"]["digest"] == state_digest(states[-1])
    assert [s["digest"] for s in out["steps"]] == [state_digest(s) for s in states[1:]]
    assert out["initial_digest"] == state_digest(states[0])
    assert "victory_points" in out["final"]["derived"]


def test_a_posted_initial_state_replays_like_a_new_game(client, game):
    log, states = game
    r = post(client, state=dump_state(states[0]), actions=log[:40])
    assert r.get_json()["final"]["digest"] == state_digest(states[40])


def _corruptions(log):
    """(index, corrupted action, the rule expected) of several kinds."""
    def first(pred, start=0):
        return next(i for i in range(start, len(log)) if pred(log[i]))
    out = []
    i = first(lambda a: a["type"] == "end_turn", 100)
    out.append((i, {"type": "end_turn", "player": (log[i]["player"] + 1) % 4}, "BASE-TURN-6"))   # not your turn
    i = first(lambda a: a["type"] == "roll", 100)
    out.append((i, {"type": "end_turn", "player": log[i]["player"]}, "BASE-TURN-5"))            # end before rolling
    i = first(lambda a: a["type"] == "build_settlement", 8)
    bad = copy.deepcopy(log[i])
    bad["node"] = log[i - 2]["node"]                                                            # an occupied corner
    out.append((i, bad, ("BASE-BUILD-2", "BASE-BUILD-8")))                                     # occupied site
    i = first(lambda a: a["type"] == "end_turn", 200)
    out.append((i, {"type": "build_city", "player": log[i]["player"], "node": [0, 0, "N"]}, "BASE-BUILD-6"))
    i = first(lambda a: a["type"] == "roll", 300)
    out.append((i + 1, {"type": "roll", "player": log[i]["player"]}, "BASE-TURN-1"))            # a second roll
    return out


@pytest.mark.parametrize("k", range(5))
def test_the_first_illegal_action_is_named_exactly(client, game, k):
    log, states = game
    i, bad, rule = _corruptions(log)[k]
    corrupted = log[:i] + [bad] + log[i + 1:]
    out = post(client, new_game=NEW_GAME, actions=corrupted).get_json()
    fi = out["first_illegal"]
    assert not out["all_legal"] and fi["index"] == i, (fi, bad)
    assert set(rule if isinstance(rule, tuple) else (rule,)) & set(fi["rules"]), fi
    assert all(v["message"] for v in fi["violations"])
    assert fi["state_before"] == dump_state(states[i]) and fi["digest_before"] == state_digest(states[i])
    assert out["applied"] == i and out["judged"] == i + 1 and out["final"]["digest"] == state_digest(states[i])
    assert out["steps"][-1]["legal"] is False and out["steps"][-1]["violations"][0]["path"].startswith(("/actions/", "/state"))


def test_skipping_illegal_actions_goes_on_from_the_same_position(client, game):
    log, states = game
    bad = {"type": "end_turn", "player": 0}
    corrupted = log[:20] + [bad] + log[20:60]
    out = post(client, new_game=NEW_GAME, actions=corrupted, on_illegal="skip").get_json()
    assert out["skipped"] == [20] and out["first_illegal"]["index"] == 20
    assert out["applied"] == 60 and out["final"]["digest"] == state_digest(states[60])


def test_digests_are_canonical_json_and_can_be_left_out(client, game):
    log, states = game
    s = states[50]
    assert canonical_json(s) == json.dumps(dump_state(s), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    out = post(client, new_game=NEW_GAME, actions=log[:10], digests="none", derived=False).get_json()
    assert "digest" not in out["steps"][0] and "derived" not in out["final"] and out["initial_digest"] is None
    out = post(client, new_game=NEW_GAME, actions=log[:10], digests="final", events=True).get_json()
    assert "digest" not in out["steps"][0] and out["final"]["digest"] == state_digest(states[10])
    assert out["steps"][0]["events"][0]["type"] == "built"


def test_a_malformed_action_is_a_422_naming_it(client, game):
    log, _ = game
    r = post(client, new_game=NEW_GAME, actions=log[:3] + [{"type": "fly", "player": 0}])
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"].startswith("/actions/3")
    r = post(client, actions=log[:3])
    assert r.status_code == 422
    r = post(client, new_game=NEW_GAME, actions=[], colour="red")
    assert r.status_code == 422


def test_thousands_of_actions_fit_the_replay_body_limit(client, game):
    """A 10,000-action log (about 0.7 MB) is accepted; the replay limit is documented in openapi.yaml."""
    from service.api.tools import DEFAULT_REPLAY_MAX_BODY, MAX_REPLAY_ACTIONS
    from .spec_util import spec
    log, _ = game
    long_log = (log * 20)[:10_000]
    body = json.dumps({"new_game": NEW_GAME, "actions": long_log, "digests": "none", "derived": False})
    assert len(body) < DEFAULT_REPLAY_MAX_BODY
    r = client.post("/v1/replay", data=body, content_type="application/json")
    assert r.status_code == 200 and r.get_json()["judged"] >= 500
    assert spec()["paths"]["/v1/replay"]["post"]["x-max-body-bytes"] == DEFAULT_REPLAY_MAX_BODY
    assert spec()["components"]["schemas"]["ReplayRequest"]["properties"]["actions"]["maxItems"] == MAX_REPLAY_ACTIONS


def _stdlib_text(state):
    return json.dumps(dump_state(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("sid, players", [("base", 4), ("SC04", 3), ("SC11", 4), ("GOLD", 4), ("SC08", 3)])
def test_the_canonical_text_is_the_standard_librarys_byte_for_byte(sid, players):
    """Digests are the SHA-256 of one canonical text; however it is written (orjson where it gives the
    same bytes), it is the standard library's ``json.dumps(..., sort_keys=True, ensure_ascii=False)``."""
    from service.engine.selfplay import play_game
    seen = []
    play_game(sid, players, 5, max_actions=80, check=False, on_step=lambda s, a, v: seen.append(v.state or s))
    assert seen
    for s in seen[::7] + seen[-1:]:
        assert canonical_json(s) == _stdlib_text(s)


def test_free_form_floats_and_unicode_keep_the_standard_librarys_text(game):
    s = game[1][60].copy()
    s.scenario_state = {"z": 1e16, "é": ["\u2028", "\U0001F3B2", 0.1], "a": -0.0}
    s.options = {"note": "\x7f\x1f"}
    assert canonical_json(s) == _stdlib_text(s)
    s.scenario_state = {"ünï": "\u0000\u001f\"\\", "A": [True, None, 2 ** 63 - 1]}
    assert canonical_json(s) == _stdlib_text(s)
