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
