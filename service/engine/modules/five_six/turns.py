"""The 5-6 extension's turn structure: the Special Building Phase (BASE56-024..036) and the paired players'
turn (BASE56-041..047, -053), as the engine's handlers declared again with the module's phases.

Special Building Phase (phase ``special_build``): after ``end_turn`` every other player in turn has one
slot, clockwise from the left of the player whose turn ended (kept in ``scenario_state.special_build``);
the seat whose slot it is is ``current_player`` and may build and buy (and, with Seafarers, build ships),
then ends the slot with ``end_turn``. After the last slot the ended player's left neighbour takes the
next regular turn (BASE56-033).

Paired players' turn (phase ``paired``): after P1's ``end_turn`` the player three seats on (P2) has an
action phase: build, buy, maritime trade, one development card, one ship move; no domestic trade, no roll;
``end_turn`` ends it and the next regular turn is P1's left neighbour's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...actions import HANDLERS, Handler, load_all
from ...core import Ctx, Violation
from ...module import ActionSpec
from ...state import State


#: BASE56-055: the API's names of the Special Building Phase and of the paired players' turn (phase and mode).
SBP, PAIRED = "special_build", "paired"
MODE = "five_six_mode"

#: BASE56-029: what a Special Building Phase slot allows (and its end). BASE56-044: what P2's phase allows.
SBP_BASE = ("build_road", "build_settlement", "build_city", "buy_development_card", "end_turn")
PAIRED_BASE = SBP_BASE + ("maritime_trade", "play_knight", "play_road_building", "play_year_of_plenty",
                          "play_monopoly")
BASE_TYPES = PAIRED_BASE
#: BASE56-052: ships are built in a slot, never moved; BASE56-053: P2 may build and move one.
SEA_TYPES = ("build_ship", "move_ship")
SBP_TYPES = frozenset(SBP_BASE + ("build_ship",))
PAIRED_TYPES = frozenset(PAIRED_BASE + SEA_TYPES)


def mode(state: State) -> str:
    """BASE56-041 (U-1): the Special Building Phase unless the game names the paired players' turn."""
    return state.options.get(MODE) or SBP


def ended_player(state: State) -> int:
    return state.scenario_state[SBP]["ended"]


def slots_after(state: State) -> list[int]:
    """BASE56-028: the seats whose slots follow the current one, up to the seat before the ended player."""
    n, e = state.num_players, ended_player(state)
    out, p = [], (state.current_player + 1) % n
    for _ in range(n):                       # (bounded: a posted record is checked, BASE56-033, but never trusted)
        if p == e:
            break
        out.append(p)
        p = (p + 1) % n
    return out


def second_player(first: int, n: int) -> int:
    """BASE56-042: P2 is the third player to P1's left (opposite with 6; seat P1+3 mod 5 with 5)."""
    return (first + 3) % n


# -- the seat rule ------------------------------------------------------------------------------------

def seat_violation(ctx: Ctx, orig: Handler) -> list[Violation]:
    """Who may take this action now: in a Special Building Phase slot only its seat, never the player whose
    turn just ended (BASE56-027/028); in the paired phase only P2 (BASE56-043); before the roll in the
    paired mode only P1 plays a card (BASE56-045); otherwise the engine's own rule (the gate's)."""
    s, a = ctx.state, ctx.action
    if s.phase == SBP:
        e = ended_player(s)
        if a.player == e:
            return [Violation("BASE56-027", f"player {a.player}'s turn has just ended: every other player may build "
                              "in the Special Building Phase, but not the player whose turn it was", "/action/player")]
        if a.player != s.current_player:
            order = [s.current_player] + slots_after(s)
            return [Violation("BASE56-028", f"Special Building Phase slots go clockwise from the left of player {e}, "
                              f"one at a time: it is player {s.current_player}'s slot (then "
                              f"{', '.join(map(str, order[1:])) or 'the next turn'}), not player {a.player}'s",
                              "/action/player")]
        return []
    if s.phase == PAIRED:
        if a.player != s.current_player:
            first = s.scenario_state[PAIRED]["first"]
            return [Violation("BASE56-043", f"this is the action phase of player {s.current_player}, the second "
                              f"paired player (P1 is player {first}): nobody else acts in it", "/action/player")]
        return []
    if a.player != s.current_player and orig.actor == "current":
        if mode(s) == PAIRED and s.phase == "roll" and a.type.startswith("play_"):
            return [Violation("BASE56-045", f"only the player who rolls (P1, player {s.current_player}) may play a "
                              "card before the roll", "/action/player")]
        return [Violation(orig.not_your_turn, f"it is player {s.current_player}'s turn; player {a.player} may not "
                          f"{a.type.replace('_', ' ')} now", "/action/player")]
    return []


def _declared(t: str) -> Handler:
    """The engine's handler of ``t`` with the module's phases and seat rule. BASE56-029/-052: the slot
    builds and buys; BASE56-044/-053: P2 builds, buys, trades with the bank, plays a card (a Knight moves the
    robber with no discards, BASE56-045), moves a ship. BASE56-036: builds keep ``changes_routes``, so
    Longest Road is recomputed after every build in the phase and may change hands at once."""
    load_all()
    orig = HANDLERS[t]
    phases = set(orig.phases)
    if t in SBP_TYPES:
        phases.add(SBP)
    if t in PAIRED_TYPES:
        phases.add(PAIRED)
    check = orig.check

    def checked(ctx: Ctx) -> list[Violation]:
        return seat_violation(ctx, orig) or check(ctx)
    # its check only adds the seat rule to the engine's, so the legal-action list may take the type's
    # candidates from the engine's prefilter, each judged in full (``Handler.prefiltered``)
    h = replace(orig, phases=frozenset(phases), check=checked, actor="builder" if orig.actor == "current" else orig.actor,
                keeps_block=True, prefiltered=True)
    if t == "end_turn":
        h = replace(h, apply=end_turn_apply)
    return h


def action_specs(types: tuple[str, ...]) -> tuple[ActionSpec, ...]:
    return tuple(ActionSpec(t, handler=(lambda t=t: _declared(t))) for t in types)


# -- what the phases do not take ----------------------------------------------------------------------------

def special_build_refuses(ctx: Ctx) -> Violation:
    """BASE56-030: no trade of any kind; BASE56-031: no development card played; BASE56-052: no ship moved;
    BASE56-032: no dice, production, robber, pirate or discards in the Special Building Phase."""
    t = ctx.action.type
    if t in ("maritime_trade", "domestic_trade"):
        return Violation("BASE56-030", "no trade of any kind in the Special Building Phase (neither with players nor "
                         "with the bank or a harbour)")
    if t.startswith("play_"):
        return Violation("BASE56-031", "no development card may be played in the Special Building Phase: it is not "
                         "part of the builder's own turn")
    if t == "move_ship":
        return Violation("BASE56-052", "ships may be built in a Special Building Phase slot but not moved: the one "
                         "ship move belongs to the player's own turn")
    return Violation("BASE56-032", f"{t} is not possible in the Special Building Phase: it has no dice, production, "
                     "robber or pirate move and no discards; a slot builds, buys or ends (end_turn)")


def paired_refuses(ctx: Ctx) -> Violation:
    """BASE56-044: P2 never trades with other players; BASE56-043: P2 never rolls (the phase is P2's actions)."""
    t = ctx.action.type
    if t == "domestic_trade":
        return Violation("BASE56-044", "in the second paired player's action phase there is no trade between players "
                         "(maritime and harbour trade only)")
    return Violation("BASE56-043", f"{t} is not possible in the second paired player's action phase: P2 never rolls; "
                     "they build, buy, trade with the bank, play a card or end the phase (end_turn)")


# -- ending a turn, a slot, a phase ------------------------------------------------------------------------

def _cards_ready(s: State, player: int) -> None:
    """BASE-DEV-4 / BASE56-034 / BASE56-047: cards bought in a turn, a slot or a paired phase become playable
    in the player's next own turn (the next phase they act in)."""
    p = s.players[player]
    if not any(p.dev_cards_new.values()):
        return
    held = dict(p.dev_cards)
    for c, n in p.dev_cards_new.items():
        held[c] = held.get(c, 0) + n
    p.dev_cards, p.dev_cards_new = held, dict.fromkeys(p.dev_cards_new, 0)


def _acting(s: State, player: int) -> None:
    s.current_player = player
    s.flags = type(s.flags)()
    s.last_roll = None


def _next_turn(ctx: Ctx, s: State, player: int) -> None:
    """BASE56-028: the next regular turn (BASE-TURN-1: the roll phase of ``player``)."""
    ss = dict(s.scenario_state)
    ss.pop(SBP, None)
    ss.pop(PAIRED, None)
    s.scenario_state = ss
    _acting(s, player)
    s.turn += 1
    s.phase = "roll"
    ctx.emit("turn_started", player=player, turn=s.turn)


def end_turn_apply(ctx: Ctx, s: State) -> None:
    n = s.num_players
    if s.phase == SBP:                                   # BASE56-033: the slot is over
        _cards_ready(s, s.current_player)                # BASE56-034
        nxt = (s.current_player + 1) % n
        e = ended_player(s)
        if nxt == e:                                     # BASE56-028: the ended player's left neighbour plays
            _next_turn(ctx, s, (e + 1) % n)
        else:
            _acting(s, nxt)
            ctx.emit(SBP, player=nxt, ended=e, remaining=slots_after(s))
        return
    if s.phase == PAIRED:                                # BASE56-043: both markers pass one seat to the left
        _cards_ready(s, s.current_player)                # BASE56-047
        first = s.scenario_state[PAIRED]["first"]
        _next_turn(ctx, s, (first + 1) % n)
        return
    ctx.scenario.on_turn_end(ctx, s)
    p = s.current_player
    _cards_ready(s, p)                                   # BASE-DEV-4
    if mode(s) == PAIRED:                                # BASE56-043: then P2's action phase
        p2 = second_player(p, n)
        s.scenario_state = {**s.scenario_state, PAIRED: {"first": p}}
        _acting(s, p2)
        s.phase = PAIRED
        ctx.emit("paired_phase", player=p2, first=p)
        return
    # BASE56-026: a Special Building Phase follows every regular turn (end_turn is never taken in set-up, so
    # none follows the set-up rounds, BASE56-024); BASE56-027/028: the first slot is the left neighbour's.
    s.scenario_state = {**s.scenario_state, SBP: {"ended": p}}
    _acting(s, (p + 1) % n)
    s.phase = SBP
    ctx.emit(SBP, player=s.current_player, ended=p, remaining=slots_after(s))


# -- consistency, derived values, explanations ---------------------------------------------------------------

def phase_problems(state: State, scenario: Any) -> list[tuple[str, str]]:
    """The phase and its record agree (BASE56-033, BASE56-043), in the game's mode (BASE56-041)."""
    out = []
    ss, n = state.scenario_state, state.num_players
    m = mode(state)
    sbp, paired = ss.get(SBP), ss.get(PAIRED)
    if (state.phase == SBP) != (sbp is not None):
        out.append(("/state/scenario_state/special_build", "the special_build record is kept exactly while the phase "
                    "is special_build (BASE56-033)"))
    if (state.phase == PAIRED) != (paired is not None) and state.phase != "game_over":   # BASE56-046: P2 won in it
        out.append(("/state/scenario_state/paired", "the paired record is kept exactly while the phase is paired "
                    "(BASE56-043)"))
    if state.phase == SBP and m != SBP:
        out.append(("/state/phase", "a Special Building Phase belongs to five_six_mode special_build (BASE56-041)"))
    if state.phase == PAIRED and m != PAIRED:
        out.append(("/state/phase", "the paired phase belongs to five_six_mode paired (BASE56-041)"))
    if sbp is not None and state.phase == SBP:
        e = sbp.get("ended")
        if not isinstance(e, int) or e >= n:
            out.append(("/state/scenario_state/special_build/ended", f"player {e} does not exist"))
        elif e == state.current_player:
            out.append(("/state/current_player", "the player whose turn ended takes no slot (BASE56-027)"))
    if paired is not None and state.phase == PAIRED:
        f = paired.get("first")
        if not isinstance(f, int) or f >= n:
            out.append(("/state/scenario_state/paired/first", f"player {f} does not exist"))
        elif state.current_player != second_player(f, n):
            out.append(("/state/current_player", f"P2 of P1 = player {f} is player {second_player(f, n)}, the third "
                        "player to P1's left (BASE56-042)"))
    return out


def derived(state: State) -> dict[str, Any]:
    sbp = None
    if state.phase == SBP:
        e = ended_player(state)
        sbp = {"ended": e, "slot": state.current_player, "remaining": slots_after(state),
               "next_turn": (e + 1) % state.num_players}
    paired = None
    if mode(state) == PAIRED and state.phase not in ("setup", "game_over"):
        first = state.scenario_state[PAIRED]["first"] if state.phase == PAIRED else state.current_player
        paired = {"first": first, "second": second_player(first, state.num_players), "acting": state.current_player}
    return {SBP: sbp, PAIRED: paired}


def explain(state: State) -> dict[str, Any]:
    n = state.num_players
    if state.phase == SBP:
        e = ended_player(state)
        rest = slots_after(state)
        why = (f"Special Building Phase after player {e}'s turn (BASE56-026): every other player has one slot, "
               f"clockwise from player {(e + 1) % n} (BASE56-028). It is player {state.current_player}'s slot: they may "
               "build roads, settlements, cities (and ships, with Seafarers: BASE56-052) and buy development cards (BASE56-029), but not trade (BASE56-030), play a card (BASE56-031) or "
               "move anything (BASE56-032). " + (f"Then players {', '.join(map(str, rest))}. " if rest else "")
               + f"Nobody wins during the phase (BASE56-035); player {(e + 1) % n} then takes the next turn and wins "
               "at its start if holding 10 VP.")
        return {"mode": SBP, "phase": SBP, "ended": e, "slot": state.current_player, "remaining": rest, "why": why}
    if mode(state) == PAIRED:
        if state.phase == PAIRED:
            first = state.scenario_state[PAIRED]["first"]
            why = (f"Paired players' turn (BASE56-041): player {first} (P1) has played; now player "
                   f"{state.current_player} (P2, the third player to P1's left, BASE56-042) has an action phase: build, "
                   "buy, maritime trade, one card (BASE56-044, -047), no roll and no trade with players; reaching 10 VP "
                   "now wins at once (BASE56-046).")
        else:
            first = state.current_player
            why = (f"Paired players' turn (BASE56-041): player {first} is P1 and rolls; after P1's action phase "
                   f"player {second_player(first, n)} (P2, BASE56-042) has an action phase of their own (BASE56-043).")
        return {"mode": PAIRED, "phase": state.phase, "first": first, "second": second_player(first, n), "why": why}
    return {"mode": SBP, "phase": state.phase,
            "why": f"5-6 players (BASE56-002): after player {state.current_player}'s turn ends, a Special Building "
                   "Phase gives every other player one slot to build and buy (BASE56-026..029)."}


__all__ = ["SBP", "PAIRED", "mode", "slots_after", "second_player", "seat_violation", "action_specs",
           "special_build_refuses", "paired_refuses", "end_turn_apply", "phase_problems", "derived", "explain"]
