"""Accepted ⇔ listed or inside a range, both ways, on seeded positions of every scenario with and without
Cities & Knights: every action the legal-action list gives is judged legal, and every action near a listed
one (another player's, a field changed, a field left out, an optional field its type declares given) that
``adjudicate`` accepts is listed or lies inside a listed range (``legal.range_admits``). An action the list
never gives in that form (a parameter that cannot apply, a required one missing) is refused.

The default run takes ``ACCEPTED_POSITIONS`` positions (default 2 per game) and ``ACCEPTED_PER_PLAYER``
listed actions per player (default 3); the ``slow`` test (run with ``RUN_SLOW=1``) takes many more."""
from __future__ import annotations

import json
import os
import random

import pytest

from service.api.errors import Problem
from service.api.service import parse_action
from service.engine.legal import action_json, legal_actions, players_to_act, range_admits
from service.engine.mapgraph import MapGraph
from service.engine.referee import UnsupportedAction, adjudicate
from service.engine.scenarios import scenario_of

from .test_judging_is_read_only import GAMES, _added_forms, _illegal_forms, _label, _played
from .test_legal_property import sail_covered, wagon_covered

POSITIONS = int(os.environ.get("ACCEPTED_POSITIONS", "2"))
PER_PLAYER = int(os.environ.get("ACCEPTED_PER_PLAYER", "3"))


#: Fields that carry an observed outcome (the dice, the event die, the card robbed or drawn): the list gives
#: the form that leaves the draw to the seeded generator, and the action posted with what was observed is
#: that same listed action (the project's rule on randomness).
OBSERVED = {"roll": ("dice", "event"), "move_robber": ("card",), "move_pirate": ("card",), "play_knight": ("card",),
            "chase_robber": ("card",), "buy_development_card": ("card",), "steal_card": ("card",),
            "drive_off_barbarian": ("die",), "chase_warship": ("die",)}


def _key(a, scen=None) -> str:
    js = action_json(a)
    spec = scen.composition.actions.get(a.type) if scen is not None else None
    for k in list(js):
        if k in OBSERVED.get(a.type, ()):
            del js[k]
        elif spec is not None and k in spec.fields and spec.fields[k].default is not None \
                and js[k] == spec.fields[k].default:
            del js[k]                                     # a field at its declared default is the field left out
        elif js[k] is False and spec is not None and k in spec.fields and not spec.fields[k].required:
            del js[k]                                     # a flag left false is the flag left out
        elif k == "target" and a.type in ("play_knight", "chase_robber") and js[k] == "robber" and \
                scen is not None and (not scen.pirate or js.get("hex") is None):
            del js[k]                                     # nothing else to move: the robber is the target left out
    return json.dumps(js, sort_keys=True)


def _check_position(state, rng: random.Random, per_player: int) -> list[str]:
    graph = MapGraph.build(state.terrain_map())
    scen = scenario_of(state)
    found = []
    for p in sorted(set(players_to_act(state)) | {state.current_player}):
        la = legal_actions(state, graph, scen, p)
        listed = [a for acts in la.actions.values() for a in acts]
        keys = {_key(a, scen) for a in listed}
        for a in rng.sample(listed, min(per_player, len(listed))):
            v = adjudicate(state, a, graph, scen, with_derived=False)
            if not v.legal:
                found.append(f"listed but refused: {_key(a)} {v.violations[:1]}")
            for js in list(_illegal_forms(a, listed, state, rng)) + list(_added_forms(a, scen)):
                try:
                    b = parse_action(js, state)
                    v = adjudicate(state, b, graph, scen, with_derived=False)
                except (Problem, UnsupportedAction):
                    continue
                if not v.legal or _key(b, scen) in keys:
                    continue
                if any(range_admits(b.type, spec, b, state, graph, scen) for spec in la.ranges.get(b.type, ())):
                    continue
                if (b.type == "move_wagon" and wagon_covered(la, b, state, graph)) or \
                        (b.type == "sail_ship" and sail_covered(la, b, state, graph)):
                    continue    # listed by destination: one plan per place reached (WAG-004, GOLD-024)
                found.append(f"accepted, never listed: {_key(b)} (near {_key(a)})")
    return found


def _run(game, positions: int, per_player: int) -> list[str]:
    sid, n, options = game
    seed = 31 + GAMES.index(game)
    rng = random.Random(seed)
    states, _ = _played(sid, n, options, seed)
    found = []
    for st in rng.sample(states, min(positions, len(states))):
        found += _check_position(st, rng, per_player)
    return found


@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
def test_accepted_iff_listed(game):
    found = _run(game, POSITIONS, PER_PLAYER)
    assert not found, found[:5]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RUN_SLOW"), reason="a long budget: RUN_SLOW=1 (or -m slow with it)")
@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
def test_accepted_iff_listed_many_positions(game):
    found = _run(game, 25, 10)
    assert not found, found[:5]
