"""The 5-6 player extension (``rules/five-six.md``, BASE56-*): board and components, the Special Building Phase,
the paired players' turn, Seafarers with 5-6 players. Each test names the rule it would fail without."""
from __future__ import annotations

import pytest

from service.engine.geometry import edge_nodes, hex_corners, node_edges
from service.engine.mapgraph import MapGraph
from service.engine.modules.five_six import board as B
from service.engine.rng import Rng
from service.engine.scenarios import GameRefused, get_scenario, scenario_of, start_game
from service.engine.scenarios.base import hexagon, no_adjacent_reds
from service.engine.scenarios.components import check_components, count_components

from .five_six_util import (SEATS, act, board_json, edge_away, other_end, paired, position, rich, ring_roads, sbp,
                            then)
from .helpers import hand, rules
from .spec_util import check_response


def _derived(client, st):
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["derived"]


# -- scope, players, components ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 6])
def test_BASE56_002_five_and_six_players_use_the_whole_board(client, n):
    """BASE56-002: a new base game of 5 or 6 players has all 30 land hexes, 11 harbours and 28 tokens, and a
    posted game of that many players is refereed with the extension."""
    r = client.post("/v1/games", json={"scenario": "base", "players": n, "seed": 4})
    check_response("/v1/games", "post", r)
    st = r.get_json()["state"]
    land = [h for h in st["board"]["hexes"] if h["terrain"] != "frame"]
    assert len(land) == 30 and len(st["board"]["harbors"]) == 11
    assert sum(1 for h in land if h["number"] is not None) == 28
    s = start_game("base", n, 4)
    assert "five_six" in scenario_of(s).composition.modules
    assert "five_six" not in scenario_of(start_game("base", 4, 4)).composition.modules


def test_BASE56_003_fewer_than_five_players_refuse_the_ruleset(client):
    """BASE56-003 (U-11): the 5-6 ruleset with fewer than 5 players is refused; a 4-player game is the base game."""
    r = client.post("/v1/games", json={"scenario": "base", "players": 4, "seed": 1,
                                       "options": {"five_six_mode": "special_build"}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/options/five_six_mode"
    assert "BASE56-003" in r.get_json()["errors"][0]["detail"]
    st = position(4)
    st["options"] = {"five_six_mode": "paired"}
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and "BASE56-003" in str(r.get_json())
    v = act(client, position(4), {"type": "end_turn", "player": 0})      # no Special Building Phase with 4
    assert v["state"]["phase"] == "roll" and v["state"]["current_player"] == 1


def test_BASE56_001_the_extension_is_for_the_base_game_and_seafarers():
    """BASE56-001: the extension changes the base rules only as it states; Cities & Knights is not among the
    games it referees (refused, not silently played)."""
    with pytest.raises(GameRefused) as e:
        start_game("base", 5, 1, {"cities_and_knights": True})
    assert "BASE56-001" in e.value.problems[0][1]


@pytest.mark.parametrize("n", [5, 6])
def test_BASE56_004_BASE56_005_BASE56_006_components(n):
    """BASE56-004: 5 settlements, 4 cities, 15 roads per player; BASE56-005: 24 of each resource in the bank;
    BASE56-006: 34 development cards, 20/5/3/3/3."""
    s = start_game("base", n, 2)
    assert all(p.supply == {"settlements": 5, "cities": 4, "roads": 15, "ships": 0} for p in s.players)
    assert s.bank == {r: 24 for r in ("lumber", "brick", "wool", "grain", "ore")}
    assert s.dev_deck == {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3}
    assert sum(s.dev_deck.values()) == 34


def test_BASE56_005_a_posted_bank_counts_to_24(client):
    """BASE56-005: the cards in hands and bank add up to 24 of each resource (19 is a 3-4 player bank)."""
    st = position(5, bank={"lumber": 19, "brick": 24, "wool": 24, "grain": 24, "ore": 24})
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and any(e["pointer"] == "/state/bank/lumber" for e in r.get_json()["errors"])


def test_BASE56_040_no_card_once_the_34_are_gone(client):
    """BASE56-040: cards work as in the base game; none can be bought once the 34 are gone (BASE-COMP-3)."""
    st = position(5, hands={0: rich()})
    st["players"][1]["dev_cards"] = {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3,
                                     "monopoly": 3}
    v = act(client, st, {"type": "buy_development_card", "player": 0})
    assert not v["legal"] and rules(v) == ["BASE-COMP-3"]


def test_BASE56_039_ten_points_and_the_awards_as_in_the_base_game():
    """BASE56-039: victory at 10 VP, Longest Road from 5 roads, as in the base game."""
    scen = scenario_of(start_game("base", 6, 1))
    assert scen.vp_target == 10 and scen.route_minimum == 5 and start_game("base", 6, 1).vp_target == 10


def test_BASE56_038_seven_discards_over_seven_cards(client):
    """BASE56-038: a 7 makes every player over 7 cards discard half, rounded down, as in the base game."""
    st = position(5, phase="roll", hands={3: rich(lumber=0, brick=0, wool=0, grain=4, ore=5), 4: hand(ore=7)})
    st.pop("turn_flags", None)
    v = act(client, st, {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v["state"]["phase"] == "discard" and v["state"]["pending_discards"] == {"3": 4}


def test_BASE56_038_the_seven_is_the_extensions_own_over_any_lower_limit(client, monkeypatch):
    """BASE56-038: the 5-6 game holds its own hand limit of 7 (over 7 cards: discard half, rounded down), whatever
    the rules below it say; a 4-player game follows the base game's limit (here changed to show the difference)."""
    from service.engine.scenarios.base import Scenario
    monkeypatch.setattr(Scenario, "discard_limit", lambda self, state, player: 9)
    st = position(6, phase="roll", hands={2: hand(ore=8), 3: hand(grain=4, ore=5), 5: hand(ore=7)})
    st.pop("turn_flags", None)
    v = act(client, st, {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v["legal"] and v["state"]["phase"] == "discard"
    assert v["state"]["pending_discards"] == {"2": 4, "3": 4}
    s4 = start_game("base", 4, 1)
    assert scenario_of(s4).discard_limit(s4, 0) == 9 and scenario_of(start_game("base", 6, 1)).discard_limit(s4, 0) == 7


@pytest.mark.parametrize("desert", [(-2, -1), (0, 1)])
def test_BASE56_038_the_robber_may_go_to_either_desert(client, monkeypatch, desert):
    """BASE56-038: the robber follows BASE-ROBBER on the 30-hex board and either desert is a legal target (the
    robber standing on the other one), listed among the legal actions; a frame hex never is. The extension says
    so itself: a lower rule refusing deserts does not reach a 5-6 game."""
    from service.engine.scenarios.base import Scenario
    assert {h for h, (t, _) in B.DEFAULT_LAND.items() if t == "desert"} == {(-2, -1), (0, 1)}
    monkeypatch.setattr(Scenario, "robber_hex_ok", lambda self, state, h: state.hexes[h].terrain not in
                        ("desert", "frame", "sea"))
    other = (0, 1) if desert == (-2, -1) else (-2, -1)
    st = position(6, phase="robber", robber=list(other))
    st["turn_flags"] = {"rolled": True}
    v = act(client, st, {"type": "move_robber", "player": 0, "hex": list(desert)})
    assert v["legal"], v["violations"]
    listed = client.post("/v1/legal-actions", json={"state": st}).get_json()
    assert list(desert) in [a["hex"] for a in listed["actions"]["move_robber"]]
    frame = list(B.FRAME[0])
    v = act(client, st, {"type": "move_robber", "player": 0, "hex": frame})
    assert not v["legal"]


def test_BASE56_007_one_robber_on_the_board(client):
    """BASE56-007: the extension adds no robber and takes none away: a 5-6 base position without its robber is
    refused naming it (a 4-player position may leave it off the board)."""
    st = position(5, robber=None)
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    assert any(e["pointer"] == "/state/robber" and "BASE56-007" in e["detail"] for e in errors)
    assert client.post("/v1/derive", json={"state": position(5)}).status_code == 200


# -- the board -------------------------------------------------------------------------------------------------

def test_BASE56_008_BASE56_009_BASE56_011_the_default_board_matches_the_table():
    """BASE56-008 terrain 6/6/6/5/5/2; BASE56-009 the 28 tokens (two of 2 and 12, three of the others);
    BASE56-011 harbours 5 x 3:1 and 6 x 2:1 (two wool)."""
    b = B.default_board()
    c = count_components(b["hexes"], b["harbors"])
    assert c["hexes"] == {"desert": 2, "fields": 6, "forest": 6, "hills": 5, "mountains": 5, "pasture": 6}
    assert c["tokens"] == {2: 2, 3: 3, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 3, 12: 2}
    assert c["harbors"] == {"3:1": 5, "brick": 1, "grain": 1, "lumber": 1, "ore": 1, "wool": 2}
    assert all(t.number is None for t in b["hexes"].values() if t.terrain == "desert")


def test_BASE56_010_letters_and_values():
    """BASE56-010: A..Zc with their values."""
    assert dict(zip(B.LETTERS, B.TOKENS))["A"] == 2 and dict(zip(B.LETTERS, B.TOKENS))["Zc"] == 6
    assert len(B.LETTERS) == len(B.TOKENS) == 28
    assert B.TOKENS[:5] == (2, 5, 4, 6, 3) and B.TOKENS[-3:] == (3, 2, 6)


def test_BASE56_012_BASE56_013_BASE56_014_shape_frame_graph():
    """BASE56-013: rows 3-4-5-6-5-4-3 containing the base hexagon; BASE56-012: 22 frame hexes round it;
    BASE56-014: 80 intersections and 109 paths."""
    assert [sum(1 for h in B.LAND if h[1] == r) for r in range(-3, 4)] == [3, 4, 5, 6, 5, 4, 3]
    assert set(hexagon(2)) <= set(B.LAND)
    assert len(B.FRAME) == 22
    b = B.default_board()
    assert sum(1 for t in b["hexes"].values() if t.terrain == "frame") == 22
    g = MapGraph.build({h: t.terrain for h, t in b["hexes"].items()})
    assert sum(1 for i in range(len(g.nodes)) if g.node_land[i]) == 80
    assert sum(1 for i in range(len(g.edges)) if g.road_edge(i)) == 109
    from service.engine.geometry import edge_hexes
    for e in b["harbors"]:                  # each harbour lies between a frame hex and a land hex
        h1, h2 = edge_hexes(e)
        assert {b["hexes"][h1].terrain == "frame", b["hexes"][h2].terrain == "frame"} == {True, False}


def test_BASE56_017_the_spiral_reproduces_the_default_tokens():
    """BASE56-017: the outer 16, the next 10, the centre 4; from corner (2,-3) with the default deserts the
    letters land exactly as on the default map."""
    assert [len(r) for r in B.RINGS] == [16, 10, 4]
    assert set(B.RINGS[2]) == {(0, -1), (-1, 0), (-1, 1), (0, 0)}
    terrain = {h: t for h, (t, _) in B.DEFAULT_LAND.items()}
    assert B.lay_tokens(terrain, (2, -3)) == {h: n for h, (_, n) in B.DEFAULT_LAND.items() if n is not None}


def test_BASE56_016_BASE56_018_every_corner_keeps_reds_apart():
    """BASE56-016: any of the 6 corners starts the spiral, deserts skipped; BASE56-018: no 6 or 8 touch."""
    assert len(B.CORNERS) == 6
    land = list(B.LAND)
    for corner in B.CORNERS:
        for i in range(0, 30, 3):
            for j in range(i + 1, 30, 7):
                terrain = {h: "desert" if h in (land[i], land[j]) else "forest" for h in land}
                tokens = B.lay_tokens(terrain, corner)
                assert len(tokens) == 28 and no_adjacent_reds(tokens)


def test_BASE56_015_BASE56_019_BASE56_020_a_variable_board():
    """BASE56-015: terrain shuffled (counts of BASE56-008); BASE56-016: tokens on the spiral from a corner;
    BASE56-019: the 11 harbour kinds shuffled onto the positions; BASE56-020: the robber on a desert."""
    seen = set()
    for seed in range(6):
        b = B.variable_board(Rng(seed, 0x56))
        terrain = {h: t.terrain for h, t in b["hexes"].items() if t.terrain != "frame"}
        assert sorted(terrain.values()) == sorted(B.TERRAINS)
        tokens = {h: t.number for h, t in b["hexes"].items() if t.number is not None}
        assert any(B.lay_tokens(terrain, c) == tokens for c in B.CORNERS)
        assert sorted(b["harbors"].values()) == sorted(B.HARBORS)
        assert set(b["harbors"]) == {e for e, _ in B.DEFAULT_HARBORS}
        assert terrain[b["robber"]] == "desert"
        seen.add(tuple(sorted(terrain.items())))
    assert len(seen) > 1
    s = start_game("base", 5, 9, {"five_six_board": "variable"})
    assert s.hexes != B.default_board()["hexes"] and s.hexes[s.robber].terrain == "desert"


def test_BASE56_020_BASE56_021_the_default_map():
    """BASE56-021: the default 5-6 map is the digest's; no intersection touches two harbours; BASE56-020
    (U-9): the robber starts on (-2, -1)."""
    s = start_game("base", 6, 123)
    b = B.default_board()
    assert s.hexes == b["hexes"] and s.harbors == b["harbors"] and s.robber == (-2, -1)
    for edges in (list(b["harbors"]), list(B.ALTERNATE_HARBOR_EDGES)):
        nodes = [n for e in edges for n in edge_nodes(e)]
        assert len(nodes) == len(set(nodes)) == 22


def test_BASE56_022_a_posted_board_is_checked_on_request_only(client):
    """BASE56-022 (R-001): a posted 5-6 board off the component table is refereed as posted, with a
    warning citing BASE56-022; the alternating harbour positions are as valid as the default ones."""
    st = position(5, hands={0: rich()})
    st["board"]["hexes"][0]["terrain"] = "fields" if st["board"]["hexes"][0]["terrain"] != "fields" else "forest"
    v = act(client, st, {"type": "build_road", "player": 0, "edge": list(edge_away(SEATS[0][0], [SEATS[0][1]]))})
    assert v["legal"]
    assert [w["rule"] for w in v["warnings"] if w["code"] == "component-count"] == ["BASE56-022"]
    alt = position(5)
    kinds = [k for _, k in B.DEFAULT_HARBORS]
    alt["board"] = board_json(harbors=list(zip(B.ALTERNATE_HARBOR_EDGES, kinds)))
    s = start_game("base", 5, 1)
    s.harbors = dict(zip(B.ALTERNATE_HARBOR_EDGES, kinds))
    assert check_components(scenario_of(s), 5, s) == []
    r = client.post("/v1/adjudicate", json={"state": alt, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 200 and not [w for w in r.get_json()["warnings"] if w["code"] == "component-count"]


# -- set-up and the first turn ---------------------------------------------------------------------------------

def test_BASE56_023_BASE56_024_snake_order_and_no_phase_in_set_up():
    """BASE56-023: set-up goes 0..4 then 4..0 with 5 players; BASE56-024: no Special Building Phase in set-up:
    the first regular turn's roll follows it."""
    from service.engine.legal import legal_actions
    from service.engine.referee import adjudicate
    s = start_game("base", 5, 3)
    scen, g = scenario_of(s), MapGraph.build(s.terrain_map())
    order = []
    while s.phase == "setup":
        a = legal_actions(s, g, scen).actions
        t = "build_settlement" if "build_settlement" in a else "build_road"
        if t == "build_settlement":
            order.append(s.current_player)
        s = adjudicate(s, a[t][0], g, scen).state
    assert order == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]
    assert s.phase == "roll" and s.current_player == 0 and "special_build" not in s.scenario_state


# -- the Special Building Phase ------------------------------------------------------------------------------

def test_BASE56_026_BASE56_033_a_phase_follows_every_turn(client):
    """BASE56-026: end_turn opens the Special Building Phase even when the player built nothing; BASE56-033:
    phase special_build, the first slot's seat as current_player, the ended player recorded."""
    v = act(client, position(5, current=2), {"type": "end_turn", "player": 2})
    st = v["state"]
    assert st["phase"] == "special_build" and st["current_player"] == 3
    assert st["scenario_state"]["special_build"] == {"ended": 2}
    assert [e for e in v["events"] if e["type"] == "special_build"] == [
        {"type": "special_build", "player": 3, "ended": 2, "remaining": [4, 0, 1]}]
    assert v["derived"]["special_build"] == {"ended": 2, "slot": 3, "remaining": [4, 0, 1], "next_turn": 3}


def test_BASE56_028_slots_go_clockwise_then_the_next_turn(client):
    """BASE56-028: one slot per other player, clockwise from the ended player's left; after the last slot the
    left neighbour takes the regular turn. Another seat acting out of turn is refused citing BASE56-028."""
    st = sbp(6, ended=4)
    seen = []
    for _ in range(5):
        seen.append(st["current_player"])
        wrong = (st["current_player"] + 1) % 6
        if wrong != 4:
            v = act(client, st, {"type": "end_turn", "player": wrong})
            assert rules(v) == ["BASE56-028"] and v["violations"][0]["path"] == "/action/player"
        st = then(act(client, st, {"type": "end_turn", "player": st["current_player"]}))
    assert seen == [5, 0, 1, 2, 3]
    assert st["phase"] == "roll" and st["current_player"] == 5 and "special_build" not in (st.get("scenario_state") or {})


def test_BASE56_027_the_ended_player_may_not_build(client):
    """BASE56-027: the player whose turn just ended takes no part."""
    st = sbp(5, ended=0, hands={0: rich()})
    v = act(client, st, {"type": "build_road", "player": 0, "edge": list(edge_away(SEATS[0][0], [SEATS[0][1]]))})
    assert rules(v) == ["BASE56-027"]
    v = act(client, st, {"type": "buy_development_card", "player": 0})
    assert rules(v) == ["BASE56-027"]


def test_BASE56_029_a_slot_builds_and_buys_as_much_as_it_pays_for(client):
    """BASE56-029: roads, settlements, cities and development cards, several, at the usual costs."""
    node, road = SEATS[1]
    far = other_end(road, node)
    road2 = edge_away(far, [road])
    st = sbp(5, ended=0, hands={1: rich()})
    st = then(act(client, st, {"type": "build_road", "player": 1, "edge": list(road2)}))
    st = then(act(client, st, {"type": "build_city", "player": 1, "node": list(node)}))
    st = then(act(client, st, {"type": "build_settlement", "player": 1, "node": list(other_end(road2, far))}))
    v = act(client, st, {"type": "buy_development_card", "player": 1, "card": "knight"})
    assert v["legal"] and v["state"]["players"][1]["dev_cards_new"]["knight"] == 1
    poor = sbp(5, ended=0)
    v = act(client, poor, {"type": "build_road", "player": 1, "edge": list(road2)})
    assert rules(v) == ["BASE-COST-1"]


@pytest.mark.parametrize("action", [
    {"type": "maritime_trade", "give": {"lumber": 4}, "get": {"ore": 1}},
    {"type": "domestic_trade", "partner": 2, "give": {"lumber": 1}, "get": {"ore": 1}, "accepted": True},
])
def test_BASE56_030_no_trade_in_the_phase(client, action):
    """BASE56-030 (U-2): no trade of any kind in the Special Building Phase."""
    st = sbp(5, ended=0, hands={1: rich(), 2: rich()})
    v = act(client, st, {**action, "player": 1})
    assert rules(v) == ["BASE56-030"]


def test_BASE56_031_no_card_played_in_the_phase(client):
    """BASE56-031: no development card played in the Special Building Phase (not even one held from before)."""
    st = sbp(5, ended=0, hands={1: rich()})
    st["players"][1]["dev_cards"] = {"knight": 0, "road_building": 0, "year_of_plenty": 1, "monopoly": 1,
                                     "victory_point": 0}
    v = act(client, st, {"type": "play_year_of_plenty", "player": 1, "resources": {"ore": 2}})
    assert rules(v) == ["BASE56-031"]
    v = act(client, st, {"type": "play_monopoly", "player": 1, "resource": "ore"})
    assert rules(v) == ["BASE56-031"]


def test_BASE56_032_no_dice_no_robber_in_the_phase(client):
    """BASE56-032: no roll, no robber move in the Special Building Phase."""
    st = sbp(5, ended=0)
    assert rules(act(client, st, {"type": "roll", "player": 1})) == ["BASE56-032"]
    assert rules(act(client, st, {"type": "move_robber", "player": 1, "hex": [0, 0]})) == ["BASE56-032"]


def test_BASE56_033_an_inconsistent_phase_record_is_a_422(client):
    """BASE56-033: the phase and its record agree: a slot for the ended player, or a phase with no record, is
    refused as a position that cannot exist."""
    st = sbp(5, ended=0)
    st["current_player"] = 0
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and any(e["pointer"] == "/state/current_player" for e in r.get_json()["errors"])
    st = position(5, phase="special_build", current=1)
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422
    st = position(4, phase="special_build", current=1, scenario_state={"special_build": {"ended": 0}})
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] in ("/state/phase", "/state/scenario_state/special_build")


def test_BASE56_034_a_card_bought_in_the_phase_is_played_next_turn(client):
    """BASE56-034: player 1 buys a Knight in their slot right after player 0's turn, and plays it at the start
    of their own turn, which follows the phase at once."""
    st = sbp(5, ended=0, hands={1: rich()})
    st = then(act(client, st, {"type": "buy_development_card", "player": 1, "card": "knight"}))
    v = act(client, st, {"type": "play_knight", "player": 1, "hex": [0, 0]})
    assert rules(v) == ["BASE56-031"]                     # not in the phase itself
    for p in (1, 2, 3, 4):
        st = then(act(client, st, {"type": "end_turn", "player": p}))
    assert st["phase"] == "roll" and st["current_player"] == 1
    v = act(client, st, {"type": "play_knight", "player": 1, "hex": [0, 0]})
    assert v["legal"], v["violations"]


def _ten_points(st, p, vp_cards=0):
    """Give player ``p`` cities and VP cards for 10 VP (their seat's settlement becomes a city)."""
    node = list(SEATS[p][0])
    st["pieces"]["settlements"] = [x for x in st["pieces"]["settlements"] if x["node"] != node]
    st["pieces"]["cities"].append({"player": p, "node": node})
    st["players"][p]["dev_cards"] = {"knight": 0, "road_building": 0, "year_of_plenty": 0, "monopoly": 0,
                                     "victory_point": vp_cards}
    return st


def test_BASE56_035_a_player_at_ten_waits_for_their_own_turn(client):
    """BASE56-035: player 3 reaches 10 VP in their slot after player 0's turn (a bought VP card): no win in the
    phase; player 1 then plays a whole turn; player 3 is not the winner until their own turn begins."""
    st = _ten_points(sbp(5, ended=0, slot=3, hands={3: rich()}), 3, vp_cards=4)   # a city and 4 cards: 6
    st["pieces"]["cities"].append({"player": 3, "node": [-3, 2, "S"]})             # + 2
    st["pieces"]["settlements"].append({"player": 3, "node": [-1, 2, "S"]})        # + 1 = 9
    vp_before = _derived(client, st)["victory_points"]["3"]["total"]
    assert vp_before == 9
    v = act(client, st, {"type": "buy_development_card", "player": 3, "card": "victory_point"})
    assert v["legal"] and v["state"]["winner"] is None and v["state"]["phase"] == "special_build"
    assert v["derived"]["victory_points"]["3"]["total"] == vp_before + 1
    st = v["state"]
    st = then(act(client, st, {"type": "end_turn", "player": 3}))
    st = then(act(client, st, {"type": "end_turn", "player": 4}))
    assert st["phase"] == "roll" and st["current_player"] == 1 and st["winner"] is None
    st = then(act(client, st, {"type": "roll", "player": 1, "dice": [2, 2]}))
    st = then(act(client, st, {"type": "end_turn", "player": 1}))       # player 1's turn: a phase again
    assert st["phase"] == "special_build" and st["winner"] is None
    for p in (2, 3, 4, 0):
        st = then(act(client, st, {"type": "end_turn", "player": p}))
    st = then(act(client, st, {"type": "roll", "player": 2, "dice": [2, 2]}))
    v = act(client, st, {"type": "end_turn", "player": 2})
    assert v["state"]["winner"] is None                                  # still a phase (after player 2's turn)
    st = then(v)
    v = act(client, st, {"type": "end_turn", "player": 3})               # player 3's slot ends: nobody wins
    assert v["state"]["winner"] is None
    st = then(v)
    for p in (4, 0, 1):
        v = act(client, st, {"type": "end_turn", "player": p})
        st = v["state"]
    assert st["phase"] == "game_over" and st["winner"] == 3              # the first moment of player 3's turn
    assert {"type": "winner", "player": 3} in v["events"]


def test_BASE56_035_the_next_player_wins_before_the_roll(client):
    """BASE56-035: the player who takes the next turn wins at its start, before rolling."""
    st = _ten_points(sbp(5, ended=0, slot=4), 1, vp_cards=4)                       # 2 + 4
    st["pieces"]["cities"] += [{"player": 1, "node": [2, -1, "S"]}, {"player": 1, "node": [0, -1, "S"]}]  # + 4
    v = _derived(client, st)
    assert v["victory_points"]["1"]["total"] == 10 and v["winner"] is None
    v = act(client, st, {"type": "end_turn", "player": 4})
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 1 and v["state"]["last_roll"] is None


def test_BASE56_036_longest_road_changes_hands_during_the_phase(client):
    """BASE56-036: player 1's settlement in their slot breaks player 0's road: Longest Road passes at once to
    player 2 (whose 5 roads now are the longest); the 2 VP count, but no win in the phase (BASE56-035)."""
    ring0 = ring_roads((0, 0))                          # player 0: 5 sides of (0, 0), N corner round to NW
    corners = hex_corners((0, 0))
    mid = corners[3]                                    # the S corner, between the third and fourth road
    out1 = edge_away(mid, ring0)
    x = other_end(out1, mid)
    out2 = edge_away(x, [out1])
    s1 = other_end(out2, x)
    ring2 = ring_roads((-2, 3))
    st = sbp(5, ended=0, slot=1, hands={1: rich()},
             settlements=[(0, corners[0]), (1, s1), (2, hex_corners((-2, 3))[0])],
             roads=[(0, e) for e in ring0] + [(1, out2), (1, out1)] + [(2, e) for e in ring2],
             awards={"longest_road": 0})
    d = _derived(client, st)
    assert d["longest_road"]["0"]["length"] == 5 and d["longest_road"]["2"]["length"] == 5
    v = act(client, st, {"type": "build_settlement", "player": 1, "node": list(mid)})
    assert v["legal"], v["violations"]
    assert {"type": "award", "award": "longest_road", "from": 0, "to": 2} in v["events"]
    assert v["state"]["awards"]["longest_road"] == 2 and v["derived"]["longest_road_holder"] == 2
    assert v["derived"]["victory_points"]["2"]["longest_road"] == 2


def test_BASE56_035_BASE56_036_an_award_reaching_ten_in_the_phase_waits(client):
    """BASE56-035/036: a player whose new Longest Road brings them to 10 VP in a slot does not win then."""
    ring1 = ring_roads((0, 0))
    corners = hex_corners((0, 0))
    st = _ten_points(sbp(5, ended=0, slot=1, hands={1: rich()}, settlements=[(1, corners[0])],
                         roads=[(1, e) for e in ring1[:4]]), 1, vp_cards=5)
    d = _derived(client, st)
    assert d["victory_points"]["1"]["total"] == 8
    v = act(client, st, {"type": "build_road", "player": 1, "edge": list(ring1[4])})
    assert v["legal"] and v["state"]["awards"]["longest_road"] == 1
    assert v["derived"]["victory_points"]["1"]["total"] == 10 and v["state"]["winner"] is None


# -- the paired players' turn -----------------------------------------------------------------------------------

def test_BASE56_041_the_default_mode_and_the_option():
    """BASE56-041 (U-1): special_build unless five_six_mode says paired."""
    assert start_game("base", 5, 1).options == {}
    assert start_game("base", 5, 1, {"five_six_mode": "paired"}).options == {"five_six_mode": "paired"}
    with pytest.raises(GameRefused):
        start_game("base", 5, 1, {"five_six_mode": "both"})


@pytest.mark.parametrize("n,first,second", [(6, 0, 3), (6, 4, 1), (5, 0, 3), (5, 3, 1)])
def test_BASE56_042_BASE56_043_p2_is_the_third_to_the_left(client, n, first, second):
    """BASE56-042: P2 is the third player to P1's left; BASE56-043: after P1's action phase comes P2's, then
    both pass one seat on."""
    st = position(n, current=first, mode="paired")
    v = act(client, st, {"type": "end_turn", "player": first})
    assert v["state"]["phase"] == "paired" and v["state"]["current_player"] == second
    assert {"type": "paired_phase", "player": second, "first": first} in v["events"]
    assert v["derived"]["paired"] == {"first": first, "second": second, "acting": second}
    v = act(client, then(v), {"type": "end_turn", "player": second})
    assert v["state"]["phase"] == "roll" and v["state"]["current_player"] == (first + 1) % n


def test_BASE56_043_p2_never_rolls_and_acts_alone(client):
    """BASE56-043: in P2's phase there is no roll, and nobody but P2 acts."""
    st = paired(5, first=0)
    assert rules(act(client, st, {"type": "roll", "player": 3})) == ["BASE56-043"]
    assert rules(act(client, st, {"type": "end_turn", "player": 0})) == ["BASE56-043"]


def test_BASE56_044_p2_builds_and_trades_with_the_bank_not_with_players(client):
    """BASE56-044: P2 builds, buys and trades with the bank; no trade with other players in their phase; in P1's
    phase P2 trades with P1 as anyone does."""
    st = paired(5, first=0, hands={3: rich(), 1: rich()})
    st = then(act(client, st, {"type": "maritime_trade", "player": 3, "give": {"lumber": 4}, "get": {"ore": 1}}))
    st = then(act(client, st, {"type": "buy_development_card", "player": 3, "card": "knight"}))
    v = act(client, st, {"type": "domestic_trade", "player": 3, "partner": 1, "give": {"wool": 1}, "get": {"ore": 1},
                         "accepted": True})
    assert rules(v) == ["BASE56-044"]
    p1 = position(5, current=0, mode="paired", hands={0: rich(), 3: rich()})
    v = act(client, p1, {"type": "domestic_trade", "player": 0, "partner": 3, "give": {"wool": 1}, "get": {"ore": 1},
                         "accepted": True})
    assert v["legal"]


def test_BASE56_045_p2_plays_a_knight_without_discards(client):
    """BASE56-045 (U-5): P2's Knight in their action phase moves the robber (no discards, even over 7 cards);
    before the roll only P1 may play a card."""
    st = paired(5, first=0, hands={1: rich()})
    st["players"][3]["dev_cards"] = {"knight": 1, "road_building": 0, "year_of_plenty": 0, "monopoly": 0,
                                     "victory_point": 0}
    v = act(client, st, {"type": "play_knight", "player": 3, "hex": [0, 0]})
    assert v["legal"] and v["state"]["robber"] == [0, 0] and v["state"]["phase"] == "paired"
    assert not v["state"].get("pending_discards")
    before = position(5, phase="roll", current=0, mode="paired")
    before.pop("turn_flags", None)
    before["players"][3]["dev_cards"] = st["players"][3]["dev_cards"]
    v = act(client, before, {"type": "play_knight", "player": 3, "hex": [0, 0]})
    assert rules(v) == ["BASE56-045"]


def test_BASE56_046_p2_reaching_ten_wins_at_once(client):
    """BASE56-046: the second paired player reaching 10 VP in their action phase wins at once."""
    node, road = SEATS[3]
    far = other_end(road, node)
    e2 = edge_away(far, [road])
    st = _ten_points(paired(5, first=0, hands={3: rich()}, roads=[(3, e2)]), 3, vp_cards=4)
    st["pieces"]["cities"].append({"player": 3, "node": [-3, 2, "S"]})
    st["pieces"]["settlements"].append({"player": 3, "node": [-1, 2, "S"]})
    v = _derived(client, st)
    assert v["victory_points"]["3"]["total"] == 9
    v = act(client, st, {"type": "build_settlement", "player": 3, "node": list(other_end(e2, far))})
    assert v["legal"], v["violations"]
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 3


def test_BASE56_047_one_card_per_phase_and_bought_cards_wait(client):
    """BASE56-047 (U-6): P2's action phase is one of their turns: one card in it, and a card bought in it is
    playable in their next own phase, not in this one."""
    st = paired(5, first=0, hands={3: rich()})
    st["players"][3]["dev_cards"] = {"knight": 0, "road_building": 0, "year_of_plenty": 2, "monopoly": 0,
                                     "victory_point": 0}
    st = then(act(client, st, {"type": "play_year_of_plenty", "player": 3, "resources": {"ore": 2}}))
    v = act(client, st, {"type": "play_year_of_plenty", "player": 3, "resources": {"ore": 2}})
    assert rules(v) == ["BASE-DEV-2"]
    st = then(act(client, st, {"type": "buy_development_card", "player": 3, "card": "monopoly"}))
    assert rules(act(client, st, {"type": "play_monopoly", "player": 3, "resource": "ore"})) in (["BASE-DEV-2"],
                                                                                                ["BASE-DEV-4"])
    st = then(act(client, st, {"type": "end_turn", "player": 3}))
    assert st["players"][3]["dev_cards"]["monopoly"] == 1 and st["players"][3]["dev_cards_new"]["monopoly"] == 0


# -- Seafarers with 5-6 players -----------------------------------------------------------------------------

def _sea(n=5, **kw):
    return position(n, scenario="seafarers", frame_terrain="sea", **kw)


def _sea_sbp(n=5, ended=0, **kw):
    return position(n, scenario="seafarers", frame_terrain="sea", phase="special_build", current=(ended + 1) % n,
                    scenario_state={"special_build": {"ended": ended}}, **kw)


def test_BASE56_051_fifteen_ships_each(client):
    """BASE56-051 (U-8): each of 5 or 6 Seafarers players has 15 ships."""
    st = _sea(6)
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 200
    s = start_game("base", 5, 1)
    from service.engine.scenarios import with_expansions
    scen = with_expansions(get_scenario("seafarers"), None, 6)
    assert scen.supply["ships"] == 15 and "five_six" in scen.composition.modules
    st["players"][5]["supply"] = {"settlements": 4, "cities": 4, "roads": 14, "ships": 14}
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and "/state/players/5/supply/ships" in str(r.get_json())
    assert s.players[0].supply["ships"] == 0


def _coast_edge(node, avoid=()):
    """A sea-facing edge at ``node`` on the default board with a sea frame (a ship site), not a seat's road."""
    land = set(B.LAND)
    from service.engine.geometry import edge_hexes
    for e in node_edges(node):
        if e in avoid or e in [r for _, r in SEATS]:
            continue
        a, b = edge_hexes(e)
        if (a in land) != (b in land):
            return e
    return None


def test_BASE56_052_ships_are_built_not_moved_in_the_phase(client):
    """BASE56-052 (U-4): a ship is built in a slot; moving one is refused."""
    node = (-3, 3, "S")                                 # player 4's coastal settlement (SEATS)
    ship = _coast_edge(node)
    assert ship is not None
    st = _sea_sbp(5, ended=0, hands={4: rich()})
    st["current_player"] = 4
    v = act(client, st, {"type": "build_ship", "player": 4, "edge": list(ship)})
    assert v["legal"], v["violations"]
    other = next(e for e in node_edges(node) if e != ship and e != SEATS[4][1])
    st2 = _sea_sbp(5, ended=0, ships=[(4, ship)])
    st2["current_player"] = 4
    v = act(client, st2, {"type": "move_ship", "player": 4, "from": list(ship), "to": list(other)})
    assert rules(v) == ["BASE56-052"]


def test_BASE56_053_p2_moves_a_ship(client):
    """BASE56-053 (U-5): in the paired turn P2 may move one ship in their action phase."""
    node = (-3, 3, "S")
    ship = _coast_edge(node)
    st = position(5, scenario="seafarers", frame_terrain="sea", phase="paired", current=4, mode="paired",
                  scenario_state={"paired": {"first": 1}}, ships=[(4, ship)])
    d = client.post("/v1/legal-actions", json={"state": st, "player": 4}).get_json()
    assert "actions" in d, d
    moves = d["actions"].get("move_ship", [])
    assert moves and d["players_to_act"] == [4]
    v = act(client, st, moves[0])
    assert v["legal"] and v["state"]["turn_flags"]["ship_moved"] is True


def test_BASE56_050_BASE56_054_shipped_scenarios_stay_three_or_four(client):
    """BASE56-050: the scenarios whose maps we ship are for 3-4 players (a new game and a posted state of 5 are
    refused, naming the rule); BASE56-054: a 5-6 Seafarers game is a posted board under the general rules."""
    r = client.post("/v1/games", json={"scenario": "SC01", "players": 5, "seed": 1})
    assert r.status_code == 422 and "BASE56-050" in r.get_json()["errors"][0]["detail"]
    assert "BASE56-054" in r.get_json()["errors"][0]["detail"]
    st = _sea(5)
    st["scenario"] = "SC01"
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/players"
    assert client.post("/v1/derive", json={"state": _sea(5)}).status_code == 200


def test_BASE56_025_combined_trade_and_build_phase(client):
    """BASE56-025 (U-3): in 5-6 games trade and build alternate freely; the strict-phases variant is refused."""
    st = position(5, hands={0: rich()})
    st = then(act(client, st, {"type": "build_road", "player": 0, "edge": list(edge_away(SEATS[0][0], [SEATS[0][1]]))}))
    assert act(client, st, {"type": "maritime_trade", "player": 0, "give": {"lumber": 4}, "get": {"ore": 1}})["legal"]
    st = position(5)
    st["options"] = {"BASE-VAR-STRICT-PHASES": True}
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422 and "BASE56-025" in str(r.get_json())


def test_BASE56_055_the_api_names():
    """BASE56-055: the phase is ``special_build``, the modes ``special_build`` and ``paired`` (the contract
    lists both phases)."""
    import yaml
    from pathlib import Path
    doc = yaml.safe_load((Path(__file__).resolve().parents[1] / "openapi.yaml").read_text(encoding="utf-8"))
    assert {"special_build", "paired"} <= set(doc["components"]["schemas"]["State"]["properties"]["phase"]["enum"])
    assert start_game("base", 5, 1, {"five_six_mode": "paired"}).options["five_six_mode"] == "paired"


def test_BASE56_022_the_check_endpoint_uses_the_five_six_table(client):
    """BASE56-022: ``POST /v1/scenarios/base/check`` of a 5-player board checks it against the 5-6 table."""
    r = client.post("/v1/scenarios/base/check", json={"state": position(5)})
    check_response("/v1/scenarios/{id}/check", "post", r)
    assert r.get_json()["matches"] is True
    st = position(5)
    st["board"]["hexes"] = [h for h in st["board"]["hexes"] if (h["q"], h["r"]) != (1, -3)] + [
        {"q": 1, "r": -3, "terrain": "forest", "number": 5}]
    r = client.post("/v1/scenarios/base/check", json={"state": st})
    assert r.get_json()["matches"] is False and {p["rule"] for p in r.get_json()["problems"]} == {"BASE56-022"}


def _bad(kind):
    st = sbp(5) if kind.startswith("sbp") else paired(5) if kind.startswith("paired") else position(6)
    if kind == "sbp-ended-out-of-range":
        st["scenario_state"]["special_build"]["ended"] = 5
    elif kind == "sbp-ended-not-int":
        st["scenario_state"]["special_build"]["ended"] = "x"
    elif kind == "sbp-in-paired-mode":
        st["options"] = {"five_six_mode": "paired"}
    elif kind == "paired-wrong-p2":
        st["scenario_state"]["paired"]["first"] = 4
    elif kind == "paired-no-record":
        st["scenario_state"] = {}
    elif kind == "seven-players":
        st["players"].append(dict(st["players"][0]))
    elif kind == "mode-not-a-mode":
        st["options"] = {"five_six_mode": 3}
    return st


@pytest.mark.parametrize("kind", ["sbp-ended-out-of-range", "sbp-ended-not-int", "sbp-in-paired-mode",
                                  "paired-wrong-p2", "paired-no-record", "seven-players", "mode-not-a-mode"])
@pytest.mark.parametrize("endpoint", ["/v1/derive", "/v1/legal-actions", "/v1/adjudicate"])
def test_BASE56_033_a_position_that_cannot_exist_is_a_422(client, kind, endpoint):
    """BASE56-033/-042/-041: a 5-6 record that cannot exist is a 422 naming the field, never a 500."""
    body = {"state": _bad(kind)}
    if endpoint == "/v1/adjudicate":
        body["action"] = {"type": "end_turn", "player": 1}
    r = client.post(endpoint, json=body)
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"].startswith("/state")
