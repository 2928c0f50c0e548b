"""GOLD (seed 000): maps, gold as a currency, mobile ships, Largest Fleet, the front-coast rules.

Positions are built on the scenario's own 4-player map (seed 1, land tiles as dealt) and posted through
the API; the front coast there is the bottom of the main island (R-035 tags), the gold islands lie two
sea rows further south.
"""
from __future__ import annotations

import copy

import pytest

from service.api.codec import dump_state
from service.engine.mapgraph import MapGraph
from service.engine.scenarios import get_scenario
from service.engine.modules.gold.scenario import FRONT_COAST, front_coast_distances, largest_fleet
from service.engine.modules.gold.mnr import derived_front_coast, home_dock_spaces, space_path

from .helpers import adjudicate, rules

GOLD = get_scenario("GOLD")
RES = ("lumber", "brick", "wool", "grain", "ore")
HOME = [2, 3, "S"]            # a front-coast site 3 spaces from the gold dock (0,5,SE)
DOCK = [1, 4, "E"]            # the home-dock space of HOME that heads for the gold
TO_GOLD = [[1, 4, "SE"], [0, 5, "E"], [0, 5, "SE"]]


def full(**kw):
    return {r: kw.get(r, 0) for r in RES}


def position(players: int = 4, *, settlements=(), cities=(), roads=(), ships=(), hands=None, gold=None,
             phase: str = "main", current: int = 0, seed: int = 1, **scen) -> dict:
    """A posted GOLD state on the default map: pieces ``(player, coord)``, ships as records."""
    st = dump_state(GOLD.new_game(players, seed))
    for k in ("bank", "dev_deck"):
        st.pop(k)
    for i, p in enumerate(st["players"]):
        p.pop("supply")
        p["resources"] = (hands or {}).get(i, full())
        p["gold"] = (gold or {}).get(i, 8)
    st["pieces"] = {
        "settlements": [{"player": p, "node": list(n)} for p, n in settlements],
        "cities": [{"player": p, "node": list(n)} for p, n in cities],
        "roads": [{"player": p, "edge": list(e)} for p, e in roads],
        "ships": [],
    }
    ss = st["scenario_state"]
    ss["ships"] = [dict({"id": i, "cargo": 0, "built": False, "moved": 0, "extended": False}, **sh)
                   for i, sh in enumerate(ships)]
    ss.update(scen)
    st["phase"], st["current_player"], st["turn"] = phase, current, 5
    st["setup"] = {"round": 1, "step": "settlement", "last_settlement": None}
    st["turn_flags"] = {"rolled": phase not in ("setup", "roll")}
    return st


def act(type_: str, player: int = 0, **kw) -> dict:
    return {"type": type_, "player": player, **kw}


RICH = full(lumber=3, brick=3, wool=3, grain=3, ore=3)


# -- maps (GOLD-001, GOLD-003, GOLD-004, GOLD-034, GOLD-043, R-035) -----------------------------------------

@pytest.mark.parametrize("n", [3, 4])
def test_maps_every_front_coast_dock_is_3_or_4_spaces_from_gold(n):
    """GOLD-034: the default maps put every front-coast site 3 or 4 spaces from the nearest gold dock."""
    s = GOLD.new_game(n, 11)
    g = MapGraph.build(s.terrain_map())
    d = front_coast_distances(s, g)
    assert set(d) == set(FRONT_COAST[n]) and len(d) >= 2 * n - 1
    assert set(d.values()) <= {3, 4} and set(d.values()) == {3, 4}


@pytest.mark.parametrize("n", [3, 4])
def test_front_coast_is_tagged_map_data_on_the_main_island(n):
    """GOLD-043 / R-035: the front coast is listed in the map data; it is the main island's coast facing the
    gold, and agrees with the fallback derivation where every listed site lies."""
    s = GOLD.new_game(n, 2)
    g = MapGraph.build(s.terrain_map())
    tagged = {tuple(x) for x in s.scenario_state["front_coast"]}
    assert tagged == set(FRONT_COAST[n])
    assert tagged <= derived_front_coast(s, g)
    assert GOLD.maps()[n]["front_coast"]


@pytest.mark.parametrize("n", [3, 4])
def test_gold_hexes_have_no_token_and_the_map_matches_its_table(n):
    """GOLD-003 (components; gold and sea fixed, land dealt), GOLD-004 (gold carries no token)."""
    from service.engine.scenarios.components import check_components
    a, b = GOLD.new_game(n, 1), GOLD.new_game(n, 2)
    for s in (a, b):
        assert check_components(GOLD, n, s) == []
        assert all(t.number is None for t in s.hexes.values() if t.terrain == "gold")
    fixed = lambda s: {h for h, t in s.hexes.items() if t.terrain in ("gold", "sea")}  # noqa: E731
    assert fixed(a) == fixed(b)
    assert {h: t.terrain for h, t in a.hexes.items()} != {h: t.terrain for h, t in b.hexes.items()}


def test_gold_is_for_three_or_four_players_and_twelve_points(client):
    """GOLD-001: 3 or 4 players; GOLD-002: 12 VP; GOLD-006: everyone starts with 8 gold."""
    assert GOLD.players == (3, 4) and GOLD.vp_target == 12
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 2})
    assert r.status_code == 422
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 4, "seed": 3})
    assert r.status_code == 201
    st = r.get_json()["state"]
    assert [p["gold"] for p in st["players"]] == [8, 8, 8, 8]
    assert st["vp_target"] == 12 and st["pirate"] is None


def test_gold_hexes_never_produce(client):
    """GOLD-004: a settlement beside a gold hex gets nothing and owes no pick, whatever the roll."""
    st = position(settlements=[(0, HOME)], phase="roll")
    # put a (misplaced) token on a gold hex: it still never produces
    for h in st["board"]["hexes"]:
        if h["terrain"] == "gold":
            h["number"] = 9
    v = adjudicate(client, st, act("roll", dice=[4, 5]))
    assert v["legal"] and v["state"]["phase"] == "main" and not v["state"]["pending_gold"]


def test_cities_and_knights_accepted(client):
    """GOLD-002, GOLD-006: GOLD plays with Cities & Knights: 15 VP, 10 gold to start."""
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 4, "options": {"cities_and_knights": True}})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    st = body.get("state", body)
    assert st["vp_target"] == 15 and all(p["gold"] == 10 for p in st["players"])


# -- gold as a currency (GOLD-005..011, GOLD-016, GOLD-018, GOLD-019, R-042) ------------------------------

def base_position(**kw):
    return position(settlements=[(0, [2, 2, "N"]), (1, [5, 0, "S"])],
                    roads=[(0, [2, 2, "NE"]), (0, [3, 1, "SE"]), (1, [5, 0, "SE"])], **kw)


@pytest.mark.parametrize("action,rule,need", [
    (act("build_road", edge=[3, 2, "NE"]), "GOLD-007", 1),
    (act("build_settlement", node=[3, 2, "N"]), "GOLD-009", 2),
    (act("build_city", node=[2, 2, "N"]), "GOLD-010", 2),
])
def test_every_building_costs_gold(client, action, rule, need):
    """GOLD-007 road +1 gold, GOLD-009 settlement +2, GOLD-010 city +2 (cards as in the base game)."""
    st = base_position(hands={0: RICH}, gold={0: need - 1})
    v = adjudicate(client, st, action)
    assert not v["legal"] and rules(v) == [rule]
    st = base_position(hands={0: RICH}, gold={0: need})
    v = adjudicate(client, st, action)
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["gold"] == 0
    assert v["derived"]["gold"]["0"] == {"coins": 0, "cargo": 0}


def test_development_card_has_two_prices(client):
    """GOLD-011: wool + ore + grain + 1 gold, or wool + ore + 2 gold, at the buyer's choice; BASE-COMP-3:
    none once the deck is empty."""
    st = base_position(hands={0: full(wool=1, ore=1, grain=1)}, gold={0: 2})
    v = adjudicate(client, st, act("buy_development_card", price="grain", card="knight"))
    assert v["legal"] and v["state"]["players"][0]["gold"] == 1
    assert v["state"]["players"][0]["resources"] == full()
    v = adjudicate(client, st, act("buy_development_card", price="gold", card="knight"))
    assert v["legal"] and v["state"]["players"][0]["gold"] == 0
    assert v["state"]["players"][0]["resources"] == full(grain=1)
    st = base_position(hands={0: full(wool=1, ore=1)}, gold={0: 1})
    v = adjudicate(client, st, act("buy_development_card", price="gold"))
    assert rules(v) == ["GOLD-011"]
    v = adjudicate(client, st, act("buy_development_card"))          # no grain: the 2-gold price, short 1
    assert rules(v) == ["GOLD-011"] and "gold" in v["violations"][0]["message"]
    st = base_position(hands={0: full(wool=1, ore=1, grain=1)}, gold={0: 2})
    st["players"][1]["dev_cards"] = {"knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2,
                                     "monopoly": 2}                   # BASE-COMP-3: every card dealt
    v = adjudicate(client, st, act("buy_development_card", price="grain"))
    assert rules(v) == ["BASE-COMP-3"], v["violations"]
    st["players"][1]["dev_cards"] = {"knight": 14}                   # no knight left; other cards are
    v = adjudicate(client, st, act("buy_development_card", price="grain", card="knight"))
    assert rules(v) == ["BASE-COMP-3"] and "holds no knight" in v["violations"][0]["message"], v["violations"]


def test_a_card_bought_at_either_price_ends_trading_under_strict_phases(client):
    """BASE-VAR-STRICT-PHASES with GOLD-011: buying a card counts as building, whichever price is paid, so
    no trade follows it in the turn (as in the base game)."""
    st = base_position(hands={0: full(wool=2, ore=2, grain=3), 1: full(wool=2)}, gold={0: 2})
    st["options"] = {"BASE-VAR-STRICT-PHASES": True}
    trade = act("domestic_trade", partner=1, give={"grain": 1}, get={"wool": 1}, accepted=True)
    assert adjudicate(client, st, trade)["legal"]
    for price in ("grain", "gold"):
        v = adjudicate(client, st, act("buy_development_card", price=price, card="knight"))
        assert v["legal"] and v["state"]["turn_flags"]["built"] is True
        assert rules(adjudicate(client, v["state"], trade)) == ["BASE-VAR-STRICT-PHASES"]


def test_bank_trades_gold(client):
    """GOLD-016: 2 gold buy a resource card; GOLD-018: any 3 cards (mixed) buy 1 gold."""
    st = base_position(hands={0: full(lumber=1, ore=1, wool=1)}, gold={0: 4})
    v = adjudicate(client, st, act("gold_trade", give={"gold": 4}, get={"brick": 1, "grain": 1}))
    assert v["legal"] and v["state"]["players"][0]["gold"] == 0
    assert v["state"]["players"][0]["resources"]["brick"] == 1
    v = adjudicate(client, st, act("gold_trade", give={"gold": 3}, get={"brick": 1}))
    assert rules(v) == ["GOLD-016"]
    v = adjudicate(client, st, act("gold_trade", give={"lumber": 1, "ore": 1, "wool": 1}, get={"gold": 1}))
    assert v["legal"] and v["state"]["players"][0]["gold"] == 5 and v["state"]["players"][0]["resources"] == full()
    v = adjudicate(client, st, act("gold_trade", give={"lumber": 1, "ore": 1}, get={"gold": 1}))
    assert rules(v) == ["GOLD-018"]


def test_gold_is_not_a_card(client):
    """GOLD-005 / R-042: gold is never stolen, never counted for a 7, and is shown apart from the cards."""
    st = base_position(hands={1: full(lumber=4, brick=4)}, gold={0: 8, 1: 20}, phase="roll", current=0)
    v = adjudicate(client, st, act("roll", dice=[3, 4]))
    assert v["legal"] and v["state"]["pending_discards"] == {"1": 4}      # 8 cards, the 20 gold do not count
    st = base_position(gold={0: 8, 1: 20}, hands={1: full(ore=1)}, phase="robber")
    v = adjudicate(client, st, act("move_robber", hex=[5, 0], steal_from=1))
    assert v["legal"], v["violations"]
    assert v["state"]["players"][1]["gold"] == 20 and v["state"]["players"][0]["gold"] == 8
    assert v["state"]["players"][0]["resources"]["ore"] == 1


def test_domestic_trade_may_include_gold(client):
    """R-042: gold changes hands freely in a trade between players."""
    st = base_position(hands={1: full(ore=2)}, gold={0: 5, 1: 0})
    v = adjudicate(client, st, act("domestic_trade", partner=1, give={"gold": 3}, get={"ore": 2}, accepted=True))
    assert v["legal"] and v["state"]["players"][1]["gold"] == 3 and v["state"]["players"][0]["resources"]["ore"] == 2
    v = adjudicate(client, st, act("domestic_trade", partner=1, give={"gold": 6}, get={"ore": 1}, accepted=True))
    assert rules(v) == ["BASE-TRADE-2"]


def test_gold_trades_between_two_waiting_players_are_refused_BASE_TRADE_2(client):
    """BASE-TRADE-2 holds with coins too: non-active players trade only with the active player; and a
    trade of gold for gold is a like-for-like trade (BASE-TRADE-4)."""
    st = base_position(hands={1: full(ore=2), 2: full(ore=2)}, gold={0: 5, 1: 5, 2: 5})
    v = adjudicate(client, st, act("domestic_trade", player=1, partner=2, give={"gold": 1}, get={"ore": 1},
                                   accepted=True))
    assert rules(v) == ["BASE-TRADE-2"]
    v = adjudicate(client, st, act("domestic_trade", partner=1, give={"gold": 1}, get={"gold": 2}, accepted=True))
    assert rules(v) == ["BASE-TRADE-4"]


def test_road_building_still_costs_gold(client):
    """GOLD-019: the free roads of Road Building still cost 1 gold each."""
    st = base_position(gold={0: 2})
    st["players"][0]["dev_cards"] = {"road_building": 1}
    pieces = [{"kind": "road", "edge": [3, 2, "NE"]}, {"kind": "road", "edge": [4, 1, "SE"]}]
    v = adjudicate(client, st, act("play_road_building", pieces=pieces))
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["gold"] == 0
    st["players"][0]["gold"] = 1
    v = adjudicate(client, st, act("play_road_building", pieces=pieces))
    assert rules(v) == ["GOLD-019"]


def test_road_building_places_what_the_supply_allows_BASE_DEV_6():
    """BASE-DEV-6 in Gold: Road Building places 2 pieces, or what the supply allows: with one road left and
    no ship, two are refused for it (the supply set on the engine's state: a posted one would need 14 ships
    with homes)."""
    from service.engine.core import Action
    from service.engine.referee import adjudicate as engine_adjudicate
    from service.engine.scenarios import scenario_of, start_game
    s = start_game("GOLD", 4, 7, {})
    scen, g = scenario_of(s), MapGraph.build(s.terrain_map())
    s.phase, s.flags.rolled, s.turn = "main", True, 1
    s.dev_deck["road_building"] -= 1
    s.players[0].dev_cards["road_building"] = 1
    s.players[0].supply.update(roads=1, ships=0)
    pieces = [{"kind": "road", "edge": (3, 2, "NE")}, {"kind": "road", "edge": (4, 1, "SE")}]
    v = engine_adjudicate(s, Action("play_road_building", 0, {"pieces": pieces}), g, scen, with_derived=False)
    assert not v.legal and [x.rule for x in v.violations] == ["BASE-DEV-6"], v.violations
    assert "places 1 piece" in v.violations[0].message


def test_gold_buys_only_what_the_bank_holds_BASE_TRADE_9(client):
    """BASE-TRADE-9 (GOLD-016): the bank sells for gold only the cards it holds: with every brick in hands
    none is bought; with Cities & Knights neither is a resource nor a commodity it lacks."""
    st = base_position(hands={0: full(), 1: full(brick=19)}, gold={0: 4})
    v = adjudicate(client, st, act("gold_trade", give={"gold": 2}, get={"brick": 1}))
    assert not v["legal"] and rules(v) == ["BASE-TRADE-9"]
    assert adjudicate(client, st, act("gold_trade", give={"gold": 2}, get={"ore": 1}))["legal"]
    from service.engine.core import Action
    from service.engine.modules.cities_and_knights import store
    from service.engine.referee import adjudicate as engine_adjudicate
    from service.engine.scenarios import scenario_of, start_game
    s = start_game("GOLD", 4, 7, {"cities_and_knights": True})
    scen, g = scenario_of(s), MapGraph.build(s.terrain_map())
    s.phase, s.flags.rolled, s.turn = "main", True, 1
    s.players[1].resources["brick"] += s.bank["brick"]
    s.bank["brick"] = 0
    v = engine_adjudicate(s, Action("gold_trade", 0, {"give": {"gold": 2}, "get": {"brick": 1}}), g, scen)
    assert not v.legal and [x.rule for x in v.violations] == ["BASE-TRADE-9"]
    ok = engine_adjudicate(s, Action("gold_trade", 0, {"give": {"gold": 2}, "get": {"ore": 1}}), g, scen)
    assert ok.legal and store.cards_of(ok.state, 0)["ore"] == store.cards_of(s, 0)["ore"] + 1


def test_three_cards_held_buy_one_gold_GOLD_018(client):
    """GOLD-018: the bank pays 1 gold for any 3 resource cards the player holds: cards not held are
    refused for it (the hand never goes below zero)."""
    st = base_position(hands={0: full(lumber=2, ore=1)}, gold={0: 4})
    v = adjudicate(client, st, act("gold_trade", give={"lumber": 2, "wool": 1}, get={"gold": 1}))
    assert not v["legal"] and rules(v) == ["GOLD-018"] and "short" in v["violations"][0]["message"]
    ok = adjudicate(client, st, act("gold_trade", give={"lumber": 2, "ore": 1}, get={"gold": 1}))
    assert ok["legal"] and ok["state"]["players"][0]["gold"] == 5 and ok["state"]["players"][0]["resources"] == full()


def test_three_cards_buy_one_gold_with_cities_and_knights_GOLD_018():
    """GOLD-018 with Cities & Knights: any 3 resource or commodity cards held buy 1 gold: 2 or 4 cards
    for one gold are refused for it, so are cards not held."""
    from service.engine.core import Action
    from service.engine.modules.cities_and_knights import store
    from service.engine.referee import adjudicate as engine_adjudicate
    from service.engine.scenarios import scenario_of, start_game
    s = start_game("GOLD", 4, 7, {"cities_and_knights": True})
    scen = scenario_of(s)
    g = MapGraph.build(s.terrain_map())
    s.phase, s.flags.rolled, s.turn = "main", True, 1
    for k, n in (("lumber", 2), ("ore", 1)):                 # from the bank (cards conserved)
        s.players[0].resources[k] += n
        s.bank[k] -= n
    held = dict(s.players[0].resources)
    three = {"lumber": 2, "ore": 1}
    assert store.commodities(s, 0)["paper"] == 0
    gold = s.players[0].extra["gold"]

    def trade(give):
        return engine_adjudicate(s, Action("gold_trade", 0, {"give": give, "get": {"gold": 1}}), g, scen)

    ok = trade(three)
    assert ok.legal and ok.state.players[0].extra["gold"] == gold + 1
    assert all(ok.state.players[0].resources[k] == held[k] - n for k, n in three.items())
    for bad in ({"lumber": 1, "ore": 1}, {**three, "paper": 1}, {"paper": 3}):
        v = trade(bad)
        assert not v.legal and [x.rule for x in v.violations] == ["GOLD-018"], (bad, v.violations)


# -- ships (GOLD-020..033, R-031..R-034, R-044) -------------------------------------------------------------

def ship(player=0, edge=DOCK, home=HOME, **kw):
    return {"player": player, "edge": list(edge), "home": list(home), **kw}


def harbour_position(**kw):
    kw.setdefault("settlements", [(0, HOME), (1, [4, 3, "S"])])
    kw.setdefault("roads", [(0, [2, 3, "SE"])])
    return position(**kw)


def test_ship_is_built_docked_at_a_front_coast_building(client):
    """GOLD-021: a ship is built on a space touching the builder's front-coast building (its home)."""
    st = harbour_position(hands={0: RICH})
    v = adjudicate(client, st, act("build_ship", edge=DOCK))
    assert v["legal"], v["violations"]
    sh = v["state"]["scenario_state"]["ships"][0]
    assert sh["home"] == HOME and sh["edge"] == DOCK and sh["cargo"] == 0 and sh["built"]
    assert v["state"]["players"][0]["gold"] == 7 and v["state"]["players"][0]["supply"]["ships"] == 14
    v = adjudicate(client, st, act("build_ship", edge=[1, 5, "E"]))
    assert rules(v) == ["GOLD-021"]
    st2 = position(settlements=[(0, [2, 2, "N"])], hands={0: RICH})       # no front-coast building
    v = adjudicate(client, st2, act("build_ship", edge=[2, 1, "NE"]))
    assert rules(v) == ["GOLD-021"]


def test_ship_built_only_on_a_space_and_not_at_set_up_GOLD_021(client):
    """GOLD-021 (R-031): a ship is built on a space, an edge with water on a side: a land edge at the
    player's front-coast settlement is refused for it, the space beside it accepted; at set-up no ship is
    built (the starting pieces are settlements and roads, GOLD-035)."""
    st = position(settlements=[(0, [1, 4, "N"]), (1, [4, 3, "S"])], hands={0: RICH})
    v = adjudicate(client, st, act("build_ship", edge=[1, 3, "E"]))
    assert not v["legal"] and rules(v) == ["GOLD-021"] and "not a space" in v["violations"][0]["message"]
    ok = adjudicate(client, st, act("build_ship", edge=[1, 4, "NE"]))
    assert ok["legal"], ok["violations"]
    setup = position(settlements=[(0, [1, 4, "N"])], hands={0: RICH}, phase="setup")
    v = adjudicate(client, setup, act("build_ship", edge=[1, 4, "NE"]))
    assert not v["legal"] and rules(v) == ["GOLD-021"], v["violations"]


def test_ship_costs_gold(client):
    """GOLD-008: a ship costs 1 lumber + 1 wool + 1 gold."""
    st = harbour_position(hands={0: RICH}, gold={0: 0})
    assert rules(adjudicate(client, st, act("build_ship", edge=DOCK))) == ["GOLD-008"]
    st = harbour_position(hands={0: full(lumber=1)}, gold={0: 1})
    assert rules(adjudicate(client, st, act("build_ship", edge=DOCK))) == ["GOLD-008"]


def test_settlement_homes_one_ship_city_two(client):
    """GOLD-022 / R-044: capacity 1 per settlement, 2 per city; upgrading raises it."""
    st = harbour_position(hands={0: RICH}, ships=[ship()])
    assert rules(adjudicate(client, st, act("build_ship", edge=[2, 3, "SE"]))) == ["GOLD-022"]
    st = harbour_position(hands={0: RICH}, ships=[ship()], settlements=[(1, [4, 3, "S"])], cities=[(0, HOME)])
    v = adjudicate(client, st, act("build_ship", edge=[2, 3, "SE"]))
    assert v["legal"] and len(v["state"]["scenario_state"]["ships"]) == 2


def test_ships_are_single_pieces_not_lanes(client):
    """GOLD-020: ships never form chains; a posted trade-route ship is refused, and a ship touching another
    ship (but no home) cannot be built."""
    st = harbour_position()
    st["pieces"]["ships"] = [{"player": 0, "edge": DOCK}]
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and "GOLD-020" in r.get_json()["detail"]
    st = harbour_position(hands={0: RICH}, ships=[ship(edge=[1, 4, "SE"])])
    assert rules(adjudicate(client, st, act("build_ship", edge=[0, 5, "E"]))) == ["GOLD-021"]


def test_a_ship_sailed_out_of_turn_breaks_turn_order(client):
    """BASE-TURN-6: only the active player sails; GOLD-024 (the allowance) is not what the move breaks."""
    st = harbour_position(ships=[ship()])
    v = adjudicate(client, st, {**act("sail_ship", ship=0, path=TO_GOLD[:1]), "player": 1})
    assert rules(v) == ["BASE-TURN-6"] and v["violations"][0]["path"] == "/action/player"


def test_ship_moves_two_spaces_and_names_the_first_illegal_step(client):
    """GOLD-024 / R-031: 2 spaces a turn along adjacent spaces; the verdict names the first bad step."""
    st = harbour_position(ships=[ship()])
    v = adjudicate(client, st, act("sail_ship", ship=0, path=TO_GOLD[:2]))
    assert v["legal"] and v["state"]["scenario_state"]["ships"][0]["edge"] == TO_GOLD[1]
    v = adjudicate(client, st, act("sail_ship", ship=0, path=TO_GOLD))
    assert rules(v) == ["GOLD-024"] and v["violations"][0]["path"] == "/action/path/2"
    v = adjudicate(client, st, act("sail_ship", ship=0, path=[TO_GOLD[0], [3, 5, "E"]]))
    assert rules(v) == ["GOLD-024"] and v["violations"][0]["path"] == "/action/path/1"
    assert "does not touch" in v["violations"][0]["message"]
    v = adjudicate(client, st, act("sail_ship", ship=0, path=[[2, 2, "SE"]]))       # land: not a space
    assert rules(v) == ["GOLD-024"] and v["violations"][0]["path"] == "/action/path/0"
    assert "is not a space" in v["violations"][0]["message"]
    moved = copy.deepcopy(st)
    moved["scenario_state"]["ships"][0].update(edge=TO_GOLD[1], moved=2)
    v = adjudicate(client, moved, act("sail_ship", ship=0, path=[TO_GOLD[2]]))
    assert rules(v) == ["GOLD-024"] and v["violations"][0]["path"] == "/action/path/0"


def test_wool_buys_two_more_spaces_once(client):
    """GOLD-025 / R-033: +2 spaces for 1 wool, at most once per ship and turn."""
    st = harbour_position(ships=[ship()], hands={0: full(wool=2)})
    v = adjudicate(client, st, act("sail_ship", ship=0, path=TO_GOLD + [[0, 5, "E"]], extend="wool"))
    assert v["legal"] and v["state"]["players"][0]["resources"]["wool"] == 1
    assert rules(adjudicate(client, harbour_position(ships=[ship()]),
                            act("sail_ship", ship=0, path=TO_GOLD, extend="wool"))) == ["GOLD-025"]
    again = copy.deepcopy(st)
    again["scenario_state"]["ships"][0].update(extended=True, moved=1)
    assert rules(adjudicate(client, again, act("sail_ship", ship=0, path=[TO_GOLD[0]], extend="wool"))) == ["GOLD-025"]


def test_cargo_gold_buys_two_more_spaces(client):
    """GOLD-026: instead of wool, 2 gold of the ship's own cargo extend its move."""
    at_gold = harbour_position(ships=[ship(edge=TO_GOLD[2], cargo=4, moved=1)])
    back = [[0, 5, "E"], [1, 4, "SE"], DOCK]
    v = adjudicate(client, at_gold, act("sail_ship", ship=0, path=back, extend="cargo"))
    assert v["legal"] and v["state"]["scenario_state"]["ships"][0]["cargo"] == 2
    empty = harbour_position(ships=[ship(edge=TO_GOLD[2], cargo=1)])
    assert rules(adjudicate(client, empty, act("sail_ship", ship=0, path=back, extend="cargo"))) == ["GOLD-026"]


def test_ship_cannot_move_the_turn_it_is_built(client):
    """GOLD-027."""
    st = harbour_position(ships=[ship(built=True)])
    assert rules(adjudicate(client, st, act("sail_ship", ship=0, path=TO_GOLD[:1]))) == ["GOLD-027"]


def test_ships_share_spaces_with_ships_and_roads(client):
    """GOLD-028: a ship may enter a space holding another ship or a road."""
    st = harbour_position(ships=[ship(), ship(player=1, home=[4, 3, "S"], edge=[1, 4, "SE"])],
                          roads=[(0, [2, 3, "SE"])])
    v = adjudicate(client, st, act("sail_ship", ship=0, path=[[2, 3, "SE"]]))      # onto a coast road
    assert v["legal"]
    v = adjudicate(client, st, act("sail_ship", ship=0, path=[[1, 4, "SE"]]))      # onto player 1's ship
    assert v["legal"]


def test_ships_do_not_count_for_longest_road(client):
    """GOLD-029: only roads make the longest route."""
    st = harbour_position(ships=[ship()])
    v = adjudicate(client, st, None)
    assert v["derived"]["longest_road"]["0"]["length"] == 1


def test_loading_at_a_gold_dock_up_to_four(client):
    """GOLD-032 (load docked between gold and water), GOLD-030 (hold of 4)."""
    st = harbour_position(ships=[ship(edge=TO_GOLD[2], cargo=1)])
    v = adjudicate(client, st, act("load_gold", ship=0))
    assert v["legal"] and v["state"]["scenario_state"]["ships"][0]["cargo"] == 4
    assert rules(adjudicate(client, st, act("load_gold", ship=0, amount=4))) == ["GOLD-030"]
    st = harbour_position(ships=[ship(edge=TO_GOLD[1])])
    assert rules(adjudicate(client, st, act("load_gold", ship=0))) == ["GOLD-032"]


def test_unloading_only_at_its_own_home(client):
    """GOLD-031 (unload docked at home into the owner's gold), GOLD-023 (only at its own home)."""
    st = harbour_position(ships=[ship(cargo=3)])
    v = adjudicate(client, st, act("unload_gold", ship=0))
    assert v["legal"] and v["state"]["players"][0]["gold"] == 11
    assert v["state"]["scenario_state"]["ships"][0]["cargo"] == 0
    away = harbour_position(ships=[ship(cargo=3, edge=TO_GOLD[0])])
    assert rules(adjudicate(client, away, act("unload_gold", ship=0))) == ["GOLD-023"]
    too_much = harbour_position(ships=[ship(cargo=3)])
    assert rules(adjudicate(client, too_much, act("unload_gold", ship=0, amount=4))) == ["GOLD-031"]
    other = harbour_position(ships=[ship(cargo=3)], current=1)
    assert rules(adjudicate(client, other, act("unload_gold", player=1, ship=0))) == ["GOLD-023"]


@pytest.mark.parametrize("total,loses", [(2, True), (12, True), (3, False), (11, False)])
def test_two_or_twelve_costs_ships_in_open_water(client, total, loses):
    """GOLD-033 / R-034: on a 2 or 12 every ship in open water loses 2 gold (less if it has less);
    ships docked at home or at a gold island keep theirs."""
    st = harbour_position(phase="roll", ships=[ship(edge=TO_GOLD[1], cargo=3), ship(player=1, home=[4, 3, "S"],
                          edge=[3, 5, "E"], cargo=1), ship(edge=TO_GOLD[2], cargo=4, player=0, home=HOME)],
                          cities=[(0, HOME)], settlements=[(1, [4, 3, "S"])])
    v = adjudicate(client, st, act("roll", dice=[1, 1] if total == 2 else [6, 6] if total == 12 else
                                   [1, 2] if total == 3 else [5, 6]))
    assert v["legal"], v["violations"]
    cargo = [sh["cargo"] for sh in v["state"]["scenario_state"]["ships"]]
    assert cargo == ([1, 0, 4] if loses else [3, 1, 4])
    lost = [e for e in v["events"] if e["type"] == "cargo_lost"]
    assert len(lost) == (2 if loses else 0)


# -- Largest Fleet (GOLD-037, R-041) ----------------------------------------------------------------------

def test_largest_fleet_rule():
    """GOLD-037 / R-041: at least 2 ships and strictly the most; ties keep the holder."""
    assert largest_fleet([1, 0, 0], None) is None
    assert largest_fleet([2, 2, 0], None) is None
    assert largest_fleet([2, 1, 0], None) == 0
    assert largest_fleet([3, 3, 0], 0) == 0
    assert largest_fleet([3, 4, 0], 0) == 1


def test_largest_fleet_worth_two_points(client):
    """GOLD-037: the second ship of a player with the strictly largest fleet takes it: 2 VP."""
    st = harbour_position(cities=[(0, HOME)], settlements=[(1, [4, 3, "S"])], ships=[ship()], hands={0: RICH})
    v = adjudicate(client, st, act("build_ship", edge=[2, 3, "SE"]))
    assert v["legal"]
    assert v["derived"]["largest_fleet"] == {"holder": 0, "ships": {"0": 2, "1": 0, "2": 0, "3": 0}}
    assert v["derived"]["victory_points"]["0"]["largest_fleet"] == 2
    assert {"type": "award", "award": "largest_fleet", "from": None, "to": 0} in v["events"]


# -- front-coast settlement rules (GOLD-035..042, R-036..R-040) -------------------------------------------

def test_no_starting_settlement_on_the_front_coast(client):
    """GOLD-035."""
    st = position(phase="setup")
    st["turn"] = 0
    v = adjudicate(client, st, act("build_settlement", node=HOME))
    assert rules(v) == ["GOLD-035"]
    v = adjudicate(client, st, act("build_settlement", node=[2, 2, "N"]))
    assert v["legal"]


def test_mnr_is_derived_with_a_witness_path(client):
    """GOLD-038 / R-036: a pending player's MNR, with the road sites that realise it."""
    st = base_position()
    v = adjudicate(client, st, None)
    mnr = v["derived"]["mnr"]
    assert set(mnr) == {"0", "1"}
    w = mnr["0"]
    assert w["roads"] == len(w["path"]) and tuple(w["site"]) in set(FRONT_COAST[4])
    st = harbour_position()
    assert "0" not in adjudicate(client, st, None)["derived"]["mnr"]        # has a front-coast building


def line_island():
    """The examples' small board: a row of land, the front coast on its south shore, one gold hex."""
    from .examples_adapter import load_cases, to_state
    ex = next(c for c in load_cases() if c["id"] == "gold-mnr-01")
    return to_state(ex)


def test_statement_a_with_b_makes_a_settlement_illegal(client):
    """GOLD-039 (A), GOLD-040 (B: not on the front coast), GOLD-042 (A and B: illegal)."""
    st = line_island()
    v = adjudicate(client, st, act("build_settlement", node=[0, 1, "N"]))
    assert rules(v) == ["GOLD-042"]
    assert v["derived"]["statements"] == {"A": True, "B": True, "C": False}
    assert v["derived"]["mnr_before"] == {"1": 6} and v["derived"]["mnr_if_built"] == {"1": None}


def test_first_front_coast_settlement_is_protected_when_no_gentler_site_is_close(client):
    """R-040 worked check (2): A true, B false (first front-coast settlement), C false -> legal (GOLD-042)."""
    st = line_island()
    st["pieces"]["settlements"] = [{"player": 1, "node": [-1, 1, "N"]}, {"player": 0, "node": [1, 1, "N"]}]
    st["pieces"]["roads"] = [{"player": 0, "edge": [1, 1, "NE"]}, {"player": 0, "edge": [2, 0, "SE"]}]
    v = adjudicate(client, st, act("build_settlement", node=[2, 1, "N"]))
    assert v["legal"], v["violations"]
    assert v["derived"]["statements"] == {"A": True, "B": False, "C": False}


def test_statement_c_offers_a_gentler_site(client):
    """GOLD-041 (C: a site one road away that cuts nobody off) with A -> illegal (GOLD-042)."""
    st = line_island()
    st["pieces"]["settlements"] = [{"player": 1, "node": [-1, 1, "N"]}, {"player": 0, "node": [1, 1, "N"]}]
    st["pieces"]["roads"] = [{"player": 0, "edge": [1, 1, "NE"]}, {"player": 0, "edge": [2, 0, "SE"]},
                             {"player": 0, "edge": [2, 1, "NE"]}]
    v = adjudicate(client, st, act("build_settlement", node=[2, 1, "N"]))
    assert rules(v) == ["GOLD-042"]
    assert v["derived"]["statements"] == {"A": True, "B": False, "C": True}
    assert v["derived"]["statement_c_site"] == {"site": [3, 1, "N"], "road": [3, 0, "SE"]}


def test_a_road_may_not_cut_a_player_off(client):
    """GOLD-036 / R-040: a road that turns a pending opponent's finite MNR into none is illegal."""
    st = line_island()
    v = adjudicate(client, st, act("build_road", edge=[0, 0, "SE"]))
    assert rules(v) == ["GOLD-036"]
    v = adjudicate(client, st, act("build_road", edge=[0, 0, "W"]))
    assert v["legal"] or rules(v) != ["GOLD-036"]


def test_mnr_unreachable_is_null_and_statements_on_full_map_are_fast():
    """R-036 on the 4-player map: every pending player has a finite MNR at the start of play."""
    from service.engine.modules.gold.mnr import Board
    s = GOLD.new_game(4, 1)
    g = MapGraph.build(s.terrain_map())
    s.buildings[(2, 2, "N")] = (0, "settlement")
    b = Board(s, g)
    assert b.pending(0) and b.mnr(0) is not None and b.mnr(1) is None   # player 1 has no building: not pending


def test_space_path_helper_reaches_gold_in_three():
    s = GOLD.new_game(4, 1)
    g = MapGraph.build(s.terrain_map())
    assert [list(e) for e in space_path(g, tuple(DOCK))] == TO_GOLD
    assert tuple(DOCK) in home_dock_spaces(g, tuple(HOME))


# -- the progress card Road Building in GOLD with Cities & Knights (CK-PROG-S9, GOLD-019..022, R-044) -------

def test_progress_road_building_ship_is_a_mobile_ship_CK_PROG_S9_GOLD_020_R_031_R_044(client):
    """CK-PROG-S9 in GOLD: the progress card's ship is one of GOLD's mobile ships (GOLD-020), docked at its
    front-coast home (GOLD-021/022, R-031), from the 15 of the supply (R-044), its gold paid (GOLD-019); it
    is never a lane piece, and the state answered is accepted when posted back."""
    from .ck_util import with_cards
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 4, "seed": 1,
                                       "options": {"cities_and_knights": True}})
    st = r.get_json()
    st = st.get("state", st)
    for k in ("bank", "dev_deck"):
        st.pop(k, None)
    for p in st["players"]:
        p.pop("supply", None)
    st["pieces"] = {"settlements": [{"player": 0, "node": HOME}, {"player": 1, "node": [5, 0, "S"]}],
                    "cities": [], "roads": [{"player": 0, "edge": [2, 3, "SE"]}], "ships": []}
    ss = st["scenario_state"]
    ss["cities_and_knights"] = with_cards(ss["cities_and_knights"], 0, "road_building")
    st["phase"], st["current_player"], st["turn"] = "main", 0, 5
    st["turn_flags"] = {"rolled": True}
    st["players"][0]["gold"] = 5
    road = {"kind": "road", "edge": [1, 4, "NE"]}
    play = act("play_progress", card="road_building", pieces=[{"kind": "ship", "edge": DOCK}, road])
    v = adjudicate(client, st, play)
    assert v["legal"], v["violations"]
    out = v["state"]
    assert out["pieces"]["ships"] == []
    fleet = out["scenario_state"]["ships"]
    assert [(sh["player"], sh["edge"], sh["home"]) for sh in fleet] == [(0, DOCK, HOME)]
    assert fleet[0]["built"] and fleet[0]["cargo"] == 0          # GOLD-027: built this turn
    assert out["players"][0]["gold"] == 3                          # GOLD-019: 1 gold a piece
    back = client.post("/v1/adjudicate", json={"state": out, "action": None})
    assert back.status_code == 200, back.get_json()
    # GOLD-021: the progress card's ship docks at home like any other; off the front coast it is refused.
    v = adjudicate(client, st, act("play_progress", card="road_building",
                                   pieces=[{"kind": "ship", "edge": TO_GOLD[1]}, road]))
    assert not v["legal"] and rules(v) == ["GOLD-021"]
