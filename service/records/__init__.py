"""Game records in and out: other apps' records read as our positions and action lists (JSettlers2 saves
and event logs, catanatron games), and our own game record (``record.py``). See ``docs/records.md``.

Parsing only: no verdict is decided here. A converted position is loaded by the service's one input
boundary and each converted action judged by the same replay loop as ``POST /v1/replay``.
"""
from __future__ import annotations

import json
from typing import Any, Optional

from . import catanatron, jsettlers, record, soclog
from .problems import RecordProblem, malformed

#: Format names a request may give (``format``), each with its reader.
FORMATS = ("seafarers-record", "seafarers-record-text", "jsettlers2-save", "jsettlers2-soclog", "catanatron")
#: The largest record a reader takes (a log is read line by line within it).
MAX_RECORD_CHARS = 16 * 1024 * 1024


def detect(rec: Any) -> Optional[str]:
    if isinstance(rec, str):
        if rec.startswith(record.TEXT_MAGIC):
            return "seafarers-record-text"
        head = rec[:200]
        if head.startswith("SOC game event log") or soclog.LEGACY.match(head.split("\n", 1)[0]):
            return "jsettlers2-soclog"
        # a log without its header line: its entries tell (the reader then names the missing header)
        if any(soclog.ENTRY.match(line) for line in rec[:4000].split("\n")[:40]):
            return "jsettlers2-soclog"
        return None
    if isinstance(rec, dict):
        if rec.get("format") == record.FORMAT:
            return "seafarers-record"
        if "modelVersion" in rec and "playerSeats" in rec:
            return "jsettlers2-save"
        if catanatron.looks_like(rec):
            return "catanatron"
    return None


def read(rec: Any, fmt: Optional[str] = None, pointer: str = "/record") -> dict[str, Any]:
    """Any record -> ``{"format", "kind": "position", "state", ...}`` for a save, or
    ``{"format", "kind": "record", "record": <our record>}`` for a log or a game; a RecordProblem otherwise."""
    if isinstance(rec, str) and len(rec) > MAX_RECORD_CHARS:
        raise RecordProblem(f"a record of more than {MAX_RECORD_CHARS} characters", [{"pointer": pointer,
                            "detail": "too large"}], status=413, kind="too-large")
    if isinstance(rec, str) and rec.lstrip()[:1] == "{" and fmt in (None, "jsettlers2-save", "catanatron",
                                                                     "seafarers-record"):
        try:        # a JSON record sent as text (a file's contents): read as JSON, or named as not JSON
            rec = json.loads(rec)
        except (json.JSONDecodeError, RecursionError) as e:
            raise malformed(pointer, f"not JSON: {getattr(e, 'msg', e)}", getattr(e, "lineno", None)) from None
    if fmt is None:
        fmt = detect(rec)
        if fmt is None:
            raise malformed(pointer, "not a record of a format we read (" + ", ".join(FORMATS) + "); name it in "
                            "'format' if it is one")
    elif fmt not in FORMATS:
        raise malformed("/format", f"{fmt!r} is not one of {', '.join(FORMATS)}")
    if fmt in ("jsettlers2-save", "catanatron", "seafarers-record") and isinstance(rec, str):
        raise malformed(pointer, f"a {fmt} record is a JSON object")
    if fmt == "jsettlers2-save":
        return {"kind": "position", **jsettlers.import_save(rec, pointer)}
    if fmt == "seafarers-record":
        return {"format": fmt, "kind": "record", "record": record.check(rec, pointer)}
    if fmt == "seafarers-record-text":
        if not isinstance(rec, str):
            raise malformed(pointer, "the text form is a string")
        return {"format": fmt, "kind": "record", "record": record.read_text(rec, pointer)}
    if fmt == "jsettlers2-soclog":
        if not isinstance(rec, str):
            raise malformed(pointer, "a game event log is text (a JSON string)")
        imp = soclog.import_log(rec, pointer)
    else:
        imp = catanatron.import_game(rec, pointer)
    source = {"format": fmt, **(imp.get("source") or {})}
    rec_out = record.new_record(imp["initial"], imp["actions"], source=source, sources=imp["sources"],
                                stated=imp.get("stated") or None, provenance=imp.get("provenance"),
                                checks=imp.get("checks"))
    return {"format": fmt, "kind": "record", "record": rec_out}


def read_for_replay(rec: Any, fmt: Optional[str] = None, pointer: str = "/record") -> tuple[dict[str, Any], Any]:
    """``read`` for a replay: an event log refused at a line it cannot represent (a 422 naming that line) is
    read up to that line instead, and the refusal is given back (``(got, problem)``; ``problem`` None when
    the whole record was read). The replay judges the moves before the line: a first illegal move among them
    is its verdict; if they are all legal the refusal stands (nothing after the line is judged, nor guessed)."""
    try:
        return read(rec, fmt, pointer), None
    except RecordProblem as e:
        line = e.errors[0].get("line") if e.errors else None
        if e.status != 422 or not isinstance(line, int) or not isinstance(rec, str):
            raise
        if (fmt or detect(rec)) != "jsettlers2-soclog":
            raise
        try:
            imp = soclog.import_log(rec, pointer, stop_at=line)
        except RecordProblem:
            raise e from None
        source = {"format": "jsettlers2-soclog", **(imp.get("source") or {}), "read_up_to_line": line}
        rec_out = record.new_record(imp["initial"], imp["actions"], source=source, sources=imp["sources"],
                                    stated=None, provenance=imp.get("provenance"), checks=imp.get("checks"))
        return {"format": "jsettlers2-soclog", "kind": "record", "record": rec_out}, e


__all__ = ["FORMATS", "RecordProblem", "detect", "read", "read_for_replay", "record"]
