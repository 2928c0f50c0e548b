"""SEA-027 with R-007: a new game whose map marks no pirate start and whose request names none opens with the
starting player placing the pirate (``place_pirate``) before any settlement."""
from __future__ import annotations

import pytest

from .helpers import adjudicate


def new(client, sid="SC01", players=3, seed=1, **options):
    r = client.post("/v1/games", json={"scenario": sid, "players": players, "seed": seed, "options": options})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["state"]


def sea_and_land(st):
    sea = [h for h in st["board"]["hexes"] if h["terrain"] == "sea"]
    land = [h for h in st["board"]["hexes"] if h["terrain"] not in ("sea", "frame", "unknown")]
    return [sea[0]["q"], sea[0]["r"]], [land[0]["q"], land[0]["r"]]


def test_sea_027_a_new_game_opens_with_the_pirate(client):
    """SEA-027 (R-007): the starting player places the pirate before any settlement; SEA-029: on a sea hex,
    a land hex is refused for it."""
    st = new(client)
    assert st["pirate"] is None and st["scenario_state"]["pirate_pending"] is True and st["phase"] == "setup"
    la = client.post("/v1/legal-actions", json={"state": st}).get_json()
    assert list(la["actions"]) == ["place_pirate"] and la["player"] == st["current_player"] == 0
    sea, land = sea_and_land(st)
    assert sea in [a["hex"] for a in la["actions"]["place_pirate"]] and land not in [a["hex"] for a in la["actions"]["place_pirate"]]
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert not v["legal"]
    assert [(x["rule"], x.get("ruling")) for x in v["violations"]] in ([("SEA-027", "R-007")], [("BASE-BUILD-2", None)],
                                                                     [("BASE-SETUP-2", None)],   # (off land)
                                                                     [("SC01-004", None)])
    v = adjudicate(client, st, {"type": "place_pirate", "player": 0, "hex": land})
    assert [x["rule"] for x in v["violations"]] == ["SEA-029"]
    v = adjudicate(client, st, {"type": "place_pirate", "player": 1, "hex": sea})
    assert [(x["rule"], x["ruling"]) for x in v["violations"]] == [("SEA-027", "R-007")]
    assert v["violations"][0]["path"] == "/action/player"
    v = adjudicate(client, st, {"type": "place_pirate", "player": 0, "hex": sea})
    assert v["legal"] and v["state"]["pirate"] == sea and "pirate_pending" not in v["state"]["scenario_state"]
    assert v["events"] == [{"type": "pirate_placed", "player": 0, "hex": sea}]
    after = v["state"]
    assert "build_settlement" in client.post("/v1/legal-actions", json={"state": after}).get_json()["actions"]
    v = adjudicate(client, after, {"type": "place_pirate", "player": 0, "hex": sea})
    assert [(x["rule"], x["ruling"]) for x in v["violations"]] == [("SEA-027", "R-007")]   # once only


def test_a_settlement_on_a_good_site_waits_for_the_pirate(client):
    st = new(client)
    la_after = client.post("/v1/legal-actions", json={"state": adjudicate(client, st, {
        "type": "place_pirate", "player": 0, "hex": sea_and_land(st)[0]})["state"]}).get_json()
    site = la_after["actions"]["build_settlement"][0]
    v = adjudicate(client, st, site)
    assert [(x["rule"], x["ruling"], x["title"]) for x in v["violations"]] == [
        ("SEA-027", "R-007", "Pirate placed before set-up")]


def test_a_named_pirate_hex_needs_no_placing(client):
    sea, _ = sea_and_land(new(client))
    st = new(client, pirate=sea)
    assert st["pirate"] == sea and "pirate_pending" not in st["scenario_state"]
    assert "place_pirate" not in client.post("/v1/legal-actions", json={"state": st}).get_json()["actions"]


def test_games_without_a_pirate_have_nothing_to_place(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    assert "pirate_pending" not in st["scenario_state"]
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "place_pirate", "player": 0, "hex": [0, 0]}})
    assert r.status_code == 422                       # no such action in the base game


def test_a_new_world_places_harbours_then_the_pirate(client):
    from service.engine.scenarios import get_scenario
    st = new(client, "SC08", 3, 3)
    assert st["scenario_state"]["pirate_pending"] is True and st["scenario_state"]["harbor_pile"]
    sea, _ = sea_and_land(st)
    v = adjudicate(client, st, {"type": "place_pirate", "player": 0, "hex": sea})
    assert [x["rule"] for x in v["violations"]] == ["SC08-005"]          # the harbours come first
    while True:
        la = client.post("/v1/legal-actions", json={"state": st}).get_json()
        if "place_harbor" not in la["actions"]:
            break
        st = adjudicate(client, st, la["actions"]["place_harbor"][0])["state"]
    assert list(la["actions"]) == ["place_pirate"]
    assert get_scenario("SC08").pirate


@pytest.mark.parametrize("change,why", [
    (lambda s: s["scenario_state"].update(pirate_pending=False), "true or left out"),
    (lambda s: s.update(pirate=[s["board"]["hexes"][0]["q"], s["board"]["hexes"][0]["r"]]), "off the board"),
    (lambda s: s.update(phase="main"), "before the first settlement"),
])
def test_an_inconsistent_pending_pirate_is_a_422(client, change, why):
    st = new(client)
    change(st)
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    body = r.get_json()
    assert any(e["pointer"] in ("/state/scenario_state/pirate_pending",) and why in e["detail"] for e in body["errors"]), body
