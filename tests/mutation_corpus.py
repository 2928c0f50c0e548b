"""Real requests with one leaf or container changed, for the mutation property test and its long run.

Positions come from seeded random games of every scenario that starts a game (``selfplay.play_game``),
sampled along each game so every phase shows up; each becomes a valid body for every endpoint that takes
one (the action actually played from it, for those that take an action). A mutation then changes exactly
one place of the body, found by its path: a leaf or a whole container, in one of these ways (``KINDS``):
wrong type, null, huge number, negative, empty, very long, duplicate, off-board, removed, unknown key
added, float, or (for the raw text) a key given twice.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any, Callable

Path = tuple  # keys and indices from the body's root

ENDPOINTS = ("/v1/adjudicate", "/v1/derive", "/v1/scenarios/{sid}/check", "/v1/legal-actions", "/v1/render",
             "/v1/replay", "/v1/games")
KINDS = ("wrong type", "null", "huge number", "negative", "empty", "very long", "duplicate", "off-board",
         "removed", "unknown key", "float", "key twice")
GAMES_PER_SCENARIO = 1
POSITIONS_PER_GAME = 6


@lru_cache(maxsize=None)
def positions() -> tuple[tuple[str, int, dict, dict, list], ...]:
    """(scenario, players, state JSON, the action played from it as JSON, the next few actions)."""
    from service.api.codec import dump_state
    from service.engine.legal import action_json
    from service.engine.selfplay import play_game, playable_scenarios
    out = []
    for sid, n in playable_scenarios():
        for seed in range(1, GAMES_PER_SCENARIO + 1):
            steps: list = []
            play_game(sid, n, 40 + seed, max_actions=160, check=False,
                      on_step=lambda s, a, v: steps.append((s, a)))
            if not steps:
                continue
            every = max(1, len(steps) // POSITIONS_PER_GAME)
            for i in range(0, len(steps), every):
                s, a = steps[i]
                following = [action_json(x) for _, x in steps[i:i + 4]]
                out.append((sid, n, dump_state(s), action_json(a), following))
    return tuple(out)


def body_for(endpoint: str, pos: tuple) -> tuple[str, dict]:
    """(the request path, a valid body) of ``endpoint`` at position ``pos``."""
    sid, n, state, action, following = pos
    state = copy.deepcopy(state)
    if endpoint == "/v1/adjudicate":
        return endpoint, {"state": state, "action": copy.deepcopy(action)}
    if endpoint == "/v1/derive":
        return endpoint, {"state": state}
    if endpoint == "/v1/scenarios/{sid}/check":
        return f"/v1/scenarios/{sid}/check", {"state": state}
    if endpoint == "/v1/legal-actions":
        return endpoint, {"state": state, "player": action["player"]}
    if endpoint == "/v1/render":
        return endpoint, {"state": state, "action": copy.deepcopy(action), "highlight": {"route_of": 0}}
    if endpoint == "/v1/replay":
        return endpoint, {"state": state, "actions": copy.deepcopy(following), "digests": "each", "events": True}
    return endpoint, {"scenario": sid, "players": n, "seed": 7, "options": dict(state.get("options") or {})}


def places(body: Any) -> list[Path]:
    """Every leaf and container of ``body`` but the root, by path, in a fixed order."""
    out: list[Path] = []
    stack: list[tuple[Any, Path]] = [(body, ())]
    while stack:
        x, path = stack.pop()
        if path:
            out.append(path)
        if isinstance(x, dict):
            stack.extend((v, path + (k,)) for k, v in reversed(list(x.items())))
        elif isinstance(x, list):
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(x))))
    return out


def _get(body: Any, path: Path) -> Any:
    for k in path:
        body = body[k]
    return body


def _wrong_type(v: Any) -> Any:
    if isinstance(v, bool):
        return "true"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return 1
    if isinstance(v, list):
        return {"0": v[0]} if v else {}
    if isinstance(v, dict):
        return list(v.values())
    return 0


def _very_long(v: Any) -> Any:
    if isinstance(v, str):
        return v * (10_000 // max(1, len(v)) + 1)
    if isinstance(v, list):
        return (v * (2_000 // max(1, len(v)) + 1))[:2_000] if v else [0] * 2_000
    if isinstance(v, dict):
        return {**v, **{f"extra{i}": i for i in range(2_000)}}
    return 10 ** 4000 if isinstance(v, int) else "x" * 10_000


def _off_board(v: Any) -> Any:
    if isinstance(v, list) and len(v) in (2, 3) and all(isinstance(x, int) for x in v[:2]):
        return [99, -99] + v[2:]
    if isinstance(v, int) and not isinstance(v, bool):
        return v + 1000
    if isinstance(v, str):
        return "ZZ"
    return [65, 65]


def mutate(body: dict, path: Path, kind: str) -> tuple[dict | None, bytes | None]:
    """``body`` with the place at ``path`` changed in the way ``kind``: (the new body, None), or (None,
    raw JSON text) for a change JSON values cannot hold (a key given twice)."""
    b = copy.deepcopy(body)
    parent, key = _get(b, path[:-1]), path[-1]
    v = parent[key]
    change: dict[str, Callable[[Any], Any]] = {
        "wrong type": _wrong_type,
        "null": lambda v: None,
        "huge number": lambda v: 2 ** 64 + 1 if not isinstance(v, float) else 1e308,
        "negative": lambda v: -v - 1 if isinstance(v, int) and not isinstance(v, bool) else -1,
        "empty": lambda v: type(v)() if isinstance(v, (str, list, dict)) else "",
        "very long": _very_long,
        "off-board": _off_board,
        "float": lambda v: v + 0.5 if isinstance(v, int) and not isinstance(v, bool) else 0.5,
    }
    if kind in change:
        parent[key] = change[kind](v)
    elif kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(v))
        elif isinstance(v, list) and v:
            v.append(copy.deepcopy(v[-1]))
        elif isinstance(v, dict) and v:
            k0 = next(iter(v))
            v[k0 + "_copy"] = copy.deepcopy(v[k0])
        else:
            parent[key] = [v, v]
    elif kind == "removed":
        if isinstance(parent, list):
            parent.pop(key)
        else:
            del parent[key]
    elif kind == "unknown key":
        if isinstance(v, dict):
            v["unexpected"] = 1
        elif isinstance(parent, dict):
            parent["unexpected_" + str(key)] = v
        else:
            parent.append({"unexpected": 1})
    elif kind == "key twice":
        if not isinstance(parent, dict):
            return mutate(body, path, "duplicate")
        text = json.dumps(b)
        inner = json.dumps({key: v})[1:-1]
        target = json.dumps(parent)
        if target not in text:
            return mutate(body, path, "duplicate")
        spliced = target[:-1] + (", " if parent else "") + inner + "}"
        return None, text.replace(target, spliced, 1).encode()
    else:
        raise ValueError(kind)
    return b, None


def judge(client, endpoint: str, body: dict | None, raw: bytes | None) -> tuple[bool, str]:
    """(whether the answer is acceptable, why not): a 200, or a 4xx application/problem+json naming the
    field (a JSON pointer) or the body; never a 5xx."""
    data = raw if raw is not None else json.dumps(body).encode()
    r = client.post(endpoint, data=data, content_type="application/json")
    if r.status_code >= 500:
        return False, f"HTTP {r.status_code}: {r.get_data(as_text=True)[:300]}"
    if r.status_code == 200 or r.status_code == 201:
        return True, ""
    if r.mimetype != "application/problem+json":
        return False, f"HTTP {r.status_code} as {r.mimetype}"
    p = r.get_json()
    if r.status_code == 422:
        errs = p.get("errors") or []
        if not errs or not all(str(e.get("pointer", "")).startswith("/") and e.get("detail") for e in errs):
            return False, f"422 without a pointer: {p}"
    elif not p.get("detail"):
        return False, f"HTTP {r.status_code} without a detail: {p}"
    return True, ""
