"""Probes, Prometheus metrics, request ids and JSON logs."""
from __future__ import annotations

import io
import json
import logging
import re

from service.api import create_app
from service.api.observability import JsonFormatter
from tests.redis_util import free_port


def new_app(**extra):
    return create_app({"TESTING": True, "REDIS_URL": None, **extra})


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in a Prometheus text exposition (0 when absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        m = re.match(r"^([^{ ]+)(?:\{(.*)\})? (\S+)$", line)
        got = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if m.group(1) == name and all(got.get(k) == v for k, v in labels.items()):
            return float(m.group(3))
    return 0.0


def test_healthz_and_readyz_without_redis():
    c = new_app().test_client()
    assert c.get("/healthz").json == {"status": "ok"}
    r = c.get("/readyz")
    assert r.status_code == 200 and r.json == {"status": "ready", "redis": "disabled", "circuit": "closed"}


def test_readyz_stays_ready_when_redis_is_unreachable():
    c = new_app(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0", REDIS_TIMEOUT=0.05).test_client()
    r = c.get("/readyz")
    assert r.status_code == 200 and r.json["status"] == "ready" and r.json["redis"] == "down"
    assert sample(c.get("/metrics").get_data(True), "seafarers_redis_errors_total") == 1


def test_metrics_count_requests_latency_and_cache_levels():
    app = new_app()
    c = app.test_client()
    st = c.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 5}).json["state"]
    body = {"state": st, "action": {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]}}
    for _ in range(3):
        assert c.post("/v1/adjudicate", json=body).status_code == 200
    assert c.post("/v1/adjudicate", data="{", content_type="application/json").status_code == 400
    c.get("/no/such/path")
    r = c.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    assert sample(text, "seafarers_http_requests_total", endpoint="/v1/adjudicate", status="200",
                  outcome="success") == 3
    assert sample(text, "seafarers_http_requests_total", endpoint="/v1/adjudicate", status="400",
                  outcome="client_error") == 1
    assert sample(text, "seafarers_http_requests_total", endpoint="unmatched", status="404") == 1
    assert sample(text, "seafarers_http_request_duration_seconds_count", endpoint="/v1/adjudicate",
                  outcome="success") == 3
    assert sample(text, "seafarers_graph_cache_lookups_total", level="computed") == 1
    assert sample(text, "seafarers_graph_cache_lookups_total", level="l1") == 2
    assert "seafarers_graph_cache_lookups_total{level=\"l2\"} 0.0" in text


def test_each_app_has_its_own_registry():
    a, b = new_app(), new_app()
    a.test_client().get("/healthz")
    a.test_client().get("/healthz")
    b.test_client().get("/healthz")
    ta, tb = (x.test_client().get("/metrics").get_data(True) for x in (a, b))
    assert sample(ta, "seafarers_http_requests_total", endpoint="/healthz") == 2
    assert sample(tb, "seafarers_http_requests_total", endpoint="/healthz") == 1


def test_request_id_is_echoed_or_generated():
    c = new_app().test_client()
    assert c.get("/healthz", headers={"X-Request-ID": "req-42.a:b_c"}).headers["X-Request-ID"] == "req-42.a:b_c"
    made = c.get("/healthz").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert c.get("/healthz").headers["X-Request-ID"] != made
    bad = c.get("/healthz", headers={"X-Request-ID": "x" * 200}).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", bad)  # not an id: replaced, never echoed into logs
    r = c.get("/v1/scenarios/nope", headers={"X-Request-ID": "e-1"})
    assert r.status_code == 404 and r.headers["X-Request-ID"] == "e-1"  # problem answers carry it too


def test_logs_are_json_lines_with_the_request_id():
    buf = io.StringIO()
    h = logging.StreamHandler(buf)
    h.setFormatter(JsonFormatter())
    log = logging.getLogger("seafarers")
    log.addHandler(h)
    try:
        c = new_app().test_client()
        c.get("/v1/scenarios", headers={"X-Request-ID": "log-7"})
    finally:
        log.removeHandler(h)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    req = [x for x in lines if x["msg"] == "request"]
    assert req and req[-1]["request_id"] == "log-7" and req[-1]["status"] == 200
    assert req[-1]["endpoint"] == "/v1/scenarios" and req[-1]["logger"] == "seafarers.access"
    assert {"ts", "level", "duration_ms", "method", "path"} <= set(req[-1])


def test_formatter_outside_a_request_and_with_an_exception():
    rec = logging.LogRecord("seafarers.x", logging.ERROR, __file__, 1, "boom %s", ("now",), None)
    out = json.loads(JsonFormatter().format(rec))
    assert out["msg"] == "boom now" and out["level"] == "error" and "request_id" not in out
    try:
        raise ValueError("bad")
    except ValueError:
        import sys
        rec = logging.LogRecord("seafarers.x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert "ValueError: bad" in json.loads(JsonFormatter().format(rec))["exc"]


def test_the_access_line_written_directly_is_the_formatters_line(capsys):
    """With only the service's own handler, the request line is written without a log record: the same
    keys in the same order as ``JsonFormatter`` writes them."""
    from service.api import observability
    c = new_app().test_client()
    log = logging.getLogger("seafarers")
    old = log.level, log.propagate
    log.setLevel(logging.INFO)
    log.propagate = False       # (the test runner's handler on the root logger would receive it too)
    try:
        assert observability._only_stderr(logging.INFO)
        c.get("/v1/scenarios", headers={"X-Request-ID": "direct-1"})
    finally:
        log.setLevel(old[0])
        log.propagate = old[1]
    line = [json.loads(x) for x in capsys.readouterr().err.splitlines() if '"direct-1"' in x][-1]
    rec = logging.LogRecord("seafarers.access", logging.INFO, __file__, 0, "request", None, None)
    for k, v in {"request_id": "direct-1", "method": "GET", "path": "/v1/scenarios", "endpoint": "/v1/scenarios",
                 "status": 200, "duration_ms": line["duration_ms"]}.items():
        setattr(rec, k, v)
    expected = json.loads(JsonFormatter().format(rec))
    assert list(line) == list(expected)
    assert {k: v for k, v in line.items() if k != "ts"} == {k: v for k, v in expected.items() if k != "ts"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["ts"])


def test_counts_reach_the_metrics_without_a_scrape():
    """The background flush adds each thread's counts to the series within FLUSH_SECONDS."""
    import time
    from service.api import observability
    app = new_app()
    c = app.test_client()
    c.get("/healthz")
    m = app.extensions["metrics"]
    deadline = time.monotonic() + 5 * observability.FLUSH_SECONDS
    while time.monotonic() < deadline:
        got = m.requests.labels("/healthz", "GET", "200", "success")._value.get()
        if got == 1:
            break
        time.sleep(0.05)
    assert got == 1
