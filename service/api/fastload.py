"""A one-pass loader compiled from a marshmallow schema, for the request path.

``compile_schema(schema)`` turns a schema's declared fields (nested schemas, lists, the custom fields of
:mod:`service.api.fields`, strict ints, strings, booleans, string-keyed dicts and their validators) into
plain Python closures that give exactly what ``schema.load`` gives for a valid input. They never word an
error: at the first value they would refuse (or cannot judge) they raise :class:`Fallback` (or let the
field's own :class:`~marshmallow.ValidationError` through), and the caller loads the input again with the
schema itself, which collects and words every problem. So the schemas stay the single description of
the contract (``tests/test_contract.py`` compares them with ``openapi.yaml``) and invalid input is
answered exactly as before, while a valid state costs one pass of plain Python.

>>> from marshmallow import fields
>>> from service.api.schemas import Base, StrictInt
>>> class S(Base):
...     n = StrictInt(required=True)
...     tags = fields.List(fields.String(), load_default=list)
>>> load = compile_schema(S())
>>> load({"n": 1}) == S().load({"n": 1})
True
>>> load_or_schema(S(), load, {"n": 1, "tags": ["a"]})
{'n': 1, 'tags': ['a']}
>>> try:
...     load({"n": "1"})
... except Fallback:
...     print("refused: the schema words the error")
refused: the schema words the error
"""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.utils import missing as MISSING

from . import fields as own

Loader = Callable[[Any], Any]


class Fallback(Exception):
    """The fast loader refuses this input (or cannot judge it): load it with the schema instead."""


def load_or_schema(schema: Schema, fast: Loader, data: Any) -> Any:
    """``fast(data)``, or ``schema.load(data)`` when the fast path refuses it (errors are worded there)."""
    try:
        return fast(data)
    except (Fallback, ValidationError):
        return schema.load(data)


# -- validators ------------------------------------------------------------------------------------------

def _check(v: validate.Validator | Callable) -> Callable[[Any], bool]:
    """A predicate that is True when the validator accepts the value (any doubt: False -> Fallback)."""
    if type(v) is validate.Range:
        lo, hi, lo_in, hi_in = v.min, v.max, v.min_inclusive, v.max_inclusive
        return lambda x: ((lo is None or (x >= lo if lo_in else x > lo))
                          and (hi is None or (x <= hi if hi_in else x < hi)))
    if type(v) is validate.OneOf:
        try:
            choices = frozenset(v.choices)
        except TypeError:
            choices = None
        if choices is not None and all(type(c) is str for c in choices):
            return lambda x: type(x) is str and x in choices   # strings only: no 1 == True surprises
    if type(v) is validate.Equal and type(v.comparable) in (int, str):
        c, t = v.comparable, type(v.comparable)
        return lambda x: type(x) is t and x == c
    if type(v) is validate.Length:
        lo, hi, eq = v.min, v.max, v.equal
        if eq is not None:
            return lambda x: len(x) == eq
        return lambda x: (lo is None or len(x) >= lo) and (hi is None or len(x) <= hi)

    def run(x: Any) -> bool:   # any other validator: call it (it raises, or returns False, to refuse)
        try:
            r = v(x)
        except ValidationError:
            return False
        return isinstance(v, validate.Validator) or r is not False
    return run


def _with_validators(field: fields.Field, core: Loader) -> Loader:
    checks = [_check(v) for v in field.validators]
    if not checks:
        return core
    if len(checks) == 1:
        ok = checks[0]

        def one(x):
            out = core(x)
            if not ok(out):
                raise Fallback
            return out
        return one

    def many(x):
        out = core(x)
        for ok in checks:
            if not ok(out):
                raise Fallback
        return out
    return many


def _fused(field: fields.Field) -> Loader | None:
    """One closure for the commonest leaves (a strict int within a range, a string out of a set, a strict
    boolean, without further validators), where type check and validator would otherwise be two calls."""
    t, vs = type(field), field.validators
    if t is own.StrictBool and not vs:
        return _bool
    if t is own.StrictInt and len(vs) == 1 and type(vs[0]) is validate.Range \
            and vs[0].min_inclusive and vs[0].max_inclusive and vs[0].min is not None and vs[0].max is not None:
        lo, hi = vs[0].min, vs[0].max

        def int_in_range(x):
            if type(x) is not int or x < lo or x > hi:
                raise Fallback
            return x
        return int_in_range
    if t is fields.String and len(vs) == 1 and type(vs[0]) is validate.OneOf \
            and all(type(c) is str for c in vs[0].choices):
        choices = frozenset(vs[0].choices)

        def string_of(x):
            if type(x) is not str or x not in choices:
                raise Fallback
            return x
        return string_of
    return None


# -- fields ----------------------------------------------------------------------------------------------

def _strict_int(x: Any) -> int:
    if type(x) is not int:
        raise Fallback
    return x


def _string(x: Any) -> str:
    if type(x) is not str:
        raise Fallback
    return x


def _bool(x: Any) -> bool:
    if type(x) is not bool:
        raise Fallback
    return x


#: The one-pass fields' loaders made by :func:`_core`: loader -> (the field's ``_deserialize``, its name),
#: for a compiled schema to call the field's own loader without the wrapper.
_OWN: dict[Loader, tuple[Callable, str]] = {}


def _core(field: fields.Field) -> Loader:
    """The loader of a present, non-null value of ``field`` (validators excluded)."""
    t = type(field)
    if t is own.StrictInt:
        return _strict_int
    if t is fields.String:
        return _string
    if t is own.StrictBool:
        return _bool
    if t is fields.Nested and not field.many and field.only is None and not field.exclude \
            and field.unknown is None:
        return compile_schema(field.schema)
    if t in (fields.List, own.BoundedList):
        inner = compile_field(field.inner)
        lo, hi = (field.min_length, field.max_length) if t is own.BoundedList else (0, None)

        def load_list(x):
            if type(x) is not list or len(x) < lo or (hi is not None and len(x) > hi):
                raise Fallback
            return [inner(y) for y in x]
        return load_list
    if t in (fields.Dict, own.BoundedDict) and type(field.key_field) is fields.String \
            and not field.key_field.validators and field.value_field is None:
        most, longest = (field.max_keys, field.max_key_length) if t is own.BoundedDict else (None, None)

        def load_dict(x):
            if type(x) is not dict or (most is not None and len(x) > most):
                raise Fallback
            for k in x:
                if type(k) is not str or (longest is not None and len(k) > longest):
                    raise Fallback
            return dict(x)
        return load_dict
    if t.__dict__.get("ONE_PASS"):
        # a field whose own _deserialize is a complete one-pass loader of JSON values (HexList, Cards, ...)
        name = field.name

        def load_own(x, _d=field._deserialize):
            return _d(x, name, None)
        _OWN[load_own] = (field._deserialize, name)
        return load_own

    def generic(x, _d=field.deserialize):   # anything else: marshmallow's own path for the one field
        return _d(x)
    return generic


def _present(field: fields.Field) -> tuple[Loader, bool, bool]:
    """(the loader of a present, non-null value of ``field``, whether ``null`` is allowed, False), or
    ``(field.deserialize, True, True)`` for a field with hooks of its own (it judges ``null`` itself)."""
    if getattr(field, "pre_load", None) or getattr(field, "post_load", None):
        def generic(x, _d=field.deserialize):
            return _d(x)
        return generic, True, True
    return _fused(field) or _with_validators(field, _core(field)), bool(field.allow_none), False


def compile_field(field: fields.Field) -> Loader:
    """The loader of a present value of ``field`` (``null`` included), as ``field.deserialize`` gives it."""
    core, nullable, hooked = _present(field)
    if hooked:
        return core
    if nullable:
        return lambda x: None if x is None else core(x)

    def not_null(x):
        if x is None:
            raise Fallback
        return core(x)
    return not_null


def compile_schema(schema: Schema) -> Loader:
    """A loader giving ``schema.load(data)`` for valid data, raising :class:`Fallback` otherwise."""
    hooks = schema._hooks
    if (hooks[PRE_LOAD] or hooks[POST_LOAD] or hooks[VALIDATES] or schema.unknown != RAISE or schema.many
            or schema.partial or any(many or kw.get("pass_original") for _, many, kw in hooks[VALIDATES_SCHEMA])
            or any("." in (f.attribute or n) for n, f in schema.load_fields.items())):
        def generic(x, _load=schema.load):   # a schema with hooks this compiler does not reproduce
            return _load(x)
        return generic
    plan = []
    for name, f in schema.load_fields.items():
        key = f.data_key if f.data_key is not None else name
        default = f.load_default
        conv, nullable, hooked = _present(f)
        plan.append((key, f.attribute or name, conv, f.required, default,
                     callable(default) and default is not MISSING, nullable, hooked))
    known = frozenset(p[0] for p in plan)
    checks = [getattr(schema, name) for name, _, _ in hooks[VALIDATES_SCHEMA]]
    return _generated(type(schema).__name__, plan, known, checks)


def _generated(name: str, plan: list[tuple], known: frozenset, checks: list) -> Loader:
    """The loader of a schema's ``plan`` as one function of straight-line code, a few lines per field (no
    loop over the fields, no per-field flags read at run time). The generated text holds no value of the
    schema's: keys, defaults and loaders are names bound in its namespace."""
    ns: dict[str, Any] = {"MISSING": MISSING, "Fallback": Fallback, "RAISE": RAISE, "known": known}
    lines = ["def load(data):",
             "    if type(data) is not dict or not known.issuperset(data):",
             "        raise Fallback   # not an object, or an unknown field",
             "    out = {}",
             "    get = data.get"]
    for i, (key, attr, conv, required, default, call, nullable, hooked) in enumerate(plan):
        ns[f"k{i}"], ns[f"a{i}"], ns[f"d{i}"], ns[f"c{i}"] = key, attr, default, conv
        own = _OWN.get(conv)
        if own is not None:     # a one-pass field: its own loader, called directly
            ns[f"c{i}"], ns[f"n{i}"] = own
            convert = f"c{i}(v, n{i}, None)"
        else:
            convert = f"c{i}(v)"
        lines.append(f"    v = get(k{i}, MISSING)")
        lines.append("    if v is MISSING:")
        if required:
            lines.append("        raise Fallback")
        elif default is not MISSING:
            lines.append(f"        out[a{i}] = d{i}()" if call else f"        out[a{i}] = d{i}")
        else:
            lines.append("        pass")
        if not hooked:
            lines.append("    elif v is None:")
            lines.append(f"        out[a{i}] = None" if nullable else "        raise Fallback")
        lines.append("    else:")
        lines.append(f"        out[a{i}] = {convert}")
    for j, check in enumerate(checks):
        ns[f"check{j}"] = check
        lines.append(f"    check{j}(out, partial=None, many=False, unknown=RAISE)")
    lines.append("    return out")
    exec(compile("\n".join(lines), f"<fastload {name}>", "exec"), ns)
    return ns["load"]
