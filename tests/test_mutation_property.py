"""Property: a real request with one leaf or container changed is answered with a 200 or a 4xx problem naming
the field, never a 5xx, on every endpoint that takes a body (``tests/mutation_corpus.py`` makes them).

The default run tries ``MUTATION_EXAMPLES`` cases (150, deterministic); the long run is
``bench/mutation.py`` (thousands, random, reports how many cases and any 5xx).
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api import create_app
from tests.mutation_corpus import ENDPOINTS, KINDS, body_for, judge, mutate, places, positions

EXAMPLES = int(os.environ.get("MUTATION_EXAMPLES", "150"))
LONG_RUN = "MUTATION_EXAMPLES" in os.environ
STATS = os.environ.get("MUTATION_STATS")   # a file the long run reads its counts from

_APP = create_app({"TESTING": True})
_COUNTS = {"cases": 0, "server_errors": 0, "bad_problems": 0, "by_endpoint": {}, "failures": []}


@st.composite
def cases(draw):
    pos = draw(st.sampled_from(positions()))
    endpoint = draw(st.sampled_from(ENDPOINTS))
    path, body = body_for(endpoint, pos)
    where = places(body)
    place = where[draw(st.integers(0, len(where) - 1))]
    kind = draw(st.sampled_from(KINDS))
    return path, body, place, kind


def _record(endpoint: str, ok: bool, why: str, place, kind) -> None:
    _COUNTS["cases"] += 1
    key = endpoint.split("/")[2] if endpoint.count("/") > 2 else endpoint
    _COUNTS["by_endpoint"][key] = _COUNTS["by_endpoint"].get(key, 0) + 1
    if not ok:
        _COUNTS["server_errors" if why.startswith("HTTP 5") else "bad_problems"] += 1
        if len(_COUNTS["failures"]) < 50:
            _COUNTS["failures"].append({"endpoint": endpoint, "place": list(map(str, place)), "kind": kind,
                                        "why": why})
    if STATS:
        with open(STATS, "w") as f:
            json.dump(_COUNTS, f, indent=1)


@given(cases())
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG_RUN, database=None,
          suppress_health_check=list(HealthCheck))
def test_one_change_to_a_real_request_is_never_a_server_error(case):
    endpoint, body, place, kind = case
    changed, raw = mutate(body, place, kind)
    ok, why = judge(_APP.test_client(), endpoint, changed, raw)
    _record(endpoint, ok, why, place, kind)
    if LONG_RUN:
        return   # the long run counts every failure and goes on (bench/mutation.py reports them)
    assert ok, f"{endpoint} with {kind} at /{'/'.join(map(str, place))}: {why}"


def test_the_corpus_covers_every_scenario_and_endpoint():
    from service.engine.selfplay import playable_scenarios
    assert {p[0] for p in positions()} == {sid for sid, _ in playable_scenarios()}
    client = _APP.test_client()
    for endpoint in ENDPOINTS:   # every unchanged body is valid: a mutation is the only fault in a case
        path, body = body_for(endpoint, positions()[0])
        r = client.post(path, json=body)
        assert r.status_code in (200, 201), (path, r.get_data(as_text=True)[:300])
