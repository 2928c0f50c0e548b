"""Scenarios 6-11: boards against their component tables, new games through the API, scripted openings
and each scenario's special rules (set-up areas, first-settlement tokens, player-placed harbours)."""
from __future__ import annotations

import json

import pytest

from tests.helpers import place_pirate
from service.engine.core import Action
from service.engine.derive import victory_points
from service.engine.geometry import edge_hexes, node_edges, node_hexes
from service.engine.islands import island_map
from service.engine.mapgraph import LAND, MapGraph
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios.base import no_adjacent_reds
from service.engine.scenarios.components import check_components, count_components, hidden_pile_of

NEW = {"SC06": 3, "SC07": 4, "SC08": 3, "SC09": 4, "SC10": 4, "SC11": 4}


def judge(st, type_, player, **params):
    scen = get_scenario(st.scenario)
    return adjudicate(st, Action(type_, player, params), MapGraph.build(st.terrain_map()), scen)


def play(st, type_, player, **params):
    v = judge(st, type_, player, **params)
    assert v.legal, v.violations
    return v.state, v


def rules(v):
    return [x.rule for x in v.violations]


def nodes_where(st, pred):
    g = MapGraph.build(st.terrain_map())
    return [n for i, n in enumerate(g.nodes) if g.node_land[i] and pred(n)]


def setup_one(st, node):
    """Place a starting settlement on ``node`` and a road (or ship) touching it."""
    p = st.current_player
    st, _ = play(st, "build_settlement", p, node=node)
    g = MapGraph.build(st.terrain_map())
    for e in node_edges(node):
        if e not in g.edge_index:
            continue
        for t in ("build_road", "build_ship"):
            v = judge(st, t, p, edge=e)
            if v.legal:
                return v.state
    raise AssertionError(f"no road or ship possible at {node}")


def auto_setup(st, pred):
    """Both set-up rounds, each settlement on the first legal node satisfying ``pred(state, player, node)``."""
    while st.phase == "setup":
        p = st.current_player
        for n in nodes_where(st, lambda n: pred(st, p, n)):
            if judge(st, "build_settlement", p, node=n).legal:
                st = setup_one(st, n)
                break
        else:
            raise AssertionError("no legal starting settlement")
    return st


def give(st, player, **cards):
    for r, k in cards.items():
        st.players[player].resources[r] += k
        st.bank[r] -= k


# -- boards -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sid", sorted(NEW))
def test_board_matches_component_table(sid):
    """SC06-002, SC07-002, SC08-002, SC09-002, SC10-002, SC11-003: every generated board (tiles,
    tokens with the reserve, harbours with those still to place) equals its table."""
    scen = get_scenario(sid)
    n = NEW[sid]
    assert scen.players == (n,)
    for seed in (1, 2, 3, 17):
        st = scen.new_game(n, seed)
        assert check_components(scen, n, st) == []
        found = count_components(st.hexes, st.harbors, hidden_pile_of(st))
        assert sum(found["hexes"].values()) == sum(scen.component_tables[n]["hexes"].values())


def test_component_mismatch_cites_the_scenario_rule():
    scen = get_scenario("SC10")
    st = scen.new_game(4, 5)
    h = next(h for h, t in st.hexes.items() if t.terrain == "sea")
    from service.engine.state import Tile
    st.hexes[h] = Tile("forest", 5)
    assert {v.rule for v in check_components(scen, 4, st)} == {"SC10-002"}


@pytest.mark.parametrize("sid", sorted(NEW))
def test_new_games_through_the_api(client, sid):
    """POST /v1/games, seeds 1..50: consistent boards, distinct by seed, identical for one seed."""
    n = NEW[sid]
    seen = set()
    for seed in range(1, 51):
        r = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": seed})
        assert r.status_code == 201, r.get_json()
        st = r.get_json()["state"]
        again = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": seed}).get_json()["state"]
        assert again == st
        board = json.dumps(st["board"], sort_keys=True)
        assert board not in seen
        seen.add(board)
        v = client.post("/v1/adjudicate", json={"state": st, "action": None})
        assert v.status_code == 200, v.get_json()
        if sid in ("SC08", "SC09"):
            scen = get_scenario(sid)
            state = scen.new_game(n, seed)
            assert no_adjacent_reds({h: t.number for h, t in state.hexes.items() if t.number})


@pytest.mark.parametrize("sid", sorted(NEW))
def test_wrong_player_count(client, sid):
    """SC06-001, SC07-001, SC08-001, SC09-001, SC10-001, SC11-001: exactly the scenario's players."""
    n = 3 if NEW[sid] == 4 else 4
    r = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": 1})
    assert r.status_code == 422
    scen = get_scenario(sid)
    st = scen.new_game(NEW[sid], 1)
    st.players = st.players[:2]
    problems = scen.validate_state(st)
    assert any(p == "/state/players" and f"{sid}-001" in msg for p, msg in problems)


VP = {"SC06": 12, "SC07": 12, "SC08": 12, "SC09": 12, "SC10": 13, "SC11": 18}


@pytest.mark.parametrize("sid", sorted(VP))
def test_vp_targets(sid):
    """SC06-006, SC07-006, SC08-008, SC09-008: 12 VP; SC10-014: 13 VP; SC11-014: 18 VP win (on the
    player's own turn, R-003)."""
    scen = get_scenario(sid)
    st = scen.new_game(NEW[sid], 1)
    assert st.vp_target == VP[sid]
    st.phase, st.turn, st.scenario_state = "roll", 1, {}
    st.players[0].svp = VP[sid] - 1
    st.svp_attached = {}
    st2, _ = play(st, "roll", 0, dice=[2, 3])
    assert st2.winner is None
    st.players[0].svp = VP[sid]
    st3, v = play(st, "roll", 0, dice=[2, 3])
    assert st3.winner == 0 and st3.phase == "game_over"


# -- Into the Desert (SC06, SC07) ----------------------------------------------------------------------------

def area_of(st, node):
    imap = island_map(st)
    return {imap[h] for h in node_hexes(node) if h in imap}


@pytest.mark.parametrize("sid", ["SC06", "SC07"])
def test_into_the_desert_opening(sid):
    """SC06-003/SC07-003: starting settlements only in the larger area; SC06-004/SC07-004: the small area
    and the islands are unknown; SC06-005/SC07-005 (R-019): one token for the first settlement in any
    unknown area, none for the next."""
    scen = get_scenario(sid)
    n = NEW[sid]
    st = place_pirate(scen.new_game(n, 4))
    assert st.robber is not None and st.hexes[st.robber].terrain == "desert"       # marked desert
    small = nodes_where(st, lambda x: "small-area" in area_of(st, x))
    v = judge(st, "build_settlement", 0, node=small[0])
    assert not v.legal and rules(v) == [f"{sid}-003"]
    strip_only = nodes_where(st, lambda x: area_of(st, x) == {"desert-strip"})
    v = judge(st, "build_settlement", 0, node=strip_only[0])
    assert rules(v) == [f"{sid}-003"]
    island = nodes_where(st, lambda x: any(a.startswith("island") for a in area_of(st, x)))
    assert rules(judge(st, "build_settlement", 0, node=island[0])) == [f"{sid}-003"]

    st = auto_setup(st, lambda s, p, x: "larger-area" in area_of(s, x))
    assert st.phase == "roll" and len(st.buildings) == 2 * n
    assert all("larger-area" in area_of(st, x) for x in st.buildings)
    # a few turns: rolls without a 7, turn passes
    for p in range(n):
        st, _ = play(st, "roll", p, dice=[2, 3])
        st, _ = play(st, "end_turn", p)
    assert st.current_player == 0 and st.turn == n + 1

    # player 0 reaches the small area (a road laid to it, as in a posted position) and settles there
    st, _ = play(st, "roll", 0, dice=[2, 3])
    target = next(x for x in small if judge(st, "build_settlement", 0, node=x).violations[0].rule == "BASE-BUILD-3")
    st.roads[next(e for e in node_edges(target) if e in MapGraph.build(st.terrain_map()).edge_index)] = 0
    st.players[0].supply["roads"] -= 1
    give(st, 0, lumber=2, brick=2, wool=2, grain=2)
    before = victory_points(st, scen, 0)["special"]
    st, v = play(st, "build_settlement", 0, node=target)
    assert victory_points(st, scen, 0)["special"] == before + 1
    assert st.svp_attached[target] == 1
    assert any(e["type"] == "special_victory_point" and f"{sid}-005" in e["reason"] for e in v.events)
    assert st.scenario_state["svp_first"]["0"] == list(target)

    # a second settlement in another unknown area earns nothing more
    isl = next(x for x in island if judge(st, "build_settlement", 0, node=x).violations[0].rule == "BASE-BUILD-3")
    g = MapGraph.build(st.terrain_map())
    st.ships[next(e for e in node_edges(isl) if e in g.edge_index and g.ship_edge(g.edge_index[e]))] = 0
    st.players[0].supply["ships"] -= 1
    st, v = play(st, "build_settlement", 0, node=isl)
    assert st.players[0].svp == before + 1
    assert not any(e["type"] == "special_victory_point" for e in v.events)


def test_into_the_desert_unknown_areas_are_the_small_area_and_islands():
    """SC06-004: unknown = every tagged region but the larger area and the desert strip."""
    scen = get_scenario("SC06")
    st = scen.new_game(3, 1)
    imap = island_map(st)
    assert scen.unknown_regions(imap) == {"small-area", "island-south-west", "island-south-east"}
    # the strip really divides the main island: no larger-area hex touches the small area
    from service.engine.geometry import hex_neighbours
    big = {h for h, a in imap.items() if a == "larger-area"}
    small = {h for h, a in imap.items() if a == "small-area"}
    assert not any(m in small for h in big for m in hex_neighbours(h))
    assert sum(1 for h in small if st.hexes[h].terrain == "gold") == 1


# -- A New World (SC08, SC09) -------------------------------------------------------------------------------

def coast_edges(st):
    g = MapGraph.build(st.terrain_map())
    out = []
    for e in g.edges:
        ts = [st.hexes[h].terrain if h in st.hexes else None for h in edge_hexes(e)]
        if "sea" in ts and any(t in LAND for t in ts):
            out.append(e)
    return out


def place_all_harbors(st):
    used = set()
    placed = 0
    for e in coast_edges(st):
        sea = next(h for h in edge_hexes(e) if st.hexes.get(h) and st.hexes[h].terrain == "sea")
        if sea in used:
            continue
        p = st.current_player
        st, v = play(st, "place_harbor", p, edge=e)
        used.add(sea)
        placed += 1
        if not st.scenario_state.get("harbor_pile"):
            return st, placed, v
    raise AssertionError("not enough sea hexes for the harbours")


@pytest.mark.parametrize("sid", ["SC08", "SC09"])
def test_new_world_harbour_phase(sid):
    """SC08-005/SC09-005 (R-020): harbours first, in turn from the oldest player, one per sea hex, on a
    side between sea and land; their kinds are dealt only when all are placed."""
    scen = get_scenario(sid)
    n = NEW[sid]
    st = scen.new_game(n, 6)
    assert st.harbors == {} and len(st.scenario_state["harbor_pile"]) == (9 if n == 3 else 10)
    land_node = nodes_where(st, lambda x: True)[0]
    v = judge(st, "build_settlement", 0, node=land_node)
    assert rules(v) == [f"{sid}-005"]
    edges = coast_edges(st)
    v = judge(st, "place_harbor", 1, edge=edges[0])
    assert rules(v) == [f"{sid}-005"] and "/action/player" == v.violations[0].path     # not player 1's turn
    g = MapGraph.build(st.terrain_map())
    land_edge = next(e for i, e in enumerate(g.edges) if g.edge_kind[i] == "land")
    assert rules(judge(st, "place_harbor", 0, edge=land_edge)) == [f"{sid}-005"]
    st1, _ = play(st, "place_harbor", 0, edge=edges[0])
    assert st1.current_player == 1 and st1.harbors == {}
    sea = next(h for h in edge_hexes(edges[0]) if st.hexes[h].terrain == "sea")
    again = next(e for e in edges[1:] if sea in edge_hexes(e))
    assert rules(judge(st1, "place_harbor", 1, edge=again)) == [f"{sid}-005"]             # one per sea hex

    st, placed, v = place_all_harbors(st)
    assert any(e["type"] == "harbors_revealed" for e in v.events)
    assert placed == len(st.harbors) and st.current_player == 0 and st.phase == "setup"
    assert check_components(scen, n, st) == []
    assert rules(judge(st, "place_harbor", 0, edge=edges[-1])) == [f"{sid}-005"]       # all are placed


@pytest.mark.parametrize("sid", ["SC08", "SC09"])
def test_new_world_opening_and_island_token(sid):
    """SC08-006/SC09-006: starting settlements anywhere, their islands are home; SC08-007/SC09-007: one
    token for the first settlement on another island, none on a home island or for a second one."""
    scen = get_scenario(sid)
    n = NEW[sid]
    seed = next(s for s in range(1, 200)
                if len([c for c in __import__("service.engine.islands", fromlist=["x"]).land_components(
                    scen.new_game(n, s).hexes) if len(c) >= 2]) >= 3)
    st = scen.new_game(n, seed)
    st, _, _ = place_all_harbors(st)
    st = place_pirate(st)
    imap = island_map(st)
    sizes: dict[str, int] = {}
    for name in imap.values():
        sizes[name] = sizes.get(name, 0) + 1
    big = sorted(sizes, key=lambda k: -sizes[k])
    home_a, home_b, other = big[0], big[1], big[2]

    def on(name):
        return lambda x: name in {imap[h] for h in node_hexes(x) if h in imap}

    # player 0 takes two home islands; everyone else the largest
    st = setup_one(st, next(x for x in nodes_where(st, on(home_b)) if judge(st, "build_settlement", 0, node=x).legal))
    while st.phase == "setup":
        p = st.current_player
        pred = on(home_a)
        st = auto_setup_step(st, p, pred)
    homes0 = {imap[h] for x in st.scenario_state["start_nodes"]["0"] for h in node_hexes(as_node(x)) if h in imap}
    assert homes0 == {home_a, home_b}
    st, _ = play(st, "roll", 0, dice=[2, 3])

    def settle(name):
        cands = [x for x in nodes_where(st, on(name))
                 if judge(st, "build_settlement", 0, node=x).violations[0].rule == "BASE-BUILD-3"]
        x = cands[0]
        g = MapGraph.build(st.terrain_map())
        e = next(e for e in node_edges(x) if e in g.edge_index and g.ship_edge(g.edge_index[e]))
        st.ships[e] = 0
        st.players[0].supply["ships"] -= 1
        give(st, 0, lumber=1, brick=1, wool=1, grain=1)
        return x

    x = settle(home_b)
    st, v = play(st, "build_settlement", 0, node=x)
    assert st.players[0].svp == 0                                    # a home island: no token
    x = settle(other)
    st, v = play(st, "build_settlement", 0, node=x)
    assert st.players[0].svp == 1 and st.svp_attached[x] == 1
    assert any(f"{sid}-007" in e.get("reason", "") for e in v.events)


def as_node(v):
    return (v[0], v[1], v[2])


def auto_setup_step(st, p, pred):
    for x in nodes_where(st, pred):
        if judge(st, "build_settlement", p, node=x).legal:
            return setup_one(st, x)
    raise AssertionError("no starting settlement")


def test_new_world_reds_are_repaired_by_swaps():
    """SC08-004/SC09-004 (R-021): the repair moves touching reds apart with seeded swaps."""
    from service.engine.rng import Rng
    from service.engine.scenarios.mapdata import repair_reds
    nums = {(0, 0): 6, (1, 0): 8, (2, 0): 5, (4, 0): 9, (6, 0): 3}
    fixed = repair_reds(nums, Rng(3, 0))
    assert sorted(fixed.values()) == sorted(nums.values())
    assert no_adjacent_reds(fixed)
    assert repair_reds(nums, Rng(3, 0)) == fixed


@pytest.mark.parametrize("sid", ["SC08", "SC09"])
def test_new_world_random_frame(sid):
    """SC08-002/SC09-002: all hexes shuffled into the frame; SC08-003/SC09-003: a token on every land
    hex and none on the sea; SC09-009 (R-023): 23 plain sea hexes and 10 harbour tokens, 5 of them 3:1."""
    scen = get_scenario(sid)
    n = NEW[sid]
    layouts = set()
    for seed in range(1, 8):
        st = scen.new_game(n, seed)
        assert all((t.number is not None) == (t.terrain in LAND) for t in st.hexes.values() if t.terrain != "frame")
        layouts.add(tuple(sorted((h, t.terrain) for h, t in st.hexes.items())))
    assert len(layouts) == 7
    table = scen.component_tables[n]
    if sid == "SC09":
        assert table["hexes"]["sea"] == 23 and table["harbors"]["3:1"] == 5 and sum(table["harbors"].values()) == 10


def test_greater_catan_harbours_around_the_mainland():
    """SC11-006 (R-022): 9 harbours (5 x 2:1, 4 x 3:1) on sea hexes next to the mainland, each facing a
    mainland side, one per sea hex, no two harbour hexes adjacent."""
    from service.engine.geometry import hex_neighbours
    scen = get_scenario("SC11")
    seen = set()
    for seed in range(1, 12):
        st = scen.new_game(4, seed)
        main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
        assert sorted(st.harbors.values()).count("3:1") == 4 and len(st.harbors) == 9
        seas = []
        for e in st.harbors:
            a, b = edge_hexes(e)
            assert {a in main, b in main} == {True, False}
            sea = b if a in main else a
            assert st.hexes[sea].terrain == "sea"
            seas.append(sea)
        assert len(set(seas)) == 9
        assert not any(m in seas for h in seas for m in hex_neighbours(h))
        seen.add(tuple(sorted(st.harbors.items())))
    assert len(seen) > 1


def test_place_harbor_through_the_api(client):
    """SC08-005: the place_harbor action reaches the engine through the API's action schema."""
    st = client.post("/v1/games", json={"scenario": "SC08", "players": 3, "seed": 3}).get_json()["state"]
    state = get_scenario("SC08").new_game(3, 3)
    e = coast_edges(state)[0]
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "place_harbor", "player": 0,
                                                                     "edge": list(e)}})
    body = r.get_json()
    assert r.status_code == 200 and body["legal"], body
    assert body["state"]["scenario_state"]["harbor_slots"] == [list(e)]
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "build_settlement", "player": 0,
                                                                     "node": [0, 0, "N"]}})
    assert [v["rule"] for v in r.get_json()["violations"]] in (["SC08-005"], ["BASE-BUILD-2"])
