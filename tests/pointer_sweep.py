"""One-field mutations of real positions and where the answer points.

A position of a seeded game of every scenario (``mutation_corpus.positions``) is posted to
``/v1/adjudicate`` with the action played from it, one leaf of the state or the action changed to another
value of its own type (a number moved by one or a few, a flag flipped, a name swapped for another name the
same key takes elsewhere in the body). When the answer refuses the body (a 422), one of its pointers must
name the changed field: the field itself, a container holding it, or a place inside it. A broken sum
(cards in hands and in the bank, pieces on the board and in supply) names both sides, so either side
changed is named.

``sweep(n, seed)`` returns ``(cases, refused, missed, misses)``: how many answers pointed elsewhere, and the
first 200 of them. Used by ``tests/test_pointer_sweep.py`` (a small budget) and ``bench/pointer_sweep.py``.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any, Iterator

from .mutation_corpus import places, positions

Path = tuple


def _esc(k: Any) -> str:
    return str(k).replace("~", "~0").replace("/", "~1")


def pointer(path: Path) -> str:
    return "".join("/" + _esc(k) for k in path)


def _get(body: Any, path: Path) -> Any:
    for k in path:
        body = body[k]
    return body


def _strings_by_key(body: Any) -> dict[Any, list[str]]:
    """Every string value of ``body`` by the key (or, in a list, the key of the list) it stands under."""
    out: dict[Any, set] = {}
    stack: list[tuple[Any, Any]] = [(body, None)]
    while stack:
        x, key = stack.pop()
        if isinstance(x, dict):
            stack.extend((v, k) for k, v in x.items())
        elif isinstance(x, list):
            stack.extend((v, key) for v in x)
        elif isinstance(x, str):
            out.setdefault(key, set()).add(x)
    return {k: sorted(v) for k, v in out.items()}


def changes(value: Any, key: Any, names: dict[Any, list[str]], rng: random.Random) -> list[Any]:
    """Other values of ``value``'s own type."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        out = [value + 1, value + rng.randint(2, 5)]
        if value > 0:
            out.append(value - 1)
        return out
    if isinstance(value, str):
        return [x for x in names.get(key, ()) if x != value][:3]
    return []


def cases(pos: tuple, rng: random.Random, per_position: int) -> Iterator[tuple[Path, dict]]:
    """``per_position`` bodies of ``/v1/adjudicate`` at ``pos``, each with one leaf changed."""
    sid, n, state, action, _following = pos
    body = {"state": state, "action": action}
    names = _strings_by_key(body)
    leaves = [p for p in places(body) if not isinstance(_get(body, p), (dict, list))]
    for path in rng.sample(leaves, min(per_position, len(leaves))):
        parent_key = next((k for k in reversed(path) if isinstance(k, str)), None)
        for new in changes(_get(body, path), parent_key, names, rng)[:1]:
            b = copy.deepcopy(body)
            _get(b, path[:-1])[path[-1]] = new
            yield path, b


def names_the_field(pointers: list[str], changed: str) -> bool:
    for p in pointers:
        if p == changed or p.startswith(changed + "/"):
            return True
        if changed.startswith(p + "/") and p.count("/") >= 2:      # a container of it, below /state or /action
            return True
    return False


def sweep(n: int, seed: int = 1, client: Any = None, keep: int = 200) -> tuple[int, int, int, list[dict]]:
    if client is None:
        from service.api import create_app
        client = create_app({"TESTING": True}).test_client()
    rng = random.Random(seed)
    pos = list(positions())
    total = refused = 0
    misses: list[dict] = []
    miss_count = 0
    per_position = max(1, -(-n // len(pos)))
    for p in rng.sample(pos, len(pos)):
        for path, body in cases(p, rng, per_position):
            if total >= n:
                break
            total += 1
            r = client.post("/v1/adjudicate", data=json.dumps(body), content_type="application/json")
            if r.status_code != 422:
                continue
            refused += 1
            errs = (r.get_json() or {}).get("errors") or []
            ptrs = [str(e.get("pointer", "")) for e in errs]
            if not names_the_field(ptrs, pointer(path)):
                miss_count += 1
                if len(misses) < keep:
                    misses.append({"scenario": p[0], "changed": pointer(path), "pointers": ptrs[:4],
                                   "detail": (errs[0].get("detail") if errs else "")[:160]})
    return total, refused, miss_count, misses


__all__ = ["sweep", "names_the_field", "pointer", "cases"]
