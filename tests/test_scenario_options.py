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


# -- game options (State.options): every name is one the scenario knows, every value one it takes --------

@pytest.mark.parametrize("scenario, players, options, pointer", [
    ("base", 3, {"strict_phases": True}, "/state/options/strict_phases"),   # misspelt
    ("base", 3, {"BASE-VAR-FRIENDLY-ROBBER": True}, "/state/options/BASE-VAR-FRIENDLY-ROBBER"),  # not built
    ("base", 3, {"BASE-VAR-STRICT-PHASES": "yes"}, "/state/options/BASE-VAR-STRICT-PHASES"),
    ("base", 3, {"lr_broken_tie_holder_keeps": 0}, "/state/options/lr_broken_tie_holder_keeps"),
    ("base", 3, {"oldest_player": 1}, "/state/options/oldest_player"),        # an SC08/SC09 option
    ("SC08", 3, {"oldest_player": 3}, "/state/options/oldest_player"),        # no player 3 in a 3-player game
    ("SC04", 3, {"pirate": [1, "x"]}, "/state/options/pirate"),
    ("base", 3, {"a/b~c": True}, "/state/options/a~1b~0c"),
])
def test_an_option_the_scenario_does_not_take_is_a_422_naming_it(client, scenario, players, options, pointer):
    """A misspelt or unsupported variant would otherwise change no verdict and say nothing."""
    st = new_state(client, scenario, players)
    r = client.post("/v1/adjudicate", json={"state": {**st, "options": options}, "action": None})
    assert r.status_code == 422, r.get_json()
    assert [e["pointer"] for e in r.get_json()["errors"]] == [pointer]


@pytest.mark.parametrize("scenario, players, options", [
    ("base", 3, {"BASE-VAR-STRICT-PHASES": True, "BASE-VAR-BANK-STRICT": False,
                 "lr_broken_tie_holder_keeps": False}),
    ("SC08", 3, {"oldest_player": 2}),
    ("SC04", 3, {"pirate": [0, 0]}),
    ("GOLD", 4, {"cities_and_knights": False}),
])
def test_options_the_scenario_lists_are_taken(client, scenario, players, options):
    st = new_state(client, scenario, players)
    r = client.post("/v1/adjudicate", json={"state": {**st, "options": options}, "action": None})
    assert r.status_code == 200, r.get_json()
    listed = client.get(f"/v1/scenarios/{scenario}").get_json()["options"]
    assert set(options) <= set(listed) and all(listed[k] for k in options)


def test_a_new_game_refuses_an_unknown_option_and_lists_the_known_ones(client):
    r = client.post("/v1/games", json={"scenario": "base", "players": 3, "options": {"friendly_robber": True}})
    assert r.status_code == 422
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/options/friendly_robber" and "BASE-VAR-STRICT-PHASES" in err["detail"]
    r = client.post("/v1/games", json={"scenario": "base", "players": 3, "options": {"BASE-VAR-STRICT-PHASES": True}})
    assert r.status_code == 201 and r.get_json()["state"]["options"] == {"BASE-VAR-STRICT-PHASES": True}
