"""Special victory point tokens (SEA-019/020): worth 1 VP each, attached to the building that earned them.

Scenarios award them through their hooks by calling :func:`award_svp`; the VP breakdown counts
``Player.svp`` under ``special`` and the state records which building each token lies under.
"""
from __future__ import annotations

from .core import Ctx
from .geometry import Node
from .state import State


def award_svp(ctx: Ctx, s: State, player: int, node: Node, count: int = 1, reason: str = "") -> None:
    """Give ``player`` ``count`` SVP tokens, placed under their building on ``node`` (SEA-020).

    R-029: the supply of tokens is unlimited (per-player, per-building counters).
    """
    if count <= 0:
        return
    s.players[player].svp += count
    s.svp_attached[node] = s.svp_attached.get(node, 0) + count
    ctx.emit("special_victory_point", player=player, node=list(node), count=count, reason=reason)


def remove_svp(ctx: Ctx, s: State, player: int, node: Node, count: int = 1, reason: str = "") -> None:
    """Take tokens back (e.g. The Great Crossing's route tokens when a route is broken, R-025)."""
    have = s.svp_attached.get(node, 0)
    n = min(count, have, s.players[player].svp)
    if n <= 0:
        return
    s.players[player].svp -= n
    if have - n:
        s.svp_attached[node] = have - n
    else:
        del s.svp_attached[node]
    ctx.emit("special_victory_point_lost", player=player, node=list(node), count=n, reason=reason)
