"""The general Seafarers rules (SEA-001..036) through the API: each rule legal and illegal, by its ID."""
from __future__ import annotations

import pytest

from service.engine.core import Action, Ctx
from service.engine.lanes import shipping_lanes
from service.engine.mapgraph import MapGraph
from service.engine.rng import Rng
from service.engine.scenarios import get_scenario
from service.engine.scenarios.mapdata import MapSpec, build_board
from service.engine.scenarios.seafarers import COMPONENTS, start_positions
from service.engine.state import Tile
from service.engine.svp import award_svp

from .helpers import adjudicate, hand, hexes, rules, state

ROW = {(q, r): "sea" for q in range(-1, 6) for r in range(-1, 4)}
ROW.update({(0, 0): ("forest", 6), (1, 0): ("hills", 8), (3, 0): ("fields", 9), (4, 0): ("mountains", 10),
            (0, 1): ("pasture", 5), (1, 2): ("gold", 11)})
FULL = hand(lumber=2, brick=2, wool=2, grain=2, ore=2)
HOME = [1, 1, "N"]          # hills / sea / sea: a coastal intersection


def sea(**kw):
    kw.setdefault("players", 2)
    kw.setdefault("pirate", [-1, -1])
    kw.setdefault("hands", {0: dict(FULL), 1: dict(FULL)})
    kw.setdefault("settlements", [(0, HOME)])
    return state(hexes(ROW), scenario="seafarers", **kw)


def ship(edge, player=0):
    return {"type": "build_ship", "player": player, "edge": list(edge)}


def move(src, dst, player=0):
    return {"type": "move_ship", "player": player, "from": list(src), "to": list(dst)}


# -- SEA-001 / SEA-002: base rules on any posted board ------------------------------------------------------

def test_sea_001_base_rules_stay_in_force(client):
    """SEA-001: the distance rule (a base rule) holds under the Seafarers rules."""
    st = sea(ships=[(0, (1, 1, "NE")), (0, (2, 0, "SE"))])
    assert rules(adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [1, 0, "S"]})) == ["BASE-BUILD-2"]
    assert adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})["legal"]
    # D-settlement-on-land: a corner beyond the coast breaks SEA-012 (a lane settles an island's coastline)
    off = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [40, 40, "N"]})
    assert rules(off) == ["SEA-012"] and off["violations"][0]["path"] == "/action/node"


def test_sea_002_the_board_is_map_data_posted_with_the_state(client):
    """SEA-002: any consistent board is refereed (R-001); the general rules have no map of their own."""
    assert adjudicate(client, sea(), ship((1, 1, "NE")))["legal"]
    r = client.post("/v1/games", json={"scenario": "seafarers", "players": 3})
    assert r.status_code == 422
    with pytest.raises(NotImplementedError):
        get_scenario("seafarers").new_board(3, Rng(1, 0))


# -- SEA-003 / SEA-004 / SEA-005 / SEA-036: components ------------------------------------------------------

SPEC = MapSpec(rows=(" s s s s", "s F W H s", " s s s s"), legend={"F": "fields", "W": "forest", "H": "hills"},
               tokens={"*": {5: 1, 9: 1, 10: 1}}, harbors=(((1, 1), "NE"), ((2, 1), "SE"), ((0, 1), "W")),
               harbor_kinds={"3:1": 1, "ore": 1, "wool": 1})


def test_sea_003_harbour_tokens_are_dealt_at_random_onto_the_fixed_positions():
    """SEA-003: the slots are the map's; the kinds are a seeded shuffle of the scenario's tokens."""
    boards = [build_board(SPEC, Rng(seed, 0))["harbors"] for seed in range(12)]
    slots = set(boards[0])
    assert all(set(b) == slots for b in boards)
    assert all(sorted(b.values()) == ["3:1", "ore", "wool"] for b in boards)
    assert len({tuple(sorted(b.items())) for b in boards}) > 1
    assert build_board(SPEC, Rng(5, 0))["harbors"] == build_board(SPEC, Rng(5, 0))["harbors"]


def test_sea_004_harbours_are_edge_and_kind_never_a_printed_sea_hex(client):
    """SEA-004: a harbour is a coast edge plus a kind; on a sea/sea edge it cannot exist (422)."""
    ok = sea(harbors=[((1, 0, "SE"), "3:1")])
    assert adjudicate(client, ok, None)["legal"]
    bad = sea(harbors=[((1, 1, "NE"), "3:1")])
    r = client.post("/v1/adjudicate", json={"state": bad, "action": None})
    assert r.status_code == 422 and "harbour" in r.get_json()["detail"]
    assert all(t.terrain != "harbor" for t in build_board(SPEC, Rng(3, 0))["hexes"].values())


def test_sea_005_number_tokens_are_drawn_blind_from_the_scenarios_multiset():
    """SEA-005: every token is used once; the draw is the seeded generator's, so a seed fixes it."""
    layouts = []
    for seed in range(12):
        hx = build_board(SPEC, Rng(seed, 0))["hexes"]
        layouts.append(tuple(sorted((h, t.number) for h, t in hx.items() if t.number)))
        assert sorted(n for _, n in layouts[-1]) == [5, 9, 10]
    assert len(set(layouts)) > 1


def test_sea_036_fifteen_ships_per_colour(client):
    """SEA-036: the supply holds 15 ships; a 16th cannot be built (BASE-COMP-1)."""
    assert get_scenario("seafarers").supply["ships"] == COMPONENTS["ships_per_colour"] == 15
    assert COMPONENTS["pirate"] == 1 and COMPONENTS["harbor_tokens"] == 12
    st = sea()
    st["players"][0]["supply"] = {"settlements": 4, "cities": 4, "roads": 15, "ships": 0}
    g = MapGraph.build({h: (v if isinstance(v, str) else v[0]) for h, v in ROW.items()})
    far = [e for e, k in zip(g.edges, g.edge_kind) if k == "sea" and e != (1, 1, "NE")][:15]
    st["pieces"]["ships"] = [{"player": 0, "edge": list(e)} for e in far]
    v = adjudicate(client, st, ship((1, 1, "NE")))
    assert rules(v) == ["BASE-COMP-1"]


# -- building ships (SEA-006..013) -----------------------------------------------------------------------------

def test_sea_006_a_ship_costs_lumber_and_wool(client):
    v = adjudicate(client, sea(), ship((1, 1, "NE")))
    assert v["legal"] and v["state"]["players"][0]["resources"]["lumber"] == 1
    assert v["state"]["players"][0]["resources"]["wool"] == 1
    poor = sea(hands={0: hand(lumber=1, brick=3)})
    assert rules(adjudicate(client, poor, ship((1, 1, "NE")))) == ["SEA-006"]


def test_sea_007_ships_only_on_edges_with_sea(client):
    st = sea(settlements=[(0, [1, 0, "S"])])
    assert rules(adjudicate(client, st, ship((0, 1, "NE")))) == ["SEA-007"]
    assert adjudicate(client, st, ship((1, 0, "SE")))["legal"]            # coast edge


def test_sea_008_a_ship_touches_own_building_or_ship_branching_allowed(client):
    st = sea(ships=[(0, (1, 1, "NE")), (0, (2, 0, "SE"))])
    assert rules(adjudicate(client, st, ship((3, 1, "NE")))) == ["SEA-008"]
    assert adjudicate(client, st, ship((2, 1, "NE")))["legal"]           # off the free end
    assert adjudicate(client, st, ship((2, 0, "E")))["legal"]            # a branch at S(2,0)


def test_sea_008_a_ship_line_is_cut_by_an_opponents_building(client):
    """SEA-008: a ship touches its owner's building or ship; an own ship reached only across an opponent's
    settlement joins nothing, and the refusal says so."""
    st = sea(ships=[(0, (1, 1, "NE")), (0, (2, 0, "SE"))], settlements=[(0, HOME), (1, [2, 1, "N"])])
    v = adjudicate(client, st, ship((2, 1, "NE")))
    assert rules(v) == ["SEA-008"] and "across an opponent's building" in v["violations"][0]["message"]
    st = sea(ships=[(0, (1, 1, "NE")), (0, (2, 0, "SE"))])
    assert adjudicate(client, st, ship((2, 1, "NE")))["legal"]


def test_sea_009_roads_and_ships_join_only_at_an_own_building(client):
    st = sea(settlements=[(0, [0, 1, "N"])], roads=[(0, (0, 0, "E"))])
    assert rules(adjudicate(client, st, ship((1, -1, "SE"))))[0] == "SEA-009"
    st2 = sea(ships=[(0, (1, 0, "SE"))])          # from HOME along the coast to S(1,0), no building there
    v = adjudicate(client, st2, {"type": "build_road", "player": 0, "edge": [0, 1, "NE"]})
    assert rules(v) == ["SEA-009"]
    assert adjudicate(client, sea(), {"type": "build_road", "player": 0, "edge": [1, 0, "SE"]})["legal"]


def test_sea_010_a_coast_edge_holds_one_road_or_one_ship(client):
    st = sea(roads=[(0, (1, 0, "SE"))])
    assert rules(adjudicate(client, st, ship((1, 0, "SE")))) == ["SEA-010"]
    st = sea(ships=[(0, (1, 0, "SE"))])
    assert rules(adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [1, 0, "SE"]})) == ["SEA-010"]


def test_sea_011_012_013_a_lane_reaches_a_new_coast_and_the_settlement_anchors_new_pieces(client):
    """SEA-011: adjacent own ships form one lane; SEA-012: a settlement where the lane arrives is legal;
    SEA-013: that settlement starts new roads and ships."""
    st = sea(ships=[(0, (1, 1, "NE")), (0, (2, 0, "SE"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
    assert v["legal"], v["violations"]
    s2 = v["state"]
    s2["players"][0]["resources"] = dict(FULL)
    s2["bank"] = None
    assert adjudicate(client, s2, {"type": "build_road", "player": 0, "edge": [2, 1, "NE"]})["legal"]
    assert adjudicate(client, s2, ship((2, 0, "E")))["legal"]
    # SEA-012 illegal: no road or ship of the builder reaches the intersection
    assert rules(adjudicate(client, sea(), {"type": "build_settlement", "player": 0, "node": [3, 1, "N"]})) == ["BASE-BUILD-3"]
    # SEA-011: the lane as the engine sees it
    from service.api.codec import build_state
    from service.engine.mapgraph import MapGraph as MG
    state_obj = _engine_state(st)
    g = MG.build(state_obj.terrain_map())
    assert shipping_lanes(state_obj, g, 0) == [{(1, 1, "NE"), (2, 0, "SE")}]
    del build_state


def _engine_state(st):
    from service.api.codec import build_state
    from service.api.schemas import StateSchema
    return build_state(StateSchema().load(st))[0]


# -- moving ships (SEA-014..018) -------------------------------------------------------------------------------

LANE = [(0, (1, 1, "NE")), (0, (2, 0, "SE"))]


def test_sea_014_a_closed_lane_never_moves(client):
    st = sea(settlements=[(0, HOME), (0, [2, 1, "N"])], ships=LANE)
    assert rules(adjudicate(client, st, move((2, 0, "SE"), (1, 1, "E")))) == ["SEA-014"]


def test_sea_015_only_the_foremost_ship_moves(client):
    st = sea(ships=LANE + [(0, (2, 1, "NE"))])
    assert rules(adjudicate(client, st, move((2, 0, "SE"), (1, 0, "E")))) == ["SEA-015"]
    assert adjudicate(client, st, move((2, 1, "NE"), (1, 0, "E")))["legal"]


def test_sea_016_the_destination_obeys_the_placement_rules(client):
    st = sea(settlements=[(0, [1, 0, "S"])], ships=[(0, (1, 0, "SE")), (0, (1, 1, "NE"))])
    assert rules(adjudicate(client, st, move((1, 1, "NE"), (0, 1, "NE")))) == ["SEA-007"]
    assert rules(adjudicate(client, sea(ships=LANE), move((2, 0, "SE"), (2, 0, "SE")))) == ["SEA-016"]
    v = adjudicate(client, sea(ships=LANE), move((2, 0, "SE"), (1, 1, "E")))
    assert v["legal"] and v["state"]["players"][0]["resources"] == FULL     # moving is free
    assert v["state"]["turn_flags"]["ship_moved"] is True


def test_sea_017_one_ship_move_per_turn(client):
    st = sea(ships=LANE, turn_flags={"ship_moved": True})
    assert rules(adjudicate(client, st, move((2, 0, "SE"), (1, 1, "E")))) == ["SEA-017"]


def test_a_ship_moved_out_of_turn_breaks_turn_order_not_sea_017(client):
    """BASE-TURN-6: only the active player moves a ship; SEA-017 (one move a turn) is not what the move breaks."""
    st = sea(ships=LANE)
    a = move((2, 0, "SE"), (1, 1, "E"))
    a["player"] = 1
    v = adjudicate(client, st, a)
    assert rules(v) == ["BASE-TURN-6"] and v["violations"][0]["path"] == "/action/player"


def test_sea_018_not_the_ship_built_this_turn(client):
    st = sea(ships=LANE, turn_flags={"ships_built": [[2, 0, "SE"]]})
    assert rules(adjudicate(client, st, move((2, 0, "SE"), (1, 1, "E")))) == ["SEA-018"]
    v = adjudicate(client, sea(ships=LANE[:1]), ship((2, 0, "SE")))
    assert v["state"]["turn_flags"]["ships_built"] == [[2, 0, "SE"]]


# -- special victory points (SEA-019/020) and the end (SEA-035) -------------------------------------------------

def test_sea_019_020_special_tokens_count_in_the_breakdown_and_lie_under_a_building(client):
    """SEA-019: each token is 1 VP, shown under ``special``; SEA-020: it lies under the building that earned it."""
    st = sea(svp_attached=[{"node": HOME, "count": 2}])
    st["players"][0]["svp"] = 2
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 200
    vp = r.get_json()["derived"]["victory_points"]["0"]
    assert vp["special"] == 2 and vp["total"] == 3
    # the mechanism a scenario calls from its hooks
    s = _engine_state(sea())
    g = MapGraph.build(s.terrain_map())
    ctx = Ctx(s, Action("end_turn", 0), g, get_scenario("seafarers"))
    s2 = s.copy()
    award_svp(ctx, s2, 0, tuple(HOME), 1, "first settlement on an island")
    assert s2.players[0].svp == 1 and s2.svp_attached == {tuple(HOME): 1} and s.players[0].svp == 0
    assert ctx.events[0]["type"] == "special_victory_point"
    bad = sea(svp_attached=[{"node": [3, 1, "N"], "count": 1}])
    assert client.post("/v1/derive", json={"state": bad}).status_code == 422


def test_sea_035_the_game_ends_at_the_vp_target_on_the_players_own_turn(client):
    st = sea(vp_target=3, ships=LANE, svp_attached=[{"node": HOME, "count": 1}])
    st["players"][0]["svp"] = 1
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
    assert v["legal"] and v["derived"]["winner"] == 0 and v["state"]["phase"] == "game_over"
    st["vp_target"] = 4
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
    assert v["derived"]["winner"] is None


def test_derive_endpoint_rejects_extra_fields(client):
    assert client.post("/v1/derive", json={"state": sea(), "action": None}).status_code == 422
    assert client.post("/v1/derive", json={}).status_code == 422


# -- Road Building (SEA-023) -----------------------------------------------------------------------------------

def rb(*pieces):
    return {"type": "play_road_building", "player": 0, "pieces": [{"kind": k, "edge": list(e)} for k, e in pieces]}


def test_sea_023_road_building_two_ships_two_roads_or_one_of_each(client):
    st = sea(players=2)
    st["players"][0]["dev_cards"] = {"road_building": 1}
    v = adjudicate(client, st, rb(("ship", (1, 1, "NE")), ("ship", (2, 0, "SE"))))
    assert v["legal"] and v["state"]["turn_flags"]["ships_built"] == [[1, 1, "NE"], [2, 0, "SE"]]
    assert v["state"]["players"][0]["resources"] == FULL
    assert adjudicate(client, st, rb(("road", (1, 0, "SE")), ("ship", (1, 1, "NE"))))["legal"]
    assert adjudicate(client, st, rb(("road", (1, 0, "SE")), ("road", (0, 1, "NE"))))["legal"]
    v = adjudicate(client, st, rb(("road", (1, 0, "E")), ("ship", (2, -1, "SE"))))
    assert rules(v)[0] == "SEA-009"


# -- gold fields (SEA-024/025, R-014) ----------------------------------------------------------------------------

def gold_state(**kw):
    return sea(settlements=[(0, [1, 2, "N"])], cities=[(1, [1, 2, "S"])], phase="gold_choice",
               pending_gold={"0": 1, "1": 2}, last_roll=[5, 6], **kw)


def test_sea_024_a_roll_on_a_gold_field_opens_the_choice_in_turn_order(client):
    st = sea(settlements=[(0, [1, 2, "N"])], cities=[(1, [1, 2, "S"])], phase="roll")
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [5, 6]})
    assert v["state"]["phase"] == "gold_choice" and v["state"]["pending_gold"] == {"0": 1, "1": 2}
    assert v["derived"]["gold_entitlement"] == {"0": 1, "1": 2}
    st = gold_state()
    assert rules(adjudicate(client, st, {"type": "choose_gold", "player": 1, "resources": {"ore": 2}})) == ["SEA-024"]
    assert rules(adjudicate(client, st, {"type": "choose_gold", "player": 0, "resources": {"ore": 2}})) == ["SEA-024"]
    none = gold_state(players=3)
    v = adjudicate(client, none, {"type": "choose_gold", "player": 2, "resources": {"ore": 1}})
    assert rules(v) == ["SEA-024"] and "no gold-field pick" in v["violations"][0]["message"]
    v = adjudicate(client, st, {"type": "choose_gold", "player": 0, "resources": {"ore": 1}})
    assert v["legal"] and v["state"]["phase"] == "gold_choice" and v["derived"]["gold_pending"] == {"1": 2}
    v = adjudicate(client, v["state"], {"type": "choose_gold", "player": 1, "resources": {"brick": 1, "wool": 1}})
    assert v["legal"] and v["state"]["phase"] == "main"


def test_sea_024_bank_shortage_limits_the_pick_and_the_rest_lapses(client):
    """R-014: a pick is limited to what the bank still has."""
    st = gold_state(hands={0: hand(lumber=19, brick=19, wool=19, grain=19, ore=18), 1: hand()})
    assert rules(adjudicate(client, st, {"type": "choose_gold", "player": 0, "resources": {"wool": 1}})) == ["SEA-024"]
    v = adjudicate(client, st, {"type": "choose_gold", "player": 0, "resources": {"ore": 1}})
    assert v["legal"] and v["state"]["phase"] == "main"
    assert any(e["type"] == "gold_lapsed" for e in v["events"])


def test_sea_025_there_is_no_gold_card(client):
    v = adjudicate(client, gold_state(), {"type": "choose_gold", "player": 0, "resources": {"gold": 1}})
    assert rules(v) == ["SEA-025"]


# -- starting with a ship (SEA-026) -----------------------------------------------------------------------------

def test_sea_026_a_coastal_starting_settlement_may_take_a_ship(client):
    st = sea(phase="setup", hands={}, setup={"round": 1, "step": "road", "last_settlement": HOME}, turn=0)
    v = adjudicate(client, st, ship((1, 1, "NE")))
    assert v["legal"] and v["state"]["players"][0]["resources"] == hand()
    assert v["state"]["players"][0]["supply"]["ships"] == 14
    assert rules(adjudicate(client, st, ship((2, 0, "SE")))) == ["BASE-SETUP-4"]


# -- the pirate (SEA-027..034) ----------------------------------------------------------------------------------

def robber_phase(**kw):
    kw.setdefault("ships", [(1, (3, -1, "SE"))])
    return sea(phase="robber", last_roll=[3, 4], settlements=[(0, HOME), (1, [3, 0, "N"])],
               hands={0: hand(lumber=1), 1: hand(ore=1)}, **kw)


def test_sea_027_034_start_positions_of_pirate_and_robber():
    """SEA-027 / R-007 and SEA-034 / R-009, for any board."""
    hx = {(0, 0): Tile("sea"), (1, 0): Tile("forest", 6), (2, 0): Tile("sea")}
    assert start_positions(hx) == {"robber": None, "pirate": None}                    # SEA-034
    assert start_positions(hx, agreed_pirate=(2, 0))["pirate"] == (2, 0)
    assert start_positions(hx, marked_pirate=(0, 0), agreed_pirate=(2, 0))["pirate"] == (0, 0)
    assert start_positions(hx, agreed_pirate=(1, 0))["pirate"] is None               # never on land
    hx[(3, 0)] = Tile("desert")
    assert start_positions(hx)["robber"] == (3, 0)
    hx[(4, 0)] = Tile("desert")
    assert start_positions(hx)["robber"] is None
    assert start_positions(hx, marked_robber=(4, 0))["robber"] == (4, 0)


def test_sea_034_robber_off_the_board_blocks_nothing_and_can_be_moved_on(client):
    st = sea(phase="roll", robber=None, settlements=[(0, [1, 0, "S"])])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [4, 4]})
    assert v["state"]["players"][0]["resources"]["brick"] == 3
    v = adjudicate(client, robber_phase(robber=None), {"type": "move_robber", "player": 0, "hex": [1, 0]})
    assert v["legal"] and v["state"]["robber"] == [1, 0]


def test_sea_028_on_a_seven_robber_or_pirate(client):
    """SEA-028 / R-008: the roller moves the pirate instead of the robber, never both."""
    v = adjudicate(client, robber_phase(), {"type": "move_pirate", "player": 0, "hex": [3, -1], "steal_from": 1})
    assert v["legal"] and v["state"]["pirate"] == [3, -1] and v["state"]["robber"] is None
    assert v["state"]["phase"] == "main"
    r = client.post("/v1/adjudicate", json={"state": robber_phase() | {"scenario": "base", "pirate": None},
                                            "action": {"type": "move_pirate", "player": 0, "hex": [3, -1]}})
    assert r.status_code == 422          # the base game has no pirate


def test_sea_029_the_pirate_stays_on_sea(client):
    v = adjudicate(client, robber_phase(), {"type": "move_pirate", "player": 0, "hex": [3, 0]})
    assert rules(v) == ["SEA-029"] and "ruling" not in v["violations"][0]
    assert v["violations"][0]["title"] == "Pirate stays at sea"


def test_pirate_left_on_its_hex_breaks_the_move_not_the_sea_rule(client):
    """SEA-028 with R-008: a seven moves the pirate to a different hex; leaving it where it stands breaks the
    move (not SEA-029, which it keeps: it stands on sea), and the verdict names the deciding ruling. Played by
    a Knight, the move is SEA-031's."""
    v = adjudicate(client, robber_phase(), {"type": "move_pirate", "player": 0, "hex": [-1, -1]})
    assert rules(v) == ["SEA-028"]
    assert v["violations"][0]["ruling"] == "R-008" and v["violations"][0]["title"] == "A seven may move the pirate"
    st = robber_phase()
    st["phase"] = "main"
    st["players"][0]["dev_cards"] = {"knight": 1}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "target": "pirate", "hex": [-1, -1]})
    assert rules(v) == ["SEA-031"] and v["violations"][0]["ruling"] == "R-008"


def test_sea_030_steal_from_a_ship_owner_only(client):
    v = adjudicate(client, robber_phase(), {"type": "move_pirate", "player": 0, "hex": [3, -1], "steal_from": 1})
    assert v["state"]["players"][0]["resources"]["ore"] == 1 and v["state"]["players"][1]["resources"]["ore"] == 0
    moved = [e for e in v["events"] if e["type"] == "moved"][0]
    assert moved["steal_candidates"] == [1]
    st = robber_phase(ships=[])
    v = adjudicate(client, st, {"type": "move_pirate", "player": 0, "hex": [3, -1], "steal_from": 1})
    assert rules(v) == ["SEA-030"]
    assert adjudicate(client, st, {"type": "move_pirate", "player": 0, "hex": [3, -1]})["legal"]
    assert rules(adjudicate(client, robber_phase(), {"type": "move_pirate", "player": 0, "hex": [3, -1]})) == ["SEA-030"]


def test_sea_031_a_knight_moves_robber_or_pirate(client):
    """SEA-031: a Soldier card moves either the robber or the pirate."""
    st = robber_phase()
    st["phase"] = "main"
    st["players"][0]["dev_cards"] = {"knight": 1}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "target": "pirate", "hex": [3, -1], "steal_from": 1})
    assert v["legal"] and v["state"]["pirate"] == [3, -1]
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "target": "pirate", "hex": [1, 0]})
    assert rules(v) == ["SEA-029"]
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "target": "robber", "hex": [3, 0], "steal_from": 1})
    assert v["legal"] and v["state"]["robber"] == [3, 0]


def test_sea_031_the_knight_names_what_it_moves(client):
    """SEA-031: with a pirate the knight's target is the player's choice, so it is required (the legal list
    always names it): left out, the action is refused naming /action/target, not read as the robber."""
    st = robber_phase()
    st["phase"] = "main"
    st["players"][0]["dev_cards"] = {"knight": 1}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [3, 0], "steal_from": 1})
    assert rules(v) == ["SEA-031"] and v["violations"][0]["path"] == "/action/target"
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [3, 0], "steal_from": 1, "target": None})
    assert rules(v) == ["SEA-031"]


def test_sea_031_no_pirate_to_move_where_the_scenario_has_none(client):
    """SEA-031: a Soldier card moves the robber or the pirate; where the scenario has no pirate (Gold)
    naming it is refused for that."""
    from .test_gold_rules import base_position
    st = base_position()
    st["players"][0]["dev_cards"] = {"knight": 1}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "target": "pirate", "hex": [0, 0]})
    assert rules(v) == ["SEA-031"] and "no pirate" in v["violations"][0]["message"], v["violations"]


def test_sea_032_no_ship_beside_the_pirate(client):
    st = sea(pirate=[2, 0])
    assert rules(adjudicate(client, st, ship((1, 1, "NE")))) == ["SEA-032"]
    assert adjudicate(client, st, ship((1, 0, "SE")))["legal"]


def test_sea_033_a_ship_beside_the_pirate_stays(client):
    st = sea(ships=LANE, pirate=[2, 1])
    assert rules(adjudicate(client, st, move((2, 0, "SE"), (1, 1, "E")))) == ["SEA-033"]
    st = sea(ships=LANE, pirate=[4, 2])
    assert adjudicate(client, st, move((2, 0, "SE"), (1, 1, "E")))["legal"]
