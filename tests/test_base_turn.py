"""The turn (BASE-TURN-1..6), costs (BASE-COST-1..3), production (BASE-PROD-1..5) and the robber (BASE-ROBBER-1..6)."""
from __future__ import annotations

from tests.helpers import adjudicate, hand, radius_board, rules, state


def board(overrides=None, terrain="fields", number=None):
    b = radius_board(2, terrain, number)
    for h in b:
        v = (overrides or {}).get((h["q"], h["r"]))
        if v is not None:
            h["terrain"], h["number"] = v
    return b


def res(v, player):
    return v["state"]["players"][player]["resources"]


# -- BASE-TURN-1..6 ----------------------------------------------------------------------------------------

def test_the_production_roll_is_made_exactly_once_per_turn_BASE_TURN_1(client):
    """The production roll is made exactly once per turn (BASE-TURN-1)."""
    st = state(board(), phase="roll")
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [1, 2]})
    assert v["legal"] and v["state"]["phase"] == "main"
    again = adjudicate(client, v["state"], {"type": "roll", "player": 0, "dice": [1, 2]})
    assert rules(again) == ["BASE-TURN-1"]


def test_a_posted_rolled_flag_must_agree_with_the_phase_BASE_TURN_1(client):
    """BASE-TURN-1: one roll a turn, and the roll is what leaves the roll phase, so a posted
    ``turn_flags.rolled`` that contradicts the phase is a 422 naming it (never silently kept or fixed);
    left out it follows from the phase, and game_over takes either."""
    for phase, rolled in (("roll", True), ("setup", True), ("main", False), ("discard", False),
                          ("robber", False), ("gold_choice", False)):
        st = state(board(), phase=phase, turn_flags={"rolled": rolled})
        r = client.post("/v1/adjudicate", json={"state": st, "action": None})
        assert r.status_code == 422, (phase, rolled)
        errors = {e["pointer"]: e["detail"] for e in r.get_json()["errors"]}
        assert "BASE-TURN-1" in errors["/state/turn_flags/rolled"], (phase, errors)
    for phase, rolled in (("roll", False), ("main", True), ("main", None)):
        st = state(board(), phase=phase, turn_flags={"rolled": rolled})
        assert adjudicate(client, st, None)["legal"]
    v = adjudicate(client, state(board(), phase="roll"), {"type": "roll", "player": 0, "dice": [1, 2]})
    assert v["state"]["turn_flags"]["rolled"] is True and v["state"]["phase"] == "main"


def test_play_passes_clockwise_to_the_next_seat_and_wraps_BASE_TURN_1(client):
    """Play passes clockwise to the next seat and wraps (BASE-TURN-1)."""
    st = state(board(), players=3, current=2, turn=7)
    v = adjudicate(client, st, {"type": "end_turn", "player": 2})
    assert v["legal"]
    assert v["state"]["current_player"] == 0 and v["state"]["turn"] == 8 and v["state"]["phase"] == "roll"
    st = state(board(), players=3, current=0)
    assert adjudicate(client, st, {"type": "end_turn", "player": 0})["state"]["current_player"] == 1


def test_nothing_but_a_development_card_happens_before_the_roll_BASE_TURN_2(client):
    """Nothing but a development card happens before the roll (BASE-TURN-2)."""
    st = state(board(), phase="roll", hands={0: hand(brick=1, lumber=1, wool=1, grain=1, ore=1)},
               settlements=[(0, (0, 0, "N"))], robber=[0, 0])
    for action in ({"type": "build_road", "player": 0, "edge": [0, 0, "NE"]},
                   {"type": "buy_development_card", "player": 0}):
        assert rules(adjudicate(client, st, action)) == ["BASE-TURN-2"]
    st["players"][0]["dev_cards"] = {"knight": 1}
    knight = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [1, 0]})
    assert knight["legal"] and knight["state"]["phase"] == "roll"      # the roll is still to come


def test_trade_and_build_interleave_freely_by_default_BASE_TURN_3(client):
    """Trade and build interleave freely by default (BASE-TURN-3)."""
    st = state(board(), hands={0: hand(brick=2, lumber=2, wool=4), 1: hand(ore=2)}, settlements=[(0, (0, 0, "N"))])
    v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]})
    assert v["legal"]
    v = adjudicate(client, v["state"], {"type": "maritime_trade", "player": 0, "give": {"wool": 4},
                                        "get": {"grain": 1}})
    assert v["legal"], v["violations"]
    v = adjudicate(client, v["state"], {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"grain": 1},
                                        "get": {"ore": 1}, "accepted": True})
    assert v["legal"], v["violations"]
    v = adjudicate(client, v["state"], {"type": "build_road", "player": 0, "edge": [0, -1, "SE"]})
    assert v["legal"], v["violations"]


def test_the_turn_ends_only_after_the_roll_is_resolved_BASE_TURN_5(client):
    """The turn ends only after the roll is resolved (BASE-TURN-5)."""
    assert rules(adjudicate(client, state(board(), phase="roll"), {"type": "end_turn", "player": 0})) \
        == ["BASE-TURN-5"]
    disc = state(board(), phase="discard", hands={1: hand(ore=8)}, pending_discards={"1": 4})
    assert rules(adjudicate(client, disc, {"type": "end_turn", "player": 0})) == ["BASE-TURN-5"]
    rob = state(board(), phase="robber", robber=[0, 0])
    assert rules(adjudicate(client, rob, {"type": "end_turn", "player": 0})) == ["BASE-TURN-5"]
    assert adjudicate(client, state(board()), {"type": "end_turn", "player": 0})["legal"]


def test_a_non_active_player_may_discard_but_not_roll_build_or_end_the_turn_BASE_TURN_6(client):
    """A non active player may discard but not roll build or end the turn (BASE-TURN-6)."""
    st = state(board(), phase="roll", current=0)
    assert rules(adjudicate(client, st, {"type": "roll", "player": 1})) == ["BASE-TURN-6"]
    assert rules(adjudicate(client, state(board()), {"type": "end_turn", "player": 2})) == ["BASE-TURN-6"]
    disc = state(board(), phase="discard", hands={1: hand(ore=8)}, pending_discards={"1": 4})
    v = adjudicate(client, disc, {"type": "discard", "player": 1, "resources": {"ore": 4}})
    assert v["legal"] and v["state"]["phase"] == "robber"


def test_a_non_active_player_may_propose_a_trade_to_the_active_player_only_BASE_TURN_6(client):
    """A non active player may propose a trade to the active player only (BASE-TURN-6)."""
    st = state(board(), current=0, hands={0: hand(ore=1), 1: hand(wool=1), 2: hand(grain=1)})
    v = adjudicate(client, st, {"type": "domestic_trade", "player": 1, "partner": 0, "give": {"wool": 1},
                                "get": {"ore": 1}, "accepted": True})
    assert v["legal"], v["violations"]
    assert res(v, 0) == hand(wool=1) and res(v, 1) == hand(ore=1)
    bad = adjudicate(client, st, {"type": "domestic_trade", "player": 1, "partner": 2, "give": {"wool": 1},
                                  "get": {"grain": 1}, "accepted": True})
    assert rules(bad) == ["BASE-TRADE-2"]


# -- BASE-COST-1..3 ----------------------------------------------------------------------------------------

def test_the_exact_cost_is_paid_and_no_credit_is_given_BASE_COST_1(client):
    """The exact cost is paid and no credit is given (BASE-COST-1)."""
    st = state(board(), hands={0: hand(brick=1, lumber=1, wool=1, grain=1, ore=2)},
               settlements=[(0, (0, 0, "N"))], roads=[(0, (0, 0, "NE")), (0, (1, -1, "SE"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [1, 0, "N"]})
    assert v["legal"], v["violations"]
    assert res(v, 0) == hand(ore=2) and v["state"]["bank"]["wool"] == 19
    short = adjudicate(client, st, {"type": "build_city", "player": 0, "node": [0, 0, "N"]})
    assert rules(short) == ["BASE-COST-1"]
    assert rules(adjudicate(client, state(board(), hands={0: hand(wool=1, grain=1)}),
                            {"type": "buy_development_card", "player": 0})) == ["BASE-DEV-1"]


def test_a_player_builds_as_many_items_per_turn_as_they_can_pay_for_BASE_COST_2(client):
    """A player builds as many items per turn as they can pay for (BASE-COST-2)."""
    st = state(board(), hands={0: hand(brick=3, lumber=3)}, settlements=[(0, (0, 0, "N"))])
    edges = [[0, 0, "NE"], [1, -1, "SE"], [1, 0, "NE"], [1, 0, "E"]]
    for e in edges[:3]:
        v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": e})
        assert v["legal"], v["violations"]
        st = v["state"]
    assert res(v, 0) == hand()
    assert rules(adjudicate(client, st, {"type": "build_road", "player": 0, "edge": edges[3]})) == ["BASE-COST-1"]


def test_only_the_active_player_builds_BASE_COST_3(client):
    """Only the active player builds (BASE-COST-3)."""
    st = state(board(), current=0, hands={1: hand(brick=1, lumber=1)}, settlements=[(1, (0, 0, "N"))])
    assert rules(adjudicate(client, st, {"type": "build_road", "player": 1, "edge": [0, 0, "NE"]})) \
        == ["BASE-COST-3"]
    st["current_player"] = 1
    assert adjudicate(client, st, {"type": "build_road", "player": 1, "edge": [0, 0, "NE"]})["legal"]


# -- BASE-PROD-1..5 ----------------------------------------------------------------------------------------

def prod_board():
    # (0,0) forest 6, (1,-1) hills 6, (0,-1) mountains 8: node (0,0,N) touches all three
    return board({(0, 0): ("forest", 6), (1, -1): ("hills", 6), (0, -1): ("mountains", 8),
                  (-1, 1): ("desert", 6), (2, 0): ("pasture", 6)}, "fields", 3)


def test_only_hexes_with_the_rolled_number_produce_BASE_PROD_1(client):
    """Only hexes with the rolled number produce (BASE-PROD-1)."""
    st = state(prod_board(), phase="roll", settlements=[(0, (0, 0, "N"))], robber=[-2, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [4, 4]})
    assert res(v, 0) == hand(ore=1)
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [5, 6]})
    assert res(v, 0) == hand()


def test_settlements_yield_1_cities_2_for_every_player_from_every_producing_hex_BASE_PROD_2(client):
    """Settlements yield 1 cities 2 for every player from every producing hex (BASE-PROD-2)."""
    st = state(prod_board(), phase="roll", current=1, settlements=[(0, (0, 0, "N"))],
               cities=[(2, (2, 0, "N"))], robber=[-2, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 1, "dice": [3, 3]})
    assert v["legal"]
    assert res(v, 0) == hand(lumber=1, brick=1)          # two producing hexes, one each
    assert res(v, 2) == hand(wool=2)                     # a city yields 2 (pasture (2,0) under its N corner)
    assert res(v, 1) == hand()
    prod = {e["player"]: e["resources"] for e in v["events"] if e["type"] == "production"}
    assert prod == {0: {"lumber": 1, "brick": 1}, 2: {"wool": 2}}


def test_the_desert_never_produces_even_with_a_token_BASE_PROD_3(client):
    """The desert never produces even with a token (BASE-PROD-3)."""
    st = state(prod_board(), phase="roll", settlements=[(0, (-1, 1, "N"))], robber=[-2, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert v["legal"]
    # (-1,1,N) touches the desert (6), (-1,0) fields 3 and (0,0) forest 6: only the forest pays
    assert res(v, 0) == hand(lumber=1)


def test_a_bank_shortage_pays_a_single_player_what_is_left_BASE_PROD_4(client):
    """A bank shortage pays a single player what is left (BASE-PROD-4)."""
    st = state(prod_board(), phase="roll", cities=[(0, (0, 0, "N"))], robber=[-2, 0],
               hands={1: hand(lumber=18)})
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert res(v, 0) == hand(lumber=1, brick=2)           # owed 2 lumber, the bank had 1; brick unaffected
    assert v["state"]["bank"]["lumber"] == 0
    assert any(e["type"] == "shortage" and e["resource"] == "lumber" for e in v["events"])


def test_a_bank_shortage_with_several_players_owed_pays_nobody_that_type_BASE_PROD_4(client):
    """A bank shortage with several players owed pays nobody that type (BASE-PROD-4)."""
    st = state(prod_board(), phase="roll", cities=[(0, (0, 0, "N"))], settlements=[(1, (0, 1, "N"))],
               robber=[-2, 0], hands={2: hand(lumber=17)})
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert res(v, 0) == hand(brick=2) and res(v, 1) == hand()  # 3 lumber owed, 2 in the bank: nobody
    assert v["state"]["bank"]["lumber"] == 2


def test_the_strict_bank_variant_pays_nobody_even_a_single_player_BASE_PROD_4(client):
    """BASE-VAR-BANK-STRICT (BASE-ED-3): the 4th-edition rule has no single-player exception (BASE-PROD-4)."""
    st = state(prod_board(), phase="roll", cities=[(0, (0, 0, "N"))], robber=[-2, 0],
               hands={1: hand(lumber=18)}, options={"BASE-VAR-BANK-STRICT": True})
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert res(v, 0) == hand(brick=2) and v["state"]["bank"]["lumber"] == 1


def test_production_is_paid_to_everyone_at_once_and_cannot_be_declined_BASE_PROD_5(client):
    """Production is paid to everyone at once and cannot be declined (BASE-PROD-5)."""
    st = state(prod_board(), phase="roll", current=0, settlements=[(1, (0, 0, "N")), (2, (2, 0, "N"))],
               robber=[-2, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [2, 4]})
    assert res(v, 1) == hand(lumber=1, brick=1) and res(v, 2) == hand(wool=1)
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "roll", "player": 0, "dice": [2, 4],
                                                                     "decline": [1]}})
    assert r.status_code == 422                       # there is no way to refuse production


# -- BASE-ROBBER-1..6 ----------------------------------------------------------------------------------------

def test_a_seven_produces_nothing_BASE_ROBBER_1(client):
    """A seven produces nothing (BASE-ROBBER-1)."""
    st = state(board(None, "fields", 7 - 1), phase="roll", settlements=[(0, (0, 0, "N"))], robber=[-2, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v["legal"] and res(v, 0) == hand() and v["state"]["phase"] == "robber"
    v6 = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert res(v6, 0) == hand(grain=3)


def test_every_player_over_seven_cards_discards_half_rounded_down_BASE_ROBBER_2(client):
    """Every player over seven cards discards half rounded down (BASE-ROBBER-2)."""
    st = state(board(), phase="roll", hands={0: hand(ore=9), 1: hand(wool=7), 2: hand(grain=5, ore=5)},
               robber=[-2, 0])
    st["players"][1]["dev_cards"] = {"knight": 3}        # only resource cards count
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [6, 1]})
    assert v["state"]["phase"] == "discard"
    assert v["state"]["pending_discards"] == {"0": 4, "2": 5}
    s2 = v["state"]
    assert rules(adjudicate(client, s2, {"type": "move_robber", "player": 0, "hex": [0, 0]})) == ["BASE-ROBBER-2"]
    assert rules(adjudicate(client, s2, {"type": "discard", "player": 1, "resources": {"wool": 3}})) \
        == ["BASE-ROBBER-2"]
    assert rules(adjudicate(client, s2, {"type": "discard", "player": 0, "resources": {"ore": 5}})) \
        == ["BASE-ROBBER-2"]
    assert rules(adjudicate(client, s2, {"type": "discard", "player": 2, "resources": {"grain": 1, "wool": 4}})) \
        == ["BASE-ROBBER-2"]
    v = adjudicate(client, s2, {"type": "discard", "player": 2, "resources": {"grain": 2, "ore": 3}})
    assert v["legal"] and v["state"]["phase"] == "discard"
    v = adjudicate(client, v["state"], {"type": "discard", "player": 0, "resources": {"ore": 4}})
    assert v["legal"] and v["state"]["phase"] == "robber"
    assert res(v, 0) == hand(ore=5) and res(v, 2) == hand(grain=3, ore=2)


def test_the_robber_must_move_to_a_different_land_hex_the_desert_allowed_BASE_ROBBER_3(client):
    """The robber must move to a different land hex the desert allowed (BASE-ROBBER-3)."""
    b = board({(1, 0): ("desert", None)})
    st = state(b, phase="robber", robber=[0, 0])
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 0]})) == ["BASE-ROBBER-3"]
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [3, 0]})) == ["BASE-ROBBER-3"]
    v = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [1, 0]})
    assert v["legal"] and v["state"]["robber"] == [1, 0] and v["state"]["phase"] == "main"


def test_the_roller_steals_one_random_card_from_an_adjacent_opponent_BASE_ROBBER_4(client):
    """The roller steals one random card from an adjacent opponent (BASE-ROBBER-4)."""
    st = state(board(), phase="robber", robber=[-2, 0], hands={1: hand(ore=1, wool=2), 2: hand(grain=3)},
               settlements=[(1, (0, 0, "N")), (2, (0, 0, "S")), (0, (-2, 1, "N"))])
    v = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 0], "steal_from": 1})
    assert v["legal"], v["violations"]
    stolen = next(e for e in v["events"] if e["type"] == "stole")["resource"]
    assert stolen in ("ore", "wool")
    assert sum(res(v, 1).values()) == 2 and res(v, 0)[stolen] == 1
    # must choose someone when an opponent is adjacent; never oneself; never a non-adjacent player
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 0]})) == ["BASE-ROBBER-4"]
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 0], "steal_from": 0})) \
        == ["BASE-ROBBER-4"]
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [2, -2], "steal_from": 1})) \
        == ["BASE-ROBBER-4"]
    # with nobody adjacent nothing is stolen
    none = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [2, -2]})
    assert none["legal"] and not any(e["type"] == "stole" for e in none["events"])


def test_the_roller_may_rob_an_adjacent_opponent_holding_no_cards_BASE_ROBBER_4(client):
    """The roller may rob an adjacent opponent holding no cards (BASE-ROBBER-4)."""
    st = state(board(), phase="robber", robber=[-2, 0], hands={2: hand(grain=3)},
               settlements=[(1, (0, 0, "N")), (2, (0, 0, "S"))])
    v = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 0], "steal_from": 1})
    assert v["legal"]
    assert res(v, 0) == hand() and next(e for e in v["events"] if e["type"] == "stole")["resource"] is None


def test_the_robbed_hex_produces_nothing_but_may_be_built_next_to_BASE_ROBBER_5(client):
    """The robbed hex produces nothing but may be built next to (BASE-ROBBER-5)."""
    st = state(board(None, "fields", 6), phase="roll", settlements=[(0, (0, 0, "N"))], robber=[0, 0])
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 3]})
    assert res(v, 0) == hand(grain=2)                    # (0,-1) and (1,-1) pay, (0,0) under the robber does not
    st = state(board(), robber=[0, 0], hands={0: hand(brick=1, lumber=1, wool=1, grain=1)},
               roads=[(0, (0, 0, "NE"))], settlements=[(0, (0, -2, "S"))])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert v["legal"], v["violations"]


def test_a_knight_moves_the_robber_and_steals_without_any_discard_BASE_ROBBER_6(client):
    """A knight moves the robber and steals without any discard (BASE-ROBBER-6)."""
    st = state(board(), phase="main", robber=[-2, 0], hands={0: hand(ore=10), 1: hand(wool=9)},
               settlements=[(1, (0, 0, "N"))])
    st["players"][0]["dev_cards"] = {"knight": 1}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [0, 0], "steal_from": 1})
    assert v["legal"], v["violations"]
    assert v["state"]["phase"] == "main" and v["state"]["pending_discards"] == {}
    assert res(v, 0)["wool"] == 1 and res(v, 1)["wool"] == 8
    assert rules(adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [-2, 0]})) == ["BASE-ROBBER-3"]
