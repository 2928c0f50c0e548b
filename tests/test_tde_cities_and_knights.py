"""Treasures, Dragons & Explorers 1-4 with Cities & Knights: each scenario text's section "Combining with
Cities & Knights" (TDE1-016/017, TDE2-022..024, TDE3-016) and TDE4's refusal (TDE4-001)."""
from __future__ import annotations

import pytest

from service.engine.core import Action
from service.engine.legal import legal_actions
from service.engine.mapgraph import MapGraph
from service.engine.modules.cities_and_knights import store
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import get_scenario, start_game, with_expansions

from .helpers import adjudicate, rules
from .test_tde_treasures import TO_31N, claim, events, post, ship, treasure

CK = {"cities_and_knights": True}


def ck_post(sid="TDE1", players=3, **kw) -> dict:
    st = post(sid, players=players, **kw)
    st["options"] = dict(CK)
    st["scenario_state"][store.KEY] = store.initial(players)
    st.setdefault("turn_flags", {})["rolled"] = True
    return st


@pytest.mark.parametrize("sid,n,target", [("TDE1", 3, 17), ("TDE1", 4, 16), ("TDE2", 3, 14), ("TDE2", 4, 14),
                                          ("TDE3", 3, 20), ("TDE3", 4, 20)])
def test_combined_targets(sid, n, target):
    """TDE1-016: 17 VP (3 players) / 16 (4); TDE2-023: 14; TDE3-016: 20 -- the scenario's own combined
    target, not C&K's "+2" (CK-SEA-1 lets a stated target win)."""
    assert start_game(sid, n, 1, CK).vp_target == target
    assert start_game(sid, n, 1).vp_target == get_scenario(sid).vp_target


def test_tde3_wins_at_twenty_not_before(client):
    """TDE3-016: with C&K Greater Catan is won at 20 VP on one's own turn."""
    s = start_game("TDE3", 3, 1, CK)
    assert s.vp_target == 20 and with_expansions(get_scenario("TDE3"), CK).ck_vp_target() == 20


@pytest.mark.parametrize("sid,rule", [("TDE1", "TDE1-017"), ("TDE2", "TDE2-024")])
def test_development_card_treasure_gives_a_progress_card_of_a_chosen_stack(client, sid, rule):
    """TDE1-017 / TDE2-024: with C&K a development-card treasure gives the top progress card of any one
    of the three stacks, the finder's choice (``deck``); the card is the seeded draw of that stack."""
    st = ck_post(sid, ss={"treasures": [treasure((3, 1, "N"), "development_card")]})
    v = adjudicate(client, st, ship(TO_31N))
    assert v["legal"], v["violations"]
    assert v["state"]["scenario_state"]["pending"][0]["kind"] == "development_card"
    none = adjudicate(client, *claim(v))
    assert not none["legal"] and rules(none) == [rule] and none["violations"][0]["path"] == "/action/deck"
    w = adjudicate(client, *claim(v, deck="politics"))
    assert w["legal"], w["violations"]
    drawn = events(w, "progress_drawn")
    assert len(drawn) == 1 and rule in drawn[0]["why"]
    c = w["state"]["scenario_state"][store.KEY]
    card = drawn[0]["card"]
    from service.engine.modules.cities_and_knights.data import DECKS
    assert card in DECKS["politics"] and sum(c["decks"]["politics"].values()) == 17
    held = {**c["hands"]["0"], **c["vp_cards"]["0"]}
    assert held == {card: 1}
    # an empty stack is not chosen while another holds cards; a resources treasure takes no deck
    empty = ck_post(sid, ss={"treasures": [treasure((3, 1, "N"), "development_card")]})
    empty["scenario_state"][store.KEY]["decks"]["science"] = {k: 0 for k in DECKS["science"]}
    science = dict(DECKS["science"])                  # CK-PROG-4: the point cards lie face up, not in the hand
    empty["scenario_state"][store.KEY]["vp_cards"]["1"] = {k: science.pop(k) for k in ("printer", "constitution")
                                                           if k in science}
    empty["scenario_state"][store.KEY]["hands"]["1"] = science
    e = adjudicate(client, *claim(adjudicate(client, empty, ship(TO_31N)), deck="science"))
    assert not e["legal"] and rules(e) == [rule]
    res = ck_post(sid, ss={"treasures": [treasure((3, 1, "N"), "resources")]})
    r = adjudicate(client, *claim(adjudicate(client, res, ship(TO_31N)), deck="trade", resources={"ore": 2}))
    assert not r["legal"] and rules(r) == [rule]


@pytest.mark.parametrize("sid,rule", [("TDE1", "TDE1-017"), ("TDE2", "TDE2-024")])
def test_listed_treasure_claims_name_each_stack(client, sid, rule):
    """TDE1-017 / TDE2-024: the legal-action list gives the claim once per stack holding cards, each legal."""
    st = ck_post(sid, ss={"treasures": [treasure((3, 1, "N"), "development_card")]})
    v = adjudicate(client, st, ship(TO_31N))
    la = client.post("/v1/legal-actions", json={"state": v["state"]}).get_json()
    claims = la["actions"]["claim_reward"]
    assert sorted(a.get("deck") for a in claims if not a.get("keep")) == ["politics", "science", "trade"]
    for a in claims:
        assert adjudicate(client, v["state"], a)["legal"], (rule, a)


def test_departure_second_building_a_city_third_settlement_pays():
    """TDE2-022 (R-061): with C&K each player's second starting building is a city, which pays nothing;
    the third settlement brings the starting resources (TDE2-009)."""
    scen = with_expansions(get_scenario("TDE2"), CK)
    st = scen.new_game(3, 3, CK)
    g = MapGraph.build(st.terrain_map())
    paid = {}
    while st.phase == "setup":
        la = legal_actions(st, g, scen)
        a = next(la.actions[t][0] for t in ("claim_reward", "build_settlement", "build_road", "build_ship")
                 if la.actions.get(t))
        rnd = st.setup.round
        v = engine_adjudicate(st, a, g, scen)
        assert v.legal, v.violations
        if a.type == "build_settlement":
            paid[(rnd, a.player)] = [e for e in v.events if e["type"] == "starting_resources"]
        st, g = v.state, v.graph or g
    for p in range(3):
        kinds = sorted(k for o, k in st.buildings.values() if o == p)
        assert kinds == ["city", "settlement", "settlement"]
        assert not paid[(2, p)]
    assert any(paid[(3, p)] for p in range(3))


def test_tde4_refuses_cities_and_knights(client):
    """TDE4-001: The Desert Dragons is not combined with C&K: 422 naming the option and the rule."""
    r = client.post("/v1/games", json={"scenario": "TDE4", "players": 3, "seed": 1, "options": CK})
    assert r.status_code == 422
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/options/cities_and_knights" and "TDE4-001" in err["detail"]


@pytest.mark.parametrize("sid,n,seed", [("TDE2", 3, 3)])
def test_random_game_with_cities_and_knights_is_won(sid, n, seed):
    """TDE2-023: a seeded random C&K game of Departure is won at 14 VP, every invariant holding."""
    from service.engine.selfplay import play_game
    g = play_game(sid, n, seed, max_actions=5000, options=CK)
    assert g.failures == [] and g.ended == "won", (g.failures[:3], g.ended)
    assert g.final.vp_target == 14
