"""Cities & Knights progress cards in the legal-action list: for each card held, every play of it that
adjudicates legal is listed (the published promise of ``POST /v1/legal-actions``), checked against a
superset of its plays (every edge, node or hex, and every pair of them, for the card's fields) on small
boards, with roads and with ships."""
from __future__ import annotations

import functools
import json
from itertools import product

import pytest

from service.engine.core import Action
from service.engine.legal import action_json, legal_actions, range_admits, sample_range, violations_of
from service.engine.modules.cities_and_knights import store
from service.engine.rng import Rng
from service.engine.scenarios import get_scenario, with_expansions

from .ck_util import (E_N_NE, E_NE_SE, E_NW_N, E_S_SW, E_SE_S, E_SW_NW, NE, NW, OPT, SE, SW, N, S, board, ck, hand,
                      knight, position, with_cards, with_commodities)


@functools.lru_cache(maxsize=1)
def _cache():
    from service.api import create_app
    return create_app({"TESTING": True}).extensions["graph_cache"]


def _scen(sid: str):
    return with_expansions(get_scenario(sid), OPT)


def _key(a: Action) -> str:
    return json.dumps(action_json(a), sort_keys=True)


def _load(st: dict):
    from service.api.service import parse_state
    return parse_state(st, _cache())


def sea(**kw) -> dict:
    return position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea", (0, 2): "sea", (-1, 2): "sea"}),
                    scenario="seafarers", **kw)


def every_legal_play_listed(st: dict, card: str, superset, rule: str, sid: str = "base", p: int = 0,
                            tweak=None) -> int:
    """Plays of ``card`` from ``superset(state, graph)`` (parameter dicts) that adjudicate legal are all
    in the list, and every listed play of it adjudicates legal; the number of legal plays found."""
    state, graph = _load(st)
    if tweak is not None:
        state = state.copy()
        tweak(state)
    scen = _scen(sid)
    la = legal_actions(state, graph, scen, p)
    mine = [a for a in la.actions.get("play_progress", []) if a.get("card") == card]
    listed = {_key(a) for a in mine}
    for a in mine:
        assert not violations_of(state, a, graph, scen), (rule, action_json(a))
    found = 0
    for params in superset(state, graph):
        a = Action("play_progress", p, {"card": card, **params})
        if not violations_of(state, a, graph, scen):
            found += 1
            assert _key(a) in listed, f"{rule}: a legal play is missing from the list: {action_json(a)}"
    assert found == len(listed), (rule, found, len(listed))
    return found


def edges(state, graph):
    return list(graph.edges)


# -- CK-PROG-S4: the Inventor, any two tokens but 2, 12, 6 and 8, in either order ---------------------

def test_inventor_every_swap_listed():
    """CK-PROG-S4: every pair of swappable tokens, either order, is listed (no cap on the pairs)."""
    extra = {(q, r): ("hills", 5) for q, r in ((1, 1), (2, 0), (2, -1), (0, 2), (-1, 2))}
    st = position(ck_state=with_cards(ck(), 0, "inventor"), brd=board({**extra, (-2, 2): ("forest", 11),
                                                                        (-2, 1): ("pasture", 3)}))
    found = every_legal_play_listed(st, "inventor", lambda s, g: [{"hexes": [a, b]} for a, b in product(s.hexes, s.hexes)],
                                    "CK-PROG-S4")
    assert found == 12 * 11                          # 12 tokens other than 2, 12, 6, 8, ordered pairs


# -- CK-PROG-S9 / CK-SEA-11: Road Building, every pair of pieces ----------------------------------------

def _pieces(kinds):
    def sup(state, graph):
        one = [{"kind": k, "edge": e} for k in kinds for e in graph.edges]
        return [{"pieces": [x]} for x in one] + [{"pieces": [x, y]} for x in one for y in one]
    return sup


def test_road_building_every_pair_listed():
    """CK-PROG-S9: every legal pair of free roads (the second may lean on the first) is listed."""
    st = position(ck_state=with_cards(ck(), 0, "road_building"))
    assert every_legal_play_listed(st, "road_building", _pieces(("road",)), "CK-PROG-S9") > 20


def test_road_building_with_ships_every_pair_listed():
    """CK-SEA-11: with ships, roads and ships in any mix and order; one piece left: one placed."""
    st = sea(ck_state=with_cards(ck(), 0, "road_building"), cities=((0, (1, 0, "N")), (1, S)))
    assert every_legal_play_listed(st, "road_building", _pieces(("road", "ship")), "CK-SEA-11", "seafarers") > 30

    def one_ship_left(state):
        state.players[0].supply.update(roads=0, ships=1)
    assert every_legal_play_listed(st, "road_building", _pieces(("road", "ship")), "CK-SEA-11", "seafarers",
                                   tweak=one_ship_left) >= 1


# -- CK-PROG-P4 / CK-SEA-11: the Diplomat, with the own removed road put back ---------------------------

def _diplomat(state, graph):
    return [{"edge": e} for e in graph.edges] + [{"edge": e, "replace": r} for e in graph.edges
                                                 for r in graph.edges if state.roads.get(e, state.ships.get(e)) is not None]


def test_diplomat_every_removal_and_replacement_listed():
    """CK-PROG-P4: every open road removed, and an own open road placed again anywhere it may go."""
    st = position(ck_state=with_cards(ck(), 0, "diplomat"))
    state, _ = _load(st)
    found = every_legal_play_listed(st, "diplomat", _diplomat, "CK-PROG-P4")
    assert found > 4                                  # removals of both players' roads, and own replacements


def test_diplomat_ship_replaced_as_a_ship_listed():
    """CK-SEA-11: an own open ship removed goes back as a ship, on every edge a ship may take."""
    st = sea(roads=(), cities=((0, (1, 0, "N")), (1, (-1, 1, "N"))), ck_state=with_cards(ck(), 0, "diplomat"))
    st["pieces"]["ships"] = [{"player": 0, "edge": [1, 0, "NE"]}, {"player": 0, "edge": [1, 0, "E"]}]
    assert every_legal_play_listed(st, "diplomat", _diplomat, "CK-SEA-11", "seafarers") > 2


# -- CK-PROG-P5 / CK-KNIGHT-7: Intrigue, every retreat --------------------------------------------------

def test_intrigue_every_retreat_listed():
    """CK-PROG-P5, CK-KNIGHT-7: the displaced knight's owner may take any empty intersection along their
    roads: each one is listed (no cap on the retreats)."""
    roads = ((0, E_N_NE), (0, E_NE_SE), (1, E_SE_S), (1, E_S_SW), (1, E_SW_NW), (1, E_NW_N), (1, (-1, 0, "SE")),
             (1, (-1, 0, "NE")), (1, (-1, 1, "E")))
    c = with_cards(ck(knights=[knight(1, SE)]), 0, "intrigue")
    st = position(ck_state=c, roads=roads, cities=((0, N), (1, (1, 1, "N"))))

    def sup(state, graph):
        return [{"node": n, "retreat": r} for n in graph.nodes for r in [None] + list(graph.nodes)]
    assert every_legal_play_listed(st, "intrigue", sup, "CK-PROG-P5") >= 6


# -- the other cards with fields: every play listed -------------------------------------------------------

def test_smith_deserter_and_the_rest_every_play_listed():
    """CK-PROG-S10 (two knights, either order), CK-PROG-P3 (the Deserter's knight placed or not),
    CK-PROG-S3, CK-PROG-S6, CK-PROG-P1, CK-PROG-P7, CK-PROG-T2..T6: every legal play is listed."""
    kn = [knight(0, NE, level=1, active=True), knight(0, SW, level=1), knight(1, NW, level=2)]
    c = ck(knights=kn)
    c["improvements"]["0"]["politics"] = 3
    c = with_cards(c, 0, "smith", "deserter", "engineer", "medicine", "bishop", "merchant", "merchant_fleet",
                   "resource_monopoly", "trade_monopoly", "master_merchant")
    c = with_cards(c, 1, "spy", "wedding")
    c = with_cards(c, 0, "spy")
    c["attacks"] = 1
    roads = ((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S), (1, E_S_SW), (1, E_SW_NW))
    st = position(ck_state=c, roads=roads, settlements=((0, (1, -1, "N")),), cities=((0, N), (1, S), (1, (-2, 2, "N"))),
                  hands={0: hand(ore=4, grain=2, brick=1), 1: hand(wool=2, lumber=1)})
    nodes = lambda s, g: [{"node": n} for n in g.nodes]  # noqa: E731
    hexes = lambda s, g: [{"hex": h} for h in s.hexes]  # noqa: E731
    assert every_legal_play_listed(st, "smith", lambda s, g: [{"nodes": [a]} for a in g.nodes] + [
        {"nodes": [a, b]} for a in (NE, SW, NW, N) for b in (NE, SW, NW, N)], "CK-PROG-S10") == 4
    assert every_legal_play_listed(st, "deserter", lambda s, g: [
        {"target": 1, "removed": NW}] + [{"target": 1, "removed": NW, "node": n} for n in g.nodes], "CK-PROG-P3") == 2
    assert every_legal_play_listed(st, "engineer", nodes, "CK-PROG-S3") == 1
    assert every_legal_play_listed(st, "medicine", nodes, "CK-PROG-S6") == 1
    assert every_legal_play_listed(st, "bishop", hexes, "CK-PROG-P1") > 5
    assert every_legal_play_listed(st, "merchant", hexes, "CK-PROG-T3") >= 3
    assert every_legal_play_listed(st, "spy", lambda s, g: [{"target": q, "progress": k} for q in (1, 2)
                                                            for k in ("spy", "wedding", "alchemist")], "CK-PROG-P7") == 2
    from service.engine.modules.cities_and_knights.data import CARDS, COMMODITIES
    from service.engine.mapgraph import RESOURCES
    assert every_legal_play_listed(st, "merchant_fleet", lambda s, g: [{"kind": k} for k in CARDS], "CK-PROG-T4") == 8
    assert every_legal_play_listed(st, "resource_monopoly", lambda s, g: [{"resource": r} for r in RESOURCES],
                                   "CK-PROG-T5") == 5
    assert every_legal_play_listed(st, "trade_monopoly", lambda s, g: [{"commodity": k} for k in COMMODITIES],
                                   "CK-PROG-T6") == 3


@pytest.mark.parametrize("held", [{"wool": 2, "lumber": 1}, {"wool": 1}])
def test_master_merchant_every_take_listed(held):
    """CK-PROG-T2: any two of the richer player's cards (one if they hold one)."""
    from service.engine.modules.cities_and_knights.data import CARDS
    c = with_cards(ck(), 0, "master_merchant")
    st = position(ck_state=c, cities=((0, N), (1, S), (1, (-2, 2, "N"))), hands={1: hand(**held)})

    def sup(state, graph):
        one = [{k: 1} for k in CARDS]
        return [{"target": q, "take": t} for q in (1, 2) for t in one + [{k: 2} for k in CARDS] +
                [{a: 1, b: 1} for a in CARDS for b in CARDS if a < b]]
    assert every_legal_play_listed(st, "master_merchant", sup, "CK-PROG-T2") >= 1


# -- CK-PROG-P6 / P9 / T1: the plays given as ranges -----------------------------------------------------

def every_legal_play_in_a_range(st: dict, card: str, superset, rule: str, p: int = 0) -> int:
    """Plays of ``card`` from ``superset`` that adjudicate legal all lie inside one of its ranges (and none
    is listed one by one); samples of each range and its example adjudicate legal; the legal plays found."""
    state, graph = _load(st)
    scen = _scen("base")
    la = legal_actions(state, graph, scen, p)
    assert not [a for a in la.actions.get("play_progress", []) if a.get("card") == card]
    specs = [r for r in la.ranges.get("play_progress", []) if r["card"] == card]
    assert specs, rule
    rng = Rng(5, 0)
    for spec in specs:
        ex = spec["example"]
        ex_a = Action(ex["type"], ex["player"], {k: v for k, v in ex.items() if k not in ("type", "player")})
        assert range_admits("play_progress", spec, ex_a) and not violations_of(state, ex_a, graph, scen), rule
        for _ in range(20):
            a = sample_range(spec, rng)
            assert range_admits("play_progress", spec, a), (rule, action_json(a))
            assert not violations_of(state, a, graph, scen), (rule, action_json(a))
    found = 0
    for params in superset(state, graph):
        a = Action("play_progress", p, {"card": card, **params})
        inside = any(range_admits("play_progress", spec, a) for spec in specs)
        legal = not violations_of(state, a, graph, scen)
        found += legal
        assert inside == legal, f"{rule}: {'legal but in no range' if legal else 'in a range but illegal'}: " \
                                f"{action_json(a)}"
    return found


def _gifts(qs, kinds, most=2):
    """Every gift of 0..``most`` cards of ``kinds`` per player of ``qs`` (and none)."""
    one = [{}] + [{k: 1} for k in kinds] + [{k: 2} for k in kinds] + [{a: 1, b: 1} for a in kinds for b in kinds
                                                                     if a < b]
    one = [g for g in one if sum(g.values()) <= most]
    out = [{}]
    for q in qs:
        out = [{**o, str(q): g} for o in out for g in one]
    return out


def test_saboteur_and_wedding_every_choice_in_a_range():
    """CK-PROG-P6: each player with as many VP or more discards half their cards, any of them;
    CK-PROG-P9: each richer player gives 2 of their choice: every legal choice lies inside the range."""
    kinds = ("brick", "wool", "ore", "cloth")
    c = with_commodities(with_cards(ck(), 0, "saboteur", "wedding"), 1, cloth=1)
    st = position(ck_state=c, cities=((0, N), (1, S), (1, (-2, 2, "N")), (2, (1, -1, "N"))),
                  hands={1: hand(wool=2, brick=1), 2: hand(ore=2, wool=1, brick=1)})
    sup = lambda s, g: [{"cards": x} for x in _gifts((1, 2), kinds)]  # noqa: E731
    assert every_legal_play_in_a_range(st, "saboteur", sup, "CK-PROG-P6") == 4 * 4      # players 1 and 2 (as many VP)
    assert every_legal_play_in_a_range(st, "wedding", sup, "CK-PROG-P9") == 4          # player 1 only (more VP)


def test_commercial_harbor_every_offer_in_a_range():
    """CK-PROG-T1: any opponents offered one resource each (within the hand), each returning one of their
    commodities, or nothing when they hold none: every legal offer lies inside the range."""
    from service.engine.modules.cities_and_knights.data import COMMODITIES
    c = with_commodities(with_cards(ck(), 0, "commercial_harbor"), 1, cloth=1, coin=1)
    st = position(ck_state=c, hands={0: hand(wool=1, ore=2)})

    def sup(state, graph):
        one = [None] + [{"give": r, "get": g} for r in ("wool", "ore", "brick") for g in (None,) + COMMODITIES]
        return [{"offers": {k: v for k, v in (("1", a), ("2", b)) if v is not None}} for a in one for b in one]
    assert every_legal_play_in_a_range(st, "commercial_harbor", sup, "CK-PROG-T1") > 5


# -- CK-BARB-4 / CK-BARB-6 / CK-PROG-5 / CK-PROG-S1 / CK-VAR-MEANIES: the roll ----------------------------

def _seed(seeded: str, alchemist: str | None = None) -> int:
    """A generator seed whose seeded roll shows the event ``seeded`` (red, yellow, then the event die,
    CK-DICE-2) and, given, whose Alchemist roll (the event die alone) shows ``alchemist``."""
    from service.engine.modules.cities_and_knights.data import EVENT_FACES
    for seed in range(1000):
        r = Rng(seed, 0)
        r.below(6)
        r.below(6)
        if EVENT_FACES[r.below(6)] == seeded and (alchemist is None or EVENT_FACES[Rng(seed, 0).below(6)] == alchemist):
            return seed
    raise AssertionError("no seed")


class _Resolutions:
    """Counts the rolls resolved (on copies) while listing: the listing's cost, whatever the machine."""

    def __init__(self, monkeypatch):
        from service.engine.modules.cities_and_knights import turn
        self.n = 0
        real = turn.resolve_roll

        def counted(*a):
            self.n += 1
            return real(*a)
        monkeypatch.setattr(turn, "resolve_roll", counted)      # on copies: ``turn.roll_outcome``


def _all_rolls(state, graph, scen, p, params, ok, bad, tried):
    """Brute force: every roll of ``params`` with each combination of the choices its resolution asks
    (into ``ok``), and the rolls lacking a choice asked or carrying a value outside its options, out of
    the field's whole domain (into ``bad``, the first time each player's choice is asked)."""
    from service.engine.core import Ctx
    from service.engine.modules.cities_and_knights.data import PROGRESS_CARDS, TRACKS
    from service.engine.modules.cities_and_knights.turn import NeedChoice, resolve_roll
    a = Action("roll", p, dict(params))
    try:
        resolve_roll(Ctx(state, a, graph, scen), state.copy())
    except NeedChoice as e:
        bad.append(a)
        if (e.key, e.player) not in tried:
            tried.add((e.key, e.player))
            domain = {"pillage": [list(n) for n in graph.nodes], "defender_decks": list(TRACKS),
                      "progress_discards": list(PROGRESS_CARDS)}[e.key]
            for x in domain:
                if x not in e.options:
                    bad.append(Action("roll", p, {**params, e.key: {**(params.get(e.key) or {}), str(e.player): x}}))
        for opt in e.options:
            more = {**params, e.key: {**(params.get(e.key) or {}), str(e.player): opt}}
            _all_rolls(state, graph, scen, p, more, ok, bad, tried)
        return
    ok.append(a)


def every_roll_listed_or_in_a_range(monkeypatch, st, bases, rule: str, p: int = 0, tweak=None) -> dict:
    """The legal-action promise for ``roll``, by brute force over ``bases`` (parameter dicts: the dice,
    the Alchemist, the knights sent) and every choice each asks: every roll adjudicate accepts is listed
    or admitted by a range, every refused one is neither, every listed roll and every range's example
    and samples are accepted; the figures: rolls accepted, listed, ranges, resolutions spent listing."""
    state, graph = _load(st)
    if tweak is not None:
        state = state.copy()
        tweak(state)
    scen = _scen("base")
    count = _Resolutions(monkeypatch)
    la = legal_actions(state, graph, scen, p)
    spent = count.n
    monkeypatch.undo()
    listed = {_key(a) for a in la.actions.get("roll", [])}
    specs = la.ranges.get("roll", [])
    for a in la.actions.get("roll", []):
        assert not violations_of(state, a, graph, scen), (rule, action_json(a))

    def inside(a):
        return any(range_admits("roll", spec, a, state, graph, scen) for spec in specs)
    rng = Rng(11, 0)
    for spec in specs:
        ex = spec["example"]
        ex_a = Action("roll", ex["player"], {k: v for k, v in ex.items() if k not in ("type", "player")})
        assert range_admits("roll", spec, ex_a, state, graph, scen) and not violations_of(state, ex_a, graph, scen)
        for _ in range(20):
            a = sample_range(spec, rng)
            assert range_admits("roll", spec, a, state, graph, scen), (rule, action_json(a))
            assert not violations_of(state, a, graph, scen), (rule, action_json(a))
    ok: list = []
    bad: list = []
    for base in bases:
        _all_rolls(state, graph, scen, p, base, ok, bad, set())
    for a in ok:
        assert not violations_of(state, a, graph, scen), (rule, action_json(a))
        assert _key(a) in listed or inside(a), f"{rule}: a legal roll is neither listed nor in a range: {action_json(a)}"
    for a in bad:
        assert violations_of(state, a, graph, scen), (rule, action_json(a))
        assert _key(a) not in listed and not inside(a), f"{rule}: a refused roll is offered: {action_json(a)}"
    return {"accepted": len(ok), "listed": len(listed), "ranges": specs, "resolutions": spent, "ok": ok}


#: The most rolls resolved listing one position (``roll_ranges``: the seeded roll's choices within WALK
#: resolutions, one per Alchemist pair, a path of first options per range example, then each listed
#: roll and example judged once more).
def _bound() -> int:
    from service.engine.modules.cities_and_knights import roll_ranges
    return 2 * (roll_ranges.WALK + len(roll_ranges.ALCHEMIST_PAIRS)) + 2 * 2 * 10


SEEDED = {"dice": None}


def _four_tied(alchemist: bool = False) -> dict:
    """4 players, one active basic knight each against 4 cities: Catan wins, all four tie (CK-BARB-6);
    players 1..3 hold 4 progress cards (CK-PROG-5: a 5th outside their turn is put back at once)."""
    c = ck(4, barbarian=6)
    c["knights"] = [knight(0, NE, 1, True), knight(1, SW, 1, True), knight(2, (1, 0, "N"), 1, True),
                    knight(3, (-1, 1, "S"), 1, True)]
    c = with_cards(c, 1, "spy", "spy", "warlord", "warlord")
    c = with_cards(c, 2, "bishop", "bishop", "crane", "crane")
    c = with_cards(c, 3, "merchant", "merchant", "wedding", "deserter")
    if alchemist:
        c = with_cards(c, 0, "alchemist")
    st = position(players=4, phase="roll", ck_state=c, cities=((0, N), (1, S), (2, (1, 0, "SE")), (3, (-1, 0, "N"))),
                  roads=((0, E_N_NE), (1, E_S_SW), (2, (1, 0, "E")), (3, (-1, 0, "NE"))))
    st["rng"] = {"seed": _seed("ship", "ship"), "counter": 0}
    return st


def test_roll_four_tied_defenders_at_the_limit_in_a_range(monkeypatch):
    """CK-BARB-6: four tied defenders each choose a deck; CK-PROG-5: players 1..3 at the limit put back a
    card, whose options follow from the seeded draws before (CK-PROG-6: a card put back goes under its
    deck): every roll accepted lies in the range, at a bounded cost."""
    got = every_roll_listed_or_in_a_range(monkeypatch, _four_tied(), [SEEDED], "CK-BARB-6")
    assert got["listed"] == 0 and len(got["ranges"]) == 1
    spec = got["ranges"][0]
    assert spec["dice"] is None and not spec["alchemist"]
    assert [(x["key"], x["player"]) for x in spec["asks"]] == [
        ("defender_decks", 0), ("defender_decks", 1), ("progress_discards", 1), ("defender_decks", 2),
        ("progress_discards", 2), ("defender_decks", 3), ("progress_discards", 3)]
    assert got["accepted"] > 1000 and got["resolutions"] <= _bound() < got["accepted"]
    # the choices depend on each other: whether player 3 puts back, and which cards, differs between the
    # decks chosen before (CK-PROG-5: a VP card drawn is laid out and nothing is put back, CK-PROG-4)
    by_decks: dict = {}
    for a in got["ok"]:
        by_decks.setdefault(json.dumps(a.get("defender_decks"), sort_keys=True), set()).add(
            (a.get("progress_discards") or {}).get("3"))
    assert len({frozenset(v) for v in by_decks.values()}) > 1


def test_roll_two_tied_defenders_listed_as_before(monkeypatch):
    """CK-BARB-6: two tied defenders, nobody at the limit: the 9 deck choices are listed one by one, no
    range."""
    st = _four_tied()
    c = st["scenario_state"]["cities_and_knights"]
    c["knights"] = c["knights"][:2]
    for q in ("1", "2", "3"):
        c["hands"][q] = {}
    c["decks"] = store.initial(4)["decks"]
    st["pieces"]["cities"] = st["pieces"]["cities"][:2]   # 2 cities against 2 knights: Catan wins
    got = every_roll_listed_or_in_a_range(monkeypatch, st, [SEEDED], "CK-BARB-6")
    assert got["listed"] == got["accepted"] == 9 and not got["ranges"]


def _three_lose(cities: tuple[int, int, int]) -> dict:
    """4 players on a radius-2 board: player 0's mighty knight, players 1..3 without knights holding
    ``cities`` cities each: the barbarians win and each of 1..3 chooses the city lost (CK-BARB-4)."""
    from .helpers import radius_board
    brd = radius_board(2, "mountains", 5)
    _, graph = _load(position(players=4, phase="roll", cities=(), roads=(), brd=brd))
    spread: list = []
    for i, n in enumerate(graph.nodes):
        if graph.node_land[i] and not any(graph.node_index[m] in graph.node_neighbour_ids[i] for m in spread):
            spread.append(n)
    c = ck(4, barbarian=6)
    c["knights"] = [knight(0, spread[-1], 3, True)]
    owners = [0] + [q for q, k in zip((1, 2, 3), cities) for _ in range(k)]
    st = position(players=4, phase="roll", cities=list(zip(owners, spread)), roads=(), brd=brd, ck_state=c)
    st["rng"] = {"seed": _seed("ship"), "counter": 0}
    return st


def test_roll_barbarians_win_against_three_players(monkeypatch):
    """CK-BARB-4: the barbarians beat players 1..3, each choosing which of their cities is lost: 3 x 3 x 2
    choices are listed one by one; 4 x 4 x 3 are given as a range whose samples vary the cities."""
    few = every_roll_listed_or_in_a_range(monkeypatch, _three_lose((3, 3, 2)), [SEEDED], "CK-BARB-4")
    assert few["listed"] == few["accepted"] == 18 and not few["ranges"]
    many = every_roll_listed_or_in_a_range(monkeypatch, _three_lose((4, 4, 3)), [SEEDED], "CK-BARB-4")
    assert many["accepted"] == 48 and many["listed"] == 0 and len(many["ranges"]) == 1
    assert many["resolutions"] <= _bound()
    spec = many["ranges"][0]
    assert [(x["key"], x["player"], len(x["options"])) for x in spec["asks"]] == [
        ("pillage", 1, 4), ("pillage", 2, 4), ("pillage", 3, 3)]
    rng = Rng(3, 0)
    assert len({json.dumps(sample_range(spec, rng).get("pillage"), sort_keys=True) for _ in range(40)}) > 10


ALCHEMIST = [{"dice": [r, y], "alchemist": True} for r in range(1, 7) for y in range(1, 7)]


def test_roll_alchemist_every_pair_listed(monkeypatch):
    """CK-PROG-S1: the Alchemist's player chooses both production dice: each of the 36 [red, yellow] pairs
    is a roll of its own (CK-PROG-2: the red die decides the progress draws), all listed."""
    st = position(phase="roll", ck_state=with_cards(ck(), 0, "alchemist"))
    got = every_roll_listed_or_in_a_range(monkeypatch, st, [SEEDED] + ALCHEMIST, "CK-PROG-S1")
    assert got["listed"] == got["accepted"] == 37 and not got["ranges"]


def test_roll_alchemist_pairs_asking_a_put_back_in_a_range(monkeypatch):
    """CK-PROG-S1, CK-PROG-2, CK-PROG-5: on a politics gate player 1 (politics level 2, at the limit) draws
    when red <= 3 and puts a card back: those pairs are a range, the others listed."""
    c = with_cards(ck(), 1, "spy", "spy", "warlord", "wedding")
    c["improvements"]["1"]["politics"] = 2
    c = with_cards(with_cards(c, 0, "alchemist"), 2, "constitution")    # no VP card to draw (CK-PROG-4)
    st = position(phase="roll", ck_state=c)
    st["rng"] = {"seed": _seed("trade", "politics"), "counter": 0}
    got = every_roll_listed_or_in_a_range(monkeypatch, st, [SEEDED] + ALCHEMIST, "CK-PROG-5")
    spec, = got["ranges"]
    assert spec["alchemist"] and sorted(spec["dice"]) == [[r, y] for r in (1, 2, 3) for y in range(1, 7)]
    assert [(x["key"], x["player"]) for x in spec["asks"]] == [("progress_discards", 1)]
    assert got["listed"] == 1 + 18
    assert got["resolutions"] <= _bound()


def test_roll_alchemist_with_four_tied_defenders(monkeypatch):
    """CK-PROG-S1 with CK-BARB-6: every pair asks the four tied defenders' decks (81 rolls each): one range
    holds the 36 pairs, another the seeded roll, at a bounded cost (brute force over every fifth pair)."""
    st = _four_tied(alchemist=True)
    c = st["scenario_state"]["cities_and_knights"]
    for q in ("1", "2", "3"):
        c["hands"][q] = {}
    c["decks"] = with_cards(ck(4), 0, "alchemist")["decks"]
    got = every_roll_listed_or_in_a_range(monkeypatch, st, [SEEDED] + ALCHEMIST[::5], "CK-PROG-S1")
    assert got["listed"] == 0 and [len(s["dice"] or []) for s in got["ranges"]] == [0, 36]
    assert got["resolutions"] <= _bound() < got["accepted"]


def _sent(nodes_by_player: dict) -> list[dict]:
    """CK-VAR-MEANIES: every choice of knights sent: per player left out (all fight), or any ordered
    selection of their active knights, none included."""
    from itertools import permutations
    per = []
    for q, nodes in nodes_by_player.items():
        per.append([None] + [list(map(list, pick)) for k in range(len(nodes) + 1) for pick in permutations(nodes, k)])
    out = []
    for combo in product(*per):
        f = {str(q): sent for q, sent in zip(nodes_by_player, combo) if sent is not None}
        out.append({"dice": None, "fighting": f} if f else {"dice": None})
    return out


def test_roll_meanies_every_choice_of_knights(monkeypatch):
    """CK-VAR-MEANIES: each player sends any of their active knights (CK-BARB-3: only those fight): every
    choice, with the cities lost (CK-BARB-4) or decks drawn (CK-BARB-6) it leads to, lies in the range;
    a knight not active or of another player is refused and offered nowhere."""
    far = (1, 0, "N")
    c = ck(4, barbarian=6)
    c["knights"] = [knight(0, NE, 2, True), knight(0, far, 1, True), knight(1, SW, 1, True),
                    knight(1, (-1, 1, "S"), 2, True), knight(2, (0, -1, "N"), 1, True), knight(2, (1, 0, "S"), 1)]
    st = position(players=4, phase="roll", ck_state=c, options={"CK-VAR-MEANIES": True},
                  cities=((0, N), (1, S), (2, (1, -1, "N")), (3, (-1, 0, "N")), (3, (-2, 2, "N"))),
                  roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW), (1, E_SW_NW)))
    st["rng"] = {"seed": _seed("ship"), "counter": 0}
    active = {0: [NE, far], 1: [SW, (-1, 1, "S")], 2: [(0, -1, "N")], 3: []}    # (1, 0, S) is not active
    got = every_roll_listed_or_in_a_range(monkeypatch, st, _sent(active), "CK-VAR-MEANIES")
    spec, = got["ranges"]
    assert spec["fighting"] == {"0": sorted([list(NE), list(far)]), "1": sorted([list(SW), [-1, 1, "S"]]),
                                "2": [[0, -1, "N"]], "3": []}
    keys = {k for a in got["ok"] for k in ("pillage", "defender_decks") if a.get(k)}
    assert keys == {"pillage", "defender_decks"}          # some choices of knights lose, some tie
    assert got["resolutions"] <= _bound()
    state, graph = _load(st)
    scen = _scen("base")
    for f in ({"2": [[1, 0, "S"]]}, {"1": [list(NE)]}):    # inactive; another player's
        a = Action("roll", 0, {"fighting": f})
        assert violations_of(state, a, graph, scen) and not range_admits("roll", spec, a, state, graph, scen)
    st["options"]["CK-VAR-MEANIES"] = False               # CK-BARB-3: every active knight fights, nothing sent
    state, graph = _load(st)
    assert "roll" not in legal_actions(state, graph, scen, 0).ranges
