"""openapi.yaml is the contract: the routes, the schemas and real answers agree with it."""
from __future__ import annotations

import copy
from pathlib import Path
import re
from typing import Any

import pytest
from marshmallow import Schema, fields
from openapi_spec_validator import validate as validate_spec

from service.api.codec import dump_state
from service.api.compose import union_action_fields
from service.api.schemas import StateSchema

ACTION_FIELDS = union_action_fields()
from service.engine.geometry import CORNER_NAMES, SIDE_NAMES
from service.engine.mapgraph import RESOURCES, TERRAINS
from service.engine.scenarios import get_scenario
from service.engine.state import DEV_CARDS, PHASES

from .spec_util import check_response, errors, resolve, spec

IGNORED_METHODS = {"HEAD", "OPTIONS"}  # answered by Flask for every route


def schema_of(name: str) -> dict[str, Any]:
    return spec()["components"]["schemas"][name]


def deref(s: dict[str, Any]) -> dict[str, Any]:
    """The object schema behind ``$ref``, a nullable ``oneOf`` or a describing ``allOf``."""
    s = resolve(s)
    for key in ("oneOf", "allOf", "anyOf"):
        if key in s:
            branches = [resolve(b) for b in s[key] if resolve(b).get("type") != "null"]
            if len(branches) == 1:
                return deref(branches[0])
    return s


# -- the document -----------------------------------------------------------------------------------------

def test_the_spec_is_a_valid_openapi_3_1_document():
    validate_spec(copy.deepcopy(spec()))
    assert spec()["openapi"].startswith("3.1")


def test_the_spec_is_served_as_it_is_on_disk(client):
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    from .spec_util import ROOT
    assert r.get_data(as_text=True) == (ROOT / "openapi.yaml").read_text(encoding="utf-8")


def test_the_spec_documents_the_body_limit_and_links_the_coordinates_page():
    from service.api.app import DEFAULT_MAX_BODY
    assert spec()["x-max-body-bytes"] == DEFAULT_MAX_BODY
    desc = spec()["info"]["description"]
    assert "MAX_BODY_BYTES" in desc and str(DEFAULT_MAX_BODY) in desc
    assert "docs/coordinates.md" in desc


# -- routes ---------------------------------------------------------------------------------------------

def flask_routes(app) -> set[tuple[str, str]]:
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for m in sorted(rule.methods - IGNORED_METHODS):
            out.add((m, path))
    return out


def spec_routes() -> set[tuple[str, str]]:
    methods = {"get", "put", "post", "delete", "patch", "options", "head", "trace"}
    return {(m.upper(), p) for p, item in spec()["paths"].items() for m in item if m in methods}


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", path)


def test_every_route_of_the_app_is_in_the_spec(app):
    documented = {(m, _shape(p)) for m, p in spec_routes()}
    missing = sorted(f"{m} {p}" for m, p in flask_routes(app) if (m, _shape(p)) not in documented)
    assert not missing, "routes the app serves but openapi.yaml does not document (add them under paths):\n  " + \
        "\n  ".join(missing)


def test_every_operation_of_the_spec_is_served(app):
    served = {(m, _shape(p)) for m, p in flask_routes(app)}
    extra = sorted(f"{m} {p}" for m, p in spec_routes() if (m, _shape(p)) not in served)
    assert not extra, "operations openapi.yaml documents but the app does not serve:\n  " + "\n  ".join(extra)


def test_every_operation_has_an_operation_id_and_documents_its_errors():
    for m, p in spec_routes():
        op = spec()["paths"][p][m.lower()]
        assert op.get("operationId"), f"{m} {p} has no operationId"
        if "requestBody" in op:
            for status in ("400", "413", "415", "422"):
                assert status in op["responses"], f"{m} {p} takes a body but does not document {status}"


# -- actions --------------------------------------------------------------------------------------------

def spec_actions() -> dict[str, dict[str, Any]]:
    action = schema_of("Action")
    mapping = action["discriminator"]["mapping"]
    assert sorted(resolve({"$ref": r}) is not None for r in mapping.values())
    refs = {b["$ref"] for b in action["oneOf"]}
    assert refs == set(mapping.values()), "Action.oneOf and its discriminator mapping list different schemas"
    return {t: resolve({"$ref": ref}) for t, ref in mapping.items()}


def test_the_action_types_of_the_spec_are_those_the_api_loads():
    documented = set(spec_actions())
    loaded = set(ACTION_FIELDS)
    assert documented == loaded, (f"in ACTION_FIELDS, not in openapi.yaml: {sorted(loaded - documented)}; "
                                  f"in openapi.yaml, not in ACTION_FIELDS: {sorted(documented - loaded)}")


@pytest.mark.parametrize("type_", sorted(ACTION_FIELDS))
def test_each_action_has_the_fields_the_api_loads(type_):
    actions = spec_actions()
    assert type_ in actions, f"action type {type_!r} is loaded by the API but not documented in openapi.yaml"
    s = actions[type_]
    assert s["properties"]["type"] == {"type": "string", "enum": [type_]}   # (enum, not const: client generators)
    assert s.get("additionalProperties") is False
    flds = ACTION_FIELDS[type_]
    names = {"type", "player"} | {f.data_key or k for k, f in flds.items()}
    required = {"type", "player"} | {f.data_key or k for k, f in flds.items() if f.required}
    assert set(s["properties"]) == names, (f"{type_}: only in the API {sorted(names - set(s['properties']))}, "
                                           f"only in openapi.yaml {sorted(set(s['properties']) - names)}")
    assert set(s["required"]) == required, f"{type_}: required {sorted(required)} in the API"


# -- the state ------------------------------------------------------------------------------------------

def _marshmallow_fields(schema: Schema | type[Schema]) -> dict[str, fields.Field]:
    inst = schema() if isinstance(schema, type) else schema
    return {f.data_key or name: f for name, f in inst.fields.items()}


def _nested(f: fields.Field):
    if isinstance(f, fields.List):
        f = f.inner
    if isinstance(f, fields.Nested):
        return f.nested
    return None


def _compare(schema, spec_obj: dict[str, Any], where: str, out: list[str]) -> None:
    flds = _marshmallow_fields(schema)
    props = spec_obj.get("properties", {})
    for name in sorted(set(flds) - set(props)):
        out.append(f"{where}/{name}: loaded by the API, not in openapi.yaml")
    for name in sorted(set(props) - set(flds) - MODULE_KEYS.get(where, set())):
        out.append(f"{where}/{name}: in openapi.yaml, not loaded by the API")
    required = {n for n, f in flds.items() if f.required}
    if required != set(spec_obj.get("required", [])):
        out.append(f"{where}: required {sorted(required)} in the API, {sorted(spec_obj.get('required', []))} in openapi.yaml")
    if spec_obj.get("additionalProperties") is not False:
        out.append(f"{where}: the API rejects unknown fields; openapi.yaml should say additionalProperties: false")
    for name in set(flds) & set(props):
        f, p = flds[name], deref(props[name])
        nullable = any(resolve(b).get("type") == "null" for b in resolve(props[name]).get("oneOf", [])) or \
            "null" in (p.get("type") if isinstance(p.get("type"), list) else [])
        from service.api.service import NULL_ABSENT
        obj = {"State": "", "State/players": "players"}.get(where, where.rsplit("/", 1)[-1])
        if f.allow_none != nullable and not (nullable and name in NULL_ABSENT.get(obj, ())):
            out.append(f"{where}/{name}: null is {'accepted' if f.allow_none else 'refused'} by the API, "
                       f"{'accepted' if nullable else 'refused'} by openapi.yaml")
        sub = _nested(f)
        if sub is not None:
            if p.get("type") == "array":
                p = deref(p["items"])
            _compare(sub, p, f"{where}/{name}", out)


def test_the_state_fields_of_the_spec_are_those_the_api_loads():
    out: list[str] = []
    _compare(StateSchema, schema_of("State"), "State", out)
    assert not out, "StateSchema and openapi.yaml disagree:\n  " + "\n  ".join(out)


def test_the_custom_fields_match_the_spec():
    assert set(schema_of("HexTile")["properties"]) == {"q", "r", "terrain", "number"}
    assert set(schema_of("HexTile")["properties"]["terrain"]["enum"]) == set(TERRAINS)
    assert set(schema_of("NodePiece")["properties"]) == {"player", "node"}
    assert set(schema_of("EdgePiece")["properties"]) == {"player", "edge"}
    assert schema_of("Node")["prefixItems"][2]["enum"] == list(CORNER_NAMES)
    assert schema_of("Edge")["prefixItems"][2]["enum"] == list(SIDE_NAMES)
    from service.api.fields import RESOURCE_ALIASES
    assert set(schema_of("Resources")["properties"]) == set(RESOURCES) | set(RESOURCE_ALIASES)
    assert set(schema_of("DevCards")["properties"]) == set(DEV_CARDS)
    # the engine's phases and those the modules declare (the 5-6 extension's special_build and paired)
    from service.engine.module import DECLARED_PHASES
    assert set(schema_of("State")["properties"]["phase"]["enum"]) == set(PHASES) | set(DECLARED_PHASES)


def _module_keys() -> dict[str, set[str]]:
    """Keys a rule module declares (``PLAYER``, ``STATE``): each is in the contract and present only in the
    scenarios whose modules declare it."""
    from service.engine.scenarios import all_games
    games = all_games().values()
    player = {k for s in games for k in s.composition.player.fields}
    state = {k for s in games for k in s.composition.state.fields}
    return {"State/players": player, "State/scenario_state": state}


MODULE_KEYS = _module_keys()


def _dumped_keys_match(value: Any, s: dict[str, Any], where: str, out: list[str]) -> None:
    s = deref(s)
    if isinstance(value, dict) and "properties" in s and s.get("additionalProperties") is False:
        counts = all(v == {"$ref": "#/components/schemas/Count"} for v in s["properties"].values())
        optional = MODULE_KEYS.get(where.rsplit("/", 1)[0] if where.startswith("State/players/") else where, set())
        # card counts: output uses the canonical names only, input also takes the aliases
        if set(value) - set(s["properties"]) or (not counts and set(value) != set(s["properties"]) - optional):
            out.append(f"{where}: dump_state gives {sorted(value)}, openapi.yaml has {sorted(s['properties'])}")
        for k, v in value.items():
            if k in s["properties"]:
                _dumped_keys_match(v, s["properties"][k], f"{where}/{k}", out)
    elif isinstance(value, list) and "items" in s and isinstance(s["items"], dict):
        for i, v in enumerate(value[:3]):
            _dumped_keys_match(v, s["items"], f"{where}/{i}", out)


def test_dump_state_gives_every_field_of_the_spec_and_no_other(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 4, "seed": 1}).get_json()["state"]
    state = _played(client, st)
    out: list[str] = []
    _dumped_keys_match(state, schema_of("State"), "State", out)
    assert not out, "\n".join(out)
    assert not errors(state, "/components/schemas/State")


def _played(client, st: dict) -> dict:
    """A few set-up placements so the pieces lists are not empty."""
    for action in ({"type": "build_settlement", "player": 0, "node": [0, 0, "N"]},
                   {"type": "build_road", "player": 0, "edge": [0, -1, "SE"]}):
        r = client.post("/v1/adjudicate", json={"state": st, "action": action})
        check_response("/v1/adjudicate", "post", r)
        assert r.get_json()["legal"], r.get_json()
        st = r.get_json()["state"]
    return st


# -- real answers validate against the documented responses -------------------------------------------------

def test_service_endpoints_answer_as_documented(client):
    check_response("/healthz", "get", client.get("/healthz"))
    check_response("/openapi.yaml", "get", client.get("/openapi.yaml"))
    check_response("/v1/scenarios", "get", client.get("/v1/scenarios"))
    for sid in ("base", "seafarers"):
        check_response("/v1/scenarios/{id}", "get", client.get(f"/v1/scenarios/{sid}"))
    check_response("/v1/scenarios/{id}", "get", client.get("/v1/scenarios/atlantis"))


def test_new_games_answer_as_documented(client):
    for body in ({"scenario": "base", "players": 3, "seed": 7}, {"players": 4}):
        r = client.post("/v1/games", json=body)
        assert r.status_code == 201
        check_response("/v1/games", "post", r)
    for body in ({"players": 9}, {"scenario": "seafarers", "players": 3}, {"players": 3, "colour": "red"}, []):
        r = client.post("/v1/games", json=body)
        assert r.status_code == 422
        check_response("/v1/games", "post", r)
    check_response("/v1/games", "post", client.post("/v1/games", data="{", content_type="application/json"))
    check_response("/v1/games", "post", client.post("/v1/games", data="players=3", content_type="text/plain"))


@pytest.mark.parametrize("name", ["LegalRoad", "DistanceRule", "DeriveOnly"])
def test_the_request_examples_validate_and_get_the_verdict_they_describe(client, name):
    example = spec()["components"]["examples"][name]["value"]
    assert not errors(example, "/components/schemas/AdjudicateRequest")
    r = client.post("/v1/adjudicate", json=example)
    assert r.status_code == 200, r.get_json()
    check_response("/v1/adjudicate", "post", r)
    verdict = r.get_json()
    if name == "DistanceRule":
        assert not verdict["legal"] and "BASE-BUILD-2" in [v["rule"] for v in verdict["violations"]]
    else:
        assert verdict["legal"], verdict["violations"]


def test_the_schema_examples_validate():
    for name, s in spec()["components"]["schemas"].items():
        for ex in ([s["example"]] if "example" in s else []) + s.get("examples", []):
            assert not errors(ex, f"/components/schemas/{name}"), (name, ex)
    for name in ("MalformedJson", "NotFound", "MethodNotAllowed", "TooLarge", "UnsupportedMediaType", "Invalid"):
        ex = spec()["components"]["responses"][name]["content"]["application/problem+json"]["example"]
        assert not errors(ex, "/components/schemas/Problem"), name


def test_a_whole_set_up_round_answers_as_documented(client):
    """Legal and illegal verdicts along a game's set-up validate against the Verdict schema."""
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 11}).get_json()["state"]
    placements = [([0, 0, "N"], [0, -1, "SE"]), ([2, -1, "N"], [2, -2, "SE"]), ([-2, 1, "N"], [-2, 0, "SE"])]
    for p, (node, edge) in enumerate(placements):
        for action in ({"type": "end_turn", "player": p},                      # illegal in set-up
                       {"type": "build_settlement", "player": p, "node": node},
                       {"type": "build_road", "player": p, "edge": edge}):
            r = client.post("/v1/adjudicate", json={"state": st, "action": action})
            check_response("/v1/adjudicate", "post", r)
            if r.get_json()["legal"]:
                st = r.get_json()["state"]
    assert st["setup"]["round"] == 2 or st["phase"] != "setup"


def test_errors_answer_as_documented(client):
    r = client.post("/v1/adjudicate", data='{"state": {}, "state": {}}', content_type="application/json")
    assert r.status_code == 400
    check_response("/v1/adjudicate", "post", r)
    r = client.post("/v1/adjudicate", json={"state": {"board": {"hexes": [{"q": 0, "r": 0, "terrain": "lava"}]}}})
    assert r.status_code == 422
    check_response("/v1/adjudicate", "post", r)
    r = client.post("/v1/adjudicate", data="x" * 10, content_type="text/plain")
    assert r.status_code == 415
    check_response("/v1/adjudicate", "post", r)
    r = client.delete("/v1/adjudicate")
    assert r.status_code == 405 and r.headers["Allow"]
    assert not errors(r.get_json(), "/components/schemas/Problem")


def test_a_body_over_the_limit_answers_as_documented():
    from service.api import create_app
    small = create_app({"TESTING": True, "MAX_BODY_BYTES": 100}).test_client()
    r = small.post("/v1/adjudicate", json={"state": {"scenario": "x" * 200}})
    assert r.status_code == 413
    check_response("/v1/adjudicate", "post", r)


def test_a_seafarers_verdict_answers_as_documented(client):
    """Scenario-specific derived values (closed ships) validate too."""
    from .helpers import hexes, state
    board = hexes({(0, 0): ("forest", 6), (1, 0): "sea", (0, 1): "sea", (1, -1): "sea", (0, -1): "frame",
                   (-1, 0): "frame", (-1, 1): "frame", (2, -1): "frame", (2, 0): "frame", (1, 1): "frame",
                   (0, 2): "frame", (2, -2): "frame", (1, -2): "frame"})
    st = state(board, scenario="seafarers", settlements=[(0, [0, 0, "N"])], ships=[(0, [0, 0, "NE"])],
               turn_flags={"rolled": True})
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    check_response("/v1/adjudicate", "post", r)
    assert r.status_code == 200, r.get_json()
    assert "closed_ships" in r.get_json()["derived"]
    assert get_scenario("seafarers").ships


def test_openapi_yaml_is_what_the_declarations_generate():
    """openapi.yaml is generated (bin/contract) from the template and the rule modules' declarations."""
    from contract.generate import ROOT as REPO, build, render
    committed = (REPO / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == render(build()), "openapi.yaml is stale: run bin/contract and commit the result"


def test_the_contract_has_no_construct_client_generators_refuse():
    """No ``items: false`` (openapi-python-client refuses it), no ``const`` (it generates invalid code from
    ``const: true``; openapi-generator cannot tell variants apart by a bare const): discriminators are enums."""
    text = (Path(__file__).resolve().parents[1] / "openapi.yaml").read_text(encoding="utf-8")
    assert "items: false" not in text and "const:" not in text
    for name in ("Action", "Event"):
        s = schema_of(name)
        for t, ref in s["discriminator"]["mapping"].items():
            assert resolve({"$ref": ref})["properties"]["type"] == {"type": "string", "enum": [t]}
