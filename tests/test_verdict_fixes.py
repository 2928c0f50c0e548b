"""Verdicts that were wrong or missing: each test names the rule (and ruling) it holds and fails
without the fix beside it."""
from __future__ import annotations

from .ck_util import (E_N_NE, E_NE_SE, E_NW_N, NE, N, S, act, ck, knight, position, post, rules, with_cards)


def _holding(*cards, p=0, c=None, **kw):
    return position(ck_state=with_cards(c or ck(), p, *cards), **kw)


def _legal(client, st, player=0, type_=None):
    r = client.post("/v1/legal-actions", json={"state": st, "player": player})
    assert r.status_code == 200, r.get_json()
    acts = r.get_json()["actions"]
    return [a for t, xs in acts.items() if type_ in (None, t) for a in xs]


# -- one connection rule (CK-KNIGHT-2 through CK-PROG-S9, CK-PROG-P4) ---------------------------------------

BEHIND_KNIGHT = [1, -1, "SE"]       # joins player 0's road on E_N_NE only at NE, where player 1's knight stands


def test_road_building_progress_respects_knights(client):
    """CK-PROG-S9 with CK-KNIGHT-2: Road Building's second road may not join the network through an
    intersection holding an opponent's knight, as build_road may not (one connection rule for both)."""
    c = ck(knights=[knight(1, NE)])
    st = _holding("road_building", c=c, roads=((0, E_N_NE),), cities=((0, N), (1, S)))
    built = post(client, position(ck_state=c, roads=((0, E_N_NE),), cities=((0, N), (1, S)),
                                  hands={0: {"lumber": 1, "brick": 1}}), act("build_road", edge=BEHIND_KNIGHT))
    assert not built["legal"] and rules(built) == ["CK-KNIGHT-2"]
    v = post(client, st, act("play_progress", card="road_building",
                             pieces=[{"kind": "road", "edge": list(E_NW_N)}, {"kind": "road", "edge": BEHIND_KNIGHT}]))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-2"]
    assert v["violations"][0]["path"] == "/action/pieces/1/edge"
    listed = _legal(client, st, type_="play_progress")
    rb = [a for a in listed if a.get("card") == "road_building"]
    assert rb and not any(BEHIND_KNIGHT in [p["edge"] for p in a["pieces"]] for a in rb)


def test_diplomat_replacement_respects_knights(client):
    """CK-PROG-P4 with CK-KNIGHT-2: an own road removed by the Diplomat goes back under the same connection
    rule: not beyond an opponent's knight."""
    c = ck(knights=[knight(1, NE)])
    st = _holding("diplomat", c=c, roads=((0, E_N_NE), (0, E_NW_N)), cities=((0, N), (1, S)))
    v = post(client, st, act("play_progress", card="diplomat", edge=list(E_NW_N), replace=BEHIND_KNIGHT))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-2"]
    ok = post(client, st, act("play_progress", card="diplomat", edge=list(E_NW_N), replace=list(E_NW_N)))
    assert ok["legal"]
