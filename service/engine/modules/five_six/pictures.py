"""What the 5-6 extension adds to the board picture: the phase marker, a panel saying whose slot (or whose
paired phase) it is and who follows (BASE56-028, BASE56-042). Pure functions of the state."""
from __future__ import annotations

from ...picture import Panel
from ...state import State
from . import turns


def phase_panel(state: State) -> list[Panel]:
    n = state.num_players
    if state.phase == turns.SBP:
        e = turns.ended_player(state)
        rest = turns.slots_after(state)
        done = (state.current_player - e - 1) % n          # slots already over
        lines = (f"after player {e}'s turn (BASE56-026)", f"slot of player {state.current_player} (BASE56-028)",
                 "then " + (", ".join(f"player {p}" for p in rest) if rest else "nobody") + "; "
                 f"next turn: player {(e + 1) % n}",
                 "build and buy only; no trade, no card, no win (BASE56-029..035)")
        return [Panel("special-build", "Special Building Phase", lines, track=(done + 1, n - 1))]
    if turns.mode(state) == turns.PAIRED and state.phase not in ("setup", "game_over"):
        if state.phase == turns.PAIRED:
            first = state.scenario_state[turns.PAIRED]["first"]
            lines = (f"P1: player {first} (has played)", f"P2: player {state.current_player}, acting (BASE56-043)",
                     "no roll, no trade with players (BASE56-044)")
        else:
            first = state.current_player
            lines = (f"P1: player {first}, acting", f"P2: player {turns.second_player(first, n)} (BASE56-042)")
        return [Panel("paired-turn", "Paired players' turn", lines)]
    return []
