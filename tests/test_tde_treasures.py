"""Treasures, Dragons & Explorers 1 and 2: "The Treasure Islands" (TDE1) and "Departure into the Unknown"
(TDE2). Maps on their default boards; single rules on a small board (R-001) through the API."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.engine.core import Action
from service.engine.geometry import hex_corners, node_edges, node_hexes
from service.engine.islands import islands_of_node
from service.engine.legal import action_json, legal_actions
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios.components import check_components
from service.engine.scenarios.hooks import mainland_of
from service.engine.scenarios.mapdata import parse_rows
from service.engine.selfplay import play_game

from .examples_adapter import compare, derived_values, to_action, to_state
from .helpers import adjudicate, hand, hexes, rules, state

# -- a small board: a home island in the west, two face-down spaces and a small island in the east ------

ROWS = (
    " s s s s s s s",
    "s W H s s ? ? s",
    " s F s s s M s",
    "  s s s s s s",
)
LEGEND = {"s": "sea", "W": ("forest", 6), "H": ("hills", 5), "F": ("fields", 9), "?": "unknown",
          "M": ("mountains", 10)}
HOME = [[0, 1], [1, 1], [0, 2]]
SETTLEMENT = (2, 0, "S")                        # on the hills' east corner, facing the sea
CHAIN = [(2, 0, "SE"), (2, 1, "NE")]            # player 0's ships from there to the east
TO_31N = (3, 0, "SE")                           # reaches (3,1,N): sea all round
TO_40S = (3, 1, "NE")                           # from (3,1,N) to (4,0,S), a corner of the face-down (4,1)


def board(changes=None) -> list[dict]:
    cells = parse_rows(ROWS)
    rows = {h: LEGEND[ch] for h, ch in cells.items()}
    rows.update(changes or {})
    return hexes(rows)


def post(scenario="TDE1", *, ships=CHAIN, ss=None, players=3, hands=None, **kw) -> dict:
    scen_state = {"mainland": "home island", "islands": {"home island": HOME}, "treasures": [],
                  "pending": [], "hex_pile": ["mountains", "sea"], "token_pile": [8]}
    if scenario == "TDE1":
        scen_state["treasure_stock"] = ["development_card", "resources"]
    else:
        scen_state.update({"kept": {str(p): 0 for p in range(players)},
                           "harbor_pile": ["lumber", "brick", "wool", "grain", "ore"]})
    scen_state.update(ss or {})
    kw.setdefault("settlements", [(0, SETTLEMENT)])
    return state(board(), scenario=scenario, players=players, ships=[(0, e) for e in ships],
                 hands=hands if hands is not None else {0: hand(lumber=3, wool=3, brick=2, grain=2, ore=2)},
                 scenario_state=scen_state, **{"turn": 5, **kw})


def treasure(node, kind) -> dict:
    return {"node": list(node), "kind": kind}


def ship(edge, player=0) -> dict:
    return {"type": "build_ship", "player": player, "edge": list(edge)}


def events(v, kind):
    return [e for e in v["events"] if e["type"] == kind]


def claim(v_or_state, **fields) -> tuple[dict, dict]:
    st = v_or_state["state"] if "state" in v_or_state and "legal" in v_or_state else v_or_state
    return st, {"type": "claim_reward", "player": 0, **fields}


# -- maps (R-054) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("sid", ["TDE1", "TDE2"])
@pytest.mark.parametrize("n", [3, 4])
def test_the_default_map_matches_its_component_table(sid, n):
    """TDE1-004 / TDE2-005 (R-054): every generated board holds the scenario's tiles, tokens and harbours,
    face-down piles and special-port stock included."""
    scen = get_scenario(sid)
    for seed in (1, 2, 3):
        assert check_components(scen, n, scen.new_game(n, seed)) == []


@pytest.mark.parametrize("n", [3, 4])
def test_treasure_islands_map_holds_every_stated_number(n):
    """TDE1-003: the home island is a base-game island (19 hexes, the 18 base tokens, 9 harbours);
    TDE1-004: 3 sea, 2 deserts and the land hexes face down with a face-down token stack, one token per
    producing hex; TDE1-005: 15 treasures on the board and 5 in the stock (the 20 of the box, R-055);
    TDE1-007: the robber on the home desert, the pirate on the marked sea hex."""
    scen = get_scenario("TDE1")
    st = scen.new_game(n, 4)
    ss = st.scenario_state
    home = {tuple(h) for h in ss["islands"]["home island"]}
    assert len(home) == 19 and sorted(st.hexes[h].terrain for h in home).count("desert") == 1
    assert sorted(st.hexes[h].number for h in home if st.hexes[h].number) == [
        2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    assert len(st.harbors) == 9
    pile = ss["hex_pile"]
    assert pile.count("sea") == 3 and pile.count("desert") == 2
    assert sum(1 for t in st.hexes.values() if t.terrain == "unknown") == len(pile) == 17
    producing = [t for t in pile if t not in ("sea", "desert")]
    assert len(ss["token_pile"]) == len(producing) == 12
    assert len(ss["treasures"]) == 15 and len(ss["treasure_stock"]) == 5
    kinds = [t["kind"] for t in ss["treasures"]] + ss["treasure_stock"]
    assert sorted(kinds).count("resources") == 8 and kinds.count("roads_ships") == 6
    assert st.hexes[st.robber].terrain == "desert" and st.robber in home
    assert st.hexes[st.pirate].terrain == "sea"
    # the marked treasure positions never move; the tokens on them are shuffled
    other = scen.new_game(n, 5).scenario_state["treasures"]
    assert [t["node"] for t in other] == [t["node"] for t in ss["treasures"]]


@pytest.mark.parametrize("n", [3, 4])
def test_departure_map_holds_every_stated_number(n):
    """TDE2-003: the home desert and the home tokens are fixed, the land hexes random, 4 3:1 ports fixed;
    TDE2-004 (R-059): 2 deserts and 2 gold hexes fixed in the unknown sea, the gold hexes with the 6 and
    the 8, the deserts without tokens; TDE2-005: 18 face-down spaces = 6 sea + 12 land, 12 tokens in the
    stack; TDE2-006: the treasure tokens on the marked positions; TDE2-007: the special ports in a stock."""
    scen = get_scenario("TDE2")
    a, b = scen.new_game(n, 1), scen.new_game(n, 2)
    assert {h: t.number for h, t in a.hexes.items()} == {h: t.number for h, t in b.hexes.items()}
    assert a.harbors == b.harbors and sorted(a.harbors.values()) == ["3:1"] * 4
    home = {tuple(h) for h in a.scenario_state["islands"]["home island"]}
    assert [h for h in home if a.hexes[h].terrain == "desert"] == [h for h in home if b.hexes[h].terrain == "desert"]
    assert any(a.hexes[h].terrain != b.hexes[h].terrain for h in home)
    gold = sorted(t.number for t in a.hexes.values() if t.terrain == "gold")
    assert gold == [6, 8]
    deserts = [t for h, t in a.hexes.items() if t.terrain == "desert" and h not in home]
    assert len(deserts) == 2 and all(t.number is None for t in deserts)
    pile = a.scenario_state["hex_pile"]
    assert len(pile) == 18 and pile.count("sea") == 6 and len(a.scenario_state["token_pile"]) == 12
    assert len(a.scenario_state["treasures"]) == 20
    assert [t["node"] for t in a.scenario_state["treasures"]] == [t["node"] for t in b.scenario_state["treasures"]]
    assert sorted(a.scenario_state["harbor_pile"]) == ["brick", "grain", "lumber", "ore", "wool"]
    assert a.pirate is None and a.hexes[a.robber].terrain == "desert"


def test_both_scenarios_are_for_three_or_four_players(client):
    """TDE1-002 / TDE2-002: 3 or 4 players; a 2-player position is refused naming the players."""
    for sid in ("TDE1", "TDE2"):
        assert get_scenario(sid).players == (3, 4)
        st = post(sid, players=2)
        r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "end_turn", "player": 0}})
        assert r.status_code == 422 and "/state/players" in json.dumps(r.get_json())
    assert get_scenario("TDE1").vp_target == 15 and get_scenario("TDE2").vp_target == 12   # TDE1-014, TDE2-021
    for sid, n in (("TDE1", 3), ("TDE2", 4)):
        d = client.get(f"/v1/scenarios/{sid}").get_json()
        assert d["players"] == [3, 4] and "claim_reward" in d["actions"] and str(n) in d["maps"]
        g = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": 7})
        assert g.status_code in (200, 201) and g.get_json()["state"]["phase"] == "setup"
    assert "attach_special_port" in client.get("/v1/scenarios/TDE2").get_json()["actions"]


def test_base_and_seafarers_rules_apply(client):
    """TDE1-001 / TDE2-001: the base game and Seafarers rules hold underneath: a ship costs lumber and wool
    (SEA-006), a settlement keeps the distance rule (BASE-BUILD-2)."""
    for sid in ("TDE1", "TDE2"):
        v = adjudicate(client, post(sid, hands={0: hand()}), ship(TO_31N))
        assert not v["legal"] and rules(v)[0] in ("SEA-006", "BASE-BUILD-1")
        v = adjudicate(client, post(sid), {"type": "build_settlement", "player": 0, "node": [2, 1, "N"]})
        assert not v["legal"] and rules(v)[0] in ("BASE-BUILD-2", "BASE-BUILD-3", "SEA-012")   # (off land: SEA-012)
        v = adjudicate(client, post(sid), ship(TO_31N))
        assert v["legal"], v["violations"]


# -- set-up ---------------------------------------------------------------------------------------------


def _setup(sid, n=3, seed=3):
    scen = get_scenario(sid)
    st = scen.new_game(n, seed)
    return scen, st, MapGraph.build(st.terrain_map())


def test_treasure_islands_starting_settlements_on_the_home_island_a_coastal_one_may_take_a_ship():
    """TDE1-006: both starting settlements on the home island; a coastal one may take a ship instead of its
    road (SEA-026)."""
    scen, st, g = _setup("TDE1")
    home = mainland_of(st)
    from service.engine.state import Tile
    lone = next(h for h, t in st.hexes.items() if t.terrain == "unknown")
    revealed = st.copy()
    revealed.hexes = {**st.hexes, lone: Tile("forest", 5)}
    g2 = MapGraph.build(revealed.terrain_map())
    off = next(n for n in hex_corners(lone) if n in g2.node_index)
    v = engine_adjudicate(revealed, Action("build_settlement", 0, {"node": off}), g2, scen)
    assert not v.legal and v.violations[0].rule == "TDE1-006"
    off = next(n for n in g.nodes if not g.node_land[g.node_index[n]])
    v = engine_adjudicate(st, Action("build_settlement", 0, {"node": off}), g, scen)
    assert not v.legal
    coast = next(n for n in g.nodes if home in islands_of_node(st, n)
                 and any(st.hexes.get(h) and st.hexes[h].terrain == "sea" for h in node_hexes(n))
                 and engine_adjudicate(st, Action("build_settlement", 0, {"node": n}), g, scen).legal)
    st = engine_adjudicate(st, Action("build_settlement", 0, {"node": coast}), g, scen).state
    ships = [a for a in legal_actions(st, g, scen).actions.get("build_ship", [])]
    assert ships and all(engine_adjudicate(st, a, g, scen).legal for a in ships)


def _play_setup(sid, n):
    """Set-up by the first legal placement each time; returns the states after each settlement."""
    scen, st, g = _setup(sid, n)
    placed = []
    while st.phase == "setup":
        la = legal_actions(st, g, scen)
        for t in ("claim_reward", "build_settlement", "build_road", "build_ship"):
            if la.actions.get(t):
                a = la.actions[t][0]
                break
        v = engine_adjudicate(st, a, g, scen)
        assert v.legal, v.violations
        if a.type == "build_settlement":
            placed.append((st.setup.round, a.player, v.events))
        st, g = v.state, v.graph or g
    return placed, st


@pytest.mark.parametrize("n", [3, 4])
def test_departure_third_settlement_round_and_its_payout(n):
    """TDE2-008 / R-061: three starting settlements; round 3 starts with the player who placed the last
    second settlement (the starting player, in snake order) and goes on clockwise; TDE2-009: only the third
    settlement brings starting resources."""
    placed, st = _play_setup("TDE2", n)
    assert [p for r, p, _ in placed if r == 3] == list(range(n))
    assert [p for r, p, _ in placed if r == 2][-1] == 0
    for r, p, ev in placed:
        got = [e for e in ev if e["type"] == "starting_resources"]
        if r < 3:
            assert not got
    assert any(e["type"] == "starting_resources" for r, _, ev in placed if r == 3 for e in ev)
    assert st.phase in ("roll", "setup") and sum(1 for b in st.buildings.values()) == 3 * n


def test_departure_first_two_settlements_on_the_home_island_the_third_anywhere():
    """TDE2-008: the first two settlements go on the home island; in round 3 elsewhere is fine, but only
    where its road or ship can be placed."""
    scen, st, g = _setup("TDE2")
    home = mainland_of(st)
    off = [n for n in g.nodes if g.node_land[g.node_index[n]] and home not in islands_of_node(st, n)]
    v = engine_adjudicate(st, Action("build_settlement", 0, {"node": off[0]}), g, scen)
    assert not v.legal and v.violations[0].rule == "TDE2-008"
    st3 = st.copy()
    st3.setup.round = 3
    ok = [n for n in off if engine_adjudicate(st3, Action("build_settlement", 0, {"node": n}), g, scen).legal]
    stuck = [n for n in off if n not in ok and not any(
        g.edge_index.get(e) is not None and (g.road_edge(g.edge_index[e]) or g.ship_edge(g.edge_index[e]))
        for e in node_edges(n))]
    assert ok and stuck
    v = engine_adjudicate(st3, Action("build_settlement", 0, {"node": stuck[0]}), g, scen)
    assert not v.legal and v.violations[0].rule == "TDE2-008"


def test_departure_has_the_robber_only(client):
    """TDE2-010: no pirate: no move_pirate action, no pirate on the board; TDE1-007: TDE1 has both."""
    assert "move_pirate" not in get_scenario("TDE2").action_types()
    assert "move_pirate" in get_scenario("TDE1").action_types()
    st = post("TDE2", pirate=[2, 1])
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 422 and "/state/pirate" in json.dumps(r.get_json())


# -- discovery ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("sid,reveal,reward", [("TDE1", "TDE1-008", "TDE1-009"), ("TDE2", "TDE2-011", "TDE2-012")])
def test_a_ship_reaching_a_face_down_hex_reveals_it_and_pays_one_resource(client, sid, reveal, reward):
    """TDE1-008 / TDE2-011: a ship placed on an intersection bordering a face-down hex reveals it;
    TDE1-009 / TDE2-012: a land hex takes the top token and pays the discoverer 1 of its resource."""
    st = post(sid, ships=CHAIN + [TO_31N])
    v = adjudicate(client, st, ship(TO_40S))
    assert v["legal"], v["violations"]
    d = events(v, "discovered")
    assert len(d) == 1 and d[0]["hex"] == [4, 1] and d[0]["terrain"] == "mountains" and d[0]["number"] == 8
    assert d[0]["reward"] == {"ore": 1} and d[0]["rule"] == reward and d[0]["reveal_rule"] == reveal
    assert v["state"]["players"][0]["resources"]["ore"] == 2 + 1
    assert v["state"]["scenario_state"]["hex_pile"] == ["sea"]


def test_a_road_discovers_too(client):
    """TDE1-008: a road reaching such an intersection reveals the hex as a ship does."""
    st = post("TDE1", ships=[], hands={0: hand(lumber=1, brick=1)}, settlements=[(0, (0, 2, "N"))])
    st["board"]["hexes"] = board({(1, 0): "unknown"})
    v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": [0, 1, "E"]})
    assert v["legal"], v["violations"]
    assert [e["hex"] for e in events(v, "discovered")] == [[1, 0]]


def test_a_discovered_gold_hex_pays_a_resource_of_choice(client):
    """TDE1-009 (R-058): a discovered gold hex gives 1 resource of the discoverer's choice, claimed next."""
    st = post("TDE1", ships=CHAIN + [TO_31N], ss={"hex_pile": ["gold"], "token_pile": [4]})
    v = adjudicate(client, st, ship(TO_40S))
    assert v["state"]["scenario_state"]["pending"] == [
        {"player": 0, "kind": "resources", "count": 1, "source": "gold", "rule": "TDE1-009"}]
    v2 = adjudicate(client, *claim(v, resources={"brick": 1}))
    assert v2["legal"] and v2["state"]["players"][0]["resources"]["brick"] == 2 + 1
    bad = adjudicate(client, *claim(v, resources={"brick": 2}))
    assert not bad["legal"] and rules(bad) == ["TDE1-009"]


@pytest.mark.parametrize("top", ["sea", "desert"])
def test_a_discovered_sea_or_desert_gives_a_treasure_from_the_stock(client, top):
    """TDE1-010: a discovered desert or sea hex gives the top treasure of the stock at once (R-058: no
    token on it); the stock once empty gives nothing."""
    st = post("TDE1", ships=CHAIN + [TO_31N], ss={"hex_pile": [top]})
    v = adjudicate(client, st, ship(TO_40S))
    d = events(v, "discovered")[0]
    assert d["terrain"] == top and d["number"] is None and d["rule"] == "TDE1-010"
    ss = v["state"]["scenario_state"]
    assert ss["treasure_stock"] == ["resources"]
    assert ss["pending"] == [{"player": 0, "kind": "development_card", "count": 1, "source": "stock",
                              "rule": "TDE1-010"}]
    empty = post("TDE1", ships=CHAIN + [TO_31N], ss={"hex_pile": [top], "treasure_stock": []})
    v = adjudicate(client, empty, ship(TO_40S))
    assert v["legal"] and v["state"]["scenario_state"]["pending"] == []


def test_departure_discovered_sea_gives_nothing(client):
    """TDE2-012: a discovered sea hex: nothing further happens."""
    st = post("TDE2", ships=CHAIN + [TO_31N], ss={"hex_pile": ["sea"]})
    v = adjudicate(client, st, ship(TO_40S))
    assert events(v, "discovered")[0]["rule"] == "TDE2-012"
    assert v["state"]["scenario_state"]["pending"] == [] and v["state"]["players"][0]["resources"]["ore"] == 2


def test_an_observed_reveal_must_be_in_the_piles(client):
    """TDE1-008 (R-006): a reveal reported with the action must be one the face-down piles still hold."""
    st = post("TDE1", ships=CHAIN + [TO_31N])
    v = adjudicate(client, st, {**ship(TO_40S), "discoveries": [{"terrain": "pasture", "number": 8}]})
    assert not v["legal"] and rules(v) == ["TDE1-008"]
    v = adjudicate(client, st, {**ship(TO_40S), "discoveries": [{"terrain": "sea", "number": None}]})
    assert v["legal"] and events(v, "discovered")[0]["terrain"] == "sea"


# -- treasures --------------------------------------------------------------------------------------


def test_reaching_a_treasure_takes_it_and_its_benefit_is_claimed_at_once(client):
    """TDE1-011: a ship reaching a treasure's intersection takes it and reveals it; TDE1-012: its benefit is
    used at once: nothing else happens until it is claimed."""
    st = post("TDE1", ss={"treasures": [treasure((3, 1, "N"), "resources")]})
    v = adjudicate(client, st, ship(TO_31N))
    assert v["legal"]
    found = events(v, "treasure_found")
    assert found == [{"type": "treasure_found", "player": 0, "node": [3, 1, "N"], "kind": "resources",
                      "rule": "TDE1-011"}]
    after = v["state"]
    assert after["scenario_state"]["treasures"] == []
    for other in ({"type": "end_turn", "player": 0}, ship(TO_40S)):
        w = adjudicate(client, after, other)
        assert not w["legal"] and rules(w) == ["TDE1-012"]
    assert not adjudicate(client, after, {"type": "claim_reward", "player": 1})["legal"]
    ok = adjudicate(client, *claim(v, resources={"ore": 1, "grain": 1}))
    assert ok["legal"] and ok["state"]["scenario_state"]["pending"] == []
    assert ok["state"]["players"][0]["resources"]["ore"] == 3
    assert adjudicate(client, ok["state"], {"type": "end_turn", "player": 0})["legal"]


def test_a_development_card_treasure_draws_the_card(client):
    """TDE1-011: a development-card treasure gives the top card of the deck (observed card or the seeded
    draw); like a bought card it is played from the next turn on."""
    st = post("TDE1", ss={"treasures": [treasure((3, 1, "N"), "development_card")]})
    v = adjudicate(client, st, ship(TO_31N))
    w = adjudicate(client, *claim(v, card="monopoly"))
    assert w["legal"] and events(w, "reward_claimed")[0]["card"] == "monopoly"
    assert w["state"]["players"][0]["dev_cards_new"]["monopoly"] == 1
    bad = adjudicate(client, *claim(v, resources={"ore": 2}))
    assert not bad["legal"] and rules(bad) == ["TDE1-011"]


def test_free_roads_or_ships_are_placed_at_once_and_resolve_recursively(client):
    """TDE1-011 / R-055: a roads-or-ships treasure places 2 free pieces now under the normal rules; a free
    piece reaching a face-down hex or another treasure resolves it too, before what was already owed;
    fewer pieces only when no legal spot is left (TDE1-012)."""
    st = post("TDE1", ss={"treasures": [treasure((3, 1, "N"), "roads_ships"), treasure((4, 0, "S"), "resources")]})
    v = adjudicate(client, st, ship(TO_31N))
    one = adjudicate(client, *claim(v, pieces=[{"kind": "ship", "edge": list(TO_40S)}]))
    assert not one["legal"] and rules(one) == ["TDE1-011"]
    road = adjudicate(client, *claim(v, pieces=[{"kind": "road", "edge": list(TO_40S)},
                                                {"kind": "ship", "edge": [3, 1, "E"]}]))
    assert not road["legal"] and rules(road)[0] == "BASE-BUILD-1"
    w = adjudicate(client, *claim(v, pieces=[{"kind": "ship", "edge": list(TO_40S)},
                                             {"kind": "ship", "edge": [3, 0, "E"]}]))
    assert w["legal"], w["violations"]
    order = [e["type"] for e in w["events"] if e["type"] in ("treasure_found", "discovered")]
    assert order == ["treasure_found", "discovered"]             # TDE2-013: treasure first, then discovery
    assert w["state"]["scenario_state"]["pending"][0]["kind"] == "resources"
    assert w["state"]["players"][0]["supply"]["ships"] == 15 - 5
    seen = adjudicate(client, *claim(v, pieces=[{"kind": "ship", "edge": list(TO_40S)},
                                                {"kind": "ship", "edge": [3, 0, "E"]}],
                                     discoveries=[{"terrain": "sea", "number": None}]))
    assert seen["legal"] and events(seen, "discovered")[0]["terrain"] == "sea"
    wrong = adjudicate(client, *claim(v, pieces=[{"kind": "ship", "edge": list(TO_40S)},
                                                 {"kind": "ship", "edge": [3, 0, "E"]}],
                                      discoveries=[{"terrain": "gold", "number": 4}]))
    assert not wrong["legal"] and rules(wrong) == ["TDE1-008"]
    placed = [s["edge"] for s in w["state"]["pieces"]["ships"]]
    assert list(TO_40S) in placed and [3, 0, "E"] in placed


def test_free_pieces_are_forfeited_without_a_legal_spot(client):
    """R-055: with no legal spot the free pieces are forfeited (an empty claim is then the one allowed)."""
    owed = {"pending": [{"player": 0, "kind": "roads_ships", "count": 2, "source": "board", "rule": "TDE1-011"}]}
    st = post("TDE1", ships=[], ss=owed)
    st["pieces"]["ships"] = [{"player": 1, "edge": list(e)} for e in ((2, 0, "SE"), (1, 1, "NE"), (1, 1, "E"))]
    v = adjudicate(client, *claim(st, pieces=[]))
    assert v["legal"], v["violations"]
    st2 = post("TDE1", ss=owed)
    v2 = adjudicate(client, *claim(st2, pieces=[]))
    assert not v2["legal"] and rules(v2) == ["TDE1-011"]


def test_departure_treasure_first_then_discovery(client):
    """TDE2-013: a treasure on the intersection is taken first, then the hex is discovered; TDE2-014: the
    finder sees what it gives."""
    st = post("TDE2", ships=CHAIN + [TO_31N], ss={"treasures": [treasure((4, 0, "S"), "development_card")]})
    v = adjudicate(client, st, ship(TO_40S))
    kinds = [e["type"] for e in v["events"] if e["type"] in ("treasure_found", "discovered")]
    assert kinds == ["treasure_found", "discovered"]
    assert events(v, "treasure_found")[0]["kind"] == "development_card"
    assert events(v, "treasure_found")[0]["rule"] == "TDE2-014"


def test_departure_use_a_treasure_at_once_or_keep_it(client):
    """TDE2-015: a treasure used at once gives its reward; until it is claimed nothing else happens;
    TDE2-016: kept face down it counts for good (no action uses it later); a gold pick is no token."""
    st = post("TDE2", ss={"treasures": [treasure((3, 1, "N"), "resources")]})
    v = adjudicate(client, st, ship(TO_31N))
    w = adjudicate(client, v["state"], {"type": "end_turn", "player": 0})
    assert not w["legal"] and rules(w) == ["TDE2-015"]
    used = adjudicate(client, *claim(v, resources={"wool": 2}))
    assert used["legal"] and used["state"]["scenario_state"]["kept"]["0"] == 0
    kept = adjudicate(client, *claim(v, keep=True))
    assert kept["legal"] and kept["state"]["scenario_state"]["kept"]["0"] == 1
    assert kept["state"]["players"][0]["resources"] == v["state"]["players"][0]["resources"]
    again = adjudicate(client, *claim(kept["state"]))
    assert not again["legal"] and rules(again) == ["TDE2-015"]
    gold = post("TDE2", ss={"pending": [{"player": 0, "kind": "resources", "count": 1, "source": "gold",
                                         "rule": "TDE2-012"}]})
    g = adjudicate(client, *claim(gold, keep=True))
    assert not g["legal"] and rules(g) == ["TDE2-016"]
    t1 = adjudicate(client, *claim(post("TDE1", ss={"pending": [{"player": 0, "kind": "resources", "count": 2,
                                                                 "source": "board", "rule": "TDE1-011"}]}),
                                   keep=True))
    assert not t1["legal"] and rules(t1) == ["TDE1-012"]


def test_one_kept_treasure_raises_the_discard_limit_to_nine(client):
    """TDE2-017: with a kept treasure token a player loses cards on a 7 only above 9 cards."""
    hands = {0: hand(lumber=9), 1: hand(ore=9), 2: hand(grain=10)}
    st = post("TDE2", phase="roll", hands=hands, ss={"kept": {"0": 1, "1": 0, "2": 1}})
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v["legal"] and v["state"]["pending_discards"] == {"1": 4, "2": 5}
    d = v["derived"]["treasures"]["kept"]
    assert d["0"]["discard_limit"] == 9 and d["1"]["discard_limit"] == 7


def test_a_special_port_needs_a_free_coast_side_TDE2_018(client):
    """TDE2-018 (R-060): the special port is one left in the stock, goes against the player's building, on
    a free coast side: a building whose coast sides all hold harbours already is refused for it, so are a
    port not in the stock, an intersection without the player's building, a side that is not free coast."""
    from service.engine.geometry import node_edges
    st = post("TDE2", hands={0: hand(ore=4)}, ss={"kept": {"0": 2, "1": 0, "2": 0}})
    g = MapGraph.build({(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]})
    coast = [e for e in node_edges(SETTLEMENT) if e in g.edge_index and g.edge_kind[g.edge_index[e]] == "coast"]
    assert coast
    st["board"]["harbors"] = [{"edge": list(e), "kind": "3:1"} for e in coast]
    v = adjudicate(client, st, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                "resource": "ore"})
    assert not v["legal"] and rules(v) == ["TDE2-018"] and "no free coast side" in v["violations"][0]["message"]
    st = post("TDE2", hands={0: hand(ore=4)}, ss={"kept": {"0": 2, "1": 2, "2": 0}})
    port = {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT), "resource": "wool"}
    for change, why in (({"node": [0, 2, "N"]}, "holds none"), ({"edge": list(CHAIN[0])}, "is not a free coast side")):
        v = adjudicate(client, st, {**port, **change})
        assert not v["legal"] and rules(v) == ["TDE2-018"] and why in v["violations"][0]["message"], (why, v["violations"])
    v = adjudicate(client, st, port)
    assert v["legal"], v["violations"]
    st1 = v["state"]                                                  # the wool port is gone from the stock
    st1["current_player"] = 1
    st1["pieces"]["settlements"].append({"player": 1, "node": [0, 2, "S"]})
    st1["players"][1]["supply"]["settlements"] -= 1
    v = adjudicate(client, st1, {**port, "player": 1, "node": [0, 2, "S"]})
    assert not v["legal"] and rules(v) == ["TDE2-018"] and "stock holds no wool" in v["violations"][0]["message"], v


def test_two_kept_treasures_attach_a_special_port(client):
    """TDE2-018 (R-060): with 2 kept tokens the player takes a special port from the stock and attaches it
    to an own coastal building (a new harbour of that building: 2:1 for its resource), once; it is chosen
    before anything else in the player's turn."""
    st = post("TDE2", hands={0: hand(ore=4)}, ss={"kept": {"0": 2, "1": 0, "2": 0}})
    w = adjudicate(client, st, {"type": "end_turn", "player": 0})
    assert not w["legal"] and rules(w) == ["TDE2-018"]
    assert st["scenario_state"]["harbor_pile"] == ["lumber", "brick", "wool", "grain", "ore"]
    bad = adjudicate(client, st, {"type": "attach_special_port", "player": 0, "node": [0, 2, "N"], "resource": "ore"})
    assert not bad["legal"] and rules(bad) == ["TDE2-018"]
    v = adjudicate(client, st, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                "resource": "ore"})
    assert v["legal"], v["violations"]
    after = v["state"]
    assert "ore" not in after["scenario_state"]["harbor_pile"]
    assert {"edge": after["scenario_state"]["special_ports"]["0"]["edge"], "kind": "ore"} in after["board"]["harbors"]
    t = adjudicate(client, after, {"type": "maritime_trade", "player": 0, "give": {"ore": 2}, "get": {"wool": 1}})
    assert t["legal"], t["violations"]
    twice = adjudicate(client, after, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                       "resource": "wool"})
    assert not twice["legal"] and rules(twice) == ["TDE2-018"]
    one = post("TDE2", ss={"kept": {"0": 1, "1": 0, "2": 0}})
    v1 = adjudicate(client, one, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                  "resource": "ore"})
    assert not v1["legal"] and rules(v1) == ["TDE2-018"]
    assert adjudicate(client, one, {"type": "end_turn", "player": 0})["legal"]


@pytest.mark.parametrize("k,vp", [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2)])
def test_kept_treasures_victory_points(client, k, vp):
    """TDE2-019 (R-060): 3 kept tokens count 1 VP, 4 count 2 VP in all."""
    st = post("TDE2", ss={"kept": {"0": k, "1": 0, "2": 0},
                          "special_ports": {"0": {"node": list(SETTLEMENT), "edge": [1, 1, "E"], "resource": "ore"}}
                          if k >= 2 else {}})
    if k >= 2:
        st["board"]["harbors"] = [{"edge": [1, 1, "E"], "kind": "ore"}]
        st["scenario_state"]["harbor_pile"] = ["lumber", "brick", "wool", "grain"]
    v = adjudicate(client, st, {"type": "end_turn", "player": 0})
    assert v["legal"], v["violations"]
    assert v["derived"]["victory_points"]["0"]["treasures"] == vp
    assert v["derived"]["treasures"]["kept"]["0"]["vp"] == vp


def test_at_most_four_kept_treasures(client):
    """TDE2-020: a player keeping 4 tokens must use every further treasure."""
    ss = {"kept": {"0": 4, "1": 0, "2": 0}, "pending": [{"player": 0, "kind": "resources", "count": 2,
                                                         "source": "board", "rule": "TDE2-014"}],
          "special_ports": {"0": {"node": list(SETTLEMENT), "edge": [1, 1, "E"], "resource": "ore"}},
          "harbor_pile": ["lumber", "brick", "wool", "grain"]}
    st = post("TDE2", ss=ss)
    st["board"]["harbors"] = [{"edge": [1, 1, "E"], "kind": "ore"}]
    v = adjudicate(client, *claim(st, keep=True))
    assert not v["legal"] and rules(v) == ["TDE2-020"]
    assert adjudicate(client, *claim(st, resources={"ore": 2}))["legal"]


def test_departure_wins_at_twelve_on_own_turn(client):
    """TDE2-021: 12 VP on the player's own turn wins; TDE2-019: the fourth kept token's VP counts."""
    port = {"0": {"node": list(SETTLEMENT), "edge": [1, 1, "E"], "resource": "ore"}}
    st = post("TDE2", cities=[(0, (-1, 2, "N")), (0, (0, 1, "N")), (0, (1, 1, "S"))],
              ss={"kept": {"0": 3, "1": 0, "2": 0}, "special_ports": port,
                  "harbor_pile": ["lumber", "brick", "wool", "grain"],
                  "pending": [{"player": 0, "kind": "resources", "count": 2, "source": "board", "rule": "TDE2-014"}]})
    st["board"]["harbors"] = [{"edge": [1, 1, "E"], "kind": "ore"}]
    st["players"][0]["dev_cards"] = {"victory_point": 3}
    v = adjudicate(client, *claim(st, keep=True))                  # 1 + 6 + 3 + 2 = 12
    assert v["legal"] and v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    assert v["derived"]["victory_points"]["0"]["total"] == 12


# -- TDE1 chips and the end ----------------------------------------------------------------------------


def _island_state(client, svp=(0, 0, 0)):
    st = post("TDE1", ships=CHAIN + [TO_31N, (4, 1, "SE"), (5, 1, "NE"), (2, 2, "NE")],
              hands={0: hand(lumber=3, brick=3, wool=3, grain=3)}, ss={"hex_pile": [], "token_pile": []})
    st["board"]["hexes"] = board({(4, 1): "sea", (5, 1): ("pasture", 3), (2, 2): ("hills", 4)})
    st["players"] = [{**p, "svp": svp[i]} for i, p in enumerate(st["players"])]
    return st


def test_first_settlement_on_each_treasure_island_earns_a_catan_chip(client):
    """TDE1-013 (R-056): a player's first settlement on a treasure island earns 1 Catan chip; another
    settlement on the same island none; the first on a further island 1 more."""
    st = _island_state(client)
    node = [4, 2, "N"]
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": node})
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["svp"] == 1 and v["derived"]["catan_chips"]["awarded"] == 1
    assert v["derived"]["catan_chips"]["left"] == 13
    chip = events(v, "special_victory_point")[0]
    assert "TDE1-013" in chip["reason"]
    same = adjudicate(client, v["state"], {"type": "build_settlement", "player": 0, "node": [5, 1, "N"]})
    assert same["legal"] and same["state"]["players"][0]["svp"] == 1
    other = adjudicate(client, same["state"], {"type": "build_settlement", "player": 0, "node": [2, 2, "N"]})
    assert other["legal"] and other["state"]["players"][0]["svp"] == 2
    assert other["derived"]["catan_chips"]["awarded"] == 2


def test_the_fourteenth_chip_ends_the_game_at_once(client):
    """TDE1-015 (R-057): once 14 Catan chips are awarded the game ends at once; the highest VP wins (here
    player 1, though player 0 placed the chip)."""
    st = _island_state(client, svp=(3, 9, 1))
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [4, 2, "N"]})
    assert v["legal"] and v["state"]["phase"] == "game_over" and v["state"]["winner"] == 1
    assert v["derived"]["catan_chips"] == {"awarded": 14, "left": 0, "by_player": {"0": 4, "1": 9, "2": 1},
                                           "shared_victory": []}
    st = _island_state(client, svp=(3, 3, 1))
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [4, 2, "N"]})
    assert v["state"]["phase"] == "main"


def test_treasure_islands_wins_at_fifteen():
    """TDE1-014: 15 VP on the player's own turn wins."""
    assert get_scenario("TDE1").vp_target == 15


# -- referee tools -------------------------------------------------------------------------------------


def _positions():
    yield post("TDE1", ss={"pending": [{"player": 0, "kind": "roads_ships", "count": 2, "source": "board",
                                        "rule": "TDE1-011"}]})
    yield post("TDE1", ss={"pending": [{"player": 0, "kind": "resources", "count": 2, "source": "stock",
                                        "rule": "TDE1-010"}]})
    yield post("TDE2", ss={"pending": [{"player": 0, "kind": "development_card", "count": 1, "source": "board",
                                        "rule": "TDE2-014"}]})
    yield post("TDE2", ss={"kept": {"0": 2, "1": 0, "2": 0}})


def test_listed_new_actions_are_judged_legal(client):
    """TDE1-011, TDE2-015, TDE2-018: every claim_reward and attach_special_port the legal-action list
    names is legal when judged; nothing else is listed while a reward is owed (TDE1-012)."""
    for st in _positions():
        r = client.post("/v1/legal-actions", json={"state": st, "player": 0})
        assert r.status_code == 200, r.get_json()
        acts = r.get_json()["actions"]
        new = {t: v for t, v in acts.items() if t in ("claim_reward", "attach_special_port")}
        assert new, acts.keys()
        for t, listed in new.items():
            for a in (listed if isinstance(listed, list) else listed.get("examples", [])):
                v = adjudicate(client, st, a)
                assert v["legal"], (a, v["violations"])
        if st["scenario_state"]["pending"]:
            assert set(acts) == {"claim_reward"}


def test_replay_of_a_treasure_game(client):
    """POST /v1/replay: a seeded random TDE2 game's log (claims included) replays legal, from a new game,
    to the same final position; a claim by the wrong player is named as the first illegal action."""
    from service.api.codec import dump_state
    g = play_game("TDE2", 3, seed=4, max_actions=400, dump=lambda s: json.dumps(dump_state(s), sort_keys=True))
    assert g.failures == []
    log = [action_json(a) for a in g.log]
    assert any(a["type"] == "claim_reward" for a in log)
    r = client.post("/v1/replay", json={"new_game": {"scenario": "TDE2", "players": 3, "seed": 4}, "actions": log})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["all_legal"] and out["final"]["state"] == dump_state(g.final)
    i = next(k for k, a in enumerate(log) if a["type"] == "claim_reward")
    bad = log[:i] + [{**log[i], "player": (log[i]["player"] + 1) % 3}] + log[i + 1:]
    out = client.post("/v1/replay", json={"new_game": {"scenario": "TDE2", "players": 3, "seed": 4},
                                          "actions": bad}).get_json()
    assert out["first_illegal"]["index"] == i and out["first_illegal"]["rules"] == ["TDE2-015"]


def test_render_draws_treasures_face_down_hexes_and_the_attached_port(client):
    """TDE1-005 / TDE2-018 on the board picture: treasure tokens (chest side up), face-down spaces ("?") and
    an attached special port (a 2:1 harbour)."""
    st = post("TDE2", ss={"treasures": [treasure((3, 1, "N"), "resources")], "kept": {"0": 2, "1": 0, "2": 0}})
    v = adjudicate(client, st, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                "resource": "ore"})
    r = client.post("/v1/render", json={"state": v["state"]})
    assert r.status_code == 200
    svg = r.get_data(as_text=True)
    treasures = svg.split('<g class="layer treasure">')[1].split("</g></g>")[0]
    assert treasures.count('class="glyph"') == 1 and ">T<" in treasures and ">?<" in svg and "2:1 ore" in svg
    assert "resources" not in svg                                   # what the token gives stays hidden
    legend = svg[svg.index('class="legend"'):]
    assert "treasure token" in legend and "face-down hex" in legend and "special 2:1 port" in legend


@pytest.mark.parametrize("sid,n,seed", [("TDE1", 3, 1), ("TDE2", 4, 2)])
def test_random_games_reach_a_winner(sid, n, seed):
    """TDE1-014 / TDE1-015 / TDE2-021: seeded random games keep every invariant and end with a winner."""
    g = play_game(sid, n, seed, max_actions=3000)
    assert g.failures == [] and g.ended == "won" and g.winner is not None


# -- examples -------------------------------------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "examples"
EXAMPLES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("tde[12]-*.json"))]


def test_there_are_three_examples_per_scenario():
    ids = [e["id"] for e in EXAMPLES]
    assert sum(i.startswith("tde1-") for i in ids) >= 3 and sum(i.startswith("tde2-") for i in ids) >= 3


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example(client, example):
    """The shared-format example positions of TDE1 / TDE2 (their rules listed in each file)."""
    posted = to_state(example)
    r = client.post("/v1/adjudicate", json={"state": posted, "action": to_action(example)})
    assert r.status_code == 200, r.get_json()
    verdict = r.get_json()
    expect = example["expect"]
    assert verdict["legal"] is expect["legal"], (example["id"], verdict["violations"])
    if not expect["legal"]:
        assert verdict["violations"][0]["rule"] in {expect["rule"], *expect.get("also_acceptable_rules", [])}
    got = derived_values(example, posted, verdict)
    got["discard_owed"] = (verdict.get("state") or {}).get("pending_discards")
    for key, want in (expect.get("derived") or {}).items():
        value = got[key] if key in got else verdict["derived"][key]
        assert compare(key, want, value), (example["id"], key, want, value)


def test_a_set_up_placement_keeps_the_turn_until_its_treasure_is_claimed(client):
    """TDE2-008 / TDE2-015: a third-round ship reaching a treasure: the placer claims it (use or keep)
    before the next player places; then set-up goes on in order (R-061)."""
    st = post("TDE2", ships=[], phase="setup", hands={}, turn=0,
              setup={"round": 3, "step": "road", "last_settlement": list(SETTLEMENT)},
              ss={"treasures": [treasure((2, 1, "N"), "resources")]})
    v = adjudicate(client, st, ship((2, 0, "SE")))
    assert v["legal"], v["violations"]
    after = v["state"]
    assert after["phase"] == "setup" and after["current_player"] == 0
    assert after["scenario_state"]["setup_hold"] is True
    w = adjudicate(client, after, ship((1, 1, "E")))
    assert not w["legal"] and rules(w) == ["TDE2-015"]
    done = adjudicate(client, *claim(after, keep=True))
    assert done["legal"], done["violations"]
    assert done["state"]["current_player"] == 1 and "setup_hold" not in done["state"]["scenario_state"]
    assert done["state"]["scenario_state"]["kept"]["0"] == 1


@pytest.mark.parametrize("sid,rule", [("TDE1", "TDE1-005"), ("TDE2", "TDE2-006")])
def test_a_treasure_token_lies_on_an_intersection_of_the_board(client, sid, rule):
    """TDE1-005 / TDE2-006: the tokens lie on the marked positions of the board: a posted state with one far
    off the board is refused, naming the token and the rule; moved to another intersection of the board it
    is taken."""
    st = client.post("/v1/games", json={"scenario": sid, "players": 3, "seed": 7}).get_json()["state"]
    st["scenario_state"]["treasures"][0]["node"] = [50, 50, "N"]
    r = client.post("/v1/derive", json={"state": st})
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    assert any(e["pointer"] == "/state/scenario_state/treasures/0/node" and rule in e["detail"] for e in errors)
    q, r0, c = st["scenario_state"]["treasures"][1]["node"]
    st["scenario_state"]["treasures"][0]["node"] = [q, r0, "S" if c == "N" else "N"]
    assert client.post("/v1/derive", json={"state": st}).status_code == 200
