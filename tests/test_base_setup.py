"""Set-up placements (BASE-SETUP-2..7) on small synthetic boards."""
from __future__ import annotations

import pytest

from tests.helpers import adjudicate, hand, hexes, radius_board, rules, state


def setup_state(**kw):
    kw.setdefault("phase", "setup")
    return state(radius_board(2), **kw)


def test_a_setup_settlement_needs_no_road_but_obeys_the_distance_rule_BASE_SETUP_4(client):
    """A setup settlement needs no road but obeys the distance rule (BASE-SETUP-4)."""
    st = setup_state(settlements=[(1, (0, 0, "S"))], roads=[(1, (0, 0, "SE"))])
    ok = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, -1, "N"]})
    assert ok["legal"], ok["violations"]
    assert ok["state"]["setup"]["step"] == "road"
    assert ok["state"]["players"][0]["resources"] == hand()            # nothing is paid, nothing gained in round 1
    # (0, 1, N) is one edge (0, 0, SE) away from player 1's settlement
    near = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 1, "N"]})
    assert not near["legal"] and rules(near) == ["BASE-BUILD-2"]


def test_a_setup_road_must_touch_the_settlement_just_placed_BASE_SETUP_4(client):
    """A setup road must touch the settlement just placed (BASE-SETUP-4)."""
    # round 2: player 0's first settlement (0,2,S) has its road; the second one (0,0,N) was just placed
    st = setup_state(settlements=[(0, (0, 0, "N")), (0, (0, 2, "S"))], roads=[(0, (0, 2, "SE"))],
                     setup={"round": 2, "step": "road", "last_settlement": [0, 0, "N"]})
    ok = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]})
    assert ok["legal"], ok["violations"]
    # touching an older own piece is not enough
    bad = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [-1, 3, "NE"]})
    assert rules(bad) == ["BASE-SETUP-4"]


def test_a_settlement_comes_first_then_its_road_BASE_SETUP_2(client):
    """A settlement comes first then its road (BASE-SETUP-2)."""
    st = setup_state()
    v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]})
    assert rules(v) == ["BASE-SETUP-2"]
    ok = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert ok["legal"]


def test_round_one_goes_in_seat_order_and_the_last_player_places_twice_BASE_SETUP_2_3(client):
    """Round one goes in seat order and the last player places twice (BASE-SETUP-2, BASE-SETUP-3)."""
    st = setup_state(players=3, current=2, settlements=[(0, (-2, 0, "N")), (1, (2, 0, "S")), (2, (0, 0, "N"))],
                     roads=[(0, (-2, 0, "NE")), (1, (2, 0, "SE"))],
                     setup={"round": 1, "step": "road", "last_settlement": [0, 0, "N"]})
    v = adjudicate(client, st, {"type": "build_road", "player": 2, "edge": [0, 0, "NE"]})
    assert v["legal"]
    assert v["state"]["current_player"] == 2 and v["state"]["setup"]["round"] == 2
    nxt = v["state"]
    assert rules(adjudicate(client, nxt, {"type": "build_settlement", "player": 0, "node": [0, 2, "S"]})) \
        == ["BASE-SETUP-3"]
    assert adjudicate(client, nxt, {"type": "build_settlement", "player": 2, "node": [0, 2, "S"]})["legal"]


@pytest.mark.parametrize("third", ["desert", "sea"])
def test_the_second_settlement_takes_one_card_per_adjacent_land_hex_not_desert_or_sea_BASE_SETUP_5(client, third):
    """The second settlement takes one card per adjacent land hex not desert or sea (BASE-SETUP-5)."""
    board = radius_board(2, "pasture", 9)
    for h in board:
        if (h["q"], h["r"]) == (0, 0):
            h["terrain"], h["number"] = "forest", 5
        elif (h["q"], h["r"]) == (0, -1):
            h["terrain"], h["number"] = "hills", 4
        elif (h["q"], h["r"]) == (1, -1):
            h["terrain"], h["number"] = third, None
    st = state(board, phase="setup", players=3, current=1, robber=[0, 0],
               setup={"round": 2, "step": "settlement", "last_settlement": None},
               settlements=[(0, (-2, 2, "N")), (1, (-2, 0, "S")), (2, (2, 0, "S")), (2, (0, 2, "N"))],
               roads=[(0, (-2, 2, "NE")), (1, (-2, 0, "SE")), (2, (2, 0, "SE")), (2, (0, 2, "NE"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 1, "node": [0, 0, "N"]})
    assert v["legal"], v["violations"]
    assert v["state"]["players"][1]["resources"] == hand(lumber=1, brick=1)   # desert / sea give nothing
    assert v["state"]["bank"]["lumber"] == 18 and v["state"]["bank"]["brick"] == 18
    assert any(e["type"] == "starting_resources" for e in v["events"])
    # the first settlement gives nothing, even on the same spot
    st["setup"]["round"] = 1
    st["pieces"]["settlements"].pop()
    st["pieces"]["roads"].pop()
    st["current_player"] = 2
    v = adjudicate(client, st, {"type": "build_settlement", "player": 2, "node": [0, 0, "N"]})
    assert v["legal"] and v["state"]["players"][2]["resources"] == hand()


def test_after_round_two_the_starting_player_takes_the_first_turn_BASE_SETUP_6(client):
    """After round two the starting player takes the first turn (BASE-SETUP-6)."""
    st = setup_state(players=3, current=0, settlements=[(0, (-2, 0, "N")), (0, (0, 0, "N")),
                                                        (1, (2, 0, "S")), (1, (0, 2, "S")),
                                                        (2, (-1, 2, "S")), (2, (1, -2, "N"))],
                     roads=[(1, (2, 0, "SE")), (1, (0, 2, "SE")), (2, (-1, 2, "SE")), (2, (1, -2, "NE")),
                            (0, (-2, 0, "NE"))],
                     setup={"round": 2, "step": "road", "last_settlement": [0, 0, "N"]})
    v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]})
    assert v["legal"], v["violations"]
    assert v["state"]["phase"] == "roll" and v["state"]["current_player"] == 0
    assert any(e["type"] == "setup_complete" for e in v["events"])


def test_no_trade_robber_or_development_card_during_setup_BASE_SETUP_7(client):
    """No trade robber or development card during setup (BASE-SETUP-7)."""
    st = setup_state(hands={0: hand(wool=4), 1: hand(ore=1)})
    st["players"][0]["dev_cards"] = {"knight": 1}
    assert rules(adjudicate(client, st, {"type": "maritime_trade", "player": 0, "give": {"wool": 4},
                                         "get": {"ore": 1}})) == ["BASE-SETUP-7"]
    assert rules(adjudicate(client, st, {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"wool": 1},
                                         "get": {"ore": 1}, "accepted": True})) == ["BASE-SETUP-7"]
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [1, 0]})) == ["BASE-SETUP-7"]
    assert rules(adjudicate(client, st, {"type": "roll", "player": 0})) == ["BASE-SETUP-7"]
    assert rules(adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [1, 0]})) == ["BASE-DEV-3"]
    assert adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})["legal"]
