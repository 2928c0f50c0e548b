"""The viewer page at GET /, in a real headless Chromium (Debian's chromium + chromedriver, via selenium).

The service under test runs on 127.0.0.1 only, on a free port, in a thread of this process. Skipped with
a reason when no browser is installed (``bin/test`` installs it where it can).
"""
from __future__ import annotations

import io
import json
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from service.api import create_app

from .picture_util import matches_reference


def test_the_viewer_page_is_plain_html_served_by_the_service(client):
    r = client.get("/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    for needle in ('id="state"', 'id="action"', 'id="board"', "/v1/render", "/v1/adjudicate?explain=true",
                   "/v1/games", 'id="upload"'):
        assert needle in page


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
Image = pytest.importorskip("PIL.Image", reason="pillow is not installed")
needs_browser = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                   reason="chromium and chromedriver are not installed (bin/test installs them)")


@pytest.fixture(scope="module")
def server():
    from werkzeug.serving import make_server
    srv = make_server("127.0.0.1", 0, create_app({"TESTING": True}), threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="viewer-test-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver, css: str, timeout: float = 20):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def coloured_share(png: bytes) -> float:
    """The share of pixels that are not the page's near-white background."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    raw = img.tobytes()
    n = len(raw) // 3
    return sum(1 for i in range(0, 3 * n, 3) if min(raw[i], raw[i + 1], raw[i + 2]) < 225) / max(1, n)


@needs_browser
def test_a_new_game_is_drawn_and_its_verdict_shown(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    browser.get(server + "/")
    wait_for(browser, "#scenario option")
    Select(browser.find_element(By.ID, "scenario")).select_by_value("base")
    browser.find_element(By.ID, "newgame").click()
    wait_for(browser, "#board svg polygon.hex")
    WebDriverWait(browser, 10).until(lambda d: "Phase" in d.find_element(By.ID, "derived").text)
    assert "setup" in browser.find_element(By.ID, "derived").text
    hexes = browser.find_elements(By.CSS_SELECTOR, "#board svg polygon.hex")
    assert len(hexes) == 37                                   # 19 tiles and the 18 frame hexes
    shot = browser.find_element(By.ID, "board").screenshot_as_png
    assert coloured_share(shot) > 0.3, "the board area is (nearly) blank"
    assert browser.find_element(By.CSS_SELECTOR, "#board svg").is_displayed()


@needs_browser
def test_an_illegal_action_shows_its_rule_and_marks_the_board(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    browser.get(server + "/")
    wait_for(browser, "#scenario option")
    browser.find_element(By.ID, "newgame").click()
    wait_for(browser, "#board svg polygon.hex")
    box = browser.find_element(By.ID, "action")
    box.clear()
    box.send_keys('{"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}')   # set-up wants a settlement first
    browser.find_element(By.ID, "judge").click()
    WebDriverWait(browser, 10).until(lambda d: "Illegal" in d.find_element(By.ID, "verdict").text)
    text = browser.find_element(By.ID, "verdict").text
    assert "BASE-SETUP-2" in text and "settlement" in text
    assert "First set-up round" in text                    # the rule's title and its text from the catalogue
    wait_for(browser, "#board svg polygon.hex")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board svg .mark")   # about the whole action: no mark
    box = browser.find_element(By.ID, "action")
    box.clear()
    box.send_keys('{"type": "build_settlement", "player": 0, "node": [9, 9, "N"]}')    # off the board
    browser.find_element(By.ID, "judge").click()
    # off land in set-up: BASE-SETUP-2 (D-settlement-on-land), the message naming the intersection
    WebDriverWait(browser, 10).until(lambda d: "touches no land hex" in d.find_element(By.ID, "verdict").text)
    wait_for(browser, "#board svg .mark")


@needs_browser
def test_a_state_that_cannot_exist_shows_the_field_at_fault(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    browser.get(server + "/")
    wait_for(browser, "#scenario option")
    box = browser.find_element(By.ID, "state")
    box.clear()
    box.send_keys('{"board": {"hexes": [{"q": 0, "r": 0, "terrain": "lava"}]}, "players": [{}, {}], '
                  '"phase": "main", "current_player": 0}')
    browser.find_element(By.ID, "judge").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "error").text)
    assert "422" in browser.find_element(By.ID, "error").text


@needs_browser
def test_the_first_load_draws_a_board_to_start_from(server, browser):
    browser.get(server + "/")
    wait_for(browser, "#board svg polygon.hex")
    from selenium.webdriver.common.by import By
    assert '"phase": "setup"' in browser.find_element(By.ID, "state").get_attribute("value")


@needs_browser
def test_an_error_clears_the_board_and_the_verdict(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    browser.get(server + "/")
    wait_for(browser, "#board svg polygon.hex")
    WebDriverWait(browser, 10).until(lambda d: "Phase" in d.find_element(By.ID, "derived").text)
    box = browser.find_element(By.ID, "state")
    box.clear()
    box.send_keys('{"board": {"hexes": []}, "players": [{}, {}], "phase": "nonsense", "current_player": 0}')
    browser.find_element(By.ID, "judge").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "error").text)
    assert not browser.find_elements(By.CSS_SELECTOR, "#board svg")
    assert browser.find_element(By.ID, "verdict").text == "" and browser.find_element(By.ID, "derived").text == ""


@needs_browser
def test_the_pirate_is_placed_first_and_the_ruling_is_shown(server, browser):
    """R-007 in the viewer: a new Seafarers game lists place_pirate first; a settlement before it shows
    SEA-027 with its title, the rule's text and the deciding ruling's decision."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    browser.get(server + "/")
    wait_for(browser, "#scenario option")
    Select(browser.find_element(By.ID, "scenario")).select_by_value("SC01")
    browser.find_element(By.ID, "newgame").click()
    WebDriverWait(browser, 10).until(lambda d: '"SC01"' in d.find_element(By.ID, "state").get_attribute("value"))
    browser.find_element(By.ID, "listlegal").click()
    WebDriverWait(browser, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#legalpick option")) > 1)
    texts = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#legalpick option")[1:]]
    assert texts and all(t.startswith("place_pirate") for t in texts)
    box = browser.find_element(By.ID, "action")
    box.clear()
    box.send_keys('{"type": "build_settlement", "player": 0, "node": [2, 1, "N"]}')
    browser.find_element(By.ID, "judge").click()
    WebDriverWait(browser, 10).until(lambda d: "Illegal" in d.find_element(By.ID, "verdict").text)
    text = browser.find_element(By.ID, "verdict").text
    if "SEA-027" in text:      # (the site may break a rule of its own first)
        assert "Pirate placed before set-up" in text and "As decided by R-007" in text
    Select(browser.find_element(By.ID, "legalpick")).select_by_index(1)
    WebDriverWait(browser, 10).until(lambda d: "Legal." in d.find_element(By.ID, "verdict").text)
    assert "pirate_placed" in browser.find_element(By.ID, "verdict").text


@needs_browser
def test_the_board_of_a_known_position_looks_as_it_did(server, browser):
    """The viewer's board for ``docs/try-it.json`` with a settlement breaking the distance rule, screenshot
    in headless Chromium, against the committed reference picture."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    body = json.loads((Path(__file__).parents[1] / "docs" / "try-it.json").read_text(encoding="utf-8"))
    browser.get(server + "/")
    wait_for(browser, "#board svg polygon.hex")
    browser.execute_script("document.getElementById('state').value = arguments[0];"
                           "document.getElementById('action').value = arguments[1];"
                           "document.getElementById('route').value = '0';",
                           json.dumps(body["state"]), json.dumps({"type": "build_settlement", "player": 0,
                                                                  "node": [0, -1, "S"]}))
    browser.find_element(By.ID, "judge").click()
    WebDriverWait(browser, 10).until(lambda d: "BASE-BUILD-2" in d.find_element(By.ID, "verdict").text)
    wait_for(browser, "#board svg .mark")
    shot = browser.find_element(By.CSS_SELECTOR, "#board svg").screenshot_as_png
    matches_reference("viewer-try-it.png", shot)
