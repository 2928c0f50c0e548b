"""The viewer as a table uses it, in headless Chromium (the browser and service fixtures of test_viewer.py):
start any game with its options, judge, apply, undo, click the board to act or to edit the position
(checked by the service live), set hands, share a link, step through a game record, on a desktop and on a
phone-sized screen.
"""
from __future__ import annotations

import json
import time

import pytest

from .picture_util import matches_reference
from .test_viewer import browser, needs_browser, server, wait_for  # noqa: F401  (fixtures)

pytestmark = needs_browser

#: A board place to client coordinates, the way the page turns a click back into a place.
TO_CLIENT = """
const svg = document.querySelector('#board svg'), at = arguments[0];
const size = Number(svg.getAttribute('data-hex-size'));
let x = size * Math.sqrt(3) * (at[0] + at[1] / 2), y = size * 1.5 * at[1];
if (at.length === 3 && at[2] === 'N') y -= size;
if (at.length === 3 && at[2] === 'S') y += size;
if (at.length === 3 && ['NE', 'E', 'SE'].includes(at[2])) {
  const a = {NE: -60, E: 0, SE: 60}[at[2]] * Math.PI / 180, m = size * Math.sqrt(3) / 2;
  x += m * Math.cos(a); y += m * Math.sin(a);
}
const pt = svg.createSVGPoint(); pt.x = x; pt.y = y;
const p = pt.matrixTransform(svg.getScreenCTM());
svg.dispatchEvent(new MouseEvent('click', {clientX: p.x, clientY: p.y, bubbles: true}));
"""


def by_id(b, i):
    from selenium.webdriver.common.by import By
    return b.find_element(By.ID, i)


def until(b, cond, timeout=20):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(b, timeout).until(cond)


def state_of(b) -> dict:
    return json.loads(by_id(b, "state").get_attribute("value"))


def settled(b):
    """Wait until the page has drawn the position in its box, its verdict and its legal list."""
    until(b, lambda d: d.find_elements("css selector", "#board svg polygon.hex"))
    until(b, lambda d: "Phase" in by_id(d, "derived").text)
    until(b, lambda d: len(d.find_elements("css selector", "#legalpick option")) > 1)


def start(b, server, scenario="base", players="3", options=None):
    from selenium.webdriver.support.ui import Select
    b.get(server + "/")
    wait_for(b, "#scenario option")
    Select(by_id(b, "scenario")).select_by_value(scenario)
    until(b, lambda d: d.find_elements("css selector", "#options .option"))
    Select(by_id(b, "players")).select_by_value(players)
    for name, value in (options or {}).items():
        Select(b.find_element("css selector", f'#options [data-option="{name}"]')).select_by_value(value)
    by_id(b, "newgame").click()
    until(b, lambda d: f'"{scenario}"' in by_id(d, "state").get_attribute("value") or by_id(d, "error").text)
    assert by_id(b, "error").text == ""
    settled(b)


def pick_legal(b, index=1):
    from selenium.webdriver.support.ui import Select
    Select(by_id(b, "legalpick")).select_by_index(index)
    until(b, lambda d: "Legal." in by_id(d, "verdict").text)
    until(b, lambda d: d.find_elements("css selector", "#board svg .proposed.legal"))


@pytest.mark.parametrize("scenario", ["TDE5", "TDE6"])
def test_a_scenario_played_only_with_cities_and_knights_starts(server, browser, scenario):
    start(browser, server, scenario)
    st = state_of(browser)
    assert st["scenario"] == scenario and st["options"].get("cities_and_knights") is True
    box = browser.find_element("css selector", '#options [data-option="cities_and_knights"]')
    assert box.get_attribute("checked") and not box.is_enabled()        # always sent, never unticked


def test_a_game_with_cities_and_knights_and_an_option_starts(server, browser):
    start(browser, server, "SC01", "4", {"cities_and_knights": "true", "lr_broken_tie_holder_keeps": "false"})
    st = state_of(browser)
    assert len(st["players"]) == 4
    assert st["options"]["cities_and_knights"] is True and st["options"]["lr_broken_tie_holder_keeps"] is False


def test_judge_apply_undo_and_the_move_list(server, browser):
    start(browser, server)
    before = state_of(browser)
    pick_legal(browser)
    action = json.loads(by_id(browser, "action").get_attribute("value"))
    assert action["type"] == "build_settlement"
    assert not browser.find_elements("css selector", "#board svg polygon.settlement")
    by_id(browser, "apply").click()
    until(browser, lambda d: d.find_elements("css selector", "#board svg polygon.settlement"))
    settled(browser)
    after = state_of(browser)
    assert after["pieces"]["settlements"] == [{"player": 0, "node": action["node"]}]
    assert by_id(browser, "action").get_attribute("value") == ""
    moves = browser.find_elements("css selector", "#moves li")
    assert len(moves) == 1 and "build_settlement" in moves[0].text
    row = browser.find_elements("css selector", "#derived table tr")[1].text.split()
    assert row[:2] == ["0", "1"]                              # the table shows the position drawn: 1 VP now
    pick_legal(browser)                                        # the road of the set-up, applied too
    assert json.loads(by_id(browser, "action").get_attribute("value"))["type"] == "build_road"
    by_id(browser, "apply").click()
    until(browser, lambda d: len(d.find_elements("css selector", "#moves li")) == 2)
    by_id(browser, "undo").click()
    until(browser, lambda d: len(d.find_elements("css selector", "#moves li")) == 1)
    assert json.loads(by_id(browser, "action").get_attribute("value"))["type"] == "build_road"
    browser.find_elements("css selector", "#moves li")[0].click()          # back to before the first move
    until(browser, lambda d: not d.find_elements("css selector", "#moves li"))
    until(browser, lambda d: not d.find_elements("css selector", "#board svg polygon.settlement"))
    assert state_of(browser) == before
    assert by_id(browser, "undo").get_attribute("disabled")


def test_an_illegal_proposal_is_drawn_red_and_the_verdict_written_in_the_picture(server, browser):
    start(browser, server)
    by_id(browser, "verdictpic").click()
    box = by_id(browser, "action")
    box.clear()
    box.send_keys('{"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}')
    by_id(browser, "judge").click()
    until(browser, lambda d: "Illegal" in by_id(d, "verdict").text)
    until(browser, lambda d: d.find_elements("css selector", "#board svg .proposed.illegal"))
    caption = browser.find_element("css selector", "#board svg .caption.illegal").text
    assert "Illegal: build_road by player 0" in caption and "BASE-SETUP-2" in caption


def test_coordinates_on_demand(server, browser):
    start(browser, server)
    assert not browser.find_elements("css selector", "#board svg .coord")
    by_id(browser, "coords").click()
    until(browser, lambda d: len(d.find_elements("css selector", "#board svg .coord")) == 37)
    labels = {e.text for e in browser.find_elements("css selector", "#board svg .coord text")}
    assert "0,0" in labels


def test_clicking_the_board_picks_the_legal_action_there(server, browser):
    start(browser, server)
    node = json.loads(browser.find_elements("css selector", "#legalpick option")[5].get_attribute("value"))["node"]
    browser.execute_script(TO_CLIENT, node)
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)
    assert json.loads(by_id(browser, "action").get_attribute("value")) == {"type": "build_settlement", "player": 0,
                                                                          "node": node}
    assert node == json.loads(by_id(browser, "where").text.split(" ", 1)[1])


def test_editing_the_board_places_and_removes_pieces_checked_by_the_service(server, browser):
    from selenium.webdriver.support.ui import Select
    start(browser, server)
    Select(by_id(browser, "tool")).select_by_value("settlement")
    Select(by_id(browser, "editplayer")).select_by_value("1")
    browser.execute_script(TO_CLIENT, [0, 0, "N"])
    until(browser, lambda d: state_of(d)["pieces"]["settlements"])
    st = state_of(browser)
    assert st["pieces"]["settlements"] == [{"player": 1, "node": [0, 0, "N"]}]
    assert st["players"][1]["supply"]["settlements"] == 4           # the supply follows the board
    assert "edit: player 1's settlement on 0,0,N" in by_id(browser, "moves").text
    settled(browser)
    browser.execute_script(TO_CLIENT, [1, -1, "S"])                  # next to it: the distance rule
    until(browser, lambda d: "Not changed" in by_id(d, "error").text)
    assert "distance rule" in by_id(browser, "error").text
    assert state_of(browser)["pieces"]["settlements"] == [{"player": 1, "node": [0, 0, "N"]}]
    Select(by_id(browser, "tool")).select_by_value("road")
    browser.execute_script(TO_CLIENT, [0, 0, "NE"])
    until(browser, lambda d: state_of(d)["pieces"]["roads"])
    assert state_of(browser)["pieces"]["roads"] == [{"player": 1, "edge": [0, 0, "NE"]}]
    settled(browser)
    Select(by_id(browser, "tool")).select_by_value("robber")
    browser.execute_script(TO_CLIENT, [1, 0])
    until(browser, lambda d: state_of(d)["robber"] == [1, 0])
    settled(browser)
    Select(by_id(browser, "tool")).select_by_value("remove")
    browser.execute_script(TO_CLIENT, [0, 0, "N"])
    until(browser, lambda d: not state_of(d)["pieces"]["settlements"])
    assert state_of(browser)["players"][1]["supply"]["settlements"] == 5
    settled(browser)
    by_id(browser, "undo").click()                                    # an edit is undone like a move
    until(browser, lambda d: state_of(d)["pieces"]["settlements"])


def test_hands_are_shown_and_set_in_a_form(server, browser):
    start(browser, server)
    cell = browser.find_element("css selector", '#hands input[data-player="2"][data-group="resources"][data-key="ore"]')
    browser.execute_script("arguments[0].value = '3'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                           cell)
    until(browser, lambda d: state_of(d)["players"][2]["resources"]["ore"] == 3)
    until(browser, lambda d: browser.find_element(
        "css selector", '#hands input[data-player="2"][data-group="resources"][data-key="ore"]').get_attribute("value") == "3")


def test_a_link_holds_the_position(server, browser):
    start(browser, server, "SC01")
    pick_legal(browser)
    by_id(browser, "share").click()
    until(browser, lambda d: by_id(d, "sharelink").get_attribute("value"))
    link = by_id(browser, "sharelink").get_attribute("value")
    assert "#z=" in link
    st, action = state_of(browser), by_id(browser, "action").get_attribute("value")
    browser.get(server + "/")                 # a fresh page first, then the link
    wait_for(browser, "#scenario option")
    browser.get(link)
    browser.refresh()
    until(browser, lambda d: '"SC01"' in by_id(d, "state").get_attribute("value"))
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)
    assert state_of(browser) == st and json.loads(by_id(browser, "action").get_attribute("value")) == json.loads(action)


def test_a_game_record_is_stepped_through_with_each_verdict(server, browser):
    start(browser, server)
    options = browser.find_elements("css selector", "#legalpick option")
    first = json.loads(options[1].get_attribute("value"))
    second = json.loads(options[-1].get_attribute("value"))                          # a road is due: illegal
    record = {"new_game": {"scenario": "base", "players": 3, "seed": 7}, "actions": [first, second]}
    browser.execute_script("document.getElementById('record').value = arguments[0];", json.dumps(record))
    by_id(browser, "replay").click()
    until(browser, lambda d: len(d.find_elements("css selector", "#steps li")) == 3)     # and where it ended
    steps = browser.find_elements("css selector", "#steps li")
    assert "legal" in steps[0].text and "BASE-SETUP-2" in steps[1].text
    assert "first illegal: action 1" in by_id(browser, "replaysummary").text
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)          # step 0 shown, judged
    assert not state_of(browser)["pieces"]["settlements"]
    by_id(browser, "stepnext").click()
    until(browser, lambda d: "Illegal" in by_id(d, "verdict").text)
    assert "BASE-SETUP-2" in by_id(browser, "verdict").text
    assert state_of(browser)["pieces"]["settlements"] == [{"player": 0, "node": first["node"]}]
    by_id(browser, "stepnext").click()                               # where the replay stopped: no action
    until(browser, lambda d: "No action posted" in by_id(d, "verdict").text)
    assert state_of(browser)["pieces"]["settlements"] == [{"player": 0, "node": first["node"]}]
    assert by_id(browser, "stepnext").get_attribute("disabled")
    steps[0].click()
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)


@pytest.mark.parametrize("width", [360, 390, 420])
def test_the_page_fits_a_phone_and_its_board_looks_as_it_did(server, browser, width):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        start(browser, server, "TDE5")
        time.sleep(0.3)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        svg = browser.find_element("css selector", "#board svg")
        assert svg.is_displayed() and svg.size["width"] <= width
        by_id(browser, "zoom").click()                                  # a bigger board scrolls inside its box
        until(browser, lambda d: svg.size["width"] > width)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        if width != 390:
            return
        start(browser, server)
        pick_legal(browser)
        browser.execute_script("window.scrollTo(0, 0)")
        matches_reference("viewer-phone.png", browser.find_element("css selector", "#board svg").screenshot_as_png)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_desktop_board_with_coordinates_and_a_proposal_looks_as_it_did(server, browser):
    start(browser, server)
    by_id(browser, "coords").click()
    until(browser, lambda d: d.find_elements("css selector", "#board svg .coord"))
    box = by_id(browser, "action")
    box.clear()
    box.send_keys('{"type": "build_settlement", "player": 0, "node": [0, 0, "N"]}')
    by_id(browser, "verdictpic").click()
    until(browser, lambda d: d.find_elements("css selector", "#board svg .caption"))
    browser.execute_script("document.querySelector('#board').scrollIntoView()")
    matches_reference("viewer-desktop.png", browser.find_element("css selector", "#board svg").screenshot_as_png)


def test_the_state_box_is_checked_while_typed(server, browser):
    start(browser, server)
    st = state_of(browser)
    st["robber"] = [0, -3]                                               # a frame hex: not a tile
    browser.execute_script("const b = document.getElementById('state'); b.value = arguments[0];"
                           "b.dispatchEvent(new Event('input'));", json.dumps(st))
    until(browser, lambda d: "/state/robber" in by_id(d, "live").text)
    st["robber"] = [0, 0]
    browser.execute_script("const b = document.getElementById('state'); b.value = arguments[0];"
                           "b.dispatchEvent(new Event('input'));", json.dumps(st))
    until(browser, lambda d: "accepts this position" in by_id(d, "live").text)


def test_a_piece_is_moved_by_two_clicks(server, browser):
    from selenium.webdriver.support.ui import Select
    start(browser, server)
    Select(by_id(browser, "tool")).select_by_value("settlement")
    browser.execute_script(TO_CLIENT, [0, 0, "N"])
    until(browser, lambda d: state_of(d)["pieces"]["settlements"])
    settled(browser)
    Select(by_id(browser, "tool")).select_by_value("move")
    browser.execute_script(TO_CLIENT, [0, 0, "N"])
    until(browser, lambda d: "picked up" in by_id(d, "where").text)
    browser.execute_script(TO_CLIENT, [1, 0, "S"])
    until(browser, lambda d: state_of(d)["pieces"]["settlements"] == [{"player": 0, "node": [1, 0, "S"]}])
    assert "moved settlement from 0,0,N to 1,0,S" in by_id(browser, "moves").text


def test_cities_and_knights_knights_and_commodities_are_edited(server, browser):
    from selenium.webdriver.support.ui import Select
    start(browser, server, "base", "3", {"cities_and_knights": "true"})
    Select(by_id(browser, "tool")).select_by_value("settlement")
    browser.execute_script(TO_CLIENT, [0, 0, "N"])
    until(browser, lambda d: state_of(d)["pieces"]["settlements"])
    settled(browser)
    Select(by_id(browser, "tool")).select_by_value("knight")
    browser.execute_script(TO_CLIENT, [0, 1, "N"])
    until(browser, lambda d: state_of(d)["scenario_state"]["cities_and_knights"]["knights"] or by_id(d, "error").text)
    knights = state_of(browser)["scenario_state"]["cities_and_knights"]["knights"]
    assert [(k["node"], k["player"], k["level"], k["active"]) for k in knights] == [([0, 1, "N"], 0, 1, False)]
    settled(browser)
    cell = browser.find_element("css selector", '#hands input[data-player="1"][data-group="commodities"][data-key="coin"]')
    browser.execute_script("arguments[0].value = '2'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                           cell)
    until(browser, lambda d: state_of(d)["scenario_state"]["cities_and_knights"]["commodities"]["1"]["coin"] == 2)
    assert state_of(browser)["scenario_state"]["cities_and_knights"]["commodity_bank"]["coin"] == 10


def test_a_five_player_game_starts_in_the_mode_chosen_and_a_refused_option_is_not_offered(server, browser):
    start(browser, server, "base", "5", {"five_six_mode": "paired"})
    st = state_of(browser)
    assert len(st["players"]) == 5 and st["options"]["five_six_mode"] == "paired"
    pick_legal(browser)
    from selenium.webdriver.support.ui import Select
    Select(by_id(browser, "scenario")).select_by_value("WAG")
    until(browser, lambda d: d.find_elements("css selector", '#options [data-option="large_map_bonus"]'))
    mode = browser.find_element("css selector", '#options [data-option="five_six_mode"]')
    assert not mode.is_enabled() and "refused here" in mode.find_element("xpath", "..").get_attribute("title")


def test_the_page_calls_only_the_public_api(client):
    """Every path the page fetches is one of the published contract's (openapi.yaml), none private."""
    import re
    from pathlib import Path
    import yaml
    page = client.get("/").get_data(as_text=True)
    spec = yaml.safe_load((Path(__file__).parents[1] / "openapi.yaml").read_text(encoding="utf-8"))
    published = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$") for p in spec["paths"]]
    called = {c for c in re.findall(r"""(?:fetch\(|post\(|getJson\()\s*["'`](/[^"'`]*)""", page)}
    called |= set(re.findall(r"""["'`](/v1/[^"'`]*)""", page))
    assert {"/v1/adjudicate?explain=true", "/v1/render", "/v1/games", "/v1/derive", "/v1/legal-actions",
            "/v1/replay"} <= called
    for path in called:
        probe = re.sub(r"\$\{[^}]*\}", "x", path.split("?")[0])
        probe = probe + "x" if probe.endswith("/") else probe          # "/v1/rules/" + an id
        assert any(p.match(probe) for p in published), path


def test_another_apps_record_is_read_and_stepped_through(server, browser):
    """A catanatron game pasted as it is: read by POST /v1/import, replayed with each step's verdict; a
    JSettlers2 save is shown as the position it holds."""
    from pathlib import Path
    fixtures = Path(__file__).parent / "fixtures" / "records"
    start(browser, server)
    game = (fixtures / "catanatron" / "kept-0000.json").read_text(encoding="utf-8")
    browser.execute_script("document.getElementById('record').value = arguments[0];", game)
    by_id(browser, "replay").click()
    until(browser, lambda d: "Read as a catanatron record" in by_id(d, "replaysummary").text, timeout=60)
    assert len(browser.find_elements("css selector", "#steps li")) > 100
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)
    assert state_of(browser)["pieces"]["settlements"] == [] and len(state_of(browser)["players"]) == 4
    by_id(browser, "stepnext").click()
    until(browser, lambda d: len(state_of(d)["pieces"]["settlements"]) == 1)
    until(browser, lambda d: "Legal." in by_id(d, "verdict").text)
    save = (fixtures / "jsettlers2" / "reletest-longest-3p-sea.game.json").read_text(encoding="utf-8")
    browser.execute_script("document.getElementById('record').value = arguments[0];", save)
    by_id(browser, "replay").click()
    until(browser, lambda d: "position" in by_id(d, "replaysummary").text)
    assert len(state_of(browser)["players"]) == 3 and state_of(browser)["pieces"]["roads"]
    settled(browser)


def test_every_scenario_and_player_count_starts(server, browser, client):
    """Every scenario with a map, at each of its player counts (5 and 6 for the base game), is started from
    the page and drawn with its legal actions listed."""
    scenarios = client.get("/v1/scenarios").get_json()["scenarios"]
    started = []
    for s in scenarios:
        if not s["has_map"]:
            continue
        for n in s["players"]:
            start(browser, server, s["id"], str(n))
            st = state_of(browser)
            assert (st["scenario"], len(st["players"])) == (s["id"], n)
            started.append((s["id"], n))
    assert ("base", 6) in started and ("WAG", 4) in started and ("TDE5", 3) in started and len(started) >= 34
