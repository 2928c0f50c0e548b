"""Perft (``engine/perft.py``, ``POST /v1/perft``, ``docs/perft.md``).

- The published set-up tables: the first depths of every row of ``tests/fixtures/perft_tables.json``
  (written by ``bench/perft_tables.py``) are counted again.
- perft(1) of a position is the number of actions ``POST /v1/legal-actions`` describes, ranges counted:
  on positions of seeded random games of several scenarios (C&K and GOLD included), each range of the
  engine's types counted again by brute force (every hand within its caps, kept when ``range_admits``
  takes it), a module's ranges by their members, each member inside its range and a sample of them legal.
- Chance: the roll's outcomes are the 36 dice pairs, each counted as the roll posted with those dice; a
  theft's outcomes are the kinds the victim holds.
- Transpositions change no count; the posted state is not changed; the work is checked before a count
  starts (a 422 naming ``/depth`` and the largest depth that fits).
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.core import Action
from service.engine.legal import is_legal, legal_actions, range_admits
from service.engine.legal.counting import count_cards, domestic_count, range_count, range_members
from service.engine.mapgraph import MapGraph
from service.engine.module import RANGE_KINDS
from service.engine.perft import Uncountable, list_size, outcomes, perft, position_key
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario, with_expansions
from service.engine.selfplay import play_game

TABLE = json.loads((Path(__file__).parent / "fixtures" / "perft_tables.json").read_text(encoding="utf-8"))
CK = "cities_and_knights"
#: The depths of each row counted again here: 1, 2 and those making at most this many legal-action lists.
MAX_LISTS = 250


def _start(sid: str, n: int, options: dict, seed: int):
    scen = with_expansions(get_scenario(sid), options or None, n)
    state = scen.new_game(n, seed, options) if options else scen.new_game(n, seed)
    return state, MapGraph.build(state.terrain_map()), scen


def _row_id(row: dict) -> str:
    return f"{row['scenario']}/{row['players']}" + ("+ck" if row["options"].get(CK) else "")


def test_every_scenario_and_player_count_has_a_row():
    from service.engine.selfplay import playable_scenarios
    rows = {(r["scenario"], r["players"]) for r in TABLE["rows"]}
    assert set(playable_scenarios()) <= rows
    assert all(len(r["counts"]) >= 2 for r in TABLE["rows"])


@pytest.mark.parametrize("row", TABLE["rows"], ids=_row_id)
def test_published_setup_counts_hold(row):
    state, graph, scen = _start(row["scenario"], row["players"], row["options"], row["seed"])
    for d, expected in enumerate(row["counts"], start=1):
        if d > 2 and 1 + sum(row["counts"][:d - 1]) > MAX_LISTS:   # the lists a count of depth d makes
            break
        assert perft(state, graph, scen, d).count == expected, f"perft({d})"


def test_base_setup_counts_match_the_independent_count():
    """bench/perft_catanatron.py counted the base game's set-up with another engine (catanatron 3.2.1):
    54, 144, 7236, 19248, 897180 for 3 and for 4 players (the set-up's first round depends on the board's
    shape only). The table holds the same, and the engine counts the first depths again on another board."""
    theirs = [54, 144, 7236, 19248, 897180]
    for row in TABLE["rows"]:
        if row["scenario"] == "base" and not row["options"] and row["players"] <= 4:
            assert row["counts"][:5] == theirs[:len(row["counts"])]
    state, graph, scen = _start("base", 4, {}, 99)
    assert [perft(state, graph, scen, d).count for d in (1, 2, 3)] == theirs[:3]


# -- perft(1) is the legal-action list's size ---------------------------------------------------------

GAMES = [("base", 3, None, 3), ("base", 4, {CK: True}, 5), ("SC01", 4, None, 2), ("GOLD", 3, None, 4),
         ("DIAM", 4, None, 6), ("TDE1", 3, None, 7), ("SC08", 3, None, 8), ("TDE5", 3, None, 9)]
EVERY = 9
ACTIONS = 160


def _positions(sid, n, options, seed):
    scen = with_expansions(get_scenario(sid), options)
    out = []

    def on_step(state, action, verdict):
        if len(out) < 200:
            out.append(state)

    play_game(sid, n, seed, max_actions=ACTIONS, check=False, on_step=on_step, options=options)
    return scen, out[::EVERY][1:]


def _hands(side: dict):
    kinds = list(side["at_most"])
    for counts in itertools.product(*[range(side["at_most"][k] + 1) for k in kinds]):
        yield dict(zip(kinds, counts))


def _brute_size(side: dict) -> int:
    n = 1
    for c in side["at_most"].values():
        n *= c + 1
    return n


def _brute(spec: dict, p: int):
    """The actions inside an engine range, by trying every hand within the caps (None when too many)."""
    t = spec["type"]
    if t == "domestic_trade":
        if _brute_size(spec["give"]) * _brute_size(spec["get"]) > 40_000:
            return None
        n = 0
        for give in _hands(spec["give"]):
            for get in _hands(spec["get"]):
                a = Action(t, p, {"partner": spec["partner"], "give": give, "get": get, "accepted": True})
                n += range_admits(t, spec, a)
        return n
    if _brute_size(spec["resources"]) > 40_000:
        return None
    return sum(range_admits(t, spec, Action(t, p, {"resources": h})) for h in _hands(spec["resources"]))


def _ranges_counted(listed, state, graph, scen) -> tuple[int, int]:
    """(number of ranges, members of them all) of a listing, each range's count checked against a brute
    force (engine ranges) or its members (module ranges) where that is cheap."""
    ranged = members = 0
    for t, group in listed["ranges"].items():
        kind = RANGE_KINDS.get(t)
        for spec in group:
            ranged += 1
            counted = range_count(spec, state, graph, scen)
            if kind is None:
                brute = _brute(spec, listed["player"])
                if brute is not None:
                    assert counted == brute, spec
            if counted <= 3000:
                assert _members_checked(state, graph, scen, spec, bool(kind and kind.positional)) == counted
            members += counted
    return ranged, members


def _members_checked(state, graph, scen, spec, positional):
    members = list(range_members(spec, state, graph, scen))
    keys = [json.dumps(a.params, sort_keys=True, default=str) for a in members]
    assert len(set(keys)) == len(keys), "a member listed twice"
    for a in members:
        args = (state, graph, scen) if positional else ()
        assert range_admits(spec["type"], spec, a, *args)
    for a in members[:: max(1, len(members) // 12)]:
        assert is_legal(state, a, graph, scen), a
    return len(members)


def _check_perft1(client, state, scen) -> int:
    """perft(1) over HTTP against the legal-action list over HTTP, ranges counted again independently
    (by brute force, or by their members); the number of ranges met."""
    from service.api.codec import dump_state
    graph = MapGraph.build(state.terrain_map())
    body = {"state": dump_state(state)}
    listed = client.post("/v1/legal-actions", json=body).get_json()
    answer = client.post("/v1/perft", json={**body, "depth": 1})
    assert answer.status_code == 200, answer.get_json()
    ranged, members = _ranges_counted(listed, state, graph, scen)
    size = listed["count"] + members
    assert answer.get_json()["count"] == size
    assert answer.get_json()["player"] == listed["player"]
    return ranged


@pytest.mark.parametrize("sid,n,options,seed", GAMES, ids=[f"{g[0]}/{g[1]}{'+ck' if g[2] else ''}" for g in GAMES])
def test_perft1_is_the_size_of_the_legal_action_list(client, sid, n, options, seed):
    scen, positions = _positions(sid, n, options, seed)
    assert len(positions) >= 10
    ranged = sum(_check_perft1(client, state, scen) for state in positions)
    assert ranged or sid in ("SC01", "SC08", "DIAM", "TDE1", "TDE5")


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), step=st.integers(0, 150))
def test_perft1_is_the_size_of_the_legal_action_list_anywhere(game, seed, step):
    """The same on positions drawn at random: any scenario of the list, seed and step of its game."""
    from service.api import create_app
    sid, n, options, _ = game
    states = []
    play_game(sid, n, seed, max_actions=step + 1, check=False, options=options,
              on_step=lambda s, a, v: states.append(s))
    client = create_app({"TESTING": True}).test_client()
    _check_perft1(client, states[-1], with_expansions(get_scenario(sid), options))


def test_domestic_count_by_hand():
    # 1 brick to give, 2 wool to get: give 1 brick, get 1 or 2 wool
    assert domestic_count({"give": {"at_least": 1, "at_most": {"brick": 1}},
                           "get": {"at_least": 1, "at_most": {"wool": 2}}}) == 2
    # the same kind on both sides: give brick or get brick, never both, each side at least one card
    spec = {"give": {"at_least": 1, "at_most": {"brick": 1, "ore": 1}},
            "get": {"at_least": 1, "at_most": {"brick": 1, "ore": 1}}}
    assert domestic_count(spec) == 2     # brick for ore, ore for brick
    assert count_cards({"total": 7, "at_most": {"a": 3, "b": 3}}) == 0
    assert count_cards({"multiple_of": 3, "at_least": 3, "total_at_most": 6, "at_most": {"a": 6}}) == 2


# -- chance ------------------------------------------------------------------------------------------

def _main_before_roll(sid="base", n=3, seed=11):
    found = []

    def on_step(state, action, verdict):
        if not found and state.phase == "roll" and state.turn > 3:
            found.append(state)

    play_game(sid, n, seed, max_actions=200, check=False, on_step=on_step)
    return found[0]


def test_a_roll_branches_on_every_dice_pair():
    scen = get_scenario("base")
    state = _main_before_roll()
    graph = MapGraph.build(state.terrain_map())
    r = perft(state, graph, scen, 2, divide=True)
    (roll,) = [row for row in r.divide if row["action"]["type"] == "roll"]
    assert len(roll["outcomes"]) == 36
    by_dice = {}
    for o in roll["outcomes"]:
        (ev,) = [e for e in o["events"] if e["type"] == "rolled"]
        by_dice[tuple(ev["dice"])] = o["count"]
    assert len(by_dice) == 36
    p = state.current_player
    for dice, count in by_dice.items():
        v = adjudicate(state, Action("roll", p, {"dice": list(dice)}), graph, scen)
        assert v.legal
        assert count == list_size(legal_actions(v.state, graph, scen))
    assert roll["count"] == sum(by_dice.values())
    assert r.count == sum(row["count"] for row in r.divide)


def test_a_theft_branches_on_every_kind_the_victim_holds():
    scen = get_scenario("base")
    seen = 0
    for seed in range(20, 40):
        states = []
        play_game("base", 3, seed, max_actions=200, check=False,
                  on_step=lambda s, a, v: states.append(s) if s.phase == "robber" else None)
        for state in states[:3]:
            graph = MapGraph.build(state.terrain_map())
            for acts in legal_actions(state, graph, scen).actions.values():
                for a in acts:
                    victim = a.get("steal_from")
                    if victim is None:
                        continue
                    kinds = [k for k, c in state.players[victim].resources.items() if c > 0]
                    outs = outcomes(state, a, graph, scen)
                    assert len(outs) == max(1, len(kinds))
                    if len(kinds) > 1:
                        seen += 1
        if seen >= 3:
            break
    assert seen >= 3


# -- transpositions, the posted state, the work checked first ---------------------------------------

def test_transpositions_change_no_count():
    state = _main_before_roll(seed=13)
    scen = get_scenario("base")
    graph = MapGraph.build(state.terrain_map())
    before = position_key(state)
    with_table = perft(state, graph, scen, 3)
    without = perft(state, graph, scen, 3, transpositions=False)
    assert with_table.count == without.count
    assert without.work.transpositions == 0
    assert position_key(state) == before
    setup, g, s = _start("base", 3, {}, 1)
    assert perft(setup, g, s, 3).count == perft(setup, g, s, 3, transpositions=False).count


def test_a_depth_over_the_budget_is_refused_before_it_starts(client):
    state = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    posted = json.dumps(state, sort_keys=True)
    r = client.post("/v1/perft", json={"state": state, "depth": 12})
    assert r.status_code == 422
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/depth"
    fits = int(err["detail"].rsplit("largest depth that fits is ", 1)[1])
    assert 3 <= fits < 12
    ok = client.post("/v1/perft", json={"state": state, "depth": 3, "divide": True}).get_json()
    assert ok["count"] == 7236 and sum(row["count"] for row in ok["divide"]) == 7236
    assert len(ok["divide"]) == 54
    assert json.dumps(state, sort_keys=True) == posted


@pytest.mark.parametrize("body,pointer", [
    ({"depth": 1}, "/state"),
    ({"depth": -1}, "/depth"),
    ({"depth": 17}, "/depth"),
    ({"depth": True}, "/depth"),
    ({"depth": 1, "divide": "yes"}, "/divide"),
    ({"depth": 1, "extra": 1}, "/extra"),
])
def test_bad_requests_name_the_field(client, body, pointer):
    state = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    if pointer != "/state":
        body = {"state": state, **body}
    r = client.post("/v1/perft", json=body)
    assert r.status_code == 422
    assert r.headers["Content-Type"].startswith("application/problem+json")
    assert any(e["pointer"] == pointer for e in r.get_json()["errors"])


def test_uncountable_is_a_value_error_naming_where():
    e = Uncountable("x")
    assert isinstance(e, ValueError) and e.where == "/state"


# -- every kind of range met in play ------------------------------------------------------------------

#: (scenario, players, options, seed, step of the seeded game, range type, card): a position whose list
#: holds that kind of range, found by playing the seeded game (the step is where it was met first; when a
#: change of the rules or of random play moves it, :func:`_with_range` looks through the game for it).
RANGE_CASES = [
    ("base", 4, {CK: True}, 5, 112, "play_progress", "commercial_harbor"),
    ("base", 4, {CK: True}, 5, 33, "discard_cards", None),
    ("TDE5", 4, None, 2, 158, "play_progress", "wedding"),
    ("TDE5", 4, None, 2, 345, "play_progress", "saboteur"),
    ("base", 3, None, 4, 85, "play_year_of_plenty", None),
    ("base", 3, None, 4, 194, "discard", None),
    ("SC01", 3, None, 3, 50, "discard", None),
]


def _at_step(sid, n, options, seed, step):
    states = []
    play_game(sid, n, seed, max_actions=step + 1, check=False, options=options,
              on_step=lambda s, a, v: states.append(s))
    return with_expansions(get_scenario(sid), options), states[step]


def _with_range(sid, n, options, seed, step, type_, card):
    """The position at ``step`` of the seeded game if its list holds a range of ``type_`` (and ``card``),
    else the first position of the game (up to twice as long) whose list does."""
    scen = with_expansions(get_scenario(sid), options)
    for s_ in range(seed, seed + 6):      # (the next seeds when the game no longer meets it)
        states = []
        play_game(sid, n, s_, max_actions=max(2 * step, 400), check=False, options=options,
                  on_step=lambda s, a, v: states.append(s))
        order = ([step] if step < len(states) else []) + [i for i in range(len(states)) if i != step]
        for i in order:
            state = states[i]
            ranges = legal_actions(state, MapGraph.build(state.terrain_map()), scen).to_json().get("ranges", {})
            if any(r.get("card") == card for r in ranges.get(type_, [])):
                return scen, state, i
    pytest.fail(f"no position with a range of {type_} {card or ''} in seeded games of {sid}/{n}")


@pytest.mark.parametrize("sid,n,options,seed,step,type_,card", RANGE_CASES,
                         ids=[f"{c[0]}-{c[5]}-{c[6] or ''}" for c in RANGE_CASES])
def test_perft1_counts_every_kind_of_range(client, sid, n, options, seed, step, type_, card):
    from service.api.codec import dump_state
    scen, state, step = _with_range(sid, n, options, seed, step, type_, card)
    graph = MapGraph.build(state.terrain_map())
    body = {"state": dump_state(state)}
    listed = client.post("/v1/legal-actions", json=body).get_json()
    specs = [s for s in listed["ranges"].get(type_, []) if s.get("card") == card]
    assert specs, f"no range of {type_} {card or ''} at step {step}"
    size = listed["count"] + _ranges_counted(listed, state, graph, scen)[1]
    assert client.post("/v1/perft", json={**body, "depth": 1}).get_json()["count"] == size
    two = client.post("/v1/perft", json={**body, "depth": 2, "divide": True}).get_json()
    assert two["count"] == sum(row["count"] for row in two["divide"])
    rows = [row for row in two["divide"] if "range" in row and row["range"]["type"] == type_]
    assert len(rows) == len(listed["ranges"][type_])


def test_a_range_perft_cannot_count_is_refused_naming_the_state(client, monkeypatch):
    import dataclasses
    from service.api.codec import dump_state
    scen, state = _at_step("base", 4, {CK: True}, 5, 33)
    kind = RANGE_KINDS["discard_cards"]
    monkeypatch.setitem(RANGE_KINDS, "discard_cards", dataclasses.replace(kind, count=None, members=None))
    r = client.post("/v1/perft", json={"state": dump_state(state), "depth": 1})
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["pointer"] == "/state"
    assert "discard_cards" in r.get_json()["errors"][0]["detail"]


def _action_at(sid, n, seed, step):
    actions = []
    play_game(sid, n, seed, max_actions=step + 1, check=False, on_step=lambda s, a, v: actions.append(a))
    return actions[step]


def test_a_reveal_branches_on_what_the_piles_may_hold_unless_the_position_keeps_them_in_order():
    """SC05: a ship moved next to an unexplored space. With the piles kept in order in the position, what
    comes is known: one outcome. Without them (drawn from what is left), each distinct hex and token is an
    outcome, each the position the action gives when posted with that discovery."""
    scen, state = _at_step("SC05", 4, None, 3, 72)
    action = _action_at("SC05", 4, 3, 72)
    graph = MapGraph.build(state.terrain_map())
    assert "hex_pile" in state.scenario_state
    assert len(outcomes(state, action, graph, scen)) == 1
    blind = state.copy()
    for k in ("hex_pile", "token_pile"):
        blind.scenario_state.pop(k, None)
    outs = outcomes(blind, action, graph, scen)
    found = [tuple((e["terrain"], e["number"]) for e in o.events if e["type"] == "discovered") for o in outs]
    assert len(outs) > 5 and len(set(found)) == len(found) and all(len(f) == 1 for f in found)
    for o, f in zip(outs, found):
        given = Action(action.type, action.player,
                       {**action.params, "discoveries": [{"terrain": t, "number": n} for t, n in f]})
        v = adjudicate(blind, given, graph, scen)
        assert v.legal
        assert position_key(v.state, counter=False) == position_key(o.state, counter=False)


# -- Cities & Knights' roll ranges: counted exactly ---------------------------------------------------

def _roll_cases():
    """Positions of ``test_cities_and_knights_legal`` whose roll is given as ranges, with the bases of a
    brute force over every roll (the dice, the Alchemist, the knights sent) and, with CK-VAR-MEANIES, the
    active knights per player."""
    from . import test_cities_and_knights_legal as T
    from .ck_util import E_N_NE, E_NE_SE, E_S_SW, E_SW_NW, NE, SW, N, S, ck, knight, position, with_cards
    out = {"four tied defenders": (T._four_tied(), [T.SEEDED], None),
           "three players lose a city": (T._three_lose((4, 4, 3)), [T.SEEDED], None)}
    c = with_cards(ck(), 1, "spy", "spy", "warlord", "wedding")
    c["improvements"]["1"]["politics"] = 2
    c = with_cards(with_cards(c, 0, "alchemist"), 2, "constitution")
    st = position(phase="roll", ck_state=c)
    st["rng"] = {"seed": T._seed("trade", "politics"), "counter": 0}
    out["alchemist pairs asking a put-back"] = (st, [T.SEEDED] + T.ALCHEMIST, None)
    st = T._four_tied(alchemist=True)
    c = st["scenario_state"]["cities_and_knights"]
    for q in ("1", "2", "3"):
        c["hands"][q] = {}
    c["decks"] = with_cards(ck(4), 0, "alchemist")["decks"]
    out["alchemist with four tied defenders"] = (st, [T.SEEDED] + T.ALCHEMIST, None)
    far = (1, 0, "N")
    c = ck(4, barbarian=6)
    c["knights"] = [knight(0, NE, 2, True), knight(0, far, 1, True), knight(1, SW, 1, True),
                    knight(1, (-1, 1, "S"), 2, True), knight(2, (0, -1, "N"), 1, True), knight(2, (1, 0, "S"), 1)]
    active = {0: [NE, far], 1: [SW, (-1, 1, "S")], 2: [(0, -1, "N")], 3: []}
    for event in ("ship", "trade"):
        st = position(players=4, phase="roll", ck_state=c, options={"CK-VAR-MEANIES": True},
                      cities=((0, N), (1, S), (2, (1, -1, "N")), (3, (-1, 0, "N")), (3, (-2, 2, "N"))),
                      roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW), (1, E_SW_NW)))
        st["rng"] = {"seed": T._seed(event), "counter": 0}
        out[f"meanies, event {event}"] = (st, T._sent(active), active)
    st = position(phase="roll", ck_state=with_cards(ck(), 0, "alchemist"), options={"CK-VAR-MEANIES": True})
    out["meanies, alchemist, no knight"] = (st, [T.SEEDED] + T.ALCHEMIST, {0: [], 1: [], 2: []})
    return out


ROLL_CASES = ["four tied defenders", "three players lose a city", "alchemist pairs asking a put-back",
              "alchemist with four tied defenders", "meanies, event ship", "meanies, event trade",
              "meanies, alchemist, no knight"]


def _a_roll(a, active) -> str:
    """A roll as the choice it makes: with CK-VAR-MEANIES the knights sent as a set per player (a player
    left out sends all), the order named aside."""
    from service.engine.legal import action_json
    d = action_json(a)
    if active is not None:
        f = d.get("fighting") or {}
        d["fighting"] = {str(q): sorted(list(x) for x in f.get(str(q), [list(n) for n in ns]))
                         for q, ns in active.items()}
    return json.dumps(d, sort_keys=True)


@pytest.mark.parametrize("case", ROLL_CASES)
def test_perft1_counts_the_roll_ranges_of_cities_and_knights(client, case):
    """perft(1) = the list's size with C&K's roll ranges counted: each range counted at its position equals
    its members, and the listed rolls and the members are every distinct legal roll once, as a brute force
    over every roll and every choice its resolution asks finds them (CK-BARB-4/6, CK-PROG-5, CK-PROG-S1,
    CK-VAR-MEANIES: a choice of knights is a set per player)."""
    from service.api.codec import dump_state
    from . import test_cities_and_knights_legal as T
    st, bases, active = _roll_cases()[case]
    state, graph = T._load(st)
    scen = T._scen("base")
    la = legal_actions(state, graph, scen, 0)
    specs = la.ranges.get("roll", [])
    assert specs
    counted = [range_count(spec, state, graph, scen) for spec in specs]
    assert range_count(specs[0]) is None              # a positional range is counted at its position only
    members = [a for spec in specs for a in range_members(spec, state, graph, scen)]
    assert len(members) == sum(counted)
    ours = [_a_roll(a, active) for a in la.actions.get("roll", []) + members]
    assert len(set(ours)) == len(ours), "a roll counted twice"
    ok: list = []
    for base in bases:
        T._all_rolls(state, graph, scen, 0, base, ok, [], set())
    assert set(ours) == {_a_roll(a, active) for a in ok}
    assert perft(state, graph, scen, 1).count == la.count + sum(counted)
    r = client.post("/v1/perft", json={"state": dump_state(state), "depth": 1})
    assert r.status_code == 200 and r.get_json()["count"] == la.count + sum(counted)


def test_perft2_goes_past_a_roll_range():
    """Past a roll range each member is followed (its outcome then the next list): divide's row of the range
    is the sum over its members of the lists after them."""
    from . import test_cities_and_knights_legal as T
    st, _, _ = _roll_cases()["three players lose a city"]
    state, graph = T._load(st)
    scen = T._scen("base")
    r = perft(state, graph, scen, 2, divide=True)
    (row,) = [x for x in r.divide if "range" in x]
    spec = legal_actions(state, graph, scen, 0).ranges["roll"][0]
    expected = 0
    for a in range_members(spec, state, graph, scen):
        for o in outcomes(state, a, graph, scen):
            expected += list_size(legal_actions(o.state, o.graph, scen), o.state, o.graph, scen)
    assert row["count"] == expected > 0 and r.count == sum(x["count"] for x in r.divide)


# -- perft(1) = the list's size on mid-game positions of every game -----------------------------------

def _every_game() -> list[tuple[str, int, dict | None]]:
    """Every scenario of the tables, with and without Cities & Knights where it takes it (its largest
    player count up to 4), and the base game with 5 and with 6 players in both modes of the 5-6 extension."""
    rows: dict = {}
    for r in TABLE["rows"]:
        key = (r["scenario"], bool(r["options"].get(CK)))
        if r["players"] <= 4 and (key not in rows or r["players"] > rows[key][1]):
            rows[key] = (r["scenario"], r["players"], dict(r["options"]) or None)
    extra = [("base", n, {"five_six_mode": m}) for n in (5, 6) for m in ("special_build", "paired")]
    return [rows[k] for k in sorted(rows)] + extra


EVERY_GAME = _every_game()


@pytest.mark.parametrize("sid,n,options", EVERY_GAME,
                         ids=[f"{g[0]}/{g[1]}" + "".join(f"+{k}={v}" for k, v in (g[2] or {}).items()) for g in EVERY_GAME])
def test_perft1_is_the_size_of_the_legal_action_list_in_every_game(client, sid, n, options):
    """Must hold (docs/perft.md): perft(1) of a position equals the number of actions ``POST
    /v1/legal-actions`` describes, ranges counted, on positions of a seeded game of every scenario (with and
    without Cities & Knights), WAG, and 5-6 player games; each range counted again independently."""
    seed = 1 + sum(map(ord, sid)) + n
    states = []
    play_game(sid, n, seed, max_actions=150, check=False, options=options,
              on_step=lambda s, a, v: states.append(s))
    scen = with_expansions(get_scenario(sid), options, n)
    picked = states[10::14]
    assert len(picked) >= 5
    for state in picked:
        _check_perft1(client, state, scen)


# -- SC11/TDE3: token sources chosen after a blind draw (D-perft-chance) -------------------------------

def _blind_draw_then_choice():
    """An SC11 position where one action draws from the reserve and then moves a mainland token: the
    current player (a settlement beside each of two edges between two blank small-island hexes, a Road
    Building card) builds both roads; the reserve holds 6, 5 and 9, so three tokens are drawn blind
    (R-063) and the fourth hex takes a mainland token (SC11-009), every mainland token an 8: where the 6
    lands decides whether a red token may go next to it (SC11-010), so the sources allowed depend on the
    draw. Returns (scenario, state, graph, the two edges)."""
    from service.engine.geometry import edge_hexes, edge_nodes, hex_neighbours
    from service.engine.state import Tile
    scen = get_scenario("SC11")
    states = []
    play_game("SC11", 4, 2, max_actions=200, check=False,
              on_step=lambda s, a, v: states.append(s) if s.phase == "main" else None)
    state = states[-1].copy()
    graph = MapGraph.build(state.terrain_map())
    mainland = scen.token_area(state)
    blank = {h for h, t in state.hexes.items() if h not in mainland and t.number is None
             and t.terrain in ("forest", "hills", "pasture", "fields", "mountains")}
    inner = [e for e in graph.edges if len(set(edge_hexes(e)) & blank) == 2]
    e1, e2 = next((a, b) for a, b in itertools.combinations(inner, 2)
                  if not any(y in hex_neighbours(x) or x == y for x in set(edge_hexes(a)) & blank
                             for y in set(edge_hexes(b)) & blank))
    p = state.current_player
    for e in (e1, e2):
        state.buildings[edge_nodes(e)[0]] = (p, "settlement")
    state.players[p].dev_cards["road_building"] = 1
    state.flags.dev_card_played = False
    state.scenario_state["token_pile"] = [6, 5, 9]
    for h, t in list(state.hexes.items()):
        if h in mainland and t.number is not None:
            state.hexes[h] = Tile(t.terrain, 8)
    return scen, state, MapGraph.build(state.terrain_map()), {e1, e2}


def _building_both(actions, edges):
    from service.engine.scenarios._sc_tokens import placed_edges
    return [a for a in actions if a.type == "play_road_building" and set(map(tuple, placed_edges(a))) == edges]


def test_token_sources_chosen_after_a_blind_draw_branch_on_the_draw():
    """D-perft-chance with SC11-008/009/010 (R-063): past a placement whose token sources are chosen after
    its own blind draws, each draw is a branch and under it the sources the list allows for that draw (some
    not allowed for the position's own draw, marked ``listed: false``). Brute force: for each order the
    three tokens can be drawn in, a generator seed drawing them in that order, the list of that position
    (the family of actions building both roads), each adjudicated and the list after it counted."""
    from service.engine.perft import family_outcomes
    scen, state, graph, edges = _blind_draw_then_choice()
    r = perft(state, graph, scen, 2, divide=True)

    def first(row):
        x = row["action"]
        return Action(x["type"], x["player"], {k: v for k, v in x.items() if k not in ("type", "player")})
    rows = [x for x in r.divide if "action" in x and _building_both([first(x)], edges)]
    ours = sum(x["count"] for x in rows)
    assert any(x.get("listed") is False for x in rows)
    assert r.count == sum(x["count"] for x in r.divide)
    brute, orders = 0, set()
    pile = state.scenario_state["token_pile"]
    for order in itertools.permutations(range(3)):
        idx = []
        left = list(range(3))
        for i in order:
            idx.append(left.index(i))
            left.remove(i)
        seed = next(sd for sd in range(200_000) if _draws(sd, state.rng_counter) == tuple(idx))
        orders.add(tuple(pile[i] for i in order))
        posted = state.copy()
        posted.rng_seed = seed
        for a in _building_both(legal_actions(posted, graph, scen).actions.get("play_road_building", []), edges):
            v = adjudicate(posted, a, graph, scen)
            assert v.legal
            g = MapGraph.build(v.state.terrain_map())
            brute += list_size(legal_actions(v.state, g, scen), v.state, g, scen)
    assert len(orders) == 6 and len(rows) > 1
    assert ours == brute
    # without following the draw, the list's own family under every draw counts otherwise
    listed = _building_both(legal_actions(state, graph, scen).actions["play_road_building"], edges)
    blind = sum(list_size(legal_actions(o.state, o.graph, scen), o.state, o.graph, scen)
                for a in listed for o in outcomes(state, a, graph, scen))
    assert blind != brute
    base = scen.chance_base(state, graph, listed[0])
    assert sum(len(o) for _, o in family_outcomes(state, base, graph, scen)) > len(listed)


def _draws(seed: int, counter: int) -> tuple[int, ...]:
    """The reserve's three blind draws (R-063) a generator seed makes: the index drawn from 3, 2, then 1."""
    from service.engine.rng import Rng
    r = Rng(seed, counter)
    return tuple(r.below(n) for n in (3, 2, 1))
