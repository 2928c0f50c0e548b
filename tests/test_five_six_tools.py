"""The referee's tools in 5-6 player games (BASE56-*): legal actions (whose slot it is), replay, pictures
(six colours apart for colour-blind players, the phase marker), explanations, perft of the opening; and a
random game to a winner."""
from __future__ import annotations

import itertools
import math
import os

import pytest

from service.engine.geometry import node_edges, node_neighbours
from service.engine.mapgraph import MapGraph
from service.engine.scenarios import scenario_of, start_game
from service.engine.selfplay import play_game
from service.render.svg import PLAYER_COLOURS

from .five_six_util import paired, position, rich, sbp
from .spec_util import check_response


def test_BASE56_028_legal_actions_name_the_slot(client):
    """BASE56-028/-029: in the Special Building Phase the legal-action list names the slot's seat as the one
    to act, offers it building, buying and ending the slot only, and offers nothing to any other seat."""
    st = sbp(5, ended=2, hands={3: rich(), 4: rich()})
    r = client.post("/v1/legal-actions", json={"state": st})
    check_response("/v1/legal-actions", "post", r)
    la = r.get_json()
    assert la["players_to_act"] == [3] and la["player"] == 3 and la["phase"] == "special_build"
    assert set(la["actions"]) <= {"build_road", "build_settlement", "build_city", "buy_development_card", "end_turn"}
    assert {"build_road", "buy_development_card", "end_turn"} <= set(la["actions"]) and not la["ranges"]
    for p in (2, 4, 0):
        other = client.post("/v1/legal-actions", json={"state": st, "player": p}).get_json()
        assert other["count"] == 0 and other["players_to_act"] == [3]


def test_BASE56_044_legal_actions_of_p2(client):
    """BASE56-044: P2's list has bank trade and building, never a trade with players or a roll."""
    st = paired(6, first=1, hands={4: rich()})
    la = client.post("/v1/legal-actions", json={"state": st}).get_json()
    assert la["players_to_act"] == [4]
    kinds = set(la["actions"]) | set(la["ranges"])
    assert {"maritime_trade", "build_road", "end_turn"} <= kinds
    assert "domestic_trade" not in kinds and "roll" not in kinds


def test_BASE56_033_replay_of_a_five_player_game(client):
    """BASE56-033: a replay of a 5-player game runs through its Special Building Phases; an action from a seat
    out of its slot is the first illegal one, citing BASE56-028."""
    g = play_game("base", 5, 11, max_actions=400)
    assert not g.failures
    log = [{"type": a.type, "player": a.player, **{k: (list(v) if isinstance(v, tuple) else v)
                                                   for k, v in a.params.items() if v is not None}} for a in g.log]
    body = {"new_game": {"scenario": "base", "players": 5, "seed": 11}, "actions": log}
    r = client.post("/v1/replay", json=body)
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["applied"] == len(log) and out["first_illegal"] is None
    i = next(i for i, a in enumerate(g.log) if a.type == "end_turn")        # the first turn's end
    wrong = {"type": "end_turn", "player": (g.log[i].player + 3) % 5}
    r = client.post("/v1/replay", json={**body, "actions": log[:i + 1] + [wrong]})
    f = r.get_json()["first_illegal"]
    assert f["index"] == i + 1 and f["rules"] == ["BASE56-028"]


def _cvd_lab(hexc: str, kind: str) -> tuple:
    """CIELAB of a colour seen with a colour-vision deficiency (Machado et al. 2009, severity 1)."""
    m = {"normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
         "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
         "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
         "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900))
         }[kind]

    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    rgb = [lin(int(hexc[i:i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (max(0.0, min(1.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               0.0193 * r + 0.1192 * g + 0.9505 * b)

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def test_BASE56_002_six_colours_stay_apart_for_colour_blind_players():
    """BASE56-002: six seats, six piece colours; under simulated protanopia, deuteranopia and tritanopia every
    pair stays at least 25 CIELAB units apart (the colours 5 and 6 of the box, green and brown, fall to 16
    against red)."""
    assert len(PLAYER_COLOURS) == 6 and len(set(PLAYER_COLOURS)) == 6
    worst = min(math.dist(_cvd_lab(a, k), _cvd_lab(b, k)) for k in ("normal", "protan", "deutan", "tritan")
                for a, b in itertools.combinations(PLAYER_COLOURS, 2))
    assert worst >= 25
    box = PLAYER_COLOURS[:4] + ("#2e7d32", "#6d4c41")
    assert min(math.dist(_cvd_lab(a, "deutan"), _cvd_lab(b, "deutan")) for a, b in itertools.combinations(box, 2)) < 20


def test_BASE56_033_the_picture_marks_the_phase(client):
    """BASE56-033: the picture of a Special Building Phase position says whose slot it is and who follows;
    the paired turn's picture names P1 and P2 (BASE56-042); six players' pieces each in their colour."""
    r = client.post("/v1/render", json={"state": sbp(6, ended=2)})
    assert r.status_code == 200
    svg = r.get_data(as_text=True)
    assert "Special Building Phase" in svg and "slot of player 3" in svg and "next turn: player 3" in svg
    for c in PLAYER_COLOURS:
        assert c in svg
    svg = client.post("/v1/render", json={"state": paired(6, first=1)}).get_data(as_text=True)
    assert "Paired players" in svg and "P2: player 4" in svg
    assert "Special Building Phase" not in client.post("/v1/render", json={"state": position(4)}).get_data(as_text=True)


def test_BASE56_035_explanations_say_why(client):
    """BASE56-035 and -028 in words: the explanation of a Special Building Phase position names the slot, the
    order, what a slot may do and that nobody wins in it."""
    r = client.post("/v1/derive?explain=true", json={"state": sbp(5, ended=0, slot=2)})
    assert r.status_code == 200
    ex = r.get_json()["explanations"]["modules"]["five_six"]
    assert ex["slot"] == 2 and ex["remaining"] == [3, 4] and ex["ended"] == 0
    assert "BASE56-028" in ex["why"] and "BASE56-035" in ex["why"]
    ex = client.post("/v1/derive?explain=true", json={"state": paired(5, first=2)}).get_json()
    assert "BASE56-046" in ex["explanations"]["modules"]["five_six"]["why"]


def test_BASE56_014_perft_of_the_opening_agrees_with_the_geometry():
    """BASE56-014: perft 1-3 of the 5-player opening equals the count from the board alone: 80 settlement
    spots, then each spot's roads, then the next player's spots clear of the first settlement."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("perft", Path(__file__).resolve().parents[1] / "bench" / "perft.py")
    perft = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(perft)
    s = start_game("base", 5, 1)
    scen, g = scenario_of(s), MapGraph.build(s.terrain_map())
    land = [g.nodes[i] for i in range(len(g.nodes)) if g.node_land[i]]
    roads = {n: sum(1 for e in node_edges(n) if e in g.edge_index and g.road_edge(g.edge_index[e])) for n in land}
    landset = set(land)
    expect = [len(land), sum(roads.values()),
              sum(roads[n] * (len(land) - 1 - sum(1 for m in node_neighbours(n) if m in landset)) for n in land)]
    assert expect[0] == 80
    assert [perft.perft(s, g, scen, d) for d in (1, 2, 3)] == expect


@pytest.mark.parametrize("n,seed,options", [(5, 1, None)])
def test_BASE56_026_a_random_five_player_game_to_a_winner(n, seed, options):
    """BASE56-026..036: seeded random play of a 5-player game reaches a winner with every invariant held (a
    player at 10 VP during a Special Building Phase is not an error: BASE56-035)."""
    g = play_game("base", n, seed, max_actions=3000, options=options)
    assert g.ended == "won" and not g.failures
    assert any(a.type == "end_turn" for a in g.log)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("SEAFARERS_SLOW"), reason="slow (about 40 s): run with SEAFARERS_SLOW=1")
@pytest.mark.parametrize("n,seed,options", [(5, s, None) for s in (2, 3)] + [(6, s, None) for s in (1, 2, 3)]
                         + [(5, 4, {"five_six_mode": "paired"}), (6, 4, {"five_six_mode": "paired"}),
                            (6, 5, {"five_six_board": "variable"})])
def test_BASE56_041_soak_games_of_five_and_six_to_a_winner(n, seed, options):
    """BASE56-041: 5- and 6-player games, both modes and a variable board, to a winner (slow)."""
    g = play_game("base", n, seed, max_actions=6000, options=options)
    assert g.ended == "won" and not g.failures, (g.ended, g.failures[:3])


def test_BASE56_050_scenario_pages_give_the_player_counts(client):
    """BASE56-050: the pages of the scenarios whose maps we ship say 3-4 players; the base game and the general
    Seafarers rules say 3-6 (BASE56-002)."""
    pages = {s["id"]: s for s in client.get("/v1/scenarios").get_json()["scenarios"]}
    assert pages["base"]["players"] == [3, 4, 5, 6] and pages["seafarers"]["players"] == [3, 4, 5, 6]
    assert all(set(pages[sid]["players"]) <= {3, 4} for sid in pages if sid not in ("base", "seafarers"))


def test_BASE56_052_a_seafarers_slot_lists_ships_to_build_not_to_move(client):
    """BASE56-052: the legal actions of a Seafarers slot have ships to build and none to move."""
    from .test_five_six import _coast_edge
    st = position(5, scenario="seafarers", frame_terrain="sea", phase="special_build", current=4,
                  scenario_state={"special_build": {"ended": 3}}, hands={4: rich()},
                  ships=[(4, _coast_edge((-3, 3, "S")))])
    la = client.post("/v1/legal-actions", json={"state": st}).get_json()
    assert la["players_to_act"] == [4] and "build_ship" in la["actions"] and "move_ship" not in la["actions"]


def _posted_game(client, n: int, seed: int, mode=None, cap: int = 4000):
    """Seeded random play (leaning to building, as ``selfplay``) from a posted Seafarers 5-6 board in set-up
    (the general rules have no map: R-001), every invariant checked after every action."""
    import collections
    from service.api.service import parse_state
    from service.engine.legal import legal_actions, players_to_act
    from service.engine.referee import adjudicate
    from service.engine.rng import Rng
    from service.engine.selfplay import invariants, leaning, pick_action
    st = position(n, scenario="seafarers", frame_terrain="sea", phase="setup", seats=False, mode=mode)
    with client.application.app_context():
        s, g = parse_state(st, client.application.extensions["graph_cache"])
    scen = scenario_of(s)
    rng, lean, seen, fails = Rng(seed, 1), leaning(scen), collections.Counter(), []
    for _ in range(cap):
        if s.phase == "game_over":
            break
        a = pick_action(legal_actions(s, g, scen, players_to_act(s)[0]), rng, lean, s)
        v = adjudicate(s, a, g, scen)
        assert v.legal, (a, v.violations)
        seen[(a.type, s.phase)] += 1
        s, g = v.state, v.graph or g
        fails += invariants(s, g, scen)
    return s, seen, fails


def test_BASE56_052_a_seafarers_five_player_game_to_a_winner(client):
    """BASE56-051/052: a 5-player Seafarers game on a posted board, played to a winner: ships built in
    Special Building Phase slots, never moved there, every invariant held."""
    s, seen, fails = _posted_game(client, 5, 5)
    assert s.phase == "game_over" and not fails
    assert seen[("build_ship", "special_build")] > 0 and seen[("move_ship", "special_build")] == 0


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("SEAFARERS_SLOW"), reason="slow: run with SEAFARERS_SLOW=1")
def test_BASE56_053_a_seafarers_six_player_paired_game_to_a_winner(client):
    """BASE56-053: a 6-player Seafarers game in the paired mode to a winner (P2 builds and moves ships)."""
    s, seen, fails = _posted_game(client, 6, 7, mode="paired", cap=8000)
    assert s.phase == "game_over" and not fails
    assert seen[("build_ship", "paired")] + seen[("move_ship", "paired")] > 0


@pytest.mark.parametrize("n,seed,mode", [(5, 1, None), (6, 4, "paired")])
def test_BASE56_029_prefiltered_lists_equal_the_plain_ones(n, seed, mode):
    """BASE56-029/-044: in 5-6 games (Special Building Phase slots, P2's phase) the prefiltered legal-action
    list equals the plain one, every candidate of the full generators judged."""
    from service.engine.legal import random_action
    from service.engine.referee import adjudicate
    from service.engine.rng import Rng
    from .test_legal_fast import _compare
    state = start_game("base", n, seed, {"five_six_mode": mode} if mode else None)
    scen, graph, rng = scenario_of(state), MapGraph.build(state.terrain_map()), Rng(seed, 11)
    phases = set()
    for i in range(160):
        if state.phase == "game_over":
            break
        phases.add(state.phase)
        _compare(scen, state, graph)
        la = legal_actions_of(state, graph, scen)
        builds = [t for t in ("build_settlement", "build_city", "build_road") if t in la.actions]
        acts = la.actions[builds[rng.below(len(builds))]] if builds and rng.below(3) else None
        action = acts[rng.below(len(acts))] if acts else random_action(la, rng)
        state = adjudicate(state, action, graph, scen, with_derived=False).state
        if i % 3 == 0 and state.phase in ("main", "special_build", "paired"):     # cards, so that building comes up
            p = state.players[state.current_player]
            for r in ("lumber", "brick", "wool", "grain", "ore"):
                if state.bank[r] > 0:
                    state.bank[r] -= 1
                    p.resources[r] += 1
    assert phases & {"special_build", "paired"}


def legal_actions_of(state, graph, scen):
    from service.engine.legal import _legal_actions
    return _legal_actions(state, graph, scen, None, True)
