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
