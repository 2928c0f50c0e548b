"""The pieces the modules add, edited in the viewer the way people see them (headless Chromium, the fixtures
of test_viewer.py): Cities & Knights' city walls, knights of each level (active or not) and metropolises;
GOLD's single ships with their home and cargo; the wagon train's wagons, barbarians and warships. Every edit
is checked by the service before it is kept (a refused one says which rule it breaks), then an action is
judged and applied on the edited position; on a desktop and on a phone-sized screen.
"""
from __future__ import annotations

import contextlib

import pytest

from .picture_util import matches_reference
from .test_viewer import browser, needs_browser, server, wait_for  # noqa: F401  (fixtures)
from .test_viewer_flow import TO_CLIENT, by_id, pick_legal, settled, start, state_of, until

pytestmark = needs_browser

PHONE = 360                 # the narrowest phone width the page is laid out for


@contextlib.contextmanager
def screen(b, size):
    if size == "phone":
        b.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": PHONE, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        yield
        if size == "phone":
            assert b.execute_script("return document.documentElement.scrollWidth") <= PHONE
    finally:
        if size == "phone":
            b.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def tool(b, name):
    from selenium.webdriver.support.ui import Select
    Select(by_id(b, "tool")).select_by_value(name)


def click(b, at):
    b.execute_script(TO_CLIENT, at)


def form(b, css, value=None, check=None):
    """Set a control of the modules' form and let it tell the page (as a user's change does)."""
    el = b.find_element("css selector", "#scen " + css)
    if check is None:
        b.execute_script("arguments[0].value = arguments[1];", el, str(value))
    else:
        b.execute_script("arguments[0].checked = arguments[1];", el, check)
    b.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", el)


def ck(b):
    return state_of(b)["scenario_state"]["cities_and_knights"]


def refused(b, *words):
    until(b, lambda d: all(w in by_id(d, "error").text for w in words))


def judge_and_apply(b):
    """An action of the legal list judged on the edited position, then applied: the game goes on from it."""
    before = state_of(b)
    pick_legal(b)
    by_id(b, "apply").click()
    until(b, lambda d: state_of(d) != before and not by_id(d, "apply").is_enabled())
    settled(b)
    assert by_id(b, "error").text == ""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_city_walls_knights_and_metropolises_are_edited_on_the_board(server, browser, size):
    b = browser
    with screen(b, size):
        start(b, server, "base", "3", {"cities_and_knights": "true"})
        tool(b, "city")
        click(b, [0, 0, "N"])
        until(b, lambda d: state_of(d)["pieces"]["cities"])
        settled(b)
        # a city wall: under the city; anywhere else the service says why (CK-WALL-1) and nothing changes
        tool(b, "wall")
        click(b, [0, 0, "N"])
        until(b, lambda d: ck(d)["walls"] == [[0, 0, "N"]])
        settled(b)
        wait_for(b, "#board svg g.layer.ck-wall .glyph")
        click(b, [1, 0, "S"])
        refused(b, "CK-WALL-1", "Not changed")
        assert ck(b)["walls"] == [[0, 0, "N"]]
        # a strong active knight, then made mighty and inactive in the form
        tool(b, "knight")
        from selenium.webdriver.support.ui import Select
        Select(by_id(b, "knightlevel")).select_by_value("2")
        by_id(b, "knightactive").click()
        click(b, [0, 1, "N"])
        until(b, lambda d: ck(d)["knights"])
        assert [(k["node"], k["player"], k["level"], k["active"]) for k in ck(b)["knights"]] == [([0, 1, "N"], 0, 2, True)]
        settled(b)
        wait_for(b, "#board svg g.layer.ck-knight-active .glyph")
        form(b, 'select[data-ck="knight-level"]', 3)
        until(b, lambda d: ck(d)["knights"][0]["level"] == 3)
        settled(b)
        form(b, 'input[data-ck="knight-active"]', check=False)
        until(b, lambda d: not ck(d)["knights"][0]["active"])
        settled(b)
        wait_for(b, "#board svg g.layer.ck-knight-inactive .glyph")
        # a metropolis: refused below level 4 (CK-IMP-7), placed once the improvements reach it
        tool(b, "metropolis")
        Select(by_id(b, "mettrack")).select_by_value("science")
        click(b, [0, 0, "N"])
        refused(b, "CK-IMP-7")
        assert ck(b)["metropolises"]["science"] is None
        form(b, 'input[data-ck="improvement"][data-player="0"][data-track="science"]', 4)
        until(b, lambda d: ck(d)["improvements"]["0"]["science"] == 4)
        settled(b)
        click(b, [0, 0, "N"])
        until(b, lambda d: ck(d)["metropolises"]["science"])
        assert ck(b)["metropolises"]["science"] == {"player": 0, "node": [0, 0, "N"], "level": 4}
        settled(b)
        wait_for(b, "#board svg g.layer.ck-metropolis-science .glyph")
        assert "metropolises" in by_id(b, "derived").text
        if size == "desktop":                               # the wall, the knight and the metropolis as drawn
            b.execute_script("document.querySelector('#board').scrollIntoView()")
            matches_reference("viewer-ck-pieces.png", b.find_element("css selector", "#board svg").screenshot_as_png)
        # the barbarian ship's step, a progress card drawn and put back, the merchant (CK-PROG-T3)
        form(b, 'input[data-ck="barbarian"]', 5)
        until(b, lambda d: ck(d)["barbarian"] == 5)
        settled(b)
        form(b, 'select[data-ck="card-add"][data-player="1"]', "politics:spy")
        until(b, lambda d: ck(d)["hands"]["1"].get("spy") == 1 and ck(d)["decks"]["politics"]["spy"] == 2)
        settled(b)
        form(b, 'select[data-ck="card-add"][data-player="1"]', "science:printer")     # a point card lies face up
        until(b, lambda d: ck(d)["vp_cards"]["1"].get("printer") == 1)
        settled(b)
        b.find_element("css selector", '#scen button[data-ck="card-back"][data-card="spy"]').click()
        until(b, lambda d: not ck(d)["hands"]["1"].get("spy") and ck(d)["decks"]["politics"]["spy"] == 3)
        settled(b)
        tool(b, "merchant")
        click(b, [0, 0])
        until(b, lambda d: ck(d)["merchant"] == {"hex": [0, 0], "player": 0})
        settled(b)
        # taking the city away takes its wall and its metropolis with it
        tool(b, "remove")
        click(b, [0, 0, "N"])
        until(b, lambda d: not state_of(d)["pieces"]["cities"])
        assert ck(b)["walls"] == [] and ck(b)["metropolises"]["science"] is None
        settled(b)
        by_id(b, "undo").click()
        until(b, lambda d: state_of(d)["pieces"]["cities"] and ck(d)["walls"] == [[0, 0, "N"]])
        settled(b)
        judge_and_apply(b)
        assert ck(b)["walls"] == [[0, 0, "N"]] and ck(b)["knights"][0]["level"] == 3


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_single_ships_with_home_and_cargo_are_edited_on_the_board(server, browser, size):
    b = browser
    with screen(b, size):
        start(b, server, "GOLD", "3")
        tool(b, "ship")
        click(b, [0, 4, "E"])                               # no building of player 0 to call home yet
        refused(b, "GOLD-021")
        tool(b, "settlement")
        click(b, [1, 3, "S"])                               # on the front coast
        until(b, lambda d: state_of(d)["pieces"]["settlements"])
        settled(b)
        tool(b, "ship")
        until(b, lambda d: "1,3,S" in by_id(d, "shiphome").text)
        click(b, [0, 4, "E"])
        until(b, lambda d: state_of(d)["scenario_state"]["ships"])
        ships = state_of(b)["scenario_state"]["ships"]
        assert ships == [{"id": 0, "player": 0, "home": [1, 3, "S"], "edge": [0, 4, "E"], "cargo": 0}]
        assert state_of(b)["pieces"]["ships"] == [] and state_of(b)["players"][0]["supply"]["ships"] == 14
        settled(b)
        wait_for(b, "#board svg g.layer.gold-ship .glyph")
        form(b, 'input[data-mobile="cargo"]', 3)
        until(b, lambda d: state_of(d)["scenario_state"]["ships"][0]["cargo"] == 3)
        settled(b)
        assert "3 in cargo" in b.find_element("css selector", "#board svg").get_attribute("innerHTML")
        form(b, 'input[data-mobile="cargo"]', 5)            # above what a ship carries
        refused(b, "GOLD-030")
        assert state_of(b)["scenario_state"]["ships"][0]["cargo"] == 3
        until(b, lambda d: d.find_element("css selector", '#scen input[data-mobile="cargo"]').get_attribute("value") == "3")
        coins = b.find_element("css selector", '#hands input[data-group="_count"][data-player="1"][data-key="gold"]')
        b.execute_script("arguments[0].value = '11'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", coins)
        until(b, lambda d: state_of(d)["players"][1]["gold"] == 11)      # the coins a player holds (GOLD-005)
        settled(b)
        tool(b, "move")                                     # sailed elsewhere by two clicks
        click(b, [0, 4, "E"])
        until(b, lambda d: "picked up" in by_id(d, "where").text)
        click(b, [1, 3, "SE"])
        until(b, lambda d: state_of(d)["scenario_state"]["ships"][0]["edge"] == [1, 3, "SE"])
        settled(b)
        judge_and_apply(b)
        assert state_of(b)["scenario_state"]["ships"][0]["cargo"] == 3
        held_by(b, by_link(b))                              # a link holds the ships, homes and cargo


def by_link(b) -> dict:
    by_id(b, "share").click()
    until(b, lambda d: by_id(d, "sharelink").get_attribute("value"))
    return {"link": by_id(b, "sharelink").get_attribute("value"), "state": state_of(b)}


def held_by(b, shared):
    import json
    b.get("about:blank")
    b.get(shared["link"])

    def loaded(d):
        text = by_id(d, "state").get_attribute("value")
        return text and json.loads(text) == shared["state"]
    until(b, loaded)
    settled(b)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_wagons_barbarians_and_warships_are_edited_on_the_board(server, browser, size):
    b = browser
    with screen(b, size):
        start(b, server, "WAG", "3")
        ss = lambda d: state_of(d)["scenario_state"]            # noqa: E731
        tool(b, "wagon")
        click(b, [2, 1, "N"])
        until(b, lambda d: ss(d)["wagons"]["0"]["node"] == [2, 1, "N"])
        settled(b)
        wait_for(b, "#board svg g.layer.wag-wagons .glyph")
        form(b, 'input[data-wagon="level"][data-player="0"]', 3)
        until(b, lambda d: ss(d)["wagons"]["0"]["level"] == 3)
        settled(b)
        form(b, 'input[data-wagon="level"][data-player="0"]', 9)
        refused(b, "Not changed")
        assert ss(b)["wagons"]["0"]["level"] == 3
        form(b, 'select[data-wagon="token"][data-player="0"]', "sand@quarry")      # a token taken from a stack
        until(b, lambda d: ss(d)["wagons"]["0"]["token"] == {"kind": "sand", "from": "quarry"})
        assert ss(b)["stacks"]["quarry"]["sand"] == 2
        settled(b)
        tool(b, "barbarian")
        before = dict(ss(b)["barbarians"])
        click(b, [1, 2])
        until(b, lambda d: ss(d)["barbarians"].get("1,2") == before.get("1,2", 0) + 1)
        settled(b)
        tool(b, "remove")
        click(b, [1, 2])
        until(b, lambda d: ss(d)["barbarians"].get("1,2", 0) == before.get("1,2", 0))
        settled(b)
        tool(b, "warship")
        sea = next([h["q"], h["r"]] for h in state_of(b)["board"]["hexes"] if h["terrain"] == "sea")
        click(b, sea)
        until(b, lambda d: ss(d)["warships"].get("0") == sea)
        settled(b)
        wait_for(b, "#board svg g.layer.wag-warships .glyph")
        click(b, [1, 2])                                    # a warship lies on a sea hex
        refused(b, "R-086")
        tool(b, "bridge")                                   # a bridge of player 0 on a river path
        river = ss(b)["rivers"][1]
        click(b, river)
        until(b, lambda d: {"edge": river, "player": 0} in ss(d)["bridges"])
        settled(b)
        click(b, [0, 0, "NE"])                              # not a river: R-095
        refused(b, "R-095")
        judge_and_apply(b)
        assert ss(b)["wagons"]["0"]["level"] == 3 and ss(b)["wagons"]["0"]["token"]["kind"] == "sand"


@pytest.mark.parametrize("scenario,key,refusals", [
    ("TDE1", "treasures", None),
    ("TDE6", "dragons", ("TDE6-005", "R-077")),          # a dragon lies on the Enchanted Land; its flags add up
])
def test_a_modules_own_piece_is_moved_and_removed_on_the_board(server, browser, scenario, key, refusals):
    """A treasure or a dragon (pieces the page knows nothing about: a module's list of {node, ...}) is
    moved by two clicks and removed, each edit checked by the service: kept, or refused with the rule."""
    b = browser
    start(b, server, scenario, "3")
    ss = lambda d: state_of(d)["scenario_state"]            # noqa: E731
    first = ss(b)[key][0]
    n = len(ss(b)[key])
    q, r, c = first["node"]
    spot = [-3, -3, "N"] if refusals else [q, r, "S" if c == "N" else "N"]   # off the land / next to it
    assert all(x["node"] != spot for x in ss(b)[key])
    tool(b, "move")
    click(b, first["node"])
    until(b, lambda d: "picked up" in by_id(d, "where").text)
    click(b, spot)
    if refusals:
        refused(b, "Not changed", refusals[0])
        assert ss(b)[key][0] == first
    else:
        until(b, lambda d: ss(d)[key][0]["node"] == spot)
        assert ss(b)[key][0] == {**first, "node": spot} and "moved the treasure" in by_id(b, "moves").text
    settled(b)
    tool(b, "remove")
    click(b, ss(b)[key][0]["node"])
    if refusals:
        refused(b, "Not changed", refusals[1])
        assert len(ss(b)[key]) == n
    else:
        until(b, lambda d: len(ss(d)[key]) == n - 1)
    settled(b)
    judge_and_apply(b)


def test_a_modules_counts_are_set_in_the_form(server, browser):
    """Counts a module keeps per player or for the game (Diamond Isles' diamonds, cache and reserve) are in
    the form; a change the position cannot hold is refused with the module's rule (the 50 counters)."""
    b = browser
    start(b, server, "DIAM", "3")
    ss = lambda d: state_of(d)["scenario_state"]            # noqa: E731
    assert b.find_element("css selector", '#scen input[data-count="diamond_reserve"]').get_attribute("value") == \
        str(ss(b)["diamond_reserve"])
    form(b, 'input[data-count="diamonds"][data-key="1"]', 2)
    refused(b, "Not changed", "DIAM-003")
    assert ss(b)["diamonds"]["1"] == 0
    until(b, lambda d: d.find_element("css selector", '#scen input[data-count="diamonds"][data-key="1"]')
          .get_attribute("value") == "0")                  # the form shows the position kept
    judge_and_apply(b)


def test_counts_kept_by_another_key_are_not_taken_for_players(server, browser):
    """TDE6's dragon pool counts dragons by strength (1, 2, 3): shown by strength, not as players' counts."""
    b = browser
    start(b, server, "TDE6", "3")
    pool = state_of(b)["scenario_state"]["dragon_pool"]
    for key, n in pool.items():
        box = b.find_element("css selector", f'#scen input[data-count="dragon_pool"][data-key="{key}"]')
        assert box.get_attribute("value") == str(n)
    form(b, 'input[data-count="dragon_pool"][data-key="3"]', pool["3"] + 1)
    refused(b, "Not changed", "R-077")                   # the unseen flags no longer add up
    assert state_of(b)["scenario_state"]["dragon_pool"] == pool
