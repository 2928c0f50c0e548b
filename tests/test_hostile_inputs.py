"""A catalogue of hostile inputs, sent to every endpoint that takes a body: each one is answered with a
4xx problem+json, never a 5xx, and quickly.

Categories: deep nesting, huge arrays, non-JSON, wrong content type, NaN/Infinity, duplicate keys, giant
integers, unicode edge cases, negative counts, coordinates far off the board, wrong shapes. ``bench/fuzz.py``
runs the same catalogue and reports the slowest answer.
"""
from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from service.api import create_app
from service.api.codec import dump_state
from service.engine.scenarios import get_scenario

BODY_ENDPOINTS = ("/v1/adjudicate", "/v1/derive", "/v1/scenarios/base/check", "/v1/games", "/v1/replay",
                  "/v1/legal-actions", "/v1/render")
#: endpoints whose body carries a game state (the semantic entries below go to these)
STATE_ENDPOINTS = ("/v1/adjudicate", "/v1/derive", "/v1/scenarios/base/check", "/v1/replay",
                   "/v1/legal-actions", "/v1/render")
SLOW_MS = 2000.0      # generous for shared CI machines; bench/fuzz.py prints the real maximum

_STATE = dump_state(get_scenario("base").new_game(3, 7))


def _wrap(path: str, st: Any, **extra: Any) -> dict:
    """The body of ``path`` carrying ``st`` as its state (the replay needs an action list)."""
    body: dict[str, Any] = {"state": st}
    if path == "/v1/replay":
        body["actions"] = []
    body.update(extra)
    return body


def _mutated(fn) -> dict:
    st = copy.deepcopy(_STATE)
    fn(st)
    return st


def _set(path: list, value: Any):
    def fn(st):
        x = st
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = value
    return fn


def _raw(body: Any) -> bytes:
    return json.dumps(body).encode()


# -- body-level entries (every endpoint) -----------------------------------------------------------------

_DEEP_ARRAY = b"[" * 100_000 + b"]" * 100_000
_DEEP_OBJECT = b'{"state": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}"
_DEEP_34 = b'{"state": ' + b"[" * 34 + b"]" * 34 + b"}"
_HUGE_ARRAY = b'{"state": [' + b",".join([b"0"] * 900_000) + b"]}"           # ~1.8 MB, under the body limit
_HUGE_STRING = b'{"state": "' + b"x" * 1_900_000 + b'"}'
_OVER_LIMIT = b'{"state": "' + b"x" * (3 * 1024 * 1024) + b'"}'
_MANY_KEYS = _raw({"state": {f"k{i}": i for i in range(100_000)}})


def _body_entries(path: str) -> list[dict]:
    e = []

    def add(name: str, data: bytes, ctype: str | None = "application/json") -> None:
        e.append({"name": f"{path} {name}", "path": path, "data": data, "ctype": ctype})

    add("deep nesting: 100k arrays", _DEEP_ARRAY)
    add("deep nesting: 5k objects", _DEEP_OBJECT)
    add("deep nesting: 34 arrays", _DEEP_34)
    add("huge array: 900k numbers", _HUGE_ARRAY)
    add("huge string: 1.9 MB", _HUGE_STRING)
    add("huge object: 100k keys", _MANY_KEYS)
    add("body over the size limit", _OVER_LIMIT)
    add("non-JSON: empty body", b"")
    add("non-JSON: text", b"hello referee")
    add("non-JSON: truncated", b'{"state": {"scenario": "base", ')
    add("non-JSON: single quotes", b"{'state': 1}")
    add("non-JSON: trailing comma", b'{"state": 1,}')
    add("non-JSON: two documents", b'{"state": 1}{"state": 2}')
    add("non-JSON: random bytes", bytes(range(256)) * 4)
    add("non-JSON: not UTF-8", b'{"state": "\xff\xfe\xfd"}')
    add("non-JSON: overlong UTF-8", b'{"state": "\xc0\xaf"}')
    add("non-JSON: UTF-16", '{"state": 1}'.encode("utf-16"))
    add("non-JSON: BOM then JSON", b"\xef\xbb\xbf" + _raw(_wrap(path, _STATE)))
    add("non-JSON: NUL bytes", b"\x00" * 64)
    add("wrong content type: text/plain", _raw(_wrap(path, _STATE)), "text/plain")
    add("wrong content type: form", b"state=1", "application/x-www-form-urlencoded")
    add("wrong content type: xml", b"<state/>", "application/xml")
    add("wrong content type: multipart", b"--x--", "multipart/form-data; boundary=x")
    add("wrong content type: none", _raw(_wrap(path, _STATE)), None)
    add("NaN", b'{"state": NaN}')
    add("Infinity", b'{"state": Infinity}')
    add("-Infinity", b'{"state": -Infinity}')
    add("float overflow 1e999", b'{"state": 1e999}')
    add("duplicate keys at the top", b'{"state": 1, "state": 2}')
    add("duplicate keys inside", b'{"state": {"phase": "main", "phase": "roll"}}')
    add("giant integer: 5000 digits", b'{"state": ' + b"9" * 5000 + b"}")
    add("giant integer: 100k digits", b'{"state": ' + b"9" * 100_000 + b"}")
    add("top level: array", b"[]")
    add("top level: string", b'"state"')
    add("top level: number", b"42")
    add("top level: null", b"null")
    add("top level: true", b"true")
    add("empty object", b"{}")
    add("unicode: lone surrogate key", b'{"\\ud800": 1}')
    add("unicode: NUL key", b'{"\\u0000": 1}')
    add("unicode: RTL override key", '{"\u202estate": 1}'.encode())
    add("unicode: zero-width key", '{"sta\u200bte": 1}'.encode())
    add("unicode: emoji key", '{"\U0001F3B2": 1}'.encode())
    return e


# -- semantic entries (a real state, one hostile part) ----------------------------------------------------

FAR = 10 ** 9
_SEMANTIC = [
    ("negative resource count", _set(["players", 0, "resources", "lumber"], -1)),
    ("negative bank count", _set(["bank", "ore"], -5)),
    ("negative supply", _set(["players", 1, "supply"], {"settlements": -1, "cities": 4, "roads": 15, "ships": 0})),
    ("negative dev deck count", _set(["dev_deck"], {"knight": -14})),
    ("negative current player", _set(["current_player"], -1)),
    ("negative turn", _set(["turn"], -3)),
    ("giant current player", _set(["current_player"], 10 ** 40)),
    ("giant resource count", _set(["players", 0, "resources", "grain"], 10 ** 40)),
    ("giant rng counter", _set(["rng"], {"seed": 1, "counter": 10 ** 60})),
    ("float resource count", _set(["players", 0, "resources", "wool"], 1.5)),
    ("boolean resource count", _set(["players", 0, "resources", "wool"], True)),
    ("string number", _set(["current_player"], "0")),
    ("robber far off the board", _set(["robber"], [FAR, -FAR])),
    ("robber with three coordinates", _set(["robber"], [0, 0, 0])),
    ("settlement far off the board", _set(["pieces"], {"settlements": [{"player": 0, "node": [FAR, FAR, "N"]}],
                                                        "cities": [], "roads": [], "ships": []})),
    ("road far off the board", _set(["pieces"], {"settlements": [], "cities": [], "ships": [],
                                                 "roads": [{"player": 0, "edge": [-FAR, FAR, "E"]}]})),
    ("road on an unknown side", _set(["pieces"], {"settlements": [], "cities": [], "ships": [],
                                                  "roads": [{"player": 0, "edge": [0, 0, "W"]}]})),
    ("hex far off", lambda st: st["board"]["hexes"].append({"q": FAR, "r": FAR, "terrain": "forest", "number": 6})),
    ("hex with a giant number token", lambda st: st["board"]["hexes"][0].update(number=10 ** 30)),
    ("unknown terrain", lambda st: st["board"]["hexes"][0].update(terrain="lava\u0000")),
    ("scenario with a zero-width space", _set(["scenario"], "base\u200b")),
    ("scenario with an RTL override", _set(["scenario"], "\u202eesab")),
    ("scenario as a lone surrogate", _set(["scenario"], "\ud800")),
    ("lone surrogate in scenario_state", _set(["scenario_state"], {"note": "x\udc00y"})),
    ("lone surrogate as an option key", _set(["options"], {"\ud800": True})),
    ("phase that does not exist", _set(["phase"], "\U0001F3B2")),
    ("players: none", _set(["players"], [])),
    ("players: 1000", lambda st: st.update(players=[st["players"][0]] * 1000)),
    ("hexes: 50k", lambda st: st["board"].update(hexes=[{"q": i, "r": 0, "terrain": "sea", "number": None}
                                                        for i in range(50_000)])),
    ("state: a list", lambda st: (st.clear())),
]


def _semantic_entries(path: str) -> list[dict]:
    out = []
    for name, fn in _SEMANTIC:
        st = _mutated(fn)
        if name == "state: a list":
            st = []
        out.append({"name": f"{path} {name}", "path": path, "data": _raw(_wrap(path, st)),
                    "ctype": "application/json"})
    return out


def _action_entries() -> list[dict]:
    """Hostile actions on a valid position (adjudicate and replay)."""
    acts = [
        ("action: settlement far off the board", {"type": "build_settlement", "player": 0, "node": [FAR, 0, "N"]}),
        ("action: giant player", {"type": "end_turn", "player": 10 ** 30}),
        ("action: negative player", {"type": "end_turn", "player": -1}),
        ("action: negative discard", {"type": "discard", "player": 0,
                                      "resources": {"lumber": -3, "brick": 0, "wool": 0, "grain": 0, "ore": 0}}),
        ("action: negative trade", {"type": "maritime_trade", "player": 0, "give": {"ore": -4}, "get": {"wool": 1}}),
        ("action: dice 0 and 99", {"type": "roll", "player": 0, "dice": [0, 99]}),
        ("action: unknown type", {"type": "launch_rocket", "player": 0}),
        ("action: type with NUL", {"type": "end_turn\u0000", "player": 0}),
        ("action: road on a 1000-element edge", {"type": "build_road", "player": 0, "edge": [0] * 1000}),
    ]
    out = []
    for name, a in acts:
        out.append({"name": f"/v1/adjudicate {name}", "path": "/v1/adjudicate",
                    "data": _raw({"state": _STATE, "action": a}), "ctype": "application/json"})
        out.append({"name": f"/v1/replay {name}", "path": "/v1/replay",
                    "data": _raw({"state": _STATE, "actions": [a]}), "ctype": "application/json"})
    out.append({"name": "/v1/replay 20001 actions", "path": "/v1/replay", "ctype": "application/json",
                "data": _raw({"state": _STATE, "actions": [{"type": "end_turn", "player": 0}] * 20_001})})
    out.append({"name": "/v1/legal-actions giant player", "path": "/v1/legal-actions", "ctype": "application/json",
                "data": _raw({"state": _STATE, "player": 10 ** 30})})
    out.append({"name": "/v1/legal-actions negative player", "path": "/v1/legal-actions",
                "ctype": "application/json", "data": _raw({"state": _STATE, "player": -1})})
    games = [
        ("new game: negative players", {"players": -3}),
        ("new game: giant seed", {"players": 3, "seed": 10 ** 40}),
        ("new game: negative seed", {"players": 3, "seed": -1}),
        ("new game: unknown scenario", {"players": 3, "scenario": "\u202eesab"}),
        ("new game: 1000 options", {"players": 3, "options": {f"o{i}": True for i in range(1000)}}),
        ("new game: float players", {"players": 3.5}),
    ]
    for name, body in games:
        out.append({"name": f"/v1/games {name}", "path": "/v1/games", "data": _raw(body),
                    "ctype": "application/json"})
    return out


def _tde_entries() -> list[dict]:
    """Hostile actions of the Treasures, Dragons & Explorers types on their own scenarios, and hostile
    values in those scenarios' data (rewards owed, kept tokens, special ports, dragons, the reserve)."""
    games = {sid: dump_state(get_scenario(sid).new_game(3, 7)) for sid in ("TDE1", "TDE2", "TDE3", "TDE4")}
    acts = [
        ("TDE1", "claim: 3 free pieces", {"type": "claim_reward", "player": 0,
                                          "pieces": [{"kind": "road", "edge": [0, 0, "E"]}] * 3}),
        ("TDE1", "claim: negative resources", {"type": "claim_reward", "player": 0, "resources": {"ore": -2}}),
        ("TDE1", "claim: a wall", {"type": "claim_reward", "player": 0,
                                   "pieces": [{"kind": "wall", "edge": [0, 0, "E"]}]}),
        ("TDE1", "claim: 1000 discoveries", {"type": "claim_reward", "player": 0,
                                             "discoveries": [{"terrain": "sea"}] * 1000}),
        ("TDE1", "claim: a ship far off", {"type": "claim_reward", "player": 0,
                                           "pieces": [{"kind": "ship", "edge": [FAR, 0, "E"]}]}),
        ("TDE2", "special port far off", {"type": "attach_special_port", "player": 0, "node": [FAR, 0, "N"],
                                          "resource": "ore"}),
        ("TDE2", "special port of gold", {"type": "attach_special_port", "player": 0, "node": [0, 0, "N"],
                                          "resource": "gold"}),
        ("TDE4", "steal from a giant player", {"type": "steal_card", "player": 0, "steal_from": 10 ** 30}),
        ("TDE4", "knight on a 1000-element hex", {"type": "play_knight", "player": 0, "hex": [0] * 1000}),
        ("TDE3", "1000 token sources", {"type": "build_ship", "player": 0, "edge": [0, 0, "E"],
                                        "token_from": [[0, 0]] * 1000}),
    ]
    out = [{"name": f"/v1/adjudicate {sid} {name}", "path": "/v1/adjudicate", "ctype": "application/json",
            "data": _raw({"state": games[sid], "action": a})} for sid, name, a in acts]
    states = [
        ("TDE1", "a reward of 10^30", ["pending"], [{"player": 0, "kind": "resources", "count": 10 ** 30,
                                                     "source": "board", "rule": "TDE1-011"}]),
        ("TDE1", "a treasure on a hex", ["treasures"], [{"node": [FAR, 0], "kind": "resources"}]),
        ("TDE1", "5000 treasures in stock", ["treasure_stock"], ["resources"] * 5000),
        ("TDE2", "-1 kept", ["kept"], {"0": -1}),
        ("TDE2", "a port far off", ["special_ports"], {"0": {"node": [FAR, 0, "N"], "edge": [FAR, 0, "E"],
                                                             "resource": "ore"}}),
        ("TDE4", "10^30 dragons", ["desert_dragons"], {"1,2": 10 ** 30}),
        ("TDE4", "dragons on no desert", ["desert_dragons"], {"99,99": 1}),
        ("TDE4", "1000 dragons", ["dragons"], [[1, 3]] * 1000),
        ("TDE4", "-5 gathered", ["gathered"], -5),
        ("TDE3", "a token 99", ["token_pile"], [99]),
    ]
    for sid, name, path, value in states:
        st = copy.deepcopy(games[sid])
        st["scenario_state"][path[0]] = value
        for endpoint in ("/v1/derive", "/v1/render"):
            out.append({"name": f"{endpoint} {sid} {name}", "path": endpoint, "ctype": "application/json",
                        "data": _raw({"state": st})})
    return out


CATALOGUE: list[dict] = (
    [e for p in BODY_ENDPOINTS for e in _body_entries(p)]
    + [e for p in STATE_ENDPOINTS for e in _semantic_entries(p)]
    + _action_entries()
    + _tde_entries()
)


def send(client, entry: dict):
    headers = {} if entry["ctype"] is None else {"Content-Type": entry["ctype"]}
    return client.post(entry["path"], data=entry["data"], headers=headers)


@pytest.fixture(scope="module")
def hostile_client():
    return create_app({"TESTING": True}).test_client()


def test_the_catalogue_covers_every_body_endpoint_and_category():
    assert len(CATALOGUE) > 400
    for p in BODY_ENDPOINTS:
        assert sum(e["path"] == p for e in CATALOGUE) >= 40


@pytest.mark.parametrize("entry", CATALOGUE, ids=[e["name"] for e in CATALOGUE])
def test_every_hostile_input_is_a_quick_4xx_problem(hostile_client, entry):
    t = time.perf_counter()
    r = send(hostile_client, entry)
    ms = (time.perf_counter() - t) * 1e3
    assert 400 <= r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.mimetype == "application/problem+json", r.mimetype
    body = r.get_json()
    assert body["status"] == r.status_code and body["detail"]
    assert ms < SLOW_MS, f"{ms:.0f} ms"
