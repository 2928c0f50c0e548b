"""POST /v1/batch: many independent requests in one call, NDJSON in and out with ids; each answer is the
endpoint's own; a refused line does not stop the others; a spent budget says where to resume."""
from __future__ import annotations

import json

import pytest

from service.api import create_app

ND = "application/x-ndjson"


@pytest.fixture(scope="module")
def c():
    return create_app({"TESTING": True}).test_client()


@pytest.fixture(scope="module")
def position(c):
    state = c.post("/v1/games", json={"players": 3, "seed": 9}).get_json()["state"]
    listing = c.post("/v1/legal-actions", json={"state": state}).get_json()
    return state, [a for acts in listing["actions"].values() for a in acts]


def _batch(c, lines, **kw):
    body = "\n".join(l if isinstance(l, str) else json.dumps(l) for l in lines) + "\n"
    r = c.post("/v1/batch", data=body, content_type=ND, **kw)
    return r, [json.loads(x) for x in r.get_data().splitlines()]


def test_answers_in_order_with_ids_each_the_endpoints_own(c, position):
    state, actions = position
    lines = [{"id": f"a{i}", "op": "adjudicate", "body": {"state": state, "action": a}} for i, a in enumerate(actions[:5])]
    lines += [{"id": 99, "op": "legal-actions", "body": {"state": state, "player": 1}},
              {"id": "d", "op": "derive", "body": {"state": state}, "explain": True}]
    r, got = _batch(c, lines)
    assert r.status_code == 200 and r.mimetype == ND
    assert [g["id"] for g in got] == [l["id"] for l in lines] and [g["line"] for g in got] == list(range(len(lines)))
    for g, l in zip(got, lines):
        assert g["status"] == 200
        if l["op"] == "adjudicate":
            single = c.post("/v1/adjudicate", json=l["body"])
            assert g["body"] == single.get_json() and g["state_tag"] == single.headers["State-Tag"]
        elif l["op"] == "legal-actions":
            assert g["body"] == c.post("/v1/legal-actions", json=l["body"]).get_json()
        else:
            assert g["body"] == c.post("/v1/derive?explain=true", json=l["body"]).get_json()


def test_a_refused_line_is_its_own_problem_and_the_others_go_on(c, position):
    state, actions = position
    bad_state = {**state, "current_player": 7}
    lines = [{"id": 1, "op": "adjudicate", "body": {"state": bad_state, "action": actions[0]}},
             "{not json",
             {"id": 3, "op": "fly", "body": {}},
             {"id": 4, "op": "derive"},
             {"op": "derive", "body": {"state": state}},
             {"id": 6, "op": "adjudicate", "body": {"state": state, "action": actions[0]}}]
    r, got = _batch(c, lines)
    assert r.status_code == 200
    assert [g["status"] for g in got] == [422, 400, 422, 422, 422, 200]
    assert got[0]["id"] == 1 and got[0]["problem"]["errors"][0]["pointer"].startswith("/state/current_player")
    assert got[1]["id"] is None and got[1]["line"] == 1
    assert got[2]["problem"]["errors"][0]["pointer"] == "/op"
    assert got[3]["problem"]["errors"][0]["pointer"] == "/body"
    assert got[4]["problem"]["errors"][0]["pointer"] == "/id"
    assert got[5]["body"]["legal"] is True


def test_a_spent_budget_says_where_to_resume():
    c = create_app({"TESTING": True, "BATCH_BUDGET_SECONDS": 1e-9}).test_client()
    state = c.post("/v1/games", json={"players": 3, "seed": 9}).get_json()["state"]
    r, got = _batch(c, [{"id": i, "op": "derive", "body": {"state": state}} for i in range(3)])
    assert r.status_code == 200 and len(got) == 1
    assert got[0]["status"] == 503 and got[0]["problem"]["resume_from"] == 0


def test_the_batch_is_bounded_and_typed(c):
    assert c.post("/v1/batch", json={"id": 1}).status_code == 415
    small = create_app({"TESTING": True, "BATCH_MAX_ITEMS": 2, "BATCH_MAX_BODY_BYTES": 10_000}).test_client()
    line = json.dumps({"id": 1, "op": "derive", "body": {}})
    r = small.post("/v1/batch", data="\n".join([line] * 3), content_type=ND)
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    r = small.post("/v1/batch", data="x" * 20_000, content_type=ND)
    assert r.status_code == 413
    assert c.post("/v1/batch", data="\n\n", content_type=ND).status_code == 422


def test_a_state_in_many_lines_is_judged_as_alone(c, position):
    # the batch loads a state posted in several lines once; every answer is still that of the state alone
    state, actions = position
    lines = [{"id": i, "op": "adjudicate", "body": {"state": state, "action": a}} for i, a in enumerate(actions[:20])]
    _r, got = _batch(c, lines)
    for g, l in zip(got, lines):
        assert g["body"] == c.post("/v1/adjudicate", json=l["body"]).get_json()
    # and a state that another line changed in place is loaded anew (keys by the text posted)
    other = {**state, "current_player": 1}
    _r, got = _batch(c, [lines[0], {"id": "x", "op": "adjudicate", "body": {"state": other, "action": actions[0]}}])
    assert got[1]["body"] == c.post("/v1/adjudicate", json={"state": other, "action": actions[0]}).get_json()


def test_json_values_are_bounded_per_line_not_per_batch(c, position):
    """A batch of many positions holds more JSON values than one request may (MAX_VALUES), and is answered;
    a line that holds more than a request may is refused alone (413), the others are answered."""
    from service.api.body import MAX_VALUES, _values_in
    state, actions = position
    line = json.dumps({"id": 0, "op": "derive", "body": {"state": state}})
    n = MAX_VALUES // _values_in(line.encode()) + 2
    assert n <= 1000
    r, got = _batch(c, [{"id": i, "op": "derive", "body": {"state": state}} for i in range(n)])
    assert r.status_code == 200 and len(got) == n and all(g["status"] == 200 for g in got)
    big = json.dumps({"id": "big", "op": "derive", "body": {"state": state, "x": [0] * MAX_VALUES}})
    r = c.post("/v1/batch", data="\n".join([line, big, line]), content_type=ND)
    got = [json.loads(x) for x in r.get_data().splitlines()]
    assert [g["status"] for g in got] == [200, 413, 200]
    assert got[1]["problem"]["errors"][0]["pointer"] == "/"


def test_a_state_posted_again_as_the_same_text_is_not_parsed_again_and_answers_as_alone(c, position, monkeypatch):
    """Lines whose body's state is byte for byte a state loaded earlier in the batch reuse it without
    parsing it (batch.py, _known_state_item); every answer and problem is still the endpoint's own."""
    import orjson

    from service.api import batch as batch_module
    made = []
    found = batch_module.batch_state_loaded

    def counting(text):
        got = found(text)
        made.append(got is not None)
        return got
    monkeypatch.setattr(batch_module, "batch_state_loaded", counting)
    state, actions = position
    s = orjson.dumps(state)
    bodies = ([b'{"state":' + s + b',"action":' + orjson.dumps(a) + b"}" for a in actions[:4]]
              + [b'{"state":' + s + b"}", b'{"state":' + s + b',"player":2}',
                 b'{"state":' + s + b',"state":' + s + b"}",                        # a repeated key
                 b'{"state":' + s + b',"action":' + orjson.dumps(actions[0]) + b',"x":1}',   # an unknown field
                 b'{"state":' + s + b',"action":{"type":"build_road"}}',           # an action missing its fields
                 b'{"state":' + s[:-1] + b',"current_player":2}' + b',"action":' + orjson.dumps(actions[0]) + b"}"])
    ops = ["adjudicate"] * 4 + ["derive", "legal-actions", "derive", "adjudicate", "adjudicate", "adjudicate"]
    lines = [b'{"id":' + str(i).encode() + b',"op":"' + op.encode() + b'","body":' + b + b"}  "
             for i, (op, b) in enumerate(zip(ops, bodies))]
    r = c.post("/v1/batch", data=b"\n".join(lines), content_type=ND)
    got = [json.loads(x) for x in r.get_data().splitlines()]
    assert len(got) == len(lines)
    for g, op, b in zip(got, ops, bodies):
        single = c.post(f"/v1/{op}", data=b, content_type="application/json")
        if single.status_code == 200:
            assert g["status"] == 200 and g["body"] == single.get_json(), (op, b[-80:])
        else:
            alone = single.get_json()
            assert g["status"] == single.status_code and g["problem"]["detail"] == alone["detail"]
            assert g["problem"].get("errors") == alone.get("errors")
    assert [g["status"] for g in got][6:9] == [400, 422, 422]
    assert made.count(True) >= 6    # the first line loads the state; the later ones with its text reuse it
