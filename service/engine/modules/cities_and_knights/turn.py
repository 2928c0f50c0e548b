"""The Cities & Knights roll: the event die first (barbarian ship or a city gate), then the production
dice (production with commodities, or the 7), discarding with commodities and city walls, the robber
asleep until the first attack (CK-CHG-1, CK-DICE-*, CK-COM-*, CK-SEVEN-*, CK-BARB-*, CK-PROG-2/5).

Choices the roll asks of players are carried by the roll action, as observed at the table: which city
each losing player gives up (``pillage``), which deck each tied best defender draws from
(``defender_decks``) and which progress card a player over the limit outside their turn puts back
(``progress_discards``). When the outcome needs a choice the action does not carry, the roll is refused
naming the choices (the seeded dice are the same when it is posted again with them).
"""
from __future__ import annotations

from typing import Optional

from ...core import Ctx, IllegalAction, Violation
from ...legal.listing import per_listing
from ...mapgraph import RESOURCE_OF, RESOURCES
from ...rng import Rng
from ...state import State
from . import store
from .data import (COMMODITIES, COMMODITY_OF, DECKS, EVENT_FACES, HAND_LIMIT, PROGRESS_LIMIT, VP_CARDS, card_id)
from .store import ck


class NeedChoice(IllegalAction):
    """The roll's outcome asks a choice the action does not carry (or carries wrongly): the action's
    ``key`` (a map by player) wants, for ``player``, one of ``options``."""

    def __init__(self, violation: Violation, key: str, player: int, options: list) -> None:
        super().__init__(violation)
        self.key, self.player, self.options = key, player, options


# -- the roll ------------------------------------------------------------------------------------------

def roll_dice(ctx: Ctx, s: State) -> tuple[tuple[int, int], str]:
    """CK-DICE-2: the red and yellow dice and the event die, as observed or drawn by the seeded generator
    (red, yellow, then the event die)."""
    a = ctx.action
    dice, event = a.get("dice"), a.get("event")
    if dice is None or event is None:
        rng = Rng(s.rng_seed, s.rng_counter)
        if dice is None:
            dice = (rng.below(6) + 1, rng.below(6) + 1)
        if event is None:
            event = EVENT_FACES[rng.below(6)]                 # CK-DICE-3: 3 ship faces, 3 gates
        s.rng_counter = rng.counter
    return (int(dice[0]), int(dice[1])), event


def roll_outcome(ctx: Ctx) -> Optional[NeedChoice]:
    """The first choice the roll ``ctx.action`` asks and does not carry (:func:`resolve_roll` on a copy
    of the position), or None when it resolves. Kept for the legal-action list under way
    (``legal.listing.per_listing``: the list resolves each roll it proposes, then judges it)."""
    a = ctx.action
    return per_listing(("cities_and_knights.roll_outcome", a.player, repr(sorted(a.params.items()))),
                       lambda: _outcome(ctx), ctx.state, ctx.graph, ctx.scenario)


def _outcome(ctx: Ctx) -> Optional[NeedChoice]:
    try:
        resolve_roll(Ctx(ctx.state, ctx.action, ctx.graph, ctx.scenario), ctx.state.copy())
    except NeedChoice as e:
        return e
    return None


def resolve_roll(ctx: Ctx, s: State) -> None:
    """CK-DICE-4: the event die first (ship: the barbarians advance and may attack; gate: progress
    cards), then production or the 7."""
    a = ctx.action
    if a.get("alchemist"):
        spend_alchemist(ctx, s)
    dice, event = roll_dice(ctx, s)
    total = dice[0] + dice[1]
    s.last_roll = dice
    s.flags.rolled = True
    ctx.emit("rolled", player=s.current_player, dice=list(dice), total=total, event=event)
    c = ck(s)
    if event == "ship":                                      # CK-DICE-4 (a)
        c["barbarian"] += 1
        ctx.emit("barbarians_advance", position=c["barbarian"], steps=c["barbarian_steps"])
        if c["barbarian"] >= c["barbarian_steps"]:
            from .barbarians import attack
            attack(ctx, s)                                   # CK-BARB-1
    else:                                                    # CK-DICE-4 (b), CK-DICE-6: on a 7 too
        gate_draws(ctx, s, event, dice[0])
    # CK-DICE-4 (c): production or the 7 only now, after the event: a city pillaged on this roll produces
    # as a settlement (CK-BARB-11), and a first attack on a 7 wakes the robber for this 7 (CK-SEVEN-7).
    if total == 7:
        start_seven(ctx, s)
    else:
        produce(ctx, s, total)


def spend_alchemist(ctx: Ctx, s: State) -> None:
    p = ctx.action.player
    h = store.hand(s, p)
    h["alchemist"] -= 1
    if not h["alchemist"]:
        del h["alchemist"]
    ck(s)["decks"]["science"]["alchemist"] += 1              # CK-PROG-6: under its deck
    ck(s)["turn"]["alchemist"] = True
    ctx.emit("progress_played", player=p, card="alchemist")


def draw_progress(s: State, deck: str) -> Optional[str]:
    """One card of ``deck`` (seeded; CK-PROG-2: an empty deck gives nothing)."""
    d = ck(s)["decks"][deck]
    if sum(d.values()) <= 0:
        return None
    rng = Rng(s.rng_seed, s.rng_counter)
    card = rng.pick_weighted(d, tuple(DECKS[deck]))
    s.rng_counter = rng.counter
    d[card] -= 1
    return card


def receive_progress(ctx: Ctx, s: State, p: int, card: str, why: str) -> None:
    """A drawn card goes to the hand, or face up if it is a VP card (CK-PROG-4); a player over the limit
    outside their own turn puts one back at once (CK-PROG-5)."""
    if card in VP_CARDS:
        vp = ck(s)["vp_cards"].setdefault(str(p), {})
        vp[card] = vp.get(card, 0) + 1
        ctx.emit("progress_drawn", player=p, card=card, why=why, revealed=True)
        return
    h = store.hand(s, p)
    h[card] = h.get(card, 0) + 1
    ctx.emit("progress_drawn", player=p, card=card, why=why)
    if p != s.current_player and store.progress_count(s, p) > PROGRESS_LIMIT:
        choice = card_id((ctx.action.get("progress_discards") or {}).get(str(p)))     # CK-PROG-9
        held = sorted(c for c, n in h.items() if n)
        if choice is None or choice not in held:
            raise NeedChoice(Violation(
                "CK-PROG-5", f"player {p} now holds {PROGRESS_LIMIT + 1} progress cards outside their turn and puts "
                f"one back at once: give progress_discards {{\"{p}\": one of {held}}} (the card drawn was {card})",
                f"/action/progress_discards/{p}"), "progress_discards", p, held)
        h[choice] -= 1
        if not h[choice]:
            del h[choice]
        ck(s)["decks"][_deck_of(choice)][choice] += 1        # CK-PROG-6: under its deck
        ctx.emit("progress_discarded", player=p, card=choice)


def _deck_of(card: str) -> str:
    from .data import DECK_OF
    return DECK_OF[card]


def gate_draws(ctx: Ctx, s: State, track: str, red: int) -> None:
    """CK-PROG-2: every player at level L >= 1 in the gate's track with red <= L + 1 draws one card of
    that colour, in turn order from the active player."""
    n = s.num_players
    for k in range(n):
        p = (s.current_player + k) % n
        lvl = store.level(s, p, track)
        if lvl >= 1 and red <= lvl + 1:
            card = draw_progress(s, track)
            if card is None:
                ctx.emit("deck_empty", deck=track, player=p)
                return
            receive_progress(ctx, s, p, card, f"{track} gate, red {red}")


# -- production ----------------------------------------------------------------------------------------

def produce(ctx: Ctx, s: State, total: int) -> None:
    """CK-COM table: a settlement takes 1 resource; a city 2 of fields and hills, and 1 resource plus 1
    commodity of forest (paper), pasture (cloth) and mountains (coin) (CK-CHG-5, CK-COM-1); gold fields
    give picks, never commodities (CK-SEA-3); the robber's hex gives nothing (CK-COM-2). The bank pays
    each resource and each commodity by the shortage rule (BASE-PROD-4, CK-COMP-1). Then the Aqueduct
    (CK-IMP-5) and the gold-field picks."""
    g = ctx.graph
    side = store.sideways(s)
    owed: dict[str, dict[int, int]] = {}
    gold: dict[int, int] = {}
    idle = ctx.scenario.idle_hexes(s)                        # a module's hexes that produce nothing
    for h, tile in s.hexes.items():
        if tile.number != total or h == s.robber or h in idle:   # BASE-PROD-1, CK-COM-2
            continue
        res = RESOURCE_OF.get(tile.terrain)
        com = COMMODITY_OF.get(tile.terrain)
        for nid in g.hex_node_ids.get(h, ()):
            b = s.buildings.get(g.nodes[nid])
            if b is None:
                continue
            p, kind = b
            if kind == "city" and g.nodes[nid] in side:
                kind = "settlement"                          # CK-BARB-5: a city on its side
            if res is not None:
                if kind == "city" and com is not None:       # CK-COM-1: only cities take commodities
                    _owe(owed, res, p, 1)
                    _owe(owed, com, p, 1)
                else:
                    _owe(owed, res, p, 2 if kind == "city" else 1)
            else:
                picks = ctx.scenario.gold_entitlement(tile.terrain, kind)    # CK-SEA-3
                if picks:
                    gold[p] = gold.get(p, 0) + picks
    strict = bool(s.options.get("BASE-VAR-BANK-STRICT"))
    got: dict[int, dict[str, int]] = {}
    for card in RESOURCES + COMMODITIES:
        per = owed.get(card)
        if per is None:
            continue
        have = store.bank_has(s, card)
        need = sum(per.values())
        if need <= have:
            pays = per
        elif len(per) == 1 and not strict:
            (p, _), = per.items()
            pays = {p: have}                                 # BASE-PROD-4 (CK-COMP-1: per commodity too)
            ctx.emit("shortage", resource=card, owed={str(k): v for k, v in per.items()}, bank=have)
        else:
            pays = {}
            ctx.emit("shortage", resource=card, owed={str(k): v for k, v in per.items()}, bank=have)
        for p, k in pays.items():
            if k:
                store.give_card(s, p, card, k)
                got.setdefault(p, {})[card] = k
    for p in sorted(got):
        ctx.emit("production", player=p, resources=got[p])
    ctx.scenario.after_production(ctx, s, total)
    for p, k in ctx.scenario.roll_picks(s, g, total).items():    # a module's further picks (TDE5's prospectors)
        if k:
            gold[p] = gold.get(p, 0) + k
    # CK-IMP-5: an Aqueduct owner given nothing by this roll (not a 7) takes 1 resource of choice; a
    # commodity or a gold pick is something; the robber's block is nothing.
    for p in range(s.num_players):
        if store.level(s, p, "science") >= 3 and p not in got and p not in gold and sum(s.bank.values()) > 0:
            gold[p] = 1
            ctx.emit("aqueduct", player=p)
    if gold:
        s.pending_gold = gold
        s.phase = "gold_choice"
        ctx.emit("gold_owed", players={str(k): v for k, v in sorted(gold.items())})
    else:
        s.phase = "main"


def _owe(owed: dict, card: str, p: int, n: int) -> None:
    per = owed.setdefault(card, {})
    per[p] = per.get(p, 0) + n


# -- the 7 ---------------------------------------------------------------------------------------------

def hand_limit(s: State, p: int) -> int:
    """CK-SEVEN-2, CK-WALL-2: 7 plus 2 per own city wall on the board."""
    return HAND_LIMIT + 2 * store.walls_of(s, p)


def start_seven(ctx: Ctx, s: State) -> None:
    """CK-SEVEN-1: no production; CK-SEVEN-2, CK-CHG-6: everyone over their limit (raised by city walls)
    discards half of resources plus commodities, rounded down; then the robber, only once the first attack
    is resolved (CK-SEVEN-3, CK-CHG-6: it stays put until then)."""
    owe = {}
    for p in range(s.num_players):
        n = store.hand_size(s, p)
        if n > hand_limit(s, p):
            owe[p] = n // 2
    s.pending_discards = owe
    if owe:
        s.phase = "discard"
        ctx.emit("must_discard", players={str(k): v for k, v in owe.items()})
    else:
        after_discards(ctx, s)


def after_discards(ctx: Ctx, s: State) -> None:
    if store.robber_awake(s):
        s.phase = "robber"
    else:
        s.phase = "main"                                     # CK-SEVEN-3: the robber sleeps
        ctx.emit("robber_sleeps", until="the first barbarian attack")


__all__ = ["NeedChoice", "resolve_roll", "produce", "start_seven", "after_discards", "hand_limit", "draw_progress",
           "receive_progress", "gate_draws"]
