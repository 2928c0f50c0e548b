"""The Treasure Islands (TDE1) and Departure into the Unknown (TDE2) with Cities & Knights: each
scenario text's section "Combining with Cities & Knights" (seed 003).

Stacked by the Cities & Knights module above its own rules (``cities_and_knights_rules()`` of the
scenario), so the C&K rules apply and these replace what the section changes:

- the VP target: TDE1-016 17 (3 players) / 16 (4 players); TDE2-023 14 (not C&K's "+2", CK-SEA-1 lets a
  scenario's own combined target win);
- TDE2-022: the second starting building is a city (C&K's set-up city, CK-SETUP-1, in the second round
  of Departure's three; it pays nothing, the third settlement does, R-061);
- TDE1-017 / TDE2-024: a development-card treasure gives the top progress card of any one of the three
  stacks, the finder's choice, posted as ``deck`` on ``claim_reward`` (the card is the seeded draw from
  that stack, as every progress-card draw; an empty stack is not chosen while another holds cards).
"""
from __future__ import annotations

from typing import Optional

from ...core import Action, Ctx, Violation
from ...module import ActionSpec
from ...spec import F, Str
from ...state import State
from ..cities_and_knights import store as ck_store
from ..cities_and_knights.data import TRACKS
from ..cities_and_knights.turn import draw_progress, receive_progress
from .treasures import claim_candidates, pending


def _decks_with_cards(s: State) -> list[str]:
    decks = ck_store.ck(s)["decks"]
    return [d for d in TRACKS if sum(decks[d].values()) > 0]


def _progress_claim(s: State, a: Action) -> bool:
    """Whether ``a`` claims a development-card treasure (used, not kept)."""
    queue = pending(s)
    return (a.type == "claim_reward" and bool(queue) and queue[0]["kind"] == "development_card"
            and not a.get("keep"))


def _claims(state: State, graph, scen, player: int) -> list[Action]:
    """The treasure claims, a development-card one once per stack that holds cards."""
    out = []
    for a in claim_candidates(state, graph, scen, player):
        if _progress_claim(state, a):
            decks = _decks_with_cards(state)
            out.extend(Action("claim_reward", player, {**a.params, "deck": d}) for d in decks)
            if not decks:
                out.append(a)
        else:
            out.append(a)
    return out


class TreasuresCitiesAndKnights:
    """What TDE1 and TDE2 share with Cities & Knights: the progress card of a development-card treasure."""

    module_name = "TDE treasures with cities_and_knights"
    #: The rule of the progress-card treasure (TDE1-017 / TDE2-024).
    progress_rule = ""
    ACTIONS = (ActionSpec("claim_reward", {"deck": F(Str(TRACKS), nullable=True,
                                                     doc="TDE1-017 / TDE2-024 (with Cities & Knights): the "
                                                         "stack a development-card treasure's progress card "
                                                         "comes from")},
                          candidates=_claims),)

    def check(self, ctx: Ctx) -> list[Violation]:
        out = super().check(ctx)
        if out:
            return out
        a, s = ctx.action, ctx.state
        if a.type != "claim_reward":
            return []
        deck = a.get("deck")
        if not _progress_claim(s, a):
            if deck is not None:
                return [Violation(self.progress_rule, "only a development-card treasure, used, gives a progress "
                                  "card: leave deck out", "/action/deck")]
            return []
        decks = _decks_with_cards(s)
        if deck is None and decks:
            return [Violation(self.progress_rule, "a development-card treasure gives the top progress card of "
                              f"one stack, the finder's choice: give deck (one of {', '.join(decks)})",
                              "/action/deck")]
        if deck is not None and deck not in decks:
            return [Violation(self.progress_rule, f"the {deck} stack is empty; choose one that holds cards "
                              f"({', '.join(decks) or 'none does: leave deck out'})", "/action/deck")]
        return []

    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        a = ctx.action
        if _progress_claim(ctx.state, a) and a.get("deck"):
            card = draw_progress(s, a.get("deck"))
            if card is not None:
                receive_progress(ctx, s, a.player, card, f"treasure ({self.progress_rule})")


class TreasureIslandsCitiesAndKnights(TreasuresCitiesAndKnights):
    module_name = "TDE1 with cities_and_knights"
    progress_rule = "TDE1-017"

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        state.vp_target = 17 if num_players == 3 else 16          # TDE1-016
        return state


class DepartureCitiesAndKnights(TreasuresCitiesAndKnights):
    module_name = "TDE2 with cities_and_knights"
    progress_rule = "TDE2-024"
    setup_city_round = 2                                          # TDE2-022: the second building a city

    def ck_vp_target(self) -> int:
        return 14                                                 # TDE2-023


__all__ = ["TreasuresCitiesAndKnights", "TreasureIslandsCitiesAndKnights", "DepartureCitiesAndKnights"]
