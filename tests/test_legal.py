"""POST /v1/legal-actions and the generator behind it (service/engine/legal.py)."""
from __future__ import annotations

import time

from service.api.codec import dump_state
from service.engine.legal import legal_actions, range_admits
from service.engine.core import Action
from service.engine.mapgraph import MapGraph
from service.engine.scenarios import get_scenario

from .helpers import hand, hexes, radius_board, state
from .spec_util import check_response


def post(client, st, player=None):
    body = {"state": st} if player is None else {"state": st, "player": player}
    r = client.post("/v1/legal-actions", json=body)
    check_response("/v1/legal-actions", "post", r)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_new_game_offers_every_free_intersection_for_the_first_settlement(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    out = post(client, st)
    assert out["player"] == 0 and list(out["actions"]) == ["build_settlement"]
    assert out["count"] == 54 and out["ranges"] == {}                    # every corner of the 19 tiles
    a = out["actions"]["build_settlement"][0]
    v = client.post("/v1/adjudicate", json={"state": st, "action": a}).get_json()
    assert v["legal"]


def test_roads_extend_only_the_players_network_and_trades_follow_the_harbours(client):
    """BASE-BUILD-4: roads touch the network; BASE-TRADE-6: 4:1 with no harbour."""
    st = state(radius_board(), hands={0: hand(lumber=1, brick=5)}, settlements=[(0, [0, 0, "N"])],
               roads=[(0, [0, -1, "SE"])], turn_flags={"rolled": True})
    out = post(client, st)
    edges = {tuple(a["edge"]) for a in out["actions"]["build_road"]}
    assert edges and all(a["player"] == 0 for a in out["actions"]["build_road"])
    assert (0, 0, "NE") in edges and (2, 0, "E") not in edges
    trades = out["actions"]["maritime_trade"]
    assert {"type": "maritime_trade", "player": 0, "give": {"brick": 4}, "get": {"ore": 1}} in trades
    assert out["actions"]["end_turn"] == [{"type": "end_turn", "player": 0}]
    assert "domestic_trade" not in out["ranges"]                         # nobody else holds a card


def test_robber_targets_name_each_hex_and_each_victim(client):
    """BASE-ROBBER-3/4: any other land hex; a victim only where they have a building on a corner."""
    st = state(radius_board(1), phase="robber", hands={1: hand(ore=1)}, settlements=[(1, [0, 0, "N"])],
               robber=[1, 0])
    out = post(client, st)
    moves = out["actions"]["move_robber"]
    at_00 = [m for m in moves if m["hex"] == [0, 0]]
    assert at_00 == [{"type": "move_robber", "player": 0, "hex": [0, 0], "steal_from": 1}]
    assert not any(m["hex"] == [1, 0] for m in moves)                 # it must move
    assert all("steal_from" not in m for m in moves if m["hex"] == [-1, 1])


def test_discards_are_a_range_for_each_player_who_owes_them(client):
    """BASE-ROBBER-2: described as a range (too many to list), with a checked example."""
    st = state(radius_board(1), phase="discard", hands={1: hand(ore=5, wool=4), 2: hand(grain=8)},
               pending_discards={"1": 4, "2": 4}, robber=[0, 0])
    out = post(client, st)
    assert out["players_to_act"] == [1, 2] and out["player"] == 1
    (spec,) = out["ranges"]["discard"]
    assert spec["resources"]["total"] == 4 and spec["resources"]["at_most"]["ore"] == 4
    assert client.post("/v1/adjudicate", json={"state": st, "action": spec["example"]}).get_json()["legal"]
    out2 = post(client, st, player=2)
    assert out2["ranges"]["discard"][0]["resources"]["at_most"]["grain"] == 4
    assert post(client, st, player=0)["count"] == 0


def test_ships_list_each_movable_ship_with_its_destinations():
    """SEA-015/R-010: only the foremost ship of an open lane moves, to an edge touching the network."""
    scen = get_scenario("seafarers")
    board = hexes({(0, 0): ("forest", 6), (1, 0): "sea", (0, 1): "sea", (1, -1): "sea", (2, -1): "sea",
                   (2, 0): "sea", (1, 1): "sea", (-1, 1): "frame", (-1, 0): "frame", (0, -1): "frame",
                   (1, -2): "frame", (2, -2): "frame", (3, -2): "frame", (3, -1): "frame", (3, 0): "frame",
                   (2, 1): "frame", (1, 2): "frame", (0, 2): "frame"})
    from service.api.codec import build_state
    from service.api.schemas import StateSchema
    st = state(board, scenario="seafarers", settlements=[(0, [0, 0, "N"])],
               ships=[(0, [0, 0, "NE"]), (0, [1, -1, "SE"])], turn_flags={"rolled": True})
    s, _ = build_state(StateSchema().load(st))
    g = MapGraph.build(s.terrain_map())
    la = legal_actions(s, g, scen)
    moves = la.actions["move_ship"]
    assert {m.get("from") for m in moves} == {(1, -1, "SE")}             # the foremost one only
    assert all(m.get("to") != (1, -1, "SE") for m in moves) and len(moves) >= 2


def test_domestic_trade_ranges_admit_exactly_the_legal_shapes():
    spec = {"partner": 1, "accepted": True, "give": {"at_least": 1, "at_most": {"ore": 2}},
            "get": {"at_least": 1, "at_most": {"wool": 1, "ore": 1}}}
    ok = Action("domestic_trade", 0, {"partner": 1, "give": {"ore": 2}, "get": {"wool": 1}, "accepted": True})
    same = Action("domestic_trade", 0, {"partner": 1, "give": {"ore": 1}, "get": {"ore": 1}, "accepted": True})
    gift = Action("domestic_trade", 0, {"partner": 1, "give": {"ore": 1}, "get": {}, "accepted": True})
    assert range_admits("domestic_trade", spec, ok)
    assert not range_admits("domestic_trade", spec, same) and not range_admits("domestic_trade", spec, gift)


def test_listing_a_mid_game_position_is_fast():
    """Figures: a listing of a mid-game base position takes a few milliseconds."""
    from bench.positions import base_midgame
    s, g, scen = base_midgame()
    s.phase, s.flags.rolled = "main", True
    for p in s.players:
        p.resources.update(lumber=3, brick=3, wool=3, grain=3, ore=3)
    start = time.perf_counter()
    la = legal_actions(s, g, scen)
    took = time.perf_counter() - start
    assert la.count > 10 and took < 1.0


def test_an_unknown_player_is_a_422(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    r = client.post("/v1/legal-actions", json={"state": st, "player": 3})
    assert r.status_code == 422
    check_response("/v1/legal-actions", "post", r)
    r = client.post("/v1/legal-actions", json={"state": st, "who": 1})
    assert r.status_code == 422


def test_explain_gives_the_reasoning_of_every_derived_value(client):
    st = state(radius_board(), settlements=[(0, [0, 0, "N"])], cities=[(1, [2, 0, "N"])],
               roads=[(0, [0, -1, "SE"]), (0, [0, -1, "E"])], turn_flags={"rolled": True})
    r = client.post("/v1/adjudicate?explain=true", json={"state": st})
    check_response("/v1/adjudicate", "post", r)
    ex = r.get_json()["explanations"]
    assert ex["victory_points"]["1"]["sources"][0] == {"source": "city", "node": [2, 0, "N"], "points": 2,
                                                       "why": "a city on 2,0,N is worth 2 (BASE-VP-1..3 table)"}
    assert ex["routes"]["0"]["length"] == 2 and "witness" in ex["routes"]["0"]["why"]
    assert "short of the 5" in ex["longest_road"]["why"] and "BASE-LA-1" in ex["largest_army"]["why"]
    assert "no winner" in ex["winner"]["why"]
    assert "explanations" not in client.post("/v1/adjudicate", json={"state": st}).get_json()


def test_derive_explains_too_and_agrees_with_adjudicate(client):
    st = state(radius_board(), settlements=[(0, [0, 0, "N"])], cities=[(1, [2, 0, "N"])],
               roads=[(0, [0, -1, "SE"]), (0, [0, -1, "E"])], turn_flags={"rolled": True})
    r = client.post("/v1/derive?explain=true", json={"state": st})
    check_response("/v1/derive", "post", r)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    judged = client.post("/v1/adjudicate?explain=true", json={"state": st}).get_json()
    assert body["explanations"] == judged["explanations"] and body["derived"] == judged["derived"]
    assert body["explanations"]["victory_points"]["1"]["sources"][0]["source"] == "city"
    plain = client.post("/v1/derive", json={"state": st}).get_json()
    assert "explanations" not in plain and plain["derived"] == body["derived"]
    assert "explanations" not in client.post("/v1/derive?explain=false", json={"state": st}).get_json()
    assert client.post("/v1/derive?explain=maybe", json={"state": st}).status_code == 400
    assert dump_state  # the canonical form is what explanations describe


def test_gold_lists_sailing_loading_ship_sites_prices_and_gold_trades(client):
    """GOLD: each space a ship reaches (one shortest path, per extension choice), each loadable amount,
    the ship sites at front-coast homes, both development-card prices, and bank trades as ranges."""
    from .test_gold_rules import DOCK, TO_GOLD, full, harbour_position, ship
    rich = full(lumber=2, brick=2, wool=2, grain=2, ore=2)
    from .test_gold_rules import HOME
    st = harbour_position(ships=[ship(edge=TO_GOLD[2], cargo=2)], hands={0: rich},
                          settlements=[(1, [4, 3, "S"])], cities=[(0, HOME)])      # a city homes 2 ships
    out = post(client, st)
    sails = out["actions"]["sail_ship"]
    by_ext = {}
    for a in sails:
        by_ext.setdefault(a.get("extend"), []).append(a)
    assert set(by_ext) == {None, "wool", "cargo"}
    plain = {tuple(a["path"][-1]): a["path"] for a in by_ext[None]}
    assert len(plain) == len(by_ext[None]) and all(1 <= len(p) <= 2 for p in plain.values())
    assert tuple(TO_GOLD[1]) in plain and plain[tuple(TO_GOLD[2])] == [TO_GOLD[1], TO_GOLD[2]]   # out and back
    extended = {tuple(a["path"][-1]) for a in by_ext["wool"]}
    assert tuple(DOCK) in extended and tuple(DOCK) not in plain and set(plain) < extended
    loads = sorted((a.get("amount") or 0) for a in out["actions"]["load_gold"])
    assert loads == [0, 1, 2]                       # the default (fill the hold) and 1 or 2 more
    assert "unload_gold" not in out["actions"]       # not docked at home
    assert DOCK in [a["edge"] for a in out["actions"]["build_ship"]]
    prices = {a.get("price") for a in out["actions"]["buy_development_card"]}
    assert prices == {None, "grain", "gold"}
    dirs = {spec["direction"]: spec for spec in out["ranges"]["gold_trade"]}
    assert dirs["buy"]["get"]["total_at_most"] == 4 and dirs["sell"]["give"]["total_at_most"] == 9
    trade = out["ranges"]["domestic_trade"][0]
    assert trade["give"]["at_most"]["gold"] == 8
    for t, acts in out["actions"].items():
        for a in acts[:40]:
            assert client.post("/v1/adjudicate", json={"state": st, "action": a}).get_json()["legal"], a
    for spec in out["ranges"]["gold_trade"]:
        assert client.post("/v1/adjudicate", json={"state": st, "action": spec["example"]}).get_json()["legal"]


def test_gold_road_building_lists_ships_at_home_too(client):
    """GOLD-019: Road Building places roads or mobile ships (a ship at a front-coast home, GOLD-021)."""
    from .test_gold_rules import HOME, harbour_position
    st = harbour_position(settlements=[(1, [4, 3, "S"])], cities=[(0, HOME)])
    st["players"][0]["dev_cards"] = {"road_building": 1}
    out = post(client, st)
    kinds = {tuple(p["kind"] for p in a["pieces"]) for a in out["actions"]["play_road_building"]}
    assert kinds == {("road", "road"), ("road", "ship"), ("ship", "road"), ("ship", "ship")}
    for a in out["actions"]["play_road_building"][::7]:
        assert client.post("/v1/adjudicate", json={"state": st, "action": a}).get_json()["legal"], a
    before_roll = harbour_position(settlements=[(1, [4, 3, "S"])], cities=[(0, HOME)], phase="roll")
    before_roll["players"][0]["dev_cards"] = {"road_building": 1}
    out = post(client, before_roll)                  # a development card may be played before the roll
    kinds = {tuple(p["kind"] for p in a["pieces"]) for a in out["actions"]["play_road_building"]}
    assert ("ship", "ship") in kinds and "build_ship" not in out["actions"]


def test_rates_and_trade_ranges_follow_a_position_changed_in_place_BASE_TRADE_10():
    """BASE-TRADE-10: a harbour serves from the moment its settlement stands. Harbour rates and the
    domestic-trade ranges are kept per position (``memo.per_position``); changing the same state object
    in place makes a new position, read again."""
    from bench.positions import base_midgame
    from service.engine.actions.trade import harbor_rates
    s, g, scen = base_midgame()
    s.phase, s.flags.rolled = "main", True
    p = s.current_player
    s.players[p].resources.update(lumber=0, brick=0, wool=4, grain=0, ore=0)
    before = dict(harbor_rates(s, g, p))
    edge, kind = next((e, k) for e, k in sorted(s.harbors.items())
                      if (k == "3:1" and max(before.values()) == 4) or before.get(k) == 4)
    first = legal_actions(s, g, scen).ranges["domestic_trade"]
    node = g.nodes[g.edge_node_ids[g.edge_index[edge]][0]]
    s.buildings[node] = (p, "settlement")                              # in place: the same object
    after = harbor_rates(s, g, p)
    assert after != before and (after[kind] == 2 if kind != "3:1" else max(after.values()) == 3)
    wool = {a.params["give"]["wool"] for a in legal_actions(s, g, scen).actions["maritime_trade"]}
    assert wool == {after["wool"] * m for m in range(1, 4 // after["wool"] + 1)}
    q = first[0]["partner"]
    s.players[q].resources.update(lumber=7)
    ranges = {r["partner"]: r for r in legal_actions(s, g, scen).ranges["domestic_trade"]}
    assert ranges[q]["get"]["at_most"]["lumber"] == 7
