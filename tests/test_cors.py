"""CORS: any origin may call by default (the API holds no credentials), ``CORS_ORIGINS`` narrows it; a page
on another origin, in a real headless Chromium, starts a game and judges a move through the API (the
preflight of a JSON POST and the exposed ``State-Tag`` header included)."""
from __future__ import annotations

import json
import shutil
import tempfile
import threading

import pytest

from service.api import create_app

ORIGIN = "https://client.example"


def _app(**config):
    return create_app({"TESTING": True, **config}).test_client()


def test_any_origin_by_default_and_no_credentials():
    c = _app()
    r = c.post("/v1/games", json={"players": 3, "seed": 1}, headers={"Origin": ORIGIN})
    assert r.status_code == 201
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "State-Tag" in r.headers["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in r.headers
    # errors too: a page can read the problem
    r = c.post("/v1/games", json={"players": 9}, headers={"Origin": ORIGIN})
    assert r.status_code == 422 and r.headers["Access-Control-Allow-Origin"] == "*"


def test_a_preflight_is_answered_with_the_methods_and_headers():
    r = _app().options("/v1/adjudicate", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                                                  "Access-Control-Request-Headers": "content-type, state-tag"})
    assert r.status_code == 204 and r.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "state-tag"} <= allowed


def test_without_an_origin_the_answer_is_unchanged():
    c = _app()
    r = c.get("/v1/scenarios")
    assert not [h for h in r.headers.keys() if h.startswith("Access-Control")]
    assert "Vary" not in r.headers


def test_configuration_narrows_the_origins():
    c = _app(CORS_ORIGINS="https://a.example, https://b.example")
    r = c.get("/v1/scenarios", headers={"Origin": "https://a.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "https://a.example" and "Origin" in r.headers["Vary"]
    r = c.get("/v1/scenarios", headers={"Origin": ORIGIN})
    assert r.status_code == 200 and "Access-Control-Allow-Origin" not in r.headers and "Origin" in r.headers["Vary"]
    r = c.options("/v1/games", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
    assert r.status_code == 204 and "Access-Control-Allow-Origin" not in r.headers
    none = _app(CORS_ORIGINS="")
    assert "Access-Control-Allow-Origin" not in none.get("/healthz", headers={"Origin": ORIGIN}).headers


# -- a page on another origin, in Chromium ------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                   reason="chromium and chromedriver are not installed (bin/test installs them)")

PAGE = """<!doctype html><meta charset="utf-8"><title>client</title><pre id="out">running</pre><script>
(async () => {
  const api = %s;
  try {
    const g = await fetch(api + "/v1/games", {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify({players: 3, seed: 4})});
    const tag = g.headers.get("State-Tag");
    const state = (await g.json()).state;
    const la = await (await fetch(api + "/v1/legal-actions", {method: "POST",
        headers: {"Content-Type": "application/json", "State-Tag": tag}, body: JSON.stringify({state})})).json();
    const action = Object.values(la.actions)[0][0];
    const v = await (await fetch(api + "/v1/adjudicate", {method: "POST",
        headers: {"Content-Type": "application/json", "State-Tag": tag}, body: JSON.stringify({state, action})})).json();
    document.getElementById("out").textContent = JSON.stringify({status: g.status, tag: !!tag, legal: v.legal});
  } catch (e) {
    document.getElementById("out").textContent = JSON.stringify({blocked: String(e)});
  }
})();
</script>"""


def _serve(app):
    from werkzeug.serving import make_server
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def _page_app(api: str):
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [(PAGE % json.dumps(api)).encode()]
    return app


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="cors-test-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _run_page(browser, config) -> dict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    api = _serve(create_app({"TESTING": True, **config}))
    page = _serve(_page_app(f"http://127.0.0.1:{api.server_port}"))
    try:
        # localhost and 127.0.0.1 are two origins: the page is on one, the API on the other
        browser.get(f"http://localhost:{page.server_port}/")
        WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "out").text != "running")
        return json.loads(browser.find_element(By.ID, "out").text)
    finally:
        api.shutdown()
        page.shutdown()


@needs_browser
def test_a_page_on_another_origin_plays_through_the_api(browser):
    got = _run_page(browser, {})
    assert got == {"status": 201, "tag": True, "legal": True}, got


@needs_browser
def test_a_page_on_an_origin_not_allowed_is_refused_by_the_browser(browser):
    got = _run_page(browser, {"CORS_ORIGINS": "https://elsewhere.example"})
    assert "blocked" in got, got
