"""Bounded requests: bodies read piece by piece, free-form parts of a state bounded, metric labels bounded,
new games in a replay checked like POST /v1/games, replay digests written exactly."""
from __future__ import annotations

import io
import json
import random

import pytest

from service.api import create_app
from service.api.codec import dump_state
from service.api.fields import FREE_FORM_CHARS, FREE_FORM_VALUES
from service.api.replay import _has_float
from service.engine.scenarios import get_scenario


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "MAX_BODY_BYTES": 64 * 1024})


@pytest.fixture(scope="module")
def state():
    return dump_state(get_scenario("base").new_game(3, 5))


class Chunked(io.RawIOBase):
    """A body stream with no length, as a WSGI server gives a chunked body; counts what is read."""

    def __init__(self, size: int, fail_after: int | None = None) -> None:
        self.left, self.read_bytes, self.fail_after = size, 0, fail_after

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self.fail_after is not None and self.read_bytes >= self.fail_after:
            raise ValueError("Invalid chunk size: 'zz'")   # what gunicorn's chunked reader raises, in kind
        n = min(len(b), self.left)
        b[:n] = b" " * n
        self.left -= n
        self.read_bytes += n
        return n


def post_stream(app, stream, path="/v1/adjudicate"):
    env = {"wsgi.input": stream, "wsgi.input_terminated": True}
    return app.test_client().post(path, content_type="application/json",
                                  headers={"Transfer-Encoding": "chunked"}, environ_overrides=env)


def test_a_chunked_body_past_the_limit_is_refused_before_it_is_read_whole(app):
    body = Chunked(400 * 1024 * 1024)
    r = post_stream(app, body)
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    assert body.read_bytes <= 64 * 1024 + 64 * 1024    # the limit, and at most one read past it


def test_a_body_that_cannot_be_read_is_a_400_problem(app):
    r = post_stream(app, Chunked(10_000, fail_after=0))
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert "could not be read" in r.json["detail"]


def test_invented_methods_fold_into_one_label_value(app):
    c = app.test_client()
    for i in range(40):
        c.open("/v1/adjudicate", method=f"X{i}")
        c.open(f"/nowhere/{i}", method="GET")
    text = c.get("/metrics").get_data(True)
    methods = {line.split('method="')[1].split('"')[0] for line in text.splitlines()
               if line.startswith("seafarers_http_requests_total{")}
    assert methods <= {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"} and "other" in methods
    assert 'endpoint="unmatched"' in text and "/nowhere/" not in text


@pytest.mark.parametrize("ss, pointer", [
    ({"junk": [[0]] * FREE_FORM_VALUES}, "/state/scenario_state"),
    ({"junk": ["x" * 200] * (FREE_FORM_CHARS // 200 + 1)}, "/state/scenario_state"),
    ({"a": {"b": "x" * 257}}, "/state/scenario_state/a/b"),
    ({"k" * 65: 1}, "/state/scenario_state/" + "k" * 65),
    ({"a/b": [1, 2 ** 53 + 1]}, "/state/scenario_state/a~1b/1"),
])
def test_free_form_parts_of_a_state_are_bounded(app, state, ss, pointer):
    body = {"state": {**state, "scenario_state": ss}}
    r = app.test_client().post("/v1/adjudicate", data=json.dumps(body), content_type="application/json")
    assert r.status_code == 422, r.get_data(True)
    assert r.json["errors"][0]["pointer"] == pointer


def test_a_free_form_part_within_the_bounds_is_taken():
    from service.api.fields import check_free_form
    check_free_form({"junk": [[0]] * ((FREE_FORM_VALUES - 2) // 2)})            # 1,000 values
    check_free_form({"junk": ["x" * 256] * (FREE_FORM_CHARS // 256 - 1)})       # just under 8,192 characters
    with pytest.raises(Exception):
        check_free_form({"junk": [[0]] * (FREE_FORM_VALUES // 2)})


def test_options_of_a_replays_new_game_are_checked_like_a_new_games(app):
    c = app.test_client()
    r = c.post("/v1/replay", json={"new_game": {"scenario": "SC01", "players": 3, "seed": 1,
                                                "options": {"pirate": "x"}}, "actions": []})
    assert r.status_code == 422 and r.json["errors"][0]["pointer"] == "/new_game/options/pirate"
    r = c.post("/v1/replay", json={"new_game": {"scenario": "base", "players": 3, "options": {"nonsense": 1}},
                                   "actions": []})
    assert r.status_code == 422 and r.json["errors"][0]["pointer"] == "/new_game/options/nonsense"


def _walk_has_float(v) -> bool:
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, float):
            return True
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return False


def test_the_float_test_of_replay_digests_agrees_with_a_walk():
    rnd = random.Random(7)
    leaves = [1, -5, 0, 0.5, 1e20, -0.0, 3.0, "a.e", '\\"x', "", "E", True, False, None, "\u2028", "1e5"]

    def gen(d=0):
        r = rnd.random()
        if d > 3 or r < 0.3:
            return rnd.choice(leaves)
        if r < 0.65:
            return [gen(d + 1) for _ in range(rnd.randint(0, 4))]
        return {rnd.choice(["e", "a.b", "\\", '"q', ".", "E1"]) + str(i): gen(d + 1) for i in range(rnd.randint(0, 4))}

    for _ in range(5000):
        v = {"x": gen()}
        assert _has_float(v) == _walk_has_float(v), v
    assert _has_float({"big": 10 ** 30})   # orjson cannot write it: the standard library path is taken


# -- the cost budget ------------------------------------------------------------------------------------


def _roll_and_end(state: dict, pairs: int) -> list[dict]:
    p, out = state["current_player"], []
    for _ in range(pairs):
        out += [{"type": "roll", "player": p, "dice": [2, 3]}, {"type": "end_turn", "player": p}]
        p = (p + 1) % len(state["players"])
    return out


@pytest.fixture(scope="module")
def main_phase_state():
    from service.engine.selfplay import play_game
    seen = []
    play_game("base", 3, 1, max_actions=120, check=False, on_step=lambda s, a, v: seen.append((s, a)))
    return dump_state(next(s for s, a in seen if a.type == "roll"))


def test_a_replay_past_its_budget_is_a_503_problem(main_phase_state):
    body = {"state": main_phase_state, "actions": _roll_and_end(main_phase_state, 5000)}
    over = create_app({"TESTING": True, "REQUEST_BUDGET_SECONDS": 0.05}).test_client().post("/v1/replay", json=body)
    assert over.status_code == 503 and over.mimetype == "application/problem+json"
    assert over.json["type"].endswith("/budget-exceeded") and "0.05 s" in over.json["detail"]
    within = create_app({"TESTING": True}).test_client().post("/v1/replay", json=body)
    assert within.status_code == 200 and within.json["applied"] == 10000


def _complete(n: int):
    """The complete graph on ``n`` nodes as (adjacency, ends): every node odd when ``n`` is even."""
    adj: list[list[int]] = [[] for _ in range(n)]
    ends = []
    for i, (a, b) in enumerate([(x, y) for x in range(n) for y in range(x + 1, n)]):
        adj[a].append(i), adj[b].append(i)
        ends.append((a, b))
    return adj, ends


def test_the_route_search_checks_the_current_budget():
    from service.engine import budget
    from service.engine.routes import _search
    ticks = [0.0]

    def clock():   # one "second" per look at the clock
        ticks[0] += 1.0
        return ticks[0]
    adj, ends = _complete(6)   # 15 links, 6 odd nodes
    with budget.running(budget.Budget(0.5, clock)):   # spent by the time the search looks
        with pytest.raises(budget.BudgetExceeded):
            _search(adj, ends, list(range(6)), list(range(6)), len(ends), 0)
    assert ticks[0] < 20   # stopped at the first look past the deadline
    adj, ends = _complete(4)
    assert len(_search(adj, ends, list(range(4)), list(range(4)), len(ends), 0)) == 5   # no budget: the whole search (K4: 5 of 6)
