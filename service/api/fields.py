"""Marshmallow fields for the board's vocabulary: hexes, nodes, edges, card counts.

They validate and normalise in one pass of plain Python (the state is parsed on every request):
coordinates come out canonical (``docs/coordinates.md``), resource aliases come out as the 5th-edition
names (BASE-ED-5). A field class marked ``ONE_PASS`` promises that its ``_deserialize`` alone loads a JSON
value (it does not read the parent data), so :mod:`service.api.fastload` calls it directly.
"""
from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from ..engine.geometry import CORNER_NAMES, SIDE_NAMES, canonical_edge, canonical_node
from ..engine.mapgraph import RESOURCES

MAX_KEYED = 8
CARD_LIMIT = 10_000  # the most cards of one kind a count may name
COORD_LIMIT = 64  # boards are at most ~12 x 10; anything beyond this is not a board position
RESOURCE_ALIASES = {"wood": "lumber", "clay": "brick", "sheep": "wool", "wheat": "grain", "stone": "ore"}


def _int(v: Any) -> bool:
    return type(v) is int


def _coord_pair(value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) < 2:
        raise ValidationError("must be a list [q, r, ...] of integers")
    q, r = value[0], value[1]
    if not (_int(q) and _int(r)):
        raise ValidationError("q and r must be integers")
    if abs(q) > COORD_LIMIT or abs(r) > COORD_LIMIT:
        raise ValidationError(f"coordinates must lie within +-{COORD_LIMIT}")
    return q, r


# corner / side name -> (dq, dr, canonical name): canonical_node(q, r, c) is (q + dq, r + dr, name)
_CORNER_SHIFT = {c: canonical_node(0, 0, c) for c in CORNER_NAMES}
_SIDE_SHIFT = {s: canonical_edge(0, 0, s) for s in SIDE_NAMES}


def _fast_coord(value: Any, shift: dict[str, tuple[int, int, str]]) -> Any:
    """The canonical ``(q, r, name)`` of a well-formed ``[q, r, name]``, else None (then the checks below
    word the error)."""
    if type(value) is list and len(value) == 3:
        q, r, c = value
        if type(q) is int and type(r) is int and -COORD_LIMIT <= q <= COORD_LIMIT \
                and -COORD_LIMIT <= r <= COORD_LIMIT and type(c) is str:
            d = shift.get(c)
            if d is not None:
                return (q + d[0], r + d[1], d[2])
    return None


class HexCoord(fields.Field):
    """``[q, r]`` -> ``(q, r)``."""

    ONE_PASS = True

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is list and len(value) == 2:
            q, r = value
            if type(q) is int and type(r) is int and -COORD_LIMIT <= q <= COORD_LIMIT \
                    and -COORD_LIMIT <= r <= COORD_LIMIT:
                return (q, r)
        q, r = _coord_pair(value)
        if len(value) != 2:
            raise ValidationError("a hex is [q, r]")
        return (q, r)

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else [value[0], value[1]]


def _named_coord(shift: dict[str, tuple[int, int, str]], names: tuple[str, ...], what: str, name: str):
    """``_deserialize`` of ``[q, r, name]``, ``name`` one of ``names`` (a corner or a side of the hex), to
    its canonical form (``shift``: name -> (dq, dr, canonical name)); ``what`` is "an intersection" or "a
    path"."""
    def _deserialize(self, value, attr, data, **kwargs):
        done = _fast_coord(value, shift)
        if done is not None:
            return done
        q, r = _coord_pair(value)
        if len(value) != 3 or not isinstance(value[2], str):
            raise ValidationError(f"{what} is [q, r, {name}]")
        if value[2] not in names:
            raise ValidationError(f"{value[2]!r} is not a {name} name (one of {', '.join(names)})")
        d = shift[value[2]]
        return (q + d[0], r + d[1], d[2])
    return _deserialize


class _NamedCoord(fields.Field):
    ONE_PASS = True

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else list(value)


class NodeCoord(_NamedCoord):
    """``[q, r, corner]`` with any of the six corner names -> canonical ``(q, r, "N"|"S")``."""
    _deserialize = _named_coord(_CORNER_SHIFT, tuple(CORNER_NAMES), "an intersection", "corner")


class EdgeCoord(_NamedCoord):
    """``[q, r, side]`` with any of the six side names -> canonical ``(q, r, "NE"|"E"|"SE")``."""
    _deserialize = _named_coord(_SIDE_SHIFT, tuple(SIDE_NAMES), "a path", "side")


def parse_cards(value: Any, allowed: tuple[str, ...] = RESOURCES, aliases: dict = RESOURCE_ALIASES,
                limit: int = CARD_LIMIT) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValidationError("must be an object of card counts")
    if len(value) > 2 * len(allowed):  # every name and its alias, at most
        raise ValidationError(f"names more card kinds than exist (one of {', '.join(allowed)})")
    out: dict[str, int] = {}
    errors: dict[str, list[str]] = {}
    for k, n in value.items():
        name = aliases.get(k, k)
        if name not in allowed:
            errors[k] = [f"unknown card {k!r} (one of {', '.join(allowed)})"]
        elif not _int(n) or n < 0 or n > limit:
            errors[k] = [f"must be an integer from 0 to {limit}"]
        elif name in out:
            errors[k] = [f"{k!r} names {name!r} twice"]
        else:
            out[name] = n
    if errors:
        raise ValidationError(errors)
    return out


class Cards(fields.Field):
    """``{"brick": 2, ...}``: non-negative counts of known cards (missing kinds are 0)."""

    ONE_PASS = True

    def __init__(self, allowed: tuple[str, ...] = RESOURCES, fill: bool = True, **kw):
        super().__init__(**kw)
        self.allowed = tuple(allowed)
        self.fill = fill
        self._names = frozenset(allowed)

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is dict and None in value.values():   # a null count: the kind left out (D-not-in-this-game)
            value = {k: v for k, v in value.items() if v is not None}
        if type(value) is dict and self._names.issuperset(value):
            # canonical names only (no aliases, so no name twice): one look at each count
            for n in value.values():
                if type(n) is not int or n < 0 or n > CARD_LIMIT:
                    break
            else:
                if self.fill and tuple(value) != self.allowed:   # (all kinds, in their order: a plain copy)
                    return {k: value.get(k, 0) for k in self.allowed}
                return dict(value)
        out = parse_cards(value, self.allowed)
        if self.fill:
            return {k: out.get(k, 0) for k in self.allowed}
        return out

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else dict(value)


class PlayerKeyed(fields.Field):
    """``{"0": n, ...}``: a count per player number (keys are player numbers as strings)."""

    ONE_PASS = True

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("must be an object keyed by player number")
        if len(value) > MAX_KEYED:
            raise ValidationError(f"at most {MAX_KEYED} entries, one per player")
        out = {}
        for k, n in value.items():
            if not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 3):
                raise ValidationError({k: ["keys are player numbers (\"0\" to \"5\")"]})
            if not _int(n) or n < 0 or n > 1000:
                raise ValidationError({k: ["must be an integer from 0 to 1000"]})
            out[int(k)] = n
        return out

    def _serialize(self, value, attr, obj, **kwargs):
        return {str(k): v for k, v in sorted(value.items())}


class StrictInt(fields.Integer):
    """An integer that is a JSON integer (not a bool, not a float, not a string)."""

    def __init__(self, **kw):
        super().__init__(strict=True, **kw)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("must be an integer")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBool(fields.Boolean):
    """A JSON ``true`` or ``false`` (not ``"yes"``, ``1`` or ``"true"``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("must be true or false")
        return value


class StrictNumber(fields.Float):
    """A JSON number (not a string spelling one, not ``true``), finite, as a float."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) not in (int, float):
            raise ValidationError("must be a number")
        return super()._deserialize(value, attr, data, **kwargs)


class BoundedList(fields.List):
    """A list whose length is checked before its items are (a huge list costs nothing to refuse)."""

    def __init__(self, inner, *, max_length: int, min_length: int = 0, **kw):
        super().__init__(inner, **kw)
        self.min_length, self.max_length = min_length, max_length

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and not self.min_length <= len(value) <= self.max_length:
            if self.min_length == self.max_length:
                raise ValidationError(f"must have exactly {self.max_length} items")
            raise ValidationError(f"must have {self.min_length} to {self.max_length} items")
        return super()._deserialize(value, attr, data, **kwargs)


class BoundedDict(fields.Dict):
    """An object of at most ``max_keys`` keys, each a string of at most ``max_key_length`` characters."""

    def __init__(self, *, max_keys: int, max_key_length: int = 60, **kw):
        super().__init__(keys=fields.String(), **kw)
        self.max_keys, self.max_key_length = max_keys, max_key_length

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dict):
            if len(value) > self.max_keys:
                raise ValidationError(f"at most {self.max_keys} entries")
            long = [k for k in value if len(k) > self.max_key_length]
            if long:
                raise ValidationError({long[0]: [f"a key is at most {self.max_key_length} characters"]})
        return super()._deserialize(value, attr, data, **kwargs)


#: Bounds of a free-form part of a state (``scenario_state``, the values of ``options``): what the
#: engine copies with every position it makes, so its size is a factor of every request's cost.
FREE_FORM_VALUES = 1_000      # JSON values in all (containers and leaves; ~10x the most a real game held)
FREE_FORM_STRING = 256        # characters of a string value
FREE_FORM_CHARS = 8_192       # characters of all its strings and keys together
FREE_FORM_KEY = 64            # characters of a key
FREE_FORM_INT = 2 ** 53       # integers within +-2^53 (I-JSON, RFC 7493 2.2)


def _more_values_than(value: Any, most: int) -> bool:
    """Whether ``value`` holds more than ``most`` JSON values (containers and leaves): a container's items
    are counted before any is looked at, so a huge array is refused at once, never walked."""
    seen = 1
    stack = [value] if type(value) in (dict, list) else []
    while stack:
        x = stack.pop()
        items = x.values() if type(x) is dict else x
        seen += len(items)
        if seen > most:
            return True
        stack.extend([y for y in items if type(y) in (dict, list)])
    return False


def check_free_form(value: Any, max_values: int = FREE_FORM_VALUES, max_key: int = FREE_FORM_KEY) -> None:
    """Raise a ValidationError naming the first place (as nested keys, pointer style) where ``value``
    breaks the bounds above: too many values or characters in all, a key or string too long, an integer
    too large."""
    if _more_values_than(value, max_values):   # counted first, nothing pushed beyond the bound
        raise ValidationError([f"holds more than {max_values} JSON values in all"])
    count = chars = 0
    stack: list[tuple[Any, tuple]] = [(value, ())]
    problem = None
    while stack:
        x, path = stack.pop()
        count += 1
        if count > max_values:
            problem = ((), f"holds more than {max_values} JSON values in all")
            break
        t = type(x)
        if t is dict:
            for k, v in x.items():
                if len(k) > max_key:
                    problem = (path + (k,), f"a key is at most {max_key} characters")
                    break
                chars += len(k)
                stack.append((v, path + (k,)))
            if problem:
                break
        elif t is list:
            stack.extend((v, path + (i,)) for i, v in enumerate(x))
        elif t is str:
            if len(x) > FREE_FORM_STRING:
                problem = (path, f"a string is at most {FREE_FORM_STRING} characters")
                break
            chars += len(x)
        elif t is int:
            if not -FREE_FORM_INT <= x <= FREE_FORM_INT:
                problem = (path, "an integer lies within +-2^53")
                break
    if problem is None and chars > FREE_FORM_CHARS:
        problem = ((), f"holds more than {FREE_FORM_CHARS} characters of strings and keys in all")
    if problem is None:
        return
    path, why = problem
    err: Any = [why]
    for k in reversed(path):
        err = {k: err}
    raise ValidationError(err)


class FreeForm(fields.Field):
    """A string-keyed object of any JSON values within the free-form bounds (:func:`check_free_form`)."""

    ONE_PASS = True

    def __init__(self, *, max_values: int = FREE_FORM_VALUES, max_keys: int | None = None,
                 max_key_length: int = FREE_FORM_KEY, **kw):
        super().__init__(**kw)
        self.max_values, self.max_keys, self.max_key_length = max_values, max_keys, max_key_length

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not dict:
            raise ValidationError("must be an object")
        if self.max_keys is not None and len(value) > self.max_keys:
            raise ValidationError(f"at most {self.max_keys} entries")
        check_free_form(value, self.max_values, self.max_key_length)
        return dict(value)


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


class Declared(fields.Field):
    """A value of a module's declared shape (``engine/spec.py``) that no field above loads (an object with
    free keys, a fixed-length tuple): checked against its declaration before anything reads it, and a
    problem named by the place inside the value (``/offers/1/give``), never passed on unchecked. Loaded
    as given (a shallow copy of an object), since the engine reads these values as the JSON they are."""

    ONE_PASS = True

    def __init__(self, shape: Any, **kw):
        super().__init__(**kw)
        self.shape = shape

    def _deserialize(self, value, attr, data, **kwargs):
        problems = self.shape.problems(value, "")
        if problems:
            ptr, why = problems[0]
            err: Any = [why]
            for part in reversed(ptr.split("/")[1:]):
                err = {_unescape(part): err}
            raise ValidationError(err)
        return dict(value) if type(value) is dict else value


#: Decision D-seed-form (docs/clients.md): a seed is 0..2^64-1, given as a JSON integer or as its decimal
#: string; answers write a seed above 2^53-1 (past what a JavaScript number holds exactly) as its string.
SEED_MAX = 2 ** 64 - 1
SAFE_INTEGER = 2 ** 53 - 1


class Seed(fields.Field):
    """A generator seed: an integer 0..2^64-1, or its decimal string (``"18446744073709551615"``)."""

    ONE_PASS = True

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is str and 0 < len(value) <= 20 and value.isascii() and value.isdigit() \
                and (len(value) == 1 or value[0] != "0"):
            value = int(value)
        elif type(value) is not int:
            raise ValidationError("must be an integer 0..2^64-1, or its decimal string")
        if not 0 <= value <= SEED_MAX:
            raise ValidationError("must be an integer 0..2^64-1, or its decimal string")
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return seed_json(value)


def seed_json(seed: int):
    """A seed as answers write it: an integer, or its decimal string past 2^53-1 (D-seed-form)."""
    return seed if seed <= SAFE_INTEGER else str(seed)
