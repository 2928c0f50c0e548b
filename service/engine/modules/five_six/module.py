"""The 5-6 player extension (``rules/five-six.md``, BASE56-*): a rule module stacked above the base game or
the general Seafarers rules when a game has 5 or 6 players (or names the option ``five_six_mode``).

What it changes (everything else is the modules' below it, BASE56-001):

- components: the bank of 24 of each resource (BASE56-005) and the deck of 34 development cards
  (BASE56-006); the supply per player is unchanged (BASE56-004, with Seafarers 15 ships, BASE56-051);
- the board of a new base game: the default 30-hex map or one laid out by the rules (``board.py``);
  a posted board is checked against the 5-6 component table only on request (BASE56-022, R-001);
- after every regular turn the **Special Building Phase** (``five_six_mode: "special_build"``, the
  default, BASE56-041): phase ``special_build``, the seat whose slot it is as ``current_player``, the
  player whose turn ended in ``scenario_state.special_build.ended`` (BASE56-033);
- or the **paired players' turn** (``five_six_mode: "paired"``): after the first player's (P1) turn the
  player three seats on (P2) has an action phase, phase ``paired`` (BASE56-042..047, -053).

The handlers of the actions allowed in those phases are the engine's, declared again with the module's
phases and its seat rule (``turns.py``).
"""
from __future__ import annotations

from typing import Any, Optional

from ...mapgraph import LAND
from ...module import EventSpec, OptionSpec
from ...rng import Rng
from ...spec import PLAYER, F, List, Obj
from ...state import State
from . import board as B
from . import turns


MODE = "five_six_mode"
BOARD = "five_six_board"
SBP, PAIRED = turns.SBP, turns.PAIRED
MODES = (SBP, PAIRED)
#: BASE56-002: the player counts of the extension (both use the whole board).
PLAYERS = frozenset((5, 6))


def mode_accepts(value: Any, players: int) -> bool:
    """BASE56-041: ``special_build`` (default) or ``paired``; BASE56-003 (U-11): only with 5 or 6 players."""
    return value in MODES and players in PLAYERS


MODE_DOC = ("\"special_build\" (the default: a Special Building Phase after every turn, BASE56-026..036) or "
            "\"paired\" (the paired players' turn, BASE56-041..047); a game of 5 or 6 players only (BASE56-003: "
            "the large board with fewer players is no official set-up)")


def _sbp_state() -> Obj:
    return Obj({"ended": F(PLAYER, required=True, doc="the player whose turn just ended (takes no slot, BASE56-027)")})


FIVE_SIX_STATE = {
    SBP: F(_sbp_state(), doc="BASE56-033: the Special Building Phase under way (phase special_build); the seat "
                             "whose slot it is is current_player"),
    PAIRED: F(Obj({"first": F(PLAYER, required=True, doc="P1, the player who rolled this turn")}),
              doc="BASE56-043: the second player's action phase under way (phase paired); P2 is current_player"),
}

_SLOT = Obj({
    "ended": F(PLAYER, required=True, doc="the player whose turn ended"),
    "slot": F(PLAYER, required=True, doc="whose slot it is now (current_player)"),
    "remaining": F(List(PLAYER, max_len=5), required=True, doc="the seats whose slots follow, in order"),
    "next_turn": F(PLAYER, required=True, doc="who takes the next regular turn once the phase is over"),
})
FIVE_SIX_DERIVED = {
    "special_build": F(_SLOT, nullable=True, doc="BASE56-028: the Special Building Phase's slots (null outside it)"),
    "paired": F(Obj({"first": F(PLAYER, required=True), "second": F(PLAYER, required=True),
                     "acting": F(PLAYER, required=True)}), nullable=True,
                doc="BASE56-042: this turn's paired players, P1 and P2 (paired mode only)"),
}

FIVE_SIX_EVENTS = (
    EventSpec("special_build", {"player": F(PLAYER, required=True), "ended": F(PLAYER, required=True),
                                "remaining": F(List(PLAYER, max_len=5), required=True)},
              "BASE56-028: a Special Building Phase slot begins (player: whose slot)."),
    EventSpec("paired_phase", {"player": F(PLAYER, required=True), "first": F(PLAYER, required=True)},
              "BASE56-043: the second paired player's action phase begins."),
)


def _false_only(value: Any, players: int) -> bool:
    return value is False


FIVE_SIX_OPTIONS = (
    OptionSpec(MODE, mode_accepts, MODE_DOC),
    OptionSpec(BOARD, lambda value, players: value in ("default", "variable"),
               "\"default\" (the service's 30-hex map, BASE56-021) or \"variable\" (terrain shuffled, tokens on the "
               "spiral, harbour kinds shuffled, BASE56-015..019): the board of a new 5-6 base game"),
    OptionSpec("BASE-VAR-STRICT-PHASES", _false_only,
               "false only: in 5-6 games trading and building alternate freely (BASE56-025, U-3)"),
    OptionSpec("cities_and_knights", _false_only,
               "false only: the 5-6 extension referees the base game and Seafarers, not Cities & Knights (BASE56-001)"),
)


def component_problems(state: State, scenario: Any) -> list[tuple[str, str]]:
    """BASE56-007: the extension adds no robber: a 5-6 base game has exactly the one robber, and it stands
    on the board (a posted position without it is not a game of the extension). The one Longest Road and
    one Largest Army card are the state's single holders (``awards``)."""
    if getattr(scenario, "ships", False):
        return []                                   # the general Seafarers rules place their robber as they say
    if state.robber is None:
        return [("/state/robber", "BASE56-007: a 5-6 player game still has its one robber, on a hex of the board "
                                  "(either desert at the start, BASE56-020)")]
    return []


class FiveSix:
    """The 5-6 player extension (BASE56-*)."""

    module_name = "five_six"
    resource_count = 24                  # BASE56-005: 19 + 5 of each resource, 120 in all
    #: BASE56-006: 25 + 9 cards; BASE56-040: none is bought once these 34 are gone (BASE-COMP-3 on this deck).
    dev_deck = {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3}
    vp_target = 10                       # BASE56-039: victory needs 10 VP on one's own turn
    route_minimum = 5                    # BASE56-039: Longest Road from 5 roads, as in the base game

    ACTIONS = turns.action_specs(turns.BASE_TYPES)
    STATE = FIVE_SIX_STATE
    DERIVED = FIVE_SIX_DERIVED
    EVENTS = FIVE_SIX_EVENTS
    OPTIONS = FIVE_SIX_OPTIONS
    PHASES = {SBP: turns.special_build_refuses, PAIRED: turns.paired_refuses}
    VALIDATORS = (turns.phase_problems, component_problems)

    # -- components and board ------------------------------------------------------------------------
    @property
    def component_tables(self) -> dict[int, dict]:
        """BASE56-022: a posted 5-6 base board is checked against BASE56-008/009/011 on request only
        (R-001); a Seafarers board (posted, BASE56-054) has no table."""
        if getattr(self, "ships", False):
            return super().component_tables          # type: ignore[misc]
        return {5: B.TABLE, 6: B.TABLE}

    @property
    def component_rule(self) -> Optional[str]:
        return super().component_rule if getattr(self, "ships", False) else "BASE56-022"   # type: ignore[misc]

    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        """BASE56-021: the default 5-6 map for the base game (the general Seafarers rules have none)."""
        if not self.has_map:                                  # type: ignore[attr-defined]
            return super().new_board(num_players, rng)        # type: ignore[misc]
        return B.default_board()

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        """BASE56-002: 5 or 6 players; BASE56-004: each with the base game's 5 settlements, 4 cities and 15
        roads (and 15 ships with Seafarers, BASE56-051); BASE56-005/006 the larger bank and deck; the board
        as ``five_six_board`` asks (BASE56-015..021)."""
        if num_players not in PLAYERS:
            raise ValueError(f"BASE56-003: the 5-6 extension is played by 5 or 6 players, not {num_players}")
        state = super().new_game(num_players, seed, options)   # type: ignore[misc]
        if (options or {}).get(BOARD) == "variable" and self.has_map:   # type: ignore[attr-defined]
            b = B.variable_board(Rng(seed, 0x56))
            state.hexes, state.harbors, state.robber = b["hexes"], b["harbors"], b["robber"]
        return state

    # -- the 7 and the robber ---------------------------------------------------------------------
    def discard_limit(self, state: State, player: int) -> int:
        """BASE56-038: with 5 or 6 players a 7 still makes every player holding more than 7 resource cards
        discard half, rounded down (the limit does not grow with the table; the general Seafarers rules
        keep their own)."""
        if getattr(self, "ships", False):
            return super().discard_limit(state, player)      # type: ignore[misc]
        return 7

    def robber_hex_ok(self, state: State, h: Any) -> bool:
        """BASE56-038: the robber follows BASE-ROBBER on the 30-hex board: any land hex, either of its two
        deserts included (never a frame hex)."""
        if getattr(self, "ships", False):
            return super().robber_hex_ok(state, h)          # type: ignore[misc]
        t = state.hexes.get(h)
        return t is not None and t.terrain in LAND

    # -- turns ------------------------------------------------------------------------------------
    def may_win(self, state: State) -> bool:
        """BASE56-035: nobody wins during the Special Building Phase, whatever their VP; the player holding
        the target wins at the first moment of their own turn. BASE56-046: in the paired turn P2 wins at
        once in their action phase (they are the current player then)."""
        if state.phase == SBP:
            return False
        return super().may_win(state)                 # type: ignore[misc]

    def derived_extra(self, state: State, graph: Any) -> dict[str, Any]:
        out = super().derived_extra(state, graph)     # type: ignore[misc]
        return {**out, **turns.derived(state)}

    def explain_extra(self, state: State, graph: Any) -> dict[str, Any]:
        out = super().explain_extra(state, graph)     # type: ignore[misc]
        return {**out, "five_six": turns.explain(state)}

    def board_layers(self, state: State, graph: Any) -> list:
        out = list(super().board_layers(state, graph))   # type: ignore[misc]
        from .pictures import phase_panel
        return out + phase_panel(state)


class SeafaringFiveSix:
    """BASE56-051..053: the general Seafarers rules with 5-6 players: ships in the Special Building Phase
    (built, never moved) and in the paired players' turn (built and moved)."""

    module_name = "five_six_seafarers"
    ACTIONS = turns.action_specs(turns.SEA_TYPES)


def refusal(scen: Any) -> Optional[str]:
    """BASE56-050 / BASE56-054: a scenario whose own maps and tables are for 3-4 players is not played by 5
    or 6 (the Seafarers 5-6 scenarios are out of scope); the base game and the general Seafarers rules on a
    posted board (R-001) are."""
    if scen.maps() or scen.component_tables:
        return (f"BASE56-050: scenario {scen.id!r} ships maps for 3 or 4 players only; a 5-6 Seafarers game is "
                "posted on its own board under the general rules (scenario 'seafarers', BASE56-054, R-001)")
    return None


def adjust(scen: Any) -> Optional[type]:
    """With Seafarers, the ship actions in the module's phases (BASE56-052/053)."""
    return SeafaringFiveSix if "build_ship" in scen.action_types() else None


__all__ = ["FiveSix", "SeafaringFiveSix", "refusal", "adjust", "MODE", "BOARD", "MODES", "PLAYERS", "mode_accepts",
           "MODE_DOC"]
