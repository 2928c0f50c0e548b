"""Peak memory and CPU of one request, for the largest hostile bodies the limits admit.

    .venv/bin/python bench/request_memory.py                 # every body, this checkout
    .venv/bin/python bench/request_memory.py --compare DIR   # the same bodies on another checkout, same run
    .venv/bin/python bench/request_memory.py --only replay   # the bodies whose name holds "replay"

The app is made and warmed up (a few ordinary requests) once; then for each body a forked child (so every
body starts from the same idle worker) resets its peak resident memory (``/proc/self/clear_refs``, 5),
posts the body straight into the WSGI app (as gunicorn hands it over: no HTTP) and reports its peak
(``VmHWM``) above its resident memory just before, the CPU seconds the request took and the status.

The bodies (``BODIES``) fill the body limits (``MAX_BODY_BYTES``, 2 MiB; ``REPLAY_MAX_BODY_BYTES``,
8 MiB) with what costs most per byte once parsed: long arrays of numbers, of short distinct strings, of
empty containers, of floats, of objects, in each free-form part of a state (``scenario_state``,
``options``), in the board, the players, an action's lists, a replay's actions, at the top level, and
with escapes (which the strict parser reads). Target (issue 31): every peak under 64 MB above idle, every
answer a 4xx problem, no CPU past the request budget.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
LIMIT_MB = 64.0


#: The value counts of ``service/api/body.py`` (``MAX_VALUES``, ``REPLAY_MAX_VALUES``): the bodies stop at
#: them too, so that each is one the limits admit (the same bodies for every checkout compared).
MAX_VALUES, REPLAY_MAX_VALUES = 100_000, 500_000


def _values(b: bytes) -> int:
    return b.count(b",") + b.count(b":") + b.count(b"[") + b.count(b"{")


def _fill(prefix: bytes, item, suffix: bytes, limit: int, sep: bytes = b",", values: int | None = None) -> bytes:
    """``prefix`` + as many items (``item(i)`` -> bytes) as fit under ``limit`` bytes (and ``values`` JSON
    values: the replay's count with a replay's byte limit, else the other endpoints') + ``suffix``."""
    most = values if values is not None else (REPLAY_MAX_VALUES if limit > 2 * MIB else MAX_VALUES)
    parts, size, i = [], len(prefix) + len(suffix) + 16, 0
    count = 1 + _values(prefix) + _values(suffix) + 8
    while True:
        b = item(i)
        n = _values(b) + len(sep)
        if size + len(b) + 1 > limit or count + n > most:
            break
        parts.append(b)
        size += len(b) + 1
        count += n
        i += 1
    return prefix + sep.join(parts) + suffix


def bodies() -> list[tuple[str, str, bytes]]:
    """(name, path, body) of every body measured."""
    from service.api.codec import dump_state
    from service.engine.scenarios import get_scenario
    st = dump_state(get_scenario("base").new_game(3, 7))
    small, big = 2 * MIB, 8 * MIB

    def in_state(key: str, limit: int, path: str = "/v1/adjudicate", extra: bytes = b""):
        """A body whose state's ``key`` is the array filled in (``scenario_state``: under a key)."""
        head = json.dumps({k: v for k, v in st.items() if k != key})[:-1].encode()
        if key in ("scenario_state", "options"):
            pre = head + b', "' + key.encode() + b'": {"x": ['
            end = b"]}}"
        else:
            pre = head + b', "' + key.encode() + b'": ['
            end = b"]}"
        return (b'{"state": ' + pre, end + extra + b"}")

    out: list[tuple[str, str, bytes]] = []
    fills = {
        "zeros": lambda i: b"0",
        "distinct integers": lambda i: str(100000 + i).encode(),
        "floats": lambda i: b"1.5",
        "short strings": lambda i: b'"%x"' % i,
        "escaped strings": lambda i: b'"\\u00%02x"' % (0x41 + i % 26),
        "empty arrays": lambda i: b"[]",
        "empty objects": lambda i: b"{}",
        "small objects": lambda i: b'{"a":%d}' % i,
        "15-digit integers": lambda i: str(100_000_000_000_000 + i).encode(),
        "20-character strings": lambda i: b'"%020x"' % i,
        "1,000-character strings": lambda i: b'"%01000x"' % i,
    }
    for what, item in fills.items():
        pre, end = in_state("scenario_state", small)
        out.append((f"adjudicate: scenario_state of {what}", "/v1/adjudicate", _fill(pre, item, end, small)))
    for key in ("options", "players"):
        pre, end = in_state(key, small)
        out.append((f"adjudicate: {key} of zeros", "/v1/adjudicate", _fill(pre, fills["zeros"], end, small)))
    pre, end = in_state("players", small, extra=b"")
    out.append(("adjudicate: players of small objects", "/v1/adjudicate",
                _fill(pre, fills["small objects"], end, small)))
    board = json.dumps(st["board"]["hexes"][0]).encode()
    head = json.dumps({k: v for k, v in st.items() if k != "board"})[:-1].encode()
    out.append(("adjudicate: board of hexes", "/v1/adjudicate",
                _fill(b'{"state": ' + head + b', "board": {"hexes": [', lambda i: board, b"]}}}", small)))
    out.append(("adjudicate: state as an array of zeros", "/v1/adjudicate",
                _fill(b'{"state": [', fills["zeros"], b"]}", small)))
    out.append(("adjudicate: unknown top-level key of strings", "/v1/adjudicate",
                _fill(b'{"state": ' + json.dumps(st).encode() + b', "junk": [', fills["short strings"], b"]}",
                      small)))
    out.append(("adjudicate: action list of edges", "/v1/adjudicate",
                _fill(b'{"state": ' + json.dumps(st).encode() + b', "action": {"type": "build_road", "player": 0, '
                      b'"edge": [', fills["zeros"], b"]}}", small)))
    out.append(("adjudicate: an object of 100k keys", "/v1/adjudicate",
                _fill(b'{"state": {"scenario_state": {', lambda i: b'"k%d":0' % i, b"}}}", small)))
    out.append(("legal-actions: scenario_state of short strings", "/v1/legal-actions",
                _fill(in_state("scenario_state", small)[0], fills["short strings"], in_state("scenario_state", small)[1],
                      small)))
    out.append(("render: scenario_state of zeros", "/v1/render",
                _fill(in_state("scenario_state", small)[0], fills["zeros"], in_state("scenario_state", small)[1],
                      small)))
    out.append(("games: options of zeros", "/v1/games",
                _fill(b'{"players": 3, "options": {"x": [', fills["zeros"], b"]}}", small)))
    state = json.dumps(st).encode()
    for what in ("zeros", "short strings", "floats", "empty objects", "escaped strings", "15-digit integers",
                 "20-character strings", "small objects"):
        out.append((f"replay: actions of {what}", "/v1/replay",
                    _fill(b'{"state": ' + state + b', "actions": [', fills[what], b"]}", big)))
    out.append(("replay: 20,000 actions with long lists", "/v1/replay",
                _fill(b'{"state": ' + state + b', "actions": [', lambda i: b'{"type": "build_road", "player": 0, '
                      b'"edge": [' + b",".join([b"0"] * 20) + b"]}", b"]}", big)))
    out.append(("replay: 20,000 road-building actions", "/v1/replay",
                _fill(b'{"state": ' + state + b', "actions": [', lambda i: b'{"type":"play_road_building",'
                      b'"player":0,"pieces":[{"kind":"road","edge":[0,0,"NE"]},{"kind":"ship","edge":[%d,0,"E"]}]}'
                      % (i % 60),
                      b"]}", big)))
    out.append(("replay: end_turn actions past 20,000", "/v1/replay",
                _fill(b'{"state": ' + state + b', "actions": [', lambda i: b'{"type":"end_turn","player":0}', b"]}",
                      big)))
    pre = b'{"actions": [], "state": ' + in_state("scenario_state", big)[0][len(b'{"state": '):]
    out.append(("replay: scenario_state of zeros", "/v1/replay",
                _fill(pre, fills["zeros"], in_state("scenario_state", big)[1], big)))
    for name, _path, b in out:
        assert len(b) <= (big if _path == "/v1/replay" else small), (name, len(b))
    return out


def _status(pid: int | str = "self") -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1])
    return out


def measure(root: Path, only: str | None) -> list[dict]:
    """Run in a fresh interpreter with ``root`` first on the path: every body's figures, as JSON lines."""
    sys.path.insert(0, str(root))
    os.chdir(root)
    from werkzeug.test import EnvironBuilder
    from service.api import create_app
    app = create_app({"TESTING": False})
    chosen = [b for b in bodies() if only is None or only in b[0]]

    def post(path: str, body: bytes) -> tuple[str, bytes]:
        env = EnvironBuilder(path=path, method="POST", data=body, content_type="application/json").get_environ()
        env["wsgi.input"] = io.BytesIO(body)
        status: list[str] = []
        out = app(env, lambda s, h, e=None: status.append(s))
        data = b"".join(out)
        getattr(out, "close", lambda: None)()
        return status[0], data

    from service.api.codec import dump_state
    from service.engine.scenarios import get_scenario
    ok = json.dumps({"state": dump_state(get_scenario("base").new_game(3, 7)),
                     "action": {"type": "end_turn", "player": 0}}).encode()
    for _ in range(20):       # warm: imports, caches, the allocator's first arenas
        post("/v1/adjudicate", ok)
    results = []
    for name, path, body in chosen:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                with open("/proc/self/clear_refs", "w") as f:
                    f.write("5")
                idle = _status()["VmRSS"]
                c0, t0 = time.thread_time(), time.perf_counter()
                status, data = post(path, body)
                cpu, wall = time.thread_time() - c0, time.perf_counter() - t0
                peak = _status()["VmHWM"]
                detail = ""
                try:
                    detail = json.loads(data).get("detail", "")[:90]
                except Exception:
                    pass
                msg = {"name": name, "bytes": len(body), "status": status.split()[0], "idle_mb": idle / 1024,
                       "peak_above_idle_mb": (peak - idle) / 1024, "cpu_s": cpu, "wall_s": wall, "detail": detail}
            except BaseException as e:   # noqa: BLE001 (reported, not raised: the parent reads the pipe)
                msg = {"name": name, "error": repr(e)}
            os.write(w, json.dumps(msg).encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            got = f.read()
        os.waitpid(pid, 0)
        results.append(json.loads(got))
    return results


def run(root: Path, only: str | None) -> list[dict]:
    env = {**os.environ}
    env.pop("REDIS_URL", None)
    out = subprocess.run([sys.executable, __file__, "--measure", str(root), "--only", only or ""], cwd=root,
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", help="another checkout: the same bodies measured there too, in this run")
    ap.add_argument("--only", help="only the bodies whose name holds this text")
    ap.add_argument("--json")
    ap.add_argument("--measure", help=argparse.SUPPRESS)    # (the child: measure this checkout, print JSON)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.only or None)))
        return
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    roots = [ROOT] + ([Path(args.compare).resolve()] if args.compare else [])
    # (this bench module is run from this checkout against each root: the bodies are the same)
    results = {str(r): run(r, args.only) for r in roots}
    worst = {}
    for root, res in results.items():
        print(f"\n{root}")
        print(f"  {'body':52} {'MiB':>5} {'status':>6} {'peak MB':>8} {'CPU s':>6}")
        for x in res:
            if "error" in x:
                print(f"  {x['name']:52} ERROR {x['error']}")
                continue
            print(f"  {x['name']:52} {x['bytes'] / MIB:5.2f} {x['status']:>6} {x['peak_above_idle_mb']:8.1f} "
                  f"{x['cpu_s']:6.2f}  {x['detail'][:60]}")
        ok = [x for x in res if "error" not in x]
        worst[root] = (max(x["peak_above_idle_mb"] for x in ok), max(x["cpu_s"] for x in ok),
                       sum(not x["status"].startswith("4") for x in ok))
        print(f"  worst peak above idle {worst[root][0]:.1f} MB (target < {LIMIT_MB:g}); worst CPU "
              f"{worst[root][1]:.2f} s; answers not 4xx: {worst[root][2]}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
