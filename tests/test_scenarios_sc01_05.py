"""Scenarios 1-5 (New Shores, The Four Islands, Oceans): maps, set-up rules, special victory points,
exploration, VP targets. Scenario rules on their default maps, single rules on small boards (R-001)."""
from __future__ import annotations

import copy
import json

import pytest

from service.engine.core import Action
from service.engine.geometry import hex_corners, node_edges, node_hexes
from service.engine.islands import islands_of_node
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.scenarios import SCENARIOS, get_scenario
from service.engine.scenarios.components import check_components, count_components, expected_components
from service.engine.scenarios.hooks import faces_island, mainland_of
from service.engine.state import Tile

from .examples_adapter import CASES, to_state
from .helpers import adjudicate as api_adjudicate, place_pirate

GAMES = [("SC01", 3), ("SC01", 4), ("SC02", 3), ("SC03", 4), ("SC04", 3), ("SC05", 4)]


def judge(state, action: Action):
    return adjudicate(state, action, MapGraph.build(state.terrain_map()), get_scenario(state.scenario))


def example(name: str, **changes) -> dict:
    st = to_state(json.loads((CASES / f"{name}.json").read_text(encoding="utf-8")))
    st.update(changes)
    return st


# -- the maps -------------------------------------------------------------------------------------

@pytest.mark.parametrize("sid,n", GAMES)
def test_the_generated_board_matches_the_component_table(sid, n):
    """SC01-002, SC01-003, SC01-007, SC02-002, SC03-002, SC04-002, SC04-003, SC05-002, SC05-003: every
    board the service generates has exactly the scenario's hexes, tokens and harbours (R-102: frame
    apart; R-005: Oceans row 2 in the face-down piles)."""
    scen = get_scenario(sid)
    for seed in (1, 2, 3):
        st = scen.new_game(n, seed)
        assert check_components(scen, n, st) == []


def test_new_shores_mainland_is_a_base_island_and_harbours_are_nine_tokens():
    """SC01-002: the mainland is the 19-hex base island with the 18 base tokens; SC01-003: 9 harbour
    tokens (5 x 2:1, 4 x 3:1) on blank sea; SC01-007: the small islands hold the scenario's 8 land hexes."""
    st = get_scenario("SC01").new_game(4, 9)
    main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
    assert len(main) == 19 and sum(1 for h in main if st.hexes[h].number) == 18
    small = [h for h, t in st.hexes.items() if t.terrain not in ("sea", "frame") and h not in main]
    assert len(small) == 8
    kinds = sorted(st.harbors.values())
    assert kinds.count("3:1") == 4 and len(kinds) == 9
    assert st.robber is not None and st.hexes[st.robber].terrain == "desert"


def test_four_islands_iv_uses_the_ruled_token_table():
    """SC03-002, R-012: twenty tokens for twenty producing hexes (one 9 of the printed 21 dropped)."""
    table = get_scenario("SC03").component_tables[4]
    assert sum(table["tokens"].values()) == 20 and table["tokens"][9] == 2


def test_oceans_hides_as_many_spaces_as_the_pile_holds():
    """SC04-002/SC04-003, SC05-002/SC05-003, R-005: the "?" spaces start empty, one per pile hex."""
    for sid, n, spaces in (("SC04", 3, 14), ("SC05", 4, 22)):
        st = get_scenario(sid).new_game(n, 4)
        assert sum(1 for t in st.hexes.values() if t.terrain == "unknown") == spaces
        assert len(st.scenario_state["hex_pile"]) == spaces
        assert st.robber is None                                                  # SEA-034, R-016


def test_a_board_off_the_table_is_reported_with_the_scenario_rule_but_still_judged(client):
    """SC01-007, R-001: the component check is explicit; a verdict does not depend on it."""
    st = example("svp-newshores-01")
    r = client.post("/v1/scenarios/SC01/check", json={"state": st})
    assert r.status_code == 200 and r.json["matches"] is False
    assert {p["rule"] for p in r.json["problems"]} == {"SC01-007"}
    assert api_adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})["legal"]


def test_count_components_adds_the_piles_to_the_board():
    hexes = {(0, 0): Tile("unknown"), (1, 0): Tile("sea"), (2, 0): Tile("frame")}
    got = count_components(hexes, {}, {"hexes": ["forest"], "tokens": [5]})
    assert got["hexes"] == {"forest": 1, "sea": 1} and got["unknown"] == got["pile"] == 1
    assert expected_components({"hexes": {"sea": 1}, "hidden": {"hexes": {"forest": 1}}})["hexes"] == {"sea": 1, "forest": 1}


def test_players_and_vp_targets():
    """SC01-001/SC01-006 (3-4, 13 VP), SC02-001/SC02-007, SC03-001/SC03-007, SC04-001/SC04-009,
    SC05-001/SC05-009 (12 VP)."""
    want = {"SC01": ((3, 4), 13), "SC02": ((3,), 12), "SC03": ((4,), 12), "SC04": ((3,), 12), "SC05": ((4,), 12)}
    for sid, (players, vp) in want.items():
        scen = get_scenario(sid)
        assert tuple(scen.players) == players and scen.vp_target == vp
        assert scen.new_game(players[0], 1).vp_target == vp


# -- new games through the API --------------------------------------------------------------------

@pytest.mark.parametrize("sid,n", GAMES)
def test_new_games_are_valid_distinct_by_seed_and_replayable(client, sid, n):
    boards = set()
    for seed in range(1, 51):
        r = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": seed})
        assert r.status_code == 201, r.json
        st = r.json["state"]
        again = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": seed}).json["state"]
        assert again == st
        boards.add(json.dumps([st["board"], st.get("scenario_state")], sort_keys=True))
        if seed % 10 == 1:
            chk = client.post(f"/v1/scenarios/{sid}/check", json={"state": st}).json
            assert chk["matches"], chk["problems"]
    assert len(boards) == 50


def test_scenario_definition_lists_maps_tables_and_hooks(client):
    d = client.get("/v1/scenarios/SC04").json
    assert d["component_rule"] == "SC04-002" and "3" in d["maps"] and "3" in d["component_tables"]
    assert {"check", "after_action", "new_board"} <= set(d["hooks"])
    assert "hidden" in d["component_tables"]["3"]


def test_the_pirate_starts_on_the_named_sea_hex(client):
    """R-007: the game request names the agreed sea hex; a land hex is refused."""
    st = get_scenario("SC02").new_game(3, 1)
    sea = next(h for h, t in sorted(st.hexes.items()) if t.terrain == "sea")
    r = client.post("/v1/games", json={"scenario": "SC02", "players": 3, "seed": 1, "options": {"pirate": list(sea)}})
    assert r.status_code == 201 and r.json["state"]["pirate"] == list(sea)
    land = next(h for h, t in sorted(st.hexes.items()) if t.terrain not in ("sea", "frame"))
    r = client.post("/v1/games", json={"scenario": "SC02", "players": 3, "seed": 1, "options": {"pirate": list(land)}})
    assert r.status_code == 422


# -- scripted openings ----------------------------------------------------------------------------

def _setup_node(st, scen, want=lambda n: True):
    g = MapGraph.build(st.terrain_map())
    for n in g.nodes:
        if want(n):
            v = judge(st, Action("build_settlement", st.current_player, {"node": n}))
            if v.legal:
                return n, v.state
    raise AssertionError("no legal set-up site")


def _setup_piece(st):
    node = st.setup.last_settlement
    for kind in ("build_road", "build_ship"):
        for e in node_edges(node):
            v = judge(st, Action(kind, st.current_player, {"edge": e}))
            if v.legal:
                return v.state
    raise AssertionError(f"no set-up road or ship at {node}")


def play_setup(st, site=lambda s, n: True):
    scen = get_scenario(st.scenario)
    while st.phase == "setup":
        _node, st = _setup_node(st, scen, lambda n: site(st, n))
        st = _setup_piece(st)
    return st


def play_turns(st, k=3):
    for _ in range(k):
        v = judge(st, Action("roll", st.current_player, {"dice": [2, 3]}))
        assert v.legal, v.violations
        v = judge(v.state, Action("end_turn", st.current_player, {}))
        assert v.legal, v.violations
        st = v.state
    return st


@pytest.mark.parametrize("sid,n", [("SC01", 3), ("SC01", 4), ("SC04", 3), ("SC05", 4)])
def test_starting_settlements_off_the_main_island_are_refused(sid, n):
    """SC01-004 (mainland), SC04-004 / SC05-004 (the large island): a set-up settlement elsewhere is
    illegal with the scenario's rule; an opening on the main island then plays on."""
    st = place_pirate(get_scenario(sid).new_game(n, 11))
    main = mainland_of(st)
    small = next(h for h, t in sorted(st.hexes.items(), key=lambda x: (x[0][1], x[0][0]))
                 if t.terrain in ("gold", "forest", "hills", "pasture", "fields", "mountains")
                 and main not in islands_of_node(st, hex_corners(h)[0]))
    v = judge(st, Action("build_settlement", 0, {"node": hex_corners(small)[3]}))
    rule = {"SC01": "SC01-004", "SC04": "SC04-004", "SC05": "SC05-004"}[sid]
    assert not v.legal and v.violations[0].rule == rule
    st = play_setup(st, lambda s, node: main in islands_of_node(s, node))
    assert st.phase == "roll"
    st = play_turns(st)
    assert st.turn >= 3 and all(p.svp == 0 for p in st.players)       # SC04-008 / SC05-008: no SVP


@pytest.mark.parametrize("sid,n,rule", [("SC02", 3, "SC02-004"), ("SC03", 4, "SC03-004")])
def test_a_starting_settlement_facing_another_island_takes_a_ship(sid, n, rule):
    """SC02-004 / SC03-004 (R-017): a coast facing another island (an inner sea hex) takes a ship,
    not a road; SC02-003 / SC03-003: settlements on any island, home islands fixed at the end of set-up."""
    st = place_pirate(get_scenario(sid).new_game(n, 5))

    def faces(s, node):
        return any(s.hexes.get(h, Tile("frame")).terrain == "sea" and faces_island(s, h) for h in node_hexes(node))

    _node, st1 = _setup_node(st, None, lambda node: faces(st, node) and any(
        st.hexes.get(h, Tile("frame")).terrain not in ("sea", "frame") for h in node_hexes(node)))
    node = st1.setup.last_settlement
    roads = [e for e in node_edges(node)
             if all(st1.hexes.get(h, Tile("frame")).terrain not in ("sea", "frame", "unknown") for h in _edge_hexes(e))]
    if roads:
        v = judge(st1, Action("build_road", 0, {"edge": roads[0]}))
        assert not v.legal and v.violations[0].rule == rule
    st = play_setup(st)
    assert st.phase == "roll"
    homes = st.scenario_state["home_islands"]
    assert set(homes) == {str(p) for p in range(n)} and all(1 <= len(v) <= 2 for v in homes.values())
    play_turns(st)


def _edge_hexes(e):
    from service.engine.geometry import edge_hexes
    return edge_hexes(e)


def test_a_setup_road_on_an_inner_coast_is_refused_on_a_small_board(client):
    """SC02-004, R-017: the starting settlement at N(1,1) touches the inner sea hexes (1,1) and (2,0)
    (no frame next to them): its coastal road along hills (1,0) is refused, a ship is fine."""
    st = example("setup-ship-01", scenario="SC02")
    st["players"] = st["players"] + [{"resources": {}}]
    land_edge = (1, 0, "SE")
    v = api_adjudicate(client, st, {"type": "build_road", "player": 0, "edge": list(land_edge)})
    assert not v["legal"] and v["violations"][0]["rule"] == "SC02-004"
    assert api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"]})["legal"]


# -- special victory points -------------------------------------------------------------------------

def _svp(verdict):
    return [p.get("svp", 0) for p in verdict["state"]["players"]]


def test_new_shores_first_small_island_settlement_earns_one_svp_once(client):
    """SC01-005: 1 SVP for the first settlement on a small island, attached to it; a second small-island
    settlement earns nothing."""
    st = example("svp-newshores-01")
    v = api_adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
    assert v["legal"] and _svp(v)[0] == 1
    st2 = v["state"]
    st2["pieces"]["ships"].append({"player": 0, "edge": [1, 1, "E"]})
    st2["players"][0]["resources"] = {"lumber": 2, "wool": 2, "brick": 2, "grain": 2, "ore": 2}
    st2["players"][0]["supply"]["ships"] -= 1
    st2.pop("bank", None)
    v2 = api_adjudicate(client, st2, {"type": "build_settlement", "player": 0, "node": [1, 2, "N"]})
    assert v2["legal"] and _svp(v2)[0] == 1


@pytest.mark.parametrize("sid,players", [("SC02", 3), ("SC03", 4)])
def test_four_islands_first_unknown_island_one_then_two(client, sid, players):
    """SC02-005/SC02-006, SC03-005/SC03-006 (R-018): 1 SVP for the first unknown island, 2 for the
    first settlement on each further one, recorded per player and island."""
    st = example("svp-fourislands-01", scenario=sid)
    st["players"] = (st["players"] + [{"resources": {}}])[:players]
    v = api_adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
    assert v["legal"] and _svp(v)[0] == 1
    assert v["state"]["scenario_state"]["island_svp"]["0"] == {"B": [2, 1, "N"]}
    st2 = v["state"]
    st2["pieces"]["ships"].append({"player": 0, "edge": [1, 1, "E"]})
    st2["players"][0]["resources"] = {"lumber": 2, "wool": 2, "brick": 2, "grain": 2, "ore": 2}
    st2["players"][0]["supply"]["ships"] -= 1
    st2.pop("bank", None)
    v2 = api_adjudicate(client, st2, {"type": "build_settlement", "player": 0, "node": [1, 2, "N"]})
    assert v2["legal"] and _svp(v2)[0] == 3
    assert set(v2["state"]["scenario_state"]["island_svp"]["0"]) == {"B", "C"}


# -- Oceans exploration -----------------------------------------------------------------------------

@pytest.mark.parametrize("sid", ["SC04", "SC05"])
def test_a_ship_reaching_an_unexplored_space_reveals_it(client, sid):
    """SC04-005/SC04-006, SC05-005/SC05-006 (R-006): the top pile hex is laid there with the top token,
    and the discoverer takes 1 card of its resource."""
    st = example("oceans-01", scenario=sid)
    v = api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"]})
    ev = [e for e in v["events"] if e["type"] == "discovered"]
    assert ev and ev[0]["terrain"] == "mountains" and ev[0]["number"] == 10 and ev[0]["reward"] == {"ore": 1}
    assert v["state"]["scenario_state"]["hex_pile"] == ["hills"]


@pytest.mark.parametrize("sid,top,rule", [("SC04", "sea", "SC04-007"), ("SC05", "sea", "SC05-007"),
                                          ("SC05", "desert", "SC05-007")])
def test_discovered_sea_or_desert_gives_nothing(client, sid, top, rule):
    """SC04-007 / SC05-007: a discovered sea hex gives no reward; R-016: a desert takes no token and
    gives nothing."""
    st = example("oceans-01", scenario=sid)
    st["scenario_state"]["hex_pile"] = [top, "hills"]
    v = api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"]})
    ev = [e for e in v["events"] if e["type"] == "discovered"][0]
    assert ev["terrain"] == top and ev["number"] is None and ev["reward"] == {} and ev["rule"] == rule
    assert v["state"]["scenario_state"]["token_pile"] == [10, 3]


def test_the_outcome_may_be_given_in_the_action(client):
    """R-006, SC04-005: what the table turned over, reported with the action, is laid."""
    st = example("oceans-01")
    v = api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"],
                                    "discoveries": [{"terrain": "hills", "number": 3}]})
    ev = [e for e in v["events"] if e["type"] == "discovered"][0]
    assert (ev["terrain"], ev["number"], ev["reward"]) == ("hills", 3, {"brick": 1})
    assert v["state"]["scenario_state"]["hex_pile"] == ["mountains"]
    assert v["state"]["scenario_state"]["token_pile"] == [10]


@pytest.mark.parametrize("found,pointer", [
    ({"terrain": "pasture", "number": 5}, "/action/discoveries/0/terrain"),   # not in the pile
    ({"terrain": "hills", "number": 12}, "/action/discoveries/0/number"),     # token not in the pile
    ({"terrain": "hills", "number": None}, "/action/discoveries/0/number"),   # land takes a token
])
def test_a_given_outcome_the_piles_cannot_give_is_refused_SC04_005(client, found, pointer):
    """SC04-005 (R-006): an observed reveal must be one the face-down piles still hold."""
    st = example("oceans-01")
    v = api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"],
                                    "discoveries": [found]})
    assert not v["legal"] and v["violations"][0]["rule"] == "SC04-005"
    assert v["violations"][0]["path"] == pointer


def test_more_given_outcomes_than_hexes_reached_are_refused_SC04_005(client):
    st = example("oceans-01")
    v = api_adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"],
                                    "discoveries": [{"terrain": "hills", "number": 3},
                                                    {"terrain": "mountains", "number": 10}]})
    assert not v["legal"] and v["violations"][0]["rule"] == "SC04-005"


def test_without_piles_the_outcome_is_drawn_from_the_seed(client):
    """SC04-003: no pile in the posted state -> drawn from the table's row 2 with the game's seed;
    the same state gives the same discovery."""
    st = example("oceans-01")
    del st["scenario_state"]
    a = {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"]}
    v1, v2 = api_adjudicate(client, st, a), api_adjudicate(client, st, a)
    ev = [e for e in v1["events"] if e["type"] == "discovered"][0]
    assert ev == [e for e in v2["events"] if e["type"] == "discovered"][0]
    assert ev["terrain"] in get_scenario("SC04").component_tables[3]["hidden"]["hexes"]
    assert v1["state"]["scenario_state"]["revealed"][0][:2] == [2, 1]


def test_every_scenario_1_to_5_is_registered():
    assert {"SC01", "SC02", "SC03", "SC04", "SC05"} <= set(SCENARIOS)


def test_a_reveal_leaves_the_posted_board_as_it_was():
    """A state and its copies share the board (``State.copy``); a reveal (SC04-005, R-006) gives the new
    state a board of its own and leaves the posted state's hexes, and the map graph it was judged on, as
    they were."""
    from service.api.service import parse_state
    from service.cache import GraphCache
    st, graph = parse_state(example("oceans-01"), GraphCache())
    before = dict(st.hexes)
    v = adjudicate(st, Action("build_ship", 0, {"edge": (1, 1, "NE")}), graph, get_scenario(st.scenario))
    assert v.legal and v.graph is not graph
    assert st.hexes == before and st.hexes[(2, 1)].terrain == "unknown"
    assert v.state.hexes[(2, 1)].terrain == "mountains" and v.state.hexes is not st.hexes
    assert graph.terrain[(2, 1)] == "unknown"
