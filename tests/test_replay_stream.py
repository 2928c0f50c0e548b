"""POST /v1/replay?stream=true: the steps as NDJSON as they are judged, then the summary; a spent budget
ends with where to resume, and resuming from there gives the same game as the replay in one go."""
from __future__ import annotations

import json

import pytest

from service.api import create_app
from service.engine.budget import Budget


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True})


@pytest.fixture(scope="module")
def log(app):
    """A replay request: a seeded random base game of 150 actions (more than two streamed parts)."""
    from service.api.codec import dump_state
    from service.engine.legal import action_json
    from service.engine.selfplay import play_game
    g = play_game("base", 3, 5, max_actions=150, check=False)
    return {"state": dump_state(g.initial), "actions": [action_json(a) for a in g.log]}


def _lines(r) -> list[dict]:
    return [json.loads(x) for x in r.get_data().splitlines()]


@pytest.mark.parametrize("extra", [{}, {"events": True, "digests": "final"},
                                   {"on_illegal": "skip"}])
def test_the_stream_holds_the_same_steps_and_summary(app, log, extra):
    c = app.test_client()
    body = {**log, **extra}
    whole = c.post("/v1/replay", json=body).get_json()
    r = c.post("/v1/replay?stream=true", json=body)
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    lines = _lines(r)
    assert [x["step"] for x in lines[:-1]] == whole.pop("steps")
    assert lines[-1] == {"summary": whole}


def test_an_illegal_action_ends_the_stream_as_it_ends_the_replay(app, log):
    c = app.test_client()
    actions = list(log["actions"])
    actions[100] = {**actions[100], "player": (actions[100]["player"] + 1) % 3}
    body = {**log, "actions": actions}
    whole = c.post("/v1/replay", json=body).get_json()
    lines = _lines(c.post("/v1/replay?stream=true", json=body))
    assert whole["all_legal"] is False and lines[-1]["summary"]["first_illegal"] == whole["first_illegal"]
    assert len(lines) - 1 == whole["judged"] == 101


def test_a_spent_budget_says_how_far_and_resuming_gives_the_same_game(app, log):
    from service.api.schemas import load_action
    from service.api.service import parse_state
    from service.api.tools import replay_stream
    from service.engine.scenarios import scenario_of
    with app.test_request_context():
        state, graph = parse_state(log["state"], app.extensions["graph_cache"])
        actions = [load_action(a, scenario_of(state)) for a in log["actions"]]
        ticks = [0.0]

        def clock():            # one "second" a step: the budget runs out after 90 steps
            ticks[0] += 1
            return ticks[0]
        req = {"on_illegal": "stop", "digests": "each", "events": False, "derived": True}
        lines = [json.loads(x) for x in replay_stream(state, graph, actions, req, Budget(90, clock))]
    steps, last = lines[:-1], lines[-1]
    assert last["status"] == 503 and last["problem"]["status"] == 503
    nxt = last["resume"]["next_action"]
    assert nxt == len(steps) and 0 < nxt < len(log["actions"])
    c = app.test_client()
    whole = c.post("/v1/replay", json=log).get_json()
    assert [s["step"] for s in steps] == whole["steps"][:nxt]
    rest = c.post("/v1/replay", json={"state": last["resume"]["state"], "actions": log["actions"][nxt:]},
                  headers={"State-Tag": last["resume"]["state_tag"]}).get_json()
    assert rest["all_legal"] and rest["final"]["state"] == whole["final"]["state"]
    assert rest["final"]["digest"] == whole["final"]["digest"]
    # (a longest road's witness path may be another of the same length: the state resumed is loaded from
    # its canonical JSON, whose roads are in another order than the replay's own)
    a, b = dict(whole["final"]["derived"]), dict(rest["final"]["derived"])
    assert {p: r["length"] for p, r in a.pop("longest_road").items()} == \
        {p: r["length"] for p, r in b.pop("longest_road").items()}
    assert a == b
    assert [s["digest"] for s in rest["steps"]] == [s["digest"] for s in whole["steps"][nxt:]]
