"""The rule-module contract: what a game emits and reports is what its modules declare, the hook list is
the one published, and a scenario defined here alone gets its schema, contract entry, legal actions,
verdicts and scenario page from its declarations."""
from __future__ import annotations

import inspect

import pytest

from service.engine.module import HOOKS, ActionSpec, EventSpec, Hooks
from service.engine.picture import Glyph, Layer
from service.engine.scenarios import SCENARIOS, register
from service.engine.scenarios.base import Scenario
from service.engine.selfplay import play_game, playable_scenarios
from service.engine.spec import F, Int, Obj, Str, by_player

#: Derived values every game reports (the verdict's frame in openapi.template.yaml), not a module's.
CORE_DERIVED = {"victory_points", "longest_road", "longest_road_holder", "largest_army", "winner", "phase",
                "current_player", "closed_ships", "pending_discards", "gold_entitlement", "gold_pending"}


@pytest.mark.parametrize("sid,players", playable_scenarios())
def test_every_event_and_derived_value_of_a_game_is_declared_by_its_modules(sid, players):
    scen = SCENARIOS[sid]
    comp = scen.composition
    bad: list[str] = []

    def step(state, action, verdict):
        for e in verdict.events:
            spec = comp.events.get(e["type"])
            if spec is None:
                bad.append(f"{action.type}: event {e['type']!r} is not declared")
                continue
            shape = Obj({"type": F(Str(max_len=60), required=True), **spec.fields})
            bad.extend(f"{action.type}: event {p}: {r}" for p, r in shape.problems(e, "/event"))
        extra = {k: v for k, v in verdict.derived.items() if k not in CORE_DERIVED}
        bad.extend(f"{action.type}: derived {p}: {r}" for p, r in comp.derived.problems(extra, "/derived"))

    play_game(sid, players, 3, max_actions=250, check=False, on_step=step)
    assert not bad, "\n".join(bad[:10])


def test_the_published_hook_list_is_every_hook_the_base_implements():
    """``Hooks`` (module.py) lists each hook once with its documentation; ``Scenario`` gives each a default."""
    documented = {n for n in HOOKS}
    assert documented == {n for n, v in vars(Hooks).items() if inspect.isfunction(v) and not n.startswith("_")}
    for name in HOOKS:
        assert callable(getattr(Scenario, name)), name
        assert (getattr(Hooks, name).__doc__ or "").strip(), f"hook {name} has no documentation"
    # every method a scenario overrides in practice is a published hook (or a declaration helper)
    allowed = set(HOOKS) | {"option_specs", "option_problems", "all_options", "describe", "definition",
                            "action_types", "handler"}
    for scen in SCENARIOS.values():
        for cls in type(scen).__mro__:
            if cls in (object, Scenario) or not cls.__module__.startswith("service.engine"):
                continue
            for name, v in vars(cls).items():
                if inspect.isfunction(v) and not name.startswith("_") and hasattr(Scenario, name):
                    assert name in allowed, f"{cls.__name__}.{name} overrides something that is not a hook"


def test_the_scenario_page_lists_the_hooks_from_the_composition(client):
    body = client.get("/v1/scenarios/GOLD").get_json()
    assert set(body["hooks"]) == set(SCENARIOS["GOLD"].composition.hooks)
    assert {"legal_candidates", "derived_extra", "pieces_off_grid"} <= set(body["hooks"])


# -- a scenario defined in this file only --------------------------------------------------------------

class _Beacon:
    """``light_beacon``: a player with a settlement pays 1 ore and lights a beacon (a test rule, TEST-1)."""
    @staticmethod
    def check(ctx):
        from service.engine.core import Violation
        s, a = ctx.state, ctx.action
        if s.players[a.player].resources.get("ore", 0) < 1:
            return [Violation("TEST-1", "a beacon costs 1 ore")]
        if a.get("height") > 3:
            return [Violation("TEST-1", "a beacon is at most 3 high", "/action/height")]
        return []

    @staticmethod
    def apply(ctx, s):
        a = ctx.action
        s.players[a.player].resources["ore"] -= 1
        s.bank["ore"] += 1
        lit = s.scenario_state.setdefault("beacons", {})
        lit[str(a.player)] = lit.get(str(a.player), 0) + a.get("height")
        ctx.emit("beacon_lit", player=a.player, height=a.get("height"))


def _beacon_candidates(state, graph, scen, player):
    from service.engine.core import Action
    return [Action("light_beacon", player, {"height": h}) for h in (1, 2, 3, 4)]


def _make_beacon_scenario():
    from service.engine.actions import own_handler
    handler = own_handler("light_beacon", {"main"})(_Beacon).HANDLER

    class Beacons(Scenario):
        id = "TEST-BEACONS"
        name = "Beacons (a scenario defined in a test)"
        ACTIONS = (ActionSpec("light_beacon", {"height": F(Int(1, 9), required=True)}, "Light a beacon.",
                              handler=handler, candidates=_beacon_candidates),)
        STATE = {"beacons": F(by_player(Int(0, 100)), doc="each player's beacon height")}
        DERIVED = {"beacon_height": F(by_player(Int(0, 100)), doc="each player's beacon height")}
        EVENTS = (EventSpec("beacon_lit", {"player": F(Int(0, 3), required=True),
                                           "height": F(Int(1, 9), required=True)}, "A beacon was lit."),)
        module_name = "beacons"

        def derived_extra(self, state, graph):
            return {**super().derived_extra(state, graph),
                    "beacon_height": dict(state.scenario_state.get("beacons") or {})}

        def board_layers(self, state, graph):
            lit = {int(p): n for p, n in (state.scenario_state.get("beacons") or {}).items()}
            return [*super().board_layers(state, graph),
                    Layer("beacon", "beacon (its height)", "triangle", "#ff6f00",
                          tuple(Glyph((p, 0), str(n), p, f"beacon of player {p}") for p, n in sorted(lit.items())))]

        def explain_extra(self, state, graph):
            lit = dict(state.scenario_state.get("beacons") or {})
            return {**super().explain_extra(state, graph),
                    "beacons": {"heights": lit, "why": f"{len(lit)} beacon(s) lit (TEST-1: height 1 to 3)"}}
    return Beacons()


@pytest.fixture()
def beacons():
    scen = register(_make_beacon_scenario())
    from service.api import compose
    try:
        yield scen
    finally:
        SCENARIOS.pop(scen.id, None)
        compose.ACTIONS._kept = {k: v for k, v in compose.ACTIONS._kept.items() if k[0] != scen.id}


def _main_phase_state(client, scen_id):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 5}).get_json()["state"]
    st["scenario"] = scen_id
    st["phase"] = "main"
    st["turn"] = 3
    st["turn_flags"] = {"rolled": True}
    st["players"][0]["resources"] = {"ore": 2}
    st["bank"] = None
    st["setup"] = None
    return st


def test_a_scenario_defined_in_a_test_gets_everything_from_its_declarations(client, beacons):
    st = _main_phase_state(client, beacons.id)
    # its verdicts: the handler judges the new action type, the state field and the event come through
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "light_beacon", "player": 0, "height": 2}})
    assert r.status_code == 200, r.get_data(as_text=True)
    v = r.get_json()
    assert v["legal"] and v["state"]["scenario_state"] == {"beacons": {"0": 2}}
    assert v["events"][0] == {"type": "beacon_lit", "player": 0, "height": 2}
    assert v["derived"]["beacon_height"] == {"0": 2}
    bad = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "light_beacon", "player": 0,
                                                                       "height": 4}}).get_json()
    assert not bad["legal"] and bad["violations"][0]["rule"] == "TEST-1"
    # its schema: the declared field's type and the declared state key are checked at the door
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "light_beacon", "player": 0, "height": 10}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/action/height"
    st2 = {**st, "scenario_state": {"beacons": {"0": "high"}}}
    r = client.post("/v1/adjudicate", json={"state": st2, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/scenario_state/beacons/0"
    st3 = {**st, "scenario_state": {"beakons": {}}}
    r = client.post("/v1/adjudicate", json={"state": st3, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/scenario_state/beakons"
    # its legal actions: the declared candidates, filtered through the same checks
    la = client.post("/v1/legal-actions", json={"state": st, "player": 0}).get_json()
    assert [a["height"] for a in la["actions"]["light_beacon"]] == [1, 2, 3]
    # its picture: the module's layer drawn at its pieces and named in the legend (only once lit)
    lit = v["state"]
    svg = client.post("/v1/render", json={"state": st}).get_data(as_text=True)
    assert 'class="layer beacon"' not in svg and "beacon (its height)" not in svg
    svg = client.post("/v1/render", json={"state": lit}).get_data(as_text=True)
    assert svg.count('class="layer beacon"') == 1 and "beacon (its height)" in svg
    assert svg.count("beacon of player 0") == 1 and svg.count('class="glyph"') == 1
    # its explanations, under the modules' own part
    ex = client.post("/v1/derive?explain=true", json={"state": lit}).get_json()["explanations"]
    assert ex["modules"] == {"beacons": {"heights": {"0": 2}, "why": "1 beacon(s) lit (TEST-1: height 1 to 3)"}}
    # its scenario page and its contract entry
    page = client.get(f"/v1/scenarios/{beacons.id}").get_json()
    assert "light_beacon" in page["actions"] and "derived_extra" in page["hooks"]
    from contract.generate import build
    schemas = build()["components"]["schemas"]
    assert schemas["LightBeacon"]["properties"]["height"]["maximum"] == 9
    assert "beacons" in schemas["ScenarioState"]["properties"]
    assert "beacon_height" in schemas["Derived"]["properties"]
    assert schemas["EventBeaconLit"]["properties"]["type"] == {"type": "string", "enum": ["beacon_lit"]}
    # and the other scenarios know nothing of it
    r = client.post("/v1/adjudicate", json={"state": {**st, "scenario": "base"},
                                            "action": {"type": "light_beacon", "player": 0, "height": 2}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/action/type"
