"""Development cards (BASE-DEV-1..10) and Largest Army (BASE-LA-1..3)."""
from __future__ import annotations

from tests.helpers import adjudicate, hand, radius_board, rules, state

DEV_COST = hand(wool=1, grain=1, ore=1)


def with_cards(st, player, held=None, new=None, played=None, flags=None):
    p = st["players"][player]
    if held:
        p["dev_cards"] = held
    if new:
        p["dev_cards_new"] = new
    if played:
        p["dev_cards_played"] = played
    if flags:
        st["turn_flags"] = flags
    return st


def res(v, p):
    return v["state"]["players"][p]["resources"]


def test_buying_pays_the_cost_and_takes_a_hidden_card_from_the_deck_BASE_DEV_1(client):
    """Buying pays the cost and takes a hidden card from the deck (BASE-DEV-1); a card the deck no longer
    holds is not drawn (BASE-COMP-3)."""
    st = state(radius_board(2), hands={0: hand(wool=1, grain=1, ore=2)}, rng={"seed": 5, "counter": 0})
    v = adjudicate(client, st, {"type": "buy_development_card", "player": 0})
    assert v["legal"]
    assert res(v, 0) == hand(ore=1)
    card = next(e for e in v["events"] if e["type"] == "bought_development_card")["card"]
    assert v["state"]["players"][0]["dev_cards_new"][card] == 1
    assert sum(v["state"]["dev_deck"].values()) == 24
    chosen = adjudicate(client, st, {"type": "buy_development_card", "player": 0, "card": "monopoly"})
    assert chosen["state"]["dev_deck"]["monopoly"] == 1
    gone = with_cards(state(radius_board(2), hands={0: hand(wool=1, grain=1, ore=2)}), 1, held={"monopoly": 2})
    v = adjudicate(client, gone, {"type": "buy_development_card", "player": 0, "card": "monopoly"})
    assert rules(v) == ["BASE-COMP-3"] and "holds no monopoly" in v["violations"][0]["message"]   # BASE-COMP-3
    assert rules(adjudicate(client, state(radius_board(2), hands={0: hand(wool=1, grain=1)}),
                            {"type": "buy_development_card", "player": 0})) == ["BASE-DEV-1"]
    other = state(radius_board(2), current=1, hands={0: DEV_COST})
    assert rules(adjudicate(client, other, {"type": "buy_development_card", "player": 0})) == ["BASE-DEV-1"]


def test_one_development_card_per_turn_at_any_time_even_before_the_roll_BASE_DEV_2(client):
    """One development card per turn at any time even before the roll (BASE-DEV-2)."""
    st = with_cards(state(radius_board(2), phase="roll"), 0, held={"year_of_plenty": 1, "monopoly": 1})
    v = adjudicate(client, st, {"type": "play_year_of_plenty", "player": 0, "resources": {"ore": 2}})
    assert v["legal"] and v["state"]["phase"] == "roll" and res(v, 0) == hand(ore=2)
    second = adjudicate(client, v["state"], {"type": "play_monopoly", "player": 0, "resource": "ore"})
    assert rules(second) == ["BASE-DEV-2"]
    rolled = adjudicate(client, v["state"], {"type": "roll", "player": 0, "dice": [1, 1]})
    assert rules(adjudicate(client, rolled["state"], {"type": "play_monopoly", "player": 0, "resource": "ore"})) \
        == ["BASE-DEV-2"]
    nxt = adjudicate(client, rolled["state"], {"type": "end_turn", "player": 0})["state"]
    assert nxt["turn_flags"]["dev_card_played"] is False


def test_no_development_card_in_another_players_turn_BASE_DEV_3(client):
    """No development card in another players turn (BASE-DEV-3)."""
    st = with_cards(state(radius_board(2), current=1, robber=[1, 0]), 0, held={"knight": 1, "monopoly": 1})
    assert rules(adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [0, 0]})) == ["BASE-DEV-3"]
    assert rules(adjudicate(client, st, {"type": "play_monopoly", "player": 0, "resource": "ore"})) == ["BASE-DEV-3"]
    st["current_player"] = 0
    assert adjudicate(client, st, {"type": "play_monopoly", "player": 0, "resource": "ore"})["legal"]


def test_a_card_bought_this_turn_is_played_from_the_next_turn_on_BASE_DEV_4(client):
    """A card bought this turn is played from the next turn on (BASE-DEV-4)."""
    st = state(radius_board(2), hands={0: DEV_COST}, robber=[1, 0])
    v = adjudicate(client, st, {"type": "buy_development_card", "player": 0, "card": "knight"})
    bought = v["state"]
    assert rules(adjudicate(client, bought, {"type": "play_knight", "player": 0, "hex": [0, 0]})) == ["BASE-DEV-4"]
    # a full round later the card is playable
    s = adjudicate(client, bought, {"type": "end_turn", "player": 0})["state"]
    assert s["players"][0]["dev_cards"]["knight"] == 1 and s["players"][0]["dev_cards_new"]["knight"] == 0
    for p in (1, 2):
        s = adjudicate(client, s, {"type": "roll", "player": p, "dice": [1, 2]})["state"]
        s = adjudicate(client, s, {"type": "end_turn", "player": p})["state"]
    v = adjudicate(client, s, {"type": "play_knight", "player": 0, "hex": [0, 0]})
    assert v["legal"], v["violations"]


def test_a_knight_moves_the_robber_steals_and_stays_face_up_BASE_DEV_5(client):
    """A knight moves the robber steals and stays face up (BASE-DEV-5)."""
    st = with_cards(state(radius_board(2), robber=[1, 0], hands={1: hand(brick=1)},
                          settlements=[(1, (0, 0, "N"))]), 0, held={"knight": 2})
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [0, 0], "steal_from": 1})
    assert v["legal"]
    p0 = v["state"]["players"][0]
    assert p0["dev_cards"]["knight"] == 1 and p0["dev_cards_played"]["knight"] == 1
    assert v["state"]["robber"] == [0, 0] and res(v, 0) == hand(brick=1)
    assert v["derived"]["largest_army"]["knights"]["0"] == 1
    assert rules(adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [1, 0]})) == ["BASE-ROBBER-3"]
    assert rules(adjudicate(client, with_cards(state(radius_board(2), robber=[1, 0]), 0),
                            {"type": "play_knight", "player": 0, "hex": [0, 0]})) == ["BASE-DEV-5"]


def test_road_building_places_two_free_roads_the_first_anchoring_the_second_BASE_DEV_6(client):
    """Road building places two free roads the first anchoring the second (BASE-DEV-6)."""
    st = with_cards(state(radius_board(2), settlements=[(0, (0, 0, "N"))]), 0, held={"road_building": 1})
    pieces = [{"kind": "road", "edge": [0, 0, "NE"]}, {"kind": "road", "edge": [1, -1, "SE"]}]
    v = adjudicate(client, st, {"type": "play_road_building", "player": 0, "pieces": pieces})
    assert v["legal"], v["violations"]
    assert len(v["state"]["pieces"]["roads"]) == 2 and res(v, 0) == hand()
    assert v["state"]["players"][0]["supply"]["roads"] == 13
    # the second road must still be placeable (here it touches nothing of player 0's)
    bad = [{"kind": "road", "edge": [0, 0, "NE"]}, {"kind": "road", "edge": [-2, 2, "NE"]}]
    assert rules(adjudicate(client, st, {"type": "play_road_building", "player": 0, "pieces": bad})) \
        == ["BASE-BUILD-4"]
    one = adjudicate(client, st, {"type": "play_road_building", "player": 0, "pieces": pieces[:1]})
    assert rules(one) == ["BASE-DEV-6"]                                  # 2 roads while the supply has them
    ship = adjudicate(client, st, {"type": "play_road_building", "player": 0,
                                   "pieces": [pieces[0], {"kind": "ship", "edge": [1, -1, "SE"]}]})
    assert rules(ship) == ["BASE-DEV-6"] and "no ships" in ship["violations"][0]["message"]


def test_road_building_with_one_road_left_places_one_and_with_none_is_refused_BASE_DEV_6(client):
    """Road building with one road left places one and with none is refused (BASE-DEV-6)."""
    far = [(-2, 2, "NE"), (-2, 2, "E"), (-1, 2, "NE"), (-1, 2, "E"), (0, 2, "NE"), (-2, 1, "SE"), (-1, 1, "SE"),
           (0, 1, "SE"), (1, 0, "SE"), (2, -1, "SE"), (2, -2, "SE"), (2, -2, "E"), (-2, 0, "SE"), (-2, 1, "NE")]
    st = with_cards(state(radius_board(2), settlements=[(0, (0, 0, "N"))], roads=[(0, e) for e in far]),
                    0, held={"road_building": 1})
    assert st["pieces"]["roads"] and len(far) == 14
    v = adjudicate(client, st, {"type": "play_road_building", "player": 0,
                                "pieces": [{"kind": "road", "edge": [0, 0, "NE"]}]})
    assert v["legal"], v["violations"]
    st["pieces"]["roads"].append({"player": 0, "edge": [0, -1, "SE"]})
    v = adjudicate(client, st, {"type": "play_road_building", "player": 0,
                                "pieces": [{"kind": "road", "edge": [0, 0, "NE"]}]})
    assert rules(v) == ["BASE-DEV-6"]


def test_road_building_with_one_road_left_names_one_piece_not_two_BASE_DEV_6(client):
    """Road building with one road left in supply places that one: two pieces named are refused by the card's
    count (BASE-DEV-6), though both edges are free and the first anchors the second."""
    far = [(-2, 2, "NE"), (-2, 2, "E"), (-1, 2, "NE"), (-1, 2, "E"), (0, 2, "NE"), (-2, 1, "SE"), (-1, 1, "SE"),
           (0, 1, "SE"), (1, 0, "SE"), (2, -1, "SE"), (2, -2, "SE"), (2, -2, "E"), (-2, 0, "SE"), (-2, 1, "NE")]
    st = with_cards(state(radius_board(2), settlements=[(0, (0, 0, "N"))], roads=[(0, e) for e in far]),
                    0, held={"road_building": 1})
    two = [{"kind": "road", "edge": [0, 0, "NE"]}, {"kind": "road", "edge": [0, 0, "E"]}]
    v = adjudicate(client, st, {"type": "play_road_building", "player": 0, "pieces": two})
    assert not v["legal"] and rules(v) == ["BASE-DEV-6"] and v["violations"][0]["path"] == "/action/pieces"
    assert "places 1 piece" in v["violations"][0]["message"]

def test_year_of_plenty_takes_two_cards_the_bank_holds_BASE_DEV_7(client):
    """Year of plenty takes two cards the bank holds (BASE-DEV-7)."""
    st = with_cards(state(radius_board(2)), 0, held={"year_of_plenty": 1})
    v = adjudicate(client, st, {"type": "play_year_of_plenty", "player": 0, "resources": {"wool": 1, "ore": 1}})
    assert v["legal"] and res(v, 0) == hand(wool=1, ore=1)
    assert rules(adjudicate(client, st, {"type": "play_year_of_plenty", "player": 0, "resources": {"ore": 3}})) \
        == ["BASE-DEV-7"]
    # the bank has no ore: choose another type
    st["players"][1]["resources"] = hand(ore=19)
    assert rules(adjudicate(client, st, {"type": "play_year_of_plenty", "player": 0, "resources": {"ore": 2}})) \
        == ["BASE-DEV-7"]
    # one card left in the whole bank: take that one
    st["players"][1]["resources"] = hand(ore=19, wool=19, grain=19, brick=19, lumber=18)
    v = adjudicate(client, st, {"type": "play_year_of_plenty", "player": 0, "resources": {"lumber": 1}})
    assert v["legal"] and res(v, 0) == hand(lumber=1)


def test_monopoly_takes_every_card_of_the_named_type_from_the_others_BASE_DEV_8(client):
    """Monopoly takes every card of the named type from the others (BASE-DEV-8)."""
    st = with_cards(state(radius_board(2), hands={0: hand(ore=1), 1: hand(ore=3, wool=1), 2: hand(ore=2)}),
                    0, held={"monopoly": 1})
    v = adjudicate(client, st, {"type": "play_monopoly", "player": 0, "resource": "ore"})
    assert v["legal"]
    assert res(v, 0) == hand(ore=6) and res(v, 1) == hand(wool=1) and res(v, 2) == hand()


def test_victory_point_cards_count_hidden_and_win_even_in_the_turn_bought_BASE_DEV_9(client):
    """Victory point cards count hidden and win even in the turn bought (BASE-DEV-9)."""
    cities = [(0, n) for n in [(-2, 2, "S"), (2, 0, "S"), (2, -2, "N"), (-2, 0, "N")]]
    st = with_cards(state(radius_board(2), hands={0: DEV_COST}, cities=cities, settlements=[(0, (0, 0, "N"))]),
                    0, held={"knight": 1}, played={"knight": 1}, flags={"dev_card_played": True})
    assert adjudicate(client, st, None)["derived"]["victory_points"]["0"]["total"] == 9
    # a knight was already played this turn: a VP card is not "played" and still counts at once
    v = adjudicate(client, st, {"type": "buy_development_card", "player": 0, "card": "victory_point"})
    assert v["legal"]
    assert v["derived"]["victory_points"]["0"]["victory_point_cards"] == 1
    assert v["state"]["winner"] == 0
    other = adjudicate(client, st, {"type": "buy_development_card", "player": 0, "card": "monopoly"})
    assert other["state"]["winner"] is None


def test_playing_a_development_card_is_never_forced_BASE_DEV_10(client):
    """Playing a development card is never forced (BASE-DEV-10)."""
    st = with_cards(state(radius_board(2)), 0, held={"knight": 2, "monopoly": 1}, new={"road_building": 1})
    v = adjudicate(client, st, {"type": "end_turn", "player": 0})
    assert v["legal"]
    p0 = v["state"]["players"][0]
    assert p0["dev_cards"] == {"knight": 2, "road_building": 1, "year_of_plenty": 0, "monopoly": 1,
                               "victory_point": 0}


# -- BASE-LA-1..3 --------------------------------------------------------------------------------------------------

def knight(client, st, player, hex_):
    return adjudicate(client, st, {"type": "play_knight", "player": player, "hex": hex_})


def test_the_third_played_knight_takes_largest_army_BASE_LA_1(client):
    """The third played knight takes largest army (BASE-LA-1)."""
    st = with_cards(state(radius_board(2), robber=[1, 0]), 0, held={"knight": 5}, played={"knight": 1})
    v = knight(client, st, 0, [0, 0])
    assert v["state"]["awards"]["largest_army"] is None                       # 2 played
    st = with_cards(state(radius_board(2), robber=[1, 0]), 0, held={"knight": 5}, played={"knight": 2})
    v = knight(client, st, 0, [0, 0])
    assert v["state"]["awards"]["largest_army"] == 0
    assert {"type": "award", "award": "largest_army", "from": None, "to": 0} in v["events"]
    assert v["derived"]["victory_points"]["0"]["largest_army"] == 2


def test_knights_in_hand_do_not_count_only_strictly_more_played_takes_it_BASE_LA_2_BASE_LA_3(client):
    """Knights in hand do not count only strictly more played takes it (BASE-LA-2, BASE-LA-3)."""
    st = with_cards(state(radius_board(2), current=1, robber=[1, 0], awards={"largest_army": 0}), 0,
                    played={"knight": 3})
    with_cards(st, 1, held={"knight": 6}, played={"knight": 2})
    v = knight(client, st, 1, [0, 0])                                         # 3 ties 3: the holder keeps it
    assert v["legal"] and v["state"]["awards"]["largest_army"] == 0
    s = v["state"]
    s["turn_flags"]["dev_card_played"] = False                                 # player 1's next turn
    v = knight(client, s, 1, [1, 0])                                          # 4 beats 3
    assert v["legal"] and v["state"]["awards"]["largest_army"] == 1
    assert {"type": "award", "award": "largest_army", "from": 0, "to": 1} in v["events"]
    # the former holder keeps its 3 played knights; the card left only by being exceeded
    assert v["derived"]["largest_army"]["knights"] == {"0": 3, "1": 4, "2": 0}
    nxt = adjudicate(client, v["state"], {"type": "end_turn", "player": 1})
    assert nxt["state"]["awards"]["largest_army"] == 1


def test_card_moves_leave_the_posted_engine_state_as_it_was_BASE_DEV_4():
    """A state and its copies share a player's card counts (``Player.copy``): buying (BASE-DEV-1), playing
    (BASE-DEV-5) and the end of the turn (BASE-DEV-4: bought cards become playable) give the new state
    dicts of its own and leave the posted one, compared field by field, untouched."""
    import copy as _copy

    from service.engine.core import Action
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate as judge
    from service.engine.scenarios import get_scenario
    scen = get_scenario("base")
    s0 = scen.new_game(3, 4)
    g = MapGraph.build(s0.terrain_map())
    s0.phase, s0.turn, s0.flags.rolled = "main", 9, True
    p = s0.players[0]
    p.resources.update(ore=1, wool=1, grain=1)
    p.dev_cards["knight"] = 1
    s0.dev_deck["knight"] -= 1
    s0.bank.update({r: s0.bank[r] - n for r, n in (("ore", 1), ("wool", 1), ("grain", 1))})
    cards = lambda s: [_copy.deepcopy((q.dev_cards, q.dev_cards_new, q.dev_cards_played)) for q in s.players]
    s = s0
    for a in (Action("buy_development_card", 0, {"card": "monopoly"}),
              Action("play_knight", 0, {"hex": next(h for h in s0.hexes if h != s0.robber
                                                     and s0.hexes[h].terrain not in ("sea", "frame")),
                                        "steal_from": None}),
              Action("end_turn", 0, {})):
        before = cards(s)
        v = judge(s, a, g, scen)
        assert v.legal, (a.type, v.violations)
        assert cards(s) == before, a.type                  # the posted state is as it was
        s = v.state
    assert s.players[0].dev_cards == {**s0.players[0].dev_cards, "knight": 0, "monopoly": 1}
    assert s.players[0].dev_cards_played["knight"] == 1 and s0.players[0].dev_cards_played["knight"] == 0
