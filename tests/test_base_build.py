"""Placement and connectivity after set-up (BASE-BUILD-1..8)."""
from __future__ import annotations

from tests.helpers import adjudicate, hand, radius_board, rules, state

ROAD_CARDS = hand(brick=2, lumber=2)
SETTLEMENT_CARDS = hand(brick=1, lumber=1, wool=1, grain=1)


def board_with_sea():
    b = radius_board(2, "fields", 5)
    for h in b:
        if (h["q"], h["r"]) in ((1, 0), (2, 0)):
            h["terrain"], h["number"] = "sea", None
    return b


def build_road(client, st, edge, player=0):
    return adjudicate(client, st, {"type": "build_road", "player": player, "edge": list(edge)})


def test_a_road_needs_an_empty_edge_with_land_on_at_least_one_side_BASE_BUILD_1(client):
    """A road needs an empty edge with land on at least one side (BASE-BUILD-1)."""
    st = state(board_with_sea(), hands={0: ROAD_CARDS}, settlements=[(0, (1, 0, "N")), (1, (0, 0, "N"))],
               roads=[(1, (0, 0, "NE"))])
    # (1,0,N) touches (1,0) sea, (1,-1) land and (2,-1) land
    assert rules(build_road(client, st, (1, 0, "E"))) == ["BASE-BUILD-1"]       # sea on both sides
    coast = build_road(client, st, (1, -1, "SE"))                               # (1,-1) land / (1,0) sea
    assert coast["legal"], coast["violations"]
    st["pieces"]["roads"].append({"player": 1, "edge": [1, -1, "SE"]})
    assert rules(build_road(client, st, (1, -1, "SE"))) == ["BASE-BUILD-1"]     # at most one road per edge


def test_the_distance_rule_applies_to_every_settlement_BASE_BUILD_2(client):
    """The distance rule applies to every settlement (BASE-BUILD-2)."""
    st = state(radius_board(2), hands={0: SETTLEMENT_CARDS}, settlements=[(1, (1, -1, "S"))],
               roads=[(0, (0, -1, "SE")), (0, (0, -1, "E"))])
    near = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert rules(near) == ["BASE-BUILD-2"]
    st["pieces"]["settlements"] = [{"player": 1, "node": [1, 0, "S"]}]
    assert adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})["legal"]


def test_a_settlement_off_land_cites_the_placement_it_breaks_not_the_distance_rule_BASE_BUILD_3(client):
    """D-settlement-on-land: a settlement on a corner touching no land hex is refused naming the node, under
    the placement rule that brings a settlement there: BASE-BUILD-3 after set-up (a road never leaves the
    land), BASE-SETUP-2 in set-up, SEA-012 with ships; never BASE-BUILD-2, the distance rule."""
    st = state(radius_board(2), hands={0: SETTLEMENT_CARDS}, roads=[(0, (0, -1, "SE"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [40, 40, "N"]})
    assert rules(v) == ["BASE-BUILD-3"] and v["violations"][0]["path"] == "/action/node"
    st["phase"] = "setup"
    st["setup"] = {"round": 1, "step": "settlement", "last_settlement": None}
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [40, 40, "N"]})
    assert rules(v) == ["BASE-SETUP-2"]


def test_a_settlement_after_setup_must_touch_one_of_the_builders_roads_BASE_BUILD_3(client):
    """A settlement after setup must touch one of the builders roads (BASE-BUILD-3)."""
    st = state(radius_board(2), hands={0: SETTLEMENT_CARDS}, roads=[(1, (0, 0, "NE"))],
               settlements=[(1, (1, -1, "N"))])
    assert rules(adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})) \
        == ["BASE-BUILD-3"]                        # an opponent's road does not count
    st["pieces"]["roads"] = [{"player": 0, "edge": [0, 0, "NE"]}]
    assert adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})["legal"]


def test_a_new_road_must_touch_the_builders_road_or_building_BASE_BUILD_4(client):
    """A new road must touch the builders road or building (BASE-BUILD-4)."""
    st = state(radius_board(2), hands={0: ROAD_CARDS}, settlements=[(0, (0, 0, "N"))])
    assert rules(build_road(client, st, (0, 1, "NE"))) == ["BASE-BUILD-4"]
    assert build_road(client, st, (0, 0, "NE"))["legal"]                 # touches the settlement
    st["pieces"]["roads"] = [{"player": 0, "edge": [0, 0, "NE"]}]
    assert build_road(client, st, (1, -1, "SE"))["legal"]                # touches the road


def test_a_road_may_not_connect_through_an_opponents_building_BASE_BUILD_5(client):
    """A road may not connect through an opponents building (BASE-BUILD-5)."""
    st = state(radius_board(2), hands={0: ROAD_CARDS}, roads=[(0, (0, 0, "NE"))],
               settlements=[(1, (1, -1, "S")), (0, (-1, 0, "N"))])
    assert rules(build_road(client, st, (1, -1, "SE"))) == ["BASE-BUILD-5"]
    st["pieces"]["settlements"] = [{"player": 0, "node": [1, -1, "S"]}]    # the builder's own settlement is fine
    assert build_road(client, st, (1, -1, "SE"))["legal"]


def test_a_city_only_replaces_the_builders_own_settlement_BASE_BUILD_6(client):
    """A city only replaces the builders own settlement (BASE-BUILD-6)."""
    st = state(radius_board(2), hands={0: hand(grain=2, ore=3)}, settlements=[(0, (0, 0, "N")), (1, (0, 2, "N"))],
               cities=[(0, (-2, 2, "N"))])
    for node in ([1, 1, "N"], [0, 2, "N"], [-2, 2, "N"]):
        v = adjudicate(client, st, {"type": "build_city", "player": 0, "node": node})
        assert rules(v) == ["BASE-BUILD-6"], node
    v = adjudicate(client, st, {"type": "build_city", "player": 0, "node": [0, 0, "N"]})
    assert v["legal"]
    assert {"player": 0, "node": [0, 0, "N"]} in v["state"]["pieces"]["cities"]
    assert {"player": 0, "node": [0, 0, "N"]} not in v["state"]["pieces"]["settlements"]


def test_a_players_network_need_not_be_connected_as_a_whole_BASE_BUILD_7(client):
    """A players network need not be connected as a whole (BASE-BUILD-7)."""
    # two separate networks of player 0: any own road or building anchors a new piece
    st = state(radius_board(2), hands={0: hand(brick=2, lumber=2, wool=1, grain=1)},
               settlements=[(0, (-2, 2, "N"))], roads=[(0, (-2, 2, "NE")), (0, (1, -1, "SE"))])
    v = build_road(client, st, (1, 0, "NE"))                  # extends the network with no building
    assert v["legal"], v["violations"]
    v = adjudicate(client, v["state"], {"type": "build_settlement", "player": 0, "node": [1, 0, "N"]})
    assert v["legal"], v["violations"]
    assert rules(build_road(client, st, (0, 1, "E"))) == ["BASE-BUILD-4"]  # but something must anchor it


def test_buildings_are_never_removed_or_replaced_only_upgraded_BASE_BUILD_8(client):
    """Buildings are never removed or replaced only upgraded (BASE-BUILD-8)."""
    st = state(radius_board(2), hands={0: hand(brick=1, lumber=1, wool=1, grain=3, ore=3)},
               settlements=[(1, (0, 0, "N")), (0, (0, 2, "S"))], roads=[(0, (0, 0, "NE"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert rules(v) == ["BASE-BUILD-8"]
    # an upgrade keeps the piece on the board: the settlement becomes a city, nothing disappears
    v = adjudicate(client, st, {"type": "build_city", "player": 0, "node": [0, 2, "S"]})
    assert v["legal"]
    pieces = v["state"]["pieces"]
    assert len(pieces["settlements"]) + len(pieces["cities"]) == 2 and len(pieces["roads"]) == 1
    again = adjudicate(client, v["state"], {"type": "build_settlement", "player": 0, "node": [0, 2, "S"]})
    assert rules(again) == ["BASE-BUILD-8"]                    # a city is never turned back into a settlement
