"""Seafarers actions: building and moving ships (SEA-006..018, SEA-026, SEA-032/033) and gold-field
picks (SEA-024/025, R-014). Available in scenarios whose ``ships`` flag is on."""
from __future__ import annotations

from ..core import Ctx, Violation
from ..geometry import edge_str
from ..lanes import closed_ships, is_foremost
from ..mapgraph import RESOURCES
from ..placement import ship_connected, ship_site
from ..state import State
from . import handler
from .build import edge_piece_violations, place_edge_piece


@handler("build_ship", {"setup", "main"}, not_your_turn="BASE-COST-3", changes_routes=True)
class BuildShip:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        # SEA-026: a coastal starting settlement may take a ship instead of its road; SEA-006: 1 lumber + 1 wool.
        return edge_piece_violations(ctx, "ship", ship_site, ship_connected, "SEA-006")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        place_edge_piece(ctx, s, "ship")            # SEA-018: a ship built this turn may not move


@handler("move_ship", {"main"}, not_your_turn="SEA-017", changes_routes=True)
class MoveShip:
    """R-010: which ship may move, and where to."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s, g = ctx.action, ctx.state, ctx.graph
        src, dst = a.get("from"), a.get("to")
        if s.ships.get(src) != a.player:
            return [Violation("SEA-015", f"player {a.player} has no ship on {edge_str(src)} to move", "/action/from")]
        if s.flags.ship_moved:
            return [Violation("SEA-017", "a player may move at most one ship per turn; one has been moved already")]
        if src in s.flags.ships_built:
            return [Violation("SEA-018", f"the ship on {edge_str(src)} was built this turn and may not move until "
                              "the player's next turn (R-011)", "/action/from")]
        eid = g.edge_index[src]
        if s.pirate is not None and eid in g.hex_edge_ids.get(s.pirate, ()):
            return [Violation("SEA-033", f"the ship on {edge_str(src)} lies beside the pirate and may not be moved away",
                              "/action/from")]
        if src in closed_ships(s, g, a.player):
            return [Violation("SEA-014", f"the ship on {edge_str(src)} is part of a closed shipping lane (it joins two "
                              "of your settlements/cities) and may never move", "/action/from")]
        if not is_foremost(s, g, a.player, src):
            return [Violation("SEA-015", f"only the foremost ship of an open lane may move; {edge_str(src)} has own "
                              "ships or buildings at both ends", "/action/from")]
        if dst == src:
            return [Violation("SEA-016", f"a moved ship goes to a different edge; from and to are both "
                              f"{edge_str(src)}", "/action/to")]
        return (ship_site(ctx, dst, "/action/to", ignore=src)
                or ship_connected(ctx, dst, a.player, "/action/to", ignore=src))

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        src, dst = a.get("from"), a.get("to")
        del s.ships[src]
        s.ships[dst] = a.player
        s.flags.ship_moved = True
        ctx.emit("moved", piece="ship", player=a.player, **{"from": list(src), "to": list(dst)})


def gold_entitlement(state: State, graph, scenario) -> dict[int, int]:
    """SEA-024: the free picks the last production roll gives on gold fields: 1 per settlement and 2 per
    city on a gold hex showing the number (not under the robber), per player. Empty outside a
    production turn. SEA-025: the picks are ordinary resources; gold is no card."""
    if not state.last_roll or state.phase in ("setup", "roll"):
        return {}
    total = state.last_roll[0] + state.last_roll[1]
    out: dict[int, int] = {}
    idle = scenario.idle_hexes(state)
    for h, tile in state.hexes.items():
        if tile.number != total or h == state.robber or h in idle:
            continue
        for nid in graph.hex_node_ids.get(h, ()):
            b = state.buildings.get(graph.nodes[nid])
            if b is not None:
                n = scenario.gold_entitlement(tile.terrain, b[1])
                if n:
                    out[b[0]] = out.get(b[0], 0) + n
    return out


def next_gold_chooser(s: State) -> int:
    """R-014: gold picks are made in turn order starting with the roller."""
    n = s.num_players
    for k in range(n):
        p = (s.current_player + k) % n
        if p in s.pending_gold:
            return p
    return -1


@handler("choose_gold", {"gold_choice"}, actor="gold")
class ChooseGold:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        owed = s.pending_gold.get(a.player)
        if owed is None:
            return [Violation("SEA-024", f"player {a.player} has no gold-field pick to make", "/action/player")]
        nxt = next_gold_chooser(s)
        if nxt != a.player:
            return [Violation("SEA-024", f"gold-field picks are made in turn order from the roller (R-014); player "
                              f"{nxt} picks first", "/action/player")]
        cards = a.get("resources")
        bad = sorted(r for r, k in cards.items() if k and r not in RESOURCES)
        if bad:
            return [Violation("SEA-025", f"a gold field yields ordinary resources of the owner's choice; there is no "
                              f"{bad[0]} card", f"/action/resources/{bad[0]}")]
        for r, k in cards.items():
            if k > s.bank.get(r, 0):
                return [Violation("SEA-024", f"the bank holds {s.bank.get(r, 0)} {r}; a pick is limited to what "
                                  "the bank still has (R-014)", f"/action/resources/{r}")]
        want = min(owed, sum(s.bank.values()))
        n = sum(cards.values())
        if n != want:
            return [Violation("SEA-024", f"player {a.player} picks exactly {want} resource card"
                              f"{'s' if want != 1 else ''} (1 per settlement, 2 per city on the gold field; R-014), "
                              f"not {n}", "/action/resources")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        cards = {r: k for r, k in a.get("resources").items() if k}
        for r, k in cards.items():
            s.bank[r] -= k
            s.players[a.player].resources[r] += k
        del s.pending_gold[a.player]
        ctx.emit("gold_chosen", player=a.player, resources=cards)
        if s.pending_gold and sum(s.bank.values()) == 0:
            # a pick is limited to what the bank still has; with the bank empty the rest lapse.
            ctx.emit("gold_lapsed", players={str(k): v for k, v in sorted(s.pending_gold.items())})
            s.pending_gold = {}
        if not s.pending_gold:
            s.phase = "main"

