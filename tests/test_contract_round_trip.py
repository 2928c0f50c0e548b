"""One truth for the contract: in every game ``POST /v1/games`` can start (each scenario, with and without
Cities & Knights), every answer of a game played through the service matches openapi.yaml, and each state
answered is accepted when posted back as client generators write it (decision D-not-in-this-game,
docs/clients.md):

- as answered;
- every optional property the contract declares and the answer left out filled with its published
  ``default`` (openapi-generator's python models, pydantic's ``model_dump()`` of any generated model);
- every optional property left out given as ``null`` (datamodel-code-generator's models, ``model_dump()``);
- every ``null`` left out (``exclude_none``, openapi-generator's ``to_dict()``).

The generated clients themselves play in tests/test_client_generation.py."""
from __future__ import annotations

import pytest

from service.api import create_app

from .client_play import games, play
from .spec_util import check_response, resolve, spec

MOVES = 8


def _schema(s: dict) -> dict:
    return resolve(s) if "$ref" in s else s


def fill(value, schema: dict, mode: str):
    """``value`` as a client with ``mode`` ("default", "null", "exclude_none") would write it back."""
    schema = _schema(schema)
    if mode == "exclude_none" and isinstance(value, dict):
        value = {k: v for k, v in value.items() if v is not None}
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            opts = [o for o in schema[key] if _schema(o).get("type") != "null"]
            if value is None or len(opts) != 1:
                return value
            return fill(value, opts[0], mode)
    if isinstance(value, dict) and "properties" in schema:
        out = dict(value)
        for k, p in schema["properties"].items():
            if k not in out and k not in schema.get("required", ()):
                if mode == "default" and "default" in p:
                    out[k] = p["default"]
                elif mode == "null":
                    out[k] = None
        return {k: fill(v, schema["properties"][k], mode) if k in schema["properties"] else v
                for k, v in out.items()}
    if isinstance(value, dict) and isinstance(schema.get("additionalProperties"), dict):
        return {k: fill(v, schema["additionalProperties"], mode) for k, v in value.items()}
    if isinstance(value, list) and "items" in schema:
        return [fill(v, schema["items"], mode) for v in value]
    return value


STATE = {"$ref": "#/components/schemas/State"}


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


@pytest.mark.parametrize("game", games(), ids=lambda g: g[0].replace(" with ", "+"))
def test_every_answer_matches_the_contract_and_every_state_posts_back(client, game):
    def new_game(body):
        r = client.post("/v1/games", json=body)
        check_response("/v1/games", "post", r)
        return r.get_json()["state"]

    def legal(state, player):
        r = client.post("/v1/legal-actions", json={"state": state, **({} if player is None else {"player": player})})
        check_response("/v1/legal-actions", "post", r)
        return r.get_json()

    def adjudicate(state, action):
        for mode in ("default", "null", "exclude_none"):
            posted = fill(state, STATE, mode)
            r = client.post("/v1/adjudicate", json={"state": posted, "action": fill(
                action, {"$ref": "#/components/schemas/" + "".join(w.title() for w in action["type"].split("_"))},
                mode)})
            assert r.status_code == 200, (mode, r.get_json())
            check_response("/v1/adjudicate", "post", r)
        return r.get_json()["legal"], r.get_json()["violations"], r.get_json()["state"]

    _label, sid, players, options = game
    assert play(new_game, legal, adjudicate, sid, players, options, MOVES) >= 5


def _sc01(client):
    return client.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 2}).get_json()["state"]


def test_a_key_of_other_games_only_is_accepted_as_null_and_refused_with_a_value(client):
    state = _sc01(client)
    gold_null = {**state, "players": [{**p, "gold": None} for p in state["players"]],
                 "scenario_state": {**state["scenario_state"], "activation_order": None}}
    r = client.post("/v1/derive", json={"state": gold_null})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == client.post("/v1/derive", json={"state": state}).get_json()
    assert gold_null["players"][0]["gold"] is None            # the posted value is not changed
    # a value there is still an unknown key, named
    r = client.post("/v1/derive", json={"state": {**state, "players": [{**state["players"][0], "gold": 0},
                                                                       *state["players"][1:]]}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/players/0/gold"
    # a key no game declares stays unknown, even as null
    r = client.post("/v1/derive", json={"state": {**state, "scenario_state": {**state["scenario_state"], "shipz": None}}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/scenario_state/shipz"


def test_an_action_field_of_other_games_only_is_accepted_as_null(client):
    state = _sc01(client)
    # ``alchemist`` is a field of ``roll`` in games with Cities & Knights only
    action = {"type": "roll", "player": state["current_player"]}
    alone = client.post("/v1/adjudicate", json={"state": state, "action": action})
    r = client.post("/v1/adjudicate", json={"state": state, "action": {**action, "alchemist": None}})
    assert r.status_code == 200 and r.get_json() == alone.get_json()
    r = client.post("/v1/adjudicate", json={"state": state, "action": {**action, "alchemist": False}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/action/alchemist"


def test_a_default_is_published_only_where_every_game_has_the_field():
    s = spec()["components"]["schemas"]
    assert "default" not in s["PlayerState"]["properties"]["gold"]
    assert "Left out there: 0" in s["PlayerState"]["properties"]["gold"]["description"]
    for name, schema in s.items():
        for k, p in (schema.get("properties") or {}).items():
            if "default" in p and "(In " in p.get("description", ""):
                raise AssertionError(f"{name}.{k} publishes a default but is not in every game")
