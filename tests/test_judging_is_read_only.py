"""Judging a position never writes into it: the service keeps a recognised state (and its board) between
requests and judges it again, so a write into the state judged would change every later answer.

Positions come from seeded random games of every scenario and player count, and of each with Cities &
Knights stacked where the scenario takes it; each is posted as a client would (``parse_state``), and again
with optional parts its modules' declared shapes (``STATE``, ``PLAYER``) allow left out: an optional key
absent, a per-player entry removed, a dict of them emptied (a variant the API's checks refuse is skipped).
On each: the legal actions of every player, the verdicts of a sample of legal actions (listed and the
examples of ranges) and of illegal ones (another player's, a field changed, a field left out, an optional
field its type declares given, an action of another position of the game; each loaded as the API loads
an action), the derived values, the explanations (``explain=true``, of the position and of a legal
action's), the warnings, the picture's layers, routes and SVG (``/v1/render``). After each call the state
must dump to the same bytes and its ``scenario_state`` equal a deep copy taken before; a call that raises
on a state the checks let through (an answer of 500) is reported too.

``READ_ONLY_POSITIONS`` (default 200) is the number of positions from play, spread over the games; each
gives a few variants besides.
"""
from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from service.api.codec import ENCODE, dump_state
from service.api.errors import Problem
from service.api.service import parse_action, parse_state_where
from service.api.tools import violation_marks
from service.cache import GraphCache
from service.engine.consistency import check_state
from service.engine.core import Action
from service.engine.derive import derive, route_lengths
from service.engine.explain import explain
from service.engine.legal import action_json, legal_actions, players_to_act
from service.engine.modules.cities_and_knights import store
from service.engine.referee import UnsupportedAction, adjudicate
from service.engine.scenarios import all_games, scenario_of, start_game
from service.engine.selfplay import play_game, playable_scenarios
from service.engine.spec import Bool, Int, List, Map, Obj, Str
from service.engine.warnings import position_warnings
from service.render.svg import state_svg

CK = {"cities_and_knights": True}
POSITIONS = int(os.environ.get("READ_ONLY_POSITIONS", "200"))


def _games() -> list[tuple[str, int, Any]]:
    """(scenario, players, options) of every playable game: each scenario alone, and with C&K where taken."""
    stackable = all_games()
    out = []
    for sid, n in playable_scenarios():
        out.append((sid, n, None))
        if f"{sid} with cities_and_knights" in stackable:
            out.append((sid, n, CK))
    return out


GAMES = _games()
PER_GAME = max(1, -(-POSITIONS // len(GAMES)))
MAX_ACTIONS = min(1500, 100 * PER_GAME)     # (longer games where more positions are asked for)
_CACHE = GraphCache()


# -- positions ------------------------------------------------------------------------------------------

def _played(sid: str, n: int, options: Any, seed: int) -> tuple[list[Any], list[Action]]:
    """``PER_GAME`` positions (states before an action) spread over one seeded game, and its actions."""
    states: list[Any] = []
    actions: list[Action] = []

    def step(state, action, _verdict):
        states.append(state)
        actions.append(action)

    play_game(sid, n, seed, max_actions=MAX_ACTIONS, check=False, on_step=step, options=options)
    rng = random.Random(seed)
    picked = sorted(rng.sample(range(len(states)), min(PER_GAME, len(states)))) if states else []
    if states and len(states) - 1 not in picked:
        picked[-1] = len(states) - 1          # the last position reached (the most pieces and cards)
    return [states[i] for i in picked], actions


def _edits(value: Any, shape: Any, path: tuple) -> Iterator[tuple[str, tuple]]:
    """What may be left out of ``value`` under the declared ``shape``: ``("del", path)`` an optional key or
    a map's entry, ``("empty", path)`` a map (or a map's entry that is a dict) emptied."""
    if isinstance(shape, Obj) and type(value) is dict:
        for k, f in shape.fields.items():
            if k in value:
                if not f.required:
                    yield "del", path + (k,)
                yield from _edits(value[k], f.type, path + (k,))
    elif isinstance(shape, Map) and type(value) is dict and value:
        yield "empty", path
        for k, v in value.items():
            yield "del", path + (k,)
            if type(v) is dict and v:
                yield "empty", path + (k,)
            yield from _edits(v, shape.value, path + (k,))


def _state_edits(raw: dict, game: Any) -> list[tuple[str, tuple]]:
    comp = game.composition
    out = list(_edits(raw.get("scenario_state") or {}, comp.state, ("scenario_state",)))
    for i, pl in enumerate(raw["players"]):
        extra = {k: v for k, v in pl.items() if k in comp.player.fields}
        out += _edits(extra, comp.player, ("players", i))
    return out


def _apply(raw: dict, edit: tuple[str, tuple]) -> bool:
    """Apply one edit in place (False: its path no longer exists, after another edit)."""
    op, path = edit
    node: Any = raw
    for k in path[:-1]:
        try:
            node = node[k]
        except (KeyError, IndexError, TypeError):
            return False
    last = path[-1]
    if type(node) is not dict and not (type(node) is list and type(last) is int):
        return False
    if type(node) is dict and last not in node:
        return False
    if op == "del":
        del node[last]
    else:
        if type(node[last]) is not dict or not node[last]:
            return False
        node[last] = {}
    return True


def _post(raw: dict):
    """The state as the API loads it, or None when its checks refuse it."""
    try:
        return parse_state_where(raw, _CACHE)
    except Problem:
        return None


def _variants(raw: dict, rng: random.Random, singles: int = 3) -> Iterator[tuple[str, dict]]:
    """Versions of ``raw`` with optional parts left out: ``singles`` single edits (picked at random), and
    as many edits at once as the checks allow (tried in a random order, each kept if the state passes)."""
    game = scenario_of(_post(raw)[0])
    edits = _state_edits(raw, game)
    if not edits:
        return
    for e in rng.sample(edits, min(singles, len(edits))):
        v = copy.deepcopy(raw)
        if _apply(v, e):
            yield f"{e[0]} {'/'.join(map(str, e[1]))}", v
    acc, kept = copy.deepcopy(raw), []
    for e in rng.sample(edits, min(40, len(edits))):
        trial = copy.deepcopy(acc)
        if _apply(trial, e) and _post(trial) is not None:
            acc = trial
            kept.append(e)
    if len(kept) > 1:
        yield f"{len(kept)} parts left out", acc


# -- the calls a request makes ------------------------------------------------------------------------------

def _changed(value: Any, key: str, others: list[Any], state: Any, rng: random.Random) -> list[Any]:
    """Other values of an action's field (JSON form): what an illegal (or another legal) action has there."""
    out = [o for o in others if o != value][:2]
    if type(value) is bool:
        out.append(not value)
    elif type(value) is int:
        out += [value + 1, max(0, value - 1)]
    elif type(value) is list and len(value) in (2, 3) and all(type(x) is int for x in value[:2]):
        hexes = sorted(state.hexes)
        h = hexes[rng.randrange(len(hexes))]
        out.append([h[0], h[1]] + value[2:])
    elif type(value) is list and value:
        out += [value[:-1], value + value[:1]]
    elif type(value) is dict and value:
        k = min(value)
        v0 = value[k]
        if type(v0) is int:
            out.append({**value, k: v0 + 1})
        out.append({kk: vv for kk, vv in value.items() if kk != k})
    return out


def _declared_value(t: Any) -> Any:
    """A value of a declared action field's shape (None: one not made here)."""
    if isinstance(t, Bool):
        return True
    if isinstance(t, Int):
        return max(t.lo, 0)
    if isinstance(t, Str) and t.enum:
        return t.enum[0]
    if isinstance(t, List) and isinstance(t.item, Int):
        return [max(t.item.lo, 1)] * max(t.min_len, 1)
    return None


def _added_forms(a: Action, scen: Any) -> Iterator[dict]:
    """``a`` with each optional field its type declares and it leaves out given (an Alchemist roll, a
    choice a card asks for...): a check reading what the field names."""
    js = action_json(a)
    spec = scen.composition.actions.get(a.type)
    for k, f in (spec.fields.items() if spec is not None else ()):
        if k not in js:
            v = _declared_value(f.type)
            if v is not None:
                yield {**js, k: v}


def _illegal_forms(a: Action, listed: list[Action], state: Any, rng: random.Random) -> Iterator[dict]:
    """JSON forms near ``a``: by each other player, with each field changed, with a field left out."""
    js = action_json(a)
    for q in range(state.num_players):
        if q != a.player:
            yield {**js, "player": q}
    same = [action_json(b) for b in listed if b.type == a.type]
    for k, v in js.items():
        if k in ("type", "player"):
            continue
        for w in _changed(v, k, [o[k] for o in same if k in o], state, rng)[:3]:
            yield {**js, k: w}
        yield {kk: vv for kk, vv in js.items() if kk != k}


class Watch:
    """The state's bytes and a deep copy of its ``scenario_state``, compared after each call."""

    def __init__(self, state: Any, what: str) -> None:
        self.state, self.what, self.found = state, what, []
        self._take()

    def _take(self) -> None:
        self.text = ENCODE(dump_state(self.state))
        self.ss = copy.deepcopy(self.state.scenario_state)

    def after(self, call: str) -> None:
        text = ENCODE(dump_state(self.state))
        if text != self.text or self.state.scenario_state != self.ss:
            self.found.append(f"{self.what}: {call} changed the state judged: "
                              f"{_first_difference(orjson.loads(self.text), orjson.loads(text))}")
            self._take()        # (and go on: one position may show several writes)


def _first_difference(a: Any, b: Any, ptr: str = "") -> str:
    if type(a) is dict and type(b) is dict:
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                return f"{ptr}/{k} removed"
            if k not in a:
                return f"{ptr}/{k} added ({b[k]!r})"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{ptr}/{k}")
        return f"{ptr}: keys re-ordered"
    if type(a) is list and type(b) is list and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{ptr}/{i}")
    return f"{ptr}: {a!r} -> {b!r}"


def judge_everything(state: Any, graph: Any, where: Any, what: str, elsewhere: list[Action],
                     rng: random.Random, per_player: int = 4, near: int = 2) -> tuple[list[str], int]:
    """Every call a request makes on ``state``, each followed by the check; (what changed it, calls made)."""
    scen = scenario_of(state)
    w = Watch(state, what)
    calls = 0

    def call(name: str, fn: Callable[[], Any]) -> Any:
        nonlocal calls
        calls += 1
        try:
            out = fn()
        except UnsupportedAction:
            raise
        except Exception as e:      # a value the checks let through that a rule cannot read (a 500)
            w.found.append(f"{what}: {name} raised {type(e).__name__}: {e}")
            out = None
        w.after(name)
        return out

    call("check_state", lambda: check_state(state, graph, scen, where))
    call("players_to_act", lambda: players_to_act(state))
    call("legal_actions (the player to act)", lambda: legal_actions(state, graph, scen))
    sample: list[Action] = []
    listed_all: list[Action] = []
    for p in range(state.num_players):
        la = call(f"legal_actions player {p}", lambda p=p: legal_actions(state, graph, scen, p))
        if la is None:
            continue
        listed = [a for acts in la.actions.values() for a in acts]
        listed_all += listed
        examples = []
        for specs in la.ranges.values():
            for spec in specs:
                try:
                    examples.append(parse_action(spec["example"], state))
                except Problem:
                    pass
        pool = rng.sample(listed, min(per_player, len(listed))) + examples[:per_player]
        sample += pool
    judged: list[tuple[Action, Any]] = []

    def judge(a: Action, label: str) -> Any:
        try:
            v = call(f"adjudicate {label} {a.type} {action_json(a)}", lambda: adjudicate(state, a, graph, scen))
        except UnsupportedAction:
            return None
        if v is not None:
            judged.append((a, v))
        return v

    for a in sample:
        judge(a, "listed")
        forms = list(_illegal_forms(a, listed_all, state, rng))
        for js in rng.sample(forms, min(near, len(forms))) + list(_added_forms(a, scen)):
            try:
                b = parse_action(js, state)
            except Problem:
                continue
            judge(b, "changed")
    for a in rng.sample(elsewhere, min(3, len(elsewhere))):       # actions of other positions of the game
        if a.player < state.num_players:
            judge(a, "of another position")
    call("derive", lambda: derive(state, graph, scen))
    call("explain", lambda: explain(state, graph, scen))
    for a, v in judged[:2]:
        if v.legal and v.state is not None:     # ``explain=true`` of a legal action explains the new state
            call(f"explain after {a.type}", lambda v=v: explain(v.state, graph, scen))
    call("position_warnings", lambda: position_warnings(state, graph, scen, where))
    layers = call("board_layers", lambda: scen.board_layers(state, graph))
    routes = call("route_lengths", lambda: route_lengths(state, graph, scen))
    marks = next((violation_marks(a, v.violations) for a, v in judged if not v.legal), None)
    call("state_svg", lambda: state_svg(state, layers=layers or [], route=routes[0][1] if routes else None,
                                        **({"marks": marks} if marks else {})))
    return w.found, calls


# -- the test ------------------------------------------------------------------------------------------------

def _label(g: tuple) -> str:
    sid, n, options = g
    return f"{sid}-{n}p" + ("-ck" if options else "")


@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
def test_judging_leaves_the_position_judged_as_posted(game):
    """The posted state is never mutated: no call a request makes on a position (legal actions, verdicts of
    legal and illegal actions, derived values, explanations, warnings, the picture) writes into it, with
    every optional part present or left out."""
    sid, n, options = game
    seed = 11 + GAMES.index(game)
    rng = random.Random(seed)
    positions, actions = _played(sid, n, options, seed)
    assert positions, f"{_label(game)}: no position reached"
    found: list[str] = []
    judged = variants = 0
    for i, pos in enumerate(positions):
        raw = orjson.loads(orjson.dumps(dump_state(pos)))
        for name, v in [("as played", raw), *_variants(raw, rng)]:
            posted = _post(v)
            if posted is None:
                continue
            state, graph, where = posted
            f, _ = judge_everything(state, graph, where, f"{_label(game)} position {i} ({state.phase}), {name}",
                                    actions, rng)
            found += f
            judged += 1
            variants += name != "as played"
    assert judged >= len(positions)
    assert not found, "\n".join(found[:20])


def test_the_check_sees_a_write():
    """The check this file makes finds a write into the state judged (an entry added to a module's data,
    as an accessor that fills in a missing entry would), and names where it is."""
    state = _post(orjson.loads(orjson.dumps(dump_state(start_game("base", 3, 5, CK)))))[0]
    w = Watch(state, "base with C&K")
    w.after("nothing")
    assert w.found == []
    del state.scenario_state["cities_and_knights"]["hands"]["1"]
    w.after("a removal")
    assert w.found and "/scenario_state/cities_and_knights/hands/1 removed" in w.found[0]


def _ck_position(phase: str) -> dict:
    """A C&K base game (3 players) in ``phase`` after its setup, as posted: the first one random play reaches."""
    at: list = []

    def step(state, _action, _verdict):
        if not at and state.phase == phase and state.turn > 1:
            at.append(state)

    play_game("base", 3, 7, max_actions=200, check=False, on_step=step, options=CK)
    return orjson.loads(orjson.dumps(dump_state(at[0])))


def _left_out(raw: dict) -> tuple[int, dict]:
    """The player to act, and ``raw`` with that player's (empty) progress-card hand and the trade
    metropolis (no holder) left out."""
    p = raw["current_player"]
    c = raw["scenario_state"]["cities_and_knights"]
    assert c["hands"][str(p)] == {} and c["metropolises"]["trade"] is None
    del c["hands"][str(p)]
    del c["metropolises"]["trade"]
    return p, raw


def test_a_left_out_hand_or_metropolis_is_read_not_filled_in():
    """CK-PROG-S1: an Alchemist roll by a player whose progress-card hand is left out of the posted state is
    refused without making an empty hand in the position judged; CK-IMP-7: a city improvement judged (and
    listed) when a track is left out of the posted ``metropolises`` reads that track as having no holder
    (no error, no entry made). Every other call a request makes on these positions leaves them as posted."""
    for phase, action, rules in (("roll", {"alchemist": True}, {"CK-PROG-S1"}),
                                 ("main", {"track": "trade"}, {"CK-IMP-1"})):
        p, raw = _left_out(_ck_position(phase))
        a = Action("roll" if phase == "roll" else "improve_city", p, action)
        state, graph, where = _post(raw)
        before = ENCODE(dump_state(state))
        v = adjudicate(state, a, graph, scenario_of(state))
        assert not v.legal and {x.rule for x in v.violations} == rules
        assert ENCODE(dump_state(state)) == before
        assert str(p) not in store.ck(state)["hands"] and "trade" not in store.ck(state)["metropolises"]
        found, calls = judge_everything(state, graph, where, f"C&K base at a {phase}, parts left out", [a],
                                        random.Random(3))
        assert calls > 10 and not found, "\n".join(found)


@pytest.fixture()
def tagged_client():
    from service.api import create_app, integrity, service
    integrity.set_key(b"test-key")
    service._RECOGNISED.clear()
    yield create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    integrity.set_key(None)
    service._RECOGNISED.clear()


def test_a_kept_position_answers_the_same_after_every_endpoint(tagged_client):
    """CK-PROG-S1, CK-IMP-7: a state posted with its ``State-Tag`` is kept and judged again by later
    requests; with a player's hand and a metropolis left out, the legal actions, an Alchemist roll or an
    improvement judged with explanations, the picture and the derived values leave it as posted, and
    every endpoint answers the same bytes the second time round."""
    from service.api import integrity, service
    c = tagged_client
    for phase, action in (("roll", {"type": "roll", "alchemist": True}),
                          ("main", {"type": "improve_city", "track": "trade"})):
        p, raw = _left_out(_ck_position(phase))
        tag = integrity.tag_of(raw)
        head = {"State-Tag": tag}
        act = {**action, "player": p}
        rounds = []
        for _ in range(2):
            answers = [c.post("/v1/legal-actions", json={"state": raw}, headers=head),
                       c.post("/v1/legal-actions", json={"state": raw, "player": (p + 1) % 3}, headers=head),
                       c.post("/v1/adjudicate?explain=true", json={"state": raw, "action": act}, headers=head),
                       c.post("/v1/render", json={"state": raw, "action": act}, headers=head),
                       c.post("/v1/derive?explain=true", json={"state": raw}, headers=head)]
            assert [r.status_code for r in answers] == [200] * 5, [r.get_data(as_text=True)[:300] for r in answers]
            rounds.append([r.get_data() for r in answers])
        assert rounds[0] == rounds[1]
        assert tag in service._RECOGNISED
        assert orjson.loads(orjson.dumps(dump_state(service._RECOGNISED[tag][0]))) == raw
