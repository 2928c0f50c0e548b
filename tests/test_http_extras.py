"""Seeds (an unseeded game draws one; D-seed-form), the new game's Location, ETag and compression on the
answers that stay the same for a release."""
from __future__ import annotations

import gzip
import json

import pytest

from service.api import create_app

from .spec_util import check_response


@pytest.fixture(scope="module")
def c():
    return create_app({"TESTING": True}).test_client()


def test_an_unseeded_game_draws_a_seed_and_reports_it(c):
    seeds = set()
    for _ in range(3):
        r = c.post("/v1/games", json={"players": 3})
        assert r.status_code == 201
        check_response("/v1/games", "post", r)
        seed = r.get_json()["state"]["rng"]["seed"]
        assert type(seed) is int and 0 <= seed < 2 ** 53
        seeds.add(seed)
        # the reported seed gives the same game
        again = c.post("/v1/games", json={"players": 3, "seed": seed}).get_json()
        assert again == r.get_json()
    assert len(seeds) > 1
    # null is "not given"; a replay's new game without a seed stays seed 0 (a record gives one game)
    assert c.post("/v1/games", json={"players": 3, "seed": None}).status_code == 201
    r = c.post("/v1/replay", json={"new_game": {"players": 3}, "actions": []})
    assert r.status_code == 200 and r.get_json()["final"]["state"]["rng"]["seed"] == 0


def test_seeds_past_2_53_are_strings_in_answers_and_accepted_both_ways(c):
    big = 2 ** 64 - 1
    as_int = c.post("/v1/games", json={"players": 3, "seed": big})
    as_str = c.post("/v1/games", json={"players": 3, "seed": str(big)})
    assert as_int.status_code == as_str.status_code == 201
    state = as_int.get_json()["state"]
    assert state["rng"]["seed"] == str(big) and as_int.get_json() == as_str.get_json()
    check_response("/v1/games", "post", as_int)
    # the state posts back as answered (a string seed), and as an integer
    assert c.post("/v1/derive", json={"state": state}).status_code == 200
    state_int = {**state, "rng": {**state["rng"], "seed": big}}
    assert c.post("/v1/derive", json={"state": state_int}).get_json() == \
        c.post("/v1/derive", json={"state": state}).get_json()
    # a small seed stays an integer (answers of today unchanged)
    assert c.post("/v1/games", json={"players": 3, "seed": 7}).get_json()["state"]["rng"]["seed"] == 7
    for bad in ("-1", "007", str(2 ** 64), "1e3", 2 ** 64, True, "", 1.5):
        r = c.post("/v1/games", json={"players": 3, "seed": bad})
        assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/seed", bad


def test_a_new_game_has_a_location_that_answers_it_again(c):
    r = c.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 11})
    assert r.status_code == 201 and r.headers["Location"] == "/v1/games/SC01/3/11"
    again = c.get(r.headers["Location"])
    assert again.status_code == 200 and again.get_data() == r.get_data()
    assert again.headers["State-Tag"] == r.headers["State-Tag"]
    r = c.post("/v1/games", json={"scenario": "SC01", "players": 4, "seed": 2, "options": {"cities_and_knights": True}})
    assert r.status_code == 201 and "?options=" in r.headers["Location"]
    assert c.get(r.headers["Location"]).get_data() == r.get_data()
    assert c.get("/v1/games/SC01/9/1").status_code == 422
    assert c.get("/v1/games/SC01/3/x").status_code == 422
    assert c.get("/v1/games/SC01/3/1?options=%7B").status_code == 400
    assert c.get("/v1/games/SC01/3/1?colour=red").status_code == 400


@pytest.mark.parametrize("path", ["/openapi.yaml", "/v1/rules", "/v1/rules?module=SEA", "/v1/rules/SEA-029"])
def test_etag_not_modified_and_gzip(c, path):
    plain = c.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    etag = plain.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert c.get(path).headers["ETag"] == etag
    r = c.get(path, headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.get_data() == b"" and r.headers["ETag"] == etag
    assert c.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
    if len(plain.get_data()) >= 1024:
        z = c.get(path, headers={"Accept-Encoding": "br, gzip;q=0.8"})
        assert z.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in z.headers["Vary"]
        assert gzip.decompress(z.get_data()) == plain.get_data() and len(z.get_data()) < len(plain.get_data()) / 2
        assert "Content-Encoding" not in c.get(path, headers={"Accept-Encoding": "gzip;q=0"}).headers
    if path.startswith("/v1/rules"):
        json.loads(plain.get_data())
