"""Seafarers actions: building and moving ships (SEA-006..018, SEA-026, SEA-032/033) and gold-field
picks (SEA-024/025, R-014). Available in scenarios whose ``ships`` flag is on."""
from __future__ import annotations

from ..core import Ctx, Violation
from ..geometry import edge_str
from ..lanes import closed_ships, is_foremost
from ..mapgraph import RESOURCES
from ..placement import ship_site
from ..state import State
from . import handler
from .build import edge_piece_violations, place_edge_piece


@handler("build_ship", {"setup", "main"}, not_your_turn="BASE-COST-3", changes_routes=True)
class BuildShip:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        # SEA-026: a coastal starting settlement may take a ship instead of its road; SEA-006: 1 lumber + 1 wool.
        return edge_piece_violations(ctx, "ship", ship_site, "SEA-006")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        place_edge_piece(ctx, s, "ship")            # SEA-018: a ship built this turn may not move


# Out of turn, a ship move breaks BASE-TURN-6 (only the active player acts), not SEA-017 (one move a turn).
@handler("move_ship", {"main"}, changes_routes=True)
class MoveShip:
    """R-010: which ship may move, and where to."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a = ctx.action
        src, dst = a.get("from"), a.get("to")
        return move_source_violations(ctx, src) or move_destination_violations(ctx, src, dst)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        src, dst = a.get("from"), a.get("to")
        del s.ships[src]
        s.ships[dst] = a.player
        s.flags.ship_moved = True
        ctx.emit("moved", piece="ship", player=a.player, **{"from": list(src), "to": list(dst)})


def move_source_violations(ctx: Ctx, src) -> list[Violation]:
    """Whether the acting player's ship on ``src`` may move this turn at all, wherever it goes (the first
    part of ``MoveShip``'s check; the legal-action list judges it once per ship)."""
    a, s, g = ctx.action, ctx.state, ctx.graph
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
    return ctx.scenario.ship_lane_violations(ctx, src)


def move_destination_violations(ctx: Ctx, src, dst) -> list[Violation]:
    """Where the ship on ``src`` may go, once it may move at all (the second part of ``MoveShip``'s
    check; the legal-action list judges it per destination after judging the ship once)."""
    if dst == src:
        return [Violation("SEA-016", f"a moved ship goes to a different edge; from and to are both "
                          f"{edge_str(src)}", "/action/to")]
    return (ship_site(ctx, dst, "/action/to", ignore=src)
            or ctx.scenario.piece_connection(ctx, "ship", dst, ctx.action.player, "/action/to", ignore=src))


def lane_violations(ctx: Ctx, src, ends: frozenset = frozenset()) -> list[Violation]:
    """The ship on ``src`` leaves its lane only from an open one (SEA-014), and only as its foremost
    ship (SEA-015): the default of the ``ship_lane_violations`` hook. ``ends``: intersections that end the
    player's lanes as an opponent's building does, beyond the buildings (``lanes.closed_ships``)."""
    s, g, p = ctx.state, ctx.graph, ctx.action.player
    if src in closed_ships(s, g, p, ends):
        return [Violation("SEA-014", f"the ship on {edge_str(src)} is part of a closed shipping lane (it joins two "
                          "of your settlements/cities) and may never move", "/action/from")]
    if not is_foremost(s, g, p, src, ends=ends):
        return [Violation("SEA-015", f"only the foremost ship of an open lane may move; {edge_str(src)} has own "
                          "ships or buildings at both ends", "/action/from")]
    return []


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



# -- the pirate's start (SEA-027, R-007) -------------------------------------------------------------
#: ``scenario_state`` flag of a new game whose pirate hex is not named: set-up opens with the starting
#: player placing it (``place_pirate``) before any settlement.
PIRATE_PENDING = "pirate_pending"
#: Set-up placements that wait while the pirate is to be placed.
SETUP_PLACEMENTS = frozenset({"build_settlement", "build_road", "build_ship"})


def pirate_pending(s: State) -> bool:
    return s.scenario_state.get(PIRATE_PENDING) is True


def pirate_first(ctx: Ctx) -> list[Violation]:
    """SEA-027 with R-007: while the pirate of a new game is still to be placed, no settlement (nor road
    or ship) is placed; the starting player places the pirate first (a Seafarers rule for every action:
    judged after a scenario's own opening steps, such as A New World's harbours)."""
    s, action_type = ctx.state, ctx.action.type
    if s.phase == "setup" and action_type in SETUP_PLACEMENTS and pirate_pending(s):
        return [Violation("SEA-027", f"the pirate is placed before the first settlement; player "
                          f"{s.current_player} places it first (place_pirate on a sea hex)", "/action/type",
                          ruling="R-007")]
    return []


def pirate_pending_problems(state: State, scenario) -> list[tuple[str, str]]:
    """R-007: ``pirate_pending`` is true, in a game with a pirate that is off the board, before the first
    settlement of set-up."""
    pending = state.scenario_state.get(PIRATE_PENDING)
    if pending is None:
        return []
    why = ("is true or left out" if pending is not True else
           "belongs to a scenario with a pirate" if not scenario.pirate else
           "means the pirate is off the board" if state.pirate is not None else
           "holds only before the first settlement of set-up" if state.phase != "setup" or state.buildings
           or state.roads or state.ships else None)
    return [("/state/scenario_state/pirate_pending", f"pirate_pending {why} (SEA-027, R-007)")] if why else []


@handler("place_pirate", {"setup"}, actor="any")
class PlacePirate:
    """R-007: the game did not name the pirate's hex, so the starting player places it on a sea hex of his
    choice before any settlement (SEA-027; SEA-029: only on sea)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, h = ctx.state, ctx.action.get("hex")
        if not pirate_pending(s):
            why = ("the pirate already stands on " + f"{s.pirate[0]},{s.pirate[1]}" if s.pirate is not None else
                   "this game has no pirate to place" if not ctx.scenario.pirate else
                   "the pirate is placed only at the start of a new game that named no pirate hex")
            return [Violation("SEA-027", f"the pirate is placed once, before the first settlement: {why}",
                              "/action/type", ruling="R-007")]
        if ctx.action.player != s.current_player:
            return [Violation("SEA-027", f"the starting player (player {s.current_player}) places the pirate, not "
                              f"player {ctx.action.player}", "/action/player", ruling="R-007")]
        if not ctx.scenario.pirate_hex_ok(s, h):
            t = s.hexes.get(h)
            return [Violation("SEA-029", f"the pirate stands only on sea hexes; {h[0]},{h[1]} is "
                              f"{'not on this board' if t is None else 'a ' + t.terrain + ' hex'}", "/action/hex")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        h = ctx.action.get("hex")
        s.pirate = h
        s.scenario_state = {k: v for k, v in s.scenario_state.items() if k != PIRATE_PENDING}
        ctx.emit("pirate_placed", player=ctx.action.player, hex=list(h))
