"""The viewing player (``seat``, docs/seats.md): each answer for a seat holds only what that seat may know,
and what the seat sees and may do does not change with what it cannot see.

The property test plays seeded games of every scenario (with and without Cities & Knights, 5-6 players, the
wagon train), and at a few positions changes the parts a seat may not see, as the modules declare them
(``SECRETS``): cards exchanged between hidden hands and decks (counts kept), face-down piles reordered,
hidden kinds exchanged, the seed of the draws to come changed. Each changed position must pass the
service's full checks; the seat's view, derived values, legal actions and picture must stay the same.
"""
from __future__ import annotations

import copy
import json

import pytest

from service.api.codec import dump_state
from service.api.service import parse_state
from service.cache import GraphCache
from service.engine.derive import derive
from service.engine.legal import legal_actions, players_to_act
from service.engine.scenarios import GameRefused, SCENARIOS, all_games, get_scenario, scenario_of, with_expansions
from service.engine.seats import Secret, picture_state, _masked, hidden_places, view_derived, view_events, view_legal, view_state
from service.engine.selfplay import play_game, playable_scenarios
from service.render.svg import state_svg

CK = {"cities_and_knights": True}


def _games() -> list[tuple[str, int, dict]]:
    out = []
    seen = set()
    for sid, n in playable_scenarios():
        if sid in seen:
            continue
        seen.add(sid)
        out.append((sid, n, {}))
        try:
            with_expansions(get_scenario(sid), CK, n)
            if "cities_and_knights" in get_scenario(sid).all_options() and \
                    not get_scenario(sid).option_problems(CK, n):
                out.append((sid, n, CK))
        except GameRefused:
            pass
    out += [("base", 5, {}), ("base", 6, {}), ("WAG", 4, {}), ("WAG", 3, CK)]
    return out


GAMES = _games()


def _positions(sid: str, n: int, options: dict, seed: int, at=(40, 110, 190)):
    got = []

    def keep(state, action, verdict):
        if keep.count in at:
            got.append(state)
        keep.count += 1
    keep.count = 0
    play_game(sid, n, seed, max_actions=max(at) + 1, check=False, on_step=keep, options=options or None)
    return got


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _set(doc, path, value):
    _get(doc, path[:-1])[path[-1]] = value


def _counts(v) -> bool:
    return isinstance(v, dict) and v and all(type(x) is int for x in v.values())


def perturbations(doc: dict, secrets, seat: int):
    """Positions (JSON) that differ from ``doc`` only in places ``seat`` may not see, each keeping what the
    mask of every place shows (so the seat's view stays the same by construction of the masks alone)."""
    places = hidden_places(doc, "state", secrets, seat)
    out = []
    # cards exchanged between two hidden holders: one of kind a from P to Q, one of kind b from Q to P
    holders = [(s, p) for s, p in places if _counts(_get(doc, p))]
    for i, (s1, p1) in enumerate(holders):
        for s2, p2 in holders[i + 1:]:
            v1, v2 = _get(doc, p1), _get(doc, p2)
            if not (set(v1) <= set(v2) or set(v2) <= set(v1)):     # (cards of one family only)
                continue
            for a in [k for k, x in v1.items() if x > 0]:
                for b in [k for k, x in v2.items() if x > 0 and k != a]:
                    n1, n2 = dict(v1), dict(v2)
                    n1[a] -= 1
                    n1[b] = n1.get(b, 0) + 1
                    n2[b] -= 1
                    n2[a] = n2.get(a, 0) + 1
                    if _masked(n1, s1.mask) == _masked(v1, s1.mask) and _masked(n2, s2.mask) == _masked(v2, s2.mask):
                        d = copy.deepcopy(doc)
                        _set(d, p1, n1)
                        _set(d, p2, n2)
                        out.append(("exchange", p1, p2, d))
                        break
                else:
                    continue
                break
    # face-down piles turned round; a hidden value's keys exchanged between two places of one secret
    for s, p in places:
        v = _get(doc, p)
        if isinstance(v, list) and len(set(map(json.dumps, v))) > 1:
            d = copy.deepcopy(doc)
            _set(d, p, list(reversed(v)))
            out.append(("reorder", p, None, d))
        elif type(v) is int and s.mask == "hidden":
            d = copy.deepcopy(doc)
            _set(d, p, v + 1)
            out.append(("draws", p, None, d))
    dicts = [(s, p) for s, p in places if isinstance(_get(doc, p), dict) and not _counts(_get(doc, p))]
    # a hidden kind exchanged with one of a hidden stock's (a held token for one left in a stack)
    for s1, p1 in dicts:
        v1 = _get(doc, p1)
        for k, x in v1.items():
            if not isinstance(x, str):
                continue
            for s2, p2 in holders:
                v2 = _get(doc, p2)
                y = next((w for w, c in v2.items() if c > 0 and w != x), None)
                if x in v2 and y is not None:
                    n1, n2 = {**v1, k: y}, {**v2, y: v2[y] - 1, x: v2[x] + 1}
                    if _masked(n1, s1.mask) == _masked(v1, s1.mask) and _masked(n2, s2.mask) == _masked(v2, s2.mask):
                        d = copy.deepcopy(doc)
                        _set(d, p1, n1)
                        _set(d, p2, n2)
                        out.append(("retag", p1, p2, d))
    for i, (s1, p1) in enumerate(dicts):
        for s2, p2 in dicts[i + 1:]:
            if s1 is not s2:
                continue
            v1, v2 = _get(doc, p1), _get(doc, p2)
            for k in set(v1) & set(v2):
                if v1[k] != v2[k]:
                    n1, n2 = {**v1, k: v2[k]}, {**v2, k: v1[k]}
                    if _masked(n1, s1.mask) == _masked(v1, s1.mask) and _masked(n2, s1.mask) == _masked(v2, s1.mask):
                        d = copy.deepcopy(doc)
                        _set(d, p1, n1)
                        _set(d, p2, n2)
                        out.append(("swap", p1, p2, d))
    return out


#: Positions played early too: A New World's harbour tokens are laid face down before the first settlement.
EARLY = {"SC08": (2,), "SC09": (4,)}


def _sample(changes: list, each: int = 4) -> list:
    """At most ``each`` changes of every kind (exchange, reorder, draws, swap, retag)."""
    out, seen = [], {}
    for c in changes:
        seen[c[0]] = seen.get(c[0], 0) + 1
        if seen[c[0]] <= each:
            out.append(c)
    return out


def _legal_json(state, graph, seat):
    scen = scenario_of(state)
    listed = legal_actions(state, graph, scen, seat).to_json()
    return json.dumps(view_legal(listed, scen.composition.secret_specs, seat, state, graph, scen), sort_keys=True,
                      default=str)


@pytest.mark.parametrize("sid,n,options", GAMES, ids=[f"{s}-{n}{'-ck' if o else ''}" for s, n, o in GAMES])
def test_hidden_parts_change_nothing_the_seat_sees_or_may_do(sid, n, options):
    """BASE-DEV-1, BASE-ROBBER-4, CK-PROG-7, R-005, TDE1-005, WAG-017, R-101, R-121, SC08-005, SC09-005: for each
    seat, changing what it may not see changes neither its view, nor its derived values, nor its legal actions, nor the picture."""
    cache = GraphCache()
    tried = accepted = 0
    kinds, changed_at = set(), set()
    for seed in (1, 2):
        for played in _positions(sid, n, options, seed, at=EARLY.get(sid, ()) + (40, 110, 190)):
            doc = dump_state(played)
            state, graph = parse_state(json.loads(json.dumps(doc)), cache)    # (loaded as the changed ones are)
            secrets = scenario_of(state).composition.secret_specs
            to_act = players_to_act(state)
            seats = sorted({to_act[0] if to_act else state.current_player, (state.current_player + 1) % n})
            for seat in seats:
                view = view_state(doc, secrets, seat)
                derived = view_derived(derive(state, graph, scenario_of(state)), secrets, seat)
                legal = _legal_json(state, graph, seat)
                svg = state_svg(picture_state(state, secrets, seat), layers=scenario_of(state).board_layers(state, graph))
                for kind, p1, p2, changed in _sample(perturbations(doc, secrets, seat)):
                    tried += 1
                    try:
                        s2, g2 = parse_state(json.loads(json.dumps(changed)), cache)
                    except Exception:       # (a change the service's checks refuse: no position to compare)
                        continue
                    accepted += 1
                    kinds.add(kind)
                    changed_at.add(p1)
                    where = f"{kind} {p1} {p2} seat {seat}"
                    assert dump_state(s2) != doc, where
                    assert view_state(dump_state(s2), secrets, seat) == view, where
                    assert view_derived(derive(s2, g2, scenario_of(s2)), secrets, seat) == derived, where
                    assert _legal_json(s2, g2, seat) == legal, where
                    assert state_svg(picture_state(s2, secrets, seat),
                                     layers=scenario_of(s2).board_layers(s2, g2)) == svg, where
    assert tried and accepted, (tried, accepted)
    assert "exchange" in kinds      # opponents' hands (and the deck) always hide something by mid-game
    if sid == "WAG" and not options and n == 3:
        assert "retag" in kinds         # an opponent's held token turned into another kind
    if sid in EARLY:
        # SC08-005, SC09-005: the face-down harbour pile reordered, and the seed the laid tokens' kinds are
        # dealt from changed, while tokens lie face down (the picture draws them without a kind)
        assert ("scenario_state", "harbor_pile") in changed_at and ("rng", "seed") in changed_at, changed_at


def _state(sid="base", n=4, options=None, at=120, seed=3):
    return _positions(sid, n, options or {}, seed, at=(at,))[0]


def test_opponents_hands_are_counts_and_the_own_hand_is_shown():
    """BASE-ROBBER-4, BASE-DEV-1: opponents' resource and development cards are counts; the seat's own are
    shown by kind; the deck and the seed of the draws to come are hidden from everyone."""
    state = _state()
    doc = dump_state(state)
    secrets = scenario_of(state).composition.secret_specs
    v = view_state(doc, secrets, 1)
    assert v["seat_view"] == {"seat": 1}
    assert v["players"][1] == doc["players"][1]
    for p in (0, 2, 3):
        assert v["players"][p]["resources"] == sum(doc["players"][p]["resources"].values())
        assert v["players"][p]["dev_cards"] == sum(doc["players"][p]["dev_cards"].values())
        assert v["players"][p]["dev_cards_played"] == doc["players"][p]["dev_cards_played"]
    assert v["dev_deck"] == sum(doc["dev_deck"].values())
    assert v["rng"]["seed"] is None and v["rng"]["counter"] == doc["rng"]["counter"]
    assert doc["players"][0]["resources"] == dump_state(state)["players"][0]["resources"]     # (never changed)


def test_hidden_victory_point_cards_leave_the_public_total():
    """BASE-DEV-9: an opponent's victory-point cards are hidden, and so is the total counting them."""
    derived = {"victory_points": {"0": {"settlements": 2, "victory_point_cards": 1, "total": 3},
                                  "1": {"settlements": 2, "victory_point_cards": 1, "total": 3}}}
    secrets = SCENARIOS["base"].composition.secret_specs
    v = view_derived(derived, secrets, 0)
    assert v["victory_points"]["0"] == derived["victory_points"]["0"]
    assert v["victory_points"]["1"] == {"settlements": 2, "victory_point_cards": None, "total": 2}


def test_the_winner_reveals_victory_point_cards_once_the_game_is_over():
    """BASE-DEV-9: victory-point cards stay hidden until the game is won; then every player's (and the totals
    counting them) are shown to every seat ("revealed ... at game end")."""
    vp = {"0": {"settlements": 2, "victory_point_cards": 1, "total": 3},
          "1": {"settlements": 8, "victory_point_cards": 2, "total": 10},
          "2": {"settlements": 4, "victory_point_cards": 1, "total": 5}}
    secrets = SCENARIOS["base"].composition.secret_specs
    playing = {"victory_points": vp, "winner": None, "phase": "main"}
    over = {"victory_points": vp, "winner": 1, "phase": "game_over"}
    v = view_derived(playing, secrets, 0)
    assert v["victory_points"]["1"] == {"settlements": 8, "victory_point_cards": None, "total": 8}
    v = view_derived(over, secrets, 0)
    assert v["victory_points"]["1"] == vp["1"]                         # the winner's, revealed
    assert v["victory_points"]["2"] == vp["2"]                         # and every other player's: game end
    assert v["victory_points"]["0"] == vp["0"]                         # the seat's own
    assert view_derived(over, secrets, 2)["victory_points"]["0"] == vp["0"]
    assert view_derived(playing, secrets, 2)["victory_points"]["0"]["victory_point_cards"] is None
    assert [p for _s, p in hidden_places(over, "derived", secrets, 0)] == []
    assert [p for _s, p in hidden_places(playing, "derived", secrets, 0)] == [("victory_points", "1"),
                                                                              ("victory_points", "2")]
    # a played game won: another seat's derived values show the winner's cards
    s = play_game("base", 3, 5, check=False).final
    assert s.phase == "game_over" and s.winner is not None
    st, g = parse_state(json.loads(json.dumps(dump_state(s))), GraphCache())
    d = derive(st, g, scenario_of(st))
    other = (s.winner + 1) % 3
    assert view_derived(d, secrets, other)["victory_points"][str(s.winner)] == d["victory_points"][str(s.winner)]


def test_events_revealing_a_card_are_masked_for_the_others():
    """BASE-ROBBER-4, BASE-DEV-1, CK-PROG-7: the stolen card is seen by thief and victim, a bought or drawn card
    by its buyer only."""
    secrets = all_games()["base with cities_and_knights"].composition.secret_specs
    events = [{"type": "stole", "player": 0, "victim": 2, "resource": "ore"},
              {"type": "bought_development_card", "player": 0, "card": "knight"},
              {"type": "progress_drawn", "player": 3, "card": "spy"},
              {"type": "rolled", "player": 0, "dice": [3, 4]}]
    assert view_events(events, secrets, 0) == events[:2] + [{**events[2], "card": None}, events[3]]
    assert view_events(events, secrets, 3)[2] == events[2]
    assert view_events(events, secrets, 2)[:2] == [events[0], {**events[1], "card": None}]
    seen_by_1 = view_events(events, secrets, 1)
    assert seen_by_1[0]["resource"] is None and seen_by_1[1]["card"] is None and seen_by_1[2]["card"] is None
    assert seen_by_1[3] == events[3]
    assert events[0]["resource"] == "ore"        # (never changed)


def test_progress_cards_of_opponents_show_their_colours_only():
    """CK-PROG-7: progress cards are secret; how many of each colour is public."""
    state = _state("base", 4, CK, at=190, seed=2)
    doc = dump_state(state)
    secrets = scenario_of(state).composition.secret_specs
    hands = doc["scenario_state"]["cities_and_knights"]["hands"]
    v = view_state(doc, secrets, 0)["scenario_state"]["cities_and_knights"]
    assert v["hands"]["0"] == hands["0"]
    for p in ("1", "2", "3"):
        assert set(v["hands"][p]) == {"trade", "politics", "science"}
        assert sum(v["hands"][p].values()) == sum(hands[p].values())
    assert all(type(x) is int for x in v["decks"].values())


def _wag_with_tokens():
    for seed in range(1, 12):
        for state in _positions("WAG", 3, {}, seed, at=(60, 120, 180, 240)):
            if sum(1 for w in state.scenario_state["wagons"].values() if w.get("token")) >= 1:
                return state
    raise AssertionError("no WAG position with a held token")


def test_wag_held_token_kind_is_hidden_from_opponents_R101_R121():
    """WAG-017, R-101, R-121: a held token's kind is shown to its owner only; that a token is held and where it
    was drawn stay public; the stacks show how many tokens are left, not their kinds."""
    state = _wag_with_tokens()
    doc = dump_state(state)
    secrets = scenario_of(state).composition.secret_specs
    owner, w = next((int(p), w) for p, w in doc["scenario_state"]["wagons"].items() if w.get("token"))
    other = (owner + 1) % state.num_players
    mine = view_state(doc, secrets, owner)["scenario_state"]["wagons"][str(owner)]["token"]
    theirs = view_state(doc, secrets, other)["scenario_state"]["wagons"][str(owner)]["token"]
    assert mine == w["token"] and mine["kind"] is not None
    assert theirs == {"kind": None, "from": w["token"]["from"]}
    stacks = view_state(doc, secrets, other)["scenario_state"]["stacks"]
    assert stacks == {k: sum(v.values()) for k, v in doc["scenario_state"]["stacks"].items()}
    graph = GraphCache().get(state.terrain_map())
    d = derive(state, graph, scenario_of(state))
    assert view_derived(d, secrets, other)["wagons"][str(owner)]["token"]["kind"] is None
    assert view_derived(d, secrets, owner)["wagons"][str(owner)]["token"]["kind"] == w["token"]["kind"]
    drawn = [{"type": "token_drawn", "player": owner, "hex": "castle", "kind": "glass"}]
    assert view_events(drawn, secrets, owner) == drawn
    assert view_events(drawn, secrets, other)[0]["kind"] is None


def test_face_down_piles_and_treasures_are_hidden_from_everyone():
    """R-005, TDE1-005: the face-down hex and token piles show their sizes; a treasure token on the board shows
    where it lies, not what it gives."""
    state = _state("TDE1", 4, at=40)
    doc = dump_state(state)
    secrets = scenario_of(state).composition.secret_specs
    ss = view_state(doc, secrets, 0)["scenario_state"]
    assert ss["hex_pile"] == len(doc["scenario_state"]["hex_pile"])
    assert ss["token_pile"] == len(doc["scenario_state"]["token_pile"])
    assert ss["treasure_stock"] == len(doc["scenario_state"]["treasure_stock"])
    assert ss["treasures"] == [{"node": t["node"]} for t in doc["scenario_state"]["treasures"]]


def test_every_secret_points_at_a_declared_place():
    """Each module's secrets name a place its declarations have (a pointer into ``scenario_state`` names a
    declared key; an event's a declared field of a declared event)."""
    for gid, game in all_games().items():
        comp = game.composition
        for mod, s in comp.secrets:
            assert isinstance(s, Secret) and s.doc, (gid, s)
            if s.root == "event":
                t, f = s.path
                if t in comp.events:
                    assert f in comp.events[t].fields, (gid, s.where)
            elif s.root == "state" and s.path[:1] == ("scenario_state",):
                assert s.path[1] in comp.state.fields, (gid, s.where)
            elif s.root == "state" and not s.path:     # (a mask of the whole position: the module's own data)
                assert callable(s.mask) and mod not in ("base", "seafarers"), (gid, s.where)
            elif s.root == "derived":
                assert s.path[0] in comp.derived.fields or s.path[0] == "victory_points", (gid, s.where)


def test_docs_list_every_secret():
    """docs/seats.md is generated from the declarations (``bin/contract`` writes it)."""
    from service.engine.seats import secrets_doc
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "seats.md").read_text(encoding="utf-8")
    assert secrets_doc() in text


# -- over HTTP ----------------------------------------------------------------------------------------------

def _mid_game(seed=3, sid="base", n=4, options=None, at=150):
    state = _state(sid, n, options, at=at, seed=seed)
    return state, dump_state(state)


def _log(sid="base", n=4, seed=3, actions=150, options=None):
    from service.engine.legal import action_json
    g = play_game(sid, n, seed, max_actions=actions, check=False, options=options or None)
    return [action_json(a) for a in g.log]


def test_a_seat_gets_its_view_and_no_state_tag(client):
    """D-seat-view, BASE-ROBBER-4: the answer's position is the seat's view, marked, without a State-Tag; the same
    request without a seat is the referee's answer, byte for byte as before (tagged)."""
    _state_, doc = _mid_game()
    full = client.post("/v1/adjudicate", json={"state": doc})
    seated = client.post("/v1/adjudicate", json={"state": doc, "seat": 2})
    nulled = client.post("/v1/adjudicate", json={"state": doc, "seat": None})
    assert full.status_code == seated.status_code == 200
    assert nulled.data == full.data and nulled.headers.get("State-Tag") == full.headers.get("State-Tag")
    assert full.headers.get("State-Tag") and not seated.headers.get("State-Tag")
    v = seated.get_json()["state"]
    assert v["seat_view"] == {"seat": 2}
    assert v["players"][2]["resources"] == doc["players"][2]["resources"]
    assert v["players"][0]["resources"] == sum(doc["players"][0]["resources"].values())


def test_an_illegal_actions_verdict_for_a_seat_masks_the_posted_positions_values(client):
    """BASE-DEV-9: an illegal action's verdict has no new state; its derived values (the posted position's) are
    masked for the seat all the same."""
    state, doc = _mid_game()
    seat = state.current_player
    r = client.post("/v1/adjudicate", json={"state": doc, "seat": seat,
                                            "action": {"type": "build_city", "player": seat, "node": [0, 0, "N"]}})
    got = r.get_json()
    assert r.status_code == 200 and got["legal"] is False and got["state"] is None
    other = str((seat + 1) % state.num_players)
    assert got["derived"]["victory_points"][other]["victory_point_cards"] is None
    assert got["derived"]["victory_points"][str(seat)]["victory_point_cards"] is not None


def test_a_view_posted_back_is_refused_naming_seat_view(client):
    """D-seat-view: a seat's view is not a position: every endpoint taking a state refuses it with a 422."""
    _state_, doc = _mid_game()
    view = client.post("/v1/adjudicate", json={"state": doc, "seat": 1}).get_json()["state"]
    for path, body in (("/v1/adjudicate", {"state": view}), ("/v1/derive", {"state": view}),
                       ("/v1/legal-actions", {"state": view}), ("/v1/render", {"state": view}),
                       ("/v1/replay", {"state": view, "actions": []})):
        r = client.post(path, json=body)
        assert r.status_code == 422, path
        assert r.get_json()["errors"][0]["pointer"] == "/state/seat_view", path


def test_seat_must_be_a_player_of_the_game(client):
    _state_, doc = _mid_game()
    for seat, why in ((4, "does not exist"), (-1, "player number"), ("1", "player number"), (True, "player number")):
        r = client.post("/v1/derive", json={"state": doc, "seat": seat})
        assert r.status_code == 422, seat
        assert r.get_json()["errors"][0]["pointer"] == "/seat"


def test_a_seat_judges_and_lists_only_its_own_actions(client):
    """D-seat-own-actions: another player's action is not judged for a seat, nor its list given."""
    state, doc = _mid_game()
    other = (state.current_player + 1) % state.num_players
    r = client.post("/v1/adjudicate", json={"state": doc, "seat": other,
                                            "action": {"type": "end_turn", "player": state.current_player}})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/action/player"
    r = client.post("/v1/legal-actions", json={"state": doc, "seat": other, "player": state.current_player})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/player"
    r = client.post("/v1/legal-actions", json={"state": doc, "seat": state.current_player})
    assert r.status_code == 200 and r.get_json()["player"] == state.current_player
    r = client.post("/v1/derive?explain=true", json={"state": doc, "seat": 0})
    assert r.status_code == 422        # D-seat-explain


def test_a_seats_trades_do_not_name_the_partners_cards(client):
    """D-seat-trades: the domestic trades a seat may propose leave what the partner may give open."""
    for seed in range(1, 30):
        state, doc = _mid_game(seed=seed, at=120)
        full = client.post("/v1/legal-actions", json={"state": doc}).get_json()
        if full.get("ranges", {}).get("domestic_trade"):
            break
    else:
        pytest.skip("no position with a domestic trade")
    seat = state.current_player
    seated = client.post("/v1/legal-actions", json={"state": doc, "seat": seat}).get_json()
    trades = seated["ranges"]["domestic_trade"]
    assert {t["partner"] for t in full["ranges"]["domestic_trade"]} <= {t["partner"] for t in trades}
    for t in trades:
        assert t["get"]["at_most"] is None and t["example"] is None
        assert t["get"]["total_at_most"] == sum(doc["players"][t["partner"]]["resources"].values())
        assert t["give"]["at_most"] == doc["players"][seat]["resources"]


def test_a_seats_replay_masks_events_and_digests_its_views(client):
    """D-seat-replay, BASE-ROBBER-4, BASE-DEV-1: the replay for a seat masks the cards others stole or bought,
    and digests what the seat sees: the same digests whatever the seed of the draws (hidden)."""
    log = _log()
    body = {"new_game": {"scenario": "base", "players": 4, "seed": 3}, "actions": log, "events": True}
    full = client.post("/v1/replay", json=body).get_json()
    seated = client.post("/v1/replay", json={**body, "seat": 2}).get_json()
    assert seated["final"]["state"]["seat_view"] == {"seat": 2}
    assert seated["initial_digest"] != full["initial_digest"]
    assert [s["digest"] for s in seated["steps"]] != [s["digest"] for s in full["steps"]]
    for fs, ss in zip(full["steps"], seated["steps"]):
        for fe, se in zip(fs["events"], ss["events"]):
            if fe["type"] == "stole" and 2 not in (fe["player"], fe["victim"]):
                assert se["resource"] is None
            elif fe["type"] == "bought_development_card" and fe["player"] != 2:
                assert se["card"] is None
            else:
                assert se == fe
    lines = client.post("/v1/replay?stream=true", json={**body, "seat": 2}).data.decode().splitlines()
    steps = [json.loads(x)["step"] for x in lines if x.startswith('{"step"')]
    assert steps == seated["steps"]
    summary = json.loads(lines[-1])["summary"]
    assert summary["final"] == seated["final"]


def test_new_game_and_batch_lines_take_a_seat(client):
    """WAG-017, R-121: a new game for a seat hides the stacks' kinds; a batch line's body takes its own seat."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 5, "seat": 0})
    assert r.status_code == 201 and not r.headers.get("State-Tag")
    st = r.get_json()["state"]
    assert st["seat_view"] == {"seat": 0} and all(type(v) is int for v in st["scenario_state"]["stacks"].values())
    assert r.headers["Location"] == client.post("/v1/games", json={"scenario": "WAG", "players": 3,
                                                                   "seed": 5}).headers["Location"]
    _state_, doc = _mid_game()
    lines = "\n".join(json.dumps(x) for x in (
        {"id": 1, "op": "derive", "body": {"state": doc, "seat": 1}},
        {"id": 2, "op": "derive", "body": {"state": doc}}))
    out = [json.loads(x) for x in client.post("/v1/batch", data=lines, content_type="application/x-ndjson")
           .data.decode().splitlines()]
    by = {o["id"]: o for o in out}
    assert by[1]["status"] == by[2]["status"] == 200
    assert by[1]["body"]["derived"]["victory_points"]["0"]["victory_point_cards"] is None
    assert by[1]["body"]["derived"]["victory_points"]["1"]["victory_point_cards"] is not None
    assert type(by[2]["body"]["derived"]["victory_points"]["0"]["victory_point_cards"]) is int


def test_the_picture_for_a_seat_shows_what_the_table_sees(client):
    """TDE5-004: a seat's picture is the referee's but for what the board shows face down (the property test
    holds every picture unchanged by the hidden parts)."""
    _state_, doc = _mid_game(sid="TDE1", at=110)
    a = client.post("/v1/render", json={"state": doc}).data
    b = client.post("/v1/render", json={"state": doc, "seat": 1}).data
    assert a == b and a.startswith(b"<")
    _state_, doc = _mid_game(sid="TDE5", options=CK, at=110, seed=1)
    a = client.post("/v1/render", json={"state": doc}).data
    b = client.post("/v1/render", json={"state": doc, "seat": 1}).data
    assert a != b and b.startswith(b"<")


def test_an_imported_position_for_a_seat_is_its_view(client):
    """D-seat-view: an imported save answered to a seat is the seat's view (its derived values and digest too);
    a log imported for a seat is refused (a record is the referee's)."""
    from pathlib import Path
    js = Path(__file__).resolve().parent / "fixtures" / "records" / "jsettlers2"
    save = json.loads((js / "tradestats.game.json").read_text())
    full = client.post("/v1/import", json={"record": save}).get_json()
    seated = client.post("/v1/import", json={"record": save, "seat": 0}).get_json()
    assert seated["state"]["seat_view"] == {"seat": 0} and seated["digest"] != full["digest"]
    assert seated["state"]["players"][0]["resources"] == full["state"]["players"][0]["resources"]
    assert seated["state"]["players"][1]["resources"] == sum(full["state"]["players"][1]["resources"].values())
    assert seated["derived"]["victory_points"]["1"]["victory_point_cards"] is None
    r = client.post("/v1/import", json={"record": (js / "has-timestamps.soclog").read_text(encoding="utf-8"),
                                        "seat": 0})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/seat"


def test_face_down_field_tokens_are_hidden_TDE5():
    """TDE5-004: a field's token lies face down until the flood: its number is null in every seat's view, and
    the seat's view and legal actions stay the same when two face-down tokens change places."""
    cache = GraphCache()
    state = _state("TDE5", 4, CK, at=110, seed=1)
    doc = dump_state(state)
    barren = [tuple(h) for h in doc["scenario_state"]["barren"]]
    assert len(barren) >= 2
    secrets = scenario_of(state).composition.secret_specs
    seat = state.current_player
    view = view_state(doc, secrets, seat)
    shown = {(h["q"], h["r"]): h["number"] for h in view["board"]["hexes"]}
    assert all(shown[h] is None for h in barren)
    assert [h for h in doc["board"]["hexes"] if (h["q"], h["r"]) == barren[0]][0]["number"] is not None
    changed = copy.deepcopy(doc)
    at = {(h["q"], h["r"]): h for h in changed["board"]["hexes"]}
    first, second = at[barren[0]], at[barren[1]]
    first["number"], second["number"] = second["number"], first["number"]
    assert first["number"] != second["number"]
    s1, g1 = parse_state(json.loads(json.dumps(doc)), cache)
    s2, g2 = parse_state(changed, cache)
    assert view_state(dump_state(s2), secrets, seat) == view_state(dump_state(s1), secrets, seat)
    assert _legal_json(s2, g2, seat) == _legal_json(s1, g1, seat)
    assert view_derived(derive(s2, g2, scenario_of(s2)), secrets, seat) == \
        view_derived(derive(s1, g1, scenario_of(s1)), secrets, seat)
    pictures = [state_svg(picture_state(s, secrets, seat), layers=scenario_of(s).board_layers(s, g))
                for s, g in ((s1, g1), (s2, g2))]
    assert pictures[0] == pictures[1]
    assert state_svg(s1, layers=scenario_of(s1).board_layers(s1, g1)) != \
        state_svg(s2, layers=scenario_of(s2).board_layers(s2, g2))      # (the referee's picture shows them)


def test_a_new_game_fetched_again_takes_the_seat_as_a_query_parameter(client):
    """D-seat-view: ``GET /v1/games/...`` (a new game's Location) answers the seat's view with ``?seat=``."""
    loc = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 5}).headers["Location"]
    r = client.get(loc + ("&" if "?" in loc else "?") + "seat=1")
    assert r.status_code == 200 and not r.headers.get("State-Tag")
    assert r.get_json()["state"] == client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 5,
                                                                   "seat": 1}).get_json()["state"]
    assert client.get(loc + ("&" if "?" in loc else "?") + "seat=7").status_code == 422
    assert client.get(loc + ("&" if "?" in loc else "?") + "seat=x").status_code == 400
    assert "seat" in client.get(loc + ("&" if "?" in loc else "?") + "colour=red").get_json()["detail"]


@pytest.mark.parametrize("sid,n,options", [("base", 4, {}), ("WAG", 3, {}), ("TDE1", 4, {}), ("SC05", 4, CK)],
                         ids=["base", "WAG", "TDE1", "SC05-ck"])
def test_answers_to_a_seat_match_the_contract(client, sid, n, options):
    """The contract declares what a seat is answered: each position a SeatView (the answers' schemas type it as
    the State a client posts back), masked events, victory points and trade ranges as declared."""
    from .spec_util import check_response, errors, response_pointer
    view = "/components/schemas/SeatView"
    state, doc = _mid_game(sid=sid, n=n, options=options, at=110, seed=1)
    seat = state.current_player
    r = client.post("/v1/adjudicate", json={"state": doc, "seat": seat})
    body = r.get_json()
    assert not errors(body["state"], view)
    assert not errors({**body, "state": None}, response_pointer("/v1/adjudicate", "post", 200, r.mimetype))
    check_response("/v1/derive", "post", client.post("/v1/derive", json={"state": doc, "seat": (seat + 1) % n}))
    check_response("/v1/legal-actions", "post", client.post("/v1/legal-actions", json={"state": doc, "seat": seat}))
    body = {"new_game": {"scenario": sid, "players": n, "seed": 1, "options": options},
            "actions": _log(sid, n, 1, 110, options), "events": True, "seat": (seat + 1) % n}
    got = client.post("/v1/replay", json=body).get_json()
    assert not errors(got["final"]["state"], view)
    for step in got["steps"]:
        assert not errors(step, "/components/schemas/ReplayStep")
    assert not errors(got["final"]["derived"], "/components/schemas/Derived")
    new = client.post("/v1/games", json={"scenario": sid, "players": n, "seed": 1, "options": options, "seat": 0})
    assert new.status_code == 201 and not errors(new.get_json()["state"], view)

@pytest.mark.parametrize("sid,n,at", [("SC08", 3, 2), ("SC09", 4, 4)])
def test_face_down_harbour_tokens_are_kept_from_every_seat(sid, n, at):
    """SC08-005, SC09-005: the harbour pile is face down (a count in every seat's view, the placer's too);
    a laid token is shown where it lies, without a kind, and the picture draws it face down ("?")."""
    state = _state(sid, n, at=at)
    doc = dump_state(state)
    slots = doc["scenario_state"]["harbor_slots"]
    assert slots and doc["scenario_state"]["harbor_pile"] and not doc["board"]["harbors"]
    secrets = scenario_of(state).composition.secret_specs
    for seat in range(n):
        v = view_state(doc, secrets, seat)
        assert v["scenario_state"]["harbor_pile"] == len(doc["scenario_state"]["harbor_pile"])
        assert v["scenario_state"]["harbor_slots"] == slots
    cache = GraphCache()
    st, g = parse_state(json.loads(json.dumps(doc)), cache)
    svg = state_svg(picture_state(st, secrets, 0), layers=scenario_of(st).board_layers(st, g))
    assert svg.count("laid face down facing") == len(slots)
    assert '<g class="harbor">' not in svg              # (no harbour drawn with its kind)
