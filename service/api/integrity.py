"""State tags: how the service recognises a state it returned itself, so that it need not check it again.

Every answer that carries a game state (``POST /v1/games``, ``POST /v1/adjudicate``) also carries the
header ``State-Tag``: an HMAC-SHA256 over the state's canonical bytes, keyed by the deployment's secret
and bound to the code that answered. A client that posts that state again (with the next action, or for
its legal actions, derived values, a picture, a replay) may send the tag back in the same header; when
it matches the posted state, the state is known to be one this service built and checked, and is loaded
without the consistency checks (and, posted again to the same worker, without loading at all: see
``service.parse_state_where``). A tag that does not match (a changed state, a changed or made-up tag,
another deployment's or another release's tag) is ignored: the state is checked as any other, so a tag
never makes the service accept what it would otherwise refuse. Verdicts are the same bytes either way.

- **Canonical bytes**: the state without its board, then the board, each as JSON with sorted keys and
  no spaces (as orjson writes them), so a client may re-order keys or re-indent; any changed value
  changes them. The board is kept apart so that an answer's tag reuses the board's bytes between calls.
- **Key**: ``STATE_KEY`` (text), else the contents of the file ``STATE_KEY_FILE`` (in ``k8s/`` the
  optional Secret ``seafarers-referee-state-key``). Every process that should recognise the others'
  tags must hold the same key: all pods of a deployment, from the Secret. Without one,
  ``gunicorn.conf.py`` makes up a random key in the master before the workers start (they inherit it,
  so the workers of one server agree; another pod, or the server after a restart, does not: its tags
  are then merely not recognised, which costs the checks, never a wrong answer). A process started
  without gunicorn makes up its own.
- **Bound to the code**: the MAC covers a digest of the service's source, so a state tagged by another
  release (whose idea of a consistent state may differ) is checked again.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any, Optional

import orjson

HEADER = "State-Tag"
#: Tags are ``v1.`` and 22 characters of unpadded base64url (the first 128 bits of the HMAC-SHA256).
PREFIX = "v1."
TAG_LENGTH = len(PREFIX) + 22
_SORTED = orjson.OPT_SORT_KEYS

_KEY: Optional[bytes] = None


def state_key() -> bytes:
    """The key (read once per process): ``STATE_KEY``, else ``STATE_KEY_FILE``'s contents, else random."""
    global _KEY
    if _KEY is None:
        key = os.environ.get("STATE_KEY", "").encode()
        path = os.environ.get("STATE_KEY_FILE", "")
        if not key and path:
            try:
                key = Path(path).read_bytes().strip()
            except OSError:
                key = b""
        _KEY = (key or secrets.token_bytes(32)) + b"\x00" + _code_digest()
    return _KEY


def set_key(key: Optional[bytes]) -> None:
    """Use ``key`` from now on (None: read the environment again at the next use; tests)."""
    global _KEY
    _KEY = None if key is None else key + b"\x00" + _code_digest()


def _code_digest() -> bytes:
    """A digest of the service's Python source, read once: another release tags differently."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode() + b"\x00")
        h.update(p.read_bytes())
    return h.digest()


def _tag(rest: bytes, board: bytes) -> str:
    mac = hmac.digest(state_key(), b"%b\x00%b" % (rest, board), "sha256")     # (one call, in C)
    return PREFIX + base64.urlsafe_b64encode(mac[:16]).rstrip(b"=").decode()


def tag_of(state: dict[str, Any], board_bytes: Optional[bytes] = None) -> str:
    """The tag of a state as JSON (``board_bytes``: its board's canonical bytes, when already known)."""
    rest = orjson.dumps({k: v for k, v in state.items() if k != "board"}, option=_SORTED)
    if board_bytes is None:
        board_bytes = orjson.dumps(state.get("board"), option=_SORTED)
    return _tag(rest, board_bytes)


def canonical_board(board: Any) -> bytes:
    """A board's canonical bytes (part of :func:`tag_of`)."""
    return orjson.dumps(board, option=_SORTED)


def recognised(state: Any, tag: Optional[str]) -> bool:
    """Whether ``tag`` is this deployment's tag of ``state`` (a posted JSON value; anything else: False)."""
    if not tag or len(tag) != TAG_LENGTH or type(state) is not dict or not tag.isascii():
        return False
    try:
        mine = tag_of(state)
    except TypeError:       # a value orjson does not write (an integer past 64 bits...): not one of ours
        return False
    return hmac.compare_digest(mine, tag)
