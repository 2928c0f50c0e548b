"""SC11-009..013: the ``token_from`` choices listed for a placement are exactly the ones the referee
accepts, also when one placement moves two mainland tokens or empties the reserve on its way, and the
choices are judged against the tokens the seeded generator will draw (R-063)."""
from __future__ import annotations

from itertools import product

import pytest

from service.engine.core import Action
from service.engine.geometry import canonical_edge, canonical_node
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios._sc_tokens import seeded_draw, settle_tokens, token_choices
from service.engine.state import Tile

from .test_scenarios_sc06_11 import give
from .test_scenarios_sc06_11_routes import coastal_mainland_settlement, ship_to_island, small_island_state

# A hand-made strip: mainland hexes in row 0, two tokenless small-island hexes in row 2 sharing an edge.
MAINLAND = {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)}
HEXES = {(0, 0): Tile("forest", 5), (1, 0): Tile("hills", 9), (2, 0): Tile("fields", 6),
         (3, 0): Tile("pasture", 10), (4, 0): Tile("mountains", 4),
         (1, 2): Tile("forest"), (2, 2): Tile("hills"), (2, 1): Tile("sea"), (3, 2): Tile("fields", 8)}
EDGE = canonical_edge(1, 2, "E")          # between (1, 2) and (2, 2): both trigger (SC11-008)


def strip_state(pile, buildings):
    st = get_scenario("SC11").new_game(4, 5)
    st.hexes = dict(HEXES)
    st.buildings = dict(buildings)
    st.scenario_state["token_pile"] = list(pile)
    return st


def judged(st, choice):
    """What settle_tokens (the check's judge) says of naming ``choice``, drawing as after_action will."""
    _, problems = settle_tokens(st, MAINLAND, Action("build_road", 0, {"edge": EDGE, "token_from": choice}),
                                seeded_draw(st))
    return not problems


OWN_PLENTY = {canonical_node(1, 0, "S"): (0, "settlement"), canonical_node(3, 0, "S"): (0, "settlement")}
OWN_NONE = {canonical_node(4, -1, "S"): (1, "settlement")}


@pytest.mark.parametrize("pile", [[], [11], [3, 11, 2]])
@pytest.mark.parametrize("buildings", [OWN_PLENTY, OWN_NONE], ids=["own", "none-own"])
def test_listed_token_choices_are_exactly_the_accepted_ones(pile, buildings):
    st = strip_state(pile, buildings)
    listed = token_choices(st, MAINLAND, Action("build_road", 0, {"edge": EDGE}))
    moves = 2 - min(len(pile), 2)                       # tokens the reserve cannot give come from the mainland
    numbered = sorted(h for h in MAINLAND if HEXES[h].number)
    accepted = [list(c) for c in product(numbered, repeat=moves) if moves and judged(st, list(c))]
    assert sorted(listed) == sorted(accepted)
    if moves:
        assert listed and all(len(c) == moves for c in listed)
    else:
        assert listed == []                             # no choice to make: nothing extra is listed


def test_a_red_token_never_lands_next_to_the_red_one_just_moved():
    """SC11-010 across the two moves of one placement: once a red token went to (1, 2), the second may not
    bring a red to its neighbour (2, 2) while another source keeps RED."""
    st = strip_state([], OWN_PLENTY)
    listed = token_choices(st, MAINLAND, Action("build_road", 0, {"edge": EDGE}))
    for first, second in listed:
        if HEXES[first].number in (6, 8):
            assert HEXES[second].number not in (6, 8)


def test_legal_actions_list_every_choice_and_each_is_legal():
    """Through the listing on a real Greater Catan position (reserve empty): every listed ``token_from``
    is legal, and applying it moves the tokens it names."""
    from service.engine.legal import legal_actions
    scen, st = small_island_state([])
    coastal_mainland_settlement(st, 0)
    edge, hexx = ship_to_island(st, 0)
    give(st, 0, lumber=1, wool=1)
    graph = MapGraph.build(st.terrain_map())
    listed = [a for a in legal_actions(st, graph, scen).actions["build_ship"] if a.get("edge") == edge]
    choices = sorted(a.get("token_from") for a in listed if a.get("token_from"))
    mainland = scen.mainland(st)
    assert choices == sorted(token_choices(st, mainland, Action("build_ship", 0, {"edge": edge})))
    for a in listed:
        v = adjudicate(st, a, graph, scen)
        assert v.legal, v.violations
        if a.get("token_from"):
            moved = [e for e in v.events if e["type"] == "number_token_placed"]
            assert [tuple(m["from"]) for m in moved] == [tuple(h) for h in a.get("token_from")]
