"""Our game record: a documented JSON record and a one-line-per-action text form (``docs/records.md``).

A record is::

    {"format": "seafarers-record", "version": 1,
     "header": {"scenario", "players", "options", "seed", "rules", "service_version", "source"},
     "initial": <the initial position, as the service writes a state>,
     "actions": [<each action as the service writes it, chance outcomes included: dice, cards drawn or stolen>],
     "sources": [<per action, its line or index in the record it was imported from>] (imported records only),
     "stated": {<derived values the imported record states: vp, longest_road, largest_army, winner>},
     "digests": {"initial": "sha256:...", "steps": ["sha256:..." per action], "final": "sha256:..."}}

``write_json`` writes it canonically (sorted keys, no whitespace, UTF-8, one final newline) and ``write_text``
writes the text form; ``read_json`` / ``read_text`` read them back. :func:`replayed` fills the digests in by
replaying the actions, so a record replayed and written again is the same bytes.

Chance outcomes: an action that left its outcome to the seeded generator (a ``roll`` without ``dice``, a card
bought without ``card``) is written with the outcome the generator gave (from the step's events), so a
record never depends on the generator to be read again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Optional

from .problems import RecordProblem, malformed, unsupported

FORMAT = "seafarers-record"
VERSION = 1
TEXT_MAGIC = "#seafarers-record"
MAX_ACTIONS = 20_000
_ROOT = Path(__file__).resolve().parents[2]


def rules_version() -> str:
    """The rules a record was judged by: the digest of the rules catalogue (``rules/catalogue.jsonl`` of the
    package)."""
    try:
        data = (Path(__file__).resolve().parents[1] / "rules" / "catalogue.jsonl").read_bytes()
    except OSError:
        return "unknown"
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def service_version() -> str:
    try:
        from importlib.metadata import version
        return version("seafarers-referee")
    except Exception:
        import re
        m = re.search(r'^version\s*=\s*"([^"]+)"', (_ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
        return m.group(1) if m else "unknown"


def canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def write_json(rec: dict) -> str:
    return canonical(rec) + "\n"


def read_json(text: str, pointer: str = "/record") -> dict:
    try:
        rec = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise malformed(pointer, f"not JSON: {getattr(e, 'msg', e)}", getattr(e, "lineno", None)) from None
    return check(rec, pointer)


def check(rec: Any, pointer: str = "/record") -> dict:
    """The record's shape (its contents are judged by a replay), or a RecordProblem naming the field."""
    if not isinstance(rec, dict):
        raise malformed(pointer, "a record is a JSON object")
    if rec.get("format") != FORMAT:
        raise malformed(f"{pointer}/format", f"must be {FORMAT!r}")
    if rec.get("version") != VERSION:
        raise unsupported(f"{pointer}/version", f"record version {rec.get('version')!r} is not one we read ({VERSION})")
    allowed = {"format", "version", "header", "initial", "actions", "sources", "stated", "checks", "digests",
               "provenance"}
    for k in rec:
        if k not in allowed:
            raise malformed(f"{pointer}/{k}", "unknown field")
    if not isinstance(rec.get("header"), dict):
        raise malformed(f"{pointer}/header", "missing: scenario, players, options, seed, rules, service_version")
    if not isinstance(rec.get("initial"), dict):
        raise malformed(f"{pointer}/initial", "missing: the initial position")
    acts = rec.get("actions")
    if not isinstance(acts, list) or len(acts) > MAX_ACTIONS:
        raise malformed(f"{pointer}/actions", f"must be a list of at most {MAX_ACTIONS} actions")
    if "stated" in rec and not isinstance(rec["stated"], (dict, type(None))):
        raise malformed(f"{pointer}/stated", "must be an object (vp, longest_road, largest_army, winner)")
    chk = rec.get("checks")
    if chk is not None:
        if not isinstance(chk, list) or len(chk) > MAX_ACTIONS:
            raise malformed(f"{pointer}/checks", f"must be a list of at most {MAX_ACTIONS} checks")
        for i, c in enumerate(chk):
            if (not isinstance(c, dict) or type(c.get("after")) is not int or type(c.get("player")) is not int
                    or not isinstance(c.get("resources"), dict)
                    or not all(isinstance(k, str) and type(v) is int for k, v in c["resources"].items())):
                raise malformed(f"{pointer}/checks/{i}", "a check is {after, player, resources[, line]}")
    src = rec.get("sources")
    if src is not None and (not isinstance(src, list) or len(src) != len(acts)):
        raise malformed(f"{pointer}/sources", "one source (line or index) per action")
    return rec


def new_record(initial: dict, actions: list[dict], *, source: Optional[dict] = None, sources: Optional[list] = None,
               stated: Optional[dict] = None, seed: Optional[int] = None, provenance: Optional[list] = None,
               checks: Optional[list] = None) -> dict:
    rec: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "header": {"scenario": initial.get("scenario"), "players": len(initial.get("players") or []),
                   "options": initial.get("options") or {}, "seed": seed, "rules": rules_version(),
                   "service_version": service_version(), "source": source},
        "initial": initial, "actions": actions,
    }
    if sources is not None:
        rec["sources"] = sources
    if stated is not None:
        rec["stated"] = stated
    if checks:
        rec["checks"] = checks
    if provenance:
        rec["provenance"] = provenance
    return rec


# ---- the text form ---------------------------------------------------------------------------------

def _val(v: Any) -> str:
    # compact JSON with every space escaped: a value is one token
    return json.dumps(v, separators=(",", ":"), ensure_ascii=True, sort_keys=True).replace(" ", "\\u0020")


def write_text(rec: dict) -> str:
    """One line per action, for people::

        #seafarers-record 1
        #header {...}
        #initial {...}
        #initial-digest sha256:...
        0 build_settlement P0 node=[0,-1,"S"] @sha256:...
        ...
        #final-digest sha256:...
    """
    lines = [f"{TEXT_MAGIC} {rec['version']}", f"#header {canonical(rec['header'])}",
             f"#initial {canonical(rec['initial'])}"]
    for key in ("stated", "checks", "provenance"):
        if key in rec:
            lines.append(f"#{key} {canonical(rec[key])}")
    dg = rec.get("digests") or {}
    if dg.get("initial"):
        lines.append(f"#initial-digest {dg['initial']}")
    steps = dg.get("steps") or []
    sources = rec.get("sources")
    for i, a in enumerate(rec["actions"]):
        parts = [str(i), a["type"], f"P{a['player']}"]
        parts += [f"{k}={_val(v)}" for k, v in sorted(a.items()) if k not in ("type", "player")]
        if sources is not None:
            parts.append(f"src={_val(sources[i])}")
        if i < len(steps) and steps[i]:
            parts.append(f"@{steps[i]}")
        lines.append(" ".join(parts))
    if dg.get("final"):
        lines.append(f"#final-digest {dg['final']}")
    return "\n".join(lines) + "\n"


def read_text(text: str, pointer: str = "/record") -> dict:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].startswith(TEXT_MAGIC + " "):
        raise malformed(pointer, f"the text form starts with '{TEXT_MAGIC} <version>'", 1)
    try:
        version = int(lines[0].split(" ", 1)[1])
    except ValueError:
        raise malformed(pointer, "the version is a number", 1) from None
    rec: dict[str, Any] = {"format": FORMAT, "version": version}
    actions: list[dict] = []
    steps: list[Optional[str]] = []
    sources: list[Any] = []
    digests: dict[str, Any] = {}

    def load(v: str, n: int) -> Any:
        try:
            return json.loads(v)
        except (json.JSONDecodeError, RecursionError):
            raise malformed(pointer, f"not a JSON value: {v[:60]!r}", n) from None

    for n, line in enumerate(lines[1:], start=2):
        if len(actions) > MAX_ACTIONS:
            raise malformed(pointer, f"more than {MAX_ACTIONS} actions", n)
        if line.startswith("#"):
            key, _, v = line[1:].partition(" ")
            if key in ("header", "initial", "stated", "checks", "provenance"):
                rec[key] = load(v, n)
            elif key in ("initial-digest", "final-digest"):
                digests[key.split("-")[0]] = v
            else:
                raise malformed(pointer, f"unknown line #{key}", n)
            continue
        toks = line.split(" ")
        if len(toks) < 3 or not toks[0].isdigit() or int(toks[0]) != len(actions) or not toks[2].startswith("P"):
            raise malformed(pointer, "an action line is '<index> <type> P<player> field=value ... [@digest]'", n)
        try:
            a: dict[str, Any] = {"type": toks[1], "player": int(toks[2][1:])}
        except ValueError:
            raise malformed(pointer, "the player is P and a number", n) from None
        step = None
        src: Any = None
        for tok in toks[3:]:
            if tok.startswith("@"):
                step = tok[1:]
                continue
            k, eq, v = tok.partition("=")
            if not eq:
                raise malformed(pointer, f"{tok!r} is not field=value", n)
            if k == "src":
                src = load(v, n)
            else:
                a[k] = load(v, n)
        actions.append(a)
        steps.append(step)
        sources.append(src)
    rec["actions"] = actions
    if any(s is not None for s in sources):
        rec["sources"] = sources
    if digests or any(steps):
        out = {"initial": digests.get("initial"), "steps": steps, "final": digests.get("final")}
        rec["digests"] = out
    return check(rec, pointer)


def read_any(text: str, pointer: str = "/record") -> dict:
    return read_text(text, pointer) if text.startswith(TEXT_MAGIC) else read_json(text, pointer)


__all__ = ["FORMAT", "VERSION", "RecordProblem", "new_record", "read_json", "read_text", "read_any", "write_json",
           "write_text", "check"]
