"""Warnings beside a verdict: suspicious but possible positions (never a reason for ``legal: false``)."""
from __future__ import annotations

from .helpers import adjudicate, hexes, radius_board, state
from .spec_util import check_response


def codes(v):
    return [w["code"] for w in v["warnings"]]


def test_an_ordinary_position_has_no_warnings(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    v = adjudicate(client, st, None)
    assert v["warnings"] == []


def test_a_number_on_sea_or_desert_is_a_warning_not_a_violation(client):
    board = radius_board(1)
    board[0] = {**board[0], "terrain": "sea", "number": 5}
    i = next(i for i, h in enumerate(board) if h["terrain"] == "forest")
    board[i] = {**board[i], "terrain": "desert", "number": 9}
    st = state(board, scenario="seafarers")
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    check_response("/v1/adjudicate", "post", r)
    v = r.get_json()
    assert v["legal"] and codes(v) == ["token-on-sea", "token-on-desert"]
    sea, desert = v["warnings"]
    assert sea["path"] == "/state/board/hexes/0/number" and sea["rule"] == "BASE-PROD-3"
    assert desert["path"] == f"/state/board/hexes/{i}/number" and "desert" in desert["message"]


def test_pieces_joined_to_nothing_are_warned_about(client):
    st = state(radius_board(2), settlements=[(0, [0, 0, "N"])],
               roads=[(0, [0, 0, "NE"]), (0, [1, 1, "E"]), (1, [-1, 1, "E"])])
    v = adjudicate(client, st, {"type": "end_turn", "player": 0})
    warned = [(w["code"], w["path"]) for w in v["warnings"]]
    assert ("unjoined-road", "/state/pieces/roads/1") in warned and ("unjoined-road", "/state/pieces/roads/2") in warned
    assert all(p != "/state/pieces/roads/0" for _c, p in warned)           # touches its settlement


def test_a_road_joined_only_through_a_rival_building_is_unjoined(client):
    st = state(radius_board(2), settlements=[(1, [0, 0, "N"])], roads=[(0, [0, 0, "NE"])])
    assert codes(adjudicate(client, st, None)) == ["unjoined-road"]


def test_a_lane_of_ships_from_a_settlement_is_joined(client):
    from service.engine.geometry import canonical_edge, edge_hexes, edge_nodes, node_edges
    rows = {(q, r): ("sea", None) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2}
    rows[(0, 0)] = ("forest", 5)
    first = (0, 0, "E")
    second = next(e for e in (canonical_edge(*x) for x in node_edges(edge_nodes(first)[1]))
                  if e != first and all(h in rows for h in edge_hexes(e)))
    st = state(hexes(rows), scenario="seafarers", settlements=[(0, edge_nodes(first)[0])],
               ships=[(0, first), (0, second)])
    assert "unjoined-ship" not in codes(adjudicate(client, st, None))
    st["pieces"]["settlements"] = []
    assert codes(adjudicate(client, st, None)).count("unjoined-ship") == 0      # each touches the other
    st["pieces"]["ships"] = st["pieces"]["ships"][:1]
    assert codes(adjudicate(client, st, None)) == ["unjoined-ship"]


def test_a_board_off_the_component_table_is_warned_about(client):
    st = client.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 2}).get_json()["state"]
    assert adjudicate(client, st, None)["warnings"] == []
    for h in st["board"]["hexes"]:
        if h["terrain"] == "forest":
            h["terrain"] = "pasture"
            break
    v = adjudicate(client, st, None)
    assert codes(v) == ["component-count"] and v["warnings"][0]["rule"] == "SC01-007"
    assert "R-001" in v["warnings"][0]["message"] and v["legal"]


def test_warnings_change_no_verdict(client):
    """The same action judged with and without a suspicious token: the verdict is the same but for warnings."""
    board = radius_board(1)
    st = state(board, settlements=[(0, [0, 0, "N"])], hands={0: {"lumber": 1, "brick": 1}})
    act = {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}
    plain = adjudicate(client, st, act)
    board2 = [dict(h) for h in board]
    j = next(i for i, h in enumerate(board2) if h["terrain"] == "frame")
    st2 = {**st, "board": {**st["board"], "hexes": board2}}
    board2[j] = {**board2[j], "terrain": "sea", "number": 3}
    odd = adjudicate(client, st2, act)
    assert plain["legal"] == odd["legal"] and plain["violations"] == odd["violations"]
    assert plain["events"] == odd["events"] and codes(odd) == ["token-on-sea"]


def test_red_numbers_side_by_side_on_a_random_base_board_BASE_COMP_8(client):
    """BASE-COMP-8: the base game's random layout keeps 6s and 8s apart. A posted base board with a 6 beside
    an 8 is warned about (the verdict does not depend on it, R-001) and the explicit component check of
    /v1/scenarios/base/check reports it; a Seafarers board, whose map decides, is not."""
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    hx = st["board"]["hexes"]
    at = {(h["q"], h["r"]): i for i, h in enumerate(hx)}
    six = next(i for i, h in enumerate(hx) if h["number"] == 6)
    q, r = hx[six]["q"], hx[six]["r"]
    nb = next(at[(q + dq, r + dr)] for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
              if (q + dq, r + dr) in at and hx[at[(q + dq, r + dr)]]["number"] not in (None, 6, 8))
    eight = next(i for i, h in enumerate(hx) if h["number"] == 8)
    hx[nb]["number"], hx[eight]["number"] = 8, hx[nb]["number"]       # an 8 beside the 6 (the same tokens)
    r1 = client.post("/v1/adjudicate", json={"state": st, "action": None})
    check_response("/v1/adjudicate", "post", r1)
    v = r1.get_json()
    assert v["legal"] and "red-numbers-adjacent" in codes(v)
    w = next(w for w in v["warnings"] if w["code"] == "red-numbers-adjacent")
    assert w["rule"] == "BASE-COMP-8" and w["path"] in (f"/state/board/hexes/{six}/number",
                                                          f"/state/board/hexes/{nb}/number")
    chk = client.post("/v1/scenarios/base/check", json={"state": st}).get_json()
    assert chk["matches"] is False and chk["problems"] and {p["rule"] for p in chk["problems"]} == {"BASE-COMP-8"}
    fresh = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    assert client.post("/v1/scenarios/base/check", json={"state": fresh}).get_json()["matches"] is True
