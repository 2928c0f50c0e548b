"""The rules catalogue (service/rules): every rule ID the code, the contract and the documents name is in it;
GET /v1/rules and GET /v1/rules/{id} answer as documented; violations carry the rule's title and ruling."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import rules as catalogue

from .helpers import adjudicate, radius_board, state
from .spec_util import check_response

ROOT = Path(__file__).resolve().parents[1]
#: A rule ID inside a string literal of the code ("SEA-029", 'R-008', f"... BASE-BUILD-2 ...").
LITERAL = re.compile(r"""["'][^"'\n]*?\b((?:SEA|SC\d\d|TDE\d|GOLD|DIAM|WAG|BASE56|BASE|CK|R)(?:-[A-Z0-9]+)+)\b""")


def _texts(*patterns):
    for pattern in patterns:
        for p in sorted(ROOT.glob(pattern)):
            if "__pycache__" not in p.parts:
                yield p, p.read_text(encoding="utf-8")


def test_every_id_the_code_cites_is_in_the_catalogue():
    missing = {}
    for p, text in _texts("service/**/*.py", "service/**/*.html"):
        for m in LITERAL.finditer(text):
            if m.group(1) not in catalogue.RULES:
                missing.setdefault(m.group(1), str(p.relative_to(ROOT)))
    assert not missing, f"cited but not in service/rules/catalogue.jsonl: {missing}"


def test_every_id_a_document_or_the_contract_names_is_in_the_catalogue():
    missing = {}
    for p, text in _texts("README.md", "docs/**/*.md", "openapi.yaml", "service/**/*.py",
                          "tests/fixtures/examples/cases/*.json"):
        for rid in catalogue.unknown_ids(text):
            missing.setdefault(rid, str(p.relative_to(ROOT)))
    assert not missing, missing


def test_the_catalogue_names_only_ids_it_has():
    for e in catalogue.RULES.values():
        text = " ".join(str(e.get(k, "")) for k in ("title", "statement", "decision", "source"))
        assert not catalogue.unknown_ids(text), (e["id"], catalogue.unknown_ids(text))


def test_the_literal_scan_finds_ids():
    """The scan above is not vacuous: it sees the IDs the engine cites (and would see a new one)."""
    text = (ROOT / "service/engine/actions/robber.py").read_text(encoding="utf-8")
    found = {m.group(1) for m in LITERAL.finditer(text)}
    assert {"SEA-028", "SEA-029", "SEA-031", "BASE-ROBBER-3", "R-008"} <= found
    fake = "SEA" + "-999"                  # (not spelt out: the rule-coverage count would take it for a typo)
    assert [m.group(1) for m in LITERAL.finditer(f'x = Violation("{fake}", "m")')] == [fake]


def test_every_entry_is_complete_and_in_our_words():
    assert len(catalogue.RULES) > 700
    for rid, e in catalogue.RULES.items():
        assert e["id"] == rid and e["title"] and e["statement"] and e["source"], rid
        assert "seeds/" not in e["source"] and ".txt" not in e["source"], rid      # a document, not a file path
        if rid.startswith("R-"):
            assert e["kind"] == "ruling" and e["decision"] and e["rules"] is not None, rid
            assert all(r in catalogue.RULES for r in e["rules"]), rid
        for r in e.get("rulings", []):
            assert rid in catalogue.RULES[r]["rules"]
    for prefix in ("BASE-", "SEA-", "SC01-", "SC11-", "GOLD-", "R-", "TDE1-", "DIAM-", "CK-", "WAG-"):
        assert any(r.startswith(prefix) for r in catalogue.RULES), prefix


def test_rules_are_listed_and_filtered(client):
    r = client.get("/v1/rules")
    check_response("/v1/rules", "get", r)
    assert r.json["count"] == len(catalogue.RULES) == len(r.json["rules"])
    r = client.get("/v1/rules?prefix=SC10-")
    check_response("/v1/rules", "get", r)
    assert [e["id"] for e in r.json["rules"]] == [f"SC10-{i:03d}" for i in range(1, 15)]
    r = client.get("/v1/rules?module=GOLD&prefix=R-")
    ids = [e["id"] for e in r.json["rules"]]
    assert "R-036" in ids and "R-008" not in ids and all(e["applies_to_module"] == "GOLD" for e in r.json["rules"])
    assert all(e["module"] == "DIAM" for e in client.get("/v1/rules?module=DIAM&prefix=DIAM").json["rules"])


@pytest.mark.parametrize("query", ["module=XX", "prefix=sea", "prefix=" + "A" * 41, "module=SEA&module=SEA",
                                   "colour=red"])
def test_bad_rule_filters_are_400_problems(client, query):
    r = client.get("/v1/rules?" + query)
    check_response("/v1/rules", "get", r)
    assert r.status_code == 400 and r.mimetype == "application/problem+json"


def test_one_rule_and_an_unknown_one(client):
    r = client.get("/v1/rules/R-008")
    check_response("/v1/rules/{id}", "get", r)
    assert r.json["decision"] and "SEA-029" in r.json["rules"]
    r = client.get("/v1/rules/SEA-029")
    check_response("/v1/rules/{id}", "get", r)
    assert r.json["title"] == "Pirate stays at sea" and "R-008" in r.json["rulings"]
    fake = "SEA" + "-999"
    r = client.get(f"/v1/rules/{fake}")
    check_response("/v1/rules/{id}", "get", r)
    assert r.status_code == 404 and r.mimetype == "application/problem+json" and fake in r.json["detail"]


def test_a_violation_carries_its_title_and_resolves(client):
    st = state(radius_board(1), phase="main", current=0)
    v = adjudicate(client, st, {"type": "end_turn", "player": 1})
    assert not v["legal"]
    for x in v["violations"]:
        assert x["title"] == catalogue.title(x["rule"])
        assert client.get(f"/v1/rules/{x['rule']}").status_code == 200


def test_a_violation_names_the_ruling_quoted_in_its_message(client):
    """A message that quotes a ruling (R-011: a ship moves from its builder's next turn) carries it."""
    from service.engine.core import Violation
    v = Violation("SEA-018", "the ship was built this turn and may not move until the player's next turn (R-011)")
    assert v.deciding_ruling() == "R-011"
    assert Violation("SEA-017", "one ship a turn").deciding_ruling() is None
    assert Violation("SEA-028", "m (R-011)", ruling="R-008").deciding_ruling() == "R-008"


def test_scenario_sources_name_documents_not_files_outside_the_repository(client):
    for s in client.get("/v1/scenarios").get_json()["scenarios"]:
        assert "seeds/" not in s["source"] and ".md" not in s["source"] and "GET /v1/rules" in s["source"], s


@pytest.mark.parametrize("sid,players", [("base", 3), ("SC01", 4), ("SC04", 3), ("SC10", 4), ("GOLD", 4), ("TDE1", 3), ("TDE2", 4)])
def test_every_id_an_answer_names_resolves(client, sid, players):
    """Answers of a played game (verdicts, explanations, legal-action lists, replays) name only IDs of the
    catalogue, including IDs made up at run time (a scenario's rule attributes)."""
    import json
    import random
    st = client.post("/v1/games", json={"scenario": sid, "players": players, "seed": 5}).get_json()["state"]
    rnd = random.Random(5)
    texts = []
    for _ in range(40):
        la = client.post("/v1/legal-actions", json={"state": st}).get_json()
        acts = [a for v in la["actions"].values() for a in v]
        if not acts:
            break
        texts.append(json.dumps(la))
        a = rnd.choice(acts)
        wrong = {**a, "player": (a["player"] + 1) % players}            # out of turn: a violation to read
        for act in (wrong, a):
            r = client.post("/v1/adjudicate?explain=true", json={"state": st, "action": act})
            texts.append(r.get_data(as_text=True))
        st = r.get_json()["state"] or st
    text = "\n".join(texts)
    assert catalogue.ID_PATTERN.search(text)                          # the answers do name rules
    assert not catalogue.unknown_ids(text)
