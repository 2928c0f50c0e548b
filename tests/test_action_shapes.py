"""Every field of every action type, of every game, given wrong values: each is a 4xx problem naming the
field (its JSON pointer), never a 500 and never a value passed on to the rules unchecked.

The wrong values are made from the modules' own declarations (``engine/spec.py``), so a field a module
adds is swept without a word here: for each place inside a field's declared shape (an object's keys, a
list's items, a map's keys and values), values of every other JSON kind, out of range, too long, unknown
names, unknown keys, missing required keys. They are loaded through the one input boundary of actions
(``service.parse_action``, used by ``/v1/adjudicate``, ``/v1/render`` and ``/v1/replay``), and a sample
of them over HTTP on those three endpoints.
"""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from service.api import create_app
from service.api.errors import Problem
from service.api.service import parse_action
from service.engine import spec as T
from service.engine.scenarios import SCENARIOS, GameRefused, all_games, start_game

GAMES = all_games()


def example(t: T.Type) -> Any:
    """A value of shape ``t`` (the smallest the declaration admits)."""
    if isinstance(t, T.Int):
        return max(t.lo, min(t.hi, 1))
    if isinstance(t, T.Bool):
        return False
    if isinstance(t, T.Str):
        return t.enum[0] if t.enum is not None else "x"
    if isinstance(t, T.HexT):
        return [0, 0]
    if isinstance(t, T._Place):
        return [0, 0, t.names[0]]
    if isinstance(t, T.Cards):
        return {t.kinds[0]: 1}
    if isinstance(t, T.Null):
        return example(t.of)
    if isinstance(t, T.List):
        return [example(t.item)] * max(1, t.min_len)
    if isinstance(t, T.Tuple):
        return [example(x) for x in t.items]
    if isinstance(t, T.Map):
        return {example_key(t.key): example(t.value)}
    if isinstance(t, T.Obj):
        return {k: example(f.type) for k, f in t.fields.items()}
    return 0


def example_key(t: T.Type) -> str:
    return "1" if isinstance(t, T.PlayerKey) else "k"


_KINDS = {"string": "x", "float": 1.5, "true": True, "list": [], "object": {}, "int": 7, "huge": 10 ** 30}


def wrong(t: T.Type, path: tuple, required: bool) -> Iterator[tuple[tuple, str, Any]]:
    """(place, what, a wrong value there): places are paths of keys/indexes inside the field."""
    if isinstance(t, T.Null):
        yield from wrong(t.of, path, False)
        return
    if isinstance(t, T.Any_):
        return
    if required:
        yield path, "null", None
    for name, v in _KINDS.items():
        if t.problems(v, ""):
            yield path, name, v
    if isinstance(t, T.Int):
        yield path, "below", t.lo - 1
        yield path, "above", t.hi + 1
    elif isinstance(t, T.Str):
        yield path, "unknown", "\u202enot-a-name" if t.enum is not None else "y" * (t.max_len + 1)
    elif isinstance(t, (T.HexT, T._Place)):
        yield path, "far", [10 ** 9, 0] + ([t.names[0]] if isinstance(t, T._Place) else [])
        yield path, "short", [0]
        yield path, "strings", ["0", "0"] + ([t.names[0]] if isinstance(t, T._Place) else [])
        if isinstance(t, T._Place):
            yield path, "no such corner or side", [0, 0, "Q"]
    elif isinstance(t, T.Cards):
        yield path, "unknown kind", {"gems": 1}
        yield path + (t.kinds[0],), "negative count", {t.kinds[0]: -1}
        yield path + (t.kinds[0],), "string count", {t.kinds[0]: "1"}
        yield path + (t.kinds[0],), "float count", {t.kinds[0]: 1.0}
        yield path + (t.kinds[0],), "count past the limit", {t.kinds[0]: t.hi + 1}
    elif isinstance(t, T.List):
        yield path, "too long", [example(t.item)] * (t.max_len + 1)
        if t.min_len > 1:
            yield path, "too short", [example(t.item)] * (t.min_len - 1)
        for sub, what, v in wrong(t.item, (), True):
            items = [example(t.item)] * max(1, t.min_len)
            items[0] = v
            yield path + (0,) + sub, f"item: {what}", items
    elif isinstance(t, T.Tuple):
        for i, item in enumerate(t.items):
            for sub, what, v in wrong(item, (), True):
                val = example(t)
                val[i] = v
                yield path + (i,) + sub, f"item {i}: {what}", val
    elif isinstance(t, T.Map):
        good = example(t.value)
        bad_keys = ["x", "-1", "01", "4", "1.0", ""] if isinstance(t.key, T.PlayerKey) else ["y" * 200]
        for k in bad_keys:
            if t.key.problems(k, ""):
                yield path + (k,), f"key {k!r}", {k: good}
        yield path, "too many keys", {str(i): good for i in range(t.max_len + 1)}
        k0 = example_key(t.key)
        for sub, what, v in wrong(t.value, (), True):
            yield path + (k0,) + sub, f"value: {what}", {k0: v}
    elif isinstance(t, T.Obj):
        yield path + ("surplus",), "unknown key", {**example(t), "surplus": 1}
        for k, f in t.fields.items():
            if f.required:
                yield path + (k,), f"{k} missing", {x: v for x, v in example(t).items() if x != k}
            for sub, what, v in wrong(f.type, (), f.required and not f.nullable):
                yield path + (k,) + sub, f"{k}: {what}", {**example(t), k: v}


def _pointer(path: tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _state_of(gid: str):
    """A new game of ``gid`` (its scenario's map, its fewest players), or None (a scenario without a map)."""
    sid, _, option = gid.partition(" with ")
    try:
        return start_game(sid, SCENARIOS[sid].players[0], 7, {option: True} if option else {})
    except GameRefused:
        return None


_STATES = {gid: _state_of(gid) for gid in GAMES}


def _distinct_actions() -> list[tuple[str, str, dict[str, T.F]]]:
    """(game, action type, its declared fields): one game for each distinct declaration of a type."""
    seen: dict[tuple, tuple[str, str, dict[str, T.F]]] = {}
    for gid, g in GAMES.items():
        for at, s in g.composition.actions.items():
            key = (at, tuple(sorted((k, id(f)) for k, f in s.fields.items())))
            if _STATES[gid] is not None:
                seen.setdefault(key, (gid, at, dict(s.fields)))
    return sorted(seen.values())


ACTIONS = _distinct_actions()


def cases() -> list[tuple[str, str, dict, str, str]]:
    """(game, action type, the action, the pointer that must be named, what is wrong)."""
    out = []
    for gid, at, fs in ACTIONS:
        base = {"type": at, "player": 0, **{k: example(f.type) for k, f in fs.items() if f.required}}
        out.append((gid, at, {**base, "type": 5}, "/type", "type: an integer"))
        out.append((gid, at, {**base, "player": "0"}, "/player", "player: a string"))
        out.append((gid, at, {**base, "player": 9}, "/player", "player: out of range"))
        out.append((gid, at, {**base, "player": _STATES[gid].num_players}, "/player", "player: not in the game"))
        out.append((gid, at, {k: v for k, v in base.items() if k != "player"}, "/player", "player missing"))
        out.append((gid, at, {**base, "surplus": 1}, "/surplus", "an unknown field"))
        for k, f in fs.items():
            if f.required:
                out.append((gid, at, {x: v for x, v in base.items() if x != k}, f"/{k}", f"{k} missing"))
            for sub, what, v in wrong(f.type, (), f.required and not f.nullable):
                out.append((gid, at, {**base, k: v}, _pointer((k,) + sub), f"{k}: {what}"))
    return out


CASES = cases()




def _named(problem: Problem, pointer: str) -> bool:
    return any(e["pointer"] == pointer or e["pointer"].startswith(pointer + "/") for e in problem.errors or ())


def test_the_sweep_reaches_every_declared_field_of_every_action_type():
    fields = {(at, k) for _, at, fs in ACTIONS for k in fs}
    swept = {(at, ptr.split("/")[2]) for _, at, _, ptr, _ in
             [(g, a, x, "/action" + p, w) for g, a, x, p, w in CASES] if ptr.count("/") >= 2}
    untyped = {(at, k) for _, at, fs in ACTIONS for k, f in fs.items() if isinstance(f.type, T.Any_)}
    assert fields - untyped <= swept, sorted(fields - untyped - swept)
    # the fields the attack found without a check are among them
    assert {("play_progress", "cards"), ("play_progress", "offers"), ("roll", "pillage")} <= swept
    assert len(CASES) > 2000


@pytest.mark.parametrize("gid", sorted({c[0] for c in CASES}))
def test_every_wrong_value_of_every_action_field_is_a_422_naming_it(gid):
    st = _STATES[gid]
    missed = []
    for g, at, action, ptr, what in CASES:
        if g != gid:
            continue
        try:
            parse_action(action, st)
        except Problem as p:
            if not (400 <= p.status < 500 and _named(p, "/action" + ptr)):
                missed.append((at, what, p.status, [e["pointer"] for e in p.errors or ()]))
        else:
            missed.append((at, what, "accepted"))
    assert not missed, missed[:20]


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


def _sample() -> list[tuple]:
    """One wrong value of each (game's) action field, the first in the sweep's order; every one of the C&K
    free-key maps (``cards``, ``offers``, the barbarians' choices)."""
    out, seen = [], set()
    for c in CASES:
        key = (c[0], c[1], c[3].split("/")[1])
        if key not in seen or "with" in c[0] and c[3].split("/")[1] in ("cards", "offers", "pillage", "fighting",
                                                                            "defender_decks", "progress_discards"):
            seen.add(key)
            out.append(c)
    return out


def test_wrong_values_over_http_are_4xx_problems_on_every_endpoint_that_takes_an_action(client):
    from service.api.codec import dump_state
    sample = _sample()
    assert len(sample) > 300
    bad = []
    for i, (gid, at, action, ptr, what) in enumerate(sample):
        st = _STATES[gid]
        raw = dump_state(st)
        path = ("/v1/adjudicate", "/v1/replay", "/v1/render")[i % 3]
        body = {"state": raw, "actions": [action]} if path == "/v1/replay" else {"state": raw, "action": action}
        r = client.post(path, json=body)
        want = ("/actions/0" if path == "/v1/replay" else "/action") + ptr
        pointers = [e["pointer"] for e in (r.get_json() or {}).get("errors", [])]
        if not (400 <= r.status_code < 500 and r.mimetype == "application/problem+json"
                and any(p == want or p.startswith(want + "/") or want.startswith(p + "/") for p in pointers)):
            bad.append((path, gid, at, what, r.status_code, pointers[:3]))
    assert not bad, bad[:10]
