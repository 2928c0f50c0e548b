"""Declared shapes: the small type language rule modules describe their data in.

A module declares the fields of its action types, the keys it keeps in ``scenario_state``, the values it
adds to a player, its derived values and its events with these types. From one declaration come the
request check (a wrong value is a problem naming the field by JSON pointer), the published contract
(:meth:`Type.openapi`) and the documentation. Pure data: the HTTP layer turns them into its own schemas.

>>> shape = Obj({"ships": F(List(Obj({"id": F(Int(0, 999), required=True)}), max_len=15))})
>>> shape.problems({"ships": [{"id": 3}]}, "/state/scenario_state")
[]
>>> shape.problems({"shipz": 1}, "/state/scenario_state")
[('/state/scenario_state/shipz', 'unknown key (known: ships)')]
>>> shape.problems({"ships": [{"id": "3"}]}, "/state/scenario_state")
[('/state/scenario_state/ships/0/id', 'must be an integer 0..999')]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

#: The most players a game has: the 5-6 player extension's six seats (BASE56-002). Every player number,
#: per-player map and player list of the contract is bounded by it; a game's own count (and the scenario's
#: ``players``) bounds it further.
MAX_PLAYERS = 6
_KEYS = tuple(str(i) for i in range(MAX_PLAYERS))

Problem = tuple[str, str]          # (JSON pointer, reason)

CORNERS = ("N", "S")
SIDES = ("NE", "E", "SE", "SW", "W", "NW")
MAX_COORD = 64


def _esc(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


class Type:
    """A JSON shape: ``problems(value, pointer)`` lists what is wrong with a value (first problems
    first, at most a few), ``openapi()`` its OpenAPI 3.1 schema."""

    nullable = False

    def problems(self, value: Any, ptr: str) -> list[Problem]:
        raise NotImplementedError

    def openapi(self) -> dict[str, Any]:
        raise NotImplementedError

    def ok(self, value: Any) -> bool:
        return not self.problems(value, "")

    def without_nulls(self, value: Any) -> Any:
        """``value`` (which has no problems) with every null that stands for a key left out removed, at any
        depth (decision D-not-in-this-game: a client generated from the contract writes null for an optional
        key it has no value for): the rules then read one form. ``value`` itself where it has none; a copy
        where it has (the posted value is never changed)."""
        return value


@dataclass(frozen=True)
class F:
    """A field of an object: its type, whether it must be given, what it means."""
    type: Type
    required: bool = False
    doc: str = ""
    nullable: bool = False
    #: The value an optional field takes when left out (``None`` unless stated).
    default: Any = None


@dataclass(frozen=True)
class Int(Type):
    lo: int = -(2 ** 53)
    hi: int = 2 ** 53

    def problems(self, value, ptr):
        if type(value) is not int:
            return [(ptr, f"must be an integer {self.lo}..{self.hi}")]
        if not self.lo <= value <= self.hi:
            return [(ptr, f"must be an integer {self.lo}..{self.hi}, not {value}")]
        return []

    def openapi(self):
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


@dataclass(frozen=True)
class Bool(Type):
    def problems(self, value, ptr):
        return [] if type(value) is bool else [(ptr, "must be true or false")]

    def openapi(self):
        return {"type": "boolean"}


@dataclass(frozen=True)
class Str(Type):
    """A string: one of ``enum`` when given, else at most ``max_len`` characters."""
    enum: Optional[tuple[str, ...]] = None
    max_len: int = 64

    def problems(self, value, ptr):
        if type(value) is not str:
            return [(ptr, "must be a string")]
        if self.enum is not None and value not in self.enum:
            return [(ptr, f"must be one of {', '.join(self.enum)}")]
        if len(value) > self.max_len:
            return [(ptr, f"at most {self.max_len} characters")]
        return []

    def openapi(self):
        return {"type": "string", "enum": list(self.enum)} if self.enum is not None else \
            {"type": "string", "maxLength": self.max_len}


def _ints(value, n: int) -> bool:
    return type(value) is list and len(value) >= n and all(type(x) is int and -MAX_COORD <= x <= MAX_COORD
                                                           for x in value[:n])


@dataclass(frozen=True)
class HexT(Type):
    """A hex ``[q, r]``."""

    def problems(self, value, ptr):
        return [] if _ints(value, 2) and len(value) == 2 else [(ptr, "must be a hex [q, r] (integers within +-64)")]

    def openapi(self):
        return {"$ref": "#/components/schemas/Hex"}


@dataclass(frozen=True)
class _Place(Type):
    """A place on a hex: ``[q, r, name]`` with ``name`` one of ``names`` (the contract's ``schema``)."""
    names: tuple[str, ...] = ()
    reason: str = ""
    schema: str = ""

    def problems(self, value, ptr):
        if _ints(value, 2) and len(value) == 3 and value[2] in self.names:
            return []
        return [(ptr, self.reason)]

    def openapi(self):
        return {"$ref": f"#/components/schemas/{self.schema}"}


def NodeT() -> _Place:
    """An intersection ``[q, r, corner]``."""
    return _Place(CORNERS, "must be an intersection [q, r, corner] (corner N or S)", "Node")


def EdgeT() -> _Place:
    """A path ``[q, r, side]``."""
    return _Place(SIDES, "must be a path [q, r, side] (side NE, E, SE, SW, W or NW)", "Edge")


@dataclass(frozen=True)
class Cards(Type):
    """Counts by kind: ``{kind: count}``, each of ``kinds``, counts 0..``hi``."""
    kinds: tuple[str, ...]
    hi: int = 10_000
    #: Every kind appears in the loaded value (0 where left out), as in a hand of cards.
    fill: bool = False

    def problems(self, value, ptr):
        if type(value) is not dict:
            return [(ptr, "must be an object of counts by kind")]
        for k, n in value.items():
            if k not in self.kinds:
                return [(f"{ptr}/{_esc(k)}", f"unknown kind (one of {', '.join(self.kinds)})")]
            if type(n) is not int or not 0 <= n <= self.hi:
                return [(f"{ptr}/{_esc(k)}", f"must be a count 0..{self.hi}")]
        return []

    def openapi(self):
        # a map by kind, not an object of optional properties: a generated model then holds the kinds
        # given, and writes no null for every kind it was not given
        return {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": self.hi},
                "propertyNames": {"enum": list(self.kinds)}, "maxProperties": len(self.kinds)}


@dataclass(frozen=True)
class Null(Type):
    """``null`` or a value of ``of``."""
    of: Type

    def problems(self, value, ptr):
        return [] if value is None else self.of.problems(value, ptr)

    def without_nulls(self, value):
        return value if value is None else self.of.without_nulls(value)

    def openapi(self):
        inner = self.of.openapi()
        return {"anyOf": [inner, {"type": "null"}]}


@dataclass(frozen=True)
class List(Type):
    item: Type
    max_len: int = 100
    min_len: int = 0

    def problems(self, value, ptr):
        if type(value) is not list:
            return [(ptr, "must be a list")]
        if not self.min_len <= len(value) <= self.max_len:
            return [(ptr, f"must hold {self.min_len}..{self.max_len} items")]
        for i, v in enumerate(value):
            p = self.item.problems(v, f"{ptr}/{i}")
            if p:
                return p
        return []

    def without_nulls(self, value):
        if type(value) is not list:
            return value
        out = [self.item.without_nulls(v) for v in value]
        return value if all(a is b for a, b in zip(out, value)) else out

    def openapi(self):
        out = {"type": "array", "items": self.item.openapi(), "maxItems": self.max_len}
        if self.min_len:
            out["minItems"] = self.min_len
        return out


@dataclass(frozen=True)
class Tuple(Type):
    """A fixed-length list whose items have their own types (``[q, r, terrain, number]``)."""
    items: tuple[Type, ...]

    def problems(self, value, ptr):
        if type(value) is not list or len(value) != len(self.items):
            return [(ptr, f"must be a list of {len(self.items)} items")]
        for i, (t, v) in enumerate(zip(self.items, value)):
            p = t.problems(v, f"{ptr}/{i}")
            if p:
                return p
        return []

    def without_nulls(self, value):
        if type(value) is not list:
            return value
        out = [t.without_nulls(v) for t, v in zip(self.items, value)]
        return value if all(a is b for a, b in zip(out, value)) else out

    def openapi(self):
        return {"type": "array", "prefixItems": [t.openapi() for t in self.items],
                "minItems": len(self.items), "maxItems": len(self.items)}


@dataclass(frozen=True)
class Map(Type):
    """An object with free keys (``key`` a string shape, e.g. a player number ``"0"``) and values of ``value``."""
    value: Type
    key: Type = Str(max_len=40)
    max_len: int = 100

    def problems(self, value, ptr):
        if type(value) is not dict:
            return [(ptr, "must be an object")]
        if len(value) > self.max_len:
            return [(ptr, f"at most {self.max_len} keys")]
        for k, v in value.items():
            p = self.key.problems(k, f"{ptr}/{_esc(k)}")
            if p:
                return [(p[0][0], "key " + p[0][1])]
            p = self.value.problems(v, f"{ptr}/{_esc(k)}")
            if p:
                return p
        return []

    def without_nulls(self, value):
        if type(value) is not dict:
            return value
        out = {k: self.value.without_nulls(v) for k, v in value.items()}
        return value if all(out[k] is v for k, v in value.items()) else out

    def openapi(self):
        out = {"type": "object", "additionalProperties": self.value.openapi(), "maxProperties": self.max_len}
        key = self.key.openapi()
        key.pop("type", None)
        if key:
            out["propertyNames"] = key
        return out


@dataclass(frozen=True)
class PlayerKey(Type):
    """A player number written as an object key: ``"0"``..``"5"`` (:data:`MAX_PLAYERS`)."""

    def problems(self, value, ptr):
        return [] if value in _KEYS else [(ptr, f"must be a player number \"0\"..\"{MAX_PLAYERS - 1}\"")]

    def openapi(self):
        return {"type": "string", "enum": list(_KEYS)}


@dataclass(frozen=True)
class Obj(Type):
    """An object with declared keys only (unknown keys are a problem naming them)."""
    fields: Mapping[str, F] = field(default_factory=dict)
    doc: str = ""

    def problems(self, value, ptr):
        if type(value) is not dict:
            return [(ptr, "must be an object")]
        fs = self.fields
        for k, v in value.items():
            f = fs.get(k)
            if f is None:
                return [(f"{ptr}/{_esc(k)}", f"unknown key (known: {', '.join(sorted(fs)) or 'none'})")]
            if v is None and (f.nullable or not f.required):   # null: as if an optional key were left out
                continue
            p = f.type.problems(v, f"{ptr}/{_esc(k)}")
            if p:
                return p
        for k, f in fs.items():
            if f.required and k not in value:
                return [(f"{ptr}/{_esc(k)}", "is required")]
        return []

    def without_nulls(self, value):
        if type(value) is not dict:
            return value
        fs, out, changed = self.fields, {}, False
        for k, v in value.items():
            f = fs.get(k)
            if f is None:
                out[k] = v
            elif v is None:
                if f.nullable or f.required:
                    out[k] = v
                else:
                    changed = True      # null: the optional key left out
            else:
                w = f.type.without_nulls(v)
                changed = changed or w is not v
                out[k] = w
        return out if changed else value

    def openapi(self):
        props = {}
        for k, f in self.fields.items():
            s = f.type.openapi()
            if f.nullable:
                s = {"anyOf": [s, {"type": "null"}]}
            if f.doc:
                s = {**s, "description": f.doc} if "$ref" not in s else {"allOf": [s], "description": f.doc}
            props[k] = s
        out: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": props}
        req = [k for k, f in self.fields.items() if f.required]
        if req:
            out["required"] = req
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True)
class Any_(Type):
    """Any JSON value (used for values whose shape another declaration gives, e.g. a witness path)."""
    doc: str = ""

    def problems(self, value, ptr):
        return []

    def openapi(self):
        return {"description": self.doc} if self.doc else {}


def merge(*parts: Mapping[str, F], where: str = "") -> dict[str, F]:
    """Fields of several modules in one object; a key two modules declare differently is a programming
    error, found when the scenario is registered."""
    out: dict[str, F] = {}
    for part in parts:
        for k, f in part.items():
            if k in out and out[k] != f:
                raise ValueError(f"{where}: {k!r} is declared twice, differently")
            out[k] = f
    return out


HEX = HexT()
NODE = NodeT()
EDGE = EdgeT()
PLAYER = Int(0, MAX_PLAYERS - 1)
PLAYER_KEY = PlayerKey()


def by_player(value: Type) -> Map:
    """``{"<player>": value}``."""
    return Map(value, key=PLAYER_KEY, max_len=MAX_PLAYERS)


__all__ = ["Type", "F", "Int", "Bool", "Str", "HexT", "NodeT", "EdgeT", "Cards", "Null", "List", "Tuple", "Map",
           "Obj", "Any_", "PlayerKey", "MAX_PLAYERS", "merge", "HEX", "NODE", "EDGE", "PLAYER", "PLAYER_KEY", "by_player",
           "Problem", "Sequence"]
