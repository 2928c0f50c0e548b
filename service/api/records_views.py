"""Records over HTTP: ``POST /v1/import`` (another app's record as our position or record) and the replay of
a record (``POST /v1/replay`` with ``record``). Thin: read the body, call ``service.records``, answer."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ..engine import budget
from ..engine.legal import action_json
from ..records import FORMATS, read, read_for_replay
from ..records.problems import RecordProblem
from ..records.replay import position_comparison, replay_record
from .body import read_json
from .codec import ENCODE
from .errors import Problem
from .replay import replay_json
from .schemas import pointerize
from .service import invalid
from .seat import import_view_of, read_seat
from .views import ok_text

records = Blueprint("records", __name__)

#: An import body may be as large as a replay body (a log of thousands of lines).
DEFAULT_IMPORT_MAX_BODY = 8 * 1024 * 1024


class ImportRequest(Schema):
    class Meta:
        unknown = RAISE

    format = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(FORMATS))
    record = fields.Raw(required=True)
    seat = fields.Raw(load_default=None, allow_none=True)      # (read by ``seat.read_seat``)


def as_problem(e: RecordProblem) -> Problem:
    return Problem(e.status, e.detail, e.errors, kind=e.kind)


def read_record(rec: Any, fmt: Any) -> dict:
    try:
        return read(rec, fmt)
    except RecordProblem as e:
        raise as_problem(e) from None


@records.post("/v1/import")
def import_view():
    limit = current_app.config.get("REPLAY_MAX_BODY_BYTES", DEFAULT_IMPORT_MAX_BODY)
    data = read_json(request, max(limit, current_app.config["MAX_BODY_BYTES"]))
    try:
        req = ImportRequest().load(data if isinstance(data, dict) else {"": data})
    except ValidationError as e:
        raise invalid(pointerize(e.messages, "")) from None
    seat = read_seat(req)
    got = read_record(req["record"], req["format"])
    cache = current_app.extensions["graph_cache"]
    if got["kind"] == "position":
        cmp = _loaded(lambda: position_comparison(got, cache))
        answer = {"format": got["format"], "kind": "position", "state": cmp["state"], "digest": cmp["digest"],
                  "provenance": got["provenance"], "source": got["source"], "stated": got["stated"],
                  "derived": cmp["derived"], "disagreements": cmp["disagreements"]}
        if seat is not None:    # the seat's view of the position (D-seat-view), its digest and derived values
            answer.update(import_view_of(cmp["state"], cmp["derived"], seat))
    elif seat is not None:
        raise invalid([{"pointer": "/seat", "detail": "an imported record (a log) is the referee's; import it without a "
                                                      "seat and replay it with one"}])
    else:
        answer = {"format": got["format"], "kind": "record", "record": got["record"]}
    return ok_text(ENCODE(answer), 200)


def _loaded(fn):
    """A converted position the service refuses: the record holds what our state cannot (named by the
    pointer into the converted position)."""
    try:
        return fn()
    except Problem as p:
        if p.status != 422:
            raise
        raise Problem(422, f"the record's position cannot be represented: {p.detail}",
                      [dict(e, pointer=f"/converted{e['pointer']}") for e in p.errors], kind="record-unsupported") from None


def replay_record_view(req: dict):
    """``POST /v1/replay`` with ``record``: the ordinary replay answer, and under ``record`` the record's
    verdict: the first illegal action's source (line or index in the record), the derived values the
    record states that differ from ours, and the record with its digests filled in."""
    others = [k for k in ("state", "new_game", "actions") if req.get(k) is not None]
    if others:
        raise invalid([{"pointer": f"/{k}", "detail": "give a record or a state/new_game with actions, not both"}
                       for k in others])
    try:
        got, unread = read_for_replay(req["record"], req.get("format"))
    except RecordProblem as e:
        raise as_problem(e) from None
    if got["kind"] != "record":
        raise invalid([{"pointer": "/record", "detail": "a position save has no actions to replay; import it "
                        "(POST /v1/import) and post its state"}])
    rec = got["record"]
    cache = current_app.extensions["graph_cache"]
    res = replay_record(rec, cache, budget=budget.current())
    if unread is not None and res["first_illegal"] is None:
        raise as_problem(unread)        # legal up to a line we cannot read: nothing after it is judged
    r = res["_replay"]
    if not req["events"]:
        for st in r.steps:
            st.pop("events", None)
    if req["digests"] != "each":
        for st in r.steps:
            st.pop("digest", None)
    answer = replay_json(r, res["_initial"], res["_graph"], action_json, digests=req["digests"],
                         with_derived=req["derived"], total=res["actions"])
    answer["record"] = {"first_illegal": res["first_illegal"], "stated": res["stated"],
                        "disagreements": res["disagreements"], "record": res["record"]}
    if unread is not None:      # the first illegal move comes before the first line the record cannot be read at
        answer["record"]["unread"] = unread.errors[0]
    from .integrity import tag_of
    return ok_text(ENCODE(answer), 200, tag_of(answer["final"]["state"]))
