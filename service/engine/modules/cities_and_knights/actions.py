"""Cities & Knights action handlers: the roll, discarding, the robber, knights, city walls, city
improvements and metropolises, trading with commodities."""
from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Optional

from ...actions import WRONG_PHASE_RULE, own_handler
from ...actions.robber import place_piece, robbable, steal_card, target_violations, victim_violations, victims
from ...actions.turn import discard_violations
from ...actions.trade import (harbor_rates, split_currencies, strict_phases_violation, trade_wrong_phase,
                              unaccepted_violation)
from ...core import Action, Ctx, Violation, fmt_cards
from ...geometry import Node, node_str
from ...mapgraph import RESOURCES, MapGraph
from ...legal.listing import per_listing
from ...state import State
from . import store
from .data import (CARDS, COMMODITIES, LEVEL_NAMES, MAX_LEVEL, METROPOLIS_LEVEL, TRACK_COMMODITY, TRACKS, WALLS)
from .store import ck
from .turn import after_discards, resolve_roll, roll_outcome


# -- costs ---------------------------------------------------------------------------------------------

def cost_of(ctx: Ctx, item: str) -> dict[str, int]:
    """CK-COST table; a scenario's own C&K costs come from the module's ``ck_cost`` (GOLD-012..014)."""
    return ctx.scenario.ck_cost(ctx.state, ctx.action, item)


def cannot_afford(ctx: Ctx, cost: dict[str, int], what: str, rule: str = "CK-COST-1") -> list[Violation]:
    """The cost in hand, card by card (CK-COM-6: a cost names resources, an improvement's its commodity;
    one never stands in for the other)."""
    s, p = ctx.state, ctx.action.player
    held = store.cards_of(s, p)
    short = {k: n - held.get(k, 0) for k, n in cost.items() if k != "gold" and held.get(k, 0) < n}
    gold = s.players[p].extra.get("gold", 0)
    if cost.get("gold", 0) > gold:
        short["gold"] = cost["gold"] - gold
    if short:
        return [Violation(rule, f"{what} costs {fmt_cards(cost)}; player {p} is short of {fmt_cards(short)}")]
    return []


def pay(s: State, p: int, cost: dict[str, int]) -> None:
    for k, n in cost.items():
        if k == "gold":
            s.players[p].extra["gold"] = s.players[p].extra.get("gold", 0) - n
        elif n:
            store.return_card(s, p, k, n)


# -- the roll ------------------------------------------------------------------------------------------

def roll_check(ctx: Ctx) -> list[Violation]:
    """CK-DICE-1/2, CK-PROG-S1: Alchemist sets the production dice, played before the roll only; then the
    choices the outcome asks (see ``turn``)."""
    a, s = ctx.action, ctx.state
    if a.get("alchemist"):
        if store.hand_of(s, a.player).get("alchemist", 0) <= 0:
            return [Violation("CK-PROG-S1", f"player {a.player} holds no Alchemist card", "/action/alchemist")]
        if a.get("dice") is None:
            return [Violation("CK-PROG-S1", "the Alchemist's player chooses the red and yellow dice: give dice",
                              "/action/dice")]
    fighting = a.get("fighting")
    if fighting:
        if not s.options.get("CK-VAR-MEANIES"):
            return [Violation("CK-BARB-3", "every active knight fights the barbarians; choosing them is the variant "
                              "CK-VAR-MEANIES, not played here", "/action/fighting")]
        for q, nodes in fighting.items():
            for i, n in enumerate(nodes):
                k = store.knight_at(s, tuple(n))
                if k is None or k["player"] != int(q) or not k["active"]:
                    return [Violation("CK-VAR-MEANIES", f"player {q} sends only their own active knights; "
                                      f"{node_str(tuple(n))} holds none", f"/action/fighting/{q}/{i}")]
    asked = roll_outcome(ctx)
    return [] if asked is None else list(asked.violations)


@own_handler("roll", {"roll"})
class Roll:
    check = staticmethod(roll_check)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        resolve_roll(ctx, s)


# -- discarding ----------------------------------------------------------------------------------------

@own_handler("discard_cards", {"discard"}, actor="discard")
class DiscardCards:
    """CK-SEVEN-2, CK-COM-3: half of resources plus commodities, rounded down."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a = ctx.action
        cards = {**(a.get("resources") or {}), **(a.get("commodities") or {})}
        return discard_violations(ctx, "CK-SEVEN-2", cards, lambda: store.cards_of(ctx.state, a.player),
                                  f"player {a.player} owes no discard (limit 7 plus 2 per city wall)",
                                  "their resources and commodities")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        cards = {k: v for k, v in {**(a.get("resources") or {}), **(a.get("commodities") or {})}.items() if v}
        for k, v in cards.items():
            store.return_card(s, a.player, k, v)
        del s.pending_discards[a.player]
        ctx.emit("discarded", player=a.player, resources=cards)
        if not s.pending_discards:
            after_discards(ctx, s)


# -- the robber ----------------------------------------------------------------------------------------

def robber_violations(ctx: Ctx, target: str, mover: int) -> list[Violation]:
    """BASE-ROBBER-3/4 and SEA-028..030, robbing resources or commodities (CK-SEVEN-4, CK-COM-3)."""
    a, s, scen = ctx.action, ctx.state, ctx.scenario
    if not store.robber_awake(s):
        rule = "CK-SEA-8" if target == "pirate" else "CK-SEVEN-3"
        return [Violation(rule, f"the {target} may not move before the first barbarian attack")]
    h = a.get("hex")
    if target == "pirate":
        if not scen.pirate:
            return [Violation("SEA-028", "this scenario has no pirate", "/action/target")]
        if not scen.pirate_hex_ok(s, h) or h == s.pirate:
            return [Violation("SEA-029", "the pirate moves to another sea hex", "/action/hex")]
    elif not scen.robber_hex_ok(s, h) or h == s.robber:
        return [Violation("BASE-ROBBER-3", "the robber moves to another land hex", "/action/hex")]
    victim = a.get("steal_from")
    rule = "SEA-030" if target == "pirate" else "BASE-ROBBER-4"
    v = victim_violations(ctx, target, h, mover, rule, "ship on a side" if target == "pirate" else "building on a corner")
    if v or victim is None:
        return v
    card = a.get("card")
    if card is not None and store.cards_of(s, victim).get(card, 0) <= 0:
        return [Violation("CK-SEVEN-4", f"player {victim} holds no {card}", "/action/card")]
    return []


def robber_move(ctx: Ctx, s: State, target: str, mover: int) -> None:
    """Move the ``target`` and rob one card of resources and commodities (CK-SEVEN-4)."""
    victim = place_piece(ctx, s, target, mover)
    if victim is not None:
        steal_card(ctx, s, mover, victim, store.cards_of(s, victim), CARDS,
                   lambda card: store.move_card(s, victim, mover, card))


@own_handler("move_robber", {"robber"})
class MoveRobber:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return robber_violations(ctx, "robber", ctx.action.player)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        robber_move(ctx, s, "robber", ctx.action.player)
        s.phase = "main"


@own_handler("move_pirate", {"robber"})
class MovePirate:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return robber_violations(ctx, "pirate", ctx.action.player)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        robber_move(ctx, s, "pirate", ctx.action.player)
        s.phase = "main"


# -- knights -------------------------------------------------------------------------------------------

def main_wrong_phase(ctx: Ctx) -> Optional[Violation]:
    """CK-DICE-5: knights, walls and improvements belong to the trade/build phase after the roll."""
    phase = ctx.state.phase
    if phase == "roll":
        return Violation("CK-DICE-1", "before the roll only the Alchemist may be played")
    rule, why = WRONG_PHASE_RULE[phase]
    return Violation(rule, f"{why} (phase {phase!r})")


def _opponent_at(s: State, n: Node, p: int, knights: dict) -> bool:
    b = s.buildings.get(n)
    return (b is not None and b[0] != p) or knights.get(n, p) != p


def network_nodes(s: State, g: MapGraph, p: int, ships: bool) -> set[Node]:
    """Intersections touched by ``p``'s roads (and ships, CK-SEA-5). Every knight placement judged by
    one legal-action list asks for them: kept for that list (``legal.listing.per_listing``). Read-only."""
    return per_listing(("cities_and_knights.network_nodes", p, ships), lambda: _network_nodes(s, g, p, ships), s, g)


def _network_nodes(s: State, g: MapGraph, p: int, ships: bool) -> set[Node]:
    out: set[Node] = set()
    for pieces in ((s.roads, s.ships) if ships else (s.roads,)):
        for e, o in pieces.items():
            if o == p and e in g.edge_index:
                for nid in g.edge_node_ids[g.edge_index[e]]:
                    out.add(g.nodes[nid])
    return out


def reachable(s: State, g: MapGraph, p: int, start: Node, ships: bool) -> set[Node]:
    """CK-KNIGHT-6, CK-SEA-6: intersections reached from ``start`` along ``p``'s roads (and ships),
    passing only intersections free of opponents' pieces (the last one may hold one)."""
    kn = store.knight_nodes(s)
    own_edges = {e for e, o in s.roads.items() if o == p}
    if ships:
        own_edges |= {e for e, o in s.ships.items() if o == p}
    seen = {start}
    todo = deque([start])
    while todo:
        n = todo.popleft()
        if n != start and _opponent_at(s, n, p, kn):
            continue                                          # no passing through an opponent's piece
        nid = g.node_index.get(n)
        if nid is None:
            continue
        for eid in g.node_edge_ids[nid]:
            if g.edges[eid] not in own_edges:
                continue
            for m in g.edge_node_ids[eid]:
                mn = g.nodes[m]
                if mn not in seen:
                    seen.add(mn)
                    todo.append(mn)
    seen.discard(start)
    return seen


def _empty(s: State, n: Node) -> bool:
    return n not in s.buildings and store.knight_at(s, n) is None


def own_knight(ctx: Ctx, key: str = "node") -> tuple[Optional[dict], list[Violation]]:
    """The acting player's knight on the action's ``key`` intersection, or the CK-KNIGHT-5 violation."""
    a, s = ctx.action, ctx.state
    n = a.get(key)
    k = store.knight_at(s, n)
    if k is None or k["player"] != a.player:
        return None, [Violation("CK-KNIGHT-5", f"player {a.player} has no knight on {node_str(n)}", f"/action/{key}")]
    return k, []


def may_act(k: dict, p: int, path: str) -> list[Violation]:
    """CK-KNIGHT-3/5: an active knight not activated this turn and that has not acted this turn."""
    if k.get("acted"):
        return [Violation("CK-KNIGHT-5", "each knight performs at most one action per turn; this one has acted", path)]
    if not k["active"]:
        return [Violation("CK-KNIGHT-5", "only an active knight acts", path)]
    if k.get("activated"):
        return [Violation("CK-KNIGHT-3", "a knight activated this turn may not act this turn", path)]
    return []


@own_handler("build_knight", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase, changes_routes=True)
class BuildKnight:
    """CK-KNIGHT-1, CK-SEA-5: a basic knight, inactive, on an empty intersection touched by own roads or ships."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        n = a.get("node")
        if store.knights_in_supply(s, a.player, 1) <= 0:
            return [Violation("CK-COMP-2", f"player {a.player} has no basic knight left (2 per player)")]
        if n not in ctx.graph.node_index or not _empty(s, n):
            return [Violation("CK-KNIGHT-1", f"a knight is placed on an empty intersection; {node_str(n)} is not one",
                              "/action/node")]
        if n not in network_nodes(s, ctx.graph, a.player, ctx.scenario.ships):
            what = "roads or ships" if ctx.scenario.ships else "roads"
            return [Violation("CK-SEA-5" if ctx.scenario.ships else "CK-KNIGHT-1",
                              f"a knight stands on an intersection touched by its owner's {what}; {node_str(n)} is "
                              "not", "/action/node")]
        return cannot_afford(ctx, cost_of(ctx, "knight"), "a knight")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        pay(s, a.player, cost_of(ctx, "knight"))
        ck(s)["knights"].append({"node": list(a.get("node")), "player": a.player, "level": 1, "active": False,
                                 "activated": False, "acted": False, "promoted": False})
        s.flags.built = True
        ctx.emit("built", player=a.player, piece="knight", node=list(a.get("node")))


@own_handler("activate_knight", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase)
class ActivateKnight:
    """CK-KNIGHT-3: 1 grain turns an inactive knight active (GOLD-013: or 1 gold)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        k, v = own_knight(ctx)
        if v:
            return v
        if k["active"]:
            return [Violation("CK-KNIGHT-3", "the knight is already active", "/action/node")]
        if ctx.action.get("pay") not in (None, "grain") and "gold" not in ctx.scenario.composition.currencies:
            return [Violation("CK-KNIGHT-3", "a knight is activated with 1 grain; paying with gold is a GOLD rule "
                              "(GOLD-013): leave pay out", "/action/pay")]
        return cannot_afford(ctx, cost_of(ctx, "activate"), "activating a knight")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        pay(s, ctx.action.player, cost_of(ctx, "activate"))
        k = store.knight_at(s, ctx.action.get("node"))
        k["active"] = True
        k["activated"] = True
        ctx.emit("knight_activated", player=ctx.action.player, node=k["node"])


def promote_violations(ctx: Ctx, n: Node, path: str) -> list[Violation]:
    s, p = ctx.state, ctx.action.player
    k = store.knight_at(s, n)
    if k is None or k["player"] != p:
        return [Violation("CK-KNIGHT-4", f"player {p} has no knight on {node_str(n)}", path)]
    if k.get("promoted"):
        return [Violation("CK-KNIGHT-4", "a knight is promoted at most once per turn", path)]
    if k["level"] >= 3:
        return [Violation("CK-KNIGHT-4", "a mighty knight cannot be promoted", path)]
    if k["level"] == 2 and store.level(s, p, "politics") < 3:
        return [Violation("CK-KNIGHT-4", "promoting a strong knight to mighty needs the Fortress (politics level 3, "
                          "CK-IMP-4)", path)]
    if store.knights_in_supply(s, p, k["level"] + 1) <= 0:
        return [Violation("CK-KNIGHT-4", f"player {p} has no {LEVEL_NAMES[k['level'] + 1]} knight left", path)]
    return []


def promote(ctx: Ctx, s: State, n: Node) -> None:
    k = store.knight_at(s, n)
    k["level"] += 1                                          # CK-KNIGHT-8: position and status kept
    k["promoted"] = True
    ctx.emit("knight_promoted", player=k["player"], node=k["node"], level=k["level"])


@own_handler("promote_knight", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase)
class PromoteKnight:
    """CK-KNIGHT-4: 1 wool + 1 ore, one level up, once per turn; mighty needs the Fortress."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return (promote_violations(ctx, ctx.action.get("node"), "/action/node")
                or cannot_afford(ctx, cost_of(ctx, "promote"), "promoting a knight"))

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        pay(s, ctx.action.player, cost_of(ctx, "promote"))
        promote(ctx, s, ctx.action.get("node"))


@own_handler("move_knight", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase, changes_routes=True)
class MoveKnight:
    """CK-KNIGHT-6: to an empty intersection along own roads (and ships, CK-SEA-6); the knight turns inactive."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        k, v = own_knight(ctx, "from")
        if v:
            return v
        v = may_act(k, a.player, "/action/from")
        if v:
            return v
        to = a.get("to")
        if not _empty(s, to):
            return [Violation("CK-KNIGHT-6", f"a knight moves to an empty intersection; {node_str(to)} is occupied "
                              "(to displace a knight use displace_knight)", "/action/to")]
        if to not in reachable(s, ctx.graph, a.player, a.get("from"), ctx.scenario.ships):
            return [Violation("CK-SEA-6" if ctx.scenario.ships else "CK-KNIGHT-6",
                              f"{node_str(to)} is not reached from {node_str(a.get('from'))} along player {a.player}'s "
                              "roads" + (" and ships" if ctx.scenario.ships else "") + " without passing an opponent's "
                              "piece", "/action/to")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        k = store.knight_at(s, a.get("from"))
        k["node"] = list(a.get("to"))
        k["active"] = False                                  # CK-KNIGHT-5
        k["acted"] = True
        ctx.emit("knight_moved", player=a.player, **{"from": list(a.get("from")), "to": list(a.get("to"))})


def retreats(s: State, g: MapGraph, k: dict, ships: bool) -> list[Node]:
    """CK-KNIGHT-7 (2025 form): empty intersections the displaced knight's owner reaches from where it
    stood, along their own roads (and ships), passing only their own pieces."""
    start = tuple(k["node"])
    return sorted(n for n in reachable(s, g, k["player"], start, ships) if _empty(s, n))


def retreat_violation(ctx: Ctx, s: State, victim: dict, where: Node, path: str) -> list[Violation]:
    """The displaced knight's new intersection, the owner's choice (CK-KNIGHT-7): carried by the action."""
    opts = _retreat_options(ctx, s, victim, where)
    r = ctx.action.get("retreat")
    if not opts:
        if r is not None:
            return [Violation("CK-KNIGHT-7", "the displaced knight has no empty intersection to go to and is removed: "
                              "leave retreat out", path)]
        return []
    if r is None or tuple(r) not in opts:
        return [Violation("CK-KNIGHT-7", f"player {victim['player']} moves the displaced knight to an empty "
                          f"intersection along their roads: give retreat, one of {[list(x) for x in opts]}", path)]
    return []


def _retreat_options(ctx: Ctx, s: State, victim: dict, where: Node) -> list[Node]:
    """Options once the displacing piece stands on ``where`` (so it cannot be passed)."""
    trial = s.copy()
    k = store.knight_at(trial, where)
    # the victim's own intersection now holds the displacer: search from it as the victim
    trial_victim = dict(victim)
    trial_victim["node"] = list(where)
    if k is not None:
        k["player"] = -1                                     # the displacer's piece, for the search
    may = ctx.scenario.knight_may_stand                      # a scenario may keep knights off some places
    return [n for n in retreats(trial, ctx.graph, trial_victim, ctx.scenario.ships) if n != where
            and may(s, victim, n)]


def displace(ctx: Ctx, s: State, where: Node, newcomer: Optional[dict]) -> None:
    """The knight on ``where`` goes to the retreat named in the action, or back to its supply."""
    victim = store.knight_at(s, where)
    r = ctx.action.get("retreat")
    knights = ck(s)["knights"]
    knights.remove(victim)
    if newcomer is not None:
        newcomer["node"] = list(where)
    if r is not None:
        victim["node"] = list(r)                             # CK-KNIGHT-8: strength and status kept
        knights.append(victim)
        ctx.emit("knight_displaced", player=victim["player"], **{"from": list(where), "to": list(r)})
    else:                                                    # CK-KNIGHT-10: back to the supply
        ctx.emit("knight_displaced", player=victim["player"], **{"from": list(where), "to": None})


@own_handler("displace_knight", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase,
             changes_routes=True)
class DisplaceKnight:
    """CK-KNIGHT-7: move (as CK-KNIGHT-6) onto an opponent's strictly weaker knight, which retreats."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        k, v = own_knight(ctx, "from")
        if v:
            return v
        v = may_act(k, a.player, "/action/from")
        if v:
            return v
        to = a.get("to")
        victim = store.knight_at(s, to)
        if victim is None or victim["player"] == a.player:
            return [Violation("CK-KNIGHT-7", f"{node_str(to)} holds no opponent's knight", "/action/to")]
        if victim["level"] >= k["level"]:
            return [Violation("CK-KNIGHT-7", f"a knight displaces only a strictly weaker one; the {LEVEL_NAMES[k['level']]} "
                              f"knight cannot displace a {LEVEL_NAMES[victim['level']]} one", "/action/to")]
        if to not in reachable(s, ctx.graph, a.player, a.get("from"), ctx.scenario.ships):
            return [Violation("CK-KNIGHT-7", f"{node_str(to)} is not reached from {node_str(a.get('from'))} along "
                              f"player {a.player}'s roads without passing an opponent's piece", "/action/to")]
        trial = s.copy()
        mover = store.knight_at(trial, a.get("from"))
        trial_knights = ck(trial)["knights"]
        trial_knights.remove(mover)
        mover["node"] = list(to)
        return retreat_violation(ctx, trial, dict(victim), to, "/action/retreat")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        k = store.knight_at(s, a.get("from"))
        displace(ctx, s, a.get("to"), k)
        k["active"] = False
        k["acted"] = True
        ctx.emit("knight_moved", player=a.player, **{"from": list(a.get("from")), "to": list(a.get("to"))})


@own_handler("chase_robber", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase)
class ChaseRobber:
    """CK-KNIGHT-9 (CK-SEA-9 for the pirate): an active knight on a corner of the robber's hex moves it and
    robs; the knight turns inactive. Not before the first attack (CK-SEVEN-6, CK-SEA-8)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s, g = ctx.action, ctx.state, ctx.graph
        k, v = own_knight(ctx, "node")
        if v:
            return v
        v = may_act(k, a.player, "/action/node") or target_violations(ctx, "CK-SEA-9")
        if v:
            return v
        target = a.get("target") or "robber"
        if not store.robber_awake(s):
            return [Violation("CK-SEVEN-6" if target == "robber" else "CK-SEA-8",
                              f"the {target} may not be moved by any means before the first barbarian attack")]
        at = s.pirate if target == "pirate" else s.robber
        nid = g.node_index.get(a.get("node"))
        if at is None or nid is None or nid not in g.hex_node_ids.get(at, ()):
            return [Violation("CK-SEA-9" if target == "pirate" else "CK-KNIGHT-9",
                              f"the knight chasing the {target} stands on a corner of its hex", "/action/node")]
        return robber_violations(ctx, target, a.player)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        k = store.knight_at(s, a.get("node"))
        k["active"] = False
        k["acted"] = True
        robber_move(ctx, s, a.get("target") or "robber", a.player)


# -- city walls ----------------------------------------------------------------------------------------

@own_handler("build_wall", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase)
class BuildWall:
    """CK-WALL-1: 2 brick, under an own city (or metropolis) without one, 3 per player."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        n = a.get("node")
        if s.buildings.get(n) != (a.player, "city"):         # CK-IMP-11: a metropolis city takes one too
            return [Violation("CK-WALL-1", f"a city wall goes under one of your cities; {node_str(n)} is not one",
                              "/action/node")]
        if list(n) in ck(s)["walls"]:
            return [Violation("CK-WALL-1", "one wall per city; this city has one", "/action/node")]
        if n in store.sideways(s):
            return [Violation("CK-BARB-5", "a city on its side is a settlement until restored", "/action/node")]
        if store.walls_in_supply(s, a.player) <= 0:
            return [Violation("CK-WALL-1", f"at most {WALLS} city walls per player")]
        if ck(s)["turn"].get("engineer"):
            return []                                        # CK-PROG-S3: free
        return cannot_afford(ctx, cost_of(ctx, "wall"), "a city wall")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        turn = ck(s)["turn"]
        if turn.get("engineer"):
            turn["engineer"] = False
        else:
            pay(s, a.player, cost_of(ctx, "wall"))
        ck(s)["walls"].append(list(a.get("node")))
        s.flags.built = True
        ctx.emit("built", player=a.player, piece="wall", node=list(a.get("node")))


# -- city improvements and metropolises ---------------------------------------------------------------

def improvement_cost(s: State, track: str, lvl: int) -> dict[str, int]:
    """CK-IMP-1: level n costs n commodities of the track (CK-PROG-S2 Crane: one less)."""
    n = lvl - (1 if ck(s)["turn"].get("crane") else 0)
    return {TRACK_COMMODITY[track]: n} if n > 0 else {}


def metropolis_sites(s: State, p: int) -> list[Node]:
    metro = store.metropolis_nodes(s)
    side = store.sideways(s)
    return sorted(n for n, (o, k) in s.buildings.items() if o == p and k == "city" and n not in metro
                  and n not in side)


def takes_metropolis(s: State, p: int, track: str, lvl: int) -> bool:
    """CK-IMP-7: the first to level 4 takes it; CK-IMP-9: it moves to the first other player to level 5
    while its holder is at level 4. (A track left out of the posted ``metropolises`` has no holder: it is
    read, never filled in, in the position judged.)"""
    h = ck(s)["metropolises"].get(track)
    if lvl == METROPOLIS_LEVEL:
        return h is None
    if lvl == MAX_LEVEL:
        return h is None or (h["player"] != p and store.level(s, h["player"], track) < MAX_LEVEL)
    return False


@own_handler("improve_city", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase)
class ImproveCity:
    """CK-IMP-1..12: the next level of a track, paid in its commodity; metropolises."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        track = a.get("track")
        lvl = store.level(s, a.player, track) + 1
        if lvl > MAX_LEVEL:
            return [Violation("CK-IMP-1", f"the {track} track has {MAX_LEVEL} levels; player {a.player} has them all",
                              "/action/track")]
        side = store.sideways(s)
        if not any(o == a.player and k == "city" and n not in side for n, (o, k) in s.buildings.items()):
            return [Violation("CK-IMP-2", f"player {a.player} owns no city and cannot buy an improvement (CK-IMP-6)")]
        sites = metropolis_sites(s, a.player)
        h = ck(s)["metropolises"].get(track)
        holder = h is not None and h["player"] == a.player
        # CK-IMP-12: the holder's own level 5 needs no further free city (its metropolis is placed)
        if lvl >= METROPOLIS_LEVEL and not sites and not holder:
            return [Violation("CK-IMP-8", f"level {lvl} needs a city without a metropolis; every city of player "
                              f"{a.player} carries one", "/action/track")]
        cost = improvement_cost(s, track, lvl)
        v = cannot_afford(ctx, cost, f"level {lvl} of {track}", "CK-IMP-1")
        if v:
            return v
        node = a.get("metropolis")
        if node is not None and not (takes_metropolis(s, a.player, track, lvl) and not holder):
            return [Violation("CK-IMP-7", f"level {lvl} of {track} places no metropolis for player {a.player} (one is "
                              f"taken at level {METROPOLIS_LEVEL} or 5 from a lower holder): leave metropolis out",
                              "/action/metropolis")]
        if takes_metropolis(s, a.player, track, lvl) and not holder:
            if len(sites) > 1 and (node is None or tuple(node) not in sites):
                return [Violation("CK-IMP-7", f"player {a.player} takes the {track} metropolis and places it on a city "
                                  f"without one: give metropolis, one of {[list(x) for x in sites]}", "/action/metropolis")]
            if node is not None and tuple(node) not in sites:
                return [Violation("CK-IMP-7", f"the metropolis goes on one of your cities without one: "
                                  f"{[list(x) for x in sites]}", "/action/metropolis")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        track = a.get("track")
        lvl = store.level(s, a.player, track) + 1
        pay(s, a.player, improvement_cost(s, track, lvl))
        c = ck(s)
        c["turn"]["crane"] = False
        c["improvements"].setdefault(str(a.player), {t: 0 for t in TRACKS})[track] = lvl
        s.flags.built = True
        ctx.emit("improved", player=a.player, track=track, level=lvl)
        h = c["metropolises"].get(track)
        if takes_metropolis(s, a.player, track, lvl) and not (h is not None and h["player"] == a.player):
            sites = metropolis_sites(s, a.player)
            node = tuple(a.get("metropolis")) if a.get("metropolis") is not None else sites[0]
            c["metropolises"][track] = {"player": a.player, "node": list(node), "level": lvl}
            ctx.emit("metropolis", track=track, player=a.player, node=list(node),
                     **{"from": None if h is None else h["player"]})
        elif h is not None and h["player"] == a.player:
            h["level"] = lvl


# -- trade ---------------------------------------------------------------------------------------------

def bank_rates(s: State, g: MapGraph, p: int, scen: Any = None) -> dict[str, tuple[int, str]]:
    """The best rate per card given to the bank and the rule it rests on (CK-COM-5, CK-IMP-3,
    CK-PROG-T3, CK-PROG-T4); ``scen``'s ``harbor_access`` adds harbours used without a building there.
    Every maritime trade judged by one legal-action list asks for them: kept for that list
    (``legal.listing.per_listing``; ``harbor_access`` may read any part of the position, which the list
    never changes). Read-only."""
    return per_listing(("cities_and_knights.bank_rates", p), lambda: _bank_rates(s, g, p, scen), s, g, scen)


def _bank_rates(s: State, g: MapGraph, p: int, scen: Any) -> dict[str, tuple[int, str]]:
    harb = harbor_rates(s, g, p)
    further = scen.harbor_access(s, g, p) if scen is not None else ()
    for kind in further:
        if kind == "3:1":
            harb = {r: min(v, 3) for r, v in harb.items()}
        elif kind in harb:
            harb[kind] = 2
    rates: dict[str, tuple[int, str]] = {}
    for r in RESOURCES:
        rate = harb[r]
        rates[r] = (rate, {4: "BASE-TRADE-6", 3: "BASE-TRADE-7", 2: "BASE-TRADE-8"}[rate])
    has31 = "3:1" in further or any(
        kind == "3:1" and any(s.building_owner(g.nodes[n]) == p for n in g.edge_node_ids[g.edge_index[e]])
        for e, kind in s.harbors.items() if e in g.edge_index)
    for c in COMMODITIES:
        rates[c] = (3, "CK-COM-5") if has31 else (4, "CK-COM-5")
        if store.level(s, p, "trade") >= 3:
            rates[c] = (2, "CK-IMP-3")
    m = ck(s).get("merchant")
    if m and m["player"] == p:
        from ...mapgraph import RESOURCE_OF
        r = RESOURCE_OF.get(s.hexes.get(tuple(m["hex"]), (None,))[0])
        if r:
            rates[r] = (2, "CK-PROG-T3")
    fleet = ck(s)["turn"].get("fleet")
    if fleet:
        rates[fleet] = (2, "CK-PROG-T4")
    return rates


@own_handler("maritime_trade", {"main"}, not_your_turn="BASE-TRADE-9", wrong_phase=trade_wrong_phase)
class MaritimeTrade:
    """Trade with the bank, commodities included (CK-COM-5)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        (gr, gn), = ((r, n) for r, n in a.get("give").items() if n)
        (wr, wn), = ((r, n) for r, n in a.get("get").items() if n)
        if gr == wr:
            return [Violation("BASE-TRADE-6", f"a maritime trade gives one kind for another; both are {gr}", "/action/get")]
        rate, rule = bank_rates(s, ctx.graph, a.player, ctx.scenario)[gr]
        if gn != rate * wn:
            return [Violation(rule, f"player {a.player} trades {gr} with the bank at {rate}:1, so {wn} {wr} costs "
                              f"{rate * wn} {gr}, not {gn}", "/action/give")]
        if store.cards_of(s, a.player).get(gr, 0) < gn:
            return [Violation(rule, f"player {a.player} holds fewer than {gn} {gr}", "/action/give")]
        if store.bank_has(s, wr) < wn:
            return [Violation("BASE-TRADE-9", f"the bank holds fewer than {wn} {wr}", "/action/get")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        (gr, gn), = ((r, n) for r, n in a.get("give").items() if n)
        (wr, wn), = ((r, n) for r, n in a.get("get").items() if n)
        store.return_card(s, a.player, gr, gn)
        store.give_card(s, a.player, wr, wn)
        ctx.emit("traded", player=a.player, partner="bank", gave={gr: gn}, got={wr: wn})


def maritime_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    if state.phase != "main" or p != state.current_player:
        return
    held = store.cards_of(state, p)
    rates = bank_rates(state, graph, p, scen)
    for gr in CARDS:
        rate = rates[gr][0]
        if held.get(gr, 0) < rate:
            continue
        for wr in CARDS:
            if wr != gr and store.bank_has(state, wr) >= 1:
                yield Action("maritime_trade", p, {"give": {gr: rate}, "get": {wr: 1}})


def _split(cards: dict, ctx: Ctx) -> tuple[dict, int]:
    """The cards and, where the game has gold coins (GOLD's ``CURRENCIES``), the gold apart."""
    got, cur = split_currencies(cards, ctx.scenario.composition.currencies)
    return got, int(cur.get("gold", 0))


@own_handler("domestic_trade", {"main"}, actor="trade", wrong_phase=trade_wrong_phase)
class DomesticTrade:
    """BASE-TRADE-1..5 with commodities (CK-COM-4)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        partner = a.get("partner")
        give, give_gold = _split(a.get("give"), ctx)
        get, get_gold = _split(a.get("get"), ctx)
        if partner == a.player or not (0 <= partner < s.num_players):
            return [Violation("BASE-TRADE-2", f"partner {partner} is not another player", "/action/partner")]
        if s.current_player not in (a.player, partner):
            return [Violation("BASE-TRADE-2", "non-active players trade only with the active player", "/action/partner")]
        v = strict_phases_violation(ctx)
        if v:
            return v
        for cards, path in ((give, "/action/give"), (get, "/action/get")):
            other = sorted(r for r in cards if r not in CARDS)
            if other:
                return [Violation("BASE-TRADE-5", f"only resources and commodities are traded (CK-COM-4); "
                                  f"{', '.join(other)} cannot be", path)]
        v = unaccepted_violation(ctx)
        if v:
            return v
        if not (give or give_gold) or not (get or get_gold):
            return [Violation("BASE-TRADE-3", "a domestic trade has at least one card on each side (no gifts)",
                              "/action/get" if give or give_gold else "/action/give")]
        same = sorted(set(give) & set(get)) + (["gold"] if give_gold and get_gold else [])
        if same:
            return [Violation("BASE-TRADE-4", f"{', '.join(same)} is on both sides", "/action/get")]
        for who, cards, gold, path in ((a.player, give, give_gold, "/action/give"), (partner, get, get_gold, "/action/get")):
            held = store.cards_of(s, who)
            short = {k: n - held.get(k, 0) for k, n in cards.items() if held.get(k, 0) < n}
            if gold > s.players[who].extra.get("gold", 0):
                short["gold"] = gold - s.players[who].extra.get("gold", 0)
            if short:
                return [Violation("BASE-TRADE-2", f"player {who} is short of {fmt_cards(short)}", path)]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        partner = a.get("partner")
        give, give_gold = _split(a.get("give"), ctx)
        get, get_gold = _split(a.get("get"), ctx)
        for k, n in give.items():
            store.move_card(s, a.player, partner, k, n)
        for k, n in get.items():
            store.move_card(s, partner, a.player, k, n)
        if give_gold or get_gold:
            mine, theirs = s.players[a.player].extra, s.players[partner].extra
            mine["gold"] = mine.get("gold", 0) + get_gold - give_gold
            theirs["gold"] = theirs.get("gold", 0) + give_gold - get_gold
        ctx.emit("traded", player=a.player, partner=partner, gave={**give, **({"gold": give_gold} if give_gold else {})},
                 got={**get, **({"gold": get_gold} if get_gold else {})})


# -- candidates ----------------------------------------------------------------------------------------

def knight_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """build, activate, promote, move, displace, chase: a superset of the legal ones."""
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    ships = scen.ships
    for n in sorted(network_nodes(state, graph, p, ships)):
        if _empty(state, n):
            yield Action("build_knight", p, {"node": n})
    for k in list(ck(state)["knights"]):
        if k["player"] != p:
            continue
        n = tuple(k["node"])
        yield Action("activate_knight", p, {"node": n})
        if "gold" in scen.composition.currencies:          # GOLD-013: or 1 gold
            yield Action("activate_knight", p, {"node": n, "pay": "gold"})
        yield Action("promote_knight", p, {"node": n})
        if not k["active"] or k.get("activated") or k.get("acted"):
            continue
        for to in sorted(reachable(state, graph, p, n, ships)):
            other = store.knight_at(state, to)
            if other is None and to not in state.buildings:
                yield Action("move_knight", p, {"from": n, "to": to})
            elif other is not None and other["player"] != p and other["level"] < k["level"]:
                opts = _displace_options(state, graph, scen, p, n, to)
                for r in opts:
                    yield Action("displace_knight", p, {"from": n, "to": to, "retreat": r})
        if store.robber_awake(state):
            for target, at in (("robber", state.robber), ("pirate", state.pirate)):
                if at is None or (target == "pirate" and not scen.pirate):
                    continue
                nid = graph.node_index.get(n)
                if nid is None or nid not in graph.hex_node_ids.get(at, ()):
                    continue
                for h in sorted(state.hexes):
                    ok = scen.pirate_hex_ok(state, h) if target == "pirate" else scen.robber_hex_ok(state, h)
                    if not ok or h == at:
                        continue
                    for v in victims(state, graph, scen, target, h, p):
                        yield Action("chase_robber", p, {"node": n, "hex": h, "steal_from": v, "card": None,
                                                          "target": target})


def _displace_options(state, graph, scen, p, frm, to) -> list:
    trial = state.copy()
    mover = store.knight_at(trial, frm)
    victim = store.knight_at(trial, to)
    ck(trial)["knights"].remove(mover)
    ctx = Ctx(trial, Action("displace_knight", p, {}), graph, scen)
    opts = _retreat_options(ctx, trial, dict(victim), to)
    return list(opts) if opts else [None]


def build_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    for n, (o, k) in sorted(state.buildings.items()):
        if o == p and k == "city":
            yield Action("build_wall", p, {"node": n})
    for n in sorted(store.sideways(state)):
        yield Action("restore_city", p, {"node": n})
    sites = metropolis_sites(state, p)
    for t in TRACKS:                                  # CK-IMP-7: a metropolis named only at the level taking one
        lvl = store.level(state, p, t) + 1
        takes = lvl <= MAX_LEVEL and takes_metropolis(state, p, t, lvl)
        for m in ([None] + sites if takes else [None]):
            yield Action("improve_city", p, {"track": t, "metropolis": m})


__all__ = ["Roll", "DiscardCards", "MoveRobber", "MovePirate", "BuildKnight", "ActivateKnight", "PromoteKnight",
           "MoveKnight", "DisplaceKnight", "ChaseRobber", "BuildWall", "ImproveCity", "MaritimeTrade", "DomesticTrade",
           "knight_candidates", "own_knight", "build_candidates", "maritime_candidates", "reachable",
           "network_nodes", "retreats", "displace", "promote", "promote_violations", "pay", "cannot_afford",
           "robber_violations", "robber_move", "metropolis_sites"]


def roll_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """The listed rolls (``roll_ranges``: the seeded dice with every combination of the choices its
    outcome asks while few, and each Alchemist pair asking none); the others are given as ranges."""
    from .roll_ranges import roll_candidates as listed
    return listed(state, graph, scen, p)


def end_turn_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """End the turn putting back the progress cards over the limit (CK-PROG-5): each choice of them."""
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    from itertools import combinations_with_replacement
    from .data import PROGRESS_LIMIT
    over = store.progress_count(state, p) - PROGRESS_LIMIT
    if over <= 0:
        return
    h = store.hand_of(state, p)
    kinds = sorted(c for c, n in h.items() if n)
    for combo in combinations_with_replacement(kinds, over):
        if all(combo.count(c) <= h[c] for c in set(combo)):
            yield Action("end_turn", p, {"put_back": list(combo)})


@own_handler("buy_development_card", {"setup", "roll", "discard", "robber", "gold_choice", "main"})
class NoDevelopmentCards:
    """CK-CHG-2, CK-PROG-1: there are no development cards to buy; progress cards are never bought."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return [Violation("CK-CHG-2", "Cities & Knights has no development cards: progress cards replace them and "
                          "are drawn on the event die's city gates, never bought (CK-PROG-1)")]

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:            # pragma: no cover - never legal
        raise AssertionError("no development cards")


@own_handler("restore_city", {"main"}, not_your_turn="CK-COST-1", wrong_phase=main_wrong_phase)
class RestoreCity:
    """CK-BARB-5: a city laid on its side is raised again at a city's cost."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        n = a.get("node")
        if n not in store.sideways(s) or s.buildings.get(n, (None,))[0] != a.player:
            return [Violation("CK-BARB-5", f"{node_str(n)} holds none of your cities on its side", "/action/node")]
        from ...bank import COSTS as BASE_COSTS
        return cannot_afford(ctx, {**BASE_COSTS["city"], **ctx.scenario.free_item_cost("city")}, "restoring a city",
                             "BASE-COST-1")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        from ...bank import COSTS as BASE_COSTS
        a = ctx.action
        pay(s, a.player, {**BASE_COSTS["city"], **ctx.scenario.free_item_cost("city")})
        ck(s)["sideways"].remove(list(a.get("node")))
        s.flags.built = True
        ctx.emit("built", player=a.player, piece="city", node=list(a.get("node")), restored=True)


def setup_gold_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """CK-SEA-12: the second set-up placement on a site touching gold fields, with its picks (one kind per
    candidate; any mix is legal too)."""
    if state.phase != "setup" or state.setup.round != scen.setup_city_round or not scen.setup_city_pays() or \
            state.setup.step != "settlement" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    for nid, n in enumerate(graph.nodes):
        if not graph.node_land[nid] or n in state.buildings:
            continue
        k = sum(1 for h in graph.node_hexes[nid] if scen.gold_entitlement(state.hexes[h].terrain, "settlement"))
        if not k:
            continue
        want = min(k, sum(state.bank.values()))
        for r in RESOURCES:
            if state.bank.get(r, 0) >= want:
                yield Action("build_settlement", p, {"node": n, "gold_picks": {r: want}})
