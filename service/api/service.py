"""The request path behind the views: parse and validate, derive the graph, judge, serialise.

Each step is its own function so benchmarks can time them apart.
"""
from __future__ import annotations

import json
import secrets
import weakref
from contextvars import ContextVar
from typing import Any, Optional

import orjson

from marshmallow import ValidationError

from ..cache import GraphCache
from ..engine.consistency import check_state, declared_problems
from ..engine.core import Action
from ..engine.mapgraph import MapGraph
from ..engine import memo
from ..engine.memo import bounded_put
from ..engine.referee import UnsupportedAction, Verdict, adjudicate
from ..engine.scenarios import (EXPANSIONS, GameRefused, count_refusal, get_scenario, scenario_of, start_game,
                               with_expansions)
from ..engine.state import State
from ..engine.warnings import position_warnings
from .codec import (ENCODE_BYTES, Inconsistent, board_bytes, board_canonical, build_state, dump_board,
                    dump_state, share_board, violation_json)
from .errors import Problem
from .fastload import Fallback, compile_schema, load_or_schema
from .integrity import recognised, tag_of
from .schemas import StateSchema, load_action, pointerize
from .seat import refuse_view

_STATE_SCHEMA = StateSchema()
_LOAD_STATE = compile_schema(_STATE_SCHEMA)   # one pass for a valid state; the schema words any error
_LOAD_STATE_WITHOUT_BOARD = compile_schema(StateSchema(exclude=("board",)))
_STATE_KEYS = frozenset(f.data_key or n for n, f in _STATE_SCHEMA.load_fields.items())


MAX_ERRORS = 50  # a problem lists at most this many fields at fault


def invalid(errors: list[dict[str, str]], what: str = "the request") -> Problem:
    first = errors[0] if errors else {"pointer": "/", "detail": "invalid"}
    detail = f"{what} is invalid at {first['pointer']}: {first['detail']}"
    if len(errors) > MAX_ERRORS:
        detail += f" ({len(errors)} problems; the first {MAX_ERRORS} are listed)"
    return Problem(422, detail, errors[:MAX_ERRORS])


def _null_means_absent(schema) -> frozenset[str]:
    return frozenset(f.data_key or n for n, f in schema.fields.items() if not f.required and not f.allow_none)


#: Optional fields that refuse null: a null there is taken as the field left out (client generators send
#: null for an optional field they were not given), by object of the state.
NULL_ABSENT: dict[str, frozenset[str]] = {
    "": _null_means_absent(_STATE_SCHEMA),
    **{k: _null_means_absent(_STATE_SCHEMA.fields[k].nested()) for k in ("setup", "turn_flags", "rng", "awards")},
    "players": _null_means_absent(_STATE_SCHEMA.fields["players"].inner.nested()),
    "board": _null_means_absent(_STATE_SCHEMA.fields["board"].nested()),
}


def drop_absent_nulls(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` without the nulls of :data:`NULL_ABSENT` (a copy where there are any; else ``raw`` itself)."""
    out = _without_nulls(raw, NULL_ABSENT[""])
    for key in ("setup", "turn_flags", "rng", "awards", "board"):
        sub = out.get(key)
        if type(sub) is dict:
            kept = _without_nulls(sub, NULL_ABSENT[key])
            if kept is not sub:
                out = {**out, key: kept}
    players = out.get("players")
    if type(players) is list:
        drop = NULL_ABSENT["players"]
        kept_players = [_without_nulls(p, drop) if type(p) is dict else p for p in players]
        if any(a is not b for a, b in zip(kept_players, players)):
            out = {**out, "players": kept_players}
    return out


def _without_nulls(d: dict[str, Any], drop: frozenset[str]) -> dict[str, Any]:
    """``d`` without its null values under the keys ``drop``: ``d`` itself when it has none (a null that
    means something, as ``"pirate": null``, is no reason to copy)."""
    if None not in d.values() or drop.isdisjoint([k for k, v in d.items() if v is None]):
        return d
    return {k: v for k, v in d.items() if not (v is None and k in drop)}


_PLAYER_KEYS = frozenset(StateSchema().fields["players"].inner.nested().fields)


def split_player_extras(raw: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state with each player's module values taken out (a copy where there are any; the posted
    value is never changed), and those values per player (``[]`` when no player has any)."""
    players = raw.get("players")
    if type(players) is not list or all(type(p) is not dict or _PLAYER_KEYS.issuperset(p) for p in players):
        return raw, []
    extras, core = [], []
    for p in players:
        if type(p) is dict:
            extras.append({k: v for k, v in p.items() if k not in _PLAYER_KEYS})
            core.append({k: v for k, v in p.items() if k in _PLAYER_KEYS})
        else:
            extras.append({})
            core.append(p)
    return {**raw, "players": core}, extras


def _declared_anywhere() -> tuple[frozenset[str], frozenset[str]]:
    """The ``scenario_state`` keys and player values some game's modules declare (the contract lists them
    all, each saying in which games it has a meaning)."""
    from ..engine.scenarios import SCENARIOS, all_games
    key = tuple(SCENARIOS)
    got = _ANYWHERE.get(key)
    if got is None:
        games = all_games().values()
        got = _ANYWHERE[key] = (frozenset(k for g in games for k in g.composition.state.fields),
                                frozenset(k for g in games for k in g.composition.player.fields))
    return got


_ANYWHERE: dict[tuple, tuple[frozenset[str], frozenset[str]]] = {}


def not_in_this_game(game: Any, scenario_state: Any, extras: list[dict[str, Any]]
                     ) -> tuple[Any, list[dict[str, Any]]]:
    """Decision D-not-in-this-game (docs/clients.md): a key the contract declares for other games only,
    posted as null, means "not in this game", as if left out; a client generated from the contract may
    send null for every optional key it has no value for. Any other value there stays an unknown key
    (a 422 naming it). The posted value is not changed (copies where a null is dropped)."""
    if type(scenario_state) is dict and None in scenario_state.values():
        mine, anywhere = game.composition.state.fields, _declared_anywhere()[0]
        scenario_state = {k: v for k, v in scenario_state.items()
                          if not (v is None and k not in mine and k in anywhere)}
    if extras and any(type(e) is dict and None in e.values() for e in extras):
        mine, anywhere = game.composition.player.fields, _declared_anywhere()[1]
        extras = [{k: v for k, v in e.items() if not (v is None and k not in mine and k in anywhere)}
                  if type(e) is dict else e for e in extras]
    return scenario_state, extras


def parse_state(raw: Any, cache: GraphCache, prefix: str = "/state", tag: Optional[str] = None
                ) -> tuple[State, MapGraph]:
    """JSON -> a consistent engine state and its map graph, or a 422 naming the field."""
    state, graph, _where = parse_state_where(raw, cache, prefix, tag)
    return state, graph


def parse_state_where(raw: Any, cache: GraphCache, prefix: str = "/state", tag: Optional[str] = None
                      ) -> tuple[State, MapGraph, Any]:
    """:func:`parse_state`, and where each piece was in the request (``where(kind, coord)`` -> pointer).

    ``tag``: the request's ``State-Tag`` (:mod:`.integrity`). When it is this deployment's tag of ``raw``,
    the state is one this service returned: it is loaded without the consistency checks (it passed them
    when it was made), and kept (:data:`_RECOGNISED`) so that the same state posted again to this process
    is not even loaded. Any other tag is ignored and the state checked in full. A seat's view of a position
    is refused (D-seat-view, ``seat.refuse_view``).

    A kept state also keeps the JSON text (orjson's, keys in the order posted) of the value its tag was
    recognised on: the same text posted again with the same tag is that value, and its tag is not worked
    out again (a state posted otherwise, keys re-ordered say, is recognised by its tag as before)."""
    refuse_view(raw, prefix)
    batch = _BATCH_STATES.get()
    if batch is not None and type(raw) is dict:     # a state posted before in this batch: loaded then
        try:
            text = orjson.dumps(raw)
        except TypeError:
            text = None
        if text is not None:
            got = batch.get(text)
            if got is None:
                got = parse_state_where_unbatched(raw, cache, prefix, tag)
                if len(batch) >= BATCH_STATES_KEPT:
                    batch.pop(next(iter(batch)))
                batch[text] = got
            return got
    return parse_state_where_unbatched(raw, cache, prefix, tag)


#: Within one batch (``batch.py``): the states its lines posted, loaded and checked, by their JSON text
#: (orjson's, keys as posted): the same state in many lines (a position and many candidate actions) is
#: loaded and checked once. Only the batch's own thread sees it; at most this many states are kept.
_BATCH_STATES: ContextVar[Optional[dict[bytes, tuple]]] = ContextVar("seafarers_batch_states", default=None)
BATCH_STATES_KEPT = 64


def batch_states(on: bool) -> None:
    """Start (``on``) or end the batch-local store of loaded states for this thread's requests."""
    _BATCH_STATES.set({} if on else None)


def parse_state_where_unbatched(raw: Any, cache: GraphCache, prefix: str = "/state", tag: Optional[str] = None
                                ) -> tuple[State, MapGraph, Any]:
    """:func:`parse_state_where` without the batch's store."""
    if tag is not None:
        kept = _RECOGNISED.get(tag)
        if kept is not None and type(raw) is dict:
            try:
                same = orjson.dumps(raw) == kept[3]
            except TypeError:   # (not a value orjson writes: not the one kept)
                same = False
            if same:
                return _kept_state(kept, cache)
        if recognised(raw, tag):
            if kept is not None:
                return _kept_state(kept, cache)
            return _load(raw, cache, prefix, tag)
    return _load(raw, cache, prefix, None)


def _kept_state(kept: tuple, cache: GraphCache) -> tuple[State, MapGraph, Any]:
    state, where, graph_ref, _text = kept
    graph = graph_ref()
    if graph is None:           # dropped by the graph cache since: looked up again
        graph = cache.get(state.terrain_map())
    return state, graph, where


def _load(raw: Any, cache: GraphCache, prefix: str, recognised_tag: Optional[str]
          ) -> tuple[State, MapGraph, Any]:
    """Load and (unless ``recognised_tag``) check a posted state."""
    checked = recognised_tag is None
    posted = raw
    if not isinstance(raw, dict):
        raise invalid([{"pointer": prefix, "detail": "must be a game state object"}])
    if len(raw) > 100:      # far more keys than a state has: name the unknown ones without loading the rest
        raise invalid([{"pointer": f"{prefix}/" + str(k).replace("~", "~0").replace("/", "~1"),
                        "detail": "Unknown field."} for k in raw if k not in _STATE_KEYS], "the state")
    raw, extras = split_player_extras(drop_absent_nulls(raw))
    board_key, kept = _known_board(raw.get("board"))
    board = None if kept is None else kept[0]
    try:
        if board is not None:   # a board loaded before: load the rest (a doubt: the schema loads it all)
            try:
                loaded = _LOAD_STATE_WITHOUT_BOARD({k: v for k, v in raw.items() if k != "board"})
                loaded["board"] = board
            except (Fallback, ValidationError):
                loaded = _STATE_SCHEMA.load(raw)
        else:
            loaded = load_or_schema(_STATE_SCHEMA, _LOAD_STATE, raw)
    except ValidationError as e:
        raise invalid(pointerize(e.messages, prefix), "the state") from None
    options = loaded["options"]
    scen = get_scenario(loaded["scenario"])
    switches = {k: v for k, v in options.items() if k in EXPANSIONS} if options else {}
    # the expansion switches decide the stack: one the scenario refuses (or lacks and requires) is named first
    refused = scen.option_problems(switches, len(loaded["players"]))
    if refused:
        raise invalid([{"pointer": f"{prefix}/options/" + k.replace("~", "~0").replace("/", "~1"), "detail": why}
                       for k, why in refused], "the state")
    why = count_refusal(scen, len(loaded["players"]))     # an expansion the player count switches on refuses it
    if why:
        raise invalid([{"pointer": f"{prefix}/players", "detail": why}], "the state")
    game = with_expansions(scen, options, len(loaded["players"]))  # the game's stack, found once for the checks below
    loaded["scenario_state"], extras = not_in_this_game(game, loaded["scenario_state"], extras)
    problems = declared_problems(game, loaded["scenario_state"], extras, prefix) if checked else None
    if problems:
        raise invalid([{"pointer": p, "detail": r} for p, r in problems], "the state")
    if checked:     # nulls standing for left-out keys, at any depth of the module data (D-not-in-this-game)
        loaded["scenario_state"] = game.composition.state.without_nulls(loaded["scenario_state"])
        if extras:
            extras = [game.composition.player.without_nulls(e) for e in extras]
    if extras:
        for pd, extra in zip(loaded["players"], extras):
            pd["extra"] = extra
    ss = loaded["scenario_state"]
    if None in ss.values():     # an optional key given as null is a key left out, unless null means something
        fields = game.composition.state.fields
        loaded["scenario_state"] = {k: v for k, v in ss.items() if v is not None or fields[k].nullable}
    try:
        state, where = build_state(loaded, prefix, None if kept is None else kept[1:])
    except Inconsistent as e:
        raise invalid([{"pointer": p, "detail": r} for p, r in e.problems], "the state") from None
    graph = (cache.get(state.terrain_map()) if board_key is None
             else cache.get_by_text(board_key, state.terrain_map))
    if checked:
        problems = check_state(state, graph, scenario_of(state), where, kept is not None)
        if problems:
            raise invalid([{"pointer": p, "detail": r} for p, r in problems], "the state")
    else:   # (the engine never changes a state it is given, so one object serves every request)
        where.recognised = True
        text = orjson.dumps(posted)     # (it has been written for its tag: orjson takes it)
        bounded_put(_RECOGNISED, recognised_tag, (state, where, weakref.ref(graph), text), RECOGNISED_KEPT,
                    nbytes=_state_bytes(state) + len(text), max_bytes=memo.MEMO_BYTES)
    if kept is None and board_key is not None:
        bounded_put(_BOARDS, board_key, (loaded["board"], state.hexes, state.harbors), BOARDS_KEPT)
        share_board(state.hexes, state.harbors)
    return state, graph, where


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


# States recognised by their tag (``integrity``), loaded, by tag: a client posts the same state for its
# legal actions, its derived values and its next move. Bounded in entries and in bytes (``MEMO_MB``).
# Each: (state, where its pieces were, its graph (weakly), the posted value's JSON text).
_RECOGNISED: dict[str, tuple[State, Any, "weakref.ref[MapGraph]", bytes]] = {}
RECOGNISED_KEPT = 1024


def _state_bytes(state: State) -> int:
    """A generous estimate of what a loaded state holds beside its board (shared with the board memo):
    its pieces, hands and module data, and the pointers to its pieces."""
    pieces = len(state.buildings) + len(state.roads) + len(state.ships)
    return 6000 + 2000 * state.num_players + 600 * pieces + 300 * len(state.hexes)


# Loaded boards, kept between requests: a client posts the same board with every move of a game, and the
# hex list is the largest part of a state to load. Keyed by the board's JSON text as orjson writes the
# posted value (one text per JSON value, so a hit is exactly the value loaded before); only boards of
# states that passed every check are kept, so a kept board's own checks (its harbours) are not made
# again. Each is kept loaded and built: ``(loaded board, hexes, harbors)``, the two dicts shared by every
# state built on it (``build_state`` reads a loaded board and never changes it; the engine never changes
# a board in place).
_BOARDS: dict[bytes, tuple[dict[str, Any], dict, dict]] = {}
BOARDS_KEPT = 256


def _known_board(raw_board: Any) -> tuple[Optional[bytes], Optional[tuple[dict[str, Any], dict, dict]]]:
    """(the board's key, its kept forms when kept), (None, None) for a value that cannot be a key."""
    if type(raw_board) is not dict:
        return None, None
    try:
        key = orjson.dumps(raw_board)
    except TypeError:   # (an integer past 64 bits, say: the schema refuses it anyway)
        return None, None
    return key, _BOARDS.get(key)



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
