"""Moving the robber (or, with Seafarers, the pirate) and stealing one random card (BASE-ROBBER-3/4,
SEA-028..030, R-008)."""
from __future__ import annotations

from typing import Callable, Optional

from ..core import Ctx, Violation
from ..geometry import Hex
from ..mapgraph import RESOURCES, MapGraph
from ..rng import Rng
from ..state import State
from . import handler


def robbable(s: State, g: MapGraph, target: str, h: Hex, mover: int) -> list[int]:
    """Opponents who can be robbed at ``h``: a building on a corner of the robber's hex
    (BASE-ROBBER-4), or a ship on a side of the pirate's hex (SEA-030, R-008)."""
    found: set[int] = set()
    if target == "pirate":
        for eid in g.hex_edge_ids.get(h, ()):
            p = s.ships.get(g.edges[eid])
            if p is not None and p != mover:
                found.add(p)
    else:
        for nid in g.hex_node_ids.get(h, ()):
            b = s.buildings.get(g.nodes[nid])
            if b is not None and b[0] != mover:
                found.add(b[0])
    return sorted(found)


def victims(s: State, g: MapGraph, scen, target: str, h: Hex, mover: int) -> list[Optional[int]]:
    """The ``steal_from`` values a move of the ``target`` to ``h`` may name: one of the players it could rob
    (:func:`robbable`), and nobody (None) when none is there or, R-124, none of them holds anything the theft
    could take (the ``holds_loot`` hook); nobody first, as the plain generator gives them."""
    cands: list[Optional[int]] = list(robbable(s, g, target, h, mover))
    if not any(scen.holds_loot(s, c, target) for c in cands):
        cands.insert(0, None)
    return cands


def victim_violations(ctx: Ctx, target: str, h: Hex, mover: int, rule: str, where: str) -> list[Violation]:
    """Whom the move robs (BASE-ROBBER-4, SEA-030): one of the players with a ``where`` of ``h``; nobody only
    when there is none or none of them holds anything to take (R-124)."""
    s, victim = ctx.state, ctx.action.get("steal_from")
    candidates = robbable(s, ctx.graph, target, h, mover)
    if victim is None:
        if any(ctx.scenario.holds_loot(s, c, target) for c in candidates):
            return [Violation(rule, f"after moving the {target} the mover robs one of the players with a "
                              f"{where} of that hex: choose one of {candidates}", "/action/steal_from",
                              ruling="R-124")]
        return []
    if victim not in candidates:
        return [Violation(rule, f"only a player with a {where} of {h[0]},{h[1]} can be robbed; "
                          f"player {victim} has none (candidates: {candidates or 'nobody'})", "/action/steal_from")]
    return []


def target_violations(ctx: Ctx, rule: str) -> list[Violation]:
    """What a knight moves (``target``): where the scenario has a pirate it is the player's choice of the
    robber or the pirate (SEA-031; CK-SEA-9 for a chasing knight), so the action names it, as the legal list
    always does; without a pirate (or with no move at all, DIAM's R-050) nothing is to choose and, left out,
    it is the robber."""
    a = ctx.action
    if a.get("target") is None and ctx.scenario.pirate and a.get("hex") is not None:
        return [Violation(rule, "with the pirate in play the knight moves the robber or the pirate: give target "
                          "(robber or pirate)", "/action/target")]
    return []


def move_violations(ctx: Ctx, target: str, mover: int) -> list[Violation]:
    a, s, scen = ctx.action, ctx.state, ctx.scenario
    h = a.get("hex")
    if target == "pirate":
        if not scen.pirate:
            return [Violation("SEA-031" if a.type == "play_knight" else "SEA-028", "this scenario has no pirate",
                              "/action/target")]
        if not scen.pirate_hex_ok(s, h):
            return [Violation("SEA-029", f"the pirate stands only on sea hexes; {h[0]},{h[1]} is "
                              f"{_terrain(s, h)}", "/action/hex")]
        if h == s.pirate:   # moving it means to another hex, by a seven (SEA-028) or a Knight (SEA-031)
            rule = "SEA-031" if a.type == "play_knight" else "SEA-028"
            return [Violation(rule, f"the pirate must move to a different sea hex (R-008); it is already "
                              f"on {h[0]},{h[1]}", "/action/hex", ruling="R-008")]
    else:
        if not scen.robber_hex_ok(s, h):
            return [Violation("BASE-ROBBER-3", f"the robber moves to a land hex; {h[0]},{h[1]} is "
                              f"{_terrain(s, h)}", "/action/hex")]
        if h == s.robber:
            return [Violation("BASE-ROBBER-3", f"the robber must move to a different hex; it is already on "
                              f"{h[0]},{h[1]}", "/action/hex")]
    victim = a.get("steal_from")
    rule = "SEA-030" if target == "pirate" else "BASE-ROBBER-4"
    where = "ship on a side" if target == "pirate" else "building on a corner"
    v = victim_violations(ctx, target, h, mover, rule, where)
    if v or victim is None:
        return v
    card = a.get("card")
    if card is not None and s.players[victim].resources.get(card, 0) <= 0:
        return [Violation(rule, f"the stolen card is one the victim holds; player {victim} has no {card}",
                          "/action/card")]
    return []


def _terrain(s: State, h: Hex) -> str:
    t = s.hexes.get(h)
    return "not on this board" if t is None else f"a {t.terrain} hex"


def place_piece(ctx: Ctx, s: State, target: str, mover: int) -> Optional[int]:
    """Put the ``target`` on the action's hex and report it with the players it could rob; the victim
    named (None: nobody is robbed)."""
    a = ctx.action
    h = a.get("hex")
    if target == "pirate":
        s.pirate = h
    else:
        s.robber = h
    ctx.emit("moved", piece=target, hex=list(h), player=mover,
             steal_candidates=robbable(ctx.state, ctx.graph, target, h, mover))
    return a.get("steal_from")


def steal_card(ctx: Ctx, s: State, mover: int, victim: int, hand: dict[str, int], kinds: tuple[str, ...],
               take: Callable[[str], None]) -> None:
    """Rob one card of ``hand`` (the victim's cards that can be stolen, of ``kinds``): the observed
    ``card``, else one drawn at random by the seeded generator; ``take(card)`` moves it to the mover."""
    card = ctx.action.get("card")
    if card is None and sum(hand.values()) > 0:
        rng = Rng(s.rng_seed, s.rng_counter)
        card = rng.pick_weighted(hand, kinds)
        s.rng_counter = rng.counter
    if card is not None:
        take(card)
    ctx.emit("stole", player=mover, victim=victim, resource=card)


def do_move(ctx: Ctx, s: State, target: str, mover: int) -> None:
    """Move the ``target`` and rob one random resource card (BASE-ROBBER-4)."""
    victim = place_piece(ctx, s, target, mover)
    if victim is None:
        return
    hand, own = s.players[victim].resources, s.players[mover].resources

    def take(card: str) -> None:
        hand[card] -= 1
        own[card] += 1
    steal_card(ctx, s, mover, victim, hand, RESOURCES, take)


def robber_checks(ctx: Ctx, target: str, mover: int) -> list[Violation]:
    """Moving the ``target`` as the game's stack judges it: whether the mover may move it now (the
    ``robber_permission`` hook), where it goes and whom it robs (:func:`move_violations`), then what the
    stack adds to the theft (the ``steal_violations`` hook)."""
    scen = ctx.scenario
    return (scen.robber_permission(ctx, target) or move_violations(ctx, target, mover)
            or scen.steal_violations(ctx, target))


@handler("move_robber", {"robber"})
class MoveRobber:
    """BASE-ROBBER-3/4: on a 7 the roller moves the robber and robs (the ``move_and_steal`` hook)."""
    target = "robber"

    @classmethod
    def check(cls, ctx: Ctx) -> list[Violation]:
        return robber_checks(ctx, cls.target, ctx.action.player)

    @classmethod
    def apply(cls, ctx: Ctx, s: State) -> None:
        ctx.scenario.move_and_steal(ctx, s, cls.target, ctx.action.player)
        s.phase = "main"


@handler("move_pirate", {"robber"})
class MovePirate(MoveRobber):
    """SEA-028: on a 7 the roller may move the pirate instead of the robber."""
    target = "pirate"
