"""The published contract, ``openapi.yaml``, generated from the rule modules' declarations.

``openapi.template.yaml`` (beside this file; a tool of the repository, not part of the running service) holds what no module declares: the paths, the problem
responses, the state's frame, the verdict. This module adds what the modules declare: every action type
with its fields (``ActionSpec``, ``ACTION_FIELDS``), the keys of ``scenario_state`` (``STATE``), the
player values (``PLAYER``), the derived values (``DERIVED``) and the events (``EVENTS``), each saying in
which scenarios it has a meaning. ``bin/contract`` writes the result to ``openapi.yaml``;
``tests/test_contract.py`` fails when the committed file differs from what this module generates.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.engine import spec as T
from service.api.compose import published_field
from service.engine.scenarios import SCENARIOS, all_games

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "openapi.template.yaml"
ROOT = HERE.parent


def schema_name(type_: str) -> str:
    return "".join(w.title() for w in type_.split("_"))


GAMES = all_games()


def _where(ids: list[str]) -> str:
    plain = [i for i in ids if " with " not in i]
    stacked = sorted({i.split(" with ", 1)[1] for i in ids if " with " in i})
    parts = []
    if sorted(plain) == sorted(SCENARIOS):
        parts.append("every scenario")
    elif plain:
        parts.append("scenarios " + ", ".join(plain))
    for option in stacked:
        with_it = sorted(i.split(" with ", 1)[0] for i in ids if i.endswith(f" with {option}"))
        every = sorted(k.split(" with ", 1)[0] for k in GAMES if k.endswith(f" with {option}"))
        parts.append(f"games with {option}" if with_it == every else
                     f"{', '.join(with_it)} with {option}")
    return " and ".join(parts) or "no game"


def _field(f: T.F, where: str = "", everywhere: bool = True) -> dict[str, Any]:
    """A field's schema. ``everywhere``: every game that has the object declares it; a field of some games
    only publishes no default (decision D-not-in-this-game, docs/clients.md: there, left out and null mean
    "not in this game", and a generated client fills a default into every game's request)."""
    s = f.type.openapi()
    if f.nullable or not f.required:      # an optional field given as null is as if left out
        s = {"anyOf": [s, {"type": "null"}]}
    shown = "" if everywhere or f.required or f.default is None else f"Left out there: {json.dumps(f.default)}."
    doc = " ".join(x for x in (f.doc, where, shown) if x)
    if doc:
        s = {**s, "description": doc} if "$ref" not in s else {"allOf": [s], "description": doc}
    if not f.required and f.default is not None and everywhere:
        s["default"] = f.default
    return s


def _users(get) -> dict[str, dict[str, Any]]:
    """``{key: {"field": F, "ids": [scenario ids]}}`` over every scenario's composition; a key that games
    declare with different types is one of them (``_OneOf``)."""
    out: dict[str, dict[str, Any]] = {}
    for sid, game in GAMES.items():
        for k, f in get(game.composition).items():
            e = out.setdefault(k, {"field": f, "ids": [], "types": []})
            e["ids"].append(sid)
            if f.type.openapi() not in [t.openapi() for t in e["types"]]:
                e["types"].append(f.type)
    for e in out.values():
        if len(e["types"]) > 1:
            f = e["field"]
            e["field"] = T.F(_OneOf(tuple(e.pop("types"))), f.required, f.doc, f.nullable, f.default)
        else:
            e.pop("types")
    return out


class _OneOf(T.Type):
    """A value of one of ``types`` (a key games declare differently)."""

    def __init__(self, types: tuple) -> None:
        self.types = types

    def openapi(self) -> dict[str, Any]:
        return {"anyOf": [t.openapi() for t in self.types]}


def _actions(schemas: dict[str, Any]) -> None:
    users: dict[str, list[str]] = {}
    fields: dict[str, dict[str, dict[str, Any]]] = {}
    docs: dict[str, str] = {}
    for sid, game in GAMES.items():
        for t, spec in game.composition.actions.items():
            users.setdefault(t, []).append(sid)
            docs.setdefault(t, spec.doc)
            for k, f in spec.fields.items():
                e = fields.setdefault(t, {}).setdefault(k, {"found": [], "ids": []})
                e["found"].append(f)
                e["ids"].append(sid)
    for per in fields.values():
        for e in per.values():
            e["field"] = published_field(e.pop("found"))
    types = sorted(users)
    for t in types:
        props: dict[str, Any] = {"type": {"type": "string", "enum": [t]},
                                 "player": {"$ref": "#/components/schemas/Player"}}
        required = ["type", "player"]
        for k, e in sorted(fields.get(t, {}).items()):
            f = e["field"]
            everywhere = sorted(e["ids"]) == sorted(users[t])
            props[k] = _field(f, "" if everywhere else f"(In {_where(e['ids'])}.)", everywhere)
            if f.required:
                required.append(k)
        schemas[schema_name(t)] = {
            "description": f"{docs[t]} In {_where(users[t])}.".strip(),
            "type": "object", "required": required, "additionalProperties": False, "properties": props,
        }
    schemas["Action"] = {
        "description": "A proposed action. `type` says which (each scenario has the types its rule modules declare: "
                       "`GET /v1/scenarios/{id}`); `player` is who takes it.",
        "oneOf": [{"$ref": f"#/components/schemas/{schema_name(t)}"} for t in types],
        "discriminator": {"propertyName": "type",
                          "mapping": {t: f"#/components/schemas/{schema_name(t)}" for t in types}},
    }


def _object(doc: str, users: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"description": doc, "type": "object", "additionalProperties": False,
            "properties": {k: _field(e["field"], f"(In {_where(e['ids'])}.)", len(e["ids"]) == len(GAMES))
                           for k, e in sorted(users.items())}}


def _answered(found: list[T.F]) -> T.F:
    """Of the declarations several games give one field of an answer (an event's), one that holds every
    value any of them answers: a string's choices are all of theirs, else as :func:`published_field`."""
    chosen = published_field(found)
    strs = [f.type for f in found if isinstance(f.type, T.Str)]
    if isinstance(chosen.type, T.Str) and strs and all(t.enum is not None for t in strs):
        kinds: tuple[str, ...] = ()
        for t in strs:
            kinds += tuple(k for k in t.enum if k not in kinds)
        chosen = T.F(T.Str(kinds), all(f.required for f in found), chosen.doc,
                     any(f.nullable for f in found), chosen.default)
    elif not all(f.required for f in found) and chosen.required:
        chosen = T.F(chosen.type, False, chosen.doc, chosen.nullable, chosen.default)
    return chosen


def _events(schemas: dict[str, Any]) -> None:
    users: dict[str, dict[str, Any]] = {}
    for sid, game in GAMES.items():
        for t, e in game.composition.events.items():
            u = users.setdefault(t, {"spec": e, "ids": [], "fields": {}})
            u["ids"].append(sid)
            for k, f in e.fields.items():
                u["fields"].setdefault(k, []).append(f)
    names = []
    for t, u in sorted(users.items()):
        e = u["spec"]
        name = "Event" + schema_name(t)
        names.append((t, name))
        # a field some games' events lack is optional in the contract (every game's event is one of it)
        fields = {k: _answered(found if len(found) == len(u["ids"]) else
                               found + [T.F(found[0].type, False)]) for k, found in u["fields"].items()}
        props = {"type": {"type": "string", "enum": [t]}, **{k: _field(f) for k, f in fields.items()}}
        schemas[name] = {"description": f"{e.doc} In {_where(u['ids'])}.".strip(), "type": "object",
                         "required": ["type"] + [k for k, f in fields.items() if f.required],
                         "additionalProperties": False, "properties": props}
    base = schemas.get("Event", {})
    schemas["Event"] = {
        "description": base.get("description", "Something that happened, in order.").split("Types include")[0].strip()
        + " Each type is declared by the rule module that emits it.",
        "oneOf": [{"$ref": f"#/components/schemas/{n}"} for _, n in names],
        "discriminator": {"propertyName": "type", "mapping": {t: f"#/components/schemas/{n}" for t, n in names}},
    }


_OBJECTS = {"": "State", "players": "PlayerState", "setup": "Setup", "turn_flags": "TurnFlags", "rng": "Rng",
            "awards": "Awards", "board": "Board"}


def _null_as_absent(schemas: dict[str, Any]) -> None:
    """The state's optional fields that take no null of their own take null as "left out" (``posted_state.NULL_ABSENT``)."""
    from service.api.posted_state import NULL_ABSENT
    for key, name in _OBJECTS.items():
        props = schemas[name]["properties"]
        for k in sorted(NULL_ABSENT[key]):
            p = props[k]
            if not any(b.get("type") == "null" for b in p.get("anyOf", []) + p.get("oneOf", [])):
                doc = p.pop("description", None)
                props[k] = {"anyOf": [p, {"type": "null"}],
                            "description": ((doc + " ") if doc else "") + "Null: as if left out."}


def _limits(schemas: dict[str, Any]) -> None:
    """What the declarations bound: player numbers and counts (``spec.MAX_PLAYERS``), and the phases (the
    engine's and those the modules declare, ``PHASES``)."""
    from service.api.schemas import MIN_PLAYERS, all_phases
    top = T.MAX_PLAYERS - 1
    schemas["Player"]["maximum"] = top
    schemas["Player"]["description"] = (f"A player number (seat), 0-{top}; it must be less than the number of "
                                        "players.")
    schemas["State"]["properties"]["players"]["maxItems"] = T.MAX_PLAYERS
    new_game = schemas["NewGameRequest"]["properties"]["players"]
    new_game["minimum"], new_game["maximum"] = MIN_PLAYERS, T.MAX_PLAYERS
    schemas["State"]["properties"]["phase"]["enum"] = list(all_phases())
    schemas["Derived"]["properties"]["phase"]["enum"] = list(all_phases())


#: The requests answering a position, derived values, events or a picture: each takes the viewing player.
SEAT_REQUESTS = (("/v1/adjudicate", "post"), ("/v1/derive", "post"), ("/v1/legal-actions", "post"),
                 ("/v1/replay", "post"), ("/v1/render", "post"), ("/v1/games", "post"), ("/v1/import", "post"))


def _seats(doc: dict[str, Any]) -> None:
    """The viewing player (``service/api/seat.py``): a ``seat`` in the body of every request answering a
    position, derived values, events or a picture; a position answered to a seat is a ``SeatView``."""
    from service.api.seat import DOC, FIELD
    from service.engine.seats import VIEW_KEY
    schemas = doc["components"]["schemas"]
    seat = {"anyOf": [{"$ref": "#/components/schemas/Player"}, {"type": "null"}], "description": DOC}
    for path, method in SEAT_REQUESTS:
        body = doc["paths"][path][method]["requestBody"]["content"]["application/json"]
        target = body["schema"]
        if path == "/v1/games":     # (the new game of a replay takes no seat: a schema of its own)
            schemas["ReplayNewGame"] = _own_copies(schemas["NewGameRequest"])
            new_game = schemas["ReplayRequest"]["properties"]["new_game"]
            new_game["oneOf"] = [{"$ref": "#/components/schemas/ReplayNewGame"} if x.get("$ref", "").endswith(
                "/NewGameRequest") else x for x in new_game["oneOf"]]
        if "$ref" in target:
            target = schemas[target["$ref"].rsplit("/", 1)[1]]
        target["properties"][FIELD] = _own_copies(seat)
    schemas["SeatView"] = {
        "description": "A position as one player (seat) may see it (docs/seats.md): the State's keys, with the "
                       "hidden parts masked (cards of others as counts, face-down piles as sizes, hidden kinds and "
                       "the seed as null), marked `seat_view`. Not a position the service takes back (a 422 naming "
                       "`/state/seat_view`, decision D-seat-view). Derived values and events answered to a seat "
                       "are masked alike. The answers' schemas type `state` as `State` (what a generated client "
                       "posts back); in an answer to a seat that value is a SeatView.",
        "type": "object", "required": [VIEW_KEY], "additionalProperties": True,
        "properties": {VIEW_KEY: {"type": "object", "required": ["seat"], "additionalProperties": False,
                                  "properties": {"seat": {"$ref": "#/components/schemas/Player"}}}}}
    # what a seat's answer shows in a masked event field (a count or null) and in the victory points
    for game in GAMES.values():
        for _mod, sec in game.composition.secrets:
            if sec.root != "event":
                continue
            t, f = sec.path
            prop = schemas.get("Event" + schema_name(t), {}).get("properties", {}).get(f)
            if prop is None or prop.get("x-seat"):
                continue
            shown = {"type": "integer", "minimum": 0} if sec.mask == "count" else {"type": "null"}
            alts = prop.get("anyOf") or [{k: v for k, v in prop.items() if k != "description"}]
            if shown not in alts:
                alts = alts + [shown]
            what = "how many" if sec.mask == "count" else "null"
            doc_ = (prop.get("description", "") + f" To a seat that may not see it: {what} (docs/seats.md).").strip()
            schemas["Event" + schema_name(t)]["properties"][f] = {"anyOf": alts, "description": doc_, "x-seat": True}
    for ev in schemas.values():
        for prop in ev.get("properties", {}).values():
            if isinstance(prop, dict):
                prop.pop("x-seat", None)
    # a seat's legal actions: what follows from another's hand is left open (D-seat-trades)
    card_range = schemas["CardRange"]["properties"]
    card_range["at_most"] = {"anyOf": [card_range["at_most"], {"type": "null"}], "description":
                             card_range["at_most"].get("description", "") + " Null in a seat's list: what another "
                             "player holds, not the seat's to know (D-seat-trades)."}
    item = schemas["LegalActions"]["properties"]["ranges"]["additionalProperties"]["items"]["properties"]
    item["example"] = {"anyOf": [item["example"], {"type": "null"}],
                       "description": "A listed example; null in a seat's list where it would name another "
                                      "player's cards (D-seat-trades)."}
    vp = schemas["VictoryPoints"]["properties"]
    vp["victory_point_cards"] = {"anyOf": [vp["victory_point_cards"], {"type": "null"}],
                                 "description": "Null to a seat, for another player's (hidden, BASE-DEV-9; `total` "
                                                "then leaves them out)."}
    again = doc["paths"]["/v1/games/{scenario}/{players}/{seed}"]["get"]
    again["parameters"].append({"name": FIELD, "in": "query", "required": False, "description": DOC + " (A query "
                                "parameter here: a GET has no body.)", "schema": {"type": "integer", "minimum": 0}})


def build() -> dict[str, Any]:
    """The OpenAPI document: the template with every module's declarations composed in."""
    import yaml
    global GAMES
    GAMES = all_games()              # (the registry as it is now: a scenario registered later counts)
    doc = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    schemas = doc["components"]["schemas"]
    _null_as_absent(schemas)
    _limits(schemas)
    _actions(schemas)
    schemas["ScenarioState"] = _object(
        "Data the scenario's rule modules keep, by key (each key in the scenarios whose modules "
        "declare it; any other key is a 422 naming it).", _users(lambda c: c.state.fields))
    player = _users(lambda c: c.player.fields)
    for k, e in sorted(player.items()):
        schemas["PlayerState"]["properties"][k] = _field(e["field"], f"(In {_where(e['ids'])}.)",
                                                         len(e["ids"]) == len(GAMES))
    derived = _users(lambda c: c.derived.fields)
    for k, e in sorted(derived.items()):
        schemas["Derived"]["properties"].setdefault(k, _field(e["field"], f"(In {_where(e['ids'])}.)"))
    _events(schemas)
    _seats(doc)
    return doc


def _own_copies(node: Any) -> Any:
    """``node`` with every dict and list its own (a value put in several places is written out at each, not as
    a YAML alias)."""
    if isinstance(node, dict):
        return {k: _own_copies(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_own_copies(v) for v in node]
    return node


def render(doc: dict[str, Any]) -> str:
    import yaml
    head = ("# Generated by bin/contract from contract/openapi.template.yaml and the rule modules'\n"
            "# declarations (contract/generate.py). Edit those, not this file.\n")
    return head + yaml.safe_dump(doc, sort_keys=False, width=110, allow_unicode=True, default_flow_style=None)


SEATS_DOC = ROOT / "docs" / "seats.md"
SEATS_MARK = "<!-- secrets: generated by bin/contract from the modules' SECRETS; edit those -->\n"


def seats_doc() -> str:
    """``docs/seats.md`` with its table of secrets written from the declarations (the text above the mark
    is the page's own)."""
    from service.engine.seats import secrets_doc
    head = SEATS_DOC.read_text(encoding="utf-8").split(SEATS_MARK)[0]
    return head + SEATS_MARK + "\n" + secrets_doc()


def main() -> None:
    (ROOT / "openapi.yaml").write_text(render(build()), encoding="utf-8")
    SEATS_DOC.write_text(seats_doc(), encoding="utf-8")


if __name__ == "__main__":
    main()
