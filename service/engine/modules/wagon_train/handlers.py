"""WAG's action types: moving the wagon (a segment judged by ``costs.judge_segment``), drawing and
delivering trade tokens, driving off a barbarian, chasing a warship, upgrading the baggage train, the toll
policy, buying resources with gold, and the movement-phase gate (R-114).

Every chance outcome is carried by the action as observed (``die``, ``draw``) or drawn from the state's
seeded generator; a choice the roller makes (where a barbarian or warship goes) is named in the action before
the die is known (R-113).
"""
from __future__ import annotations

import copy
from typing import Any, Optional

from ...bank import cannot_pay, pay, take
from ...core import Action, Ctx, Violation, fmt_cards
from ...geometry import Hex, hex_corners, hex_neighbours, hex_str, node_str
from ...mapgraph import LAND, RESOURCES
from ...rng import Rng
from ...state import State
from ...actions import own_handler
from ...scenarios.coins import add_coins, buy_violations, coins, joined_coins, split_coins
from . import costs as C
from . import santa

#: R-114: what may happen once the movement phase started (the wagon's actions, ship and knight moves, the end).
MOVEMENT_PHASE = frozenset({"move_wagon", "drive_off_barbarian", "chase_warship", "end_turn", "move_ship",
                            "move_knight"})
#: R-114: moving another movable item in the movement phase ends the wagon's movement.
OTHER_MOVABLES = frozenset({"move_ship", "move_knight"})
BUY_RATE = 2                    # 2 gold a resource card
BUY_CAP = 2                     # at most 2 a turn


def _ss(s: State) -> dict:
    """The scenario state of the copy being changed, its own (nothing shared with the posted state)."""
    s.scenario_state = copy.deepcopy(s.scenario_state)
    return s.scenario_state


def _turn(ss: dict, player: int) -> dict:
    t = ss.get("wagon_turn")
    if not t:
        t = ss["wagon_turn"] = {"player": player, "started": False, "ended": False, "mp_used": 0, "grain": False,
                                "jumped": False, "paid_edges": [], "tribute": [], "chases": {}, "attempts": [],
                                "waived": [], "bought": 0}
    return t


def _draw_die(ctx: Ctx, s: State) -> int:
    die = ctx.action.get("die")
    if die is None:
        rng = Rng(s.rng_seed, s.rng_counter)
        die = rng.below(6) + 1
        s.rng_counter = rng.counter
    return int(die)


def movement_over(state: State, player: int) -> Optional[Violation]:
    """R-115: a wagon action is refused once the wagon's movement is over this turn."""
    t = C.turn_of(state)
    if not t.get("ended"):
        return None
    if t.get("jumped"):
        return Violation("WAG-023", "the wagon jumped along a sea route this turn: its movement is over (no grain "
                         "and no further move after a jump)", "/action", "R-099")
    if t.get("plaza"):
        return Violation("WAG-014", "the wagon entered a plaza this turn: its movement is over", "/action", "R-093")
    return Violation("WAG-047", "another movable item moved in the movement phase: the wagon's movement is over",
                     "/action", "R-114")


# -- the movement phase gate (a CHECK on every action) ------------------------------------------------------

def movement_phase_check(ctx: Ctx) -> list[Violation]:
    """WAG-003 / R-092 / R-114: once the wagon moved this turn, no trading, building or buying; only the
    wagon's actions, ship and knight moves and the end of the turn."""
    t = ctx.state.scenario_state.get("wagon_turn")
    if not t or not t.get("started") or ctx.action.type in MOVEMENT_PHASE:
        return []
    return [Violation("WAG-003", f"the movement phase has started (the wagon moved this turn): "
                      f"{ctx.action.type} is no longer allowed; trading and building come before the wagon moves",
                      "/action/type", "R-114")]


# -- moving the wagon ---------------------------------------------------------------------------------------

def _node(x) -> Optional[tuple]:
    return None if x is None else (int(x[0]), int(x[1]), str(x[2]))


def arrival(state: State, player: int, plaza: str) -> tuple[Optional[str], bool]:
    """What entering ``plaza`` does: ``(kind delivered or None, whether a token is drawn)`` (WAG-017..021)."""
    w = C.wagon(state, player)
    held = (w.get("token") or {}).get("kind")
    stack = ((state.scenario_state.get("stacks") or {}).get(plaza)
             or ((state.scenario_state.get("stacks") or {}).get("forge") if plaza == "glassworks" else None) or {})
    left = sum(stack.values())
    if held is not None:
        if C.DELIVER[held] == plaza:                    # WAG-018, WAG-020: delivered, then the next draw
            return held, left > 0
        return None, False                              # an unrelated plaza does nothing
    return None, left > 0           # WAG-016/017, R-080: holding none, any plaza with a stack draws (no fixed goal)


def _stack_key(ss: dict, plaza: str) -> str:
    st = ss.get("stacks") or {}
    return "forge" if plaza == "glassworks" and "glassworks" not in st and "forge" in st else plaza


@own_handler("move_wagon", {"main"})
class MoveWagon:
    """WAG-003..026, WAG-033..035, WAG-039..043, WAG-050..054, WAG-058, WAG-060, WAG-068: one segment of the
    wagon's move: optionally 1 grain for +2 MP, then intersections one by one, then optionally a plaza or a
    jump. Judged step by step by ``costs.judge_segment``; the verdict names the first illegal step."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        p = a.player
        w = C.wagon(s, p)
        if not w or (w.get("node") is None and not w.get("plaza")):
            return [Violation("WAG-004", f"player {p} has no wagon on the board (it starts on the first settlement)",
                              "/action", "R-097")]
        bad = movement_over(s, p)
        if bad is not None:
            return [bad]
        path, plaza, jump = a.get("path") or [], a.get("plaza"), a.get("jump")
        grain = bool(a.get("grain"))
        if plaza is not None and jump is not None:
            return [Violation("WAG-014", "a segment ends on a plaza or with a jump, not both", "/action/jump")]
        if not path and plaza is None and jump is None and not grain:
            return [Violation("WAG-004", "a wagon move names a path, a plaza or a jump (or pays its grain)",
                              "/action/path")]
        if grain:
            t = C.turn_of(s)
            if t.get("grain"):
                return [Violation("WAG-012", "the grain for +2 MP is paid once a turn; it was paid already",
                                  "/action/grain", "R-099")]
            if s.players[p].resources.get("grain", 0) < 1:
                return [Violation("WAG-012", f"+2 MP cost 1 grain; player {p} has none", "/action/grain", "R-099")]
        seg = C.judge_segment(s, ctx.graph, p, path, plaza, jump, grain)
        if isinstance(seg, Violation):
            return [seg]
        draw = a.get("draw")
        if draw is not None:
            if seg.plaza is None:
                return [Violation("WAG-017", "a token is drawn only on entering a trade hex's plaza", "/action/draw")]
            _, draws = arrival(s, p, seg.plaza)
            if not draws:
                return [Violation("WAG-019", f"no token is drawn on entering the {seg.plaza}'s plaza now (one is "
                                  "held for elsewhere, or the stack is empty)", "/action/draw", "R-080")]
            stack = (s.scenario_state.get("stacks") or {}).get(_stack_key(s.scenario_state, seg.plaza)) or {}
            if stack.get(draw, 0) <= 0:
                return [Violation("WAG-021", f"the {seg.plaza}'s stack holds no {draw} token (it holds "
                                  f"{fmt_cards(stack)})", "/action/draw", "R-088")]
        bad = santa.redeem_violations(s, p, int(a.get("redeem") or 0), seg.plaza)
        if bad:
            return bad
        if C.in_listing(s):
            return []
        ctx.derived["wagon_move"] = {"mp": seg.mp, "gold": sum(x.gold for x in seg.payments),
                                     "steps": [{"from": list(x), "to": list(y), "mp": st.mp,
                                                "parts": [q.as_dict() for q in st.parts]} for x, y, st in seg.steps]}
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a, p = ctx.action, ctx.action.player
        grain = bool(a.get("grain"))
        seg = C.judge_segment(ctx.state, ctx.graph, p, a.get("path") or [], a.get("plaza"), a.get("jump"), grain)
        ss = _ss(s)
        t = _turn(ss, p)
        t["started"] = True
        if grain:                                                   # WAG-012 / R-099
            pay(s, p, {"grain": 1})
            t["grain"] = True
        t["mp_used"] = int(t.get("mp_used", 0)) + seg.mp
        t["paid_edges"] = list(t.get("paid_edges") or []) + [list(e) for e in seg.paid_edges]
        t["tribute"] = sorted(set(t.get("tribute") or []) | set(seg.tribute))
        for part in seg.payments:                                   # tolls and tribute (WAG-010/024/031/033/043)
            add_coins(s, p, -part.gold)
            if part.payee is None:
                ss["pirate_pool"] = int(ss.get("pirate_pool", 0)) + part.gold
            else:
                add_coins(s, part.payee, part.gold)
            ctx.emit("toll_paid", payer=p, payee=part.payee, gold=part.gold, reason=part.reason, rule=part.rule)
        w = ss["wagons"][str(p)]
        if seg.plaza is not None:
            w["node"], w["plaza"] = None, seg.plaza
            t["ended"], t["plaza"] = True, True                     # WAG-014
        else:
            w["node"], w["plaza"] = (None if seg.end is None else list(seg.end)), (None if seg.end is not None
                                                                                    else w.get("plaza"))
        if seg.jump is not None:
            t["ended"], t["jumped"] = True, True                    # WAG-022, WAG-023
        t["mp_used"] = min(t["mp_used"], C.allowance(s, p, t))
        ctx.emit("wagon_moved", player=p, path=[list(_node(n)) for n in a.get("path") or []], plaza=seg.plaza,
                 jump=None if seg.jump is None else list(seg.jump), mp=seg.mp, mp_left=C.mp_left(s, p, t),
                 grain=grain)
        if seg.plaza is not None:
            _arrive(ctx, s, ss, p, seg.plaza)
            santa.redeem(ctx, s, p, int(a.get("redeem") or 0))             # WAG-063, R-122


def _arrive(ctx: Ctx, s: State, ss: dict, p: int, plaza: str) -> None:
    """WAG-017..021, WAG-040, R-080, R-101: a delivery, then the draw, on entering ``plaza``."""
    delivered, draws = arrival(ctx.state, p, plaza)
    w = ss["wagons"][str(p)]
    if delivered is not None:
        got = w.setdefault("delivered", {})
        got[delivered] = got.get(delivered, 0) + 1                   # WAG-002: 1 VP
        gold = C.card(s, int(w.get("level", 1)))["gold"] * (2 if s.options.get("large_map_bonus") else 1)
        add_coins(s, p, gold)                                       # WAG-020, WAG-040
        w["token"] = None
        ctx.emit("token_delivered", player=p, kind=delivered, hex=plaza, gold=gold)
    held = (w.get("token") or {}).get("kind")
    if held is not None:
        return
    k = _stack_key(ss, plaza)
    stack = (ss.get("stacks") or {}).get(k) or {}
    if not draws or not sum(stack.values()):
        ctx.emit("stack_empty", hex=plaza)                          # WAG-021 / R-080: nothing drawn
        return
    kind = ctx.action.get("draw")
    if kind is None:
        rng = Rng(s.rng_seed, s.rng_counter)
        kind = rng.pick_weighted(stack, C.KINDS)
        s.rng_counter = rng.counter
    stack[kind] -= 1
    if not stack[kind]:
        del stack[kind]
    w["token"] = {"kind": kind, "from": plaza}                     # WAG-017 / WAG-019: one held, secret
    ctx.emit("token_drawn", player=p, hex=plaza, kind=kind)


# -- driving off a barbarian (WAG-027..030, WAG-061) ---------------------------------------------------------

def _land_target(s: State, h: Hex, frm: Hex) -> Optional[str]:
    """R-105: a driven-off barbarian goes to a land hex with fewer than 3 barbarians, not the one it leaves."""
    t = s.hexes.get(h)
    if t is None or t.terrain not in LAND:
        return f"{hex_str(h)} is not a land hex of the board"
    if h == frm:
        return "the barbarian must leave its hex"
    if int((s.scenario_state.get("barbarians") or {}).get(C.key(h), 0)) >= 3:
        return f"{hex_str(h)} is conquered already (3 barbarians)"
    return None


@own_handler("drive_off_barbarian", {"main"})
class DriveOff:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        p = a.player
        bad = movement_over(s, p)
        if bad is not None:
            return [bad]
        h = tuple(a.get("hex"))
        level = int(C.wagon(s, p).get("level", 1))
        faces = C.card(s, level)["faces"]
        if not faces:
            return [Violation("WAG-027", "a barbarian can be driven off only after at least one upgrade of the "
                              "baggage train (level 1 has no die numbers)", "/action", "R-113")]
        n = int((s.scenario_state.get("barbarians") or {}).get(C.key(h), 0))
        if n <= 0:
            return [Violation("WAG-028", f"there is no barbarian in {hex_str(h)}", "/action/hex")]
        at = C.wagon_node(s, p)
        if at is None or at not in hex_corners(h):
            return [Violation("WAG-028", f"the wagon pauses on an intersection next to the barbarian hex "
                              f"{hex_str(h)} to drive one off; it stands "
                              f"{'on a plaza' if at is None else 'on ' + node_str(at)}", "/action/hex")]
        if list(h) in (C.turn_of(s).get("attempts") or []):
            return [Violation("WAG-030", f"one attempt per barbarian hex per turn: {hex_str(h)} was tried already",
                              "/action/hex")]
        to = a.get("to")
        if to is None:
            return [Violation("WAG-028", "name the hex the barbarian goes to if the roll succeeds", "/action/to",
                              "R-113")]
        why = _land_target(s, tuple(to), h)
        if why:
            return [Violation("WAG-028", f"a driven-off barbarian goes to a land hex not already conquered: {why}",
                              "/action/to", "R-105")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a, p = ctx.action, ctx.action.player
        h, to = tuple(a.get("hex")), tuple(a.get("to"))
        die = _draw_die(ctx, s)
        ss = _ss(s)
        t = _turn(ss, p)
        t["started"] = True
        t["attempts"] = list(t.get("attempts") or []) + [list(h)]          # WAG-030
        faces = C.card(s, int(C.wagon(s, p).get("level", 1)))["faces"]
        ok = die in faces
        if ok:                                                             # WAG-028, WAG-061
            b = ss.setdefault("barbarians", {})
            b[C.key(h)] = int(b.get(C.key(h), 0)) - 1
            if not b[C.key(h)]:
                del b[C.key(h)]
            b[C.key(to)] = int(b.get(C.key(to), 0)) + 1
            t["waived"] = list(t.get("waived") or []) + [list(h)]
        # WAG-029: whatever the roll, the wagon keeps its MP and moves on (the turn is not ended), and nothing is
        # stolen (the action has no theft)
        ctx.emit("barbarian_attempt", player=p, hex=list(h), die=die, success=ok, to=list(to) if ok else None)


# -- chasing a warship (WAG-036..038, R-086, R-116) -----------------------------------------------------------

def vacant_sea(s: State, h: Hex) -> list[Hex]:
    ws = {tuple(x) for x in (s.scenario_state.get("warships") or {}).values() if x}
    return [m for m in hex_neighbours(h) if (t := s.hexes.get(m)) is not None and t.terrain == "sea"
            and m not in ws and m != s.pirate]


def may_roll_chase(s: State, graph, p: int, h: Hex) -> bool:
    """R-116: on a corner of the warship's hex, one walkable path from one, or on a building of a sea route
    with an intersection on a corner of it."""
    at = C.wagon_node(s, p)
    if at is None:
        return False
    corners = set(hex_corners(h))
    if at in corners:
        return True
    from ...geometry import edge_nodes, node_edges
    for e in node_edges(at):
        eid = graph.edge_index.get(e)
        if eid is not None and graph.road_edge(eid) and any(n in corners for n in edge_nodes(e)):
            return True
    for _, (_, _, nodes) in C.jump_targets(s, graph, at).items():
        if nodes & corners:
            return True
    return False


@own_handler("chase_warship", {"main"})
class ChaseWarship:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        p, o = a.player, a.get("owner")
        bad = movement_over(s, p)
        if bad is not None:
            return [bad]
        w = (s.scenario_state.get("warships") or {}).get(str(o))
        if o == p or not w:
            return [Violation("WAG-036", f"player {o} has no warship to chase (a chase is against an opponent's)",
                              "/action/owner", "R-086")]
        h = tuple(w)
        t = C.turn_of(s)
        if not C.card(s, int(C.wagon(s, p).get("level", 1)))["faces"]:
            return [Violation("WAG-036", "at level 1 the baggage-train card shows no die numbers: no chase can be "
                              "rolled, the tribute is owed on the step", "/action", "R-116")]
        if str(o) in (t.get("chases") or {}):
            return [Violation("WAG-036", f"player {o}'s warship was chased already this turn (one roll per warship "
                              "per turn)", "/action/owner", "R-086")]
        if o in (t.get("tribute") or ()):
            return [Violation("WAG-034", f"the tribute to player {o} is paid for this turn: nothing is left to gain "
                              "by a chase", "/action/owner", "R-116")]
        if not may_roll_chase(s, ctx.graph, p, h):
            return [Violation("WAG-036", f"the chase is rolled as the wagon is about to enter a corner of hex "
                              f"{hex_str(h)}: it stands on such a corner, one path from one, or on a sea route "
                              "touching one", "/action", "R-116")]
        to, free = a.get("to"), vacant_sea(s, h)
        if free and to is None:
            return [Violation("WAG-036", "name the vacant adjacent sea hex the warship goes to if the roll "
                              "succeeds", "/action/to", "R-113")]
        if to is not None and tuple(to) not in free:
            return [Violation("WAG-036", f"a chased warship goes to a vacant sea hex next to {hex_str(h)}; "
                              f"{hex_str(tuple(to))} is not one", "/action/to", "R-113")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a, p, o = ctx.action, ctx.action.player, ctx.action.get("owner")
        die = _draw_die(ctx, s)
        ss = _ss(s)
        t = _turn(ss, p)
        t["started"] = True
        ok = die in C.card(s, int(C.wagon(s, p).get("level", 1)))["faces"]
        t["chases"] = {**(t.get("chases") or {}), str(o): "won" if ok else "lost"}
        to = a.get("to")
        if ok and to is not None:
            ss["warships"][str(o)] = list(to)
        # WAG-037: the wagon moves on afterwards with its MP left (the grain still payable, R-099)
        ctx.emit("warship_chase", player=p, owner=o, die=die, success=ok, to=list(to) if ok and to else None)


# -- upgrades, toll policy, gold purchases --------------------------------------------------------------------

def upgrade_cost(state: State) -> dict:
    return dict(state.options.get("upgrade_cost") or C.UPGRADE_COST)


@own_handler("upgrade_baggage_train", {"main"})
class Upgrade:
    """WAG-006 / R-087 / R-120: level + 1 (at most 5) for the upgrade cost; several a turn."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, p = ctx.state, ctx.action.player
        w = C.wagon(s, p)
        if int(w.get("level", 1)) >= len(C.card_table(s)):
            return [Violation("WAG-006", f"the baggage train is at its top level ({len(C.card_table(s))})",
                              "/action", "R-087")]
        return cannot_pay(s, p, upgrade_cost(s), "an upgrade of the baggage train", "WAG-006")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        p = ctx.action.player
        pay(s, p, upgrade_cost(s))
        ss = _ss(s)
        w = ss.setdefault("wagons", {}).setdefault(str(p), {"node": None, "plaza": None, "level": 1, "token": None,
                                                           "delivered": {}})
        w["level"] = int(w.get("level", 1)) + 1
        ctx.emit("baggage_train_upgraded", player=p, level=w["level"])


@own_handler("set_toll_policy", {"main"})
class SetTollPolicy:
    """WAG-044 / R-082 / R-112: the owner charges (default) or waives one payer, on his own turn."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a = ctx.action
        q = a.get("payer")
        if q == a.player or q >= ctx.state.num_players:
            return [Violation("WAG-044", f"a toll policy is set toward an opponent; {q} is not one", "/action/payer",
                              "R-112")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        ss = _ss(s)
        w = ss.setdefault("toll_waivers", {})
        cur = set(w.get(str(a.player)) or ())
        if a.get("charge"):
            cur.discard(a.get("payer"))
        else:
            cur.add(a.get("payer"))
        if cur:
            w[str(a.player)] = sorted(cur)
        else:
            w.pop(str(a.player), None)
        ctx.emit("toll_policy", owner=a.player, payer=a.get("payer"), charge=bool(a.get("charge")))


@own_handler("gold_trade", {"main"}, not_your_turn="BASE-TRADE-9")
class BuyWithGold:
    """WAG-067 / R-098: the bank sells resource cards for 2 gold each, at most 2 a turn; it buys none."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        give, give_gold = split_coins(a.get("give"))
        get, get_gold = split_coins(a.get("get"))
        if give or get_gold or not get or not give_gold:
            return [Violation("WAG-067", "the bank sells resource cards for gold (2 gold each) and buys nothing",
                              "/action", "R-098")]
        n = sum(get.values())
        bought = int(C.turn_of(s).get("bought", 0))
        if bought + n > BUY_CAP:
            return [Violation("WAG-067", f"at most {BUY_CAP} resource cards a turn are bought with gold; "
                              f"{bought} bought already, {n} asked", "/action/get", "R-098")]
        return buy_violations(s, a.player, give_gold, get, BUY_RATE, "WAG-067", "R-098")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        _, give_gold = split_coins(a.get("give"))
        get, _ = split_coins(a.get("get"))
        take(s, a.player, get)
        add_coins(s, a.player, -give_gold)
        ss = _ss(s)
        t = _turn(ss, a.player)
        t["bought"] = int(t.get("bought", 0)) + sum(get.values())
        ctx.emit("traded", player=a.player, partner="bank", gave=joined_coins({}, give_gold),
                 got=joined_coins(get, 0))


__all__ = ["MoveWagon", "DriveOff", "ChaseWarship", "Upgrade", "SetTollPolicy", "BuyWithGold",
           "movement_phase_check", "MOVEMENT_PHASE", "OTHER_MOVABLES", "vacant_sea", "arrival"]
