"""The request path's shortcuts answer exactly as the plain code they stand in for.

The one-pass state loader against ``StateSchema.load``, the byte-level depth check against the walk of
the parsed value, the level-1 cache key against the content hash, the verdict text against
``json.dumps(verdict_json(...))``.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from marshmallow import ValidationError

from service.api import create_app
from service.api.body import _depth, _shallow
from service.api.codec import dump_state
from service.api.fastload import Fallback, compile_schema, load_or_schema
from service.api.compose import union_action_schemas
from service.api.schemas import StateSchema, load_action

ACTION_SCHEMAS = union_action_schemas()
from service.api.service import _LOAD_STATE, judge, parse_action, parse_state, verdict_json, verdict_text
from service.cache import GraphCache
from service.engine.scenarios import SCENARIOS

SCHEMA = StateSchema()
JUNK = [None, True, 0, 1, -1, 7, 65, 2**64, 1.0, "", "x", "N", "SW", "lumber", "wood", [], [0, 0], [0, 0, "N"],
        [0, 0, "NW"], [65, 0, "E"], [True, 0, "N"], [1.0, 0, "S"], {}, {"0": 1}, {"wood": 1}, {"ore": 10_001},
        {"q": 0, "r": 0, "terrain": "sea"}, {"q": 0, "r": 0, "terrain": "hills", "number": 7},
        {"player": 0, "node": [0, 0, "N"]}, {"player": 4, "edge": [0, 0, "E"]}, "x" * 70]


def states() -> list[dict]:
    """A new game of every scenario, as the state schema loads it (module player values taken apart first,
    as ``parse_state`` does)."""
    from service.api.service import split_player_extras
    out = []
    for sc in SCENARIOS.values():
        if sc.has_map:
            out.append(split_player_extras(dump_state(sc.new_game(max(sc.players), 7)))[0])
    return out


def _paths(v, p=()):
    yield p
    if isinstance(v, dict):
        for k in v:
            yield from _paths(v[k], p + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, p + (i,))


def mutate(v, rnd: random.Random):
    v = copy.deepcopy(v)
    paths = [p for p in _paths(v) if p]
    for _ in range(rnd.choice((1, 1, 2))):
        p = rnd.choice(paths)
        parent = v
        try:
            for k in p[:-1]:
                parent = parent[k]
            r = rnd.random()
            if r < 0.75:
                parent[p[-1]] = copy.deepcopy(rnd.choice(JUNK))
            elif isinstance(parent, dict):
                if r < 0.9:
                    del parent[p[-1]]
                else:
                    parent["unknown"] = 1
        except (KeyError, IndexError, TypeError):
            pass
    return v


def outcome(load, value):
    try:
        return "ok", load(value)
    except ValidationError as e:
        return "error", e.messages


def test_the_fast_loader_gives_what_the_schema_gives_for_every_scenario():
    for st in states():
        assert _LOAD_STATE(st) == SCHEMA.load(st), st["scenario"]


def test_the_fast_loader_never_accepts_what_the_schema_refuses_and_errors_are_the_schemas():
    rnd = random.Random(5)
    base = states()
    fast_accepted = 0
    for _ in range(1500):
        st = mutate(rnd.choice(base), rnd)
        want = outcome(SCHEMA.load, st)
        assert outcome(lambda x: load_or_schema(SCHEMA, _LOAD_STATE, x), st) == want
        try:
            got = _LOAD_STATE(st)
        except (Fallback, ValidationError):
            continue
        fast_accepted += 1
        assert want == ("ok", got)
    assert fast_accepted > 20   # the mutations also leave valid states, which take the fast path


@pytest.mark.parametrize("action", [
    {"type": "build_road", "player": 1, "edge": [0, 0, "W"], "token_from": [[1, 1]]},
    {"type": "roll", "player": 0}, {"type": "roll", "player": 0, "dice": [3, 4]},
    {"type": "discard", "player": 2, "resources": {"wood": 2}},
    {"type": "play_knight", "player": 0, "hex": [0, 1], "steal_from": 1, "target": "pirate"},
    {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"ore": 1}, "get": {"gold": 1}, "accepted": True},
    {"type": "move_ship", "player": 0, "from": [0, 0, "E"], "to": [0, 0, "NE"]},
    {"type": "play_road_building", "player": 0, "pieces": [{"kind": "ship", "edge": [0, 0, "E"]}],
     "discoveries": [{"terrain": "sea"}]},
])
def test_actions_load_as_the_schema_loads_them(action):
    rnd = random.Random(action["type"])
    schema = ACTION_SCHEMAS[action["type"]]
    fast = compile_schema(schema)
    assert fast(action) == schema.load(action)
    for _ in range(200):
        a = mutate(action, rnd)
        if isinstance(a, dict) and a.get("type") == action["type"]:
            assert outcome(lambda x: load_or_schema(schema, fast, x), a) == outcome(schema.load, a)
    from service.engine.scenarios import SCENARIOS
    loaded = []
    for sid, sc in SCENARIOS.items():   # the scenarios whose modules give every field of the sample a meaning
        try:
            loaded.append(load_action(action, sid).type)
        except ValidationError:
            pass
    assert loaded and set(loaded) == {action["type"]}


def test_the_depth_shortcut_never_passes_what_the_walk_refuses():
    rnd = random.Random(3)

    def gen(d):
        if d > 36 or rnd.random() < 0.2:
            return rnd.choice([1, "a[", "]}", 'x\\"[y', "", None, "{[[", 2.5])
        if rnd.random() < 0.5:
            return [gen(d + 1) for _ in range(rnd.choice((0, 1, 1, 2)))]
        return {f"k{i}{rnd.choice(['', '[', '}'])}": gen(d + 1) for i in range(rnd.choice((0, 1, 1, 2)))}

    def nest(n, leaf):
        for i in range(n):
            leaf = [leaf] if i % 2 else {"a": leaf}
        return leaf

    values = [gen(0) for _ in range(3000)] + [nest(n, leaf) for n in range(29, 35) for leaf in (1, [], {}, "]", [1])]
    shortcuts = 0
    for v in values:
        try:
            _depth(v)
            deep = False
        except ValueError:
            deep = True
        if _shallow(json.dumps(v).encode()):
            shortcuts += 1
            assert not deep, json.dumps(v)[:200]
    assert shortcuts > 1000


def test_the_level_1_key_tells_boards_apart_and_ignores_order():
    c = GraphCache()
    a = {(0, 0): "forest", (1, 0): "sea"}
    g = c.get(a)
    assert c.get(dict(reversed(list(a.items())))) is g
    other = c.get({(0, 0): "hills", (1, 0): "sea"})
    assert other is not g and other.terrain == {(0, 0): "hills", (1, 0): "sea"}
    assert c.stats["l1_hit"] == 1 and c.stats["miss"] == 2


def test_the_verdict_text_is_the_verdict_json():
    app = create_app({"TESTING": True})
    cache = app.extensions["graph_cache"]
    st = SCENARIOS["SC01"].new_game(3, 4)
    for free in ({}, {"faces_island": {"\x00board\x00": True}}):   # a request string spelling the splice marker
        state, graph = parse_state(dict(dump_state(st), scenario_state={**st.scenario_state, **free}), cache)
        for a in ({"type": "build_settlement", "player": 0, "node": [2, 0, "N"]},
                  {"type": "end_turn", "player": 0}):
            v = judge(state, parse_action(a, state), graph)
            for extra in (None, {"explanations": {"x": 1}}):
                want = verdict_json(v) | (extra or {})
                assert verdict_text(v, extra) == json.dumps(want, separators=(",", ":"))


def _parse_outcome(raw):
    from service.api.errors import Problem
    try:
        state, _ = parse_state(copy.deepcopy(raw), GraphCache())
    except Problem as p:
        return ("problem", p.status, p.detail, p.errors)
    return ("ok", dump_state(state))


def test_a_kept_board_answers_as_loading_it_again():
    """``parse_state`` keeps loaded boards (keyed by their JSON text): a state posted with a kept board,
    valid or broken anywhere else, parses exactly as it does with nothing kept."""
    import service.api.posted_state as svc
    rnd = random.Random(11)
    base = states()
    broken_rest_on_kept_board = 0
    for _ in range(400):
        b = rnd.choice(base)
        st = mutate(b, rnd) if rnd.random() < 0.8 else b
        svc._BOARDS.clear()
        cold = _parse_outcome(st)
        svc._BOARDS.clear()
        _parse_outcome(b)                        # a valid state: its board is kept
        assert svc._BOARDS
        warm = _parse_outcome(st)                # the kept board serves st when st's board is b's
        assert warm == cold
        if st.get("board") == b["board"] and cold[0] == "problem":
            broken_rest_on_kept_board += 1
    assert broken_rest_on_kept_board > 50


def test_a_kept_board_is_never_changed_by_the_states_built_on_it():
    import service.api.posted_state as svc
    st = states()[3]
    svc._BOARDS.clear()
    a, _ = parse_state(copy.deepcopy(st), GraphCache())
    kept = copy.deepcopy(list(svc._BOARDS.values()))
    b, _ = parse_state(copy.deepcopy(st), GraphCache())
    assert dump_state(a) == dump_state(b) and list(svc._BOARDS.values()) == kept
