"""Building roads, settlements and cities (BASE-BUILD-1..8, BASE-COST-1..3), in set-up and in the main phase.

BASE-COST-2: there is no limit on how many items a player builds in a turn; the only checks are the
piece supply (BASE-COMP-1), the cost (BASE-COST-1) and the placement rules (BASE-BUILD-1..8).
"""
from __future__ import annotations

from ..bank import COSTS, cannot_pay, pay
from ..core import Ctx, Violation
from ..geometry import node_str
from ..placement import road_site, settlement_connected, settlement_site, supply_left
from ..state import State
from . import handler
from .setup import (after_setup_road, after_setup_settlement, setup_road_touches_last, setup_step_violation,
                    setup_turn_violation)


def builder_violation(ctx: Ctx) -> list[Violation]:
    """Whose placement it is: in set-up the player due in snake order (BASE-SETUP-2/3); afterwards only
    the active player builds (BASE-COST-3)."""
    a, s = ctx.action, ctx.state
    if s.phase == "setup":
        return setup_turn_violation(ctx)
    if a.player != s.current_player:
        return [Violation("BASE-COST-3", f"only the active player builds; it is player {s.current_player}'s turn, "
                          f"not player {a.player}'s", "/action/player")]
    return []


def occupied_violation(ctx: Ctx, node) -> list[Violation]:
    """BASE-BUILD-8: a building on the board is never removed or replaced (only upgraded to a city)."""
    b = ctx.state.buildings.get(node)
    if b is not None:
        return [Violation("BASE-BUILD-8", f"{node_str(node)} already holds player {b[0]}'s {b[1]}; buildings are "
                          "never removed or replaced (a settlement is only upgraded, with build_city)",
                          "/action/node")]
    return []


def edge_piece_violations(ctx: Ctx, piece: str, site, cost_rule: str = "BASE-COST-1") -> list[Violation]:
    """A road or ship (``piece``) on ``/action/edge``: in set-up the placement's step, the supply, the
    ``site`` and the touch on the last settlement (BASE-SETUP-4/5, SEA-026); afterwards the supply
    (BASE-COMP-1), the ``site``, the stack's connection rule (the ``piece_connection`` hook) and the cost
    (``cost_rule``)."""
    a, s = ctx.action, ctx.state
    edge = a.get("edge")
    if s.phase == "setup":
        return (setup_step_violation(ctx, "road") or supply_left(ctx, a.player, piece + "s")
                or site(ctx, edge, "/action/edge") or setup_road_touches_last(ctx, edge, "/action/edge"))
    return (supply_left(ctx, a.player, piece + "s")
            or site(ctx, edge, "/action/edge")
            or ctx.scenario.piece_connection(ctx, piece, edge, a.player, "/action/edge")
            or cannot_pay(s, a.player, COSTS[piece], f"a {piece}", cost_rule))


def place_edge_piece(ctx: Ctx, s: State, piece: str) -> None:
    """Put the road or ship on ``/action/edge`` from the supply; paid for after set-up (a ship then may
    not move this turn, SEA-018)."""
    a = ctx.action
    edge = a.get("edge")
    (s.roads if piece == "road" else s.ships)[edge] = a.player
    s.players[a.player].supply[piece + "s"] -= 1
    ctx.emit("built", player=a.player, piece=piece, edge=list(edge))
    if s.phase == "setup":
        after_setup_road(ctx, s)
    else:
        pay(s, a.player, COSTS[piece])
        if piece == "ship":
            s.flags.ships_built.append(edge)
        s.flags.built = True                       # BASE-VAR-STRICT-PHASES: no trade after building


@handler("build_settlement", {"setup", "main"}, actor="builder", changes_routes=True)
class BuildSettlement:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        node = a.get("node")
        v = builder_violation(ctx) or occupied_violation(ctx, node)
        if v:
            return v
        if s.phase == "setup":
            return (setup_step_violation(ctx, "settlement") or supply_left(ctx, a.player, "settlements")
                    or settlement_site(ctx, node, "/action/node"))          # BASE-SETUP-4: distance rule only
        return (supply_left(ctx, a.player, "settlements")
                or settlement_site(ctx, node, "/action/node")
                or settlement_connected(ctx, node, a.player, "/action/node")
                or cannot_pay(s, a.player, COSTS["settlement"], "a settlement"))

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        node = a.get("node")
        s.buildings[node] = (a.player, "settlement")
        s.players[a.player].supply["settlements"] -= 1
        if s.phase == "setup":
            ctx.emit("built", player=a.player, piece="settlement", node=list(node))
            after_setup_settlement(ctx, s, node)
            return
        pay(s, a.player, COSTS["settlement"])
        s.flags.built = True
        ctx.emit("built", player=a.player, piece="settlement", node=list(node))


@handler("build_road", {"setup", "main"}, actor="builder", changes_routes=True)
class BuildRoad:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return builder_violation(ctx) or edge_piece_violations(ctx, "road", road_site)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        place_edge_piece(ctx, s, "road")


@handler("build_city", {"main"}, not_your_turn="BASE-COST-3")
class BuildCity:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        node = a.get("node")
        b = s.buildings.get(node)
        if b != (a.player, "settlement"):
            has = "nothing" if b is None else f"player {b[0]}'s {b[1]}"
            return [Violation("BASE-BUILD-6", f"a city replaces one of your own settlements; "
                              f"{node_str(node)} holds {has}", "/action/node")]
        return supply_left(ctx, a.player, "cities") or cannot_pay(s, a.player, COSTS["city"], "a city")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        node = a.get("node")
        s.buildings[node] = (a.player, "city")
        sup = s.players[a.player].supply
        sup["cities"] -= 1
        sup["settlements"] += 1          # BASE-COMP-1: the settlement returns to the supply
        pay(s, a.player, COSTS["city"])
        s.flags.built = True
        ctx.emit("built", player=a.player, piece="city", node=list(node))
