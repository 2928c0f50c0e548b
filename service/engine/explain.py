"""The reasoning behind the derived values, in plain words (asked for with ``explain=true``).

Victory points listed per building, card and token; each player's longest road / trade route with its
witness trail and the rules that shape it; why the Longest Road and Largest Army cards lie where they
lie; why there is (or is not) a winner.

>>> from service.engine.scenarios import get_scenario
>>> from service.engine.mapgraph import MapGraph
>>> scen = get_scenario("base")
>>> s = scen.new_game(3, seed=7)
>>> ex = explain(s, MapGraph.build(s.terrain_map()), scen)
>>> ex["victory_points"]["0"]["total"], ex["longest_road"]["holder"]
(0, None)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .derive import route_lengths, victory_points
from .geometry import edge_str, node_str
from .mapgraph import MapGraph
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario


def _vp(state: State, scenario: "Scenario", p: int) -> dict[str, Any]:
    vp = victory_points(state, scenario, p)
    items: list[dict[str, Any]] = []
    for node, (owner, kind) in sorted(state.buildings.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        if owner == p:
            pts = 2 if kind == "city" else 1
            items.append({"source": kind, "node": list(node), "points": pts,
                          "why": f"a {kind} on {node_str(node)} is worth {pts} (BASE-VP-1..3 table)"})
    if vp.get("longest_road"):
        items.append({"source": "longest_road", "points": vp["longest_road"],
                      "why": f"player {p} holds the Longest Road / Trade Route card (BASE-LR-3)"})
    if vp.get("largest_army"):
        items.append({"source": "largest_army", "points": vp["largest_army"],
                      "why": f"player {p} holds the Largest Army card (BASE-LA-1)"})
    if vp.get("victory_point_cards"):
        n = vp["victory_point_cards"]
        items.append({"source": "victory_point_cards", "points": n,
                      "why": f"{n} Victory Point development card{'s' if n != 1 else ''}, 1 each (BASE-DEV-9)"})
    if vp.get("special"):
        under = [{"node": list(n), "count": c} for n, c in sorted(state.svp_attached.items())
                 if state.building_owner(n) == p]
        items.append({"source": "special", "points": vp["special"], "under": under,
                      "why": f"{vp['special']} special victory point token{'s' if vp['special'] != 1 else ''} "
                             "(SEA-019), each worth 1"})
    known = {"settlements", "cities", "longest_road", "largest_army", "victory_point_cards", "special", "total"}
    for k, v in vp.items():
        if k not in known and v:
            items.append({"source": k, "points": v, "why": f"{v} from the scenario's own source {k!r}"})
    return {"total": vp["total"], "sources": items,
            "why": f"player {p} has {vp['total']} victory points: " +
                   (", ".join(f"{i['points']} for {i['source'].replace('_', ' ')}" for i in items) or "none yet")}


def _route(state: State, scenario: "Scenario", p: int, length: int, path: list) -> dict[str, Any]:
    pieces = scenario.route_pieces(state, p)
    kinds = "roads and ships" if scenario.ships else "roads"
    text = (f"player {p}'s longest unbroken trail of their own {kinds} is {length} long "
            f"(out of {len(pieces)} piece{'s' if len(pieces) != 1 else ''} on the board; BASE-LR-1: no path "
            "counted twice, branches do not add up)")
    if length:
        text += "; witness: " + " -> ".join(edge_str(e) for e in path)
    text += "; an opponent's building breaks a trail (BASE-LR-2)"
    if scenario.ships:
        text += "; a road and a ship continue each other only at the player's own settlement or city (SEA-022)"
    return {"length": length, "pieces": len(pieces), "path": [list(e) for e in path], "why": text}


def _award_text(lengths: dict[int, int], holder: Optional[int], minimum: int) -> str:
    best = max(lengths.values(), default=0)
    leaders = sorted(p for p, n in lengths.items() if n == best)
    if holder is None:
        if best < minimum:
            return (f"nobody holds the card: the longest route is {best}, short of the {minimum} needed "
                    "(BASE-LR-3, BASE-LR-6)")
        return (f"nobody holds the card: players {leaders} tie for the longest route ({best}) and none "
                "held it before (BASE-LR-6)")
    h = lengths.get(holder, 0)
    if h == best and len(leaders) == 1:
        return f"player {holder} holds the card with the one longest route, {h} (at least {minimum}; BASE-LR-3)"
    if h == best:
        return (f"player {holder} keeps the card: others tie at {best} but a tie does not take it from the "
                "holder (BASE-LR-4)")
    return (f"player {holder} is recorded as holder with a route of {h} while the longest is {best}; the card "
            "moves on the next placement (BASE-LR-5)")


def _army_text(knights: list[int], holder: Optional[int]) -> str:
    best = max(knights, default=0)
    if holder is None:
        if best < 3:
            return f"nobody holds Largest Army: the most knights played is {best}, fewer than 3 (BASE-LA-1)"
        return f"nobody holds Largest Army: {best} knights are played by more than one player (BASE-LA-2)"
    return (f"player {holder} holds Largest Army with {knights[holder]} knights played (at least 3, and only "
            "strictly more takes it away; BASE-LA-1/2)")


def _winner_text(state: State, vps: dict[int, int]) -> str:
    if state.winner is not None:
        return (f"player {state.winner} has won: they reached {vps[state.winner]} of the {state.vp_target} "
                "victory points needed on their own turn (BASE-VP-1/2)")
    best = max(vps.values(), default=0)
    return (f"no winner yet: the most victory points is {best}, the target is {state.vp_target}; only the "
            "player whose turn it is can win, on reaching the target (BASE-VP-2)")


#: What the base and Seafarers VP sources are, in words (the modules name their own sources).
_SOURCE_WORDS = {"settlements": "settlements (1 each, BASE-VP-1..3 table)", "cities": "cities (2 each)",
                 "longest_road": "the Longest Road / Trade Route card (BASE-LR-3)",
                 "largest_army": "the Largest Army card (BASE-LA-1)",
                 "victory_point_cards": "Victory Point cards (BASE-DEV-9)",
                 "special": "special victory point tokens (SEA-019)"}


def vp_by_source(state: State, scenario: "Scenario", words: dict[str, str]) -> dict[str, Any]:
    """Each player's victory points by source, every source said in words: ``words`` names a module's own
    sources (and may rename a base one, e.g. Catan chips for ``special``); for a module's explanations."""
    out: dict[str, Any] = {}
    said = {**_SOURCE_WORDS, **words}
    for p in range(state.num_players):
        vp = victory_points(state, scenario, p)
        sources = {k: v for k, v in vp.items() if k != "total" and v}
        parts = [f"{v} for {said.get(k, k.replace('_', ' '))}" for k, v in sources.items()]
        out[str(p)] = {"total": vp["total"], "sources": sources,
                       "why": f"player {p} has {vp['total']} of the {state.vp_target} VP needed: "
                              + (", ".join(parts) or "none yet")}
    return out


def explain(state: State, graph: MapGraph, scenario: "Scenario") -> dict[str, Any]:
    """The derived values of ``state``, each with the reasoning that gives it."""
    routes = route_lengths(state, graph, scenario)
    vps = {p: _vp(state, scenario, p) for p in range(state.num_players)}
    knights = [pl.knights_played for pl in state.players]
    return {
        "victory_points": {str(p): v for p, v in vps.items()},
        "routes": {str(p): _route(state, scenario, p, n, path) for p, (n, path) in routes.items()},
        "longest_road": {"holder": state.longest_road_holder, "minimum": scenario.route_minimum,
                         "why": _award_text({p: n for p, (n, _) in routes.items()}, state.longest_road_holder,
                                            scenario.route_minimum)},
        "largest_army": {"holder": state.largest_army_holder, "knights": {str(i): k for i, k in enumerate(knights)},
                         "why": _army_text(knights, state.largest_army_holder)},
        "winner": {"player": state.winner, "why": _winner_text(state, {p: v["total"] for p, v in vps.items()})},
        # What the game's modules explain of their own rules (a scenario's tokens, an expansion's attack...).
        "modules": scenario.explain_extra(state, graph),
    }
