"""TDE5 "The Great Canal" (seeds/003 scenario 5, with Cities & Knights): the map, the set-up, knights on the
home island digging the canal, prospectors and traders on the small islands, the flood, the end.

Positions are built on the scenario's own map (seed 1). The home island's middle row runs from the basin
A (0,2) through the canal hexes (9,2) .. (1,2) (in canal order) to lake B (10,2); the fields (fixed, face
down) are (2,1) 9, (3,1) 5, (1,3) 10 and (2,3) 4; the small islands are the gold (13,1) with the hills
(14,1) (ore harbour on its east side) and the forest (12,3) (wool harbour on its west side) with the gold
(13,3).
"""
from __future__ import annotations

import pytest

from service.api.codec import dump_state
from service.engine.core import Action
from service.engine.consistency import check_state
from service.engine.geometry import hex_corners
from service.engine.legal import legal_actions
from service.engine.mapgraph import MapGraph
from service.engine.modules.cities_and_knights import store
from service.engine.modules.cities_and_knights.barbarians import outcome
from service.engine.modules.tde5_great_canal import maps as M
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario, scenario_of, start_game
from service.engine.scenarios.base import no_adjacent_reds
from service.engine.scenarios.components import check_components
from service.engine.selfplay import play_game

OPT = {"cities_and_knights": True}
RES = ("lumber", "brick", "wool", "grain", "ore")


def game(n: int = 3, seed: int = 1, **opts):
    return start_game("TDE5", n, seed, {**OPT, **opts})


def give(s, p: int, **cards: int) -> None:
    for r, k in cards.items():
        s.bank[r] -= k
        s.players[p].resources[r] += k


def main(n: int = 3, *, buildings=None, roads=(), ships=(), knights=(), current: int = 0, rolled: bool = True):
    """A main-phase position on the default map: ``buildings`` {node: (player, kind)}, pieces ``(player,
    edge)``, knights as C&K knight dicts."""
    s = game(n)
    s.phase = "main" if rolled else "roll"
    s.flags.rolled = rolled
    s.turn = 9
    s.current_player = current
    for node, (p, kind) in (buildings or {}).items():
        s.buildings[node] = (p, kind)
        s.players[p].supply["settlements" if kind == "settlement" else "cities"] -= 1
    for p, e in roads:
        s.roads[e] = p
        s.players[p].supply["roads"] -= 1
    for p, e in ships:
        s.ships[e] = p
        s.players[p].supply["ships"] -= 1
    store.ck(s)["knights"] = [dict(k) for k in knights]
    return s


def knight(p: int, node, level: int = 1, active: bool = False) -> dict:
    return {"node": list(node), "player": p, "level": level, "active": active, "activated": False, "acted": False,
            "promoted": False}


def judge(s, type_: str, player: int = 0, **params):
    scen = scenario_of(s)
    return adjudicate(s, Action(type_, player, params), MapGraph.build(s.terrain_map()), scen)


def rules(v) -> list[str]:
    return [x.rule for x in v.violations]


def canal_hex(i: int):
    return M.CANAL[i]


# -- the game ----------------------------------------------------------------------------------------------

def test_tde5_001_base_seafarers_and_cities_and_knights_rules_apply_together():
    """TDE5-001: base, Seafarers and C&K rules together (R-079)."""
    scen = scenario_of(game())
    types = scen.action_types()
    assert {"build_ship", "move_ship", "build_knight", "activate_knight", "improve_city", "play_progress"} <= types
    assert "buy_development_card" in types and "play_knight" not in types          # CK-CHG-2
    assert "cities_and_knights" in scen.composition.modules


def test_tde5_002_three_or_four_players_and_never_without_cities_and_knights(client):
    """TDE5-002, R-079: 3 or 4 players; never without Cities & Knights (422)."""
    for n in (3, 4):
        r = client.post("/v1/games", json={"scenario": "TDE5", "players": n, "seed": 1, "options": OPT})
        assert r.status_code == 201, r.get_data(as_text=True)
    r = client.post("/v1/games", json={"scenario": "TDE5", "players": 2, "seed": 1, "options": OPT})
    assert r.status_code == 422
    r = client.post("/v1/games", json={"scenario": "TDE5", "players": 3, "seed": 1})
    assert r.status_code == 422 and "R-079" in r.get_data(as_text=True)
    st = dump_state(game())
    st["options"] = {}
    st["scenario_state"].pop("cities_and_knights")
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 422 and "R-079" in r.get_data(as_text=True)


# -- the map -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", (3, 4))
def test_tde5_003_the_default_map_matches_its_component_table(n):
    """TDE5-003 / R-054: the default map holds the component table."""
    scen = get_scenario("TDE5")
    for seed in (1, 2, 3):
        assert check_components(scen, n, game(n, seed)) == []


def test_tde5_003_fixed_fields_mountains_basin_small_islands_and_a_random_light_brown_area():
    """TDE5-003, R-054: fixed hexes, 4 hills + 5 pastures + 4 forests at random, 9 canal hexes."""
    cells = M.SPEC.cells()
    brown = [h for h, ch in cells.items() if ch == "r"]
    assert len(brown) == 13 and len(M.CANAL) == 9                      # the stated numbers
    seen = set()
    for seed in (1, 2, 3, 4):
        s = game(3, seed)
        area = [s.hexes[h].terrain for h in brown]
        assert sorted(area) == sorted(["hills"] * 4 + ["pasture"] * 5 + ["forest"] * 4)
        seen.add(tuple(area))
        for h, ch in cells.items():
            if ch in "FMAcghw~":
                assert s.hexes[h].terrain == {"F": "fields", "M": "mountains", "A": "desert", "c": "desert",
                                              "g": "gold", "h": "hills", "w": "forest", "~": "lake"}[ch]
        assert s.hexes[M.BASIN].terrain == "desert" and s.hexes[M.LAKE].terrain == "lake"
    assert len(seen) > 1                                               # random arrangement


def test_tde5_004_gold_and_field_tokens_are_fixed_and_the_fields_start_face_down():
    """TDE5-004, R-070: the gold 8s and the field tokens are fixed; fields face down."""
    for seed in (1, 2):
        s = game(3, seed)
        assert {h: s.hexes[h].number for h in M.FIELDS} == M.FIELDS
        assert all(s.hexes[h].number == 8 for h in M.GOLD)                # the 8s
        assert sorted(map(tuple, s.scenario_state["barren"])) == sorted(M.FIELDS)


def test_tde5_004_a_barren_field_produces_no_grain_until_the_flood():
    """TDE5-004, TDE5-020: barren fields give no grain until the flood."""
    field = (2, 1)                                                      # token 9
    node = hex_corners(field)[0]
    s = main(buildings={node: (0, "settlement")}, rolled=False)
    v = judge(s, "roll", 0, dice=[4, 5], event="science")
    assert v.legal
    assert v.state.players[0].resources["grain"] == 0
    s.scenario_state["barren"] = []
    s.scenario_state["flooded"] = True
    v = judge(s, "roll", 0, dice=[4, 5], event="science")
    assert v.state.players[0].resources["grain"] == 1


def test_tde5_005_random_tokens_keep_the_reds_apart_and_ports_and_chips_lie_as_shown():
    """TDE5-005, R-021: reds apart; ports and chips as shown."""
    harbors = None
    for seed in range(1, 6):
        s = game(3, seed)
        home = {h: t for h, t in s.hexes.items() if h not in M.GOLD}
        assert no_adjacent_reds(home)
        harbors = harbors or s.harbors
        assert s.harbors == harbors == M.fixed_harbors()
        assert [tuple(t["hex"]) for t in s.scenario_state["canal"]] == list(M.CANAL)
        assert all(t["chips"] == 2 and not t["dug"] for t in s.scenario_state["canal"])


# -- the set-up --------------------------------------------------------------------------------------------

def _setup_run(n: int, seed: int = 2):
    g = play_game("TDE5", n, seed, max_actions=8 * n, check=False)
    return g


def test_tde5_006_settlement_then_city_then_the_last_city_placer_places_the_second_settlement_at_once():
    """TDE5-006: settlement, city (base order), then the second settlement from the last city placer on."""
    order = []
    kinds = []

    def step(state, action, verdict):
        if action.type == "build_settlement" and state.phase == "setup":
            order.append((state.setup.round, action.player))
        for e in verdict.events:
            if e["type"] == "built" and e.get("piece") in ("settlement", "city"):
                kinds.append((state.setup.round, e["piece"]))

    play_game("TDE5", 3, 2, max_actions=18, check=False, on_step=step)
    assert order == [(1, 0), (1, 1), (1, 2), (2, 2), (2, 1), (2, 0), (3, 0), (3, 1), (3, 2)]
    assert [k for r, k in kinds if r == 2 and k == "city"] == ["city"] * 3


def test_tde5_007_starting_resources_from_the_last_settlement_with_grain_from_a_barren_field():
    """TDE5-007: the last settlement pays, a barren field's grain included."""
    s = game(3)
    s.setup.round = 3
    node = hex_corners((2, 1))[3]          # S corner of the field (2,1): touches (2,1), (1,2) canal, (2,2) canal?
    graph = MapGraph.build(s.terrain_map())
    hexes = graph.node_hexes[graph.node_index[node]]
    s.buildings[hex_corners((6, 1))[0]] = (0, "city")     # an earlier coastal building elsewhere
    v = judge(s, "build_settlement", 0, node=node)
    assert v.legal, rules(v)
    got = next(e for e in v.events if e["type"] == "starting_resources")["resources"]
    want = {}
    for h in hexes:
        r = {"fields": "grain", "forest": "lumber", "hills": "brick", "pasture": "wool", "mountains": "ore"}.get(
            s.hexes[h].terrain)
        if r:
            want[r] = want.get(r, 0) + 1
    assert got == want and got.get("grain") == 1


def test_tde5_008_the_last_starting_building_must_be_coastal_if_none_is_r074():
    """TDE5-008, R-074: a coastal starting building is required."""
    s = game(3)
    s.setup.round = 3
    inland = hex_corners((5, 2))[0]                      # N of a canal hex: inland
    s.buildings[hex_corners((6, 2))[0]] = (0, "city")    # inland city
    v = judge(s, "build_settlement", 0, node=inland)
    assert not v.legal and rules(v) == ["TDE5-008"] and v.violations[0].ruling == "R-074"
    coast = hex_corners((6, 1))[0]                       # N of (6,1): touches the northern sea
    assert judge(s, "build_settlement", 0, node=coast).legal


def test_tde5_008_the_lake_is_no_coast():
    """TDE5-008, R-074, R-002: the lake is no coast."""
    s = game(3)
    s.setup.round = 3
    s.buildings[hex_corners((6, 2))[0]] = (0, "city")
    by_lake = hex_corners(M.LAKE)[0]                     # N corner of lake B
    v = judge(s, "build_settlement", 0, node=by_lake)
    assert not v.legal and rules(v) == ["TDE5-008"]


def test_tde5_009_a_coastal_starting_building_takes_a_ship():
    """TDE5-009, R-074: a coastal starting building takes a ship."""
    s = game(3)
    coast = (7, 0, "S")                                  # between (6,1), (7,1) and the northern sea
    v = judge(s, "build_settlement", 0, node=coast)
    assert v.legal
    s2 = v.state
    g = MapGraph.build(s2.terrain_map())
    nid = g.node_index[coast]
    land = [g.edges[e] for e in g.node_edge_ids[nid] if g.edge_kind[e] == "land"]
    coastal = [g.edges[e] for e in g.node_edge_ids[nid] if g.edge_kind[e] == "coast"]
    v = judge(s2, "build_road", 0, edge=land[0])
    assert not v.legal and rules(v) == ["TDE5-009"]
    assert judge(s2, "build_ship", 0, edge=coastal[0]).legal


def test_tde5_010_robber_only_on_a_desert_of_the_starting_players_choice(client):
    """TDE5-010, R-009: the robber only, on a desert the starting player chooses."""
    s = game(3)
    assert s.robber == M.BASIN and s.pirate is None
    assert "move_pirate" not in scenario_of(s).action_types()
    assert game(3, robber=list(M.CANAL[3])).robber == M.CANAL[3]
    r = client.post("/v1/games", json={"scenario": "TDE5", "players": 3, "seed": 1,
                                       "options": {**OPT, "robber": [2, 1]}})
    assert r.status_code == 422 and "TDE5-010" in r.get_data(as_text=True)


# -- knights -----------------------------------------------------------------------------------------------

def _ship_line(p: int = 0):
    """Player p's coastal city at the north-east of the home island with a ship line to the gold (13,1)."""
    city = (11, 1, "N")
    # ships: from (11,1,N) east over the sea to the west corner of (13,1)
    ships = [(p, (11, 1, "NE")), (p, (12, 0, "SE")), (p, (12, 1, "NE"))]
    return {city: (p, "city")}, ships


def test_tde5_011_knights_are_built_on_the_home_island_only_r071():
    """TDE5-011, R-071: knights are built on the home island only."""
    b, ships = _ship_line()
    s = main(buildings=b, ships=ships)
    give(s, 0, wool=2, ore=2)
    g = MapGraph.build(s.terrain_map())
    end = [n for n in (g.nodes[i] for e in ships for i in g.edge_node_ids[g.edge_index[e[1]]])
           if any(h == (13, 1) for h in g.node_hexes[g.node_index[n]])]
    assert end, "the ship line reaches the gold hex"
    v = judge(s, "build_knight", 0, node=end[0])
    assert not v.legal and rules(v) == ["TDE5-011"] and v.violations[0].ruling == "R-071"
    assert judge(s, "build_knight", 0, node=(11, 1, "NE") if False else end[0]).violations
    home_node = (11, 1, "N")
    s.buildings.pop(home_node)
    s.roads[(10, 1, "E")] = 0
    v = judge(s, "build_knight", 0, node=(11, 1, "N"))
    assert v.legal, rules(v)


def _dig_position(same_player: bool, level: int = 1):
    h = canal_hex(4)
    n0, n1 = hex_corners(h)[0], hex_corners(h)[3]
    other = 0 if same_player else 1
    ks = [knight(0, n0, level=level, active=True), knight(other, n1)]
    s = main(knights=ks, current=other)
    give(s, other, grain=1)
    return s, h, n1, other


def test_tde5_012_two_active_knights_dig_at_once_tde5_014_they_stay_active():
    """TDE5-012, TDE5-014, R-072: two active knights dig at once and stay active."""
    s, h, n1, p = _dig_position(same_player=False)
    v = judge(s, "activate_knight", p, node=n1)
    assert v.legal
    tile = next(t for t in v.state.scenario_state["canal"] if tuple(t["hex"]) == h)
    assert tile["dug"] and tile["chips"] == 0
    assert any(e["type"] == "canal_dug" for e in v.events)
    assert all(k["active"] for k in store.ck(v.state)["knights"])       # TDE5-014: not deactivated


def test_tde5_013_knights_of_two_players_take_one_chip_each():
    """TDE5-013: knights of two players take one chip each (1 VP each)."""
    s, h, n1, p = _dig_position(same_player=False)
    v = judge(s, "activate_knight", p, node=n1)
    assert v.state.scenario_state["canal_chips"] == {"0": 1, "1": 1, "2": 0}
    assert scenario_of(s).vp_extra(v.state, 1)["canal_chips"] == 1


def test_tde5_013_both_knights_of_one_player_take_both_chips():
    """TDE5-013: both knights of one player take both chips."""
    s, h, n1, p = _dig_position(same_player=True)
    v = judge(s, "activate_knight", 0, node=n1)
    assert v.state.scenario_state["canal_chips"]["0"] == 2
    assert v.derived["great_canal"]["vp_chips"]["0"] == 2


def test_tde5_014_the_knights_strength_does_not_matter_and_a_third_cannot_join():
    """TDE5-014: strength does not matter; a third knight cannot join."""
    s, h, n1, p = _dig_position(same_player=False, level=3)
    v = judge(s, "activate_knight", p, node=n1)
    assert v.state.scenario_state["canal_chips"] == {"0": 1, "1": 1, "2": 0}
    # a third knight activated on the dug hex gets nothing
    s2 = v.state
    s2.current_player = 2
    third = hex_corners(h)[1]
    store.ck(s2)["knights"].append(knight(2, third))
    for k in store.ck(s2)["knights"]:
        k["activated"] = False
    give(s2, 2, grain=1)
    v2 = judge(s2, "activate_knight", 2, node=third)
    assert v2.legal and v2.state.scenario_state["canal_chips"]["2"] == 0


def test_tde5_012_r072_the_pair_is_the_acting_knight_and_the_earliest_activated_other():
    """TDE5-012, TDE5-013, R-072: the pair is the acting knight and the earliest-activated other."""
    h = canal_hex(4)
    c = hex_corners(h)
    s = main(knights=[knight(1, c[0], active=True), knight(2, c[1], active=True), knight(0, c[3])])
    s.scenario_state["activation_order"] = [list(c[1]), list(c[0])]       # player 2's knight activated first
    s.scenario_state["canal"] = [dict(t, dug=False) for t in s.scenario_state["canal"]]
    give(s, 0, grain=1)
    v = judge(s, "activate_knight", 0, node=c[3])
    ev = next(e for e in v.events if e["type"] == "canal_dug")
    assert ev["chips"] == {"0": 1, "2": 1}


def test_tde5_012_one_knight_on_a_corner_of_two_chip_hexes_completes_both():
    """TDE5-012, TDE5-019, R-072: one knight on a corner of two chip hexes completes both."""
    a, b = canal_hex(3), canal_hex(4)
    shared = sorted(set(hex_corners(a)) & set(hex_corners(b)))
    assert len(shared) == 2
    other_a = next(n for n in hex_corners(a) if n not in shared)
    other_b = next(n for n in hex_corners(b) if n not in shared)
    s = main(knights=[knight(1, other_a, active=True), knight(1, other_b, active=True), knight(0, shared[0])])
    give(s, 0, grain=1)
    v = judge(s, "activate_knight", 0, node=shared[0])
    dug = [tuple(t["hex"]) for t in v.state.scenario_state["canal"] if t["dug"]]
    assert sorted(dug) == sorted([a, b])
    assert v.state.scenario_state["canal_chips"] == {"0": 2, "1": 2, "2": 0}


def test_tde5_019_the_penultimate_tile_finishes_the_canal_tde5_020_the_basin_floods():
    """TDE5-019, TDE5-020, R-072: the penultimate tile finishes the canal; the basin floods."""
    h = canal_hex(8)
    c = hex_corners(h)
    s = main(knights=[knight(1, c[0], active=True), knight(0, c[3])])
    tiles = s.scenario_state["canal"]
    for t in tiles[:7]:
        t["dug"], t["chips"] = True, 0
    s.scenario_state["canal_chips"] = {"0": 7, "1": 7, "2": 0}
    give(s, 0, grain=1)
    v = judge(s, "activate_knight", 0, node=c[3])
    ss = v.state.scenario_state
    assert all(t["dug"] and t["chips"] == 0 for t in ss["canal"])
    assert ss["canal_chips"] == {"0": 8, "1": 8, "2": 0}               # the 9th's chips leave the game
    assert ss["flooded"] and ss["barren"] == []
    types = [e["type"] for e in v.events]
    assert "canal_completed" in types and "basin_flooded" in types
    assert v.derived["great_canal"]["flooded"] and v.derived["great_canal"]["to_complete"] == 0


def test_tde5_020_after_the_flood_the_fields_bear_grain():
    """TDE5-020: after the flood the fields produce grain."""
    field = (2, 1)
    node = hex_corners(field)[0]
    s = main(buildings={node: (0, "city")}, rolled=False)
    s.scenario_state.update(flooded=True, barren=[])
    v = judge(s, "roll", 0, dice=[4, 5], event="science")
    assert v.state.players[0].resources["grain"] == 2


# -- the small islands -------------------------------------------------------------------------------------

def _island(p: int, node, active: bool = False):
    b, ships = _ship_line(p)
    return main(buildings=b, ships=ships, knights=[knight(p, node, active=active)], rolled=False)


GOLD_NE = (13, 1)


def test_tde5_015_a_prospector_takes_a_resource_of_choice_on_the_gold_hexs_8_r070():
    """TDE5-015, R-070: a prospector (active or not) takes 1 resource of choice on the 8."""
    s = _island(0, hex_corners(GOLD_NE)[4])            # W-ish corner, inactive: still pays
    v = judge(s, "roll", 0, dice=[4, 4], event="science")
    assert v.legal
    assert v.state.phase == "gold_choice" and v.state.pending_gold == {0: 1}
    assert v.derived["great_canal"]["prospect_picks"] == {"8": {"0": 1}}


def test_tde5_016_two_knights_of_one_player_on_a_gold_hex_give_one_resource():
    """TDE5-016, R-070: two knights of one player on a gold hex still give 1."""
    s = _island(0, hex_corners(GOLD_NE)[4])
    store.ck(s)["knights"].append(knight(0, hex_corners(GOLD_NE)[0]))
    v = judge(s, "roll", 0, dice=[4, 4], event="science")
    assert v.state.pending_gold == {0: 1}


def test_tde5_015_r070_the_robber_on_the_gold_hex_stops_the_prospector():
    """TDE5-015, R-070: the robber on the gold hex stops the prospector."""
    s = _island(0, hex_corners(GOLD_NE)[4])
    s.robber = GOLD_NE
    v = judge(s, "roll", 0, dice=[4, 4], event="science")
    assert v.state.pending_gold == {} or 0 not in v.state.pending_gold


def test_tde5_022_after_the_flood_no_prospecting():
    """TDE5-022, R-070: after the flood no prospecting."""
    s = _island(0, hex_corners(GOLD_NE)[4])
    s.scenario_state.update(flooded=True, barren=[])
    v = judge(s, "roll", 0, dice=[4, 4], event="science")
    assert 0 not in (v.state.pending_gold or {})


def test_tde5_017_a_knight_at_a_small_island_harbour_opens_its_port():
    """TDE5-017: a knight at a small island's harbour opens its port."""
    hills = (14, 1)
    east = [n for n in hex_corners(hills) if n in ((15, 0, "S"), (14, 1, "N"), (14, 1, "S"), (15, 1, "N"))]
    s = _island(0, (15, 0, "S"))
    s.phase, s.flags.rolled = "main", True
    give(s, 0, ore=2)
    v = judge(s, "maritime_trade", 0, give={"ore": 2}, get={"grain": 1})
    assert v.legal, rules(v)
    assert v.derived["great_canal"]["traders"]["0"] == ["ore"]
    store.ck(s)["knights"] = []
    assert not judge(s, "maritime_trade", 0, give={"ore": 2}, get={"grain": 1}).legal
    assert east


def test_tde5_018_knights_on_the_small_islands_do_not_defend():
    """TDE5-018, R-071: knights on the small islands do not defend."""
    s = _island(0, hex_corners(GOLD_NE)[4], active=True)
    store.ck(s)["knights"].append(knight(1, hex_corners((6, 2))[0], level=2, active=True))
    o = outcome(s)
    assert o["knights"] == {"0": 0, "1": 2, "2": 0}
    assert judge(s, "end_turn", 0).derived["great_canal"]["island_knights"]["0"]


def test_r071_a_knight_moves_along_its_ship_line_to_a_gold_or_harbour_intersection_only():
    """R-071, TDE5-015: a knight moves along its ship line to a gold or harbour intersection."""
    b, ships = _ship_line(0)
    home = (11, 1, "N")
    s = main(buildings={}, ships=ships, knights=[knight(0, home, active=True)],
             roads=[(0, (10, 1, "E"))])
    s.buildings[(10, 1, "N")] = (0, "city")
    s.players[0].supply["cities"] -= 1
    g = MapGraph.build(s.terrain_map())
    tip = (13, 0, "S")          # the end of the line: a corner of the gold (13,1)
    assert (13, 1) in g.node_hexes[g.node_index[tip]]
    v = judge(s, "move_knight", 0, **{"from": home, "to": tip})
    assert v.legal, rules(v)
    assert v.derived["great_canal"]["prospectors"]["0"] == [[13, 1]]


def test_a_knight_on_a_small_island_stands_only_at_gold_or_a_harbour_TDE5_015():
    """TDE5-015 (R-071): on a small island a knight goes to an intersection of the gold hex or of a
    harbour: the ship line carried on to another corner of the island is refused for it there."""
    b, ships = _ship_line(0)
    ships = ships + [(0, e) for e in ((13, 0, "SE"), (13, 1, "NE"), (14, 0, "SE"))]
    home = (11, 1, "N")
    s = main(buildings={}, ships=ships, knights=[knight(0, home, active=True)], roads=[(0, (10, 1, "E"))])
    s.buildings[(10, 1, "N")] = (0, "city")
    s.players[0].supply["cities"] -= 1
    v = judge(s, "move_knight", 0, **{"from": home, "to": (14, 1, "N")})
    assert not v.legal and rules(v) == ["TDE5-015"], rules(v)
    assert judge(s, "move_knight", 0, **{"from": home, "to": (13, 0, "S")}).legal


def test_tde5_021_no_settlement_on_the_small_islands():
    """TDE5-021: no settlement on the small islands."""
    b, ships = _ship_line(0)
    s = main(buildings=b, ships=ships)
    give(s, 0, lumber=1, brick=1, wool=1, grain=1)
    v = judge(s, "build_settlement", 0, node=(13, 0, "S"))
    assert not v.legal and rules(v) == ["TDE5-021"]


def test_tde5_023_r073_shipping_lines_do_not_branch():
    """TDE5-023, R-073: shipping lines do not branch."""
    b, ships = _ship_line(0)
    s = main(buildings=b, ships=ships)
    give(s, 0, lumber=2, wool=2)
    # (12,0,SE) and (12,1,NE) meet at (13,0,S)? the middle of the line is the node both touch
    g = MapGraph.build(s.terrain_map())
    counts = {}
    for _, e in ships:
        for n in g.edge_node_ids[g.edge_index[e]]:
            counts[g.nodes[n]] = counts.get(g.nodes[n], 0) + 1
    middle = next(n for n, k in counts.items() if k == 2 and n not in b)
    free = [g.edges[e] for e in g.node_edge_ids[g.node_index[middle]]
            if g.ship_edge(e) and g.edges[e] not in s.ships]
    v = judge(s, "build_ship", 0, edge=free[0])
    assert not v.legal and rules(v) == ["TDE5-023"] and v.violations[0].ruling == "R-073"


def test_tde5_023_two_separate_lines_from_one_building_stay_legal():
    """TDE5-023, R-073: two separate lines from one building stay legal."""
    b, ships = _ship_line(0)
    s = main(buildings=b, ships=ships)
    give(s, 0, lumber=1, wool=1)
    v = judge(s, "build_ship", 0, edge=(11, 0, "SE"))
    assert v.legal, rules(v)


def test_tde5_024_irrigation_counts_barren_fields():
    """TDE5-024: Irrigation counts barren fields."""
    node = hex_corners((2, 1))[0]
    s = main(buildings={node: (0, "city")})
    c = store.ck(s)
    c["decks"]["science"]["irrigation"] -= 1
    c["hands"].setdefault("0", {})["irrigation"] = 1
    v = judge(s, "play_progress", 0, card="irrigation")
    assert v.legal, rules(v)
    assert v.state.players[0].resources["grain"] == 2


def test_tde5_004_the_inventor_cannot_choose_a_face_down_token():
    """TDE5-004: the Inventor cannot choose a face-down token (decided in the package)."""
    s = main(buildings={hex_corners((2, 1))[0]: (0, "city")})
    c = store.ck(s)
    c["decks"]["science"]["inventor"] -= 1
    c["hands"].setdefault("0", {})["inventor"] = 1
    other = next(h for h in (4, 5, 7, 8, 10, 11) if s.hexes[(h, 1)].number not in (2, 6, 8, 12))
    v = judge(s, "play_progress", 0, card="inventor", hexes=[[2, 1], [other, 1]])
    assert not v.legal and rules(v) == ["TDE5-004"]


def test_tde5_025_twenty_one_vp_with_three_players_eighteen_with_four():
    """TDE5-025: 21 VP with 3 players, 18 with 4."""
    assert game(3).vp_target == 21
    assert game(4).vp_target == 18


def test_tde5_025_digging_past_the_target_on_ones_own_turn_wins():
    """TDE5-025, TDE5-013: chips are VP; 21 with 3 players wins on the player's own turn."""
    h = canal_hex(7)
    c = hex_corners(h)
    cities = {hex_corners((6, 1))[0]: (0, "city"), hex_corners((9, 1))[0]: (0, "city"),
              hex_corners((5, 3))[3]: (0, "city")}
    s = main(buildings=cities, knights=[knight(0, c[0], active=True), knight(0, c[3])])
    for t in s.scenario_state["canal"][:7]:
        t["dug"], t["chips"] = True, 0
    s.scenario_state["canal_chips"] = {"0": 13, "1": 1, "2": 0}
    give(s, 0, grain=1)
    before = judge(s, "end_turn", 0).derived["victory_points"]
    v = judge(s, "activate_knight", 0, node=c[3])
    assert v.legal and v.state.phase == "game_over" and v.derived["winner"] == 0, before


def test_random_play_keeps_every_invariant():
    """TDE5-006..025: seeded random games through set-up and play break no invariant."""
    for n, seed in ((3, 1), (4, 2)):
        g = play_game("TDE5", n, seed, max_actions=200)
        assert g.failures == []


def test_a_posted_tde5_position_is_consistent():
    s = main()
    assert check_state(s, MapGraph.build(s.terrain_map()), scenario_of(s), lambda k, c: f"/{k}/{c}") == []


def test_legal_actions_of_a_tde5_position_are_all_legal():
    b, ships = _ship_line(0)
    s = main(buildings=b, ships=ships, knights=[knight(0, (11, 1, "NW"), active=True)] if False else [])
    give(s, 0, lumber=3, brick=3, wool=3, grain=3, ore=3)
    g = MapGraph.build(s.terrain_map())
    scen = scenario_of(s)
    la = legal_actions(s, g, scen, 0)
    assert la


def test_tde5_render_and_explain_show_the_canal_chips_and_island_knights(client):
    s = _island(0, hex_corners(GOLD_NE)[4])
    s.phase, s.flags.rolled = "main", True
    g = MapGraph.build(s.terrain_map())
    scen = scenario_of(s)
    layers = {l.key: l for l in scen.board_layers(s, g)}
    assert len(layers["canal_chips"].glyphs) == 9 and len(layers["barren"].glyphs) == 4       # TDE5-012, TDE5-004
    assert [gl.label for gl in layers["island_knight"].glyphs] == ["P"]                         # TDE5-015
    ex = scen.explain_extra(s, g)["great_canal"]
    assert "TDE5-019" in ex["canal"]["why"] and ex["prospectors"]["per_player"] == {"0": [[13, 1]]}
    r = client.post("/v1/render", json={"state": dump_state(s)})
    assert r.status_code == 200 and "canal" in r.get_data(as_text=True)


# -- legal actions -----------------------------------------------------------------------------------------

_TYPES = ("build_knight", "activate_knight", "move_knight", "build_ship", "move_ship", "build_settlement")


def _key(a) -> tuple:
    return (a.type, a.player, tuple(sorted((k, repr(v if not isinstance(v, list) else tuple(v)))
                                           for k, v in a.params.items() if v is not None and k != "retreat")))


def _candidates(s, g, p):
    ks = [k for k in store.ck(s)["knights"] if k["player"] == p]
    for n in g.nodes:
        yield Action("build_knight", p, {"node": n})
        yield Action("build_settlement", p, {"node": n})
        for k in ks:
            yield Action("move_knight", p, {"from": tuple(k["node"]), "to": n})
    for k in ks:
        yield Action("activate_knight", p, {"node": tuple(k["node"])})
    for eid, e in enumerate(g.edges):
        if g.ship_edge(eid):
            yield Action("build_ship", p, {"edge": e})
            for f in sorted(x for x, o in s.ships.items() if o == p):
                yield Action("move_ship", p, {"from": f, "to": e})


def _positions():
    b, ships = _ship_line(0)
    s = main(buildings={(10, 1, "N"): (0, "city"), (4, 1, "N"): (1, "city")}, ships=ships,
             roads=[(0, (10, 1, "E")), (0, (10, 1, "NE"))],
             knights=[knight(0, (11, 1, "N"), active=True), knight(0, canal_hex(1)[:2] + ("N",), active=False),
                      knight(1, hex_corners(canal_hex(6))[0], level=2, active=True)])
    give(s, 0, lumber=3, brick=3, wool=3, grain=3, ore=3)
    yield s
    steps = []
    play_game("TDE5", 3, 5, max_actions=160, check=False, on_step=lambda st, a, v: steps.append(st))
    yield from steps[60::50]


def test_tde5_listed_knight_ship_and_settlement_actions_are_exactly_the_legal_ones():
    """TDE5-011, TDE5-015, TDE5-021, TDE5-023 (R-071, R-073): on TDE5 positions the legal-action list holds
    exactly the candidates adjudicate finds legal, for the types the scenario restricts."""
    from service.engine.legal import violations_of
    checked = 0
    for s in _positions():
        if s.phase != "main":
            continue
        g = MapGraph.build(s.terrain_map())
        scen = scenario_of(s)
        p = s.current_player
        la = legal_actions(s, g, scen, p)
        listed = {_key(a) for t in _TYPES for a in la.actions.get(t, [])}
        for t in _TYPES:
            for a in la.actions.get(t, []):
                assert not violations_of(s, a, g, scen), a
        for a in _candidates(s, g, p):
            legal = not violations_of(s, a, g, scen)
            assert legal == (_key(a) in listed), (a, legal)
            checked += 1
    assert checked > 100


def test_tde5_page_is_the_game_with_cities_and_knights(client):
    """R-079, TDE5-002: the scenario's page lists the options of the game it is, Cities & Knights included
    (its variants; strict phases false only, CK-CHG-7), and the expansion's switch as true only."""
    opts = client.get("/v1/scenarios/TDE5").get_json()["options"]
    assert "CK-VAR-MEANIES" in opts and "deserter_fallback" in opts
    assert opts["BASE-VAR-STRICT-PHASES"].startswith("false only")
    assert opts["cities_and_knights"].startswith("true only") and "R-079" in opts["cities_and_knights"]
    r = client.post("/v1/games", json={"scenario": "TDE5", "players": 3, "seed": 1,
                                       "options": {"cities_and_knights": True, "CK-VAR-MEANIES": True}})
    assert r.status_code == 201 and r.get_json()["state"]["options"]["CK-VAR-MEANIES"] is True
