"""Knights in "Enchanted Land": sending one across (TDE6-012..015, R-075), moving and displacing on the
Enchanted Land (TDE6-016..018, R-076) and fighting dragons (TDE6-019..022, R-077); with their candidates
for the legal-action list."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ...actions import own_handler
from ...core import Action, Ctx, Violation
from ...geometry import Node, node_neighbours, node_str
from ...mapgraph import MapGraph
from ...rng import Rng
from ...state import State
from ..cities_and_knights import store
from ..cities_and_knights.actions import (DisplaceKnight as CkDisplace, MoveKnight as CkMove, main_wrong_phase,
                                          may_act, own_knight, reachable)
from . import land as L

STEPS = 3                                   # TDE6-016: up to three intersections per activation


def _ss(s: State) -> dict:
    s.scenario_state = ss = dict(s.scenario_state)
    return ss


# -- sending the knight across (TDE6-012..015, R-075) --------------------------------------------------

def landings(s: State, g: MapGraph, p: int, frm: Node) -> list[Node]:
    """R-075: Enchanted Land intersections touched by ``p``'s ships and reached from the knight's
    intersection along his continuous roads, buildings and ships (passing no opponent's piece)."""
    el = L.el_hexes(s)
    ship_nodes = set()
    for e, o in s.ships.items():
        if o == p and e in g.edge_index:
            for nid in g.edge_node_ids[g.edge_index[e]]:
                ship_nodes.add(g.nodes[nid])
    return sorted(n for n in reachable(s, g, p, frm, True) if n in ship_nodes and L.on_el(s, n, el))


def relocations(s: State, victim: dict, at: Node, mover_from: Optional[Node]) -> list[Node]:
    """TDE6-018, R-076: where the displacer may put a displaced knight: any free non-coastal Enchanted Land
    intersection (``at`` now holds the displacer; the intersection it came from is free again)."""
    knights = [k for k in store.knights(s) if k is not victim and (mover_from is None or
                                                                    k["node"] != list(mover_from))]
    return [n for n in L.el_nodes(s) if n != at and not L.coastal(s, n) and L.free(s, n, knights)]


def _relocation_violation(ctx: Ctx, victim: dict, at: Node, mover_from: Optional[Node]) -> list[Violation]:
    opts = relocations(ctx.state, victim, at, mover_from)
    r = ctx.action.get("retreat")
    if not opts:
        if r is not None:
            return [Violation("TDE6-018", "no free inland intersection of the Enchanted Land is left: the displaced "
                              "knight goes back to its owner's supply; leave retreat out", "/action/retreat", "R-076")]
        return []
    if r is None or tuple(r) not in opts:
        return [Violation("TDE6-018", f"the displacing player puts the displaced knight on any free inland "
                          f"intersection of the Enchanted Land: give retreat, one of {[list(x) for x in opts][:24]}",
                          "/action/retreat", "R-076")]
    return []


def transfer_targets(s: State, g: MapGraph, p: int, frm: Node) -> list[tuple[Node, Optional[Node]]]:
    """``(where the knight goes, the landing it comes by)`` for every landing (TDE6-014: beside an own
    settlement on the landing; TDE6-015: never onto an opponent's settlement or a knight it cannot displace)."""
    out = []
    mover = store.knight_at(s, frm)
    for n in landings(s, g, p, frm):
        b = s.buildings.get(n)
        if b is not None:
            if b[0] != p:
                continue                                          # TDE6-015
            for m in node_neighbours(n):                          # TDE6-014
                if L.on_el(s, m) and L.coastal(s, m) and L.free(s, m, store.knights(s)):
                    out.append((m, n))
            continue
        other = store.knight_at(s, n)
        if other is not None and (other["player"] == p or mover is None or other["level"] >= mover["level"]):
            continue                                              # TDE6-015
        out.append((n, n))
    return sorted(set(out), key=lambda x: (x[0], x[1] or x[0]))


@own_handler("transfer_knight", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase,
             changes_routes=True)
class TransferKnight:
    """TDE6-012..015, R-075: an active home-island knight goes to the Enchanted Land by the player's ship line."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s, g = ctx.action, ctx.state, ctx.graph
        k, v = own_knight(ctx, "from")
        if v:
            return v
        frm, to = tuple(a.get("from")), tuple(a.get("to"))
        if L.on_el(s, frm):
            return [Violation("TDE6-013", "this knight is on the Enchanted Land already; it never goes back",
                              "/action/from")]
        if a.player in L.sent(s):                                                      # TDE6-013
            return [Violation("TDE6-013", f"player {a.player} has sent a knight to the Enchanted Land already: "
                              "only one knight each", "/action/from")]
        v = may_act(k, a.player, "/action/from")
        if v:
            return [Violation("TDE6-012", "only an activated knight is sent to the Enchanted Land, and not in the "
                              "turn it was activated or after it acted: " + v[0].message, "/action/from")]
        lands = landings(s, g, a.player, frm)
        if not lands:
            return [Violation("TDE6-012", f"no ship line of player {a.player} reaches an intersection of the "
                              f"Enchanted Land joined to {node_str(frm)} by his roads and ships", "/action/to",
                              "R-075")]
        targets = dict(transfer_targets(s, g, a.player, frm))
        if to not in targets:
            if to in lands:
                b = s.buildings.get(to)
                if b is not None and b[0] == a.player:
                    return [Violation("TDE6-014", f"{node_str(to)} holds your settlement: the knight goes to a "
                                      "free coastal intersection beside it", "/action/to", "R-075")]
                return [Violation("TDE6-015", f"{node_str(to)} holds an opponent's settlement or a knight this "
                                  "knight cannot displace: continue the ship line to a free intersection",
                                  "/action/to", "R-075")]
            return [Violation("TDE6-012", f"{node_str(to)} is not where a ship line of player {a.player} lands "
                              f"(landings: {[list(x) for x in lands][:12]}), nor a free coastal intersection "
                              "beside his settlement on one", "/action/to", "R-075")]
        victim = store.knight_at(s, to)
        if victim is not None:                                                      # TDE6-015, TDE6-018
            return _relocation_violation(ctx, victim, to, None)
        if a.get("retreat") is not None:
            return [Violation("TDE6-018", "nothing is displaced here: leave retreat out", "/action/retreat")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        to = tuple(a.get("to"))
        k = store.knight_at(s, a.get("from"))
        if store.knight_at(s, to) is not None:
            _displace(ctx, s, to)
        k["node"] = list(to)
        k["active"] = False                                  # TDE6-012: deactivated after the move
        k["acted"] = True
        ss = _ss(s)
        ss["sent"] = sorted(set(L.sent(s)) | {a.player})     # TDE6-013
        ctx.emit("knight_sent", player=a.player, **{"from": list(a.get("from")), "to": list(to)})


def _displace(ctx: Ctx, s: State, at: Node) -> None:
    victim = store.knight_at(s, at)
    r = ctx.action.get("retreat")
    knights = store.ck(s)["knights"]
    if r is not None:
        victim["node"] = list(r)                             # TDE6-018: strength and status kept
        ctx.emit("knight_displaced", player=victim["player"], **{"from": list(at), "to": list(r)})
    else:
        knights.remove(victim)
        ctx.emit("knight_displaced", player=victim["player"], **{"from": list(at), "to": None})


# -- moving on the Enchanted Land (TDE6-016..018, R-076) -----------------------------------------------

def _el_move_violations(ctx: Ctx, displacing: bool) -> list[Violation]:
    a, s = ctx.action, ctx.state
    k, v = own_knight(ctx, "from")
    if v:
        return v
    v = may_act(k, a.player, "/action/from")
    if v:
        return v
    frm, to = tuple(a.get("from")), tuple(a.get("to"))
    if not L.on_el(s, to):
        return [Violation("TDE6-013", "a knight on the Enchanted Land never goes back: it moves between the "
                          "Enchanted Land's intersections only", "/action/to")]
    d = L.el_distances(s, frm, STEPS).get(to)
    if d is None or d == 0:
        return [Violation("TDE6-016", f"a knight on the Enchanted Land moves 1 to {STEPS} intersections; "
                          f"{node_str(to)} is {'where it stands' if d == 0 else 'further'}", "/action/to", "R-076")]
    if L.coastal(s, to) and L.dragon_at(s, to) is None:
        return [Violation("TDE6-017", f"a move on the Enchanted Land does not end on its coast ({node_str(to)}), "
                          "unless a dragon lies there", "/action/to", "R-076")]
    if to in s.buildings:
        return [Violation("TDE6-016", f"{node_str(to)} holds a settlement", "/action/to", "R-076")]
    other = store.knight_at(s, to)
    if not displacing:
        if other is not None:
            return [Violation("TDE6-018", f"{node_str(to)} holds a knight: a stronger knight displaces a weaker "
                              "one with displace_knight", "/action/to", "R-076")]
        return []
    if other is None or other["player"] == a.player:
        return [Violation("TDE6-018", f"{node_str(to)} holds no opponent's knight", "/action/to", "R-076")]
    if other["level"] >= k["level"]:
        return [Violation("TDE6-018", f"only a stronger knight displaces another; the {L.LEVEL_WORDS[k['level']]} "
                          f"knight cannot displace a {L.LEVEL_WORDS[other['level']]} one", "/action/to", "R-076")]
    return _relocation_violation(ctx, other, to, frm)


def _knight_move_violations(ctx: Ctx, displacing: bool, home_handler: Any) -> list[Violation]:
    """A knight moving (or displacing) on the Enchanted Land follows TDE6-016..018; one at home follows the
    Cities & Knights handler; none walks across (TDE6-012)."""
    s, a = ctx.state, ctx.action
    if L.on_el(s, a.get("from")):
        return _el_move_violations(ctx, displacing)
    if L.on_el(s, a.get("to")):
        return [Violation("TDE6-012", "a knight reaches the Enchanted Land only when sent by the player's ship "
                          "line (transfer_knight)", "/action/to", "R-075")]
    return home_handler.check(ctx)


@own_handler("move_knight", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase, changes_routes=True)
class MoveKnight:
    """CK-KNIGHT-6 on the home island; TDE6-016/017 on the Enchanted Land; TDE6-012: never across."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return _knight_move_violations(ctx, False, CkMove.HANDLER)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        if not L.on_el(ctx.state, ctx.action.get("from")):
            return CkMove.HANDLER.apply(ctx, s)
        a = ctx.action
        k = store.knight_at(s, a.get("from"))
        k["node"] = list(a.get("to"))
        k["active"] = False                                  # TDE6-016: deactivated afterwards
        k["acted"] = True
        ctx.emit("knight_moved", player=a.player, **{"from": list(a.get("from")), "to": list(a.get("to"))})


@own_handler("displace_knight", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase,
             changes_routes=True)
class DisplaceKnight:
    """CK-KNIGHT-7 on the home island; TDE6-018 on the Enchanted Land (the displacer places the victim)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return _knight_move_violations(ctx, True, CkDisplace.HANDLER)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        if not L.on_el(ctx.state, ctx.action.get("from")):
            return CkDisplace.HANDLER.apply(ctx, s)
        a = ctx.action
        to = tuple(a.get("to"))
        k = store.knight_at(s, a.get("from"))
        _displace(ctx, s, to)
        k["node"] = list(to)
        k["active"] = False
        k["acted"] = True
        ctx.emit("knight_moved", player=a.player, **{"from": list(a.get("from")), "to": list(to)})


# -- fighting a dragon (TDE6-019..022, R-077) ----------------------------------------------------------

@own_handler("fight_dragon", {"main"}, not_your_turn="CK-KNIGHT-5", wrong_phase=main_wrong_phase)
class FightDragon:
    """R-077: an active knight on a dragon, activated in an earlier turn, fights it: strength >= flags wins."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        k, v = own_knight(ctx, "node")
        if v:
            return v
        d = L.dragon_at(s, a.get("node"))
        if d is None:
            return [Violation("TDE6-019", f"no dragon lies on {node_str(a.get('node'))}: the knight moves onto a "
                              "dragon's intersection first", "/action/node", "R-077")]
        if k.get("acted"):
            return [Violation("CK-KNIGHT-5", "each knight performs at most one action per turn; this one has acted",
                              "/action/node")]
        if not k["active"]:
            return [Violation("TDE6-019", "only an active knight fights: activate it, then fight in a later turn",
                              "/action/node", "R-077")]
        if k.get("activated"):
            return [Violation("TDE6-019", "a knight fights in a turn after the one it was activated in",
                              "/action/node", "R-077")]
        f = a.get("flags")
        if f is not None:
            if d.get("flags") is not None and d["flags"] != f:
                return [Violation("TDE6-020", f"this dragon was seen before: it shows {d['flags']} flag(s)",
                                  "/action/flags", "R-077")]
            if d.get("flags") is None and L.pool(s)[str(f)] <= 0:
                return [Violation("TDE6-020", f"no dragon token with {f} flag(s) is left face down",
                                  "/action/flags", "R-077")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        node = list(a.get("node"))
        ss = _ss(s)
        ds = [dict(d) for d in ss.get("dragons") or ()]
        d = next(x for x in ds if list(x["node"]) == node)
        flags = d.get("flags")
        pool = L.pool(s)
        if flags is None:
            flags = a.get("flags")
            if flags is None:                                # the seeded generator turns the token over
                rng = Rng(s.rng_seed, s.rng_counter)
                flags = int(rng.pick_weighted(pool, L.FLAG_KEYS))
                s.rng_counter = rng.counter
            pool[str(flags)] -= 1
            ss["dragon_pool"] = pool
        k = store.knight_at(s, node)
        won = k["level"] >= flags                            # TDE6-020
        k["active"] = False                                  # deactivated either way
        k["acted"] = True
        if won:                                              # TDE6-021: the token to the player, 1 VP
            ds.remove(d)
            dd = {p: list(v) for p, v in (ss.get("defeated") or {}).items()}
            dd.setdefault(str(a.player), []).append(flags)
            ss["defeated"] = dd
        else:                                                # TDE6-022: face down again, it stays
            d["flags"] = flags
        ss["dragons"] = ds
        ctx.emit("dragon_fought", player=a.player, node=node, flags=flags, level=k["level"], won=won)


# -- candidates ----------------------------------------------------------------------------------------

def knight_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """Sending, moving and displacing on the Enchanted Land, fighting: a superset of the legal ones."""
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    el = L.el_hexes(state)
    for k in list(store.knights(state)):
        if k["player"] != p or not k["active"] or k.get("activated") or k.get("acted"):
            continue
        n = tuple(k["node"])
        if not L.on_el(state, n, el):
            if p in L.sent(state):
                continue
            for to, _landing in transfer_targets(state, graph, p, n):
                victim = store.knight_at(state, to)
                opts = relocations(state, victim, to, None) if victim is not None else []
                for r in (opts or [None]):
                    yield Action("transfer_knight", p, {"from": n, "to": to, "retreat": r})
            continue
        if L.dragon_at(state, n) is not None:
            yield Action("fight_dragon", p, {"node": n, "flags": None})
        for to, dist in sorted(L.el_distances(state, n, STEPS).items()):
            if not dist or to in state.buildings or (L.coastal(state, to) and L.dragon_at(state, to) is None):
                continue
            other = store.knight_at(state, to)
            if other is None:
                yield Action("move_knight", p, {"from": n, "to": to})
            elif other["player"] != p and other["level"] < k["level"]:
                for r in (relocations(state, other, to, n) or [None]):
                    yield Action("displace_knight", p, {"from": n, "to": to, "retreat": r})


__all__ = ["TransferKnight", "MoveKnight", "DisplaceKnight", "FightDragon", "knight_candidates", "landings",
           "transfer_targets", "relocations", "STEPS"]
