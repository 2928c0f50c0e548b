"""Request schemas composed from the rule modules' declarations (``engine/module.py``, ``engine/spec.py``).

One declaration per action type gives its marshmallow schema here, its OpenAPI schema (``contract.py``)
and its handler and candidates in the engine. Schemas are built per scenario (a field a scenario's
modules do not declare is an unknown field there) and kept.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..engine import spec as T
from ..engine.scenarios import SCENARIOS
from .fastload import compile_schema
from .fields import BoundedList, Cards, Declared, EdgeCoord, HexCoord, NodeCoord, StrictBool, StrictInt

from ..engine.spec import MAX_PLAYERS  # noqa: E402


class Base(Schema):
    class Meta:
        from marshmallow import RAISE
        unknown = RAISE


def _kw(f: T.F) -> dict[str, Any]:
    if f.required:
        return {"required": True}
    return {"load_default": f.default, "allow_none": True if f.nullable or f.default is None else False}


_OBJ_SCHEMAS: dict[int, type[Schema]] = {}


def field_of(t: T.Type, **kw: Any) -> fields.Field:
    """The marshmallow field that loads a value of declared type ``t``."""
    if isinstance(t, T._Place):
        return NodeCoord(**kw) if t.schema == "Node" else EdgeCoord(**kw)
    if isinstance(t, T.HexT):
        return HexCoord(**kw)
    if isinstance(t, T.Int):
        return StrictInt(validate=validate.Range(t.lo, t.hi), **kw)
    if isinstance(t, T.Bool):
        return StrictBool(**kw)
    if isinstance(t, T.Str):
        v = validate.OneOf(t.enum) if t.enum is not None else validate.Length(max=t.max_len)
        return fields.String(validate=v, **kw)
    if isinstance(t, T.Cards):
        return Cards(t.kinds, fill=t.fill, **kw)
    if isinstance(t, T.List):
        return BoundedList(field_of(t.item), max_length=t.max_len, min_length=t.min_len, **kw)
    if isinstance(t, T.Obj):
        key = id(t)
        if key not in _OBJ_SCHEMAS:
            _OBJ_SCHEMAS[key] = type("Declared", (Base,), {k: field_of(f.type, **_kw(f)) for k, f in t.fields.items()})
        return fields.Nested(_OBJ_SCHEMAS[key], **kw)
    if isinstance(t, T.Null):
        return field_of(t.of, **{**kw, "allow_none": True})
    if isinstance(t, T.Any_):
        return fields.Raw(**kw)
    # an object with free keys (a player number's), a tuple: the declaration itself checks the value
    return Declared(t, **kw)


def action_schema(type_: str, declared: dict[str, T.F]) -> Schema:
    attrs: dict[str, Any] = {
        "type": fields.String(required=True, validate=validate.Equal(type_)),
        "player": StrictInt(required=True, validate=validate.Range(0, MAX_PLAYERS - 1)),
    }
    for name, f in declared.items():
        attrs[name] = field_of(f.type, **_kw(f))
    return type(f"{type_.title().replace('_', '')}Action", (Base,), attrs)()


class ActionSchemas:
    """Per scenario and action type: the schema and its one-pass loader (built on first use)."""

    def __init__(self) -> None:
        self._by_fields: dict[tuple, tuple[Schema, Any]] = {}
        self._kept: dict[tuple[str, str], tuple[Schema, Any]] = {}

    def get(self, scenario: Any, type_: str):
        """``scenario``: a scenario id, or the scenario itself (a game's, expansions stacked)."""
        key = (scenario, type_) if isinstance(scenario, str) else (type(scenario), type_)
        got = self._kept.get(key)
        if got is None:
            scen = SCENARIOS[scenario] if isinstance(scenario, str) else scenario
            spec = scen.composition.actions.get(type_)
            if spec is None:
                return None
            fkey = (type_, tuple(sorted((k, id(f)) for k, f in spec.fields.items())))
            got = self._by_fields.get(fkey)
            if got is None:
                schema = action_schema(type_, dict(spec.fields))
                absent = frozenset(n for n, f in schema.fields.items() if not f.required and not f.allow_none)
                got = self._by_fields[fkey] = (schema, compile_schema(schema), absent)
            self._kept[key] = got
        return got


ACTIONS = ActionSchemas()


def all_action_types() -> tuple[str, ...]:
    """Every action type some registered scenario has."""
    return tuple(sorted({t for s in SCENARIOS.values() for t in s.composition.actions}))


__all__ = ["ACTIONS", "ActionSchemas", "action_schema", "field_of", "all_action_types"]


def union_specs() -> dict[str, dict[str, T.F]]:
    """Per action type, every field some scenario's modules declare for it (the published contract lists
    them all, each field saying where it has a meaning). A field most scenarios share is the one they
    inherit; where a module declares it otherwise (GOLD's coins in a trade, a knight without a move), that
    declaration is the one published, whatever order the scenarios were registered in."""
    from ..engine.scenarios import all_games
    seen: dict[str, dict[str, list[T.F]]] = {}
    for s in all_games().values():
        for t, spec in s.composition.actions.items():
            per = seen.setdefault(t, {})
            for k, f in spec.fields.items():
                per.setdefault(k, []).append(f)
    return {t: {k: published_field(found) for k, found in seen[t].items()} for t in sorted(seen)}


def published_field(found: list[T.F]) -> T.F:
    """Of the declarations several scenarios give one field, the one to publish: the one most of them share
    is inherited, so a module's own (the last, if several) wins; whatever order they come in."""
    counts: dict[int, int] = {}
    for f in found:
        counts[id(f)] = counts.get(id(f), 0) + 1
    inherited = max(counts, key=counts.__getitem__)
    own = [f for f in found if id(f) != inherited]
    chosen = own[-1] if own else found[0]
    cards = [f.type for f in found if isinstance(f.type, T.Cards)]
    if isinstance(chosen.type, T.Cards) and len(cards) > 1:     # card counts: every kind some game takes
        kinds: tuple[str, ...] = ()
        for c in cards:
            kinds += tuple(k for k in c.kinds if k not in kinds)
        chosen = T.F(T.Cards(kinds, max(c.hi for c in cards), chosen.type.fill), chosen.required, chosen.doc,
                     chosen.nullable, chosen.default)
    return chosen


def union_action_fields() -> dict[str, dict[str, fields.Field]]:
    """:func:`union_specs` as marshmallow fields (``data_key`` aside, the names are the JSON names)."""
    return {t: {k: field_of(f.type, **_kw(f)) for k, f in fs.items()} for t, fs in union_specs().items()}


def union_action_schemas() -> dict[str, Schema]:
    return {t: action_schema(t, fs) for t, fs in union_specs().items()}
