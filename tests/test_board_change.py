"""A revealed hex changes the board, and so its map graph: the next actions are judged on the new one
(R-006, SC04-005, SEA-007), in one verdict, along a replay and in self-play alike."""
import pytest

from tests.test_scenarios_sc01_05 import example

REVEAL = {"type": "build_ship", "player": 0, "edge": [1, 1, "NE"]}   # reaches the unknown hex (2, 1)


@pytest.mark.parametrize("edge", [[2, 0, "SE"], [1, 1, "E"]])
def test_a_ship_beside_a_hex_revealed_as_sea_is_legal_in_a_replay_SEA_007(client, edge):
    st = example("oceans-01")
    st["scenario_state"]["hex_pile"] = ["sea", "hills"]
    nxt = {"type": "build_ship", "player": 0, "edge": edge}   # sea beside (2, 1): unknown before the reveal
    stepwise = client.post("/v1/adjudicate", json={"state": st, "action": REVEAL}).get_json()
    assert stepwise["legal"]
    after = client.post("/v1/adjudicate", json={"state": stepwise["state"], "action": nxt}).get_json()
    assert after["legal"], after["violations"]
    r = client.post("/v1/replay", json={"state": st, "actions": [REVEAL, nxt]}).get_json()
    assert r["all_legal"], r.get("first_illegal")
    assert r["final"]["state"] == after["state"]


def test_before_the_reveal_that_edge_takes_no_ship_SEA_007(client):
    st = example("oceans-01")
    v = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "build_ship", "player": 0,
                                                                     "edge": [2, 0, "SE"]}}).get_json()
    assert not v["legal"] and v["violations"][0]["rule"] in ("SEA-007", "SEA-008")
