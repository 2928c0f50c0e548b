"""Property: on positions reached by legal play, the legal-action list is exactly the legal set.

Every listed action (and samples of every range) adjudicates legal; sampled actions that are not listed
adjudicate illegal, scenario-specific types included (GOLD's ships and gold trades, A New World's
harbours, the development card's two GOLD prices). Runs on every registered scenario that can start a new
game, at every player count it supports, and on a Seafarers board (ships, pirate, gold field) built from
a base board.

The play is random but steered: most moves take a building or scenario action when one is listed (roads
heading for the front coast or the unexplored spaces, ships sailing to a dock), so a few hundred moves
reach ships, cargo and reveals. Listing semantics checked here: a ``sail_ship`` is listed by its
destination (one path per reachable space, per extension choice); chance outcomes (dice, drawn cards,
discoveries) are listed at their default, the seeded generator's.

``LEGAL_PROPERTY_HEAVY=1`` runs 4 seeds per case and 3 times longer games (some ten minutes).
"""
from __future__ import annotations

import collections
import dataclasses
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.core import Action
from service.engine.geometry import edge_nodes, hex_corners, hex_distance
from service.engine.legal import action_json, legal_actions, random_action, range_admits, sample_range
from service.engine.mapgraph import RESOURCES, MapGraph
from service.engine.referee import adjudicate
from service.engine.rng import Rng
from service.engine.scenarios import SCENARIOS, get_scenario
from service.engine.state import Tile

HEAVY = os.environ.get("LEGAL_PROPERTY_HEAVY", "") not in ("", "0")
#: (A scenario played only with Cities & Knights, TDE5 and TDE6, has its listing property in its own tests:
#: the C&K types have no samplers here.)
STARTABLE = sorted(sid for sid, s in SCENARIOS.items()
                   if s.has_map and "cities_and_knights" not in s.composition.modules)
SEAFARERS_BOARD = "seafarers-on-a-base-board"
CASES = [(sid, n) for sid in STARTABLE for n in SCENARIOS[sid].players] + [(SEAFARERS_BOARD, 4)]
#: Moves of play per case (``CHECKED`` positions along the way are checked); GOLD's ships need long games
#: (``test_gold_play_reaches_ships_cargo_and_gold_trades`` plays one that reaches them).
MOVES = {"GOLD": 360}
DEFAULT_MOVES = 350
GOLD_SHIPS_MOVES = 520
GOLD_SHIPS_SEEDS = (3, 4, 1, 6)
CHECKED = 32


def seafarers_game(players: int, seed: int):
    """A base board whose frame ring became sea (a new frame around it), one forest turned gold field."""
    scen = get_scenario("seafarers")
    base = get_scenario("base").new_game(players, seed)
    hexes = {}
    for h, t in base.hexes.items():
        hexes[h] = Tile("sea") if t.terrain == "frame" else t
    for q in range(-4, 5):
        for r in range(-4, 5):
            if hex_distance((0, 0), (q, r)) == 4:
                hexes[(q, r)] = Tile("frame")
    forest = next(h for h, t in sorted(base.hexes.items()) if t.terrain == "forest")
    hexes[forest] = Tile("gold", base.hexes[forest].number)
    players_ = [dataclasses.replace(p.copy(), supply=dict(scen.supply)) for p in base.players]
    state = dataclasses.replace(base, scenario="seafarers", hexes=hexes, players=players_, pirate=(0, -3))
    return state, scen


def new_position(sid: str, players: int, seed: int):
    if sid == SEAFARERS_BOARD:
        return seafarers_game(players, seed)
    scen = get_scenario(sid)
    return scen.new_game(players, seed), scen


def _key(a: Action) -> str:
    return json.dumps(action_json(a), sort_keys=True)


# -- sampling actions a careless client might post ------------------------------------------------------

def _ships(state) -> list[dict]:
    return state.scenario_state.get("ships") or []


def _walk(rnd: random.Random, graph, state) -> tuple[int, list]:
    """A ship id and a random walk of 1-4 spaces from where it lies (legal or not: any ship, any length)."""
    from service.engine.modules.gold.mnr import net_of
    ships = _ships(state)
    if not ships or rnd.random() < 0.1:
        return rnd.randrange(4), [rnd.choice(graph.edges) for _ in range(rnd.randint(1, 4))]
    sh = rnd.choice(ships)
    net, eid, path = net_of(graph), graph.edge_index[tuple(sh["edge"])], []
    for _ in range(rnd.choice((1, 1, 2, 2, 3, 4))):
        nxt = net.space_adj[eid] if rnd.random() < 0.95 else range(len(graph.edges))
        if not nxt:
            break
        eid = rnd.choice(list(nxt))
        path.append(graph.edges[eid])
    return sh["id"], path or [graph.edges[eid]]


def random_candidate(rnd: random.Random, state, graph, scen) -> Action | None:
    """Any well-formed action of a known type, legal or not (what a careless client might post)."""
    n = state.num_players
    t = rnd.choice(sorted(scen.action_types()))
    p = rnd.choice([state.current_player] * 3 + list(range(n)))
    node = lambda: rnd.choice(graph.nodes)  # noqa: E731
    edge = lambda: rnd.choice(graph.edges)  # noqa: E731
    hx = lambda: rnd.choice(sorted(state.hexes))  # noqa: E731
    cards = lambda: {r: rnd.choice((0, 0, 1, 2)) for r in RESOURCES}  # noqa: E731
    victim = lambda: rnd.choice([None] + list(range(n)))  # noqa: E731
    coins = lambda: {"gold": rnd.choice((0, 1, 2, 4))} if scen.composition.currencies else {}  # noqa: E731
    ship_id = lambda: rnd.choice([sh["id"] for sh in _ships(state)] or [0]) if rnd.random() < 0.9 \
        else rnd.randrange(6)  # noqa: E731

    def sail():
        sid, path = _walk(rnd, graph, state)
        return {"ship": sid, "path": path, "extend": rnd.choice((None, None, "wool", "cargo"))}

    def gold_trade():
        k = rnd.randint(1, 3)
        if rnd.random() < 0.5:
            get = {r: 0 for r in RESOURCES}
            for _ in range(k):
                get[rnd.choice(RESOURCES)] += 1
            return {"give": {"gold": rnd.choice((2 * k, 2 * k, k, 2 * k + 1))}, "get": get}
        give = {r: 0 for r in RESOURCES}
        for _ in range(3 * k - rnd.choice((0, 0, 0, 1))):
            give[rnd.choice(RESOURCES)] += 1
        return {"give": give, "get": {"gold": rnd.choice((k, k, k + 1))}}

    params = {
        "build_settlement": lambda: {"node": node()}, "build_city": lambda: {"node": node()},
        "build_road": lambda: {"edge": edge()}, "build_ship": lambda: {"edge": edge()},
        "roll": lambda: {"dice": None}, "end_turn": lambda: {},
        "buy_development_card": lambda: {"card": None,
                                         "price": rnd.choice((None, "grain", "gold"))
                                         if "price" in scen.composition.actions["buy_development_card"].fields else None},
        "discard": lambda: {"resources": cards()}, "play_year_of_plenty": lambda: {"resources": cards()},
        "choose_gold": lambda: {"resources": cards()},
        "move_robber": lambda: {"hex": hx(), "steal_from": victim(), "card": None},
        "move_pirate": lambda: {"hex": hx(), "steal_from": victim(), "card": None},
        "play_knight": lambda: {"hex": hx(), "steal_from": victim(), "card": None,
                                "target": rnd.choice(("robber", "pirate") if scen.pirate else ("robber",))},
        "play_monopoly": lambda: {"resource": rnd.choice(RESOURCES)},
        "maritime_trade": lambda: {"give": {rnd.choice(RESOURCES): rnd.randint(1, 8)},
                                   "get": {rnd.choice(RESOURCES): rnd.randint(1, 2)}},
        "domestic_trade": lambda: {"partner": rnd.randrange(n), "give": {**cards(), **coins()},
                                   "get": {**cards(), **coins()}, "accepted": rnd.random() < 0.9},
        "move_ship": lambda: {"from": rnd.choice(sorted(state.ships) or graph.edges), "to": edge()},
        "play_road_building": lambda: {"pieces": [{"kind": rnd.choice(("road", "ship") if scen.ships else ("road",)),
                                                   "edge": edge()} for _ in range(rnd.choice((1, 2, 2)))]},
        "place_harbor": lambda: {"edge": edge()},
        "place_pirate": lambda: {"hex": hx()},
        "sail_ship": sail,
        "load_gold": lambda: {"ship": ship_id(), "amount": rnd.choice((None, 0, 1, 2, 4, 5))},
        "unload_gold": lambda: {"ship": ship_id(), "amount": rnd.choice((None, 0, 1, 2, 4, 5))},
        "gold_trade": gold_trade,
        "steal_card": lambda: {"steal_from": victim(), "card": None},
        # TDE1/TDE2: a reward claimed (kept, resources chosen, free pieces) and a special port attached
        "claim_reward": lambda: rnd.choice((
            {"keep": True}, {}, {"resources": {rnd.choice(RESOURCES): rnd.choice((1, 2))}},
            {"pieces": [{"kind": rnd.choice(("road", "ship")), "edge": edge()} for _ in range(rnd.choice((0, 1, 2)))]})),
        "attach_special_port": lambda: {"node": node(), "resource": rnd.choice(RESOURCES), "edge": edge()},
        # WAG: a wagon's walk (mostly along paths from where it stands), drive-offs, chases, upgrades, tolls
        "move_wagon": lambda: _wagon_walk(rnd, graph, state, p),
        "drive_off_barbarian": lambda: {"hex": hx(), "to": rnd.choice((hx(), hx(), None)), "die": None},
        "chase_warship": lambda: {"owner": rnd.randrange(n), "to": rnd.choice((hx(), None)), "die": None},
        "upgrade_baggage_train": lambda: {},
        "set_toll_policy": lambda: {"payer": rnd.randrange(n), "charge": rnd.random() < 0.5},
    }
    assert t in params, f"no sampler for the action type {t!r}: add one so its listing is checked"
    a = Action(t, p, params[t]())
    if "token_from" in scen.composition.action_fields.get(t, {}) and rnd.random() < 0.3:
        a.params["token_from"] = [hx()]           # Greater Catan (SC11, TDE3): the source of a token moved
    return a


def _wagon_walk(rnd: random.Random, graph, state, p: int) -> dict:
    """A WAG wagon move, legal or not: a walk of 0-5 intersections from where the wagon stands (now and then
    anywhere), ending perhaps on a plaza or with a jump, with or without the grain."""
    from service.engine.geometry import node_neighbours
    w = (state.scenario_state.get("wagons") or {}).get(str(p)) or {}
    th = state.scenario_state.get("trade_hexes") or {}
    here = tuple(w["node"]) if w.get("node") else (hex_corners(tuple(th[w["plaza"]]))[rnd.randrange(6)]
                                                    if w.get("plaza") in th else rnd.choice(graph.nodes))
    path = [here] if not w.get("node") else []
    for _ in range(rnd.choice((0, 1, 1, 2, 2, 3, 4, 5))):
        nb = [m for m in node_neighbours(here) if m in graph.node_index]
        here = rnd.choice(nb) if nb and rnd.random() < 0.95 else rnd.choice(graph.nodes)
        path.append(here)
    end = rnd.random()
    plaza = rnd.choice(sorted(th)) if end < 0.3 and th else None
    jump = rnd.choice(sorted(state.buildings) or graph.nodes) if 0.3 <= end < 0.4 else None
    return {"path": path, "plaza": plaza, "jump": jump, "grain": rnd.random() < 0.2, "draw": None}


def wagon_covered(la, a: Action, state, graph) -> bool:
    """A ``move_wagon`` is listed by destination (one cheapest plan per plaza, jump landing or intersection
    reached, per grain choice): a move is covered when it is legal (its path's cost is the step-cost
    function's, which no relation here restates) and the listed ones hold its destination and grain choice;
    every listed plan is itself adjudicated legal above."""
    scen = get_scenario(state.scenario)
    if not adjudicate(state, a, graph, scen, with_derived=False).legal:
        return False
    def dest(x):
        path = x.get("path") or []
        return (("plaza", x.get("plaza")) if x.get("plaza") else ("jump", tuple(x.get("jump"))) if x.get("jump")
                else ("node", tuple(path[-1])) if path else ("grain",), bool(x.get("grain")))
    return dest(a) in {dest(x) for x in la.actions.get("move_wagon", [])}


def sail_covered(la, a: Action, state, graph) -> bool:
    """A ``sail_ship`` is listed by destination (one shortest path per reachable space and extension
    choice): another path there is covered when it is a walk over adjacent spaces (R-031) within the
    ship's allowance left (GOLD-024..026)."""
    from service.engine.modules.gold.actions import BASE_MOVE, EXTRA_MOVE, find_ship, ship_edge
    from service.engine.modules.gold.mnr import spaces_adjacent
    same = [x for x in la.actions.get("sail_ship", []) if x.get("ship") == a.get("ship")
            and x.get("extend") == a.get("extend") and tuple(x.get("path")[-1]) == tuple(a.get("path")[-1])]
    if not same:
        return False
    sh = find_ship(state, a.get("ship"))
    extended = bool(sh.get("extended")) or a.get("extend") is not None
    left = BASE_MOVE + (EXTRA_MOVE if extended else 0) - int(sh.get("moved", 0))
    steps = [ship_edge(sh)] + [tuple(e) for e in a.get("path")]
    return len(a.get("path")) <= left and all(spaces_adjacent(graph, x, y) for x, y in zip(steps, steps[1:]))


def listed(la, a: Action, state=None, graph=None) -> bool:
    if a.type in la.ranges and any(range_admits(a.type, spec, a) for spec in la.ranges[a.type]):
        return True
    if a.type in la.ranges and a.type not in la.actions:
        return False
    if a.type == "sail_ship":
        return sail_covered(la, a, state, graph)
    if a.type == "move_wagon":
        return wagon_covered(la, a, state, graph)
    return _key(a) in {_key(x) for x in la.actions.get(a.type, [])}


def check_position(state, graph, scen, rnd: random.Random, rng: Rng, samples: int = 12) -> set[str]:
    """Asserts the property on one position; returns the action types listed there."""
    la = legal_actions(state, graph, scen)
    for acts in la.actions.values():
        for a in acts:
            v = adjudicate(state, a, graph, scen, with_derived=False)
            assert v.legal, (action_json(a), v.violations)
    for specs in la.ranges.values():
        for spec in specs:
            for a in [sample_range(spec, rng) for _ in range(2)]:
                v = adjudicate(state, a, graph, scen, with_derived=False)
                assert v.legal, (spec, action_json(a), v.violations)
    by_player = {la.player: la}
    for _ in range(samples):
        a = random_candidate(rnd, state, graph, scen)
        if a.player not in by_player:
            by_player[a.player] = legal_actions(state, graph, scen, a.player)
        v = adjudicate(state, a, graph, scen, with_derived=False)
        assert v.legal == listed(by_player[a.player], a, state, graph), (
            "legal but not listed" if v.legal else "listed but illegal", action_json(a), v.violations)
    return set(la.actions) | set(la.ranges)


# -- steered play --------------------------------------------------------------------------------------

#: Types taken first when listed (most moves), in this order.
PRIORITY = ("unload_gold", "load_gold", "place_harbor", "build_ship", "sail_ship", "build_city", "build_settlement",
            "move_ship", "build_road", "play_road_building")


def target_distance(state, graph) -> dict[int, int]:
    """Road steps from each node to the nearest goal: GOLD's front coast, or an unexplored space."""
    goals = {tuple(x) for x in state.scenario_state.get("front_coast") or []}
    for h, t in state.hexes.items():
        if t.terrain == "unknown":
            goals.update(hex_corners(h))
    start = [graph.node_index[n] for n in goals if n in graph.node_index]
    dist = {i: 0 for i in start}
    dq = collections.deque(start)
    while dq:
        x = dq.popleft()
        for y in graph.node_neighbour_ids[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                dq.append(y)
    return dist


def steered_action(la, state, graph, scen, rng: Rng, rnd: random.Random) -> Action | None:
    if rnd.random() < 0.3:
        return random_action(la, rng)
    for t in PRIORITY:
        acts = la.actions.get(t)
        if not acts:
            continue
        if t in ("build_road", "build_settlement", "build_ship", "move_ship"):
            dist = target_distance(state, graph)
            if dist:
                def score(a):
                    ns = [a.get("node")] if t == "build_settlement" else edge_nodes(a.get("edge") or a.get("to"))
                    return min(dist.get(graph.node_index.get(n), 99) for n in ns)
                best = min(score(a) for a in acts)
                acts = [a for a in acts if score(a) == best]
        elif t == "sail_ship":
            from service.engine.modules.gold.actions import dock_of, find_ship
            def docks(a):
                sh = dict(find_ship(state, a.get("ship")), edge=list(a.get("path")[-1]))
                return dock_of(graph, sh) == ("home" if sh.get("cargo") else "gold") and a.get("extend") is None
            acts = [a for a in acts if docks(a)] or acts
        return acts[rnd.randrange(len(acts))]
    return random_action(la, rng)


def play_and_check(sid: str, players: int, seed: int, moves: int, checked: int) -> set[str]:
    state, scen = new_position(sid, players, seed)
    graph = MapGraph.build(state.terrain_map())
    rng, rnd = Rng(seed, 0), random.Random(seed)                 # the play
    check_rng, check_rnd = Rng(seed ^ 0x5EED, 0), random.Random(~seed)  # the checks (the play does not depend on them)
    seen: set[str] = set()
    every = max(1, moves // checked)
    for step in range(moves):
        if step % every == 0 or step == moves - 1:
            seen |= check_position(state, graph, scen, check_rnd, check_rng)
        la = legal_actions(state, graph, scen)
        seen |= set(la.actions) | set(la.ranges)
        a = steered_action(la, state, graph, scen, rng, rnd)
        if a is None:
            break
        v = adjudicate(state, a, graph, scen, with_derived=False)
        assert v.legal, (action_json(a), v.violations)
        state = v.state
    return seen


@pytest.mark.parametrize("sid,players", CASES, ids=[f"{s}-{n}p" for s, n in CASES])
@settings(max_examples=4 if HEAVY else 1, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_listed_actions_adjudicate_legal_and_unlisted_ones_illegal(sid, players, seed):
    moves = MOVES.get(sid, DEFAULT_MOVES) * (3 if HEAVY else 1)
    play_and_check(sid, players, seed, moves, CHECKED * (3 if HEAVY else 1))


@pytest.mark.parametrize("players", [3, 4])
def test_gold_play_reaches_ships_cargo_and_gold_trades(players):
    """A longer GOLD game reaches the scenario's own actions, so the property is checked on positions with
    ships, cargo and gold trades. Which seeded game gets there depends on the listing (R-124 added robber
    moves without a victim, which changes the steered path), so a few seeds are tried, in order, until one
    game alone reaches them all; most games do, within the move budget."""
    want = {"build_ship", "sail_ship", "load_gold", "unload_gold", "gold_trade"}
    tried = {}
    for seed in GOLD_SHIPS_SEEDS:
        seen = play_and_check("GOLD", players, seed, GOLD_SHIPS_MOVES, CHECKED // 2)
        tried[seed] = sorted(want - seen)
        if want <= seen:
            break
    assert want <= seen, f"no seeded game reached every GOLD action; missing per seed: {tried}"


def test_a_new_world_lists_harbours_first():
    seen = play_and_check("SC08", 3, 5, 12, 12)
    assert "place_harbor" in seen


def test_greater_catan_lists_each_token_source_once_the_reserve_is_empty():
    """SC11-009: with the reserve empty the placer picks the mainland hex a token comes from (``token_from``):
    each allowed source is its own listed action, and a source nothing takes is refused."""
    from .test_scenarios_sc06_11 import give
    from .test_scenarios_sc06_11_routes import coastal_mainland_settlement, ship_to_island, small_island_state
    scen, st = small_island_state([])
    coastal_mainland_settlement(st, 0)
    edge, _ = ship_to_island(st, 0)
    give(st, 0, lumber=1, wool=1)
    graph = MapGraph.build(st.terrain_map())
    la = legal_actions(st, graph, scen)
    ships = [a for a in la.actions["build_ship"] if a.get("edge") == edge]
    sources = [a.get("token_from") for a in ships if a.get("token_from")]
    assert len(ships) == len(sources) + 1 and sources                  # the default and each allowed source
    for a in ships:
        assert adjudicate(st, a, graph, scen, with_derived=False).legal
    triggering = {a.get("edge") for a in la.actions["build_ship"] if a.get("token_from")}
    other = next(a for a in la.actions["build_ship"] if a.get("edge") not in triggering)
    v = adjudicate(st, Action("build_ship", 0, {**other.params, "token_from": sources[0]}), graph, scen)
    assert not v.legal and v.violations[0].rule == "SC11-009"
    rnd, rng = random.Random(3), Rng(3, 0)
    check_position(st, graph, scen, rnd, rng, samples=40)


def _posted(raw: dict):
    from service.api.service import parse_state
    from service.cache import GraphCache
    return parse_state(raw, GraphCache())


def _tde_positions():
    """Treasures, Dragons & Explorers positions where the scenarios' own action types are listed: a reward
    owed (TDE1, TDE2), a special port owed (TDE2), dragons on the board and a knight in hand (TDE4), a 7's
    card to take (TDE4), an empty token reserve (TDE3: each ``token_from`` source)."""
    from .test_tde3_greater_catan import small_state
    from .test_tde4_desert_dragons import FULL, position
    from .test_tde_treasures import post
    owed = [{"player": 0, "kind": kind, "count": 2, "source": "board", "rule": "TDE1-011"}
            for kind in ("roads_ships", "resources")]
    yield "TDE1 reward", _posted(post("TDE1", ss={"pending": owed}))
    yield "TDE2 port", _posted(post("TDE2", ss={"kept": {"0": 2, "1": 0, "2": 0}}))
    yield "TDE4 knight", _posted(position(dev={0: {"knight": 1}}, **dict(FULL, dragons=[[1, 3], [2, 2]],
                                                                          desert_dragons={"1,2": 6, "2,3": 5, "0,4": 5})))
    st = position(phase="robber", hands={0: {"ore": 1}, 1: {"wool": 2}, 2: {}})
    st["turn_flags"] = {"rolled": True}
    st["last_roll"] = [3, 4]
    yield "TDE4 seven", _posted(st)
    s3 = small_state([])
    yield "TDE3 token_from", (s3, MapGraph.build(s3.terrain_map()))


@pytest.mark.parametrize("case", ["TDE1 reward", "TDE2 port", "TDE4 knight", "TDE4 seven", "TDE3 token_from"])
def test_the_tde_action_types_are_listed_exactly_when_legal(case):
    """TDE1-012 / TDE2-015..018 / TDE3-010 / TDE4-008 / TDE4-021: on positions where the scenarios' own action
    types (claim_reward, attach_special_port, play_knight on a dragon, steal_card, token_from) are listed,
    every listed one adjudicates legal and sampled ones of the same types (legal or not) are legal exactly
    when listed."""
    state, graph = dict(_tde_positions())[case]
    scen = get_scenario(state.scenario)
    own = {"TDE1 reward": "claim_reward", "TDE2 port": "attach_special_port", "TDE4 knight": "play_knight",
           "TDE4 seven": "steal_card", "TDE3 token_from": "build_ship"}[case]
    rnd, rng = random.Random(case), Rng(7, 0)
    la = legal_actions(state, graph, scen)
    assert la.actions.get(own), (case, sorted(la.actions))
    check_position(state, graph, scen, rnd, rng, samples=20)
    by_player: dict = {}
    tried = 0
    for _ in range(4000):
        a = random_candidate(rnd, state, graph, scen)
        if a.type != own:
            continue
        tried += 1
        if a.player not in by_player:
            by_player[a.player] = legal_actions(state, graph, scen, a.player)
        v = adjudicate(state, a, graph, scen, with_derived=False)
        assert v.legal == listed(by_player[a.player], a, state, graph), (
            "legal but not listed" if v.legal else "listed but illegal", action_json(a), v.violations)
        if tried >= 40:
            break
    assert tried >= 40
