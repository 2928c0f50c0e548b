"""Records over HTTP (``POST /v1/import``, ``POST /v1/replay`` with ``record``) and the command line
(``python -m service.records``)."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from service.api import create_app
from service.records.cli import main as cli

JS = Path(__file__).resolve().parent / "fixtures" / "records" / "jsettlers2"


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


def log(name: str = "has-timestamps.soclog") -> str:
    return (JS / name).read_text(encoding="utf-8")


def test_an_imported_save_is_a_position_the_service_judges_as_if_posted_directly(client):
    save = json.loads((JS / "tradestats.game.json").read_text())
    r = client.post("/v1/import", json={"record": save})
    assert r.status_code == 200, r.get_json()
    got = r.get_json()
    assert got["kind"] == "position" and got["disagreements"] == []
    assert any(p["field"].startswith("/record/") for p in got["provenance"])
    # the same position posted directly: the same derived values, the same legal actions
    d = client.post("/v1/derive", json={"state": got["state"]})
    assert d.status_code == 200 and d.get_json()["derived"] == got["derived"]


def test_a_replayed_record_is_judged_as_the_same_actions_posted_to_replay(client):
    """Importing changes no verdict: the record's replay gives the step digests of an ordinary replay of
    its initial position and actions."""
    rec = client.post("/v1/import", json={"record": log()}).get_json()["record"]
    by_record = client.post("/v1/replay", json={"record": rec}).get_json()
    direct = client.post("/v1/replay", json={"state": rec["initial"], "actions": rec["actions"]}).get_json()
    assert by_record["all_legal"] and direct["all_legal"]
    assert [s["digest"] for s in by_record["steps"]] == [s["digest"] for s in direct["steps"]]
    assert by_record["final"]["digest"] == direct["final"]["digest"]
    assert by_record["record"]["record"]["digests"]["steps"] == [s["digest"] for s in direct["steps"]]


def test_a_foreign_record_replays_directly_with_its_first_illegal_line(client):
    text = log().replace("pieceType=1|coord=58", "pieceType=1|coord=54")
    r = client.post("/v1/replay", json={"record": text, "format": "jsettlers2-soclog"}).get_json()
    assert r["all_legal"] is False and r["first_illegal"]["rules"] == ["BASE-BUILD-2"]
    assert r["record"]["first_illegal"]["source"] == 114


@pytest.mark.parametrize("body, pointer", [
    ({"record": "nothing we know"}, "/record"),
    ({"record": {"modelVersion": 9999, "playerSeats": []}}, "/record/modelVersion"),
    ({"record": log(), "format": "jsettlers2-save"}, "/record"),
    ({"record": {}, "format": "chess-pgn"}, "/format"),
    ({"record": log("test-header-type-invalid.soclog")}, "/record"),
])
def test_a_record_that_cannot_be_read_is_a_422_naming_the_field(client, body, pointer):
    r = client.post("/v1/import", json=body)
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert r.get_json()["errors"][0]["pointer"] == pointer


def test_a_record_and_actions_together_are_refused(client):
    r = client.post("/v1/replay", json={"record": log(), "actions": []})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/actions"


def test_a_100_mb_log_is_a_413_before_it_is_read():
    """Over a real socket: the headers announce 100 MB, the answer is a 413 at once (the body is never
    sent, so neither read nor held)."""
    import socket
    import threading

    from werkzeug.serving import make_server
    srv = make_server("127.0.0.1", 0, create_app({"TESTING": True}), threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        t = time.perf_counter()
        with socket.create_connection(("127.0.0.1", srv.server_port), timeout=10) as sock:
            sock.sendall(b"POST /v1/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n{\"record\": \"SOC game" % (100 * 1024 * 1024))
            head = sock.recv(4096).decode("latin-1")
        assert head.startswith("HTTP/1.1 413") and "application/problem+json" in head
        assert time.perf_counter() - t < 5
    finally:
        srv.shutdown()


# ---- the command line -----------------------------------------------------------------------------

def test_import_replay_export_round_trip_on_the_command_line(tmp_path, capsys):
    src = JS / "has-timestamps.soclog"
    rec, replayed, again, text = (tmp_path / n for n in ("r.json", "p.json", "a.json", "r.txt"))
    assert cli(["import", str(src), "--out", str(rec)]) == 0
    assert cli(["replay", str(rec), "--out", str(replayed)]) == 0
    assert json.loads(capsys.readouterr().err.strip().splitlines()[-1])["all_legal"] is True
    assert cli(["export", str(replayed), "--text", "--out", str(text)]) == 0
    assert cli(["export", str(text), "--out", str(again)]) == 0
    assert again.read_bytes() == replayed.read_bytes()


def test_the_command_line_reports_a_problem_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.soclog"
    bad.write_text(log("test-version-too-old.soclog"))
    assert cli(["import", str(bad)]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["status"] == 422 and err["errors"][0]["line"] == 1


def test_a_replay_with_an_illegal_move_exits_1(tmp_path, capsys):
    f = tmp_path / "g.soclog"
    f.write_text(log().replace("pieceType=1|coord=58", "pieceType=1|coord=54"))
    assert cli(["replay", str(f)]) == 1
    assert json.loads(capsys.readouterr().err)["first_illegal"]["source"] == 114


def test_a_100_mb_file_is_refused_before_it_is_read(tmp_path, capsys):
    f = tmp_path / "huge.soclog"
    with open(f, "wb") as fh:          # sparse: no 100 MB written
        fh.truncate(100 * 1024 * 1024)
    t = time.perf_counter()
    assert cli(["import", str(f)]) == 2
    assert time.perf_counter() - t < 5
    assert json.loads(capsys.readouterr().err)["status"] == 413
    os.remove(f)


def test_a_log_is_replayed_to_a_first_illegal_move_before_a_line_it_cannot_read(client):
    """all-basic-actions.soclog: import refuses it at line 426 (cloth robbed in a game without cloth); the
    replay judges the moves before that line and answers the first illegal one (line 187, BASE-DEV-1), with
    the line it could not read. A log legal up to such a line stays a 422 naming it."""
    text = log("all-basic-actions.soclog")
    r = client.post("/v1/import", json={"record": text})
    assert r.status_code == 422 and r.get_json()["errors"][0]["line"] == 426
    r = client.post("/v1/replay", json={"record": text})
    assert r.status_code == 200, r.get_json()
    got = r.get_json()["record"]
    assert got["first_illegal"]["source"] == 187 and got["first_illegal"]["rules"] == ["BASE-DEV-1"]
    assert got["unread"]["line"] == 426
    from .spec_util import check_response
    check_response("/v1/replay", "post", r)                 # the answer as the contract documents it
    lines = log().split("\n")
    lines.insert(len(lines) - 3, "all:SOCMovePiece:game=g|pn=1|pieceType=0|fromCoord=58|toCoord=59")
    r = client.post("/v1/replay", json={"record": "\n".join(lines)})
    assert r.status_code == 422 and "only ships move" in r.get_json()["errors"][0]["detail"]


def test_the_command_line_replays_a_log_to_its_first_illegal_move_before_an_unreadable_line(tmp_path, capsys):
    f = tmp_path / "g.soclog"
    f.write_text(log("all-basic-actions.soclog"))
    assert cli(["replay", str(f)]) == 1
    out = json.loads(capsys.readouterr().err)
    assert out["first_illegal"]["source"] == 187 and out["unread"]["line"] == 426
