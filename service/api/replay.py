"""Replaying a game log: the verdict of every action in order, a digest of every position.

The state is parsed and checked once; then each action goes straight to the engine (``adjudicate``
without the per-step derived values), so a log of thousands of actions is judged in well under a second.

The digest of a state is the SHA-256 of its canonical JSON (``dump_state`` with sorted keys and no
spaces): two implementations that agree on the canonical form can compare positions step by step.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

import orjson

from ..engine.budget import Budget, BudgetExceeded
from ..engine.core import Action
from ..engine.derive import derive
from ..engine.mapgraph import MapGraph
from ..engine.referee import adjudicate
from ..engine.scenarios import scenario_of
from ..engine.state import State
from .codec import dump_state, violation_json

ON_ILLEGAL = ("stop", "skip")
DIGESTS = ("each", "final", "none")


_BOARD_MARK = "\x00board\x00"
_BOARD_TEXT: dict[tuple, str] = {}


def canonical_json(state: State) -> str:
    """The state's canonical JSON: ``dump_state`` with sorted keys and no whitespace, byte for byte
    ``json.dumps(dump_state(s), sort_keys=True, separators=(",", ":"), ensure_ascii=False)``.

    Written by orjson, whose text is that one for every value a state holds (strings are escaped alike,
    keys sorted by code point) except floats (``1e+16`` against ``1e16``): a state whose free-form
    parts (``scenario_state``, ``options``) hold a float, or anything orjson refuses, is written by the
    standard library (``tests/test_replay.py`` holds the two to the same bytes)."""
    d = dump_state(state)
    if not (_has_float(state.scenario_state) or _has_float(state.options)):
        try:
            return orjson.dumps(d, option=orjson.OPT_SORT_KEYS).decode()
        except TypeError:
            pass
    return _stdlib_canonical(state, d)


# A JSON string as orjson writes it (escapes included), for stripping strings out of its text.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _has_float(v: Any) -> bool:
    """Whether ``v`` (JSON-like data) holds a float, judged in C on its orjson text: a float is always
    written with a ``.`` or an exponent and an integer never is, so once the strings (and ``true``,
    ``false``) are cut out of the text, one of ``.eE`` is left exactly when a float is there. Data
    orjson refuses counts as holding one (the standard library writes it then)."""
    try:
        t = orjson.dumps(v)
    except TypeError:
        return True
    if b"." not in t and b"e" not in t and b"E" not in t:
        return False
    rest = _JSON_STRING.sub(b"", t).replace(b"true", b"").replace(b"false", b"")
    return b"." in rest or b"e" in rest or b"E" in rest


def _stdlib_canonical(state: State, d: dict) -> str:
    """``canonical_json`` by the standard library; the board's text is kept between calls (a replay
    rarely changes the board) and spliced in where a marker stands for it."""
    key = (tuple(state.hexes.items()), tuple(state.harbors.items()))
    board = _BOARD_TEXT.get(key)
    if board is None:
        if len(_BOARD_TEXT) > 64:
            _BOARD_TEXT.clear()
        board = _BOARD_TEXT[key] = json.dumps(d["board"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    d["board"] = _BOARD_MARK
    text = json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace(json.dumps(_BOARD_MARK), board, 1)


def state_digest(state: State) -> str:
    """``sha256:`` + hex digest of the state's canonical JSON (:func:`canonical_json`)."""
    return "sha256:" + hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def _rebase(path: str, index: int) -> str:
    """A violation's pointer into ``/action`` becomes one into ``/actions/<index>``."""
    return f"/actions/{index}{path[len('/action'):]}" if path.startswith("/action") else path


@dataclass
class Replay:
    steps: list[dict[str, Any]] = field(default_factory=list)
    first_illegal: Optional[dict[str, Any]] = None
    skipped: list[int] = field(default_factory=list)
    final: Optional[State] = None
    applied: int = 0
    graph: Optional[MapGraph] = None       # the map graph of the final state (a reveal changes the board)


def replay(state: State, actions: list[Action], graph: MapGraph, *, on_illegal: str = "stop",
           digests: str = "each", events: bool = False, budget: Optional[Budget] = None, start: int = 0,
           digest: Any = None) -> Replay:
    """Judge ``actions`` one after the other from ``state`` (never changed).

    ``on_illegal="stop"`` ends at the first illegal action; ``"skip"`` leaves it out and goes on from the
    same position. Each step records its index, type, player, legality, and (as asked) the digest of
    the position after it and its events. ``budget`` is checked before every step
    (:class:`~service.engine.budget.BudgetExceeded` once it is spent; it carries, as ``partial``, the
    :class:`Replay` of the steps judged before, its ``final`` the position reached). ``start``: the index
    of the first action in the whole log (a part of a log is numbered as in the log). ``digest``: the
    digest of a position (default :func:`state_digest`; a seat's replay digests the seat's view).
    """
    scen = scenario_of(state)
    digest = digest or state_digest
    out = Replay()
    cur = state
    for i, a in enumerate(actions, start):
        if budget is not None:
            try:
                budget.check()
            except BudgetExceeded as e:
                out.final, out.graph = cur, graph
                e.partial = out
                raise
        v = adjudicate(cur, a, graph, scen, with_derived=False)
        step: dict[str, Any] = {"index": i, "type": a.type, "player": a.player, "legal": v.legal}
        if v.legal:
            cur = v.state
            graph = v.graph or graph
            out.applied += 1
            if digests == "each":
                step["digest"] = digest(cur)
            if events:
                step["events"] = v.events
            out.steps.append(step)
            continue
        vs = [violation_json(x, _rebase(x.path, i)) for x in v.violations]
        step["violations"] = vs
        out.steps.append(step)
        if out.first_illegal is None:
            out.first_illegal = {"index": i, "action": a, "violations": vs, "state_before": cur}
        if on_illegal == "stop":
            break
        out.skipped.append(i)
    out.final = cur
    out.graph = graph
    return out


def replay_json(r: Replay, initial: State, graph: MapGraph, action_json, *, digests: str, with_derived: bool,
                total: int) -> dict[str, Any]:
    scen = scenario_of(r.final)
    fi = None
    if r.first_illegal is not None:
        before = r.first_illegal["state_before"]
        fi = {"index": r.first_illegal["index"], "action": action_json(r.first_illegal["action"]),
              "rules": [v["rule"] for v in r.first_illegal["violations"]],
              "violations": r.first_illegal["violations"],
              "digest_before": state_digest(before), "state_before": dump_state(before)}
    final: dict[str, Any] = {"state": dump_state(r.final)}
    if digests != "none":
        final["digest"] = state_digest(r.final)
    if with_derived:
        final["derived"] = derive(r.final, r.graph or graph, scen)
    return {
        "actions": total,
        "judged": len(r.steps),
        "applied": r.applied,
        "all_legal": r.first_illegal is None,
        "skipped": r.skipped,
        "initial_digest": state_digest(initial) if digests != "none" else None,
        "first_illegal": fi,
        "steps": r.steps,
        "final": final,
    }
