"""Thin views: read the body, call the service path, answer JSON."""
from __future__ import annotations

import json
import re
from typing import Any, Optional

from flask import Blueprint, Response, current_app, request
from marshmallow import ValidationError

from .. import rules as rules_catalogue
from ..engine.scenarios import SCENARIOS, scenario_of, with_expansions
from ..engine.scenarios.components import check_components
from .app import ROOT
from .body import read_json
from .codec import ENCODE, ENCODE_BYTES, dump_state, violation_json
from .conditional import cached_answer
from .errors import Problem, bad_query
from .schemas import NewGameSchema, pointerize
from .seat import FIELD as SEAT, derived_view, no_explanations, own_action, read_seat, state_view, verdict_view
from .integrity import HEADER as TAG_HEADER, tag_of
from .posted_state import invalid, parse_state, parse_state_where
from .service import judge, parse_action, started, verdict_body_tagged, warnings_of

blp = Blueprint("v1", __name__)


def contract_bytes() -> bytes:
    """The published contract: the installed package's copy (``seafarers_referee/contract/openapi.yaml``,
    put in the wheel), else the repository's ``openapi.yaml``."""
    global _CONTRACT
    if _CONTRACT is None:
        from importlib import resources
        try:
            _CONTRACT = resources.files(__name__.partition(".")[0]).joinpath("contract/openapi.yaml").read_bytes()
        except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
            _CONTRACT = (ROOT / "openapi.yaml").read_bytes()
    return _CONTRACT


_CONTRACT: Optional[bytes] = None


def ok(body: Any, status: int = 200) -> Response:
    return ok_text(ENCODE(body), status)


def ok_text(text: str | bytes, status: int = 200, tag: Optional[str] = None) -> Response:
    r = Response(text, status=status, content_type="application/json")   # (the type as mimetype= gives it)
    if tag is not None:
        r.headers.add(TAG_HEADER, tag)      # (a fresh response has no tag to replace)
    return r


def posted_tag() -> Optional[str]:
    """The request's ``State-Tag`` (``integrity``): the tag of the posted state, as an answer gave it."""
    return request.headers.get(TAG_HEADER)


def body() -> Any:
    return read_json(request, current_app.config["MAX_BODY_BYTES"])


FLAG_VALUES = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def flag(name: str) -> bool:
    """A boolean query parameter (``true``/``false``, ``1``/``0``, ``yes``/``no``); anything else is a 400."""
    values = request.args.getlist(name)
    if not values:
        return False
    if len(values) > 1 or values[0] not in FLAG_VALUES:
        raise bad_query(f"query parameter {name!r} is one of {', '.join(FLAG_VALUES)}, given once",
                        [{"pointer": f"/query/{name}", "detail": "a flag: true/false, 1/0, yes/no, given once"}])
    return FLAG_VALUES[values[0]]


@blp.get("/healthz")
def healthz():
    return ok({"status": "ok"})


@blp.get("/openapi.yaml")
def openapi():
    return cached_answer(contract_bytes(), "application/yaml; charset=utf-8")


@blp.post("/v1/adjudicate")
def adjudicate_view():
    explaining = flag("explain")
    answer, tag = adjudicate_answer(body(), explaining, posted_tag())
    return ok_text(answer, tag=tag)


def adjudicate_answer(data: Any, explaining: bool = False, tag: Optional[str] = None
                      ) -> tuple[bytes, Optional[str]]:
    """The answer of ``POST /v1/adjudicate`` to the body ``data`` (and its state's tag): also one line's
    of a batch."""
    if not isinstance(data, dict):
        raise invalid([{"pointer": "/", "detail": "must be an object {state, action}"}])
    extra = sorted(set(data) - {"state", "action", SEAT})
    if extra:
        raise invalid([{"pointer": f"/{k}", "detail": "unknown field"} for k in extra])
    if "state" not in data:
        raise invalid([{"pointer": "/state", "detail": "missing: the game state"}])
    seat = read_seat(data)
    if explaining:
        no_explanations(seat)
    cache = current_app.extensions["graph_cache"]
    state, graph, where = parse_state_where(data["state"], cache, tag=tag)
    seat = read_seat(data, state)
    action = None if data.get("action") is None else parse_action(data["action"], state)
    own_action(action, seat)
    verdict = judge(state, action, graph)
    verdict.warnings = warnings_of(state, graph, where)
    if seat is not None:    # the seat's view: no tag (not a position the service takes back, D-seat-view)
        return ENCODE_BYTES(verdict_view(verdict, seat, state)), None
    extra = None
    if explaining:   # the reasoning of every derived value
        from ..engine.explain import explain
        extra = {"explanations": explain(verdict.state if verdict.legal else state, graph, scenario_of(state))}
    return verdict_body_tagged(verdict, extra)


@blp.post("/v1/derive")
def derive_view():
    explaining = flag("explain")
    return ok_text(derive_answer(body(), explaining, posted_tag()))


def derive_answer(data: Any, explaining: bool = False, tag: Optional[str] = None) -> bytes:
    """The answer of ``POST /v1/derive`` to the body ``data``: also one line's of a batch."""
    if not isinstance(data, dict):
        raise invalid([{"pointer": "/", "detail": "must be an object {state}"}])
    extra = sorted(set(data) - {"state", SEAT})
    if extra:
        raise invalid([{"pointer": f"/{k}", "detail": "unknown field"} for k in extra])
    if "state" not in data:
        raise invalid([{"pointer": "/state", "detail": "missing: the game state"}])
    seat = read_seat(data)
    if explaining:
        no_explanations(seat)
    state, graph = parse_state(data["state"], current_app.extensions["graph_cache"], tag=tag)
    seat = read_seat(data, state)
    out = {"derived": judge(state, None, graph).derived}
    if seat is not None:
        out["derived"] = derived_view(state, out["derived"], seat)
    if explaining:   # the reasoning of every derived value, as for /v1/adjudicate
        from ..engine.explain import explain
        out["explanations"] = explain(state, graph, scenario_of(state))
    return ENCODE_BYTES(out)


_RULE_PREFIX = re.compile(r"[A-Z0-9-]{1,40}")


def _one_arg(name: str) -> Optional[str]:
    values = request.args.getlist(name)
    if len(values) > 1:
        raise bad_query(f"query parameter {name!r} is given once",
                      [{"pointer": f"/query/{name}", "detail": "given more than once"}])
    return values[0] if values else None


@blp.get("/v1/rules")
def rules_list():
    """The rules catalogue, filtered by the start of the ID and/or by module (``SEA``, ``GOLD``...)."""
    unknown = sorted(set(request.args) - {"prefix", "module"})
    if unknown:
        raise bad_query(f"unknown query parameter {unknown[0]!r}; the filters are prefix and module",
                      [{"pointer": f"/query/{k}", "detail": "unknown query parameter"} for k in unknown])
    prefix, module = _one_arg("prefix"), _one_arg("module")
    if prefix is not None and not _RULE_PREFIX.fullmatch(prefix):
        raise bad_query("query parameter 'prefix' is 1-40 capital letters, digits or '-' (the start of an ID)",
                      [{"pointer": "/query/prefix", "detail": "must match [A-Z0-9-]{1,40}"}])
    if module is not None and module not in rules_catalogue.MODULES:
        raise bad_query(f"query parameter 'module' is one of {', '.join(rules_catalogue.MODULES)}",
                      [{"pointer": "/query/module", "detail": "unknown module"}])
    found = list(rules_catalogue.entries(prefix, module))
    return cached_answer(ENCODE_BYTES({"count": len(found), "rules": found}), "application/json")


@blp.get("/v1/rules/<rule_id>")
def rule_view(rule_id: str):
    entry = rules_catalogue.rule(rule_id)
    if entry is None:
        raise Problem(404, f"no rule or ruling {rule_id[:60]!r}; GET /v1/rules lists them")
    return cached_answer(ENCODE_BYTES(entry), "application/json")


@blp.get("/v1/scenarios")
def scenarios():
    return ok({"scenarios": [s.describe() for s in SCENARIOS.values()]})


@blp.get("/v1/scenarios/<sid>")
def scenario(sid: str):
    if sid not in SCENARIOS:
        raise Problem(404, f"no scenario {sid!r}; GET /v1/scenarios lists them")
    return ok(SCENARIOS[sid].definition())


@blp.post("/v1/scenarios/<sid>/check")
def scenario_check(sid: str):
    """The explicit component-table check of a posted board (R-001): never a precondition for a verdict."""
    if sid not in SCENARIOS:
        raise Problem(404, f"no scenario {sid!r}; GET /v1/scenarios lists them")
    data = body()
    if not isinstance(data, dict) or "state" not in data:
        raise invalid([{"pointer": "/state", "detail": "missing: the game state"}])
    extra = sorted(set(data) - {"state"})
    if extra:
        raise invalid([{"pointer": f"/{k}", "detail": "unknown field"} for k in extra])
    state, _graph = parse_state(data["state"], current_app.extensions["graph_cache"], tag=posted_tag())
    # the game's stack: an expansion the player count switches on brings its own tables (BASE56-022)
    problems = check_components(with_expansions(SCENARIOS[sid], state.options, state.num_players),
                                state.num_players, state)
    return ok({"scenario": sid, "players": state.num_players, "matches": not problems,
               "problems": [violation_json(v) for v in problems]})


@blp.post("/v1/games")
def new_game():
    data = body()
    seat = read_seat(data)
    if isinstance(data, dict) and SEAT in data:
        data = {k: v for k, v in data.items() if k != SEAT}
    try:
        req = NewGameSchema().load(data)
    except ValidationError as e:
        raise invalid(pointerize(e.messages, "")) from None
    state = started(req, "", draw=True)
    seat = read_seat({SEAT: seat}, state)
    if seat is not None:    # the seat's view: no tag (D-seat-view)
        r = ok_text(ENCODE({"state": state_view(state, seat)}), 201)
    else:
        dumped = dump_state(state)
        r = ok_text(ENCODE({"state": dumped}), 201, tag_of(dumped))
    r.headers["Location"] = game_location(state.scenario, state.num_players, state.rng_seed, req["options"])
    return r


def game_location(scenario: str, players: int, seed: int, options: dict) -> str:
    """Where the new game can be fetched again (``GET /v1/games/{scenario}/{players}/{seed}``): a new game
    is the same for the same scenario, players, seed and options."""
    from urllib.parse import quote
    path = f"/v1/games/{quote(scenario, safe='')}/{players}/{seed}"
    if options:
        path += "?options=" + quote(json.dumps(options, sort_keys=True, separators=(",", ":")), safe="")
    return path


@blp.get("/v1/games/<scenario>/<players>/<seed>")
def game_view(scenario: str, players: str, seed: str):
    """The new game ``POST /v1/games`` started with these values (its ``Location``), answered again."""
    unknown = sorted(set(request.args) - {"options", SEAT})
    if unknown:
        raise bad_query(f"unknown query parameter {unknown[0]!r}; the parameters are options and seat",
                      [{"pointer": f"/query/{k}", "detail": "unknown query parameter"} for k in unknown])
    raw_options = _one_arg("options")
    try:
        options = json.loads(raw_options) if raw_options is not None else {}
    except ValueError:
        raise bad_query("query parameter 'options' is a JSON object",
                      [{"pointer": "/query/options", "detail": "not JSON"}]) from None
    body_ = {"scenario": scenario, "options": options,
             "players": int(players) if players.isascii() and players.isdigit() and len(players) < 3 else players,
             "seed": seed}
    try:
        req = NewGameSchema().load(body_)
    except ValidationError as e:
        raise invalid(pointerize(e.messages, "")) from None
    state = started(req, "")
    raw_seat = _one_arg(SEAT)       # (a GET has no body: the seat is a query parameter here)
    if raw_seat is not None:
        if not (raw_seat.isascii() and raw_seat.isdigit() and len(raw_seat) < 3):
            raise bad_query(f"query parameter {SEAT!r} is a player number",
                          [{"pointer": f"/query/{SEAT}", "detail": "not a player number"}])
        seat = read_seat({SEAT: int(raw_seat)}, state, f"/query/{SEAT}")
        return ok_text(ENCODE({"state": state_view(state, seat)}), 200)
    dumped = dump_state(state)
    return ok_text(ENCODE({"state": dumped}), 200, tag_of(dumped))
