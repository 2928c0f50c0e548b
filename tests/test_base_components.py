"""Components of the base game (BASE-COMP-1..8), the new-game generator and a full opening through the API."""
from __future__ import annotations

from collections import Counter

import pytest

from service.engine.geometry import edge_nodes, hex_neighbours
from service.engine.mapgraph import RESOURCE_OF, MapGraph
from tests.helpers import adjudicate, hand, radius_board, rules, state


def new_game(client, players=4, seed=3, **extra):
    r = client.post("/v1/games", json={"scenario": "base", "players": players, "seed": seed, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["state"]


def tiles(st):
    return [h for h in st["board"]["hexes"] if h["terrain"] != "frame"]


@pytest.mark.parametrize("seed", [0, 1, 7, 42])
def test_the_standard_board_has_the_19_tiles_and_18_tokens_of_BASE_COMP_5(client, seed):
    """The standard board has the 19 tiles and 18 tokens of (BASE-COMP-5)."""
    st = new_game(client, seed=seed)
    land = tiles(st)
    assert Counter(h["terrain"] for h in land) == {"forest": 4, "pasture": 4, "fields": 4, "hills": 3,
                                                   "mountains": 3, "desert": 1}
    assert sorted(h["number"] for h in land if h["number"] is not None) == \
        [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    desert = next(h for h in land if h["terrain"] == "desert")
    assert desert["number"] is None                                      # BASE-COMP-5: no token on the desert
    assert st["robber"] == [desert["q"], desert["r"]]                    # the robber starts on the desert


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_the_standard_board_has_9_harbours_each_on_two_coastal_intersections_BASE_COMP_6(client, seed):
    """The standard board has 9 harbours each on two coastal intersections (BASE-COMP-6)."""
    st = new_game(client, seed=seed)
    kinds = Counter(h["kind"] for h in st["board"]["harbors"])
    assert kinds == {"3:1": 4, "brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}
    terrain = {(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]}
    g = MapGraph.build(terrain)
    for hb in st["board"]["harbors"]:
        e = tuple(hb["edge"])
        assert g.edge_kind[g.edge_index[e]] == "coast"
        for n in edge_nodes(e):
            assert g.node_land[g.node_index[n]]


def test_no_two_red_numbers_are_adjacent_on_generated_boards_BASE_COMP_8(client):
    """No two red numbers are adjacent on generated boards (BASE-COMP-8)."""
    for seed in range(40):
        st = new_game(client, seed=seed)
        numbers = {(h["q"], h["r"]): h["number"] for h in tiles(st)}
        for h, n in numbers.items():
            if n in (6, 8):
                assert all(numbers.get(m) not in (6, 8) for m in hex_neighbours(h)), (seed, h)


def test_the_red_number_check_rejects_adjacent_reds_BASE_COMP_8():
    """The red number check rejects adjacent reds (BASE-COMP-8)."""
    from service.engine.scenarios.base import no_adjacent_reds
    assert no_adjacent_reds({(0, 0): 6, (2, 0): 8}) is True
    assert no_adjacent_reds({(0, 0): 6, (1, 0): 8}) is False


def test_a_new_game_has_the_full_bank_deck_and_supply_BASE_COMP_1_2_3(client):
    """A new game has the full bank deck and supply (BASE-COMP-1, BASE-COMP-2, BASE-COMP-3)."""
    st = new_game(client, players=3)
    assert st["bank"] == {r: 19 for r in ("lumber", "brick", "wool", "grain", "ore")}       # BASE-COMP-2
    assert st["dev_deck"] == {"knight": 14, "victory_point": 5, "road_building": 2,          # BASE-COMP-3
                              "year_of_plenty": 2, "monopoly": 2}
    for p in st["players"]:
        assert p["supply"] == {"settlements": 5, "cities": 4, "roads": 15, "ships": 0}      # BASE-COMP-1
    assert st["awards"] == {"longest_road": None, "largest_army": None}                    # BASE-COMP-4


def test_a_player_with_no_settlement_left_cannot_build_one_BASE_COMP_1(client):
    """A player with no settlement left cannot build one (BASE-COMP-1)."""
    board = radius_board(2)
    st = state(board, hands={0: hand(brick=1, lumber=1, wool=1, grain=1)},
               roads=[(0, (0, 0, "NE"))])
    legal = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert legal["legal"], legal["violations"]
    st["players"][0]["supply"] = {"settlements": 0, "cities": 4, "roads": 14, "ships": 0}
    # five settlements are on the board elsewhere for the supply to be consistent
    far = [(-2, 2, "N"), (2, -2, "S"), (-2, 0, "S"), (2, 0, "N"), (0, 2, "S")]
    st["pieces"]["settlements"] = [{"player": 0, "node": list(n)} for n in far]
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert not v["legal"] and rules(v) == ["BASE-COMP-1"]


def test_an_upgraded_settlement_returns_to_the_supply_BASE_COMP_1(client):
    """An upgraded settlement returns to the supply (BASE-COMP-1)."""
    st = state(radius_board(2), hands={0: hand(grain=2, ore=3)}, settlements=[(0, (0, 0, "N"))])
    v = adjudicate(client, st, {"type": "build_city", "player": 0, "node": [0, 0, "N"]})
    assert v["legal"]
    assert v["state"]["players"][0]["supply"]["settlements"] == 5
    assert v["state"]["players"][0]["supply"]["cities"] == 3


def test_cards_are_conserved_a_bank_with_too_many_cards_is_rejected_BASE_COMP_2(client):
    """Cards are conserved a bank with too many cards is rejected (BASE-COMP-2)."""
    st = state(radius_board(2), hands={0: hand(ore=2)})
    st["bank"] = {"lumber": 19, "brick": 19, "wool": 19, "grain": 19, "ore": 19}
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    assert any(e["pointer"] == "/state/bank/ore" for e in r.get_json()["errors"])
    st["bank"]["ore"] = 17
    assert client.post("/v1/adjudicate", json={"state": st, "action": None}).status_code == 200


def test_an_empty_development_deck_sells_no_card_BASE_COMP_3(client):
    """An empty development deck sells no card (BASE-COMP-3)."""
    st = state(radius_board(2), hands={0: hand(wool=1, grain=1, ore=1)})
    assert adjudicate(client, st, {"type": "buy_development_card", "player": 0})["legal"]
    st["dev_deck"] = {"knight": 0, "victory_point": 0, "road_building": 0, "year_of_plenty": 0, "monopoly": 0}
    st["players"][1]["dev_cards"] = {"knight": 14, "victory_point": 5, "road_building": 2,
                                     "year_of_plenty": 2, "monopoly": 2}
    v = adjudicate(client, st, {"type": "buy_development_card", "player": 0})
    assert rules(v) == ["BASE-COMP-3"]


def test_each_special_card_has_one_holder_worth_2_vp_BASE_COMP_4(client):
    """Each special card has one holder worth 2 vp (BASE-COMP-4)."""
    st = state(radius_board(2), awards={"longest_road": 1, "largest_army": 2})
    st["players"][2]["dev_cards_played"] = {"knight": 3}
    v = adjudicate(client, st, None)
    vp = v["derived"]["victory_points"]
    assert vp["1"]["longest_road"] == 2 and vp["2"]["largest_army"] == 2
    assert vp["0"]["longest_road"] == 0 and vp["0"]["largest_army"] == 0
    assert sum(vp[p]["longest_road"] for p in vp) == 2 and sum(vp[p]["largest_army"] for p in vp) == 2


def test_a_roll_is_the_sum_of_two_six_sided_dice_BASE_COMP_7(client):
    """A roll is the sum of two six sided dice (BASE-COMP-7)."""
    st = state(radius_board(2), phase="roll", rng={"seed": 9, "counter": 0})
    seen = set()
    for counter in range(30):
        st["rng"]["counter"] = counter
        v = adjudicate(client, st, {"type": "roll", "player": 0})
        d1, d2 = v["state"]["last_roll"]
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6
        ev = next(e for e in v["events"] if e["type"] == "rolled")
        assert ev["total"] == d1 + d2 and ev["dice"] == [d1, d2]
        seen.add(d1 + d2)
    assert len(seen) > 5
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "roll", "player": 0, "dice": [3, 7]}})
    assert r.status_code == 422                                   # a die has six sides


# -- BASE-SETUP-1 .. 6: a whole opening through the API ---------------------------------------------------

def _free_site(st, g, taken):
    """An intersection of three land tiles whose neighbours are all empty (the distance rule)."""
    terrain = {(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]}
    for nid, node in enumerate(g.nodes):
        hexes = g.node_hexes[nid]
        if len(hexes) != 3 or any(terrain[h] == "frame" for h in hexes) or node in taken:
            continue
        if any(g.nodes[m] in taken for m in g.node_neighbour_ids[nid]):
            continue
        return node
    raise AssertionError("no free site")


def test_a_four_player_opening_goes_in_snake_order_and_pays_starting_resources_BASE_SETUP_1_to_6(client):
    """A four player opening goes in snake order and pays starting resources (BASE-SETUP-1, BASE-SETUP-2, BASE-SETUP-3, BASE-SETUP-4, BASE-SETUP-5, BASE-SETUP-6)."""
    st = new_game(client, players=4, seed=21)
    terrain = {(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]}
    number = {(h["q"], h["r"]): h["number"] for h in st["board"]["hexes"]}
    g = MapGraph.build(terrain)
    taken: set = set()
    order = []
    second: dict[int, tuple] = {}
    for i in range(8):
        p = st["current_player"]
        order.append(p)
        node = _free_site(st, g, taken)
        # somebody else placing now is refused: set-up goes in (snake) order
        other = (p + 1) % 4
        wrong = adjudicate(client, st, {"type": "build_settlement", "player": other, "node": list(node)})
        assert rules(wrong) == (["BASE-SETUP-2"] if i < 4 else ["BASE-SETUP-3"])
        before = st["players"][p]["resources"]
        v = adjudicate(client, st, {"type": "build_settlement", "player": p, "node": list(node)})
        assert v["legal"], v["violations"]
        st = v["state"]
        taken.add(node)
        gained = {r: st["players"][p]["resources"][r] - before[r] for r in before}
        if i < 4:
            assert sum(gained.values()) == 0                      # BASE-SETUP-5: the first settlement gives nothing
        else:
            second[p] = node
            want = Counter(RESOURCE_OF[terrain[h]] for h in g.node_hexes[g.node_index[node]]
                           if terrain[h] in RESOURCE_OF)
            assert {r: n for r, n in gained.items() if n} == dict(want)
        nid = g.node_index[node]
        edge = next(g.edges[e] for e in g.node_edge_ids[nid] if g.road_edge(e))
        v = adjudicate(client, st, {"type": "build_road", "player": p, "edge": list(edge)})
        assert v["legal"], v["violations"]
        st = v["state"]
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]                       # BASE-SETUP-2 / BASE-SETUP-3
    assert st["phase"] == "roll" and st["current_player"] == 0      # BASE-SETUP-6 / BASE-SETUP-1
    assert all(p["supply"]["settlements"] == 3 and p["supply"]["roads"] == 13 for p in st["players"])
    # the first rolls: production goes to every building on a hex with the rolled number
    for turn in range(3):
        p = st["current_player"]
        assert p == turn % 4
        hands_before = [dict(pl["resources"]) for pl in st["players"]]
        v = adjudicate(client, st, {"type": "roll", "player": p, "dice": [2, 4]})
        assert v["legal"]
        st = v["state"]
        for q, pl in enumerate(st["players"]):
            want = Counter()
            for node, owner in [(tuple(s["node"]), s["player"]) for s in st["pieces"]["settlements"]]:
                if owner != q:
                    continue
                for h in g.node_hexes[g.node_index[node]]:
                    if number[h] == 6 and list(h) != st["robber"]:
                        want[RESOURCE_OF[terrain[h]]] += 1
            got = {r: pl["resources"][r] - hands_before[q][r] for r in pl["resources"]}
            assert {r: n for r, n in got.items() if n} == dict(want)
        v = adjudicate(client, st, {"type": "end_turn", "player": p})
        assert v["legal"]
        st = v["state"]
    assert st["current_player"] == 3 and st["turn"] == 4
