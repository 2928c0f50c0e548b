"""Cities & Knights progress cards (CK-PROG-*): each card's rules through POST /v1/adjudicate."""
from __future__ import annotations

import copy

from .ck_util import (E_N_NE, E_NE_SE, E_NW_N, E_S_SW, E_SE_S, E_SW_NW, NE, NW, SE, SW, N, S, act, ck, ckof, hand,
                      knight, position, post, rules, with_cards, with_commodities)


def play(client, st, card, player=0, **kw):
    return post(client, st, act("play_progress", player, card=card, **kw))


def holding(*cards, p=0, c=None, **kw):
    return position(ck_state=with_cards(c or ck(), p, *cards), **kw)


def test_play_rules(client):
    """CK-PROG-3: cards are played in one's own turn after the roll, only when held; CK-PROG-6: under
    their deck; CK-DICE-1: nothing but the Alchemist before the roll."""
    st = holding("warlord", c=ck(knights=[knight(0, NE)]))
    v = play(client, st, "warlord")
    assert v["legal"] and ckof(v)["decks"]["politics"]["warlord"] == 2 and ckof(v)["hands"]["0"] == {}
    before = holding("warlord", c=ck(knights=[knight(0, NE)]), phase="roll")
    r = play(client, before, "warlord")
    assert not r["legal"] and rules(r) == ["CK-PROG-3"]
    other = play(client, holding("warlord", p=1, c=ck(knights=[knight(1, SW)])), "warlord", player=1)
    assert not other["legal"] and rules(other) == ["CK-PROG-3"]
    none = play(client, position(), "warlord")
    assert not none["legal"] and rules(none) == ["CK-PROG-3"]
    kn = post(client, position(phase="roll"), act("build_knight", node=list(NE)))
    assert not kn["legal"] and rules(kn) == ["CK-DICE-1"]


def test_alchemist(client):
    """CK-PROG-S1, CK-DICE-1/2: played with the roll, the dice chosen, the event die rolled; not after."""
    st = holding("alchemist", phase="roll")
    v = post(client, st, act("roll", dice=[3, 3], alchemist=True, event="trade"))
    assert v["legal"] and v["state"]["last_roll"] == [3, 3] and ckof(v)["decks"]["science"]["alchemist"] == 2
    late = play(client, holding("alchemist"), "alchemist")
    assert not late["legal"] and rules(late) == ["CK-PROG-S1"]
    nodice = post(client, st, act("roll", alchemist=True))
    assert not nodice["legal"] and rules(nodice) == ["CK-PROG-S1"]


def test_crane(client):
    """CK-PROG-S2: the next improvement costs one commodity less (level 1 free)."""
    st = holding("crane")
    v = play(client, st, "crane")
    v2 = post(client, v["state"], act("improve_city", track="trade"))
    assert v2["legal"] and ckof(v2)["improvements"]["0"]["trade"] == 1


def test_engineer(client):
    """CK-PROG-S3: a free city wall under one of your cities; CK-WALL-1: not under an opponent's city, and
    not a fourth wall."""
    v = play(client, holding("engineer"), "engineer", node=list(N))
    assert v["legal"] and ckof(v)["walls"] == [list(N)]
    bad = play(client, holding("engineer"), "engineer", node=list(S))
    assert not bad["legal"] and rules(bad) == ["CK-WALL-1"]
    four = holding("engineer", c=ck(walls=[list(N), list(SE), list(SW)]),
                   cities=((0, N), (0, SE), (0, SW), (0, (1, -1, "N")), (1, (-1, 0, "N"))))
    v = play(client, four, "engineer", node=[1, -1, "N"])
    assert not v["legal"] and rules(v) == ["CK-WALL-1"] and "at most 3" in v["violations"][0]["message"]


def test_inventor(client):
    """CK-PROG-S4: two number tokens swap; 2, 12, 6 and 8 may not be chosen."""
    v = play(client, holding("inventor"), "inventor", hexes=[[0, 1], [1, 0]])
    assert v["legal"]
    nums = {(h["q"], h["r"]): h["number"] for h in v["state"]["board"]["hexes"]}
    assert nums[(0, 1)] == 5 and nums[(1, 0)] == 9
    bad = play(client, holding("inventor"), "inventor", hexes=[[0, 0], [1, 0]])
    assert not bad["legal"] and rules(bad) == ["CK-PROG-S4"]


def test_irrigation_and_mining(client):
    """CK-PROG-S5: 2 grain per fields hex touching your buildings (each hex once); CK-PROG-S7: 2 ore per
    mountains hex; CK-PROG-10: not playable with no such hex."""
    v = play(client, holding("irrigation"), "irrigation")
    assert v["state"]["players"][0]["resources"]["grain"] == 2          # N touches fields (1,-1) only
    v = play(client, holding("mining"), "mining")
    assert v["state"]["players"][0]["resources"]["ore"] == 2            # N touches mountains (0,-1)
    none = play(client, holding("mining", p=1, current=1), "mining", player=1)
    assert not none["legal"] and rules(none) == ["CK-PROG-10"]


def test_medicine(client):
    """CK-PROG-S6: a settlement becomes a city for 2 ore + 1 grain."""
    st = holding("medicine", cities=((1, S),), settlements=((0, N),), hands={0: hand(ore=2, grain=1)})
    v = play(client, st, "medicine", node=list(N))
    assert v["legal"] and any(c["node"] == list(N) and c["player"] == 0 for c in v["state"]["pieces"]["cities"])
    assert v["state"]["players"][0]["resources"]["ore"] == 0
    poor = holding("medicine", cities=((1, S),), settlements=((0, N),), hands={0: hand(ore=1, grain=1)})
    r = play(client, poor, "medicine", node=list(N))
    assert not r["legal"] and rules(r) == ["CK-PROG-S6"]


def test_printer_constitution_revealed(client):
    """CK-PROG-4, CK-PROG-S8, CK-PROG-P2: VP cards are face up, worth 1 VP each, never played."""
    st = holding("printer", "constitution")
    v = post(client, st, None)
    assert v["derived"]["victory_points"]["0"]["progress_vp"] == 2
    r = play(client, st, "printer")
    assert not r["legal"] and rules(r) == ["CK-PROG-3"]


def test_road_building(client):
    """CK-PROG-S9: two roads free, one after the other."""
    v = play(client, holding("road_building"), "road_building",
             pieces=[{"kind": "road", "edge": list(E_SE_S)}, {"kind": "road", "edge": [0, 1, "NE"]}])
    assert v["legal"] and v["state"]["players"][0]["supply"]["roads"] == 11
    bad = play(client, holding("road_building"), "road_building",
               pieces=[{"kind": "road", "edge": list(E_SE_S)}])
    assert not bad["legal"] and rules(bad) == ["CK-PROG-S9"]


def test_smith(client):
    """CK-PROG-S10: up to 2 knights promoted free; the Fortress still needed for mighty."""
    c = ck(knights=[knight(0, NE, 1), knight(0, SE, 2)])
    v = play(client, holding("smith", c=c), "smith", nodes=[list(NE)])
    assert v["legal"] and ckof(v)["knights"][0]["level"] == 2
    r = play(client, holding("smith", c=c), "smith", nodes=[list(NE), list(SE)])
    assert not r["legal"] and rules(r) == ["CK-KNIGHT-4"]


def test_bishop(client):
    """CK-PROG-P1: the robber moves and each player with a building there loses a random card; not
    before the first attack (CK-SEVEN-6)."""
    c = with_commodities(ck(attacks=1), 1, coin=1)
    st = holding("bishop", c=c)
    v = play(client, st, "bishop", hex=[0, 1])                   # pasture (0,1): player 1's S
    assert v["legal"] and v["state"]["robber"] == [0, 1] and ckof(v)["commodities"]["0"]["coin"] == 1
    asleep = holding("bishop")
    r = play(client, asleep, "bishop", hex=[0, 1])
    assert not r["legal"] and rules(r) == ["CK-SEVEN-6"]


def test_deserter(client):
    """CK-PROG-P3: the opponent removes a knight of their choice; you place one of its strength and status
    (a lower one when none is left)."""
    c = ck(knights=[knight(1, SW, 2, True)])
    st = holding("deserter", c=c)
    v = play(client, st, "deserter", target=1, removed=list(SW), node=list(NE))
    assert v["legal"]
    ks = ckof(v)["knights"]
    assert ks == [knight(0, NE, 2, True)]
    miss = play(client, st, "deserter", target=1)
    assert not miss["legal"] and rules(miss) == ["CK-PROG-P3"]
    c2 = copy.deepcopy(c)
    c2["knights"] += [knight(0, (1, -1, "N"), 2), knight(0, (1, 0, "N"), 2)]
    st2 = holding("deserter", c=c2, roads=((0, E_N_NE), (0, E_NE_SE), (0, (1, -1, "SE")), (1, E_S_SW),
                                            (0, (1, -1, "NE"))))
    v2 = play(client, st2, "deserter", target=1, removed=list(SW), node=list(SE))
    assert v2["legal"] and [k["level"] for k in ckof(v2)["knights"] if tuple(k["node"]) == SE] == [1]


def test_diplomat(client):
    """CK-PROG-P4: an open road of any player is removed; an own road may be placed again."""
    st = holding("diplomat")
    v = play(client, st, "diplomat", edge=list(E_SW_NW))
    assert v["legal"] and all(r["edge"] != list(E_SW_NW) for r in v["state"]["pieces"]["roads"])
    closed = play(client, holding("diplomat", roads=((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S), (1, E_S_SW))),
                  "diplomat", edge=list(E_NE_SE))
    assert not closed["legal"] and rules(closed) == ["CK-PROG-P4"]
    own = play(client, st, "diplomat", edge=list(E_NE_SE), replace=list(E_NW_N))
    assert own["legal"] and any(r["edge"] == list(E_NW_N) for r in own["state"]["pieces"]["roads"])


def test_intrigue(client):
    """CK-PROG-P5: an opponent's knight touched by your road is displaced, whatever its strength."""
    c = ck(knights=[knight(1, SE, 3, True)])
    st = holding("intrigue", c=c, roads=((0, E_N_NE), (0, E_NE_SE), (1, E_SE_S), (1, E_S_SW)))
    v = play(client, st, "intrigue", node=list(SE))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-7"]
    v = play(client, st, "intrigue", node=list(SE), retreat=list(SW))
    assert v["legal"] and ckof(v)["knights"] == [knight(1, SW, 3, True)]
    far = play(client, holding("intrigue", c=ck(knights=[knight(1, NW)])), "intrigue", node=list(NW))
    assert not far["legal"] and rules(far) == ["CK-PROG-P5"]


def test_saboteur(client):
    """CK-PROG-P6: each player with as many VP or more discards half their cards (their choice)."""
    st = holding("saboteur", hands={1: hand(ore=3), 2: hand(grain=1)})
    v = play(client, st, "saboteur")
    assert not v["legal"] and rules(v) == ["CK-PROG-P6"]
    v = play(client, st, "saboteur", cards={"1": {"ore": 1}})
    assert v["legal"] and v["state"]["players"][1]["resources"]["ore"] == 2


def test_spy(client):
    """CK-PROG-P7: take one progress card of an opponent, never a VP card."""
    c = with_cards(ck(), 1, "warlord")
    st = holding("spy", c=c)
    v = play(client, st, "spy", target=1, progress="warlord")
    assert v["legal"] and ckof(v)["hands"]["0"] == {"warlord": 1} and ckof(v)["hands"]["1"] == {}
    r = play(client, holding("spy"), "spy", target=1, progress="warlord")
    assert not r["legal"] and rules(r) == ["CK-PROG-10"]


def test_warlord(client):
    """CK-PROG-P8: every own knight active, free."""
    v = play(client, holding("warlord", c=ck(knights=[knight(0, NE), knight(0, SE, 2)])), "warlord")
    assert all(k["active"] for k in ckof(v)["knights"])


def test_wedding(client):
    """CK-PROG-P9: each player with more VP gives 2 cards of their choice."""
    st = holding("wedding", cities=((0, N), (1, S), (1, (1, 0, "N"))), hands={1: hand(ore=1, grain=2)},
                 roads=((0, E_N_NE), (1, E_S_SW), (1, (1, 0, "NE"))))
    v = play(client, st, "wedding", cards={"1": {"grain": 2}})
    assert v["legal"] and v["state"]["players"][0]["resources"]["grain"] == 2
    r = play(client, st, "wedding", cards={"1": {"grain": 1}})
    assert not r["legal"] and rules(r) == ["CK-PROG-P9"]


def test_commercial_harbor(client):
    """CK-PROG-T1: a resource offered to each opponent comes back as a commodity of their choice; one with
    none gives nothing and the trade is void; once per opponent per turn."""
    c = with_commodities(ck(), 1, cloth=1)
    st = holding("commercial_harbor", "commercial_harbor", c=c, hands={0: hand(ore=2)})
    v = play(client, st, "commercial_harbor", offers={"1": {"give": "ore", "get": "cloth"}, "2": {"give": "ore",
                                                                                                   "get": None}})
    assert v["legal"]
    assert ckof(v)["commodities"]["0"]["cloth"] == 1 and v["state"]["players"][0]["resources"]["ore"] == 1
    again = play(client, v["state"], "commercial_harbor", offers={"1": {"give": "ore", "get": None}})
    assert not again["legal"] and rules(again) == ["CK-PROG-T1"]


def test_master_merchant(client):
    """CK-PROG-T2: from an opponent with more VP, take any 2 resources or commodities."""
    c = with_commodities(ck(), 1, coin=1)
    st = holding("master_merchant", c=c, cities=((0, N), (1, S), (1, (1, 0, "N"))), hands={1: hand(ore=1)},
                 roads=((0, E_N_NE), (1, E_S_SW), (1, (1, 0, "NE"))))
    v = play(client, st, "master_merchant", target=1, take={"ore": 1, "coin": 1})
    assert v["legal"] and ckof(v)["commodities"]["0"]["coin"] == 1
    r = play(client, st, "master_merchant", target=2, take={"ore": 1})
    assert not r["legal"] and rules(r) == ["CK-PROG-T2"]


def test_merchant(client):
    """CK-PROG-T3: the merchant on a hex touching your building: 2:1 for its resource and 1 VP; another
    player's Merchant takes it over."""
    st = holding("merchant", hands={0: hand(lumber=2)})
    v = play(client, st, "merchant", hex=[0, 0])
    assert v["legal"] and v["derived"]["victory_points"]["0"]["merchant"] == 1
    t = post(client, v["state"], act("maritime_trade", give={"lumber": 2}, get={"ore": 1}))
    assert t["legal"]
    far = play(client, st, "merchant", hex=[0, 1])
    assert not far["legal"] and rules(far) == ["CK-PROG-T3"]


def test_merchant_fleet(client):
    """CK-PROG-T4: one named card trades 2:1 for the rest of the turn."""
    st = holding("merchant_fleet", hands={0: hand(wool=2)})
    v = play(client, st, "merchant_fleet", kind="wool")
    t = post(client, v["state"], act("maritime_trade", give={"wool": 2}, get={"ore": 1}))
    assert t["legal"]


def test_monopolies(client):
    """CK-PROG-T5: each opponent gives 2 of a resource (all if fewer); CK-PROG-T6: 1 of a commodity."""
    st = holding("resource_monopoly", hands={1: hand(ore=3), 2: hand(ore=1)})
    v = play(client, st, "resource_monopoly", resource="ore")
    assert v["state"]["players"][0]["resources"]["ore"] == 3
    c = with_commodities(with_commodities(ck(), 1, coin=2), 2, coin=1)
    v = play(client, holding("trade_monopoly", c=c), "trade_monopoly", commodity="coin")
    assert ckof(v)["commodities"]["0"]["coin"] == 2


def test_merchant_not_on_gold(client):
    """CK-SEA-4: the merchant never stands on a gold field."""
    from .ck_util import board
    st = holding("merchant", brd=board({(0, 0): ("gold", 6)}), scenario="seafarers")
    v = play(client, st, "merchant", hex=[0, 0])
    assert not v["legal"] and rules(v) == ["CK-SEA-4"]


def test_deserter_fallback_option(client):
    """CK-PROG-P3: the option deserter_fallback "basic" places a basic knight when the strength is gone."""
    c = ck(knights=[knight(1, SW, 3, True), knight(0, (1, -1, "N"), 3), knight(0, (1, 0, "N"), 3)])
    st = holding("deserter", c=c, roads=((0, E_N_NE), (0, E_NE_SE), (0, (1, -1, "SE")), (0, (1, -1, "NE")),
                                          (1, E_S_SW)), options={"deserter_fallback": "basic"})
    v = play(client, st, "deserter", target=1, removed=list(SW), node=list(SE))
    assert v["legal"] and [k["level"] for k in ckof(v)["knights"] if tuple(k["node"]) == SE] == [1]
    st["options"]["deserter_fallback"] = "lower"
    v = play(client, st, "deserter", target=1, removed=list(SW), node=list(SE))
    assert v["legal"] and [k["level"] for k in ckof(v)["knights"] if tuple(k["node"]) == SE] == [2]


def test_a_field_of_another_card_is_refused(client):
    """CK-PROG-T4, CK-PROG-P1, CK-PROG-T5: a card reads only its own parameters; one of another card given beside
    them (a Master Merchant's take with a Merchant Fleet, a Spy's target with a Bishop, a hex with a
    monopoly) means nothing and is refused naming it, as the legal list never gives that form."""
    st = holding("merchant_fleet", hands={0: hand(wool=2)})
    assert play(client, st, "merchant_fleet", kind="wool")["legal"]
    bad = play(client, st, "merchant_fleet", kind="wool", take={"ore": 1})
    assert not bad["legal"] and rules(bad) == ["CK-PROG-T4"]
    assert bad["violations"][0]["path"] == "/action/take"
    c = with_commodities(ck(attacks=1), 1, coin=1)
    bishop = play(client, holding("bishop", c=c), "bishop", hex=[0, 1], target=1)
    assert not bishop["legal"] and rules(bishop) == ["CK-PROG-P1"]
    assert bishop["violations"][0]["path"] == "/action/target"
    mono = holding("resource_monopoly", hands={1: hand(ore=3)})
    v = play(client, mono, "resource_monopoly", resource="ore", hex=[0, 1])
    assert not v["legal"] and rules(v) == ["CK-PROG-T5"] and v["violations"][0]["path"] == "/action/hex"
    assert play(client, mono, "resource_monopoly", resource="ore", hex=None)["legal"]   # null: left out


# -- refusals a broken implementation would pass (a mutation audit of the rules) ----------------------------

def test_a_card_that_would_do_nothing_is_refused_CK_PROG_10(client):
    """CK-PROG-10: a progress card that would do nothing is not played: the Crane with no city, Road
    Building with no road left, the Spy on a player with no card, the Warlord with no inactive knight, the
    Master Merchant with nobody ahead."""
    crane = play(client, holding("crane", cities=(), settlements=((0, N), (1, S))), "crane")
    assert not crane["legal"] and rules(crane) == ["CK-PROG-10"]
    from service.engine.geometry import hex_sides
    taken = {E_N_NE, E_NE_SE, E_S_SW, E_SW_NW}
    more = dict.fromkeys(e for h in ((1, -1), (1, 0), (0, 1), (-1, 0)) for e in hex_sides(h) if e not in taken)
    mine = [E_N_NE, E_NE_SE] + list(more)[:13]                          # all 15 of player 0's roads built
    st = holding("road_building", roads=[(0, e) for e in mine] + [(1, E_S_SW), (1, E_SW_NW)])
    assert len(st["pieces"]["roads"]) == 17
    rb = play(client, st, "road_building", pieces=[{"kind": "road", "edge": [-1, 1, "E"]}])
    assert not rb["legal"] and rules(rb) == ["CK-PROG-10"]
    spy = play(client, holding("spy"), "spy", target=1, progress="warlord")
    assert not spy["legal"] and rules(spy) == ["CK-PROG-10"]
    war = play(client, holding("warlord", c=ck(knights=[knight(0, NE, 1, True)])), "warlord")
    assert not war["legal"] and rules(war) == ["CK-PROG-10"]
    mm = play(client, holding("master_merchant", hands={1: hand(ore=2)}), "master_merchant", target=1,
              take={"ore": 2})
    assert not mm["legal"] and rules(mm) == ["CK-PROG-10"]
    assert play(client, holding("warlord", c=ck(knights=[knight(0, NE)])), "warlord")["legal"]


def test_deserter_knight_placed_on_an_empty_corner_of_own_roads_CK_KNIGHT_1(client):
    """CK-KNIGHT-1 (CK-PROG-P3): the Deserter's knight goes where a built one may: an empty intersection
    touched by the player's roads; not on a city, not off the player's network."""
    st = holding("deserter", c=ck(knights=[knight(1, SW, 2, True)]))
    for node in (N, NW, (40, 40, "N")):
        v = play(client, st, "deserter", target=1, removed=list(SW), node=list(node))
        assert not v["legal"] and rules(v) == ["CK-KNIGHT-1"], (node, v["violations"])
    assert play(client, st, "deserter", target=1, removed=list(SW), node=list(NE))["legal"]


def test_bishop_moves_the_robber_to_another_land_hex_BASE_ROBBER_3(client):
    """BASE-ROBBER-3 (CK-PROG-P1): the Bishop moves the robber to another land hex: not where it stands,
    not onto the frame."""
    st = holding("bishop", c=ck(attacks=1))
    for h in ([-1, 0], [2, 0]):
        v = play(client, st, "bishop", hex=h)
        assert not v["legal"] and rules(v) == ["BASE-ROBBER-3"], (h, v["violations"])
    assert play(client, st, "bishop", hex=[1, -1])["legal"]


def test_medicine_upgrades_only_an_own_settlement_BASE_BUILD_6(client):
    """BASE-BUILD-6 (CK-PROG-S6): Medicine upgrades one of the player's settlements: not a city, not an
    opponent's settlement."""
    st = holding("medicine", hands={0: hand(ore=2, grain=1)}, settlements=((0, SE), (1, (-1, 0, "N"))),
                 cities=((0, N),))
    for node in (N, (-1, 0, "N")):
        v = play(client, st, "medicine", node=list(node))
        assert not v["legal"] and rules(v) == ["BASE-BUILD-6"], (node, v["violations"])
    ok = play(client, st, "medicine", node=list(SE))
    assert ok["legal"] and {"player": 0, "node": list(SE)} in ok["state"]["pieces"]["cities"]
