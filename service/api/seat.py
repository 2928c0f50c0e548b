"""The viewing player (``seat``) of a request: every answer holding a position, derived values or events is
made for the referee, then (with a seat) masked by the secrets the game's modules declare
(``engine/seats.py``, ``docs/seats.md``). Nothing here names a module's concepts.

Decisions (docs/seats.md): D-seat-view (a view is marked ``seat_view`` and is not a position: posted back
it is a 422 naming ``/state/seat_view``; it carries no ``State-Tag``), D-seat-own-actions (with a seat,
the actions judged or listed are that seat's own), D-seat-explain (explanations are the referee's:
refused with a seat).
"""
from __future__ import annotations

import hashlib
from typing import Any, Optional

import orjson

from ..engine.scenarios import scenario_of
from ..engine.seats import VIEW_KEY, view_derived, view_events, view_legal, view_state
from ..engine.spec import MAX_PLAYERS
from ..engine.state import State
from .codec import dump_state

#: The request field (in the body of every request answering a position, derived values, events or a picture).
FIELD = "seat"
DOC = ("The viewing player: the answer holds only what this player may know (docs/seats.md): opponents' cards "
       "as counts, face-down piles and hidden draws masked, events that reveal a hidden card masked for the "
       "others. A position answered to a seat is marked `seat_view` and is not a position the service takes back "
       "(decision D-seat-view). Left out or null: the referee's full view.")


def _invalid(pointer: str, detail: str):
    from .posted_state import invalid
    return invalid([{"pointer": pointer, "detail": detail}])


def read_seat(data: Any, state: Optional[State] = None, pointer: str = "/" + FIELD) -> Optional[int]:
    """The body's seat (None: the referee's view), or a 422 naming it."""
    if not isinstance(data, dict):
        return None
    seat = data.get(FIELD)
    if seat is None:
        return None
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        raise _invalid(pointer, f"a player number 0-{MAX_PLAYERS - 1}, or null for the referee's view")
    if state is not None and seat >= state.num_players:
        raise _invalid(pointer, f"player {seat} does not exist in a {state.num_players}-player game")
    return seat


def refuse_view(raw: Any, pointer: str = "/state") -> None:
    """D-seat-view: a position answered to a seat is not a full position; posted back, it is refused."""
    if type(raw) is dict and VIEW_KEY in raw:
        raise _invalid(f"{pointer}/{VIEW_KEY}", "a seat's view of a position (hidden parts masked) is not a game "
                                                "state; post the referee's full state (asked without a seat)")


def own_action(action: Any, seat: Optional[int], pointer: str = "/action/player") -> None:
    """D-seat-own-actions: with a seat, the action judged is the seat's own (judging another player's would
    tell what that player holds)."""
    if seat is not None and action is not None and action.player != seat:
        raise _invalid(pointer, f"with seat {seat}, only player {seat}'s actions are judged (the verdict on "
                                "another player's would tell what they hold)")


def no_explanations(seat: Optional[int]) -> None:
    """D-seat-explain: explanations reason over the full position."""
    if seat is not None:
        from .errors import Problem
        raise Problem(422, "explanations (explain=true) are the referee's and are not given to a seat",
                      [{"pointer": "/query/explain", "detail": "not with a seat"}])


def secrets_of(state: State) -> tuple:
    return scenario_of(state).composition.secret_specs


def state_view(state: State, seat: int) -> dict[str, Any]:
    return view_state(dump_state(state), secrets_of(state), seat)


def derived_view(state: State, derived: Any, seat: int) -> Any:
    return view_derived(derived, secrets_of(state), seat)


def events_view(state: State, events: Any, seat: int) -> Any:
    return view_events(events, secrets_of(state), seat)


def legal_view(state: State, graph: Any, listed: Any, seat: int) -> Any:
    scen = scenario_of(state)
    return view_legal(listed, scen.composition.secret_specs, seat, state, graph, scen)


def import_view_of(doc: dict[str, Any], derived: Any, seat: int) -> dict[str, Any]:
    """An imported position's ``state``, ``digest`` and ``derived`` as ``seat`` sees them (the position is
    JSON there: its game is found from its scenario, options and players)."""
    from ..engine.scenarios import get_scenario, with_expansions
    players = len(doc.get("players") or [])
    if seat >= players:
        raise _invalid("/" + FIELD, f"player {seat} does not exist in a {players}-player game")
    secrets = with_expansions(get_scenario(doc["scenario"]), doc.get("options") or {}, players).composition.secret_specs
    view = view_state(doc, secrets, seat)
    return {"state": view, "derived": view_derived(derived, secrets, seat),
            "digest": "sha256:" + hashlib.sha256(orjson.dumps(view, option=orjson.OPT_SORT_KEYS)).hexdigest()}


def view_digest(state: State, seat: int) -> str:
    """The digest of a seat's view (as ``replay.state_digest`` of a position: SHA-256 of its JSON with sorted
    keys): a replay for a seat digests what the seat sees, never the full position."""
    return "sha256:" + hashlib.sha256(orjson.dumps(state_view(state, seat), option=orjson.OPT_SORT_KEYS)).hexdigest()


def verdict_view(v: Any, seat: int, posted: State) -> dict[str, Any]:
    """The verdict's JSON for a seat (``service.verdict_json`` masked); ``posted``: the position judged (an
    illegal action's verdict has no new state: its derived values are the posted position's)."""
    from .codec import violation_json
    st = v.state
    return {"legal": v.legal, "violations": [violation_json(x) for x in v.violations],
            "state": state_view(st, seat) if st is not None else None,
            "events": events_view(posted, v.events, seat),
            "derived": derived_view(posted, v.derived, seat),
            "warnings": v.warnings}


__all__ = ["FIELD", "DOC", "read_seat", "refuse_view", "own_action", "no_explanations", "state_view",
           "derived_view", "events_view", "legal_view", "view_digest", "verdict_view"]
