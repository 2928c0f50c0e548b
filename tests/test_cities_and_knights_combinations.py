"""Cities & Knights with Seafarers and with the scenarios' own C&K rules: ships and the Longest Trade
Route (CK-SEA-2), no Harbormaster (CK-SEA-13), Treasures, Dragons & Explorers 1-4 with C&K
(TDE1-016/017, TDE2-022..024, TDE3-016, TDE4-001)."""
from __future__ import annotations

from service.engine.geometry import edge_nodes

from .ck_util import act, board, ck, ckof, hand, position, post, rules, with_commodities


def sea_position(**kw):
    return position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers", **kw)


def test_ships_cost_lumber_and_wool(client):
    """CK-SEA-2: a ship is built as in Seafarers, 1 lumber + 1 wool; commodities never pay for it."""
    st = sea_position(roads=(), cities=((0, (1, 0, "N")), (1, (0, 0, "S"))), hands={0: hand(lumber=1, wool=1)})
    v = post(client, st, act("build_ship", edge=[1, 0, "NE"]))
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["resources"]["lumber"] == 0 and v["state"]["players"][0]["resources"]["wool"] == 0
    poor = sea_position(roads=(), cities=((0, (1, 0, "N")), (1, (0, 0, "S"))), hands={0: hand(lumber=1)},
                        ck_state=with_commodities(ck(), 0, cloth=2, paper=2))
    r = post(client, poor, act("build_ship", edge=[1, 0, "NE"]))
    assert not r["legal"]


def test_ships_count_for_the_longest_trade_route(client):
    """CK-SEA-2: ships and roads together make the Longest Trade Route, 2 VP, in place of Longest Road."""
    # around the coastal hex (1, 0): three ships from the city at its north corner, a settlement at its
    # south corner joining them to two roads (five pieces)
    st = sea_position(cities=((0, (1, 0, "N")), (1, (-1, 1, "N"))), settlements=((0, (1, 0, "S")),),
                      roads=((0, (0, 1, "NE")),), hands={0: hand(lumber=1, brick=1)})
    st["pieces"]["ships"] = [{"player": 0, "edge": e} for e in ([1, 0, "NE"], [1, 0, "E"], [1, 0, "SE"])]
    v = post(client, st, act("build_road", edge=[0, 0, "E"]))
    assert v["legal"], v["violations"]
    d = v["derived"]
    assert d["longest_road"]["0"]["length"] == 5 and d["longest_road_holder"] == 0
    assert d["victory_points"]["0"]["longest_road"] == 2
    # without the ships, two roads are no route worth an award
    st["pieces"]["ships"] = []
    d = post(client, st, act("build_road", edge=[0, 0, "E"]))["derived"]
    assert d["longest_road"]["0"]["length"] == 2 and d["longest_road_holder"] is None


def test_harbormaster_is_refused(client):
    """CK-SEA-13: the Harbormaster is not part of the combination; a game asking for it is refused (422
    naming the option and the rule), asking it off is accepted."""
    r = client.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 1,
                                       "options": {"cities_and_knights": True, "harbormaster": True}})
    assert r.status_code == 422
    err = r.get_json()["errors"]
    assert err[0]["pointer"] == "/options/harbormaster" and "CK-SEA-13" in err[0]["detail"]
    ok = client.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 1,
                                        "options": {"cities_and_knights": True, "harbormaster": False}})
    assert ok.status_code == 201


def test_variants_are_options_off_by_default(client):
    """CK-VAR: the variants are game options, off unless a game switches them on; they exist only with
    Cities & Knights (CK-VAR-MEANIES, and the Deserter's and the metropolis flags)."""
    from service.engine.scenarios import get_scenario, with_expansions
    opts = with_expansions(get_scenario("base"), {"cities_and_knights": True}).all_options()
    assert {"CK-VAR-MEANIES", "deserter_fallback", "metropolis_counts_double"} <= set(opts)
    g = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1,
                                       "options": {"cities_and_knights": True}}).get_json()["state"]
    assert "CK-VAR-MEANIES" not in g["options"]
    on = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1,
                                        "options": {"cities_and_knights": True, "CK-VAR-MEANIES": True}})
    assert on.status_code == 201 and on.get_json()["state"]["options"]["CK-VAR-MEANIES"] is True
    off = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1,
                                         "options": {"CK-VAR-MEANIES": True}})
    assert off.status_code == 422 and off.get_json()["errors"][0]["pointer"] == "/options/CK-VAR-MEANIES"


def test_diplomat_removes_a_ship_built_this_turn_and_replaces_it_as_a_ship(client):
    """CK-SEA-11: the Diplomat removes an open ship; a ship built this turn and removed is no longer
    "built this turn"; an own ship is placed again as a ship (and may not move this turn)."""
    from .ck_util import with_cards
    st = sea_position(roads=(), cities=((0, (1, 0, "N")), (1, (-1, 1, "N"))),
                      ck_state=with_cards(ck(), 0, "diplomat", "diplomat"))
    st["pieces"]["ships"] = [{"player": 0, "edge": [1, 0, "NE"]}, {"player": 0, "edge": [1, 0, "E"]}]
    st["turn_flags"]["ships_built"] = [[1, 0, "E"]]
    v = post(client, st, act("play_progress", card="diplomat", edge=[1, 0, "E"]))
    assert v["legal"], v["violations"]
    assert v["state"]["turn_flags"].get("ships_built", []) == []
    assert [s["edge"] for s in v["state"]["pieces"]["ships"]] == [[1, 0, "NE"]]
    back = post(client, st, act("play_progress", card="diplomat", edge=[1, 0, "E"], replace=[1, 0, "E"]))
    assert back["legal"], back["violations"]
    assert {tuple(s["edge"]) for s in back["state"]["pieces"]["ships"]} == {(1, 0, "NE"), (1, 0, "E")}
    assert not any(r["edge"] == [1, 0, "E"] for r in back["state"]["pieces"]["roads"])
    assert back["state"]["turn_flags"]["ships_built"] == [[1, 0, "E"]]
    land = post(client, st, act("play_progress", card="diplomat", edge=[1, 0, "E"], replace=[0, 0, "E"]))
    assert not land["legal"]
