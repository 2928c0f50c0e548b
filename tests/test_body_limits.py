"""A body's cost is bounded before it is parsed: its JSON values are counted while it is read and the
reading stops at the first limit (413 naming the body), a free-form part is counted before it is walked,
and a list's length is checked before its items are converted. ``bench/request_memory.py`` measures the
peak memory and CPU of the largest bodies the limits admit (target: under 64 MB above idle)."""
from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.api import create_app
from service.api.body import MAX_VALUES, REPLAY_MAX_VALUES, _values_in
from service.api.codec import dump_state
from service.api.fields import FREE_FORM_VALUES, _more_values_than, check_free_form
from service.engine.scenarios import get_scenario

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 60, 2 ** 60), st.floats(allow_nan=False,
                    allow_infinity=False), st.text(max_size=6))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=4), inner, max_size=5)), max_leaves=30)


def _count(v) -> int:
    """JSON values in ``v``, keys included."""
    if isinstance(v, dict):
        return 1 + sum(1 + _count(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(_count(x) for x in v)
    return 1


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_the_count_from_the_bytes_is_never_below_the_values_parsed(value, seps):
    raw = json.dumps(value, separators=seps).encode()
    assert 1 + _values_in(raw) >= _count(value)


@settings(max_examples=200, deadline=None)
@given(VALUES, st.integers(1, 40))
def test_a_free_form_value_is_counted_exactly_against_its_bound(value, most):
    assert _more_values_than(value, most) == (_count(value) - _keys(value) > most)


def _keys(v) -> int:
    if isinstance(v, dict):
        return len(v) + sum(_keys(x) for x in v.values())
    if isinstance(v, list):
        return sum(_keys(x) for x in v)
    return 0


def test_a_huge_free_form_array_is_refused_without_walking_it():
    huge = {"x": [0] * 2_000_000}
    with pytest.raises(ValidationError) as e:
        check_free_form(huge)
    assert e.value.messages == [f"holds more than {FREE_FORM_VALUES} JSON values in all"]


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


_STATE = dump_state(get_scenario("base").new_game(3, 7))


class Zeros(io.RawIOBase):
    """A chunked body (no length) of ``{"x": [0,0,0,...`` without end; counts what is read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = len(b)
        b[:n] = (b'{"x":[' + b"0," * n)[:n] if self.read_bytes == 0 else b"0," * (n // 2) + b"0" * (n % 2)
        self.read_bytes += n
        return n


def test_a_chunked_body_stops_being_read_at_its_first_limit(client):
    stream = Zeros()
    r = client.post("/v1/adjudicate", content_type="application/json", headers={"Transfer-Encoding": "chunked"},
                    environ_overrides={"wsgi.input": stream, "wsgi.input_terminated": True})
    assert r.status_code == 413 and "JSON values" in r.get_json()["detail"]
    assert stream.read_bytes <= 2 * MAX_VALUES + 64 * 1024     # the count's bytes and one read past them


@pytest.mark.parametrize("path, most", [("/v1/adjudicate", MAX_VALUES), ("/v1/replay", REPLAY_MAX_VALUES),
                                        ("/v1/render", MAX_VALUES), ("/v1/legal-actions", MAX_VALUES)])
def test_a_body_of_more_values_than_any_request_needs_is_a_413_before_it_is_parsed(client, path, most):
    body = b'{"state": {"scenario_state": {"x": [' + b",".join([b"0"] * (most + 1)) + b"]}}}"
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    assert f"more than {most:,} JSON values" in r.get_json()["detail"]
    assert r.get_json()["errors"][0]["pointer"] == "/"


def test_the_largest_replay_the_limits_admit_is_judged(client):
    """20,000 actions (the most a replay takes), each a Road Building with its two pieces (~21 values,
    the most an ordinary action holds), stay within the count."""
    rb = {"type": "play_road_building", "player": 0,
          "pieces": [{"kind": "road", "edge": [0, 0, "NE"]}, {"kind": "ship", "edge": [1, 0, "E"]}]}
    body = json.dumps({"state": _STATE, "actions": [rb] * 20_000, "digests": "none"}).encode()
    assert 1 + _values_in(body) <= REPLAY_MAX_VALUES
    r = client.post("/v1/replay", data=body, content_type="application/json")
    assert r.status_code in (200, 422), r.get_data(as_text=True)[:300]
    if r.status_code == 422:     # a shape the game does not know is named, never counted away
        assert r.get_json()["errors"][0]["pointer"].startswith("/actions/0")


def test_a_replay_list_past_its_length_is_refused_before_its_items_are_looked_at(client):
    body = json.dumps({"state": _STATE, "actions": [0] * 20_001}).encode()
    r = client.post("/v1/replay", data=body, content_type="application/json")
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/actions"
    assert "20000" in r.get_json()["errors"][0]["detail"]


def test_a_replay_list_past_its_length_converts_none_of_its_items(client, monkeypatch):
    from marshmallow import fields

    calls = []
    raw = fields.Raw._deserialize

    def counted(self, value, *a, **k):
        calls.append(value)
        return raw(self, value, *a, **k)
    monkeypatch.setattr(fields.Raw, "_deserialize", counted)
    body = json.dumps({"state": _STATE, "actions": [{"type": "end_turn", "player": 0}] * 20_001}).encode()
    r = client.post("/v1/replay", data=body, content_type="application/json")
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/actions"
    assert not any(type(v) is dict and v.get("type") == "end_turn" for v in calls)   # (the state's Raw only)


def test_the_cpu_budget_counts_reading_and_parsing_the_body():
    """A budget spent by the time the body is parsed stops the request there (503, budget-exceeded)."""
    app = create_app({"TESTING": True, "REQUEST_BUDGET_SECONDS": 1e-9})
    body = json.dumps({"state": _STATE, "action": {"type": "end_turn", "player": 0}}).encode()
    r = app.test_client().post("/v1/adjudicate", data=body, content_type="application/json")
    assert r.status_code == 503 and r.get_json()["type"].endswith("/budget-exceeded")
