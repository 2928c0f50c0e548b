"""The prefiltered legal-action list equals the plain one (every candidate of the full generators judged
by ``referee.check_action``), on many random positions of every scenario that can start a game: base
positions (where prefiltered candidates are listed without judging them again) and scenario positions
(where the scenario's own checks still judge every survivor)."""
from __future__ import annotations

import json

import pytest

from service.engine.legal import _legal_actions, action_json, players_to_act, random_action
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.rng import Rng
from service.engine.scenarios import SCENARIOS, get_scenario

STARTABLE = sorted(sid for sid, s in SCENARIOS.items() if s.has_map)


def _listing(la) -> str:
    return json.dumps(la.to_json(), sort_keys=True)


def _play(scen, players: int, seed: int, moves: int):
    """Positions of one seeded random game (building preferred, so networks grow), each for every player."""
    state = scen.new_game(players, seed)
    graph = MapGraph.build(state.terrain_map())
    rng = Rng(seed, 11)
    for _ in range(moves):
        if state.phase == "game_over":
            return
        yield state, graph
        la = _legal_actions(state, graph, scen, None, True)
        builds = [t for t in ("build_settlement", "build_city", "build_road", "build_ship") if t in la.actions]
        if builds and rng.below(3):
            acts = la.actions[builds[rng.below(len(builds))]]
            action = acts[rng.below(len(acts))]
        else:
            action = random_action(la, rng)
        if action is None:
            return
        v = adjudicate(state, action, graph, scen, with_derived=False)
        assert v.legal, (action, v.violations)
        # keep the game moving: hand out a few cards now and then so that every type comes up
        state = v.state
        if rng.below(4) == 0 and state.phase == "main":
            p = state.players[state.current_player]
            for r in ("lumber", "brick", "wool", "grain", "ore"):
                if state.bank.get(r, 0) > 0:
                    state.bank[r] -= 1
                    p.resources[r] += 1


def _compare(scen, state, graph) -> int:
    n = 0
    for p in sorted(set(players_to_act(state)) | {state.current_player} | set(range(state.num_players))):
        fast = _legal_actions(state, graph, scen, p, True)
        slow = _legal_actions(state, graph, scen, p, False)
        assert _listing(fast) == _listing(slow), (state.phase, p, sorted(
            {json.dumps(action_json(a)) for acts in fast.actions.values() for a in acts}
            ^ {json.dumps(action_json(a)) for acts in slow.actions.values() for a in acts})[:10])
        n += fast.count
    return n


@pytest.mark.parametrize("seed", range(1, 9))
def test_base_prefiltered_list_equals_the_plain_one(seed):
    scen = get_scenario("base")
    listed = 0
    for state, graph in _play(scen, 3 + seed % 2, seed, 400):
        listed += _compare(scen, state, graph)
    assert listed > 500


@pytest.mark.parametrize("sid", STARTABLE)
def test_scenario_prefiltered_list_equals_the_plain_one(sid):
    scen = get_scenario(sid)
    for state, graph in _play(scen, scen.players[0], 5, 150):
        _compare(scen, state, graph)


def test_hands_in_another_key_order_or_with_kinds_missing_list_the_same():
    scen = get_scenario("base")
    positions = [(s, g) for s, g in _play(scen, 4, 3, 200) if s.phase == "main"]
    assert positions
    for state, graph in positions[:40]:
        s = state.copy()
        for i, pl in enumerate(s.players):
            items = sorted(pl.resources.items(), reverse=True)
            pl.resources = {r: n for r, n in items if n or i % 2}      # reversed, zeros dropped for some
        _compare(scen, s, graph)


# -- Road Building and ship moves: the prefilters read the pieces placed before (BASE-DEV-6, SEA-008) -------

def _with_road_building(state, roads: int, ships: int):
    """The position with the current player holding a playable Road Building card and the given supply."""
    s = state.copy()
    pl = s.players[s.current_player]
    pl.dev_cards = {**pl.dev_cards, "road_building": 1}
    pl.supply["roads"], pl.supply["ships"] = roads, ships
    s.flags.dev_card_played = False
    return s


@pytest.mark.parametrize("sid", ["base", "SC01", "SC04", "TDE3"])
def test_road_building_in_hand_lists_the_same_as_the_plain_list(sid):
    """BASE-DEV-6 / SEA-023: with the card in hand and supplies of 2+2, 1+1, 1+0 and 0+2 pieces, the Road
    Building actions the prefilter proposes (the second piece connected through the first) are those of the
    plain list, which judges every pair of the full generator."""
    scen = get_scenario(sid)
    listed = 0
    positions = [(s, g) for s, g in _play(scen, scen.players[0], 7, 160) if s.phase in ("main", "roll")]
    assert positions
    for state, graph in positions[::6]:
        for roads, ships in ((2, 2), (1, 1), (1, 0), (0, 2)):
            s = _with_road_building(state, roads, ships)
            fast = _legal_actions(s, graph, scen, s.current_player, True)
            slow = _legal_actions(s, graph, scen, s.current_player, False)
            assert _listing(fast) == _listing(slow), (sid, roads, ships)
            listed += len(fast.actions.get("play_road_building", []))
    assert listed > 100


@pytest.mark.parametrize("sid", ["SC01", "SC04", "SC07", "TDE3", "DIAM"])
def test_ship_moves_list_the_same_as_the_plain_list(sid):
    """SEA-015..018 / SEA-008: the ship moves the prefilter proposes (each ship judged once, destinations
    connected without the ship) are those of the plain list, which judges every ship on every sea edge;
    with Diamond Isles' own handler (DIAM-010..013: routes and village anchors) each ship is judged once
    (``seafarers.move_source_violations``) and each destination by the rest of the check."""
    scen = get_scenario(sid)
    moved = 0
    for state, graph in _play(scen, scen.players[0], 3, 250):
        if state.phase == "main":
            fast = _legal_actions(state, graph, scen, state.current_player, True)
            slow = _legal_actions(state, graph, scen, state.current_player, False)
            assert _listing(fast) == _listing(slow)
            moved += len(fast.actions.get("move_ship", []))
    assert moved > 50


@pytest.mark.parametrize("seed", [2, 5])
def test_diamond_isles_knights_and_robbers_list_the_same_as_the_plain_list(seed):
    """BASE-DEV-5 with DIAM-014/015 (who may move the robber and the pirate) and DIAM-016 (the pirate takes
    a card or a diamond): the Knights and robber and pirate moves Diamond Isles' handlers take from the
    engine's prefilter (``Handler.prefiltered``), with its own candidates after them (a Knight without a
    move, the diamond thefts), are those of the plain list, which judges every hex and victim."""
    scen = get_scenario("DIAM")
    listed = 0
    for state, graph in _play(scen, scen.players[0], seed, 250):
        if state.phase not in ("roll", "main", "robber"):
            continue
        s = state.copy()
        pl = s.players[s.current_player]
        pl.dev_cards = {**pl.dev_cards, "knight": 1}
        s.flags.dev_card_played = False
        fast = _legal_actions(s, graph, scen, s.current_player, True)
        slow = _legal_actions(s, graph, scen, s.current_player, False)
        assert _listing(fast) == _listing(slow)
        listed += sum(len(fast.actions.get(t, [])) for t in ("play_knight", "move_robber", "move_pirate"))
    assert listed > 100
