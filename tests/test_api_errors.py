"""Bad input always gets a clear 4xx problem+json naming the field by JSON pointer, never a 500; and
nothing the service is given is ever changed."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from service.api import create_app
from service.api.codec import dump_state
from service.api.errors import Problem
from service.api.compose import union_action_fields

ACTION_FIELDS = union_action_fields()
from service.api.service import judge, parse_action, parse_state

from .helpers import hand, hexes, radius_board, state
from .spec_util import errors as spec_errors

SMALL = radius_board(1)


def small_state(**kw: Any) -> dict:
    return state(copy.deepcopy(SMALL), **kw)


def problem(r, status: int, pointer: str | None = None) -> dict:
    """Assert a problem+json answer of ``status`` that validates against the spec (and names ``pointer``)."""
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:500])
    assert r.mimetype == "application/problem+json"
    body = r.get_json()
    assert not spec_errors(body, "/components/schemas/Problem"), body
    assert body["status"] == status and body["detail"] and body["type"].startswith("https://")
    if pointer is not None:
        pointers = [e["pointer"] for e in body.get("errors", [])]
        assert pointer in pointers, f"{pointer} not named in {pointers}: {body['detail']}"
    return body


def post(client, body: Any, path: str = "/v1/adjudicate"):
    return client.post(path, json=body)


def post_raw(client, text: str | bytes, path: str = "/v1/adjudicate", ctype: str = "application/json"):
    return client.post(path, data=text, content_type=ctype)


# -- the body itself --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "{", "not json", "{'state': 1}", '{"state": }', "[1,]", '{"a":1}{"b":2}'])
def test_a_body_that_is_not_json_is_a_400(client, text):
    problem(post_raw(client, text), 400)


def test_a_body_that_is_not_utf8_is_a_400(client):
    assert "UTF-8" in problem(post_raw(client, b'{"state": "\xff\xfe"}'), 400)["detail"]


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                   "application/xml"])
@pytest.mark.parametrize("path", ["/v1/adjudicate", "/v1/games"])
def test_a_body_that_is_not_declared_json_is_a_415(client, ctype, path):
    body = problem(post_raw(client, '{"players": 3}', path, ctype), 415, "/")
    assert "application/json" in body["detail"]


def test_a_body_without_content_type_is_a_415(client):
    problem(client.post("/v1/games", data='{"players": 3}'), 415)


def test_a_json_suffix_media_type_is_accepted(client):
    assert post_raw(client, '{"players": 3}', "/v1/games", "application/vnd.catan+json").status_code == 201


def test_a_body_over_the_limit_is_a_413_before_it_is_parsed():
    client = create_app({"TESTING": True, "MAX_BODY_BYTES": 1000}).test_client()
    body = problem(post_raw(client, "{" + " " * 2000 + "}"), 413)
    assert "1000" in body["detail"]
    problem(post_raw(client, "x" * 5000, "/v1/games"), 413)   # too large wins over not JSON
    assert post_raw(client, '{"players": 3}', "/v1/games").status_code == 201


def test_the_default_body_limit_is_two_mebibytes(client, app):
    assert app.config["MAX_BODY_BYTES"] == 2 * 1024 * 1024
    problem(post_raw(client, '{"state": "' + "x" * (2 * 1024 * 1024) + '"}'), 413)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
def test_nan_and_infinity_are_a_400(client, literal):
    problem(post_raw(client, '{"players": 3, "options": {"x": %s}}' % literal, "/v1/games"), 400)
    problem(post_raw(client, '{"state": {"turn": %s}}' % literal), 400)


@pytest.mark.parametrize("text", ['{"state": {}, "state": {}}', '{"state": {"phase": "main", "phase": "roll"}}',
                                  '{"players": 3, "seed": 1, "seed": 2}'])
def test_duplicate_keys_are_a_400_naming_the_key(client, text):
    body = problem(post_raw(client, text, "/v1/games" if "players" in text else "/v1/adjudicate"), 400)
    assert "duplicate key" in body["detail"]


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_deep_nesting_is_a_400(client, depth):
    text = '{"state": {"options": {"x": ' + "[" * depth + "]" * depth + "}}}"
    # (100,000 arrays are also more JSON values than a body may hold: refused while read, a 413)
    problem(post_raw(client, text), 400 if depth < 100_000 else 413)


def test_giant_integers_are_a_400_or_out_of_range(client):
    body = problem(post_raw(client, '{"players": ' + "9" * 5000 + "}", "/v1/games"), 400)
    assert "digits" in body["detail"]
    problem(post(client, {"players": 3, "seed": 2 ** 64}, "/v1/games"), 422, "/seed")
    st = small_state()
    st["board"]["hexes"][0]["q"] = 10 ** 30
    problem(post(client, {"state": st}), 422, "/state/board/hexes/0/q")
    st = small_state(turn=2 ** 63)
    problem(post(client, {"state": st}), 422, "/state/turn")


@pytest.mark.parametrize("field,size", [("players", 90_000), ("svp_attached", 90_000)])   # (within the body's value count)
def test_huge_arrays_are_refused_quickly_with_a_short_answer(client, field, size):
    st = small_state()
    st[field] = [None] * size
    r = post(client, {"state": st})
    problem(r, 422, f"/state/{field}")
    assert len(r.data) < 5000


def test_huge_piece_and_hex_lists_are_refused(client):
    st = small_state()
    st["pieces"]["roads"] = [{"player": 0, "edge": [0, 0, "E"]}] * 5000
    problem(post(client, {"state": st}), 422, "/state/pieces/roads")
    st = small_state()
    st["board"]["hexes"] = [{"q": 0, "r": 0, "terrain": "sea"}] * 5000
    problem(post(client, {"state": st}), 422, "/state/board/hexes")


def test_a_problem_lists_at_most_fifty_fields(client):
    st = small_state()
    st["board"]["hexes"] = [{"q": 0, "r": 0, "terrain": "lava"}] * 300
    body = problem(post(client, {"state": st}), 422)
    assert len(body["errors"]) == 50 and "300 problems" in body["detail"]


# -- wrong types and unknown fields ------------------------------------------------------------------------

def _paths(v: Any, pre: tuple = ()):
    yield pre
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, pre + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, pre + (i,))


def _replaced(doc: Any, path: tuple, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    t = doc
    for k in path[:-1]:
        t = t[k]
    t[path[-1]] = value
    return doc


WRONG = [{}, [], "x", 1.5, -1, True, 10 ** 20, [[]], {"a": {}}, "N"]


def _a_request() -> dict:
    st = small_state(hands={0: hand(lumber=1, brick=1)}, settlements=[(0, [0, 0, "N"])], roads=[(0, [0, -1, "SE"])],
                     robber=[0, 0], turn_flags={"rolled": True}, harbors=[([1, -2, "SE"], "3:1")])
    return {"state": st, "action": {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}}


def test_the_sweep_request_is_legal(client):
    r = post(client, _a_request())
    assert r.status_code == 200 and r.get_json()["legal"], r.get_json()


def test_a_wrong_type_anywhere_is_a_4xx_naming_the_field_never_a_500(client):
    req = _a_request()
    seen = 0
    for path in _paths(req):
        if not path:
            continue
        pointer = "/" + "/".join(map(str, path))
        for wrong in WRONG:
            r = post(client, _replaced(req, path, wrong))
            assert r.status_code < 500, (pointer, wrong, r.get_data(as_text=True)[:300])
            if r.status_code == 200:      # e.g. another valid corner name, a number that is also fine
                continue
            body = problem(r, r.status_code)
            named = [e["pointer"] for e in body.get("errors", [])]
            assert r.status_code == 422 and named, (pointer, wrong, body)
            seen += 1
    assert seen > 300


@pytest.mark.parametrize("where,pointer", [
    ((), "/colour"),
    (("state",), "/state/colour"),
    (("state", "board"), "/state/board/colour"),
    (("state", "board", "hexes", 0), "/state/board/hexes/0/colour"),
    (("state", "players", 0), "/state/players/0/colour"),
    (("state", "players", 0, "resources"), "/state/players/0/resources/colour"),
    (("state", "pieces"), "/state/pieces/colour"),
    (("state", "pieces", "settlements", 0), "/state/pieces/settlements/0"),
    (("state", "turn_flags"), "/state/turn_flags/colour"),
    (("action",), "/action/colour"),
])
def test_unknown_fields_are_a_422_naming_them(client, where, pointer):
    req = _a_request()
    t = req
    for k in where:
        t = t[k]
    t["colour"] = "red"
    problem(post(client, req), 422, pointer)


def test_an_unknown_field_of_a_new_game_is_a_422(client):
    problem(post(client, {"players": 3, "colour": "red"}, "/v1/games"), 422, "/colour")


def test_the_body_must_be_an_object_with_a_state(client):
    problem(post(client, [1, 2]), 422, "/")
    problem(post(client, {"action": None}), 422, "/state")
    problem(post(client, {"state": []}), 422, "/state")
    problem(post(client, {"state": small_state(), "action": {"player": 0}}), 422, "/action/type")
    problem(post(client, {"state": small_state(), "action": {"type": {}, "player": 0}}), 422, "/action/type")
    problem(post(client, {"state": small_state(), "action": {"type": "fly", "player": 0}}), 422, "/action/type")


# -- coordinates -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value,pointer", [
    ("node", [0, 0, "X"], "/action/node"),
    ("node", [0, 0, "E"], "/action/node"),     # a side name is not a corner name
    ("node", [0, 0], "/action/node"),
    ("node", [0, 0, "N", 1], "/action/node"),
    ("node", [0.0, 0, "N"], "/action/node"),
    ("node", ["0", 0, "N"], "/action/node"),
    ("node", [65, 0, "N"], "/action/node"),
])
def test_bad_intersections_are_a_422_naming_the_field(client, field, value, pointer):
    req = {"state": small_state(), "action": {"type": "build_settlement", "player": 0, field: value}}
    problem(post(client, req), 422, pointer)


@pytest.mark.parametrize("value", [[0, 0, "N"], [0, 0, "S"], [0, 0, "north"], [0, 0, "e"], [0, 0, ""]])
def test_bad_paths_are_a_422_naming_the_field(client, value):
    req = {"state": small_state(), "action": {"type": "build_road", "player": 0, "edge": value}}
    body = problem(post(client, req), 422, "/action/edge")
    assert "side name" in body["detail"]


def test_unknown_corner_names_in_the_state_are_named(client):
    st = small_state(settlements=[(0, [0, 0, "NNE"])])
    problem(post(client, {"state": st}), 422, "/state/pieces/settlements/0/node")
    st = small_state(roads=[(0, [0, 0, "N"])])
    problem(post(client, {"state": st}), 422, "/state/pieces/roads/0/edge")


def test_hexes_off_the_board_are_a_422(client):
    problem(post(client, {"state": small_state(robber=[5, 5])}), 422, "/state/robber")
    problem(post(client, {"state": small_state(robber=[0, 0, 0])}), 422, "/state/robber")
    problem(post(client, {"state": small_state(robber=[-65, 0])}), 422, "/state/robber")
    problem(post(client, {"state": small_state(settlements=[(0, [5, 5, "N"])])}), 422,
            "/state/pieces/settlements/0/node")
    problem(post(client, {"state": small_state(roads=[(0, [5, 5, "E"])])}), 422, "/state/pieces/roads/0/edge")
    req = {"state": small_state(phase="robber"), "action": {"type": "move_robber", "player": 0, "hex": [70, 0]}}
    problem(post(client, req), 422, "/action/hex")


def test_a_hex_listed_twice_is_named(client):
    st = small_state()
    st["board"]["hexes"].append(dict(st["board"]["hexes"][3]))
    body = problem(post(client, {"state": st}), 422, f"/state/board/hexes/{len(st['board']['hexes']) - 1}")
    assert "/state/board/hexes/3" in [e["pointer"] for e in body["errors"]]     # both entries: either may be wrong


def test_a_broken_sum_names_both_sides_BASE_COMP_2(client):
    """BASE-COMP-2: cards in hands and in the bank add up to the game's 19 of each; a broken sum names the bank
    and every hand (either side may be the one changed), not the bank alone."""
    st = small_state()
    st["bank"] = {"lumber": 19, "brick": 19, "wool": 19, "grain": 19, "ore": 19}
    st["players"][1]["resources"] = {"lumber": 3, "brick": 0, "wool": 0, "grain": 0, "ore": 0}
    body = problem(post(client, {"state": st}), 422, "/state/players/1/resources/lumber")
    assert "/state/bank/lumber" in [e["pointer"] for e in body["errors"]]


# -- states that cannot exist ------------------------------------------------------------------------------

def test_two_buildings_on_one_intersection_are_a_422_even_under_another_name(client):
    # corner SE of (0, -1) is corner N of (0, 0)
    st = small_state(settlements=[(0, [0, 0, "N"]), (1, [0, -1, "SE"])])
    problem(post(client, {"state": st}), 422, "/state/pieces/settlements/1/node")
    st = small_state(settlements=[(0, [0, 0, "N"])], cities=[(1, [0, 0, "N"])])
    problem(post(client, {"state": st}), 422, "/state/pieces/cities/0/node")


def test_two_pieces_on_one_path_are_a_422(client):
    # side W of (1, 0) is side E of (0, 0)
    st = small_state(roads=[(0, [0, 0, "E"]), (1, [1, 0, "W"])])
    problem(post(client, {"state": st}), 422, "/state/pieces/roads/1/edge")


def test_buildings_one_path_apart_are_a_422(client):
    st = small_state(settlements=[(0, [0, 0, "N"]), (1, [0, 0, "NE"])])
    problem(post(client, {"state": st}), 422)


def test_more_pieces_than_the_supply_is_a_422(client):
    nodes = [[0, 0, "N"], [0, 0, "S"], [-1, 0, "N"], [1, -1, "S"], [-1, 1, "S"], [1, 0, "S"]]
    st = small_state(settlements=[(0, n) for n in nodes])
    problem(post(client, {"state": st}), 422, "/state/pieces/settlements")


def test_a_supply_that_does_not_add_up_is_a_422(client):
    st = small_state(roads=[(0, [0, 0, "E"])])
    st["players"][0]["supply"] = {"settlements": 5, "cities": 4, "roads": 15, "ships": 0}
    problem(post(client, {"state": st}), 422, "/state/players/0/supply/roads")


def test_cards_that_do_not_add_up_with_the_bank_are_a_422(client):
    st = small_state(hands={0: hand(ore=3)}, bank={"lumber": 19, "brick": 19, "wool": 19, "grain": 19, "ore": 19})
    problem(post(client, {"state": st}), 422, "/state/bank/ore")
    st = small_state(hands={0: hand(ore=20)})
    problem(post(client, {"state": st}), 422, "/state/bank/ore")
    st = small_state()
    st["players"][0]["dev_cards"] = {"monopoly": 3}
    problem(post(client, {"state": st}), 422, "/state/dev_deck/monopoly")


def test_unknown_card_names_are_named(client):
    st = small_state(hands={0: {"gold": 1}})
    problem(post(client, {"state": st}), 422, "/state/players/0/resources/gold")
    st = small_state(hands={0: {"wood": 1, "lumber": 1}})   # one kind under two names
    problem(post(client, {"state": st}), 422)


def test_a_player_that_does_not_exist_is_a_422(client):
    problem(post(client, {"state": small_state(), "action": {"type": "end_turn", "player": 3}}), 422, "/action/player")
    problem(post(client, {"state": small_state(), "action": {"type": "end_turn", "player": 4}}), 422, "/action/player")
    problem(post(client, {"state": small_state(settlements=[(3, [0, 0, "N"])])}), 422,
            "/state/pieces/settlements/0/player")
    problem(post(client, {"state": small_state(current=3)}), 422, "/state/current_player")
    req = {"state": small_state(phase="robber"),
           "action": {"type": "move_robber", "player": 0, "hex": [1, 0], "steal_from": 3}}
    problem(post(client, req), 422, "/action/steal_from")
    problem(post(client, {"state": small_state(pending_gold={"²": 1})}), 422, "/state/pending_gold/²")


def test_an_action_the_scenario_does_not_know_is_a_422(client):
    req = {"state": small_state(), "action": {"type": "build_ship", "player": 0, "edge": [0, 0, "E"]}}
    problem(post(client, req), 422, "/action/type")


def test_a_wrong_new_game_is_a_422_naming_the_field(client):
    problem(post(client, {}, "/v1/games"), 422, "/players")
    problem(post(client, {"players": "3"}, "/v1/games"), 422, "/players")
    problem(post(client, {"players": True}, "/v1/games"), 422, "/players")
    problem(post(client, {"players": 3, "scenario": "atlantis"}, "/v1/games"), 422, "/scenario")
    problem(post(client, {"players": 3, "seed": -1}, "/v1/games"), 422, "/seed")
    problem(post(client, {"players": 3, "options": {"k%d" % i: 1 for i in range(31)}}, "/v1/games"), 422, "/options")


def test_booleans_are_json_booleans(client):
    st = small_state(turn_flags={"rolled": "yes"})
    problem(post(client, {"state": st}), 422, "/state/turn_flags/rolled")
    req = {"state": small_state(), "action": {"type": "domestic_trade", "player": 0, "partner": 1,
                                              "give": {"ore": 1}, "get": {"wool": 1}, "accepted": 1}}
    problem(post(client, req), 422, "/action/accepted")


# -- paths and methods ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/v1", "/v2/adjudicate", "/v1/adjudicate/x", "/v1/scenarios/atlantis",
                                  "/favicon.ico"])
def test_unknown_paths_are_a_404_problem(client, path):
    r = client.get(path)
    if path == "/" and r.status_code == 200:    # a landing page may be served at the root
        return
    problem(r, 404)


@pytest.mark.parametrize("method,path,allowed", [
    ("get", "/v1/adjudicate", "POST"), ("put", "/v1/adjudicate", "POST"), ("delete", "/v1/games", "POST"),
    ("post", "/healthz", "GET"), ("post", "/v1/scenarios", "GET"), ("patch", "/v1/scenarios/base", "GET"),
    ("post", "/openapi.yaml", "GET"),
])
def test_a_wrong_method_is_a_405_with_an_allow_header(client, method, path, allowed):
    r = getattr(client, method)(path)
    problem(r, 405)
    assert allowed in [m.strip() for m in r.headers["Allow"].split(",")]


# -- nothing is mutated ------------------------------------------------------------------------------------

def _rich_state(scenario: str = "seafarers", phase: str = "main", **kw) -> dict:
    from service.engine.scenarios import get_scenario
    scen = get_scenario(scenario)
    kw.setdefault("turn_flags", {"rolled": True})
    board = radius_board(2)
    for h in board:
        if (h["q"], h["r"]) in {(2, -2), (2, -1), (2, 0)}:
            h["terrain"], h["number"] = "sea", None
    full = hand(lumber=3, brick=3, wool=3, grain=3, ore=3)
    st = state(board, scenario=scenario, phase=phase, hands={0: full, 1: full, 2: full},
               settlements=[(0, [0, 0, "N"]), (1, [-1, 1, "S"]), (0, [1, 0, "N"])], cities=[(2, [0, 1, "S"])],
               roads=[(0, [0, -1, "SE"]), (1, [-1, 1, "SE"])], ships=[(0, [1, -1, "E"])] if scen.ships else [],
               robber=[-1, 0], pirate=[2, -1] if scen.pirate else None, **kw)
    st["players"][0]["dev_cards"] = {"knight": 1, "road_building": 1, "year_of_plenty": 1, "monopoly": 1}
    return st


def _no_robber_seven() -> dict:
    """A 7 just rolled in a scenario without a robber (TDE4: the roller takes a card)."""
    st = _rich_state("TDE4", phase="robber", last_roll=[3, 4])
    st["robber"] = None
    return st


def action_samples() -> dict[str, tuple[dict, dict]]:
    """A (state, action) for every action type, legal where that is easy."""
    main = _rich_state()
    return {
        "steal_card": (_no_robber_seven(), {"type": "steal_card", "player": 0, "steal_from": 2, "card": "ore"}),
        "build_settlement": (main, {"type": "build_settlement", "player": 0, "node": [1, -2, "S"]}),
        "build_city": (main, {"type": "build_city", "player": 0, "node": [0, 0, "N"]}),
        "build_road": (main, {"type": "build_road", "player": 0, "edge": [0, -1, "E"]}),
        "build_ship": (main, {"type": "build_ship", "player": 0, "edge": [2, -2, "SE"]}),
        "move_ship": (main, {"type": "move_ship", "player": 0, "from": [1, -1, "E"], "to": [2, -2, "SE"]}),
        "roll": (_rich_state(phase="roll", turn_flags=None), {"type": "roll", "player": 0, "dice": [3, 4]}),
        "discard": (_rich_state(phase="discard", pending_discards={"1": 7}),
                    {"type": "discard", "player": 1, "resources": {"ore": 3, "wool": 3, "grain": 1}}),
        "move_robber": (_rich_state(phase="robber"),
                        {"type": "move_robber", "player": 0, "hex": [0, 1], "steal_from": 2, "card": "ore"}),
        "move_pirate": (_rich_state(phase="robber"), {"type": "move_pirate", "player": 0, "hex": [2, 0]}),
        "choose_gold": (_rich_state(phase="gold_choice", pending_gold={"0": 1}),
                        {"type": "choose_gold", "player": 0, "resources": {"ore": 1}}),
        "buy_development_card": (main, {"type": "buy_development_card", "player": 0, "card": "knight"}),
        "play_knight": (main, {"type": "play_knight", "player": 0, "hex": [0, 1], "steal_from": 2}),
        "play_road_building": (main, {"type": "play_road_building", "player": 0,
                                      "pieces": [{"kind": "road", "edge": [0, -1, "E"]},
                                                 {"kind": "road", "edge": [1, -2, "SE"]}]}),
        "play_year_of_plenty": (main, {"type": "play_year_of_plenty", "player": 0, "resources": {"ore": 2}}),
        "play_monopoly": (main, {"type": "play_monopoly", "player": 0, "resource": "ore"}),
        "maritime_trade": (main, {"type": "maritime_trade", "player": 0, "give": {"ore": 3}, "get": {"wool": 1}}),
        "domestic_trade": (main, {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"ore": 1},
                                  "get": {"wool": 2}, "accepted": True}),
        "end_turn": (main, {"type": "end_turn", "player": 0}),
    }


def _auto_value(f) -> Any:
    """A plausible value for an action field, for action types without a hand-written sample."""
    from marshmallow import fields as mf, validate as mv
    from service.api.fields import Cards, EdgeCoord, HexCoord, NodeCoord
    choices = [v.choices for v in f.validators if isinstance(v, mv.OneOf)]
    ranges = [v for v in f.validators if isinstance(v, mv.Range)]
    if isinstance(f, NodeCoord):
        return [0, 0, "N"]
    if isinstance(f, EdgeCoord):
        return [1, -1, "E"]
    if isinstance(f, HexCoord):
        return [0, 1]
    if isinstance(f, Cards):
        return {"ore" if "ore" in f.allowed else f.allowed[0]: 1}
    if choices:
        return list(choices[0])[0]
    if isinstance(f, mf.Boolean):
        return True
    if isinstance(f, mf.Integer):
        return max(0, ranges[0].min) if ranges and ranges[0].min is not None else 0
    if isinstance(f, mf.List):
        return [_auto_value(f.inner)]
    if isinstance(f, mf.Nested):
        return {k: _auto_value(x) for k, x in f.schema.fields.items() if x.required}
    if isinstance(f, mf.String):
        return "x"
    return None


def sample_for(type_: str) -> tuple[dict, dict]:
    samples = action_samples()
    if type_ in samples:
        return samples[type_]
    action = {"type": type_, "player": 0}
    for name, f in ACTION_FIELDS[type_].items():
        if f.required:
            action[f.data_key or name] = _auto_value(f)
    from service.engine.scenarios import EXPANSIONS, SCENARIOS, all_games
    scenario = next((sid for sid, sc in SCENARIOS.items() if type_ in sc.action_types()
                     and not any(isinstance(sc, e.module) for e in EXPANSIONS.values())), None)
    if scenario is None:     # a type of an expansion: a new game of the first game that has it
        from service.api.codec import dump_state
        label, game = next((k, g) for k, g in all_games().items() if type_ in g.action_types())
        if " with " not in label:     # a scenario played only with an expansion switches it on itself
            return dump_state(game.new_game(max(game.players), 5)), action
        option = label.split(" with ", 1)[1]
        return dump_state(game.new_game(max(game.players), 5, {option: True})), action
    scenario = scenario or "seafarers"
    st = _rich_state(scenario)
    if scenario != "seafarers":
        st["pieces"]["ships"] = []   # a scenario's own ships may have their own shape
    return st, action


ALL_TYPES = sorted(ACTION_FIELDS)


@pytest.mark.parametrize("type_", ALL_TYPES)
def test_judging_never_changes_the_posted_state_or_action(app, type_):
    """Across every action type (a type without a sample in action_samples() gets a generated one)."""
    raw_state, raw_action = sample_for(type_)
    raw_state, raw_action = copy.deepcopy(raw_state), copy.deepcopy(raw_action)
    before_state, before_action = copy.deepcopy(raw_state), copy.deepcopy(raw_action)
    cache = app.extensions["graph_cache"]
    try:
        st, graph = parse_state(raw_state, cache)
    except Problem as p:
        pytest.fail(f"the sample state for {type_} does not load ({p.detail}); add one to action_samples()")
    snapshot = json.dumps(dump_state(st), sort_keys=True)
    try:
        action = parse_action(raw_action, st)
    except Problem as p:
        pytest.fail(f"the sample {raw_action} does not load ({p.detail}); add one to action_samples()")
    params = copy.deepcopy(action.params)
    verdict = judge(st, action, graph)
    assert json.dumps(dump_state(st), sort_keys=True) == snapshot, "the engine changed the state it was given"
    assert action.params == params, "the engine changed the action it was given"
    assert raw_state == before_state and raw_action == before_action, "parsing changed the posted JSON"
    again = judge(st, action, graph)               # the same input gives the same verdict
    assert again.legal == verdict.legal
    if verdict.legal:
        assert json.dumps(dump_state(again.state)) == json.dumps(dump_state(verdict.state))


@pytest.mark.parametrize("type_", ALL_TYPES)
def test_every_action_sample_is_answered_as_documented(client, type_):
    from .spec_util import check_response
    raw_state, raw_action = sample_for(type_)
    r = client.post("/v1/adjudicate", json={"state": raw_state, "action": raw_action})
    assert r.status_code == 200, r.get_json()
    check_response("/v1/adjudicate", "post", r)


def test_most_action_samples_are_legal(client):
    legal = []
    for type_, (st, action) in action_samples().items():
        r = client.post("/v1/adjudicate", json={"state": st, "action": action})
        if r.status_code == 200 and r.get_json()["legal"]:
            legal.append(type_)
    assert len(legal) >= len(action_samples()) // 2, legal


def test_the_http_path_does_not_change_its_input_either(client):
    req = _a_request()
    before = copy.deepcopy(req)
    first = client.post("/v1/adjudicate", json=req).get_data()
    assert req == before
    assert client.post("/v1/adjudicate", json=req).get_data() == first


def test_hexes_helper_board_is_accepted(client):
    board = hexes({(0, 0): ("forest", 6), (1, 0): "sea"})
    r = client.post("/v1/adjudicate", json={"state": state(board)})
    assert r.status_code == 200, r.get_json()


@pytest.mark.parametrize("query", ["explain=maybe", "explain=true&explain=false", "explain=TRUE"])
def test_a_bad_query_flag_is_a_400(client, query):
    body = problem(client.post(f"/v1/adjudicate?{query}", json=_a_request()), 400, "/query/explain")
    assert "explain" in body["detail"] and body["type"].endswith("/bad-query")


@pytest.mark.parametrize("url", ["/v1/rules?colour=red", "/v1/rules?module=XYZ", "/v1/games/base/3/7?colour=red"])
def test_a_bad_query_parameter_has_its_own_problem_type(client, url):
    """A query parameter unknown or of a wrong value is not a malformed body: its own type, bad-query, naming
    the parameter by a /query/ pointer."""
    body = problem(client.get(url), 400)
    assert body["type"].endswith("/bad-query") and body["title"] == "Bad query parameter"
    assert all(e["pointer"].startswith("/query/") for e in body["errors"])


# -- options of the tools are JSON booleans and numbers, never look-alikes -------------------------------

_NEW_GAME = {"players": 3, "scenario": "base", "seed": 7}


@pytest.mark.parametrize("path, body, pointer", [
    ("/v1/replay", {"new_game": _NEW_GAME, "actions": [], "derived": 0}, "/derived"),
    ("/v1/replay", {"new_game": _NEW_GAME, "actions": [], "events": "true"}, "/events"),
    ("/v1/render", {"state": None, "frame": 0}, "/frame"),
    ("/v1/render", {"state": None, "coords": "yes"}, "/coords"),
    ("/v1/render", {"state": None, "size": "30"}, "/size"),
    ("/v1/render", {"state": None, "size": True}, "/size"),
])
def test_tool_options_take_only_json_booleans_and_numbers(client, path, body, pointer):
    """A 0, "true" or "30" where the contract says boolean or number is refused, never read as one."""
    problem(post(client, body, path), 422, pointer)
