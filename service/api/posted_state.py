"""A posted state, from the request's JSON to a checked engine :class:`State`: the one path, read top to
bottom in this module (``parse_state_where`` and ``_load``). Every view that takes a state, and a batch's
lines, come through here; the modules it calls never call back into it.

1. **Shortcuts**: a state a batch loaded before (by its JSON text), or one this deployment answered
   (its ``State-Tag``, :mod:`.integrity`), is not loaded again.
2. **Shape**: an object with the state's keys; nulls standing for left-out keys dropped; the players'
   module values taken out (decision D-not-in-this-game, docs/clients.md).
3. **Board**: one loaded before (by its JSON text) is not loaded again.
4. **Schema load**: :class:`~.schemas.StateSchema`, compiled into one pass (:mod:`.fastload`); the schema
   itself words any error.
5. **The game's stack**: scenario, expansion switches and player count (``engine.scenarios``).
6. **Module data**: the values the game's modules declare, checked against their declarations
   (``engine.consistency.declared_problems``); nulls meaning "not in this game" dropped.
7. **Engine state**: :func:`.codec.build_state`.
8. **Map graph**: from the cache (``cache.GraphCache``), by the board.
9. **Consistency**: ``engine.consistency.check_state`` (skipped for a recognised state: it passed them).
10. **Kept**: recognised states and boards, for the next request.

The declarations are one: :class:`~.schemas.StateSchema` (and the modules' declared fields) give the
loader (compiled from the schema), the keys a state may have, the nulls that mean "left out"
(:data:`NULL_ABSENT`) and the contract (``contract/generate.py`` reads the same schema and
:data:`NULL_ABSENT`)."""
from __future__ import annotations

import weakref
from contextvars import ContextVar
from typing import Any, Optional

import orjson
from marshmallow import ValidationError

from ..cache import GraphCache
from ..engine import memo
from ..engine.consistency import check_state, declared_problems
from ..engine.mapgraph import MapGraph
from ..engine.memo import bounded_put
from ..engine.scenarios import EXPANSIONS, count_refusal, get_scenario, scenario_of, with_expansions
from ..engine.state import State
from .codec import Inconsistent, build_state, share_board
from .errors import Problem
from .fastload import Fallback, compile_schema, load_or_schema
from .integrity import recognised
from .schemas import StateSchema, pointerize
from .seat import refuse_view

# -- the declarations: one schema gives the loader, the keys and the nulls that mean "left out" ----------

_STATE_SCHEMA = StateSchema()
_LOAD_STATE = compile_schema(_STATE_SCHEMA)   # one pass for a valid state; the schema words any error
_LOAD_STATE_WITHOUT_BOARD = compile_schema(StateSchema(exclude=("board",)))
_STATE_KEYS = frozenset(f.data_key or n for n, f in _STATE_SCHEMA.load_fields.items())
_PLAYER_KEYS = frozenset(StateSchema().fields["players"].inner.nested().fields)


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


# -- 1. the way in, and its shortcuts ------------------------------------------------------------------

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
    is not even loaded. Any other tag is ignored and the state checked in full.

    A kept state also keeps the JSON text (orjson's, keys in the order posted) of the value its tag was
    recognised on: the same text posted again with the same tag is that value, and its tag is not worked
    out again (a state posted otherwise, keys re-ordered say, is recognised by its tag as before)."""
    if type(raw) is BatchState:     # a batch line's state, found by its text among those loaded (batch.py)
        return raw.loaded
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


class BatchState:
    """A state a batch line posts that is, byte for byte, the JSON text of one loaded earlier in the batch
    (:func:`batch_state_loaded`): it stands for the state in the line's body, not parsed again."""
    __slots__ = ("loaded",)

    def __init__(self, loaded: tuple) -> None:
        self.loaded = loaded


def batch_state_loaded(text: bytes) -> Optional[tuple]:
    """The state, graph and piece places loaded for the JSON text ``text`` earlier in this batch, if kept."""
    batch = _BATCH_STATES.get()
    return None if batch is None else batch.get(text)


def parse_state_where_unbatched(raw: Any, cache: GraphCache, prefix: str = "/state", tag: Optional[str] = None
                                ) -> tuple[State, MapGraph, Any]:
    """:func:`parse_state_where` without the batch's store. A seat's view of a position is refused
    (D-seat-view, ``seat.refuse_view``)."""
    refuse_view(raw, prefix)
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


# -- 2-10. loading a state, step by step -----------------------------------------------------------------

def _load(raw: Any, cache: GraphCache, prefix: str, recognised_tag: Optional[str]
          ) -> tuple[State, MapGraph, Any]:
    """Load and (unless ``recognised_tag``) check a posted state: steps 2-10 of the module's list."""
    checked = recognised_tag is None
    posted = raw
    # 2. shape: an object with the state's keys; nulls for left-out keys dropped; module values split off
    if not isinstance(raw, dict):
        raise invalid([{"pointer": prefix, "detail": "must be a game state object"}])
    if len(raw) > 100:      # far more keys than a state has: name the unknown ones without loading the rest
        raise invalid([{"pointer": f"{prefix}/" + str(k).replace("~", "~0").replace("/", "~1"),
                        "detail": "Unknown field."} for k in raw if k not in _STATE_KEYS], "the state")
    raw, extras = split_player_extras(drop_absent_nulls(raw))
    # 3. the board: one loaded before (by its JSON text) is not loaded again
    board_key, kept = _known_board(raw.get("board"))
    board = None if kept is None else kept[0]
    # 4. the schema's load (compiled; the schema words any error)
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
    # 5. the game's stack: scenario, expansion switches, player count
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
    # 6. module data: checked against the modules' declarations; nulls meaning "not in this game" dropped
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
    # 7. the engine state
    try:
        state, where = build_state(loaded, prefix, None if kept is None else kept[1:])
    except Inconsistent as e:
        raise invalid([{"pointer": p, "detail": r} for p, r in e.problems], "the state") from None
    # 8. the map graph
    graph = (cache.get(state.terrain_map()) if board_key is None
             else cache.get_by_text(board_key, state.terrain_map))
    # 9. consistency (a recognised state passed it when it was made) ... 10. kept for the next requests
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


# -- the steps, in the order _load takes them --------------------------------------------------------------

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


def _known_board(raw_board: Any) -> tuple[Optional[bytes], Optional[tuple[dict[str, Any], dict, dict]]]:
    """(the board's key, its kept forms when kept), (None, None) for a value that cannot be a key."""
    if type(raw_board) is not dict:
        return None, None
    try:
        key = orjson.dumps(raw_board)
    except TypeError:   # (an integer past 64 bits, say: the schema refuses it anyway)
        return None, None
    return key, _BOARDS.get(key)


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


# -- what is kept between requests ----------------------------------------------------------------------

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


# -- a refused state ------------------------------------------------------------------------------------

MAX_ERRORS = 50  # a problem lists at most this many fields at fault


def invalid(errors: list[dict[str, str]], what: str = "the request") -> Problem:
    first = errors[0] if errors else {"pointer": "/", "detail": "invalid"}
    detail = f"{what} is invalid at {first['pointer']}: {first['detail']}"
    if len(errors) > MAX_ERRORS:
        detail += f" ({len(errors)} problems; the first {MAX_ERRORS} are listed)"
    return Problem(422, detail, errors[:MAX_ERRORS])
