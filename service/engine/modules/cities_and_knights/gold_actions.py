"""GOLD's bank trade with commodities (GOLD-016..018 with Cities & Knights)."""
from __future__ import annotations

from ...actions import own_handler
from ..gold.actions import BUY_RATE, SELL_RATE
from ...actions.trade import joined, split_currencies, trade_wrong_phase
from ...core import Ctx, Violation, fmt_cards
from ...state import State
from . import store
from .data import COMMODITIES
from .gold import COMMODITY_PRICE


def _split(cards: dict) -> tuple[dict, int]:
    got, cur = split_currencies(cards, ("gold",))
    return got, int(cur.get("gold", 0))


def _price(get: dict[str, int]) -> int:
    """GOLD-016: 2 gold a resource; GOLD-017: 4 gold a commodity."""
    return sum((COMMODITY_PRICE if k in COMMODITIES else SELL_RATE) * n for k, n in get.items())


@own_handler("gold_trade", {"main"}, not_your_turn="BASE-TRADE-9", wrong_phase=trade_wrong_phase)
class GoldTrade:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        give, give_gold = _split(a.get("give"))
        get, get_gold = _split(a.get("get"))
        p = s.players[a.player]
        if give_gold and not give and get and not get_gold:
            price = _price(get)
            rule = "GOLD-017" if any(k in COMMODITIES for k in get) else "GOLD-016"
            if give_gold != price:
                return [Violation(rule, f"the bank sells a resource for {SELL_RATE} gold and a commodity for "
                                  f"{COMMODITY_PRICE}: {fmt_cards(get)} cost {price} gold, not {give_gold}", "/action/give")]
            if p.extra.get("gold", 0) < give_gold:
                return [Violation(rule, f"player {a.player} has {p.extra.get('gold', 0)} gold, fewer than {give_gold}",
                                  "/action/give")]
            for k, n in get.items():
                if store.bank_has(s, k) < n:
                    return [Violation("BASE-TRADE-9", f"the bank holds fewer than {n} {k}", f"/action/get/{k}")]
            return []
        if give and not give_gold and get_gold and not get:
            n = sum(give.values())
            if n != BUY_RATE * get_gold:
                return [Violation("GOLD-018", f"the bank pays 1 gold for any {BUY_RATE} resource or commodity cards: "
                                  f"{get_gold} gold take {BUY_RATE * get_gold} cards, not {n}", "/action/give")]
            held = store.cards_of(s, a.player)
            short = {k: m - held.get(k, 0) for k, m in give.items() if held.get(k, 0) < m}
            if short:
                return [Violation("GOLD-018", f"player {a.player} is short of {fmt_cards(short)}", "/action/give")]
            return []
        return [Violation("GOLD-016", "a gold trade with the bank is gold for cards (2 gold a resource, GOLD-016; 4 a "
                          "commodity, GOLD-017) or cards for gold (3 cards each, GOLD-018)", "/action")]

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        give, give_gold = _split(a.get("give"))
        get, get_gold = _split(a.get("get"))
        for k, n in give.items():
            store.return_card(s, a.player, k, n)
        for k, n in get.items():
            store.give_card(s, a.player, k, n)
        ex = s.players[a.player].extra
        ex["gold"] = ex.get("gold", 0) + get_gold - give_gold
        ctx.emit("traded", player=a.player, partner="bank", gave=joined(give, {"gold": give_gold} if give_gold else {}),
                 got=joined(get, {"gold": get_gold} if get_gold else {}))
