"""Trade: maritime with the bank at 4:1, 3:1 or 2:1 by harbour (BASE-TRADE-6..10), and domestic
between the active player and one other (BASE-TRADE-1..5)."""
from __future__ import annotations

from ..bank import transfer
from ..core import Ctx, Violation, fmt_cards
from ..state import State
from . import handler


def harbor_rates(state: State, graph, player: int) -> dict[str, int]:
    """The best rate per resource the player's harbours give (BASE-TRADE-6/7/8)."""
    from ..mapgraph import RESOURCES
    rates = {r: 4 for r in RESOURCES}
    for edge, kind in state.harbors.items():
        eid = graph.edge_index.get(edge)
        if eid is None:
            continue
        if any(state.building_owner(graph.nodes[n]) == player for n in graph.edge_node_ids[eid]):
            if kind == "3:1":
                for r in rates:
                    rates[r] = min(rates[r], 3)
            else:
                rates[kind] = 2
    return rates


@handler("maritime_trade", {"main"}, not_your_turn="BASE-TRADE-9")
class MaritimeTrade:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        give, get = a.get("give"), a.get("get")
        (gr, gn), = give.items()
        (wr, wn), = get.items()
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
        (gr, gn), = a.get("give").items()
        (wr, wn), = a.get("get").items()
        hand = s.players[a.player].resources
        hand[gr] -= gn
        s.bank[gr] += gn
        hand[wr] += wn
        s.bank[wr] -= wn
        ctx.emit("traded", player=a.player, partner="bank", gave={gr: gn}, got={wr: wn})


@handler("domestic_trade", {"main"}, not_your_turn="BASE-TRADE-2")
class DomesticTrade:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        partner = a.get("partner")
        give = {r: n for r, n in a.get("give").items() if n}
        get = {r: n for r, n in a.get("get").items() if n}
        if partner == a.player or not (0 <= partner < s.num_players):
            return [Violation("BASE-TRADE-2", f"the active player trades with another player; partner {partner} "
                              "is not one", "/action/partner")]
        if not a.get("accepted"):
            return [Violation("BASE-TRADE-2", f"a domestic trade needs the partner's agreement; player {partner} "
                              "has not accepted", "/action/accepted")]
        if not give or not get:
            return [Violation("BASE-TRADE-3", "a domestic trade has at least one card on each side (no gifts)",
                              "/action/give" if not give else "/action/get")]
        same = sorted(set(give) & set(get))
        if same:
            return [Violation("BASE-TRADE-4", f"a trade may not exchange a resource for the same type: {', '.join(same)} "
                              "is on both sides", "/action/get")]
        for who, cards, path in ((a.player, give, "/action/give"), (partner, get, "/action/get")):
            hand = s.players[who].resources
            short = {r: n - hand.get(r, 0) for r, n in cards.items() if hand.get(r, 0) < n}
            if short:
                return [Violation("BASE-TRADE-2", f"player {who} cannot trade cards they do not hold: short of "
                                  f"{fmt_cards(short)}", path)]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        partner = a.get("partner")
        give = {r: n for r, n in a.get("give").items() if n}
        get = {r: n for r, n in a.get("get").items() if n}
        transfer(s, a.player, partner, give)
        transfer(s, partner, a.player, get)
        ctx.emit("traded", player=a.player, partner=partner, gave=give, got=get)
