"""Load benchmark: gunicorn (2 workers) on loopback, with no Redis, Redis up and Redis down, side by side,
and the floor: a bare WSGI app under the same gunicorn settings.

    bench/load/run.sh [--duration 2] [--rounds 7] [--connections 8] [--boards 48] [--mix midgame|setup]
                      [--l1 N] [--generator auto|wrk|python]

Every run is bounded: --rounds passes over the configurations, each a window of ``--duration`` seconds
of load (the Python generator also stops after ``--max-requests``), after a warm-up; servers are started
on free 127.0.0.1 ports and stopped at the end. All four run at once and take the load in turn, so a
burst of other work on the machine touches each alike; medians over the windows are reported, and the
referee's CPU time per request as a multiple of the floor's, a ratio that carries between machines.
"Redis up" uses a private redis-server on a free port (emptied first), "Redis down" a port where nothing
answers. Load: POST /v1/adjudicate, each request one of ``--boards`` games (a distinct board each),
chosen at random. Hit rates come from /metrics (multiprocess mode adds up both workers), over the
measured windows only.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
PY = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
FLOOR_APP = "floor_app:app"
TARGET_RPS = 1500           # issue target: adjudications per second on 2 cores
TARGET_REDIS_DOWN = 0.80    # Redis down keeps at least this share of the no-Redis throughput

LUA = """
local bodies = {}
for line in io.lines(os.getenv("BENCH_BODIES")) do bodies[#bodies + 1] = line end
local tags = {}
local tagfile = os.getenv("BENCH_TAGS")
if tagfile and tagfile ~= "" then
  for line in io.lines(tagfile) do tags[#tags + 1] = line end
end
local plain = {["Content-Type"] = "application/json"}
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
request = function()
  local i = math.random(#bodies)
  local headers = plain
  if #tags > 0 then
    headers = {["Content-Type"] = "application/json", ["State-Tag"] = tags[i]}
  end
  return wrk.format("POST", "/v1/adjudicate", headers, bodies[i])
end
"""
#: The state-tag key the benchmark's servers are given (``--tagged``: the bodies carry the tags of their
#: states, as a client posting back the states the service returned would).
BENCH_STATE_KEY = "load-bench-state-key"


def tags_of(root: Path, bodies_file: str, out: str) -> tuple[str, list[str]]:
    """The ``State-Tag`` of each body's state as the checkout ``root`` makes it (its own Python, its code
    digest) under :data:`BENCH_STATE_KEY`, written one a line to ``out``: (``out``, the tags)."""
    script = ("import json, sys; from service.api import integrity; "
              f"integrity.set_key({BENCH_STATE_KEY.encode()!r}); "
              "print('\\n'.join(integrity.tag_of(json.loads(line)['state']) for line in open(sys.argv[1]) if line.strip()))")
    text = subprocess.run([str(root / ".venv" / "bin" / "python"), "-c", script, bodies_file], cwd=root,
                          capture_output=True, text=True, check=True, timeout=120).stdout
    Path(out).write_text(text)
    return out, text.split()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer")
        time.sleep(0.1)


def _midgame(seed: int, scenario: str = "base", players: int = 4) -> dict:
    """A position 60-160 actions into a seeded random game, with the action played next."""
    from service.api.codec import dump_state
    from service.engine.legal import action_json
    from service.engine.selfplay import play_game
    seen: list = []
    play_game(scenario, players, seed, max_actions=60 + seed * 37 % 100, check=False,
              on_step=lambda s, a, v: seen.append((s, a)))
    state, action = seen[-1]
    return {"state": dump_state(state), "action": action_json(action)}


def _seafarers(seed: int) -> dict:
    """:func:`_midgame` of the Seafarers scenarios in turn (every map and player count that can start)."""
    from service.engine.selfplay import playable_scenarios
    pairs = [p for p in playable_scenarios() if p[0] != "base"]
    sid, players = pairs[seed % len(pairs)]
    return _midgame(seed, sid, players)


def make_bodies(n: int, mix: str = "midgame") -> list[str]:
    """``n`` request bodies, each on its own board: ``setup`` a new 4-player base game and its first
    settlement; ``midgame`` a position of a seeded random base game and the action played there;
    ``seafarers`` the same over the Seafarers scenarios and their player counts in turn."""
    import logging
    from service.api import create_app
    c = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    logging.getLogger("seafarers").setLevel(logging.WARNING)  # no request log lines for the set-up
    out = []
    for seed in range(1, n + 1):
        if mix == "midgame":
            body = _midgame(seed)
        elif mix == "seafarers":
            body = _seafarers(seed)
        else:
            st = c.post("/v1/games", json={"scenario": "base", "players": 4, "seed": seed}).json["state"]
            body = {"state": st, "action": {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]}}
        r = c.post("/v1/adjudicate", json=body)
        assert r.status_code == 200, r.get_data(as_text=True)
        out.append(json.dumps(body, separators=(",", ":")))
    return out


class Redis:
    def __init__(self, workdir: str) -> None:
        self.port = free_port()
        self.dir = workdir
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.dir, "--logfile", ""], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis
        r = redis.Redis(port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5)
        for _ in range(100):
            try:
                r.flushall()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


class Server:
    def __init__(self, redis_url: str | None, workdir: str, log, app: str = "service.api:create_app()",
                 root: Path = ROOT) -> None:
        self.port = free_port()
        self.metrics_dir = tempfile.mkdtemp(dir=workdir, prefix="metrics-")
        env = {**os.environ, "BIND": f"127.0.0.1:{self.port}", "WORKERS": "2", "THREADS": os.environ.get("BENCH_THREADS", "4"),
               "PROMETHEUS_MULTIPROC_DIR": self.metrics_dir, "LOG_LEVEL": os.environ.get("LOG_LEVEL", "info"),
               "STATE_KEY": BENCH_STATE_KEY}
        env.pop("REDIS_URL", None)
        env.pop("STATE_KEY_FILE", None)
        if redis_url:
            env["REDIS_URL"] = redis_url
        extra = ["--pythonpath", str(Path(__file__).parent)] if app == FLOOR_APP else []
        self.proc = subprocess.Popen([str(root / ".venv" / "bin" / "gunicorn"), "-c", "gunicorn.conf.py", *extra, app],
                                     cwd=root, env=env, stdout=log, stderr=log)
        wait_http(f"http://127.0.0.1:{self.port}/healthz")

    def cpu_seconds(self) -> float:
        """CPU time (user + system) of the master and its workers so far: unlike throughput, it does not
        depend on what else the machine is running."""
        pids = [self.proc.pid]
        try:
            pids += [int(x) for x in Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()]
        except OSError:
            return float("nan")
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")

    def metrics(self) -> str:
        with urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as r:
            return r.read().decode()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- load generators ----------------------------------------------------------------------------------


def run_wrk(port: int, bodies_file: str, lua_file: str, duration: float, connections: int,
            tags_file: str = "") -> dict:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{int(duration)}s", "--timeout", "2s", "--latency", "-s", lua_file,
         f"http://127.0.0.1:{port}/v1/adjudicate"],
        capture_output=True, text=True, timeout=duration + 30,
        env={**os.environ, "BENCH_BODIES": bodies_file, "BENCH_TAGS": tags_file})
    text = out.stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        if not m:
            return float("nan")
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]

    total = int(re.search(r"(\d+) requests in", text).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = re.search(r"Socket errors: (.*)", text)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)), "p50": ms("50"), "p99": ms("99"),
            "requests": total, "failed": int(bad.group(1)) if bad else 0, "socket_errors": errors.group(1) if errors else ""}


def run_python(port: int, bodies: list[str], duration: float, connections: int, max_requests: int,
               tags: list[str] | None = None) -> dict:
    lat: list[float] = []
    failed = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + duration
    budget = [max_requests]

    def worker(seed: int) -> None:
        rnd = random.Random(seed)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        mine: list[float] = []
        while time.monotonic() < deadline:
            with lock:
                if budget[0] <= 0:
                    break
                budget[0] -= 1
            t = time.perf_counter()
            i = rnd.randrange(len(bodies))
            headers = {"Content-Type": "application/json"}
            if tags:
                headers["State-Tag"] = tags[i]
            try:
                conn.request("POST", "/v1/adjudicate", bodies[i], headers)
                r = conn.getresponse()
                r.read()
                ok = r.status == 200
            except OSError:
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            mine.append(time.perf_counter() - t)
            if not ok:
                with lock:
                    failed[0] += 1
        with lock:
            lat.extend(mine)

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(duration + 10)
    took = time.monotonic() - t0
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [float("nan")] * 99
    return {"rps": len(lat) / took, "p50": q[49] * 1000, "p99": q[98] * 1000, "requests": len(lat),
            "failed": failed[0], "socket_errors": ""}


def cache_figures(metrics: str, raw: bool = False) -> dict:
    """Counters of /metrics (multiprocess mode adds up both workers): lookups by level, Redis errors."""
    def val(pattern: str) -> float:
        m = re.search(pattern, metrics, re.M)
        return float(m.group(1)) if m else 0.0
    counts = {lv: val(rf'^seafarers_graph_cache_lookups_total\{{level="{lv}"\}} (\S+)') for lv in ("l1", "l2", "computed")}
    counts["redis_errors"] = val(r"^seafarers_redis_errors_total (\S+)")
    counts["redis_skipped"] = val(r"^seafarers_redis_skipped_total (\S+)")
    return counts if raw else rates(counts)


def rates(counts: dict) -> dict:
    total = sum(counts[lv] for lv in ("l1", "l2", "computed")) or 1.0
    return {**{f"{lv}_rate": counts[lv] / total for lv in ("l1", "l2", "computed")}, "lookups": total,
            "redis_errors": counts["redis_errors"], "redis_skipped": counts["redis_skipped"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=2.0, help="seconds of load per window (max 60)")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of load per server before measuring (max 10)")
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--boards", type=int, default=48, help="distinct boards in the request mix")
    ap.add_argument("--max-requests", type=int, default=200_000, help="cap for the Python generator")
    ap.add_argument("--generator", choices=("auto", "wrk", "python"), default="auto")
    ap.add_argument("--rounds", type=int, default=7,
                    help="passes over the configurations, one window each; medians are reported (max 10)")
    ap.add_argument("--l1", type=int, default=None,
                    help="graph LRU size per worker (GRAPH_CACHE_SIZE; default the service's 256): below --boards, "
                         "lookups miss level 1 and reach Redis (or the computation)")
    ap.add_argument("--mix", choices=("midgame", "seafarers", "setup"), default="midgame",
                    help="positions of seeded random base games and their next action; the same over every "
                         "Seafarers scenario map (60-113 hexes); or new base games")
    ap.add_argument("--tagged", action="store_true",
                    help="the requests also carry each state's State-Tag (as a client posting back the states "
                         "the service returned): the referee runs twice, untagged and tagged")
    ap.add_argument("--compare", metavar="DIR",
                    help="another checkout (with its own .venv) served beside this one, in the same windows; "
                         "with --tagged its requests carry the tags its own code makes (a tag is bound to the "
                         "code that made it)")
    ap.add_argument("--no-redis", action="store_true", help="leave out the Redis up / Redis down servers")
    args = ap.parse_args()
    if args.l1 is not None:
        os.environ["GRAPH_CACHE_SIZE"] = str(max(1, args.l1))
    duration, warmup = min(args.duration, 60.0), min(args.warmup, 10.0)
    gen = args.generator
    if gen == "auto":
        gen = "wrk" if shutil.which("wrk") else "python"
    if gen == "wrk" and not shutil.which("wrk"):
        ap.error("wrk is not installed (apt-get install wrk), use --generator python")
    have_redis = shutil.which("redis-server") is not None

    work = tempfile.mkdtemp(prefix="seafarers-bench-")
    log_path = os.path.join(work, "server.log")
    bodies = make_bodies(args.boards, args.mix)
    bodies_file = os.path.join(work, "bodies.jsonl")
    Path(bodies_file).write_text("\n".join(bodies) + "\n")
    lua_file = os.path.join(work, "adjudicate.lua")
    Path(lua_file).write_text(LUA)
    # name -> (tags file, tags): a tag is bound to the code that made it (``integrity``), so the checkout
    # compared (--compare) is given the tags its own code makes
    tag_sets: dict[str, tuple[str, list[str]]] = {}
    if args.tagged:
        tag_sets["tagged"] = tags_of(ROOT, bodies_file, os.path.join(work, "tags.txt"))
        if args.compare:
            try:
                tag_sets["compare tagged"] = tags_of(Path(args.compare).resolve(), bodies_file,
                                                     os.path.join(work, "tags-compare.txt"))
            except subprocess.CalledProcessError:       # a checkout from before state tags: untagged only
                print(f"{args.compare} makes no state tags: compared untagged only", flush=True)
    print(f"generator={gen} duration={duration:g}s warmup={warmup:g}s connections={args.connections} "
          f"boards={args.boards} mix={args.mix} bytes/body={sum(map(len, bodies)) // len(bodies)} "
          f"cpus={os.cpu_count()} server=gunicorn 2 workers x {os.environ.get('BENCH_THREADS', '4')} threads", flush=True)

    def load(port: int, secs: float, name: str) -> dict:
        tags_file, tags = tag_sets.get(name, ("", None))
        if gen == "wrk":
            return run_wrk(port, bodies_file, lua_file, secs, args.connections, tags_file)
        return run_python(port, bodies, secs, args.connections, args.max_requests, tags)

    # Every configuration runs at the same time (idle servers cost nothing) and the load goes to each in
    # turn, one window at a time, for --rounds passes: a burst of other load on the machine then touches
    # every configuration alike, and the medians and the ratio to the floor hold still from run to run.
    runs: dict[str, list[dict]] = {}
    up = Redis(work) if have_redis else None
    servers: dict[str, Server] = {}
    with open(log_path, "ab") as log:
        try:
            servers["floor"] = Server(None, work, log, FLOOR_APP)
            servers["no Redis"] = Server(None, work, log)
            if args.tagged:
                servers["tagged"] = servers["no Redis"]
            if args.compare:
                other = Path(args.compare).resolve()
                servers["compare"] = Server(None, work, log, root=other)
                if "compare tagged" in tag_sets:
                    servers["compare tagged"] = servers["compare"]
            if up and not args.no_redis:
                up.start()     # empty: "Redis up" starts cold
                servers["Redis up"] = Server(f"redis://127.0.0.1:{up.port}/0", work, log)
                # configured, but nothing answers on its port (connections refused; the breaker opens)
                servers["Redis down"] = Server(f"redis://127.0.0.1:{free_port()}/0", work, log)
            for name, srv in servers.items():
                load(srv.port, max(warmup, 1.0), name)
            before = {name: cache_figures("" if name == "floor" else srv.metrics(), raw=True)
                      for name, srv in servers.items()}
            for rnd in range(1, max(1, min(args.rounds, 10)) + 1):
                for name, srv in servers.items():
                    cpu0 = srv.cpu_seconds()
                    res = load(srv.port, duration, name)
                    res["cpu_ms"] = (srv.cpu_seconds() - cpu0) * 1000 / max(1, res["requests"])
                    runs.setdefault(name, []).append(res)
                    print(f"  round {rnd} {name}: {res['rps']:.0f} req/s, p99 {res['p99']:.1f} ms, "
                          f"{res['cpu_ms']:.3f} CPU ms/request", flush=True)
            for name, srv in servers.items():
                after = cache_figures("" if name == "floor" else srv.metrics(), raw=True)
                delta = {k: after[k] - before[name][k] for k in after}
                for r in runs[name]:
                    r.update(rates(delta))
        finally:
            for srv in set(servers.values()):
                srv.stop()
            if up:
                up.stop()
    results = {name: {k: (statistics.median(r[k] for r in rs) if not isinstance(rs[0][k], str) else rs[0][k])
                      for k in rs[0]} for name, rs in runs.items()}

    base, floor = results["no Redis"], results["floor"]
    print()
    print(f"{'':15}{'req/s':>9}{'of floor':>9}{'p50 ms':>9}{'p99 ms':>9}{'vs none':>9}{'p99 vs':>8}{'failed':>8}"
          f"{'L1':>7}{'L2':>7}{'computed':>9}{'redis err':>10}{'CPU ms':>8}{'x floor':>8}{'cap/2cpu':>9}")
    for name, r in results.items():
        cache = (f"{r['l1_rate']:7.1%}{r['l2_rate']:7.1%}{r['computed_rate']:9.1%}{r['redis_errors']:10.0f}"
                 if name != "floor" else f"{'-':>7}{'-':>7}{'-':>9}{'-':>10}")
        print(f"{name:15}{r['rps']:9.0f}{r['rps'] / floor['rps']:9.0%}{r['p50']:9.2f}{r['p99']:9.2f}{r['rps'] / base['rps']:9.2f}"
              f"{r['p99'] / base['p99']:8.2f}{int(r['failed']):8d}{cache}"
              f"{r['cpu_ms']:8.3f}{r['cpu_ms'] / floor['cpu_ms']:8.2f}{2000 / r['cpu_ms']:9.0f}")
    print("floor = a bare WSGI app under the same gunicorn settings and load (bench/load/floor_app.py).\n"
          "of floor = req/s as a share of the floor's req/s in the same windows;\n"
          "CPU ms = server CPU time per request (master + workers); x floor = CPU ms / the floor's CPU ms;\n"
          "cap/2cpu = 2000 / CPU ms, the rate two fully available cores could sustain: unlike req/s it does\n"
          "not depend on other load on the machine.")
    multiple = base["cpu_ms"] / floor["cpu_ms"]
    print(f"\ntarget >= {TARGET_RPS} adjudications/s on 2 cores: {base['rps']:.0f} req/s measured (no Redis), "
          f"{2000 / base['cpu_ms']:.0f} by CPU time: {'met' if base['rps'] >= TARGET_RPS else 'MISSED'}")
    print(f"an adjudication costs {multiple:.2f}x the floor: the target holds by CPU time on any 2-core machine "
          f"whose floor is at most {2000 / TARGET_RPS / multiple:.3f} ms (here {floor['cpu_ms']:.3f} ms)")
    if "Redis down" in results:
        share = results["Redis down"]["rps"] / base["rps"]
        print(f"target Redis down keeps >= {TARGET_REDIS_DOWN:.0%} of the throughput: {share:.0%} "
              f"({'met' if share >= TARGET_REDIS_DOWN else 'MISSED'})")
    if not have_redis:
        print("(redis-server is not installed: only the no-Redis configuration ran)")
    print(f"\nserver log: {log_path}")
    failed = sum(r["failed"] for r in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
