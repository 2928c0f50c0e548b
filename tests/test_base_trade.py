"""Domestic and maritime trade (BASE-TRADE-1..10) and the trade/build phase order (BASE-TURN-3/4)."""
from __future__ import annotations

from tests.helpers import adjudicate, hand, radius_board, rules, state


def harbour_board():
    b = radius_board(2, "fields", 5)
    for h in b:
        if (h["q"], h["r"]) in ((1, 0), (2, 0)):
            h["terrain"], h["number"] = "sea", None
    return b


# the coast edge (1,-1,SE) lies between land (1,-1) and sea (1,0); its intersections are (1,0,N) and (1,-1,S)
HARBOUR_EDGE = (1, -1, "SE")
ON_HARBOUR = (1, 0, "N")


def maritime(give, get, player=0):
    return {"type": "maritime_trade", "player": player, "give": give, "get": get}


def domestic(give, get, player=0, partner=1, accepted=True):
    return {"type": "domestic_trade", "player": player, "partner": partner, "give": give, "get": get,
            "accepted": accepted}


def res(v, p):
    return v["state"]["players"][p]["resources"]


def test_trade_waits_until_the_roll_is_resolved_BASE_TRADE_1(client):
    """Trade waits until the roll is resolved (BASE-TRADE-1)."""
    for phase, extra in (("roll", {}), ("robber", {"robber": [0, 0]}),
                         ("discard", {"pending_discards": {"2": 4}})):
        st = state(radius_board(2), phase=phase, hands={0: hand(wool=4), 1: hand(ore=1), 2: hand(grain=8)},
                   **extra)
        assert rules(adjudicate(client, st, maritime({"wool": 4}, {"ore": 1}))) == ["BASE-TRADE-1"], phase
        assert rules(adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}))) == ["BASE-TRADE-1"], phase
    st = state(radius_board(2), hands={0: hand(wool=4), 1: hand(ore=1)})
    assert adjudicate(client, st, maritime({"wool": 4}, {"ore": 1}))["legal"]
    assert adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}))["legal"]


def test_a_domestic_trade_moves_the_agreed_cards_between_the_two_players_BASE_TRADE_2(client):
    """A domestic trade moves the agreed cards between the two players (BASE-TRADE-2)."""
    st = state(radius_board(2), hands={0: hand(wool=2), 1: hand(ore=1, grain=1)})
    v = adjudicate(client, st, domestic({"wool": 2}, {"ore": 1, "grain": 1}))
    assert v["legal"], v["violations"]
    assert res(v, 0) == hand(ore=1, grain=1) and res(v, 1) == hand(wool=2)
    assert rules(adjudicate(client, st, domestic({"wool": 2}, {"ore": 1}, accepted=False))) == ["BASE-TRADE-2"]
    assert rules(adjudicate(client, st, domestic({"wool": 3}, {"ore": 1}))) == ["BASE-TRADE-2"]   # not held
    assert rules(adjudicate(client, st, domestic({"wool": 1}, {"ore": 2}))) == ["BASE-TRADE-2"]   # partner lacks
    self_trade = adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}, partner=0))
    assert rules(self_trade) == ["BASE-TRADE-2"] and "between two players" in self_trade["violations"][0]["message"]


def test_non_active_players_never_trade_with_each_other_BASE_TRADE_2(client):
    """Non active players never trade with each other (BASE-TRADE-2)."""
    st = state(radius_board(2), current=0, hands={1: hand(wool=1), 2: hand(ore=1)})
    assert rules(adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}, player=1, partner=2))) == ["BASE-TRADE-2"]


def test_a_domestic_trade_has_cards_on_both_sides_no_gifts_BASE_TRADE_3(client):
    """A domestic trade has cards on both sides no gifts (BASE-TRADE-3)."""
    st = state(radius_board(2), hands={0: hand(wool=2), 1: hand(ore=1)})
    assert rules(adjudicate(client, st, domestic({"wool": 1}, {}))) == ["BASE-TRADE-3"]
    assert rules(adjudicate(client, st, domestic({}, {"ore": 1}))) == ["BASE-TRADE-3"]
    assert adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}))["legal"]


def test_a_trade_may_not_exchange_a_type_for_the_same_type_BASE_TRADE_4(client):
    """A trade may not exchange a type for the same type (BASE-TRADE-4)."""
    st = state(radius_board(2), hands={0: hand(wool=2, ore=1), 1: hand(wool=1, grain=1)})
    assert rules(adjudicate(client, st, domestic({"wool": 1}, {"wool": 1}))) == ["BASE-TRADE-4"]
    assert rules(adjudicate(client, st, domestic({"wool": 1, "ore": 1}, {"wool": 1}))) == ["BASE-TRADE-4"]
    assert adjudicate(client, st, domestic({"wool": 1, "ore": 1}, {"grain": 1}))["legal"]


def test_only_resource_cards_are_traded_not_development_cards_BASE_TRADE_5(client):
    """Only resource cards are traded not development cards (BASE-TRADE-5)."""
    st = state(radius_board(2), hands={0: hand(wool=2), 1: hand(ore=1)})
    st["players"][0]["dev_cards"] = {"knight": 1}
    st["players"][1]["dev_cards"] = {"monopoly": 1}
    assert rules(adjudicate(client, st, domestic({"knight": 1}, {"ore": 1}))) == ["BASE-TRADE-5"]
    assert rules(adjudicate(client, st, domestic({"wool": 1}, {"monopoly": 1}))) == ["BASE-TRADE-5"]
    v = adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}))
    assert v["legal"] and v["state"]["players"][0]["dev_cards"]["knight"] == 1


def test_the_bank_always_trades_4_to_1_BASE_TRADE_6(client):
    """The bank always trades 4 to 1 (BASE-TRADE-6)."""
    st = state(radius_board(2), hands={0: hand(wool=8)})
    v = adjudicate(client, st, maritime({"wool": 8}, {"ore": 2}))
    assert v["legal"] and res(v, 0) == hand(ore=2) and v["state"]["bank"]["wool"] == 19
    assert rules(adjudicate(client, st, maritime({"wool": 3}, {"ore": 1}))) == ["BASE-TRADE-6"]
    assert rules(adjudicate(client, st, maritime({"wool": 4}, {"wool": 1}))) == ["BASE-TRADE-6"]
    zero = adjudicate(client, st, maritime({"wool": 4, "ore": 0}, {"ore": 1, "grain": 0}))  # zero counts ignored
    assert zero["legal"] and res(zero, 0) == hand(wool=4, ore=1)


def test_a_generic_harbour_gives_3_to_1_on_every_type_BASE_TRADE_7(client):
    """A generic harbour gives 3 to 1 on every type (BASE-TRADE-7)."""
    st = state(harbour_board(), hands={0: hand(grain=3, ore=3)}, settlements=[(0, ON_HARBOUR)],
               harbors=[(HARBOUR_EDGE, "3:1")])
    assert adjudicate(client, st, maritime({"grain": 3}, {"wool": 1}))["legal"]
    assert adjudicate(client, st, maritime({"ore": 3}, {"wool": 1}))["legal"]
    assert rules(adjudicate(client, st, maritime({"ore": 2}, {"wool": 1}))) == ["BASE-TRADE-7"]
    st["pieces"]["settlements"] = [{"player": 0, "node": [-1, 0, "N"]}]          # away from the harbour
    assert rules(adjudicate(client, st, maritime({"ore": 3}, {"wool": 1}))) == ["BASE-TRADE-6"]


def test_a_specific_harbour_gives_2_to_1_on_its_own_resource_only_BASE_TRADE_8(client):
    """A specific harbour gives 2 to 1 on its own resource only (BASE-TRADE-8)."""
    st = state(harbour_board(), hands={0: hand(wool=2, ore=3)}, cities=[(0, ON_HARBOUR)],
               harbors=[(HARBOUR_EDGE, "wool")])
    v = adjudicate(client, st, maritime({"wool": 2}, {"brick": 1}))
    assert v["legal"] and res(v, 0) == hand(brick=1, ore=3)
    assert rules(adjudicate(client, st, maritime({"wool": 1}, {"brick": 1}))) == ["BASE-TRADE-8"]
    # no 2:1 and no 3:1 for the other types
    assert rules(adjudicate(client, st, maritime({"ore": 2}, {"brick": 1}))) == ["BASE-TRADE-6"]
    assert rules(adjudicate(client, st, maritime({"ore": 3}, {"brick": 1}))) == ["BASE-TRADE-6"]


def test_maritime_trade_repeats_only_for_the_active_player_and_only_from_a_stocked_bank_BASE_TRADE_9(client):
    """Maritime trade repeats only for the active player and only from a stocked bank (BASE-TRADE-9)."""
    st = state(radius_board(2), hands={0: hand(wool=8), 1: hand(ore=4, grain=19)})
    v = adjudicate(client, st, maritime({"wool": 4}, {"ore": 1}))
    v = adjudicate(client, v["state"], maritime({"wool": 4}, {"ore": 1}))
    assert v["legal"] and res(v, 0) == hand(ore=2)
    assert rules(adjudicate(client, st, maritime({"ore": 4}, {"wool": 1}, player=1))) == ["BASE-TRADE-9"]
    assert rules(adjudicate(client, st, maritime({"wool": 4}, {"grain": 1}))) == ["BASE-TRADE-9"]  # bank has none


def test_a_harbour_serves_in_the_turn_its_settlement_is_built_BASE_TRADE_10(client):
    """A harbour serves in the turn its settlement is built (BASE-TRADE-10)."""
    st = state(harbour_board(), hands={0: hand(brick=1, lumber=1, wool=1, grain=4)}, roads=[(0, HARBOUR_EDGE)],
               harbors=[(HARBOUR_EDGE, "3:1")])
    assert rules(adjudicate(client, st, maritime({"grain": 3}, {"ore": 1}))) == ["BASE-TRADE-6"]
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": list(ON_HARBOUR)})
    assert v["legal"], v["violations"]
    v = adjudicate(client, v["state"], maritime({"grain": 3}, {"ore": 1}))
    assert v["legal"], v["violations"]
    assert res(v, 0) == hand(ore=1)


def test_strict_phases_forbid_trading_after_building_or_buying_BASE_TURN_4(client):
    """BASE-VAR-STRICT-PHASES: the rulebook's fixed order (trade, then build) as an option (BASE-TURN-4)."""
    opts = {"BASE-VAR-STRICT-PHASES": True}
    st = state(harbour_board(), hands={0: hand(brick=2, lumber=2, wool=5, grain=5, ore=1), 1: hand(ore=2)},
               roads=[(0, HARBOUR_EDGE)], harbors=[(HARBOUR_EDGE, "3:1")], options=opts)
    # trade first, then build: fine
    v = adjudicate(client, st, domestic({"wool": 1}, {"ore": 1}))
    assert v["legal"]
    v = adjudicate(client, v["state"], {"type": "build_settlement", "player": 0, "node": list(ON_HARBOUR)})
    assert v["legal"] and v["state"]["turn_flags"]["built"] is True
    built = v["state"]
    # after a build no trade of either kind, even on the harbour just built (BASE-TRADE-10)
    assert rules(adjudicate(client, built, maritime({"grain": 3}, {"ore": 1}))) == ["BASE-VAR-STRICT-PHASES"]
    assert rules(adjudicate(client, built, domestic({"wool": 1}, {"ore": 1}))) == ["BASE-VAR-STRICT-PHASES"]
    # building more is still fine, and buying a card counts as building
    assert adjudicate(client, built, {"type": "build_road", "player": 0, "edge": [1, -1, "E"]})["legal"]
    bought = adjudicate(client, st, {"type": "buy_development_card", "player": 0})
    assert rules(adjudicate(client, bought["state"], domestic({"wool": 1}, {"ore": 1}))) == ["BASE-VAR-STRICT-PHASES"]
    # the next turn starts afresh
    nxt = adjudicate(client, built, {"type": "end_turn", "player": 0})["state"]
    assert nxt["turn_flags"]["built"] is False


def test_edition_variants_are_off_by_default_so_trade_follows_a_build_BASE_TURN_3(client):
    """Variants (BASE-VAR) and edition differences (BASE-ED) apply only when the state's options name them (BASE-TURN-3)."""
    st = state(harbour_board(), hands={0: hand(brick=1, lumber=1, wool=1, grain=4)}, roads=[(0, HARBOUR_EDGE)],
               harbors=[(HARBOUR_EDGE, "3:1")])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": list(ON_HARBOUR)})
    assert v["state"]["options"] == {}
    assert adjudicate(client, v["state"], maritime({"grain": 3}, {"ore": 1}))["legal"]
