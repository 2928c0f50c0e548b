"""Discards on a 7 with Cities & Knights as ranges (CK-SEVEN-2, CK-COM-3), property-tested against
adjudicate: every action sampled from the listed range is legal, and a random discard is legal exactly
when it lies inside the range."""
from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.core import Action
from service.engine.legal import legal_actions, range_admits, sample_range
from service.engine.mapgraph import RESOURCES
from service.engine.modules.cities_and_knights.data import COMMODITIES
from service.engine.referee import adjudicate
from service.engine.rng import Rng

from .ck_util import ck, hand, position, with_commodities

counts = st.integers(min_value=0, max_value=5)
HAND = st.fixed_dictionaries({k: counts for k in RESOURCES + COMMODITIES})


def discard_state(held: dict[str, int], walls: int = 0):
    """Player 1 owes half of resources plus commodities (over 7 + 2 per wall) in the discard phase."""
    from service.api.service import parse_state
    c = with_commodities(ck(), 1, **{k: held[k] for k in COMMODITIES})
    st_ = position(phase="discard", hands={1: hand(**{k: held[k] for k in RESOURCES})}, ck_state=c)
    total = sum(held.values())
    owed = total // 2
    st_["pending_discards"] = {"1": owed}
    state, graph = parse_state(st_, _cache())
    return state, graph, owed


@functools.lru_cache(maxsize=1)
def _cache():
    from service.api import create_app
    return create_app({"TESTING": True}).extensions["graph_cache"]


def scenario():
    from service.engine.scenarios import get_scenario, with_expansions
    return with_expansions(get_scenario("base"), {"cities_and_knights": True})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HAND.filter(lambda h: sum(h.values()) >= 8), st.integers(0, 10_000), HAND)
def test_discard_ranges_match_adjudicate(held, seed, other):
    """CK-SEVEN-2, CK-COM-3: the range lists exactly the legal discards (resources and commodities)."""
    state, graph, owed = discard_state(held)
    scen = scenario()
    la = legal_actions(state, graph, scen, 1)
    assert "discard_cards" not in la.actions
    (spec,) = la.ranges["discard_cards"]
    assert spec["total"] == owed
    rng = Rng(seed, 0)
    for _ in range(5):
        a = sample_range(spec, rng)
        assert range_admits("discard_cards", spec, a)
        assert adjudicate(state, a, graph, scen).legal, a
    # an arbitrary discard: legal exactly when inside the range
    a = Action("discard_cards", 1, {"resources": {k: other[k] for k in RESOURCES},
                                    "commodities": {k: other[k] for k in COMMODITIES}})
    assert adjudicate(state, a, graph, scen).legal == range_admits("discard_cards", spec, a)
    ex = spec["example"]
    assert adjudicate(state, Action("discard_cards", 1, {"resources": ex["resources"],
                                                         "commodities": ex["commodities"]}), graph, scen).legal


def test_no_range_without_a_discard_owed():
    """CK-SEVEN-2: only a player owing a discard has the range."""
    state, graph, _ = discard_state({**{k: 2 for k in RESOURCES}, **{k: 1 for k in COMMODITIES}})
    la = legal_actions(state, graph, scenario(), 0)
    assert "discard_cards" not in la.ranges
