"""Random full games: seeded random legal play with invariants checked after every action.

A game starts from ``Scenario.new_game`` and goes on by picking a random legal action
(:func:`service.engine.legal.random_action`) until the game is won or a cap is reached. After every
action :func:`invariants` checks the new position; the posted position must be unchanged by judging
(compared through ``dump``, a canonical serialiser the caller passes in: the engine knows no JSON),
and at the end the action log replayed from the initial position must give the final one byte for byte.

>>> from service.engine.scenarios import get_scenario
>>> g = play_game("base", 3, seed=1, max_actions=40)
>>> g.failures, g.actions
([], 40)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .consistency import check_state
from .core import Action
from .derive import victory_points
from .legal import LegalActions, legal_actions, players_to_act, random_action
from .mapgraph import RESOURCES, MapGraph
from .referee import adjudicate
from .rng import Rng
from .scenarios import SCENARIOS, get_scenario, with_expansions
from .state import State

Dump = Callable[[State], Any]


@dataclass
class Game:
    scenario: str
    players: int
    seed: int
    initial: State
    final: State
    log: list[Action] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ended: str = "running"          # "won" | "action cap" | "no legal action"

    @property
    def actions(self) -> int:
        return len(self.log)

    @property
    def winner(self) -> Optional[int]:
        return self.final.winner


def playable_scenarios() -> list[tuple[str, int]]:
    """(scenario id, player count) for every scenario that can start a new game on its own map."""
    return [(sid, n) for sid, scen in sorted(SCENARIOS.items()) if scen.has_map for n in scen.players]


def _where(kind: str, coord: Any) -> str:
    return f"/{kind}/{coord}"


def invariants(s: State, graph: MapGraph, scen) -> list[str]:
    """What must hold in every position random play reaches."""
    out = []
    # cards conserved: bank + hands = the game's cards of each resource (BASE-COMP-2)
    for r in RESOURCES:
        held = [p.resources.get(r, 0) for p in s.players]
        bank = s.bank.get(r, 0)
        if min(held + [bank]) < 0:
            out.append(f"negative {r} count: hands {held}, bank {bank}")
        if sum(held) + bank != scen.resource_count:
            out.append(f"{r} not conserved: hands {held} + bank {bank} != {scen.resource_count}")
    # pieces within the supply; and the whole position is one the service accepts when posted
    for i, p in enumerate(s.players):
        for kind, n in p.supply.items():
            if n < 0 or n > scen.supply.get(kind, 0):
                out.append(f"player {i} supply of {kind} is {n} (scenario gives {scen.supply.get(kind, 0)})")
    out += [f"inconsistent position at {ptr}: {why}" for ptr, why in check_state(s, graph, scen, _where)]
    # VP equals the sum of its sources, recounted here from the pieces, cards and awards
    for i, p in enumerate(s.players):
        vp = victory_points(s, scen, i)
        mine = [k for o, k in s.buildings.values() if o == i]
        expect = (mine.count("settlement") + 2 * mine.count("city") + 2 * (s.longest_road_holder == i)
                  + 2 * (s.largest_army_holder == i) + p.dev_cards.get("victory_point", 0)
                  + p.dev_cards_new.get("victory_point", 0) + p.svp + sum(scen.vp_extra(s, i).values()))
        if vp["total"] != expect or vp["total"] != sum(v for k, v in vp.items() if k != "total"):
            out.append(f"player {i} VP {vp} does not add up to {expect}")
    # exactly one player to act (several may owe a discard at once, in any order)
    to_act = players_to_act(s)
    if not 0 <= s.current_player < s.num_players:
        out.append(f"current player {s.current_player} does not exist")
    if s.phase == "game_over":
        if to_act:
            out.append(f"players {to_act} to act after the game is over")
    elif s.phase == "discard":
        if not to_act or any(q not in s.pending_discards for q in to_act):
            out.append(f"discard phase with players to act {to_act} and owed {s.pending_discards}")
    elif len(to_act) != 1:
        out.append(f"players to act {to_act} in phase {s.phase}")
    # the winner the rules give: only the player whose turn it is, at the target (or a scenario's end)
    if s.phase == "game_over":
        ended = scen.end_condition(s)
        vp = victory_points(s, scen, s.winner)["total"] if s.winner is not None else -1
        if s.winner is None or (ended != s.winner and (s.winner != s.current_player or vp < s.vp_target)):
            out.append(f"winner {s.winner} with {vp} VP (target {s.vp_target}, current {s.current_player})")
    elif s.phase != "setup":
        vp = victory_points(s, scen, s.current_player)["total"]
        if (vp >= s.vp_target and scen.may_win(s)) or scen.end_condition(s) is not None:
            out.append(f"player {s.current_player} has {vp} VP of {s.vp_target} and the game goes on")
    return out


#: Action types that move a game towards its end; random play prefers them when it has any (3 times in 4),
#: so games end in hundreds of actions rather than thousands. Any listed action stays possible.
PROGRESS = ("build_city", "build_settlement", "build_ship", "build_road", "buy_development_card")


def leaning(scen) -> tuple:
    """What random play leans towards in ``scen``'s game: the building types (``PROGRESS``), then what the
    game's modules declare (``PLAY_LEAN``: ``module.PlayLean`` entries, e.g. a scenario whose end is reached
    by other actions than building)."""
    return PROGRESS + tuple(scen.composition.play_lean)


def avoiding(scen) -> tuple:
    """What random play sets aside in ``scen``'s game while something else is legal: what the game's modules
    declare (``PLAY_AVOID``: ``module.PlayAvoid`` entries); none in most games."""
    return tuple(scen.composition.play_avoid)


def set_aside(la, avoid: tuple, state: Optional[State]):
    """``la`` without what the entries of ``avoid`` set aside for its player in ``state``: whole types
    (actions and ranges alike), or the listed actions an entry's ``each`` picks; ``la`` itself when nothing
    is set aside or nothing else would be left."""
    gone = {e.type for e in avoid if e.each is None and (e.type in la.actions or e.type in la.ranges)
            and (e.when is None or e.when(state, la.player))}
    picky = [e for e in avoid if e.each is not None and e.type in la.actions]
    if not gone and not picky:
        return la
    acts = {t: v for t, v in la.actions.items() if t not in gone}
    for e in picky:
        if e.type in acts:
            acts[e.type] = [a for a in acts[e.type] if not e.each(state, a)]
            if not acts[e.type]:
                del acts[e.type]
    ranges = {t: v for t, v in la.ranges.items() if t not in gone}
    if not any(acts.values()) and not any(ranges.values()):
        return la
    return LegalActions(la.player, la.players_to_act, acts, ranges)


def pick_action(la, rng: Rng, lean: tuple = PROGRESS, state: Optional[State] = None,
                avoid: tuple = ()) -> Optional[Action]:
    """A random legal action, leaning towards ``lean`` (``PROGRESS`` or :func:`leaning`): 3 times in 4, when
    some entry has legal actions, one such entry is picked uniformly, then one of its actions; an entry is an
    action type, or a ``PlayLean`` whose ``when(state, action)`` selects among that type's actions. The types
    ``avoid`` sets aside (:func:`avoiding`, :func:`set_aside`) are picked only when nothing else is legal."""
    if avoid:
        la = set_aside(la, avoid, state)
    progress = []
    for e in lean:
        if isinstance(e, str):
            if e in la.actions:
                progress.append(la.actions[e])
            continue
        acts = [a for a in la.actions.get(e.type, ()) if e.when is None or e.when(state, a)]
        if acts:
            progress.append(acts)
    if progress and rng.below(4):
        acts = progress[rng.below(len(progress))]
        return acts[rng.below(len(acts))]
    return random_action(la, rng)


def play_game(scenario_id: str, players: int, seed: int, *, max_actions: int = 3000,
              dump: Optional[Dump] = None, check: bool = True,
              on_step: Optional[Callable[[State, Action, Any], None]] = None,
              options: Optional[dict] = None) -> Game:
    """Play one seeded random game (with the game ``options``, expansions included); ``failures`` lists
    every invariant broken (empty: all held)."""
    scen = with_expansions(get_scenario(scenario_id), options, players)
    state = scen.new_game(players, seed, options) if options else scen.new_game(players, seed)
    graph = graph0 = MapGraph.build(state.terrain_map())
    game = Game(scenario_id, players, seed, state, state)
    rng = Rng(seed, 0x5EED)
    lean = leaning(scen)
    avoid = avoiding(scen)
    fail = game.failures
    before_text = dump(state) if dump else None
    while state.phase != "game_over":
        if len(game.log) >= max_actions:
            game.ended = "action cap"
            break
        to_act = players_to_act(state)
        who = to_act[rng.below(len(to_act))] if to_act else None
        la = legal_actions(state, graph, scen, who)
        action = pick_action(la, rng, lean, state, avoid)
        if action is None:
            game.ended = "no legal action"
            fail.append(f"no legal action for player {who} in phase {state.phase} after {len(game.log)} actions")
            break
        v = adjudicate(state, action, graph, scen)
        if on_step is not None:
            on_step(state, action, v)
        if not v.legal:
            fail.append(f"listed action {action} judged illegal: {[x.rule for x in v.violations]}")
            break
        if dump is not None:
            if dump(state) != before_text:
                fail.append(f"judging {action.type} changed the posted state")
            before_text = dump(v.state)
        game.log.append(action)
        state = v.state
        graph = v.graph or graph                # a reveal changes the board and so its graph
        if check:
            for f in invariants(state, graph, scen):
                fail.append(f"after action {len(game.log)} ({action.type}): {f}")
        if len(fail) > 20:
            break
    else:
        game.ended = "won"
    game.final = state
    if dump is not None and not fail:
        replayed = replay_log(game.initial, game.log, graph0, scen)
        if isinstance(replayed, str):
            fail.append(replayed)
        elif dump(replayed) != dump(state):
            fail.append("the action log replayed from the initial state does not give the final state")
    return game


def replay_log(initial: State, log: list[Action], graph: MapGraph, scen) -> State | str:
    s = initial
    for i, a in enumerate(log):
        v = adjudicate(s, a, graph, scen, with_derived=False)
        if not v.legal:
            return f"replay: action {i} ({a.type}) is illegal on replay: {[x.rule for x in v.violations]}"
        s = v.state
        graph = v.graph or graph
    return s


__all__ = ["Game", "play_game", "pick_action", "leaning", "avoiding", "set_aside", "PROGRESS", "invariants", "playable_scenarios", "replay_log"]
