"""The command line for records, no server needed: ``import``, ``replay``, ``export`` of a file.

    python -m service.records import game.soclog [--format jsettlers2-soclog] [--out record.json] [--text]
    python -m service.records replay record.json [--out replayed.json] [--text]
    python -m service.records export record.json --text [--out record.txt]

(also installed as ``seafarers-records``). ``add_subcommands(subparsers)`` adds the three to another
``argparse`` command line. Exit status: 0 done (a replay: every action legal and no derived value in
dispute), 1 a replay found an illegal action or a disagreement, 2 the record could not be read (the
problem, as the HTTP answer would give it, on standard error).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional

from . import FORMATS, MAX_RECORD_CHARS, read, read_for_replay
from .problems import RecordProblem
from .record import write_json, write_text


def _cache() -> Any:
    from ..cache import GraphCache
    return GraphCache.from_config({"REDIS_URL": None, "GRAPH_CACHE_SIZE": 16, "REDIS_TIMEOUT": 0.05})


def _load_file(path: str) -> Any:
    """The file's record: JSON when it parses as a JSON object, else its text. Refused before it is read
    when it is larger than a record may be."""
    if path == "-":
        text = sys.stdin.read(MAX_RECORD_CHARS + 1)
    else:
        size = os.path.getsize(path)
        if size > MAX_RECORD_CHARS:
            raise RecordProblem(f"{path} is {size} bytes: a record is at most {MAX_RECORD_CHARS} bytes",
                                [{"pointer": "/record", "detail": "too large"}], status=413, kind="too-large")
        with open(path, encoding="utf-8", errors="strict") as f:
            text = f.read()
    if len(text) > MAX_RECORD_CHARS:
        raise RecordProblem(f"a record is at most {MAX_RECORD_CHARS} characters",
                            [{"pointer": "/record", "detail": "too large"}], status=413, kind="too-large")
    return text          # the reader reads JSON records from their text and names what is wrong


def _emit(text: str, out: Optional[str]) -> None:
    if out:
        with open(out, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def _problem(e: Exception) -> int:
    from ..api.errors import Problem
    if isinstance(e, RecordProblem):
        body = {"status": e.status, "kind": e.kind, "detail": e.detail, "errors": e.errors}
    elif isinstance(e, Problem):
        body = {"status": e.status, "kind": e.kind, "detail": e.detail, "errors": e.errors}
    elif isinstance(e, UnicodeDecodeError):
        body = {"status": 400, "kind": "record-malformed", "detail": f"the file is not UTF-8 text: {e.reason}"}
    else:
        raise e
    sys.stderr.write(json.dumps(body, ensure_ascii=False) + "\n")
    return 2


def cmd_import(a: argparse.Namespace) -> int:
    try:
        got = read(_load_file(a.file), a.format)
        if got["kind"] == "position":
            from .replay import position_comparison
            cmp = position_comparison(got, _cache())
            out = {"format": got["format"], "kind": "position", "state": cmp["state"], "digest": cmp["digest"],
                   "provenance": got["provenance"], "source": got["source"], "stated": got["stated"],
                   "disagreements": cmp["disagreements"]}
            _emit(json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n", a.out)
            return 0
        rec = got["record"]
        _emit(write_text(rec) if a.text else write_json(rec), a.out)
        return 0
    except Exception as e:  # a record problem or a refused position: reported, never a traceback
        return _problem(e)


def cmd_replay(a: argparse.Namespace) -> int:
    from .replay import replay_record
    try:
        got, unread = read_for_replay(_load_file(a.file), a.format)
        if got["kind"] != "record":
            raise RecordProblem("a position save has no actions to replay (import it instead)",
                                [{"pointer": "/record", "detail": "a position, not a game record"}])
        res = replay_record(got["record"], _cache())
        if unread is not None and res["first_illegal"] is None:
            raise unread
    except Exception as e:
        return _problem(e)
    summary = {k: res[k] for k in ("actions", "applied", "all_legal", "first_illegal", "disagreements")}
    if unread is not None:
        summary["unread"] = unread.errors[0]
    summary["final_digest"] = res["final"]["digest"]
    sys.stderr.write(json.dumps(summary, ensure_ascii=False) + "\n")
    if a.out or a.print_record:
        _emit(write_text(res["record"]) if a.text else write_json(res["record"]), a.out)
    return 0 if res["all_legal"] and not res["disagreements"] else 1


def cmd_export(a: argparse.Namespace) -> int:
    from .replay import replay_record
    try:
        got = read(_load_file(a.file), a.format)
        if got["kind"] != "record":
            raise RecordProblem("a position save has no actions to export",
                                [{"pointer": "/record", "detail": "a position, not a game record"}])
        res = replay_record(got["record"], _cache())
    except Exception as e:
        return _problem(e)
    _emit(write_text(res["record"]) if a.text else write_json(res["record"]), a.out)
    return 0


def common(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the record's file ('-': standard input)")
    p.add_argument("--format", choices=FORMATS, default=None, help="the record's format (default: detected)")
    p.add_argument("--out", default=None, help="write here instead of standard output")
    p.add_argument("--text", action="store_true", help="write our record in its one-line-per-action text form")


def add_subcommands(subparsers: Any) -> None:
    """Adds ``import``, ``replay`` and ``export`` to an ``argparse`` sub-command set."""
    p = subparsers.add_parser("import", help="read another app's record as our position or game record")
    common(p)
    p.set_defaults(func=cmd_import)
    p = subparsers.add_parser("replay", help="judge a record's actions in order: first illegal one, disagreements")
    common(p)
    p.add_argument("--print-record", action="store_true", help="write the replayed record to standard output")
    p.set_defaults(func=cmd_replay)
    p = subparsers.add_parser("export", help="write a record (digests and outcomes filled in) as JSON or text")
    common(p)
    p.set_defaults(func=cmd_export)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="seafarers-records", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    add_subcommands(sub)
    a = ap.parse_args(argv)
    return a.func(a)


def _register() -> None:
    """``seafarers-referee import`` and ``export`` (entry-point group ``seafarers_referee.commands``); its
    ``replay`` judges a replay request, or ``{"record": ...}``, through ``POST /v1/replay``."""
    from ..cli import command
    command("import", "read another app's record (JSettlers2 save or log, catanatron game) as our position "
            "or game record", common)(cmd_import)
    command("export", "write a record (digests and outcomes filled in) as JSON or text", common)(cmd_export)


_register()


if __name__ == "__main__":
    sys.exit(main())
