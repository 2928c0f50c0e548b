"""Set-up placements (BASE-SETUP-2..6): settlement then road, round 1 in seat order, round 2 in
reverse ("snake" order); the second settlement brings its starting resources."""
from __future__ import annotations

from ..core import Ctx, Violation
from ..geometry import Edge, node_str
from ..mapgraph import RESOURCE_OF
from ..state import State


def setup_turn_violation(ctx: Ctx) -> list[Violation]:
    """Whose set-up placement it is: round 1 goes in seat order from the starting player (BASE-SETUP-2),
    round 2 in reverse, the last player placing twice in a row (BASE-SETUP-3, "snake" order)."""
    s, a = ctx.state, ctx.action
    if a.player == s.current_player:
        return []
    forward = s.setup.round % 2 == 1
    rule = "BASE-SETUP-2" if forward else "BASE-SETUP-3"
    order = "in seat order" if forward else "in reverse seat order"
    return [Violation(rule, f"set-up round {s.setup.round} goes {order}: player {s.current_player} places now, "
                      f"not player {a.player}", "/action/player")]


def setup_step_violation(ctx: Ctx, wanted: str) -> list[Violation]:
    """BASE-SETUP-2: in each set-up turn a settlement comes first, then its road."""
    step = ctx.state.setup.step
    if step != wanted:
        return [Violation("BASE-SETUP-2", f"in set-up each player places a settlement and then a road touching "
                          f"it; now a {step} is due, not a {wanted}")]
    return []


def setup_road_touches_last(ctx: Ctx, edge: Edge, path: str) -> list[Violation]:
    """BASE-SETUP-4: a set-up road (or ship, SEA-026) touches the settlement just placed."""
    last = ctx.state.setup.last_settlement
    g = ctx.graph
    eid = g.edge_index.get(edge)
    if last is None or eid is None or g.node_index.get(last) not in g.edge_node_ids[eid]:
        where = node_str(last) if last else "(none)"
        return [Violation("BASE-SETUP-4", f"a set-up road or ship must touch the settlement just placed at "
                          f"{where}; {edge[0]},{edge[1]},{edge[2]} does not", path)]
    return []


def after_setup_settlement(ctx: Ctx, s: State, node) -> None:
    s.setup.last_settlement = node
    s.setup.step = "road"
    if s.setup.round == ctx.scenario.setup_rounds:
        # BASE-SETUP-5: the second settlement yields 1 of each adjacent producing hex's resource.
        # Desert and sea (no resource) give nothing; a card the bank no longer holds cannot be taken.
        got: dict[str, int] = {}
        for h in ctx.graph.node_hexes[ctx.graph.node_index[node]]:
            res = RESOURCE_OF.get(s.hexes[h].terrain)
            if res and s.bank.get(res, 0) > got.get(res, 0):
                got[res] = got.get(res, 0) + 1
        hand = s.players[s.current_player].resources
        for r, n in got.items():
            s.bank[r] -= n
            hand[r] += n
        if got:
            ctx.emit("starting_resources", player=s.current_player, resources=got)


def after_setup_road(ctx: Ctx, s: State) -> None:
    """Advance the snake order (BASE-SETUP-2/3; BASE56-023: the same 1..n, n..1 with 5 or 6 players) and start
    the game after the last round (BASE-SETUP-6)."""
    s.setup.step = "settlement"
    s.setup.last_settlement = None
    n = s.num_players
    forward = s.setup.round % 2 == 1
    cp = s.current_player
    if forward and cp < n - 1:
        s.current_player = cp + 1
    elif not forward and cp > 0:
        s.current_player = cp - 1
    elif s.setup.round < ctx.scenario.setup_rounds:
        s.setup.round += 1
    else:
        s.phase = "roll"
        s.current_player = 0            # BASE-SETUP-1: seat 0 is the starting player
        s.turn = 1
        ctx.emit("setup_complete")
