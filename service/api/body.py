"""Reading a JSON body strictly: no NaN/Infinity, no duplicate keys, no unpaired surrogates, bounded depth and size."""
from __future__ import annotations

import json
import re
import sys
from typing import Any

import orjson
from flask import Request

from ..engine import budget
from .errors import Problem

MAX_DEPTH = 32


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    v = float(text)
    if v in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is too large for a double")
    return v


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):   # some key came twice: name the first repeat
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise ValueError(f"duplicate key {k!r}")
            seen.add(k)
    return out


_CONTAINERS = (dict, list)


def _depth(v: Any, limit: int = MAX_DEPTH) -> None:
    stack = [(v, 1)]
    while stack:
        x, d = stack.pop()
        if d > limit:
            raise ValueError(f"nested deeper than {limit} levels")
        if isinstance(x, dict):
            x = x.values()
        elif not isinstance(x, list):
            continue
        if x and d >= limit:
            raise ValueError(f"nested deeper than {limit} levels")
        # only containers go on the stack: a huge flat array costs one pass, not a push per item
        stack.extend([(y, d + 1) for y in x if type(y) in _CONTAINERS])


# Every byte but brackets, braces, quotes and backslashes (all ASCII, so never part of a UTF-8 sequence).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')
_BRACES_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")


def _shallow(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """True when the (valid) JSON text ``raw`` is certainly nested less than ``limit`` containers deep,
    judged from its bytes alone in a few C-speed passes; False means "walk the parsed value" (deep, or
    strings with escapes, which this shortcut does not read).

    Without backslashes every quote opens or closes a string, so dropping the text between quote pairs
    leaves exactly the containers' brackets; each pass then removes the innermost pairs, and a text
    that is empty after ``limit - 1`` passes has no container deeper than ``limit - 1``: nothing in it,
    not even a number, lies deeper than ``limit`` (what :func:`_depth` checks).
    """
    return _shallow_structure(raw.translate(None, _NOT_STRUCTURE), limit)


def _shallow_structure(s: bytes, limit: int = MAX_DEPTH) -> bool:
    """:func:`_shallow` of a text's structure bytes (``raw.translate(None, _NOT_STRUCTURE)``)."""
    if b"\\" in s:
        return False
    t = s.replace(b'""', b"")   # strings without brackets (the usual case) leave just their two quotes
    # (if any string held a bracket, its opening quote ends an odd run of quotes and is left over)
    s = (t if b'"' not in t else b"".join(s.split(b'"')[::2])).translate(_BRACES_AS_BRACKETS)
    for _ in range(limit - 1):
        if not s:
            return True
        s = s.replace(b"[]", b"")
    return not s


_WHITESPACE = b" \t\n\r"


def _fast_parse(raw: bytes) -> Any:
    """The value of ``raw`` as the strict parser (:func:`_strict_parse`) gives it, parsed in C, or None when
    this shortcut cannot vouch for it (then the strict parser reads it and words any error).

    orjson keeps the last of two equal keys and reads an integer past 64 bits as a float, so its value is
    trusted only when writing it back gives the body's own bytes (all whitespace aside, in strings too: the
    same on both sides, and never part of a UTF-8 sequence). Without backslashes
    every string is written back byte for byte, so the two texts differ wherever the body held a repeated
    key (its first pair is missing, with its colon), a number spelled otherwise than Python writes it
    (``2e3``, ``-0``, a 20-digit integer) or a literal orjson refuses (NaN, 1e400: it raises). A body
    that is valid, duplicate-free JSON in compact or pretty-printed form, the usual case, passes.
    """
    if b"\\" in raw:
        return None
    try:
        data = orjson.loads(raw)
        again = orjson.dumps(data)
        # (a compact body, the usual case, is its own bytes without the whitespace: one comparison)
        same = again == raw or again.translate(None, _WHITESPACE) == raw.translate(None, _WHITESPACE)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return None
    return data if same else None


# An escaped UTF-16 surrogate (\uD800-\uDFFF): paired, it is one character; alone, a string no UTF-8 text
# can carry (I-JSON, RFC 7493 2.1), which every answer and digest would later fail to write.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _lone_surrogate(v: Any) -> str | None:
    """The first string (key or value) of ``v`` holding an unpaired surrogate, else None."""
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return x
    return None


def _strict_parse(raw: bytes) -> Any:
    text = raw.decode("utf-8")
    data = json.loads(text, parse_constant=_no_constants, parse_float=_finite_float,
                      object_pairs_hook=_no_duplicates)
    if _SURROGATE_ESCAPE.search(raw):
        bad = _lone_surrogate(data)
        if bad is not None:
            raise ValueError(f"the string {bad[:40]!r} holds an unpaired UTF-16 surrogate (not Unicode text)")
    return data


READ_CHUNK = 64 * 1024

#: The most JSON values (scalars, arrays, objects and keys together) a body may hold, counted from its
#: bytes while it is read, before anything is parsed (decision D-body-values): what a body costs once
#: parsed grows with its values, not its bytes (a 2 MiB array of ``0``s is a million Python references).
#: The largest state any scenario admits (400 hexes, 800 pieces, every bounded list full, 1,000
#: free-form values) holds about 20,000; a replay's 20,000 actions hold ~10 values each (a Road Building
#: with its two pieces, ~25). Within these counts a body parses in well under the memory and CPU a request
#: may use (``bench/request_memory.py``).
MAX_VALUES = 100_000
REPLAY_MAX_VALUES = 500_000
assert READ_CHUNK < MAX_VALUES      # (a body of one piece is never counted: it cannot hold more)


def _too_large(max_bytes: int) -> Problem:
    return Problem(413, f"the body is larger than the limit of {max_bytes} bytes")


def _too_many_values(max_values: int) -> Problem:
    return Problem(413, f"the body holds more than {max_values:,} JSON values, more than any request of this "
                        "endpoint needs", [{"pointer": "/", "detail": f"at most {max_values:,} JSON values "
                                                                      "(arrays, objects, keys and scalars)"}])


def _values_in(part: bytes) -> int:
    """An upper bound of the JSON values that start in ``part``: each value but a document's first follows
    a comma, a colon (an object's value) or an opening bracket or brace (a container's first item); keys
    are counted with their values' colons. (Commas and colons inside strings are counted too: a little
    more than the truth, never less.)"""
    return part.count(b",") + part.count(b":") + part.count(b"[") + part.count(b"{")


def _read_limited(request: Request, max_bytes: int, max_values: int = MAX_VALUES) -> bytes:
    """The body, read piece by piece and refused (413) as soon as it passes ``max_bytes`` or holds more
    than ``max_values`` JSON values (:func:`_values_in`, counted as each piece arrives): a chunked body
    (no ``Content-Length``) is never held whole beyond the limit. A body the server cannot read (a
    malformed chunk size, a client that went away) is a 400."""
    stream = request.stream
    parts: list[bytes] = []
    size = 0
    values = 1
    counted = 0         # (parts counted so far)
    try:
        while True:
            part = stream.read(min(READ_CHUNK, max_bytes + 1 - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
            if size > max_bytes:
                raise _too_large(max_bytes)
            if size > READ_CHUNK:   # (64 KB hold fewer values than either count: the usual body costs nothing)
                while counted < len(parts):
                    values += _values_in(parts[counted])
                    counted += 1
                if values > max_values:
                    raise _too_many_values(max_values)
    except Problem:
        raise
    except Exception as e:   # the WSGI server's parse errors (bad chunk size, missing terminator), resets
        raise Problem(400, f"the body could not be read: {e.__class__.__name__}", [
            {"pointer": "/", "detail": "send a well-formed body (Content-Length or valid chunked encoding)"}]) from None
    return b"".join(parts)


def read_json(request: Request, max_bytes: int, max_values: int = MAX_VALUES) -> Any:
    ctype = request.mimetype or ""
    if not (ctype == "application/json" or ctype.endswith("+json")):
        raise Problem(415, f"the body must be application/json, not {ctype or 'missing'}", [
            {"pointer": "/", "detail": "send Content-Type: application/json"}])
    if request.content_length is not None and request.content_length > max_bytes:
        raise _too_large(max_bytes)
    return parse_bytes(_read_limited(request, max_bytes, max_values))


def parse_bytes(raw: bytes) -> Any:
    """A JSON text read strictly (:func:`read_json`'s rules), or a 400 :class:`Problem` saying why."""
    try:
        structure = raw.translate(None, _NOT_STRUCTURE)     # (the brackets, braces, quotes and backslashes)
        containers = structure.count(b"[") + structure.count(b"{")
        if containers > 200_000:
            raise ValueError("too many arrays and objects")
        data = _fast_parse(raw)
        if data is None:
            data = _strict_parse(raw)
        if containers > MAX_DEPTH and not _shallow_structure(structure):   # else it cannot be nested too deep
            _depth(data)
    except RecursionError:
        raise Problem(400, f"the JSON is nested deeper than {MAX_DEPTH} levels") from None
    except UnicodeDecodeError as e:
        raise Problem(400, f"the body is not UTF-8: {e.reason} at byte {e.start}") from None
    except ValueError as e:
        why = str(e)
        if "integer string conversion" in why:
            why = f"an integer has more than {sys.get_int_max_str_digits()} digits"
        raise Problem(400, f"the body is not valid JSON: {why}") from None
    budget.check()      # (the request's CPU budget counts from its start: reading and parsing are in it)
    return data
