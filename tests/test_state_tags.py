"""State tags: a state the service returned is recognised by its ``State-Tag`` and not checked again;
the answers are the same bytes with or without a tag, and a tag that does not match is never trusted."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.api import create_app, integrity, posted_state, service
from service.engine.selfplay import play_game

ROOT = Path(__file__).resolve().parents[1]
SETTLE = {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]}


@pytest.fixture()
def client():
    integrity.set_key(b"test-key")
    service._RECOGNISED.clear()
    yield create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    integrity.set_key(None)
    service._RECOGNISED.clear()


def new_game(c, seed: int = 7):
    r = c.post("/v1/games", json={"scenario": "base", "players": 3, "seed": seed})
    assert r.status_code == 201
    return r.json["state"], r.headers["State-Tag"]


def test_answers_with_a_state_carry_its_tag_and_the_tag_is_that_of_the_state_as_sent(client):
    st, tag = new_game(client)
    assert tag.startswith("v1.") and len(tag) == integrity.TAG_LENGTH
    assert integrity.tag_of(st) == tag
    r = client.post("/v1/adjudicate", json={"state": st, "action": SETTLE})
    assert r.json["legal"] and integrity.tag_of(r.json["state"]) == r.headers["State-Tag"]
    illegal = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "end_turn", "player": 0}})
    assert illegal.json["state"] is None and "State-Tag" not in illegal.headers
    # keys in another order are the same canonical bytes: still recognised
    shuffled = dict(reversed(list(st.items())))
    assert integrity.recognised(shuffled, tag)
    # a replay's final position is tagged too, and posted on with its tag it is recognised
    rep = client.post("/v1/replay", json={"state": st, "actions": [SETTLE]})
    final = rep.json["final"]["state"]
    assert integrity.tag_of(final) == rep.headers["State-Tag"] and integrity.recognised(final, rep.headers["State-Tag"])


def test_a_recognised_state_gives_the_same_bytes_on_every_endpoint(client):
    seen = []
    play_game("base", 4, 11, max_actions=80, check=False, on_step=lambda s, a, v: seen.append((s, a)))
    from service.api.codec import dump_state
    from service.engine.legal import action_json
    for s, a in seen[::9]:
        st = json.loads(json.dumps(dump_state(s)))
        tag = integrity.tag_of(st)
        for path, body in (("/v1/adjudicate", {"state": st, "action": action_json(a)}),
                           ("/v1/adjudicate?explain=true", {"state": st}),
                           ("/v1/derive", {"state": st}),
                           ("/v1/legal-actions", {"state": st}),
                           ("/v1/replay", {"state": st, "actions": [action_json(a)]}),
                           ("/v1/render", {"state": st})):
            plain = client.post(path, json=body)
            for _ in range(2):      # loaded and checked-free, then straight from the kept states
                tagged = client.post(path, json=body, headers={"State-Tag": tag})
                assert tagged.status_code == plain.status_code == 200, path
                assert tagged.data == plain.data, path
    assert service._RECOGNISED


def test_a_recognised_state_is_not_checked_again(client, monkeypatch):
    st, tag = new_game(client)
    calls = []
    real = posted_state.check_state
    monkeypatch.setattr(posted_state, "check_state", lambda *a: calls.append(1) or real(*a))
    assert client.post("/v1/adjudicate", json={"state": st, "action": SETTLE}).status_code == 200
    assert calls == [1]
    assert client.post("/v1/adjudicate", json={"state": st, "action": SETTLE},
                       headers={"State-Tag": tag}).status_code == 200
    assert calls == [1]


@pytest.mark.parametrize("change", ["bank", "player", "piece", "key"])
def test_a_changed_state_or_a_changed_tag_is_checked_as_any_other(client, change):
    st, tag = new_game(client)
    bad = json.loads(json.dumps(st))
    if change == "bank":
        bad["bank"]["ore"] += 1                     # cards no longer add up: a 422
    elif change == "player":
        bad["current_player"] = 7                   # no such player: a 422
    elif change == "piece":
        bad["pieces"]["roads"].append({"player": 0, "edge": [0, 0, "NE"]})     # not from supply: a 422
    else:
        bad = st
    posted_tag = tag if change != "key" else integrity.PREFIX + "A" * 22
    if change == "key":
        # a well-formed tag that is not this deployment's: ignored, the state checked (and here fine)
        r = client.post("/v1/adjudicate", json={"state": bad, "action": SETTLE}, headers={"State-Tag": posted_tag})
        assert r.status_code == 200 and not service._RECOGNISED
        return
    r = client.post("/v1/adjudicate", json={"state": bad, "action": SETTLE}, headers={"State-Tag": posted_tag})
    assert r.status_code == 422, r.json
    assert not service._RECOGNISED


def test_another_key_or_another_release_does_not_recognise_the_tag(client):
    st, tag = new_game(client)
    assert integrity.recognised(st, tag)
    integrity.set_key(b"another deployment")
    assert not integrity.recognised(st, tag)
    integrity.set_key(b"test-key")
    assert integrity.recognised(st, tag)


@pytest.mark.parametrize("junk", ["", "v1.", "x" * 200, "v1." + "!" * 22, "v2." + "A" * 22, "\u00e9" * 25])
def test_junk_tags_are_ignored(client, junk):
    st, _ = new_game(client)
    plain = client.post("/v1/adjudicate", json={"state": st, "action": SETTLE})
    try:
        r = client.post("/v1/adjudicate", json={"state": st, "action": SETTLE}, headers={"State-Tag": junk})
    except (UnicodeEncodeError, ValueError):   # the test client refuses the header itself
        return
    assert r.status_code == 200 and r.data == plain.data


def test_a_forged_tag_made_with_the_key_is_trusted_so_the_key_must_stay_secret(client):
    """What the key protects: only its holder can make a state skip the checks."""
    st, _ = new_game(client)
    bad = json.loads(json.dumps(st))
    bad["bank"]["ore"] += 1
    r = client.post("/v1/adjudicate", json={"state": bad, "action": SETTLE},
                    headers={"State-Tag": integrity.tag_of(bad)})
    assert r.status_code == 200


def test_gunicorn_conf_gives_every_worker_one_key_when_none_is_set(tmp_path):
    code = ("import os, runpy; runpy.run_path('gunicorn.conf.py'); print(os.environ.get('STATE_KEY', ''))")
    env = {k: v for k, v in os.environ.items() if k not in ("STATE_KEY", "STATE_KEY_FILE")}
    made = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()
    assert len(made) == 64
    kept = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, "STATE_KEY": "mine"},
                          capture_output=True, text=True, check=True).stdout.strip()
    assert kept == "mine"
    (tmp_path / "key").write_text("from-a-secret\n")
    from_file = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                               env={**env, "STATE_KEY_FILE": str(tmp_path / "key")},
                               capture_output=True, text=True, check=True).stdout.strip()
    assert from_file == ""          # the file's key is used by the workers themselves
    missing = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                             env={**env, "STATE_KEY_FILE": str(tmp_path / "absent")},
                             capture_output=True, text=True, check=True).stdout.strip()
    assert len(missing) == 64       # an absent Secret: still one key for the workers of this server


def test_the_key_comes_from_the_environment_or_its_file(tmp_path, monkeypatch):
    integrity.set_key(None)
    monkeypatch.setenv("STATE_KEY", "k1")
    a = integrity.state_key()
    integrity.set_key(None)
    monkeypatch.delenv("STATE_KEY")
    (tmp_path / "key").write_text("k1\n")
    monkeypatch.setenv("STATE_KEY_FILE", str(tmp_path / "key"))
    assert integrity.state_key() == a
    integrity.set_key(None)
    monkeypatch.setenv("STATE_KEY_FILE", str(tmp_path / "absent"))
    assert integrity.state_key() != a
    integrity.set_key(None)


def test_a_recognised_state_with_warnings_answers_them_each_time(client):
    st, _ = new_game(client)
    st = json.loads(json.dumps(st))
    st["pieces"]["roads"].append({"player": 1, "edge": [0, 0, "NE"]})     # joined to nothing: a warning
    st["players"][1]["supply"]["roads"] -= 1
    body = {"state": st, "action": SETTLE}
    plain = client.post("/v1/adjudicate", json=body)
    assert plain.status_code == 200 and plain.json["warnings"]
    tag = integrity.tag_of(st)
    for _ in range(3):
        r = client.post("/v1/adjudicate", json=body, headers={"State-Tag": tag})
        assert r.data == plain.data


def test_a_kept_state_posted_again_as_the_same_text_is_not_tagged_again_and_nothing_else_passes_for_it(
        client, monkeypatch):
    st, tag = new_game(client)
    first = client.post("/v1/adjudicate", json={"state": st, "action": SETTLE}, headers={"State-Tag": tag})
    assert first.status_code == 200 and service._RECOGNISED       # recognised by its tag, and kept
    worked_out = []
    real = posted_state.recognised
    monkeypatch.setattr(posted_state, "recognised", lambda *a: worked_out.append(1) or real(*a))
    again = client.post("/v1/adjudicate", json={"state": st, "action": SETTLE}, headers={"State-Tag": tag})
    assert again.data == first.data and worked_out == []          # the same text: the kept state
    shuffled = json.dumps({"state": dict(reversed(list(st.items()))), "action": SETTLE})  # (as written)
    r = client.post("/v1/adjudicate", data=shuffled, content_type="application/json", headers={"State-Tag": tag})
    assert r.data == first.data and worked_out == [1]             # another text: its tag worked out, as before
    assert st["setup"]["round"] == 1
    for change in ("bank", "true for 1"):
        bad = json.loads(json.dumps(st))
        if change == "bank":
            bad["bank"]["ore"] += 1
        else:
            bad["setup"]["round"] = True          # equal to 1 in Python, another JSON value
        r = client.post("/v1/adjudicate", json={"state": bad, "action": SETTLE}, headers={"State-Tag": tag})
        assert r.status_code == 422, change
