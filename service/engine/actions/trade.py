"""Trade: maritime with the bank at 4:1, 3:1 or 2:1 by harbour (BASE-TRADE-6..10), and domestic
between the active player and one other (BASE-TRADE-1..5)."""
from __future__ import annotations

from typing import Optional

from ..bank import shortfall, transfer
from ..core import Ctx, Violation, fmt_cards
from ..mapgraph import RESOURCES
from ..memo import per_position
from ..state import State
from . import WRONG_PHASE_RULE, handler

_RESOURCE_SET = frozenset(RESOURCES)


def split_currencies(cards: dict[str, int], currencies: tuple[str, ...] = ()) -> tuple[dict[str, int], dict[str, int]]:
    """The cards named (zero counts dropped) and, apart, the amounts of the game's currencies (player
    values a module declares tradeable, ``CURRENCIES``) that are named."""
    if not currencies:
        return {r: n for r, n in cards.items() if n}, {}
    return ({r: n for r, n in cards.items() if n and r not in currencies},
            {c: int(cards[c]) for c in currencies if cards.get(c)})


def joined(cards: dict[str, int], amounts: dict[str, int]) -> dict[str, int]:
    """The inverse of :func:`split_currencies`, for the events."""
    return {**cards, **amounts} if amounts else cards


def trade_wrong_phase(ctx: Ctx) -> Optional[Violation]:
    """BASE-TRADE-1: trade happens in the active player's turn once the roll is resolved (so not before
    the roll, BASE-TURN-2, nor while discards or the robber are pending); none in set-up (BASE-SETUP-7)."""
    phase = ctx.state.phase
    if phase in ("roll", "discard", "robber", "gold_choice"):
        return Violation("BASE-TRADE-1", f"trading is possible only after the production roll has been made and "
                         f"resolved; the game is in the {phase!r} phase")
    rule, why = WRONG_PHASE_RULE[phase]
    return Violation(rule, why)


def strict_phases_closed(state: State) -> bool:
    """BASE-TURN-3: by default trade and build interleave freely. BASE-TURN-4 / BASE-VAR-STRICT-PHASES
    (rulebook order, an option): once the active player has built or bought, no more trade this turn.
    Variants and edition differences (BASE-VAR, BASE-ED) are off unless the state's options name them."""
    return bool(state.options.get("BASE-VAR-STRICT-PHASES") and state.flags.built)


def strict_phases_violation(ctx: Ctx) -> list[Violation]:
    """The violation of :func:`strict_phases_closed`, if any."""
    if strict_phases_closed(ctx.state):
        return [Violation("BASE-VAR-STRICT-PHASES", "this game plays trade and build as two phases in fixed "
                          "order (BASE-TURN-4): after building or buying, no more trading this turn")]
    return []


def may_trade(state: State, player: int, partner: int) -> bool:
    """BASE-TRADE-2: a domestic trade is between the active player and one other; non-active players never
    trade with each other (``player`` and ``partner`` are two players of the game)."""
    return state.current_player == player or state.current_player == partner


def trade_partners(state: State, player: int) -> list[int]:
    """The players ``player`` may trade with (:func:`may_trade`), in seat order."""
    return [q for q in range(state.num_players) if q != player and may_trade(state, player, q)]


def unaccepted_violation(ctx: Ctx) -> list[Violation]:
    """BASE-TRADE-2: a domestic trade happens only once the partner has agreed to it."""
    if not ctx.action.get("accepted"):
        return [Violation("BASE-TRADE-2", f"a domestic trade needs the partner's agreement; player "
                          f"{ctx.action.get('partner')} has not accepted", "/action/accepted")]
    return []


def harbor_rates(state: State, graph, player: int) -> dict[str, int]:
    """The best rate per resource the player's harbours give (BASE-TRADE-6/7/8): 4:1, 3:1 at a generic
    harbour, 2:1 for a harbour's own resource, by the harbour edges at the player's settlements and cities.

    Read from the buildings on the board as posted, so a harbour serves from the moment its settlement
    is placed, in the same turn (BASE-TRADE-10). Computed once per position (``memo.per_position``: the
    harbours and the buildings are what it reads) and shared by every caller: read-only."""
    return per_position(_RATES, (graph.memo_token, player), (state.harbors, state.buildings),
                        lambda: _harbor_rates(state, graph, player), size=16)


_RATES: dict = {}


def _harbor_rates(state: State, graph, player: int) -> dict[str, int]:
    rates = {r: 4 for r in RESOURCES}
    harbors = state.harbors
    if not harbors:
        return rates
    node_index, node_edges, edges = graph.node_index, graph.node_edge_ids, graph.edges
    for n, b in state.buildings.items():
        if b[0] != player:
            continue
        nid = node_index.get(n)
        if nid is None:
            continue
        for eid in node_edges[nid]:
            kind = harbors.get(edges[eid])
            if kind is None:
                continue
            if kind == "3:1":
                for r in rates:
                    if rates[r] > 3:
                        rates[r] = 3
            else:
                rates[kind] = 2
    return rates


@handler("maritime_trade", {"main"}, not_your_turn="BASE-TRADE-9", wrong_phase=trade_wrong_phase)
class MaritimeTrade:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        v = strict_phases_violation(ctx)
        if v:
            return v
        (gr, gn), = ((r, n) for r, n in a.get("give").items() if n)
        (wr, wn), = ((r, n) for r, n in a.get("get").items() if n)
        if gr == wr:
            return [Violation("BASE-TRADE-6", f"a maritime trade gives one resource for another type; both are {gr}",
                              "/action/get")]
        rate = harbor_rates(s, ctx.graph, a.player)[gr]
        rule = {4: "BASE-TRADE-6", 3: "BASE-TRADE-7", 2: "BASE-TRADE-8"}[rate]
        if gn != rate * wn:
            return [Violation(rule, f"player {a.player} trades {gr} with the bank at {rate}:1, so {wn} {wr} costs "
                              f"{rate * wn} {gr}, not {gn}", "/action/give")]
        have = s.players[a.player].resources.get(gr, 0)
        if have < gn:
            return [Violation(rule, f"player {a.player} holds {have} {gr}, fewer than the {gn} offered",
                              "/action/give")]
        if s.bank.get(wr, 0) < wn:
            return [Violation("BASE-TRADE-9", f"the bank holds {s.bank.get(wr, 0)} {wr}, fewer than the {wn} asked",
                              "/action/get")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        (gr, gn), = ((r, n) for r, n in a.get("give").items() if n)
        (wr, wn), = ((r, n) for r, n in a.get("get").items() if n)
        hand = s.players[a.player].resources
        hand[gr] -= gn
        s.bank[gr] += gn
        hand[wr] += wn
        s.bank[wr] -= wn
        ctx.emit("traded", player=a.player, partner="bank", gave={gr: gn}, got={wr: wn})


@handler("domestic_trade", {"main"}, actor="trade", wrong_phase=trade_wrong_phase)
class DomesticTrade:
    """A trade between two players, one of them the active player. Either side may put it forward: a
    non-active player may propose (or counter-offer) to the active player (BASE-TURN-6). Where a module
    declares a currency (``CURRENCIES``), either side may also offer it, in any amount."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        partner = a.get("partner")
        coins = ctx.scenario.composition.currencies
        give, give_cur = split_currencies(a.get("give"), coins)
        get, get_cur = split_currencies(a.get("get"), coins)
        if partner == a.player or not (0 <= partner < s.num_players):
            return [Violation("BASE-TRADE-2", f"a domestic trade is between two players; partner {partner} "
                              "is not another player", "/action/partner")]
        if not may_trade(s, a.player, partner):
            return [Violation("BASE-TRADE-2", f"non-active players trade only with the active player "
                              f"(player {s.current_player}), never with each other; players {a.player} and "
                              f"{partner} are both waiting for their turn", "/action/partner")]
        v = strict_phases_violation(ctx)
        if v:
            return v
        for cards, path in ((give, "/action/give"), (get, "/action/get")):
            if _RESOURCE_SET.issuperset(cards):
                continue
            other = sorted(r for r in cards if r not in RESOURCES)
            return [Violation("BASE-TRADE-5", f"only resource cards are traded; {', '.join(other)} "
                              "cannot be", path)]
        v = unaccepted_violation(ctx)
        if v:
            return v
        if not (give or give_cur) or not (get or get_cur):
            return [Violation("BASE-TRADE-3", f"a domestic trade has at least one card{' or coin' if coins else ''} "
                              "on each side (no gifts)", "/action/get" if give or give_cur else "/action/give")]
        same = [] if give.keys().isdisjoint(get) else sorted(set(give) & set(get))
        same += [c for c in give_cur if c in get_cur]
        if same:
            return [Violation("BASE-TRADE-4", f"a trade may not exchange a resource for the same type: {', '.join(same)} "
                              "is on both sides", "/action/get")]
        for who, cards, amounts, path in ((a.player, give, give_cur, "/action/give"),
                                          (partner, get, get_cur, "/action/get")):
            short = shortfall(s.players[who].resources, cards)
            for c, n in amounts.items():
                have = s.players[who].extra.get(c, 0)
                if n > have:
                    short[c] = n - have
            if short:
                return [Violation("BASE-TRADE-2", f"player {who} cannot trade what they do not hold: short of "
                                  f"{fmt_cards(short)}", path)]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        partner = a.get("partner")
        coins = ctx.scenario.composition.currencies
        give, give_cur = split_currencies(a.get("give"), coins)
        get, get_cur = split_currencies(a.get("get"), coins)
        transfer(s, a.player, partner, give)
        transfer(s, partner, a.player, get)
        for c in coins:
            if c in give_cur or c in get_cur:
                mine, theirs = s.players[a.player].extra, s.players[partner].extra
                mine[c] = mine.get(c, 0) + get_cur.get(c, 0) - give_cur.get(c, 0)
                theirs[c] = theirs.get(c, 0) + give_cur.get(c, 0) - get_cur.get(c, 0)
        ctx.emit("traded", player=a.player, partner=partner, gave=joined(give, give_cur), got=joined(get, get_cur))
