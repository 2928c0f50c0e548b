"""Fuzzing the Cities & Knights action types against real C&K positions (the schemathesis run posts
generated states, which are rarely C&K games, so the module's handlers are reached here): every action
type the module declares, with field values drawn from the declared types (valid and out-of-range
coordinates, cards, players, progress cards by ID and by 2025 name), posted with positions of seeded C&K
games (base map and Seafarers), must be answered 200 (a verdict) or 4xx problem+json naming a field,
never a 5xx, and never change the posted state."""
from __future__ import annotations

import copy
import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine import spec as T
from service.engine.modules.cities_and_knights.module import CK_ACTION_SPECS
from service.engine.modules.cities_and_knights.seafaring import SeafaringCitiesAndKnights

OPT = {"cities_and_knights": True}
CK_TYPES = sorted({a.type for a in CK_ACTION_SPECS} | {a.type for a in SeafaringCitiesAndKnights.ACTIONS})


def value_of(t: T.Type, depth: int = 0) -> st.SearchStrategy:
    """Values of a declared type, with some just outside it."""
    if isinstance(t, T.Null):
        return st.none() | value_of(t.of, depth)
    if isinstance(t, T._Place):
        return st.tuples(st.integers(-4, 4), st.integers(-4, 4), st.sampled_from(t.names + ("X",))).map(list)
    if isinstance(t, T.HexT):
        return st.tuples(st.integers(-4, 4), st.integers(-4, 4)).map(list)
    if isinstance(t, T.Bool):
        return st.booleans()
    if isinstance(t, T.Int):
        lo, hi = max(t.lo, -3), min(t.hi, 12)
        return st.integers(lo - 1, hi + 1)
    if isinstance(t, T.Str):
        return st.sampled_from(t.enum) if t.enum else st.text(max_size=8)
    if isinstance(t, T.Cards):
        return st.dictionaries(st.sampled_from(t.kinds), st.integers(-1, 5), max_size=4)
    if isinstance(t, T.List):
        return st.lists(value_of(t.item, depth + 1), max_size=min(t.max_len, 3)) if depth < 3 else st.just([])
    if isinstance(t, T.Map):
        return st.dictionaries(st.sampled_from(["0", "1", "2", "3", "9"]), value_of(t.value, depth + 1), max_size=3)
    if isinstance(t, T.Obj):
        return st.fixed_dictionaries({k: value_of(f.type, depth + 1) for k, f in t.fields.items()})
    return st.none()


@functools.lru_cache(maxsize=1)
def positions() -> list[dict]:
    """Positions along seeded C&K games: base map and New Shores, every phase they reach."""
    from service.api.codec import dump_state
    from service.engine.selfplay import play_game
    out = []
    for sid, n, seed in (("base", 3, 5), ("SC01", 4, 2)):
        g = play_game(sid, n, seed, max_actions=400, options=OPT, check=False)
        from service.engine.mapgraph import MapGraph
        from service.engine.referee import adjudicate
        from service.engine.scenarios import scenario_of
        s = g.initial
        scen = scenario_of(s)
        graph = MapGraph.build(s.terrain_map())
        for i, a in enumerate(g.log):
            if i % 25 == 0 or s.phase in ("discard", "robber"):
                out.append(dump_state(s))
            v = adjudicate(s, a, graph, scen, with_derived=False)
            s, graph = v.state, v.graph or graph
    return out


def action_of(type_: str) -> st.SearchStrategy:
    from service.engine.scenarios import get_scenario, with_expansions
    fields = {}
    for sid in ("base", "SC01"):
        spec = with_expansions(get_scenario(sid), OPT).composition.actions.get(type_)
        if spec is not None:
            fields.update(spec.fields)
    opt = {k: value_of(f.type) for k, f in fields.items()}
    need = {k for k, f in fields.items() if f.required}          # mostly given: the handlers are reached
    return st.builds(lambda p, kw, keep: {"type": type_, "player": p,
                                          **{k: v for k, v in kw.items() if k in keep or k in need}},
                     st.integers(0, 3), st.fixed_dictionaries(opt), st.sets(st.sampled_from(sorted(fields) or ["_"])))


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          database=None)
@given(st.data())
def test_new_action_types_answer_a_verdict_or_a_problem(client, data):
    """Every C&K action type: a verdict or a 4xx problem naming a field, never a 5xx; the state posted
    is never changed."""
    pos = positions()
    state = pos[data.draw(st.integers(0, len(pos) - 1))]
    t = data.draw(st.sampled_from(CK_TYPES))
    action = data.draw(action_of(t))
    body = {"state": state, "action": action}
    before = copy.deepcopy(body)
    r = client.post("/v1/adjudicate", json=body)
    assert r.status_code in (200, 422, 400), (r.status_code, action, r.get_data(as_text=True)[:300])
    if r.status_code != 200:
        problem = r.get_json()
        assert r.mimetype == "application/problem+json" and problem["errors"]
        assert all(e["pointer"].startswith("/") for e in problem["errors"])
    else:
        assert isinstance(r.get_json()["legal"], bool)
    assert body == before


def test_positions_reach_the_new_types():
    """The fuzzed positions are C&K games in several phases (the roll, the main phase, a 7)."""
    phases = {p["phase"] for p in positions()}
    assert {"roll", "main"} <= phases and all(p["options"] == OPT for p in positions())
