"""Many independent requests in one call: ``POST /v1/batch``, NDJSON in and out (docs/batch.md).

Each line of the body is one request, ``{"id": ..., "op": "adjudicate" | "legal-actions" | "derive",
"body": {...}}`` (``body`` as that endpoint takes it; ``explain`` and ``state_tag`` as its query flag and
header). Each line of the answer is one answer, in the order of the requests, streamed as they are made (in
pieces of whole lines, ``STREAM_PIECE`` bytes or more, the last piece at the end):
``{"id", "line", "status": 200, "body": {...}}`` (``state_tag`` too where the endpoint gives a
``State-Tag``), or ``{"id", "line", "status": 4xx, "problem": {...}}`` for a request the endpoint would
refuse: a refused line does not stop the others. The answers are the endpoints' own, byte for byte.

The batch has one CPU budget (``BATCH_BUDGET_SECONDS``, 60 s); when it is spent, the line being worked on
is answered 503 with ``resume_from`` (its line number) and the answer ends there: post the lines from that
one on again. Bounds: ``BATCH_MAX_ITEMS`` lines (1,000), ``BATCH_MAX_BODY_BYTES`` (32 MiB), each line
bounded as a request body (``MAX_BODY_BYTES``, and ``MAX_VALUES`` JSON values: a line beyond is answered
413, the others are answered).
"""
from __future__ import annotations

import os
import time
from typing import Any, Iterator, Optional

from flask import Blueprint, Response, current_app, request, stream_with_context

from ..engine import budget
from .body import MAX_VALUES, READ_CHUNK, _read_limited, _too_large, _too_many_values, _values_in, parse_bytes
from .codec import ENCODE_BYTES
from .errors import PROBLEM_BASE, TITLES, Problem
from .posted_state import BatchState, batch_state_loaded, batch_states

batch = Blueprint("batch", __name__)

NDJSON = ("application/x-ndjson", "application/jsonl", "application/ndjson")
OPS = ("adjudicate", "legal-actions", "derive")
DEFAULT_MAX_ITEMS = 1000
DEFAULT_MAX_BODY = 32 * 1024 * 1024
DEFAULT_BUDGET = 60.0
MAX_ID = 100
#: the answer is sent in pieces of at least this many bytes (each piece whole lines), as they are made
STREAM_PIECE = 64 * 1024


def _setting(name: str, default: float) -> float:
    return float(current_app.config.get(name, os.environ.get(name, default)))


def _problem_json(p: Problem) -> dict[str, Any]:
    out: dict[str, Any] = {"type": PROBLEM_BASE + p.kind, "title": TITLES.get(p.status, "Error"),
                           "status": p.status, "detail": p.detail}
    if p.errors:
        out["errors"] = p.errors
    return out


def _item(raw: bytes, n: int, max_line: int) -> tuple[Any, str, Any, bool, Optional[str]]:
    """A line: (id, op, body, explain, state_tag), or a :class:`Problem` naming its field."""
    if len(raw) > max_line:
        raise _too_large(max_line)
    if len(raw) > READ_CHUNK and _values_in(raw) >= MAX_VALUES:    # (as a request body: 64 KB hold fewer)
        raise _too_many_values(MAX_VALUES)
    return _known_state_item(raw) or _fields(parse_bytes(raw))


_STATE_KEY = b'"state":'
#: where a body's state value may end: before the next key a body has, or at the end of body and line
_STATE_ENDS = (b',"action":', b',"player":')


def _known_state_item(raw: bytes) -> Optional[tuple[Any, str, Any, bool, Optional[str]]]:
    """The line as :func:`_item` reads it when its body's state is, byte for byte, the JSON text of a state
    loaded earlier in this batch (a position posted with many actions): only the rest of the line is parsed,
    the state's text replaced by ``0``, and the body's state is that loaded state (:class:`BatchState`).
    None when it is not so (the whole line is then parsed as any other).

    The text is taken after the line's only ``"state":`` key (a key's quotes cannot occur inside a string)
    up to the body's next key or its end; it must be a text the batch loaded a state from (orjson's text of
    a value that passed every check, so the value parsed again would be that one), and the rest, parsed as
    strictly as a line, must hold the ``0`` as its body's state."""
    start = raw.find(_STATE_KEY)
    if start < 0:
        return None
    start += len(_STATE_KEY)
    line = raw.rstrip()
    ends = [raw.rfind(e) for e in _STATE_ENDS]
    if line.endswith(b"}}"):
        ends.append(len(line) - 2)
    for end in ends:
        if end <= start:
            continue
        loaded = batch_state_loaded(raw[start:end])
        if loaded is None:
            continue
        rest = raw[:start] + b"0" + raw[end:]
        if rest.count(_STATE_KEY) != 1:
            return None
        try:
            item = _fields(parse_bytes(rest))
        except Problem:         # (the whole line is read again, and its problem named from it)
            return None
        body = item[2]
        if type(body) is not dict or type(body.get("state")) is not int or body["state"] != 0:
            return None
        body["state"] = BatchState(loaded)
        return item
    return None


def _fields(data: Any) -> tuple[Any, str, Any, bool, Optional[str]]:
    """A parsed line's fields: (id, op, body, explain, state_tag), or a :class:`Problem` naming one."""
    if not isinstance(data, dict):
        raise Problem(422, "a batch line is an object {id, op, body}", [{"pointer": "/", "detail": "must be an object"}])
    extra = sorted(set(data) - {"id", "op", "body", "explain", "state_tag"})
    if extra:
        raise Problem(422, f"unknown field {extra[0]!r} in a batch line",
                      [{"pointer": f"/{k}", "detail": "unknown field"} for k in extra])
    id_ = data.get("id")
    if not ((type(id_) is str and 0 < len(id_) <= MAX_ID) or (type(id_) is int and abs(id_) <= 2 ** 53)):
        raise Problem(422, "a batch line's id is a string of 1-100 characters or an integer",
                      [{"pointer": "/id", "detail": "missing, or not a string of 1-100 characters or an integer"}])
    op = data.get("op")
    if op not in OPS:
        raise Problem(422, f"a batch line's op is one of {', '.join(OPS)}",
                      [{"pointer": "/op", "detail": f"must be one of {', '.join(OPS)}"}])
    if "body" not in data:
        raise Problem(422, "a batch line has a body", [{"pointer": "/body", "detail": "missing: the request body"}])
    explain = data.get("explain", False)
    if type(explain) is not bool or (explain and op == "legal-actions"):
        raise Problem(422, "explain is true or false, for adjudicate and derive",
                      [{"pointer": "/explain", "detail": "must be true or false (adjudicate, derive)"}])
    tag = data.get("state_tag")
    if tag is not None and (type(tag) is not str or len(tag) > 200):
        raise Problem(422, "state_tag is a State-Tag", [{"pointer": "/state_tag", "detail": "must be a string"}])
    return id_, op, data["body"], explain, tag


def _run(op: str, body: Any, explain: bool, tag: Optional[str]) -> tuple[bytes, Optional[str]]:
    from .tools import legal_answer
    from .views import adjudicate_answer, derive_answer
    if op == "adjudicate":
        return adjudicate_answer(body, explain, tag)
    if op == "derive":
        return derive_answer(body, explain, tag), None
    return legal_answer(body, tag), None


def _line(id_: Any, n: int, status: int, key: str, value: bytes, tag: Optional[str] = None) -> bytes:
    head = b'{"id":' + ENCODE_BYTES(id_) + b',"line":' + str(n).encode() + b',"status":' + str(status).encode()
    if tag is not None:
        head += b',"state_tag":' + ENCODE_BYTES(tag)
    return head + b',"' + key.encode() + b'":' + value + b"}\n"


@batch.post("/v1/batch")
def batch_view():
    ctype = request.mimetype or ""
    if ctype not in NDJSON:
        raise Problem(415, f"the body must be application/x-ndjson (one JSON request a line), not {ctype or 'missing'}",
                      [{"pointer": "/", "detail": "send Content-Type: application/x-ndjson"}])
    max_body = int(_setting("BATCH_MAX_BODY_BYTES", DEFAULT_MAX_BODY))
    if request.content_length is not None and request.content_length > max_body:
        raise _too_large(max_body)
    # (JSON values are bounded per line, as for a request body, when the line is parsed: the batch is held
    # as bytes and parsed a line at a time)
    lines = [ln for ln in _read_limited(request, max_body, max_values=max_body + 1).split(b"\n") if ln.strip()]
    most = int(_setting("BATCH_MAX_ITEMS", DEFAULT_MAX_ITEMS))
    if not lines:
        raise Problem(422, "the batch has no lines", [{"pointer": "/", "detail": "one JSON request a line"}])
    if len(lines) > most:
        raise Problem(422, f"a batch has at most {most} lines, not {len(lines)}",
                      [{"pointer": "/", "detail": f"at most {most} lines (BATCH_MAX_ITEMS)"}])
    seconds = _setting("BATCH_BUDGET_SECONDS", DEFAULT_BUDGET)
    max_line = int(current_app.config["MAX_BODY_BYTES"])

    def answers() -> Iterator[bytes]:
        spent = budget.Budget(seconds, time.thread_time) if seconds > 0 else None
        budget.install(spent)
        batch_states(True)      # the same state in many lines is loaded and checked once
        out: list[bytes] = []       # answers not sent yet: sent in pieces of about STREAM_PIECE bytes
        size = 0
        try:
            for n, raw in enumerate(lines):
                id_ = None
                try:
                    if spent is not None:
                        spent.check()
                    id_, op, body, explain, tag = _item(raw, n, max_line)
                    answer, new_tag = _run(op, body, explain, tag)
                    out.append(_line(id_, n, 200, "body", answer, new_tag))
                except Problem as p:
                    out.append(_line(id_, n, p.status, "problem", ENCODE_BYTES(_problem_json(p))))
                except budget.BudgetExceeded as e:
                    p = Problem(503, f"the batch used its {e.seconds:g} s of CPU at line {n}; post the lines from "
                                     f"line {n} on again", kind="budget-exceeded")
                    out.append(_line(id_, n, 503, "problem", ENCODE_BYTES({**_problem_json(p), "resume_from": n})))
                    break
                size += len(out[-1])
                if size >= STREAM_PIECE:
                    yield b"".join(out)
                    out.clear()
                    size = 0
            if out:
                yield b"".join(out)
        finally:
            budget.install(None)
            batch_states(False)

    return Response(stream_with_context(answers()), status=200, content_type="application/x-ndjson")
