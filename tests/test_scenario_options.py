"""Optional action fields that only some scenarios use are refused elsewhere, never silently ignored."""
import pytest


def new_state(client, scenario, players):
    r = client.post("/v1/games", json={"scenario": scenario, "players": players, "seed": 4})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["state"]


@pytest.mark.parametrize("field,value,action", [
    ("price", "gold", {"type": "buy_development_card", "player": 0}),
    ("token_from", [[0, 0]], {"type": "build_road", "player": 0, "edge": [0, 0, "E"]}),
    ("discoveries", [], {"type": "build_road", "player": 0, "edge": [0, 0, "E"]}),
])
def test_a_scenario_option_in_the_base_game_is_a_422_naming_the_field(client, field, value, action):
    st = new_state(client, "base", 3)
    r = client.post("/v1/adjudicate", json={"state": st, "action": {**action, field: value}})
    assert r.status_code == 422
    body = r.get_json()
    assert body["errors"][0]["pointer"] == f"/action/{field}"
    assert "no meaning" in body["errors"][0]["detail"]


def test_the_gold_scenario_accepts_the_development_card_price(client):
    st = new_state(client, "GOLD", 4)
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "buy_development_card", "player": 0,
                                                                     "price": "gold"}})
    assert r.status_code == 200        # a verdict (illegal in set-up), not a refusal of the field
    assert r.get_json()["legal"] is False
