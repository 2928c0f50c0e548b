"""The rules catalogue: every rule and ruling ID the referee can cite, with a title, a short statement in
the project's own words, its source section and, for rulings (R-), what was decided.

A pure lookup over ``catalogue.jsonl`` (one entry a line, read once, at import, from inside the package),
shared by the engine and the API. The catalogue is data about the rules, not code enforcing them, so it is
kept in a format the rule-coverage count does not read as citations:

>>> rule("SEA-029")["title"]
'Pirate stays at sea'
>>> rule("R-008")["kind"], "SEA-029" in rule("R-008")["rules"]
('ruling', True)
>>> title("NOPE-1") is None
True
>>> [e["id"] for e in entries(prefix="SC01-")][:3]
['SC01-001', 'SC01-002', 'SC01-003']
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Optional

_LINES = Path(__file__).with_name("catalogue.jsonl").read_text(encoding="utf-8").splitlines()
RULES: dict[str, dict[str, Any]] = {e["id"]: e for e in map(json.loads, filter(None, _LINES))}
#: The modules an entry can be filtered by (a ruling also belongs to the module it decides for).
MODULES = tuple(sorted({e["module"] for e in RULES.values()}))

#: What a rule or ruling ID looks like wherever the code or a document names one.
ID_PATTERN = re.compile(r"\b(?:SEA|SC(?:0[1-9]|1[01])|TDE[1-6]|GOLD|DIAM|WAG|BASE56|BASE|CK|R)(?:-[A-Z0-9]+)+\b")


def rule(rule_id: str) -> Optional[dict[str, Any]]:
    """The catalogue entry of ``rule_id`` (shared: read it only), or None."""
    return RULES.get(rule_id)


def title(rule_id: str) -> Optional[str]:
    e = RULES.get(rule_id)
    return None if e is None else e["title"]


def entries(prefix: Optional[str] = None, module: Optional[str] = None) -> Iterable[dict[str, Any]]:
    """Entries in catalogue order whose ID starts with ``prefix`` and that belong to ``module``."""
    for e in RULES.values():
        if prefix and not e["id"].startswith(prefix):
            continue
        if module and module not in (e["module"], e.get("applies_to_module")):
            continue
        yield e


def unknown_ids(text: str) -> set[str]:
    """IDs named in ``text`` that the catalogue lacks."""
    return {m for m in ID_PATTERN.findall(text) if m not in RULES}
