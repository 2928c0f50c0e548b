"""The command line, ``seafarers-referee`` (``python -m seafarers_referee.cli``; ``python -m service.cli``
in a checkout): the service's answers without an HTTP server, and the server itself.

    seafarers-referee serve [--bind HOST:PORT] [--workers N] [--threads N] [--config FILE]
    seafarers-referee adjudicate FILE [--explain]     # {state, action}: exit 0 legal, 1 illegal
    seafarers-referee replay FILE                      # a replay request: exit 0 all legal, 1 not
    seafarers-referee legal FILE [--player N]          # a state, or {state, player}: the legal actions

FILE is a JSON file, ``-`` for standard input. The answer is printed as the service answers it (the same
request path, body and all: ``POST /v1/adjudicate``, ``/v1/replay``, ``/v1/legal-actions``); a request the
service refuses prints its problem (RFC 9457) on standard error and exits 2.

More subcommands: a module registers one with :func:`command`; a distribution adds its module to the
entry-point group ``seafarers_referee.commands`` (each entry point is loaded, so its module's
registrations run, before the arguments are read)::

    from seafarers_referee.cli import command

    @command("export", "write a game as ...", arguments=lambda p: p.add_argument("file"))
    def export(args) -> int:
        ...
        return 0
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

PROG = "seafarers-referee"
ENTRY_POINTS = "seafarers_referee.commands"
#: the import package as installed (setup.py installs the folder ``service/`` under this name)
INSTALLED = "seafarers_referee"
#: the name this copy was imported under: ``seafarers_referee`` installed, ``service`` in a checkout
PACKAGE = __package__ or __name__.partition(".")[0]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, arguments: Optional[Callable[[argparse.ArgumentParser], None]] = None):
    """Register the decorated ``run(args) -> exit status`` as subcommand ``name`` (the last registration of
    a name wins); ``arguments(parser)`` adds its arguments."""
    def register(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        COMMANDS[name] = Command(name, help, arguments or (lambda p: None), run)
        return run
    return register


def _load_entry_points() -> None:
    """Import every module of the entry-point group. The service's own entry points name its modules as
    installed (``seafarers_referee.records.cli``); they are imported under the name this copy was imported
    as, so that a checkout's command line registers into its own table (and loads no second copy)."""
    import importlib
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINTS):
        if ep.module.partition(".")[0] == INSTALLED:
            importlib.import_module(PACKAGE + ep.module[len(INSTALLED):])
        else:
            ep.load()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Seafarers Referee: judge Catan positions and actions "
                                "(Seafarers, its scenarios, Cities & Knights).")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for c in COMMANDS.values():
        cp = sub.add_parser(c.name, help=c.help, description=c.help)
        c.arguments(cp)
        cp.set_defaults(_run=c.run)
    return p


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("seafarers-referee")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: Optional[Sequence[str]] = None) -> int:
    _load_entry_points()
    args = parser().parse_args(argv)
    return args._run(args)


# -- the service's answers, through its own request path ----------------------------------------------

def read_json_file(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as e:
        raise SystemExit(f"{PROG}: cannot read {name}: {e.strerror}")


def _client():
    import logging
    from .api import create_app
    app = create_app()
    for name in ("seafarers", "seafarers.access"):     # (no request log lines: the answer is the output)
        logging.getLogger(name).setLevel(logging.WARNING)
    return app.test_client()


def call(path: str, body: bytes, query: str = "") -> tuple[int, bytes]:
    """POST ``body`` to ``path`` of the app, in this process: (status, answer bytes)."""
    r = _client().post(path + query, data=body, content_type="application/json")
    return r.status_code, r.get_data()


def _answer(status: int, data: bytes, ok: Callable[[dict], bool]) -> int:
    if status >= 400:
        sys.stderr.buffer.write(data + b"\n")
        return 2
    sys.stdout.buffer.write(data + b"\n")
    return 0 if ok(json.loads(data)) else 1


def _file(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a JSON file ('-': standard input)")


@command("adjudicate", "judge an action: FILE holds {state, action}; exit 0 legal, 1 illegal, 2 refused",
         lambda p: (_file(p), p.add_argument("--explain", action="store_true",
                                             help="with the reasoning of every derived value")))
def adjudicate(args: argparse.Namespace) -> int:
    status, data = call("/v1/adjudicate", read_json_file(args.file), "?explain=true" if args.explain else "")
    return _answer(status, data, lambda a: a["legal"])


@command("replay", "replay a game log: FILE holds a replay request ({new_game or state, actions}); "
         "exit 0 when every action is legal, 1 when one is not, 2 refused", _file)
def replay(args: argparse.Namespace) -> int:
    status, data = call("/v1/replay", read_json_file(args.file))
    return _answer(status, data, lambda a: a["all_legal"])


@command("legal", "list the legal actions: FILE holds a state, or {state, player}",
         lambda p: (_file(p), p.add_argument("--player", type=int, help="whose actions (default: who is to act)")))
def legal(args: argparse.Namespace) -> int:
    raw = read_json_file(args.file)
    try:
        data: Any = json.loads(raw)
    except ValueError:
        data = None
    if isinstance(data, dict) and "state" not in data:       # a state alone
        data = {"state": data}
    if isinstance(data, dict) and args.player is not None:
        data["player"] = args.player
    body = raw if data is None else json.dumps(data).encode()
    status, answer = call("/v1/legal-actions", body)
    return _answer(status, answer, lambda a: True)


# -- the server -----------------------------------------------------------------------------------------

def _gunicorn_conf(given: Optional[str]) -> str:
    if given:
        return given
    from importlib import resources
    packaged = resources.files(PACKAGE).joinpath("contract/gunicorn.conf.py")
    if packaged.is_file():
        return str(packaged)
    return str(Path(__file__).resolve().parents[1] / "gunicorn.conf.py")   # (a checkout of the repository)


@command("serve", "serve the HTTP API with gunicorn (settings from the environment: README, Operations)",
         lambda p: (p.add_argument("--bind", help="HOST:PORT or unix:PATH (default BIND, else 127.0.0.1:8000)"),
                    p.add_argument("--workers", type=int, help="worker processes (default WORKERS, else 2)"),
                    p.add_argument("--threads", type=int, help="threads per worker (default THREADS, else 4)"),
                    p.add_argument("--config", help="a gunicorn configuration file instead of the service's")))
def serve(args: argparse.Namespace) -> int:
    for key, value in (("BIND", args.bind), ("WORKERS", args.workers), ("THREADS", args.threads)):
        if value is not None:
            os.environ[key] = str(value)
    argv = [sys.executable, "-m", "gunicorn", "-c", _gunicorn_conf(args.config), f"{PACKAGE}.api:create_app()"]
    os.execv(sys.executable, argv)
    return 0   # (not reached)


if __name__ == "__main__":
    sys.exit(main())
