"""Gold coins as a currency beside the resource cards: shared by every scenario whose players hold gold
(GOLD: GOLD-005, R-042; the wagon-train variant: WAG-002, R-103).

A coin is the player value ``gold`` (``Player.extra``, declared by the scenario in ``PLAYER`` and listed in
``CURRENCIES`` so it changes hands in domestic trades): never a resource card, so the robber cannot steal it,
a 7 does not count it, Monopoly cannot name it. The bank's gold is unlimited.

Buying resource cards from the bank with gold is one shape in both games (2 gold a card: GOLD-016, R-098);
:func:`buy_violations`, :func:`buy_range` and :func:`buy_admits` judge and list it, each game naming its
rate, its cap and the rule it cites.
"""
from __future__ import annotations

from typing import Any, Optional

from ..core import Action, Violation
from ..mapgraph import RESOURCES
from ..state import State
from ..actions.trade import joined, split_currencies


def domestic_trade_with_gold(more: tuple[str, ...] = ()):
    """The ``domestic_trade`` action restated so that gold coins change hands like cards (GOLD: R-042; WAG:
    WAG-044, R-112): the engine's handler, fields naming the coins (and ``more`` currencies) beside the cards."""
    from ..module import ActionSpec
    from ..spec import Cards, F
    kinds = RESOURCES + ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point", "gold") + more
    return ActionSpec("domestic_trade", {"give": F(Cards(kinds), required=True), "get": F(Cards(kinds), required=True)})


def split_coins(cards: dict[str, int]) -> tuple[dict[str, int], int]:
    """The cards named and, apart, the gold coins."""
    named, amounts = split_currencies(cards, ("gold",))
    return named, amounts.get("gold", 0)


def joined_coins(cards: dict[str, int], gold: int) -> dict[str, int]:
    return joined(cards, {"gold": gold} if gold else {})


def coins(state: State, player: int) -> int:
    """The gold coins ``player`` holds."""
    return state.players[player].extra.get("gold", 0)


def add_coins(s: State, player: int, n: int) -> None:
    extra = s.players[player].extra
    extra["gold"] = extra.get("gold", 0) + n


def gold_short(state: State, player: int, need: int, what: str, rule: str) -> list[Violation]:
    have = coins(state, player)
    if have < need:
        return [Violation(rule, f"{what} also costs {need} gold; player {player} has {have} gold")]
    return []


def pay_gold(s: State, player: int, n: int) -> None:
    add_coins(s, player, -n)         # the bank's gold is unlimited


def buy_violations(state: State, player: int, give_gold: int, get: dict[str, int], rate: int, rule: str,
                   ruling: Optional[str] = None) -> list[Violation]:
    """A purchase of the cards ``get`` from the bank for ``give_gold``: ``rate`` gold a card, the buyer
    holding the gold and the bank the cards (BASE-TRADE-9)."""
    n = sum(get.values())
    if give_gold != rate * n:
        return [Violation(rule, f"the bank sells a resource card for {rate} gold: {n} card"
                          f"{'s' if n != 1 else ''} cost {rate * n} gold, not {give_gold}", "/action/give", ruling)]
    if coins(state, player) < give_gold:
        return [Violation(rule, f"player {player} has {coins(state, player)} gold, fewer than the {give_gold} offered",
                          "/action/give", ruling)]
    for r, k in get.items():
        if state.bank.get(r, 0) < k:
            return [Violation("BASE-TRADE-9", f"the bank holds {state.bank.get(r, 0)} {r}, fewer than the {k} asked",
                              f"/action/get/{r}")]
    return []


def buy_range(state: State, player: int, rate: int, most: int, type_: str = "gold_trade"):
    """The range of purchases of at most ``most`` cards at ``rate`` gold each, with one example, or None."""
    k = min(coins(state, player) // rate, most)
    bank = {r: min(state.bank.get(r, 0), k) for r in RESOURCES}
    if k and sum(bank.values()):
        return ({"direction": "buy", "rate": rate, "give": {"at_most": {"gold": rate * k}},
                 "get": {"at_least": 1, "total_at_most": k, "at_most": bank}},
                Action(type_, player, {"give": {"gold": rate},
                                       "get": {next(r for r in RESOURCES if bank[r]): 1}}))
    return None


def bank_trade_admits(spec: dict, action: Action) -> bool:
    """Whether a ``gold_trade`` lies inside a range: a purchase (``direction`` buy, :func:`buy_range`) or a
    sale of cards for gold (``direction`` sell, GOLD-018). One function for every game with gold trades
    (the legal-action list looks the range functions up by action type)."""
    from ..legal import cards_in_range
    give = {r: n for r, n in action.get("give").items() if n}
    get = {r: n for r, n in action.get("get").items() if n}
    if spec["direction"] == "buy":
        return cards_in_range(get, spec["get"]) and give == {"gold": spec["rate"] * sum(get.values())}
    return cards_in_range(give, spec["give"]) and get == {"gold": sum(give.values()) // spec["rate"]}


def bank_trade_sample(spec: dict, rng: Any) -> Action:
    """One ``gold_trade`` drawn from a range (:func:`bank_trade_admits`)."""
    from ..legal import draw_cards
    t, p = spec["type"], spec["player"]
    if spec["direction"] == "buy":
        get = draw_cards(rng, 1 + rng.below(spec["get"]["total_at_most"]), spec["get"]["at_most"])
        return Action(t, p, {"give": {"gold": spec["rate"] * sum(get.values())}, "get": get})
    lots = spec["give"]["total_at_most"] // spec["rate"]
    give = draw_cards(rng, spec["rate"] * (1 + rng.below(lots)), spec["give"]["at_most"])
    return Action(t, p, {"give": give, "get": {"gold": sum(give.values()) // spec["rate"]}})


def bank_trade_count(spec: dict) -> int:
    """The trades inside a range (:func:`bank_trade_admits`): the cards bought or sold decide the gold. The
    same for every game with gold trades (the legal-action list, and a perft count, look the range
    functions up by action type)."""
    from ..legal.counting import count_cards
    return count_cards(spec["get"] if spec["direction"] == "buy" else spec["give"])


def bank_trade_members(spec: dict):
    """Each trade inside a range once."""
    from ..legal.counting import cards_of
    t, p = spec["type"], spec["player"]
    if spec["direction"] == "buy":
        for get in cards_of(spec["get"]):
            yield Action(t, p, {"give": {"gold": spec["rate"] * sum(get.values())}, "get": get})
    else:
        for give in cards_of(spec["give"]):
            yield Action(t, p, {"give": give, "get": {"gold": sum(give.values()) // spec["rate"]}})


__all__ = ["domestic_trade_with_gold", "split_coins", "joined_coins", "coins", "add_coins", "gold_short", "pay_gold", "buy_violations",
           "buy_range", "bank_trade_admits", "bank_trade_sample", "bank_trade_count", "bank_trade_members"]
