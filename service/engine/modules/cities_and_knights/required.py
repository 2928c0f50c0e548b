"""Scenarios played only with Cities & Knights (R-079: without the module they cannot be created, HTTP 422).

Such a scenario puts Cities & Knights in its own stack: its class is its rules with Cities & Knights, this
class, the module, then its map and rules without it::

    class GreatCanal(GreatCanalWithCitiesAndKnights, PlayedWithCitiesAndKnights, CitiesAndKnights, GreatCanalMap)

so every game of it, every posted position and its page (``GET /v1/scenarios/{id}``: the options, actions
and hooks of Cities & Knights) are those of the combined game, and nothing outside the scenario's package
and this module knows that it needs Cities & Knights. The scenario's rules class declares the option
(``option_spec``) with its own rule ID in ``requires_rule``.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from ...module import OptionSpec
from ...state import State
from . import store
from .data import OPTION


def _true_only(value: Any, players: int) -> bool:
    return value is True


def refusal(name: str, rule: str) -> str:
    """R-079 with the scenario's own rule: why a game or position without Cities & Knights is refused."""
    return (f"R-079, {rule}: {name} is played with Seafarers and Cities & Knights together: start or post the "
            f"game with the option cities_and_knights: true")


def option_spec(name: str, rule: str) -> OptionSpec:
    """The ``cities_and_knights`` option of a scenario played only with it: true only."""
    return OptionSpec(OPTION, _true_only, "true only: " + refusal(name, rule))


class PlayedWithCitiesAndKnights:
    """R-079: the game is created with Cities & Knights whatever the request's options say (an explicit
    ``false`` is refused), and a position without it is refused."""
    #: The scenario's rule saying it is played with Cities & Knights (TDE5-002, TDE6-002).
    requires_rule = "R-079"

    def _refusal(self) -> str:
        return refusal(getattr(self, "name", "this scenario"), self.requires_rule)

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        if (options or {}).get(OPTION, True) is not True:
            raise ValueError(self._refusal())
        return super().new_game(num_players, seed, {**(options or {}), OPTION: True})   # type: ignore[misc]

    def option_problems(self, options: Mapping[str, Any], num_players: int) -> list[tuple[str, str]]:
        out = list(super().option_problems(options, num_players))                         # type: ignore[misc]
        if (options or {}).get(OPTION) is not True and not any(k == OPTION for k, _ in out):
            out.append((OPTION, self._refusal()))
        return out

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = list(super().validate_state(state))                                        # type: ignore[misc]
        if store.KEY not in (state.scenario_state or {}) and not any(
                p == "/state/options/" + OPTION for p, _ in out):
            out.append((f"/state/scenario_state/{store.KEY}", self._refusal()))
        return out


__all__ = ["PlayedWithCitiesAndKnights", "option_spec", "refusal"]
