"""GOLD with Cities & Knights (seed 000): 15 VP (GOLD-002), 10 gold to start (GOLD-006), gold on the
knight, its activation and the city wall (GOLD-012..014), none on improvements (GOLD-015), and 4 gold
for a commodity at the bank (GOLD-017)."""
from __future__ import annotations

from typing import Any, Optional

from ...module import ActionSpec
from ...spec import F, Cards
from ...state import State
from .data import CARDS

START_GOLD = 10                    # GOLD-006
VP = 15                            # GOLD-002
COMMODITY_PRICE = 4                # GOLD-017


def _gold_trade():
    from . import gold_actions
    return gold_actions.GoldTrade.HANDLER


def _domestic():
    from . import actions
    return actions.DomesticTrade.HANDLER


class GoldCitiesAndKnights:
    module_name = "GOLD_cities_and_knights"
    ACTIONS = (
        ActionSpec("domestic_trade", {"give": F(Cards(CARDS + ("gold",)), required=True),
                                      "get": F(Cards(CARDS + ("gold",)), required=True)}, handler=_domestic),
        ActionSpec("gold_trade", {"give": F(Cards(CARDS + ("gold",)), required=True),
                                  "get": F(Cards(CARDS + ("gold",)), required=True)},
                   "GOLD-016/017/018: 2 gold a resource, 4 gold a commodity, 3 cards a gold.", handler=_gold_trade),
    )

    def ck_vp_target(self) -> int:
        return VP                                            # GOLD-002 (the scenario's own combined target)

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        for p in state.players:
            p.extra["gold"] = START_GOLD                     # GOLD-006
        return state

    def free_item_cost(self, item: str) -> dict[str, int]:
        """GOLD-019: a card making an item free never waives its gold (road, ship 1; wall 1; city 2)."""
        return {"gold": {"road": 1, "ship": 1, "wall": 1, "city": 2}.get(item, 0)}

    def ck_cost(self, state: State, action: Any, item: str) -> dict[str, int]:
        cost = super().ck_cost(state, action, item)
        if item in ("knight", "wall"):                       # GOLD-012, GOLD-014
            cost["gold"] = cost.get("gold", 0) + 1
        elif item == "activate" and action.get("pay") == "gold":
            cost = {"gold": 1}                               # GOLD-013: 1 grain or 1 gold
        return cost                                          # GOLD-015: improvements need no gold


__all__ = ["GoldCitiesAndKnights", "START_GOLD", "VP", "COMMODITY_PRICE"]
