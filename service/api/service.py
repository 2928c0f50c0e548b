"""The request path behind the views, after the state is loaded (:mod:`.posted_state`, the one way from
a posted body to a checked state): the action, the judging, the verdict's bytes and tag.

Each step is its own function so benchmarks can time them apart.
"""
from __future__ import annotations

import json
import secrets
from typing import Any, Optional

from marshmallow import ValidationError

from ..engine.core import Action
from ..engine.mapgraph import MapGraph
from ..engine.referee import UnsupportedAction, Verdict, adjudicate
from ..engine.scenarios import GameRefused, scenario_of, start_game
from ..engine.state import State
from ..engine.warnings import position_warnings
from .codec import ENCODE_BYTES, board_bytes, board_canonical, dump_board, dump_state, violation_json
from .errors import Problem
from .integrity import tag_of
# the posted state's path, by the names the views, tools and tests have always imported from here
from .posted_state import (_BATCH_STATES, _LOAD_STATE, _RECOGNISED, MAX_ERRORS, NULL_ABSENT,  # noqa: F401
                           BatchState, batch_state_loaded, batch_states, drop_absent_nulls, invalid,
                           not_in_this_game, parse_state, parse_state_where, split_player_extras)
from .schemas import load_action, pointerize


def warnings_of(state: State, graph: MapGraph, where: Any) -> list[dict[str, str]]:
    """``position_warnings`` of a posted state; a recognised state's, or one a batch posts again, are kept
    with it (they depend on nothing else)."""
    kept = getattr(where, "warnings", None)
    if kept is not None:
        return list(kept)
    out = position_warnings(state, graph, scenario_of(state), where)
    if getattr(where, "recognised", False) or _BATCH_STATES.get() is not None:
        where.warnings = tuple(out)
    return out


def started(req: dict[str, Any], prefix: str, draw: bool = False) -> State:
    """A new game from a loaded :class:`~.schemas.NewGameSchema` (``scenarios.start_game``), or a 422.

    Without a seed: ``draw`` (``POST /v1/games``) draws one, below 2^53 so that every client reads it
    exactly, and the state reports it (``rng.seed``); else (a replay's new game, a record that must give
    the same game each time) it is 0."""
    seed = req["seed"]
    if seed is None:
        seed = secrets.randbelow(2 ** 53) if draw else 0
    try:
        return start_game(req["scenario"], req["players"], seed, req["options"])
    except GameRefused as e:
        raise invalid([{"pointer": f"{prefix}/{k}", "detail": why} for k, why in e.problems]) from None


def parse_action(raw: Any, state: State, prefix: str = "/action") -> Action:
    try:
        action = load_action(raw, scenario_of(state))
    except ValidationError as e:
        raise invalid(pointerize(e.messages, prefix), "the action") from None
    if action.player >= state.num_players:
        raise invalid([{"pointer": f"{prefix}/player",
                        "detail": f"player {action.player} does not exist in a {state.num_players}-player game"}],
                      "the action")
    for key in ("steal_from", "partner"):
        v = action.get(key)
        if v is not None and v >= state.num_players:
            raise invalid([{"pointer": f"{prefix}/{key}", "detail": f"player {v} does not exist"}], "the action")
    return action


def judge(state: State, action: Optional[Action], graph: MapGraph) -> Verdict:
    scen = scenario_of(state)
    if action is None:
        from ..engine.derive import derive
        return Verdict(True, [], state, [], derive(state, graph, scen))
    try:
        return adjudicate(state, action, graph, scen)
    except UnsupportedAction as e:
        raise invalid([{"pointer": "/action/type", "detail": str(e)}]) from None


def verdict_json(v: Verdict, board: Any = None) -> dict[str, Any]:
    return {
        "legal": v.legal,
        "violations": [violation_json(x) for x in v.violations],
        "state": dump_state(v.state, board) if v.state is not None else None,
        "events": v.events,
        "derived": v.derived,
        "warnings": v.warnings,
    }


_BOARD_MARK = "\x00board\x00"
_MARK_BYTES = json.dumps(_BOARD_MARK).encode()


def verdict_text(v: Verdict, extra: Optional[dict[str, Any]] = None) -> str:
    """The JSON text of ``verdict_json(v)`` (and ``extra``'s keys after it), without spaces.

    The state's board is spliced in as text kept between calls (:func:`codec.board_bytes`) where a marker
    stands for it; should a string of the request spell the marker too, the board is encoded in place."""
    return verdict_text_tagged(v, extra, False)[0]


def verdict_text_tagged(v: Verdict, extra: Optional[dict[str, Any]] = None, tagged: bool = True
                        ) -> tuple[str, Optional[str]]:
    """:func:`verdict_text` and the ``State-Tag`` of the verdict's state (None without a state)."""
    body, tag = verdict_body_tagged(v, extra, tagged)
    return body.decode(), tag


def verdict_body_tagged(v: Verdict, extra: Optional[dict[str, Any]] = None, tagged: bool = True
                        ) -> tuple[bytes, Optional[str]]:
    """:func:`verdict_text_tagged` with the text as the UTF-8 bytes an answer sends (never decoded)."""
    out = verdict_json(v, _BOARD_MARK)
    tag = None
    if tagged and v.state is not None:
        try:
            tag = tag_of(out["state"], board_canonical(v.state))
        except TypeError:   # a value only the standard library writes (see ``ENCODE``): left untagged
            tag = None
    if extra:
        out.update(extra)
    body = ENCODE_BYTES(out)
    if v.state is None:
        return body, tag
    if body.count(_MARK_BYTES) == 1:
        return body.replace(_MARK_BYTES, board_bytes(v.state), 1), tag
    out["state"]["board"] = dump_board(v.state)
    return ENCODE_BYTES(out), tag
