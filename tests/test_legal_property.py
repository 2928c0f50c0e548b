"""Property: on positions reached by random legal play, the legal-action list is exactly the legal set.

Every listed action (and samples of every range) adjudicates legal; sampled actions that are not listed
adjudicate illegal. Runs on every registered scenario that can start a new game, and on a Seafarers
board (ships, pirate, gold field) built from a base board.
"""
from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.core import Action
from service.engine.geometry import hex_distance
from service.engine.legal import action_json, legal_actions, random_action, range_admits, sample_range
from service.engine.mapgraph import RESOURCES, MapGraph
from service.engine.referee import adjudicate
from service.engine.rng import Rng
from service.engine.scenarios import SCENARIOS, get_scenario
from service.engine.state import Tile

STARTABLE = sorted(sid for sid, s in SCENARIOS.items() if s.has_map)
SEAFARERS_BOARD = "seafarers-on-a-base-board"


def seafarers_game(players: int, seed: int):
    """A base board whose frame ring became sea (a new frame around it), one forest turned gold field."""
    scen = get_scenario("seafarers")
    base = get_scenario("base").new_game(players, seed)
    hexes = {}
    for h, t in base.hexes.items():
        hexes[h] = Tile("sea") if t.terrain == "frame" else t
    for q in range(-4, 5):
        for r in range(-4, 5):
            if hex_distance((0, 0), (q, r)) == 4:
                hexes[(q, r)] = Tile("frame")
    forest = next(h for h, t in sorted(base.hexes.items()) if t.terrain == "forest")
    hexes[forest] = Tile("gold", base.hexes[forest].number)
    players_ = [dataclasses.replace(p.copy(), supply=dict(scen.supply)) for p in base.players]
    state = dataclasses.replace(base, scenario="seafarers", hexes=hexes, players=players_, pirate=(0, -3))
    return state, scen


def new_position(sid: str, players: int, seed: int):
    if sid == SEAFARERS_BOARD:
        return seafarers_game(players, seed)
    scen = get_scenario(sid)
    return scen.new_game(players, seed), scen


def _key(a: Action) -> str:
    return json.dumps(action_json(a), sort_keys=True)


def random_candidate(rnd: random.Random, state, graph, scen) -> Action | None:
    """Any well-formed action of a known type, legal or not (what a careless client might post)."""
    n = state.num_players
    t = rnd.choice(sorted(scen.action_types()))
    p = rnd.randrange(n)
    node = lambda: rnd.choice(graph.nodes)  # noqa: E731
    edge = lambda: rnd.choice(graph.edges)  # noqa: E731
    hx = lambda: rnd.choice(sorted(state.hexes))  # noqa: E731
    cards = lambda: {r: rnd.choice((0, 0, 1, 2)) for r in RESOURCES}  # noqa: E731
    victim = lambda: rnd.choice([None] + list(range(n)))  # noqa: E731
    params = {
        "build_settlement": lambda: {"node": node()}, "build_city": lambda: {"node": node()},
        "build_road": lambda: {"edge": edge()}, "build_ship": lambda: {"edge": edge()},
        "roll": lambda: {"dice": None}, "end_turn": lambda: {}, "buy_development_card": lambda: {"card": None},
        "discard": lambda: {"resources": cards()}, "play_year_of_plenty": lambda: {"resources": cards()},
        "choose_gold": lambda: {"resources": cards()},
        "move_robber": lambda: {"hex": hx(), "steal_from": victim(), "card": None},
        "move_pirate": lambda: {"hex": hx(), "steal_from": victim(), "card": None},
        "play_knight": lambda: {"hex": hx(), "steal_from": victim(), "card": None,
                                "target": rnd.choice(("robber", "pirate") if scen.pirate else ("robber",))},
        "play_monopoly": lambda: {"resource": rnd.choice(RESOURCES)},
        "maritime_trade": lambda: {"give": {rnd.choice(RESOURCES): rnd.randint(1, 8)},
                                   "get": {rnd.choice(RESOURCES): rnd.randint(1, 2)}},
        "domestic_trade": lambda: {"partner": rnd.randrange(n), "give": cards(), "get": cards(),
                                   "accepted": rnd.random() < 0.9},
        "move_ship": lambda: {"from": rnd.choice(sorted(state.ships) or graph.edges), "to": edge()},
        "play_road_building": lambda: {"pieces": [{"kind": rnd.choice(("road", "ship") if scen.ships else ("road",)),
                                                   "edge": edge()} for _ in range(rnd.choice((1, 2, 2)))]},
    }
    if t not in params:
        return None          # a scenario's own action type: its hook lists candidates, not this sampler
    return Action(t, p, params[t]())


def listed(la, a: Action) -> bool:
    if a.type in la.ranges:
        return any(range_admits(a.type, spec, a) for spec in la.ranges[a.type])
    return _key(a) in {_key(x) for x in la.actions.get(a.type, [])}


def check_position(state, graph, scen, rnd: random.Random, rng: Rng) -> None:
    la = legal_actions(state, graph, scen)
    for acts in la.actions.values():
        for a in acts:
            v = adjudicate(state, a, graph, scen, with_derived=False)
            assert v.legal, (action_json(a), v.violations)
    for specs in la.ranges.values():
        for spec in specs:
            for a in [sample_range(spec, rng) for _ in range(2)]:
                v = adjudicate(state, a, graph, scen, with_derived=False)
                assert v.legal, (spec, action_json(a), v.violations)
    by_player = {la.player: la}
    for _ in range(12):
        a = random_candidate(rnd, state, graph, scen)
        if a is None:
            continue
        if a.player not in by_player:
            by_player[a.player] = legal_actions(state, graph, scen, a.player)
        v = adjudicate(state, a, graph, scen, with_derived=False)
        assert v.legal == listed(by_player[a.player], a), (
            "legal but not listed" if v.legal else "listed but illegal", action_json(a), v.violations)


@pytest.mark.parametrize("sid", STARTABLE + [SEAFARERS_BOARD])
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), warmup=st.integers(0, 160))
def test_listed_actions_adjudicate_legal_and_unlisted_ones_illegal(sid, seed, warmup):
    scen0 = get_scenario("seafarers" if sid == SEAFARERS_BOARD else sid)
    players = scen0.players[seed % len(scen0.players)]
    state, scen = new_position(sid, players, seed)
    graph = MapGraph.build(state.terrain_map())
    rng, rnd = Rng(seed, 0), random.Random(seed)
    for step in range(warmup + 20):
        if step >= warmup:
            check_position(state, graph, scen, rnd, rng)
        a = random_action(legal_actions(state, graph, scen), rng)
        if a is None:
            break
        v = adjudicate(state, a, graph, scen, with_derived=False)
        assert v.legal, (action_json(a), v.violations)
        state = v.state
