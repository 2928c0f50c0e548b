"""Costs and card movements between hands and the bank (cards are conserved, BASE-COMP-2)."""
from __future__ import annotations

from .core import Violation, fmt_cards
from .state import State

#: BASE-COST-1..3 table (SEA-006 adds the ship).
COSTS: dict[str, dict[str, int]] = {
    "road": {"brick": 1, "lumber": 1},
    "settlement": {"brick": 1, "lumber": 1, "wool": 1, "grain": 1},
    "city": {"grain": 2, "ore": 3},
    "development_card": {"wool": 1, "grain": 1, "ore": 1},
    "ship": {"lumber": 1, "wool": 1},
}


def shortfall(hand: dict[str, int], cards: dict[str, int]) -> dict[str, int]:
    """What ``hand`` lacks of ``cards``, per resource (empty when it holds them all).

    >>> shortfall({"ore": 1, "grain": 2}, {"ore": 3, "grain": 1})
    {'ore': 2}
    """
    return {r: n - hand.get(r, 0) for r, n in cards.items() if hand.get(r, 0) < n}


def can_pay(hand: dict[str, int], cost: dict[str, int]) -> bool:
    """Whether ``hand`` holds every card of ``cost`` (:func:`shortfall` is empty).

    >>> can_pay({"ore": 3, "grain": 2}, COSTS["city"]), can_pay({"ore": 2, "grain": 2}, COSTS["city"])
    (True, False)
    """
    for r, n in cost.items():
        if hand.get(r, 0) < n:
            return False
    return True


def cannot_pay(state: State, player: int, cost: dict[str, int], what: str, rule: str = "BASE-COST-1") -> list[Violation]:
    """BASE-COST-1: the exact cost is paid before the piece is placed; no credit (:func:`can_pay`)."""
    hand = state.players[player].resources
    if can_pay(hand, cost):
        return []
    return [Violation(rule, f"{what} costs {fmt_cards(cost)}; player {player} is short of "
                      f"{fmt_cards(shortfall(hand, cost))}")]


def pay(s: State, player: int, cost: dict[str, int]) -> None:
    hand = s.players[player].resources
    for r, n in cost.items():
        hand[r] -= n
        s.bank[r] = s.bank.get(r, 0) + n


def take(s: State, player: int, cards: dict[str, int]) -> None:
    """Move ``cards`` from the bank to the player's hand (the caller checked the bank has them)."""
    hand = s.players[player].resources
    for r, n in cards.items():
        if n:
            s.bank[r] -= n
            hand[r] = hand.get(r, 0) + n


def transfer(s: State, giver: int, receiver: int, cards: dict[str, int]) -> None:
    a, b = s.players[giver].resources, s.players[receiver].resources
    for r, n in cards.items():
        a[r] -= n
        b[r] = b.get(r, 0) + n
