"""The actions "The Desert Dragons" changes: the roller's card on a 7 (TDE4-008, R-069) and the knight
that removes a dragon (TDE4-021, TDE4-022, R-067: the engine's Knight through the scenario's
``knight_violations`` and ``knight_effect`` hooks)."""
from __future__ import annotations

from typing import Iterable

from ...actions import declared_own, load_all, own_handler
from ...core import Action, Ctx, Violation
from ...geometry import hex_str
from ...mapgraph import RESOURCES
from ...rng import Rng
from ...state import State
from .dragons import desert_counts, landscape_dragons, order


def _steal_wrong_phase(ctx: Ctx) -> Violation:
    return Violation("TDE4-008", f"the roller takes a card only right after a 7 and its discards; the game is in "
                     f"the {ctx.state.phase!r} phase")


@own_handler("steal_card", {"robber"}, wrong_phase=_steal_wrong_phase)
class StealCard:
    """TDE4-008 / R-069: once the discards of a 7 are made, the roller may take one random card from the
    hand of any one other player of his choice (one with 7 cards or fewer too); ``steal_from`` null
    takes none (the text says he *may*)."""

    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        victim = a.get("steal_from")
        card = a.get("card")
        if victim is None:
            if card is not None:
                return [Violation("TDE4-008", "a card is named but no player to take it from", "/action/card")]
            return []
        if victim == a.player:
            return [Violation("TDE4-008", "the roller of the 7 takes a card from another player's hand, not his own",
                              "/action/steal_from")]
        if victim >= s.num_players:
            return [Violation("TDE4-008", f"player {victim} does not play in this game", "/action/steal_from")]
        if card is not None and s.players[victim].resources.get(card, 0) <= 0:
            return [Violation("TDE4-008", f"the card taken is one the player holds; player {victim} has no {card}",
                              "/action/card")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        victim = a.get("steal_from")
        card = a.get("card")
        if victim is not None:
            hand = s.players[victim].resources
            if card is None and sum(hand.values()) > 0:
                rng = Rng(s.rng_seed, s.rng_counter)
                card = rng.pick_weighted(hand, RESOURCES)          # one random card
                s.rng_counter = rng.counter
            if card is not None:
                s.players[victim].resources = hand = dict(hand)
                hand[card] -= 1
                mine = s.players[a.player].resources = dict(s.players[a.player].resources)
                mine[card] += 1
        ctx.emit("card_taken", player=a.player, victim=victim, resource=card)
        s.phase = "main"


def steal_candidates(state: State, graph, scenario, player: int) -> Iterable[Action]:
    if state.phase != "robber" or player != state.current_player:
        return []
    out = [Action("steal_card", player, {"steal_from": None, "card": None})]
    out += [Action("steal_card", player, {"steal_from": v, "card": None})
            for v in range(state.num_players) if v != player]
    return out


def knight_violations(ctx: Ctx) -> list[Violation]:
    """TDE4-021 / R-067 (the ``knight_violations`` hook): a knight removes the dragon of a landscape hex of
    the player's choice from the game; TDE4-022: no card is stolen (and no Largest Army: the scenario's
    ``army_award``); TDE4-007: there is no robber or pirate to move."""
    a, s = ctx.action, ctx.state
    if (a.get("target") or "robber") == "pirate":
        return [Violation("TDE4-007", "there is no pirate in this scenario: a knight removes a dragon",
                          "/action/target")]
    if a.get("steal_from") is not None or a.get("card") is not None:
        return [Violation("TDE4-022", "a knight played here steals no card from anybody",
                          "/action/steal_from" if a.get("steal_from") is not None else "/action/card")]
    h = a.get("hex")
    if h in landscape_dragons(s):
        return []
    if h in desert_counts(s):
        return [Violation("TDE4-021", f"a knight removes a dragon from a landscape hex, not from the desert "
                          f"{hex_str(h)} (R-067)", "/action/hex")]
    where = "not a hex of this board" if h not in s.hexes else f"a {s.hexes[h].terrain} hex with no dragon"
    return [Violation("TDE4-021", f"a knight removes a dragon from a landscape hex holding one; "
                      f"{hex_str(h)} is {where}", "/action/hex")]


def remove_dragon(ctx: Ctx, s: State) -> None:
    """TDE4-021: the played knight's dragon leaves the game (the ``knight_effect`` hook)."""
    a = ctx.action
    h = tuple(a.get("hex"))
    ss = s.scenario_state = dict(s.scenario_state)
    left = sorted(landscape_dragons(s) - {h}, key=order)
    ss["dragons"] = [list(x) for x in left]
    ss["removed"] = int(ss.get("removed") or 0) + 1                # TDE4-021: out of the game
    if ss.get("gathered") is None:
        ss["gathered"] = sum(desert_counts(s).values()) + len(left) + ss["removed"]
    ctx.emit("dragon_removed", player=a.player, hex=list(h))


#: The engine's Knight, judged and carried out through the two hooks above; it changes routes (a dragon
#: leaving a hex frees the roads it blocked).
DRAGON_KNIGHT = declared_own(load_all()["play_knight"], changes_routes=True)


def knight_candidates(state: State, graph, scenario, player: int) -> Iterable[Action]:
    if state.phase not in ("roll", "main") or player != state.current_player:
        return []
    return [Action("play_knight", player, {"hex": h, "steal_from": None, "card": None, "target": "robber"})
            for h in sorted(landscape_dragons(state), key=order)]


def invading_roll():
    """The engine's roll, judged and applied as it is, but changing routes: an invasion may block roads
    and so shorten trade routes (TDE4-018), and the Longest Road card follows (BASE-LR-5)."""
    from dataclasses import replace
    from ...actions import load_all
    return replace(load_all()["roll"], changes_routes=True)


__all__ = ["StealCard", "DRAGON_KNIGHT", "knight_violations", "remove_dragon", "steal_candidates", "knight_candidates", "invading_roll"]
