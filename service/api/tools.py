"""Referee tools over the same request path: replay a log, list legal actions, draw the board, the viewer.

Views stay thin: read the body, load it, call the engine (``legal.py``) or the replay loop
(``replay.py``) or the renderer, answer.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Optional

from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ..engine import budget
from ..engine.legal import action_json, legal_actions
from ..engine.scenarios import scenario_of
from ..engine.spec import MAX_PLAYERS
from .body import REPLAY_MAX_VALUES, read_json
from .codec import ENCODE, ENCODE_BYTES, dump_state
from .errors import PROBLEM_BASE, Problem
from .replay import DIGESTS, ON_ILLEGAL, Replay, replay, replay_json
from .fields import BoundedList, StrictBool, StrictNumber
from .schemas import NewGameSchema, StrictInt, pointerize
from .posted_state import invalid, parse_state
from .service import parse_action, started
from .integrity import tag_of
from ..engine.seats import picture_state
from .seat import derived_view, events_view, legal_view, own_action, read_seat, state_view, view_digest
from .views import flag, ok_text, posted_tag

tools = Blueprint("tools", __name__)

STATIC = Path(__file__).resolve().parent / "static"
#: Replay bodies may be larger than other requests (a log of thousands of actions).
DEFAULT_REPLAY_MAX_BODY = 8 * 1024 * 1024
MAX_REPLAY_ACTIONS = 20_000


def ok(body: Any) -> Response:
    return Response(ENCODE(body), status=200, mimetype="application/json")


def load(schema: Schema, data: Any) -> dict:
    try:
        return schema.load(data)
    except ValidationError as e:
        raise invalid(pointerize(e.messages, "")) from None


class ReplayRequest(Schema):
    class Meta:
        unknown = RAISE

    state = fields.Raw(load_default=None, allow_none=True)
    new_game = fields.Nested(NewGameSchema, load_default=None, allow_none=True)
    actions = BoundedList(fields.Raw(), load_default=None, max_length=MAX_REPLAY_ACTIONS)   # (length first)
    record = fields.Raw(load_default=None, allow_none=True)     # a game record instead (records_views)
    format = fields.String(load_default=None, allow_none=True)
    on_illegal = fields.String(load_default="stop", validate=validate.OneOf(ON_ILLEGAL))
    digests = fields.String(load_default="each", validate=validate.OneOf(DIGESTS))
    events = StrictBool(load_default=False)
    derived = StrictBool(load_default=True)
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))


def start_state(req: dict):
    """The replay's first position: the posted state, or a new game of a scenario."""
    cache = current_app.extensions["graph_cache"]
    if (req["state"] is None) == (req["new_game"] is None):
        raise invalid([{"pointer": "/state", "detail": "give exactly one of state or new_game"}])
    if req["state"] is not None:
        return parse_state(req["state"], cache, tag=posted_tag())
    state = started(req["new_game"], "/new_game")
    return state, cache.get(state.terrain_map())


@tools.post("/v1/replay")
def replay_view():
    streaming = flag("stream")
    limit = current_app.config.get("REPLAY_MAX_BODY_BYTES", DEFAULT_REPLAY_MAX_BODY)
    req = load(ReplayRequest(), read_json(request, max(limit, current_app.config["MAX_BODY_BYTES"]), REPLAY_MAX_VALUES))
    if req["record"] is not None or req["format"] is not None:
        if req["seat"] is not None:
            raise invalid([{"pointer": "/seat", "detail": "a record's replay is the referee's (no seat); replay its "
                                                          "actions with a state or new_game for a seat"}])
        from .records_views import replay_record_view
        return replay_record_view(req)
    if req["actions"] is None:
        raise invalid([{"pointer": "/actions", "detail": "Missing data for required field."}])
    state, graph = start_state(req)
    seat = read_seat(req, state)
    actions = [parse_action(raw, state, f"/actions/{i}") for i, raw in enumerate(req["actions"])]
    if streaming:
        return Response(stream_with_context(replay_stream(state, graph, actions, req, budget.current())),
                        status=200, content_type="application/x-ndjson")
    r = replay(state, actions, graph, on_illegal=req["on_illegal"], digests=req["digests"], events=req["events"],
               budget=budget.current(), digest=_digest_for(seat))
    answer = replay_json(r, state, graph, action_json, digests=req["digests"], with_derived=req["derived"],
                         total=len(actions))
    if seat is not None:    # the seat's view of every position, digest and event: no tag (D-seat-view)
        return ok_text(ENCODE(seat_replay_answer(answer, r, state, seat)), 200)
    return ok_text(ENCODE(answer), 200, tag_of(answer["final"]["state"]))     # the final position, tagged


def _digest_for(seat: Optional[int]):
    return None if seat is None else (lambda s: view_digest(s, seat))


def _steps_view(steps: list, state, seat: int) -> list:
    return [{**st, "events": events_view(state, st["events"], seat)} if "events" in st else st for st in steps]


def seat_replay_answer(answer: dict[str, Any], r: Replay, initial, seat: int) -> dict[str, Any]:
    """A replay's answer (``replay_json``) as ``seat`` sees it: each position its view, each digest the
    digest of the view, events masked."""
    out = dict(answer)
    if out.get("initial_digest") is not None:
        out["initial_digest"] = view_digest(initial, seat)
    if out.get("first_illegal") is not None:
        before = r.first_illegal["state_before"]
        out["first_illegal"] = {**out["first_illegal"], "digest_before": view_digest(before, seat),
                                "state_before": state_view(before, seat)}
    if "steps" in out:
        out["steps"] = _steps_view(out["steps"], initial, seat)
    final = dict(out["final"])
    final["state"] = state_view(r.final, seat)
    if "digest" in final:
        final["digest"] = view_digest(r.final, seat)
    if "derived" in final:
        final["derived"] = derived_view(r.final, final["derived"], seat)
    out["final"] = final
    return out


#: Actions judged between two lines of a streamed replay's progress.
STREAM_PART = 64


def replay_stream(state, graph, actions: list, req: dict, spent) -> Iterator[bytes]:
    """``POST /v1/replay?stream=true``: the replay's steps as NDJSON, one line each as they are judged
    (``{"step": {...}}``, as in ``steps``), then the summary (the answer without ``steps``,
    ``{"summary": {...}}``). When the request's CPU budget is spent, the last line is
    ``{"status": 503, "problem": {...}, "resume": {"next_action", "state", "state_tag"}}``: post ``state``
    (with its tag) and the actions from ``next_action`` on to go on from there."""
    total, cur, g = len(actions), state, graph
    seat = req.get("seat")
    done = Replay()
    i = 0
    while i < total:
        part = actions[i:i + STREAM_PART]
        exceeded = None
        try:
            r = replay(cur, part, g, on_illegal=req["on_illegal"], digests=req["digests"], events=req["events"],
                       budget=spent, start=i, digest=_digest_for(seat))
        except budget.BudgetExceeded as e:
            r, exceeded = e.partial, e
        for step in (r.steps if seat is None else _steps_view(r.steps, state, seat)):
            yield b'{"step":' + ENCODE_BYTES(step) + b"}\n"
        done.steps.extend(r.steps)
        done.applied += r.applied
        done.skipped.extend(r.skipped)
        if done.first_illegal is None:
            done.first_illegal = r.first_illegal
        cur, g = r.final, r.graph or g
        if exceeded is not None:
            nxt = r.steps[-1]["index"] + 1 if r.steps else i
            if seat is not None:    # a seat's view cannot be posted back (D-seat-view): no position to resume from
                yield ENCODE_BYTES({"status": 503, "problem": {
                    "type": PROBLEM_BASE + "budget-exceeded", "title": "Over the cost budget", "status": 503,
                    "detail": f"the replay used its {exceeded.seconds:g} s of CPU after {nxt} of {total} actions; a "
                              "seat's replay gives no position to resume from (its views are not positions): replay "
                              "without a seat to resume, or post fewer actions"},
                    "resume": {"next_action": nxt}}) + b"\n"
                return
            resumed = dump_state(cur)
            yield ENCODE_BYTES({"status": 503, "problem": {
                "type": PROBLEM_BASE + "budget-exceeded", "title": "Over the cost budget", "status": 503,
                "detail": f"the replay used its {exceeded.seconds:g} s of CPU after {nxt} of {total} actions; post "
                          "resume.state (with resume.state_tag as State-Tag) and the actions from "
                          "resume.next_action on to go on"},
                "resume": {"next_action": nxt, "state": resumed, "state_tag": tag_of(resumed)}}) + b"\n"
            return
        if r.first_illegal is not None and req["on_illegal"] == "stop":
            break
        i += len(part)
    done.final, done.graph = cur, g
    summary = replay_json(done, state, graph, action_json, digests=req["digests"], with_derived=req["derived"],
                          total=total)
    if seat is not None:
        summary = seat_replay_answer({**summary, "steps": []}, done, state, seat)
    del summary["steps"]
    yield ENCODE_BYTES({"summary": summary}) + b"\n"


class LegalRequest(Schema):
    class Meta:
        unknown = RAISE

    state = fields.Raw(required=True)
    player = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))


@tools.post("/v1/legal-actions")
def legal_actions_view():
    return ok_text(legal_answer(read_json(request, current_app.config["MAX_BODY_BYTES"]), posted_tag()))


def legal_answer(data: Any, tag: Optional[str] = None) -> bytes:
    """The answer of ``POST /v1/legal-actions`` to the body ``data``: also one line's of a batch."""
    req = load(LegalRequest(), data)
    state, graph = parse_state(req["state"], current_app.extensions["graph_cache"], tag=tag)
    if req["player"] is not None and req["player"] >= state.num_players:
        raise invalid([{"pointer": "/player",
                        "detail": f"player {req['player']} does not exist in a {state.num_players}-player game"}])
    seat = read_seat(req, state)
    if seat is not None and req["player"] not in (None, seat):   # D-seat-own-actions
        raise invalid([{"pointer": "/player", "detail": f"with seat {seat}, only player {seat}'s legal actions are "
                                                        "listed (another's would tell what they hold)"}])
    la = legal_actions(state, graph, scenario_of(state), req["player"] if seat is None else seat)
    if seat is not None:    # what follows from another's hand masked: the same list whatever the seat cannot see
        return ENCODE_BYTES({"phase": state.phase, "current_player": state.current_player,
                             **legal_view(state, graph, la.to_json(), seat)})
    return ENCODE_BYTES({"phase": state.phase, "current_player": state.current_player, **la.to_json()})


#: The deepest count a request may ask for (the work is checked against the budget before it starts too).
MAX_PERFT_DEPTH = 16
#: The share of the budget left that an estimated count may take (the estimate is a sample's).
PERFT_BUDGET_SHARE = 0.5


class PerftRequest(Schema):
    class Meta:
        unknown = RAISE

    state = fields.Raw(required=True)
    depth = StrictInt(required=True, validate=validate.Range(0, MAX_PERFT_DEPTH))
    divide = StrictBool(load_default=False)


@tools.post("/v1/perft")
def perft_view():
    """The number of legal action sequences of ``depth`` from a position (``engine/perft.py``,
    ``docs/perft.md``), with ``divide`` split by first action; the work estimated before it starts."""
    from ..engine import perft as pf
    req = load(PerftRequest(), read_json(request, current_app.config["MAX_BODY_BYTES"]))
    state, graph = parse_state(req["state"], current_app.extensions["graph_cache"], tag=posted_tag())
    scen, depth = scenario_of(state), req["depth"]
    b = budget.current()
    try:
        if b is not None and depth > 1:
            room = (b.deadline - b.clock()) * PERFT_BUDGET_SHARE
            est = pf.estimate(state, graph, scen, depth, b.clock)
            if est.seconds[-1] > room:
                fits = est.deepest_within(room)
                raise invalid([{"pointer": "/depth", "detail":
                                f"a count of depth {depth} from this position would make about "
                                f"{est.lists[-1]:,.0f} legal-action lists ({est.seconds[-1]:,.1f} s of CPU), over "
                                f"the {b.seconds:g} s budget of a request; the largest depth that fits is {fits}"}],
                              "the perft request")
        r = pf.perft(state, graph, scen, depth, divide=req["divide"], tick=budget.check)
    except pf.Uncountable as e:
        raise invalid([{"pointer": e.where, "detail": str(e)}], "the perft request") from None
    body: dict[str, Any] = {"depth": r.depth, "count": r.count, "player": _first_to_act(state),
                            "work": {"lists": r.work.lists, "applies": r.work.applies,
                                     "transpositions": r.work.transpositions}}
    if r.divide is not None:
        body["divide"] = r.divide
    return ok(body)


def _first_to_act(state) -> int:
    from ..engine.legal import players_to_act
    to_act = players_to_act(state)
    return to_act[0] if to_act else state.current_player


class Highlight(Schema):
    class Meta:
        unknown = RAISE

    route_of = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))


class RenderRequest(Schema):
    class Meta:
        unknown = RAISE

    state = fields.Raw(required=True)
    action = fields.Raw(load_default=None, allow_none=True)
    highlight = fields.Nested(Highlight, load_default=None, allow_none=True)
    format = fields.String(load_default="svg", validate=validate.OneOf(("svg", "png")))
    size = StrictNumber(load_default=None, allow_none=True, validate=validate.Range(8, 80))
    coords = StrictBool(load_default=False)
    frame = StrictBool(load_default=True)
    verdict = StrictBool(load_default=False)
    seat = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))


def _kind(v: Any) -> str:
    if isinstance(v, tuple) and len(v) == 2:
        return "hexes"
    if isinstance(v, tuple) and len(v) == 3:
        return "nodes" if v[2] in ("N", "S") else "edges"
    return ""


def violation_marks(action, violations) -> dict[str, list]:
    """Where each violation lies on the board: the coordinate its pointer names in the action (e.g.
    ``/action/from`` of a ship move: that end only), or the coordinates of the part of the action it names
    (``/action/pieces/1/kind``: that piece's edge). A violation about the action as a whole (``/action``,
    ``/action/player``, ``/action/type``: turn order, one ship move a turn, a cost) marks nothing."""
    marks: dict[str, list] = {"hexes": [], "nodes": [], "edges": []}

    def add(v: Any) -> None:
        k = _kind(v)
        if k and list(v) not in marks[k]:
            marks[k].append(list(v))

    def every(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                every(x)
        elif isinstance(v, list):
            for x in v:
                every(x)
        else:
            add(v)

    for vi in violations:
        parts = vi.path.split("/")[2:] if vi.path.startswith("/action/") else []
        node: Any = action.params
        for part in parts:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                node = None
                break
        if node is not None and parts and _kind(node):
            add(node)
        elif len(parts) >= 2:              # a field of one part of the action: that part's coordinates
            part: Any = action.params
            for p in parts[:-1]:
                part = (part.get(p) if isinstance(part, dict) else
                        part[int(p)] if isinstance(part, list) and p.isdigit() and int(p) < len(part) else None)
            if part is not None:
                every(part)
    return marks


def proposal_of(action, legal: bool) -> dict[str, Any]:
    """What a proposed action names on the board, for the picture: the piece it puts there when its type
    ends in a piece the renderer draws (``build_road``, ``move_ship``...), and the places it names, less
    where a move comes ``from``."""
    from ..render.svg import PIECE_KINDS
    last = action.type.rsplit("_", 1)[-1]
    places: dict[str, Any] = {"legal": legal, "kind": last if last in PIECE_KINDS else None, "player": action.player,
                              "hexes": [], "nodes": [], "edges": []}

    def every(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                every(x)
        elif isinstance(v, list) and not _kind(v):
            for x in v:
                every(x)
        elif _kind(v) and list(v) not in places[_kind(v)]:
            places[_kind(v)].append(list(v))

    every({k: v for k, v in action.params.items() if k != "from"})
    return places


def verdict_lines(action, verdict) -> tuple[bool, list[str]]:
    """The verdict in words for the picture: the action, then each rule broken with its title."""
    from .. import rules as catalogue
    what = f"{action.type} by player {action.player}"
    if verdict.legal:
        return True, [f"Legal: {what}"]
    lines = [f"Illegal: {what}"]
    for v in verdict.violations[:6]:
        entry = catalogue.rule(v.rule) or {}
        lines.append(f"{v.rule} {entry.get('title', '')}: {v.message}"[:300])
    return False, lines


def png_of(svg: str) -> bytes:
    """PNG bytes of an SVG picture (cairosvg, which needs the cairo library), or a 501 saying why not."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:
        raise Problem(501, f"PNG output is not available on this server ({e}); ask for format svg",
                      kind="not-implemented") from None
    from ..render.cache import mark_drawn
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    mark_drawn()
    return png


@tools.post("/v1/render")
def render_view():
    """A picture of a posted state, optionally with a route witness and where a proposed action breaks a rule."""
    from ..engine.derive import route_lengths
    from ..render.svg import state_svg
    req = load(RenderRequest(), read_json(request, current_app.config["MAX_BODY_BYTES"]))
    fmt = request.args.get("format", req["format"])
    if fmt not in ("svg", "png"):
        raise invalid([{"pointer": "/format", "detail": "must be svg or png"}])
    state, graph = parse_state(req["state"], current_app.extensions["graph_cache"], tag=posted_tag())
    # a seat: the picture shows nothing hidden (the layers draw what the table sees, the board is drawn from
    # ``picture_state``; tests/test_seats.py holds it unchanged by the hidden parts), and a proposed action is
    # the seat's own (D-seat-own-actions)
    seat = read_seat(req, state)
    scen = scenario_of(state)
    options: dict[str, Any] = {"size": req["size"], "show_coords": req["coords"], "show_frame": req["frame"],
                               "layers": scen.board_layers(state, graph)}
    headers: dict[str, str] = {}
    hl = req["highlight"] or {}
    if hl.get("route_of") is not None:
        p = hl["route_of"]
        if p >= state.num_players:
            raise invalid([{"pointer": "/highlight/route_of", "detail": f"player {p} does not exist"}])
        length, path = route_lengths(state, graph, scen)[p]
        options["route"] = path
        headers["X-Route-Length"] = str(length)
    if req["action"] is not None:
        from .service import judge
        action = parse_action(req["action"], state)
        own_action(action, seat)
        verdict = judge(state, action, graph)
        headers["X-Legal"] = "true" if verdict.legal else "false"
        options["proposal"] = proposal_of(action, verdict.legal)
        options["proposal"]["rules"] = [v.rule for v in verdict.violations]
        if req["verdict"]:
            options["caption"] = verdict_lines(action, verdict)
        if not verdict.legal:
            options["marks"] = violation_marks(action, verdict.violations)
            headers["X-Violations"] = ",".join(v.rule for v in verdict.violations)
    if seat is not None:    # drawn from what the board shows the seat (a face-down token's number left out)
        state = picture_state(state, scen.composition.secret_specs, seat)
    svg = state_svg(state, **options)
    if fmt == "png":
        return Response(render_png(svg, req["size"]), mimetype="image/png", headers=headers)
    return Response(svg, mimetype="image/svg+xml", headers=headers)


def render_png(svg: str, size: Optional[float]) -> bytes:
    """The PNG of ``svg``: from the picture cache when the same picture was drawn before; else, within
    the area and time limits (``service/render/cache.py``; a 422 naming ``/size`` with the largest size
    that fits when over), drawn and kept."""
    from ..render import cache as pictures
    key = pictures.key_of(svg, "png")
    hit = pictures.get(key)
    if hit is not None:
        return hit
    w, h = pictures.svg_size(svg)
    shown = "the size asked" if size is None else f"size {size:g}"
    if w * h > pictures.MAX_AREA:
        fits = "" if size is None else f"; at most size {pictures.size_that_fits(size, w * h, pictures.MAX_AREA)}"
        raise invalid([{"pointer": "/size", "detail":
                        f"a PNG of this board at {shown} would be {w} x {h} pixels, over the "
                        f"{pictures.MAX_AREA:,} pixels a picture may have{fits} (or ask for format svg)"}],
                      "the render request")
    _pixels, shapes, seconds = pictures.picture_seconds(svg)
    if seconds > pictures.PNG_BUDGET_SECONDS:
        fits = ""
        if size is not None:     # (labels shrink with the size too: the size named is on the safe side)
            fixed = shapes / 1000 * pictures.PNG_SECONDS_PER_KILOSHAPE + pictures.text_seconds(svg)
            room = (pictures.PNG_BUDGET_SECONDS - fixed) / pictures.PNG_SECONDS_PER_MEGAPIXEL * 1e6
            fits = f"; at most size {pictures.size_that_fits(size, w * h, max(1, int(room)))}"
        raise invalid([{"pointer": "/size", "detail":
                        f"a PNG of this board at {shown} would take longer to draw than the "
                        f"{pictures.PNG_BUDGET_SECONDS:g} s a picture may take{fits} (or ask for format svg)"}],
                      "the render request")
    if not pictures.drawn_once():     # the library's first load: once per process, not the picture's
        png_of(pictures.WARM_UP)
    spent = budget.current()
    if spent is not None and spent.clock() + seconds > spent.deadline:
        # the drawing cannot be stopped once started: the request's CPU budget must hold all of it
        raise budget.BudgetExceeded(spent.seconds)
    png = png_of(svg)
    pictures.put(key, png)
    return png


@tools.get("/")
def viewer():
    """The viewer page for tabletop referees (plain HTML and a little JavaScript)."""
    return Response((STATIC / "viewer.html").read_text(encoding="utf-8"), mimetype="text/html")


def unknown_field(data: Any, allowed: set[str]) -> None:
    if not isinstance(data, dict):
        raise invalid([{"pointer": "/", "detail": "must be an object"}])
    extra = sorted(set(data) - allowed)
    if extra:
        raise invalid([{"pointer": f"/{k}", "detail": "unknown field"} for k in extra])


__all__ = ["tools", "Problem"]
