"""The turn: the production roll and its resolution, discarding on a 7, ending the turn (BASE-TURN-1..6,
BASE-PROD-1..5, BASE-ROBBER-1/2)."""
from __future__ import annotations

from typing import Callable

from ..core import Ctx, Violation, fmt_cards
from ..mapgraph import RESOURCE_OF, RESOURCES
from ..rng import Rng
from ..state import State
from . import handler


@handler("roll", {"roll"})
class Roll:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return []  # dice (if given) are validated by the schema: two values 1..6

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        dice = ctx.action.get("dice")
        if dice is None:
            rng = Rng(s.rng_seed, s.rng_counter)
            dice = (rng.below(6) + 1, rng.below(6) + 1)     # BASE-COMP-7
            s.rng_counter = rng.counter
        dice = (int(dice[0]), int(dice[1]))
        total = dice[0] + dice[1]
        s.last_roll = dice
        s.flags.rolled = True
        ctx.emit("rolled", player=s.current_player, dice=list(dice), total=total)
        if total == 7:                  # BASE-ROBBER-1: on a 7 no hex produces
            start_seven(ctx, s)
            return
        produce(ctx, s, total)


def start_seven(ctx: Ctx, s: State) -> None:
    """BASE-ROBBER-1: no production; BASE-ROBBER-2: everyone over 7 cards (or the scenario's
    ``discard_limit``) discards half, rounded down."""
    limit = ctx.scenario.discard_limit
    s.pending_discards = {i: p.hand_size // 2 for i, p in enumerate(s.players) if p.hand_size > limit(s, i)}
    if s.pending_discards:
        s.phase = "discard"
        ctx.emit("must_discard", players={str(k): v for k, v in s.pending_discards.items()})
    else:
        s.phase = "robber"


def produce(ctx: Ctx, s: State, total: int) -> None:
    """BASE-PROD-1..5 with the bank-shortage rule (BASE-PROD-4), then gold-field picks (R-014).

    BASE-PROD-5: production is paid at once to every entitled player, the roller or not; the roll has no
    parameter to decline it, and nobody can refuse the cards."""
    g = ctx.graph
    gnodes, hex_node_ids, buildings, robber = g.nodes, g.hex_node_ids, s.buildings, s.robber
    owed: dict[str, dict[int, int]] = {}                  # resource -> player -> cards
    gold: dict[int, int] = {}
    idle = ctx.scenario.idle_hexes(s)                      # a module's pieces that stop production
    for h, tile in s.hexes.items():
        if tile.number != total or h == robber or h in idle:   # BASE-PROD-1, BASE-ROBBER-5
            continue
        res = RESOURCE_OF.get(tile.terrain)                # BASE-PROD-3: desert and sea never produce
        for nid in hex_node_ids.get(h, ()):
            b = buildings.get(gnodes[nid])
            if b is None:
                continue
            n = 2 if b[1] == "city" else 1                 # BASE-PROD-2
            if res is not None:
                per = owed.get(res)
                if per is None:
                    owed[res] = {b[0]: n}
                else:
                    per[b[0]] = per.get(b[0], 0) + n
            else:
                picks = ctx.scenario.gold_entitlement(tile.terrain, b[1])
                if picks:
                    gold[b[0]] = gold.get(b[0], 0) + picks
    strict = bool(s.options.get("BASE-VAR-BANK-STRICT"))
    got: dict[int, dict[str, int]] = {}
    for res in RESOURCES:                                 # the bank pays resource by resource
        per = owed.get(res)
        if per is None:
            continue
        need = sum(per.values())
        have = s.bank.get(res, 0)
        if need <= have:
            pays = per
        elif len(per) == 1 and not strict:
            (p, _), = per.items()
            pays = {p: have}                              # BASE-PROD-4: a single player takes what is left
            ctx.emit("shortage", resource=res, owed={str(k): v for k, v in per.items()}, bank=have)
        else:
            # BASE-PROD-4: several owed, nobody gets any; BASE-VAR-BANK-STRICT (4th edition, BASE-ED-3):
            # nobody gets any even when only one player is owed.
            pays = {}
            ctx.emit("shortage", resource=res, owed={str(k): v for k, v in per.items()}, bank=have)
        for p, n in pays.items():
            if n:
                s.bank[res] -= n
                s.players[p].resources[res] += n
                got.setdefault(p, {})[res] = n
    for p in sorted(got):
        ctx.emit("production", player=p, resources=got[p])
    ctx.scenario.after_production(ctx, s, total)
    if gold:
        s.pending_gold = gold
        s.phase = "gold_choice"
        ctx.emit("gold_owed", players={str(k): v for k, v in sorted(gold.items())})
    else:
        s.phase = "main"


def discard_violations(ctx: Ctx, rule: str, cards: dict[str, int], hand: Callable[[], dict[str, int]],
                       owes_none: str, half_of: str) -> list[Violation]:
    """A discard on a 7: by a player who owes one (``owes_none`` says why the player owes none), of exactly
    the count owed (half of ``half_of``, rounded down), and only of ``cards`` the player holds (``hand()``)."""
    p = ctx.action.player
    owed = ctx.state.pending_discards.get(p)
    if owed is None:
        return [Violation(rule, owes_none, "/action/player")]
    n = sum(cards.values())
    if n != owed:
        return [Violation(rule, f"player {p} must discard exactly {owed} cards (half of {half_of}, rounded down), "
                          f"not {n}", "/action/resources")]
    held = hand()
    short = {r: k - held.get(r, 0) for r, k in cards.items() if k > held.get(r, 0)}
    if short:
        return [Violation(rule, f"player {p} cannot discard cards they do not hold: short of {fmt_cards(short)}",
                          "/action/resources")]
    return []


@handler("discard", {"discard"}, actor="discard")
class Discard:
    """BASE-ROBBER-2: on a 7 a player holding more than 7 cards discards half of them."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        p = ctx.action.player
        return discard_violations(ctx, "BASE-ROBBER-2", ctx.action.get("resources"),
                                  lambda: ctx.state.players[p].resources,
                                  f"only players holding more than 7 cards discard; player {p} owes no discard",
                                  "their hand")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        cards = a.get("resources")
        hand = s.players[a.player].resources
        for r, k in cards.items():
            hand[r] -= k
            s.bank[r] += k
        del s.pending_discards[a.player]
        ctx.emit("discarded", player=a.player, resources={r: k for r, k in cards.items() if k})
        if not s.pending_discards:
            s.phase = "robber"


def end_turn_wrong_phase(ctx: Ctx):
    return Violation("BASE-TURN-5", f"a turn ends only after the roll is resolved; the game is in the "
                     f"{ctx.state.phase!r} phase")


@handler("end_turn", {"main"}, wrong_phase=end_turn_wrong_phase)
class EndTurn:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        ctx.scenario.on_turn_end(ctx, s)
        p = s.players[s.current_player]
        # BASE-DEV-4: bought cards become playable next turn. BASE-DEV-10: playing is never forced, so
        # unplayed cards simply stay in the hand (nothing is checked or discarded here).
        # (new dicts: copies of a state share a player's card counts, see Player.copy)
        held = dict(p.dev_cards)
        for c, n in p.dev_cards_new.items():
            held[c] = held.get(c, 0) + n
        p.dev_cards, p.dev_cards_new = held, dict.fromkeys(p.dev_cards_new, 0)
        # BASE-TURN-1 / BASE-SETUP-1: play passes clockwise, i.e. to the next seat.
        s.current_player = (s.current_player + 1) % s.num_players
        s.turn += 1
        s.flags = type(s.flags)()
        s.last_roll = None
        s.phase = "roll"
        ctx.emit("turn_started", player=s.current_player, turn=s.turn)
