"""A scripted 4-player GOLD game through the API, each state the previous verdict's state.

Set-up away from the front coast (GOLD-035), roads to the coast, a first front-coast settlement, ships
built (GOLD-021), a round trip to a gold island and back (GOLD-024, GOLD-032, GOLD-031), a 2 rolled with a
loaded ship at sea (GOLD-033), Largest Fleet changing hands (GOLD-037), and the A/B/C rule rejecting a
settlement that would cut an opponent off the front coast (GOLD-042).

Between turns the script deals cards from the bank to the player about to build (as production would;
the bank and hands stay a consistent 19 of each), so the game reaches the situations quickly.
"""
from __future__ import annotations

RES = ("lumber", "brick", "wool", "grain", "ore")


def post(client, st, action):
    r = client.post("/v1/adjudicate", json={"state": st, "action": action})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def step(client, st, type_, player, **kw):
    v = post(client, st, {"type": type_, "player": player, **kw})
    assert v["legal"], (type_, player, kw, v["violations"])
    return v["state"], v


def deal(st, player, n=2):
    """Move ``n`` of every resource from the bank to ``player`` (what production would bring); the other
    players' cards go back to the bank first, so it never runs dry in this long script."""
    for i, p in enumerate(st["players"]):
        if i != player:
            for r in RES:
                st["bank"][r] += p["resources"][r]
                p["resources"][r] = 0
    for r in RES:
        k = min(n, st["bank"][r])
        st["bank"][r] -= k
        st["players"][player]["resources"][r] += k
    return st


def turn_over(client, st, dice=(2, 3), skip_robber=True):
    """The current player ends the turn; the next one rolls ``dice`` (a 7 is never used here)."""
    st, _ = step(client, st, "end_turn", st["current_player"])
    st, v = step(client, st, "roll", st["current_player"], dice=list(dice))
    return st, v


def pass_round(client, st, until: int, dice=(2, 3)):
    """Play empty turns until it is ``until``'s turn (rolled)."""
    while True:
        st, v = turn_over(client, st, dice)
        if st["current_player"] == until:
            return st, v


def ship_of(st, ship_id):
    return next(sh for sh in st["scenario_state"]["ships"] if sh["id"] == ship_id)


def test_scripted_four_player_game(client):
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 4, "seed": 1})
    assert r.status_code == 201
    st = r.get_json()["state"]
    fc = {tuple(x) for x in st["scenario_state"]["front_coast"]}

    # -- set-up: no starting settlement on the front coast (GOLD-035) ------------------------------------
    v = post(client, st, {"type": "build_settlement", "player": 0, "node": [2, 3, "S"]})
    assert [x["rule"] for x in v["violations"]] == ["GOLD-035"]
    placements = [
        (0, [2, 3, "N"], [2, 2, "SE"]), (1, [4, 3, "N"], [4, 2, "SE"]), (2, [3, 1, "N"], [3, 1, "NE"]),
        (3, [6, 1, "N"], [6, 1, "NE"]), (3, [5, 0, "N"], [5, 0, "NE"]), (2, [3, 0, "N"], [3, 0, "NE"]),
        (1, [1, 3, "N"], [1, 3, "NE"]), (0, [6, 2, "N"], [6, 2, "NE"]),
    ]
    for p, node, edge in placements:
        assert tuple(node) not in fc
        st, _ = step(client, st, "build_settlement", p, node=node)
        st, _ = step(client, st, "build_road", p, edge=edge)
    assert st["phase"] == "roll" and st["current_player"] == 0
    v = post(client, st, None)
    assert set(v["derived"]["mnr"]) == {"0", "1", "2", "3"}       # everyone pending, everyone can reach
    assert all(w is not None for w in v["derived"]["mnr"].values())

    # -- turn 1 (player 0): a road to the coast and the first front-coast settlement ------------------------
    st, _ = step(client, st, "roll", 0, dice=[4, 5])
    deal(st, 0, 3)
    mnr0 = post(client, st, None)["derived"]["mnr"]["0"]
    assert mnr0["roads"] == 1
    st, _ = step(client, st, "build_road", 0, edge=mnr0["path"][0])
    home0 = mnr0["site"]
    st, v = step(client, st, "build_settlement", 0, node=home0)
    assert v["derived"]["statements"]["B"] is False                  # first front-coast settlement
    assert "0" not in v["derived"]["mnr"]
    gold0 = st["players"][0]["gold"]
    assert gold0 == 8 - 1 - 2                                         # GOLD-007, GOLD-009
    # a ship docked at home (GOLD-021), paid with gold (GOLD-008)
    from service.engine.mapgraph import MapGraph
    from service.engine.modules.gold.mnr import home_dock_spaces, space_path
    hexes = {(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]}
    g = MapGraph.build(hexes)
    docks = sorted(home_dock_spaces(g, tuple(home0)), key=lambda e: len(space_path(g, e)))
    st, v = step(client, st, "build_ship", 0, edge=list(docks[0]))
    ship0 = v["events"][0]["ship"] if v["events"][0].get("ship") is not None else 0
    assert st["players"][0]["gold"] == gold0 - 1
    v = post(client, st, {"type": "sail_ship", "player": 0, "ship": ship0, "path": [list(space_path(g, docks[0])[0])]})
    assert [x["rule"] for x in v["violations"]] == ["GOLD-027"]       # not on the turn it was built

    # -- the round trip: out 2, then 1 to the gold dock, load, 1 back; a 2 is rolled with the ship at sea ---
    out = [list(e) for e in space_path(g, docks[0])]
    assert len(out) in (3, 4)                                         # GOLD-034
    st, _ = pass_round(client, st, 0)
    st, _ = step(client, st, "sail_ship", 0, ship=ship0, path=out[:2])
    st, _ = pass_round(client, st, 0)
    rest = out[2:]
    st, v = step(client, st, "sail_ship", 0, ship=ship0, path=rest)
    assert v["events"][-1]["docked"] == "gold"
    st, _ = step(client, st, "load_gold", 0, ship=ship0)
    assert ship_of(st, ship0)["cargo"] == 4
    if len(rest) == 2:                                                # no move left this turn
        st, _ = pass_round(client, st, 0)
    st, _ = step(client, st, "sail_ship", 0, ship=ship0, path=[out[-2]])
    # player 1 rolls a 2: player 0's loaded ship is in open water and loses 2 gold (GOLD-033)
    st, v = turn_over(client, st, dice=(1, 1))
    lost = [e for e in v["events"] if e["type"] == "cargo_lost"]
    assert lost == [{"type": "cargo_lost", "player": 0, "ship": ship0, "gold": 2, "roll": 2}]
    assert ship_of(st, ship0)["cargo"] == 2
    st, _ = pass_round(client, st, 0)
    sh = ship_of(st, ship0)
    home_path = [list(e) for e in space_path(g, tuple(sh["edge"]), "home", tuple(home0))]
    extend = "wool" if len(home_path) > 2 else None                 # +2 spaces for a wool (GOLD-025)
    if extend:
        deal(st, 0, 1)
    st, v = step(client, st, "sail_ship", 0, ship=ship0, path=home_path, extend=extend)
    assert v["events"][-1]["docked"] == "home"
    before = st["players"][0]["gold"]
    st, _ = step(client, st, "unload_gold", 0, ship=ship0)
    assert st["players"][0]["gold"] == before + 2

    # -- Largest Fleet: player 0 takes it with 2 ships (city homes 2), player 1 takes it over with 3 -------
    deal(st, 0, 3)
    st, _ = step(client, st, "build_city", 0, node=home0)
    st, v = step(client, st, "build_ship", 0, edge=list(docks[1]))
    assert v["derived"]["largest_fleet"]["holder"] == 0
    assert v["derived"]["victory_points"]["0"]["largest_fleet"] == 2

    st, _ = pass_round(client, st, 1)
    deal(st, 1, 4)
    st["players"][1]["gold"] += 10                                    # as if ships had brought it home
    m1 = post(client, st, None)["derived"]["mnr"]["1"]
    for e in m1["path"]:
        st, _ = step(client, st, "build_road", 1, edge=e)
    home1 = m1["site"]
    deal(st, 1, 2)
    st, _ = step(client, st, "build_settlement", 1, node=home1)
    deal(st, 1, 3)
    st, _ = step(client, st, "build_city", 1, node=home1)
    deal(st, 1, 2)
    g1 = sorted(home_dock_spaces(g, tuple(home1)))
    st, _ = step(client, st, "build_ship", 1, edge=list(g1[0]))
    deal(st, 1, 1)
    st, v = step(client, st, "build_ship", 1, edge=list(g1[1]))
    assert v["derived"]["largest_fleet"]["holder"] == 0               # 2 : 2, the holder keeps it

    # -- the A/B/C rule: player 1's second front-coast settlement may not cut player 3 off --------------
    v = post(client, st, None)
    pending = v["derived"]["mnr"]
    assert "3" in pending and pending["3"] is not None
    st, _ = pass_round(client, st, 1)
    deal(st, 1, 4)
    rejected = None
    for site in sorted(fc):
        if rejected is not None:
            break
        trial = post(client, st, {"type": "build_settlement", "player": 1, "node": list(site)})
        if trial["violations"] and trial["violations"][0]["rule"] == "GOLD-042":
            rejected = (site, trial)
    # build towards a pinching site if none is reachable yet: the roads that get there are legal, the
    # settlement is not
    if rejected is None:
        for site in sorted(fc):
            got = settle(client, st, 1, site, g)
            if got is not None and got[1]["violations"] and got[1]["violations"][0]["rule"] == "GOLD-042":
                st, rejected = got[0], (site, got[1])
                break
    assert rejected is not None, "no front-coast settlement of player 1 pinched anyone"
    site, trial = rejected
    s = trial["derived"]["statements"]
    assert s["A"] and (s["B"] or s["C"])
    assert s["B"] is True                                             # not player 1's first front-coast settlement
    assert any(trial["derived"]["mnr_if_built"][q] is None or
               trial["derived"]["mnr_if_built"][q] - trial["derived"]["mnr_before"][q] >= 2
               for q in trial["derived"]["mnr_before"])

    # -- a third ship for player 1 at a harmless second front-coast site takes Largest Fleet ------------
    deal(st, 1, 4)
    st["players"][1]["gold"] += 10
    taken = False
    for site in sorted(fc):
        got = settle(client, st, 1, site, g)
        if got is None or not got[1]["legal"]:
            continue
        st2 = got[1]["state"]
        d = sorted(home_dock_spaces(g, site))
        v = post(client, st2, {"type": "build_ship", "player": 1, "edge": list(d[0])})
        if v["legal"]:
            assert {"type": "award", "award": "largest_fleet", "from": 0, "to": 1} in v["events"]
            assert v["derived"]["victory_points"]["1"]["largest_fleet"] == 2
            assert v["derived"]["victory_points"]["0"]["largest_fleet"] == 0
            taken = True
            break
    assert taken


def settle(client, st, player, site, g):
    """Build the roads to ``site`` (each must be legal) and propose a settlement there:
    ``(state before the settlement, its verdict)``, or None when the roads cannot be built."""
    path = _road_to(st, player, site, g)
    if path is None:
        return None
    for e in path:
        deal(st, player, 2)
        v = post(client, st, {"type": "build_road", "player": player, "edge": e})
        if not v["legal"]:
            return None
        st = v["state"]
    deal(st, player, 2)
    st["players"][player]["gold"] += 4
    return st, post(client, st, {"type": "build_settlement", "player": player, "node": list(site)})


def _road_to(st, player, site, g):
    """Road sites from ``player``'s network to ``site`` (a plain breadth-first search over empty land edges)."""
    from collections import deque
    own = {tuple(x["node"]) for k in ("settlements", "cities") for x in st["pieces"][k] if x["player"] == player}
    taken = {tuple(x["edge"]): x["player"] for x in st["pieces"]["roads"]}
    others = {tuple(x["node"]) for k in ("settlements", "cities") for x in st["pieces"][k] if x["player"] != player}
    starts = set(own)
    for e, p in taken.items():
        if p == player:
            a, b = g.edge_node_ids[g.edge_index[e]]
            starts.update((g.nodes[a], g.nodes[b]))
    prev = {n: None for n in starts if n not in others}
    q = deque(prev)
    while q:
        n = q.popleft()
        if n == tuple(site):
            out = []
            while prev[n] is not None:
                e, n = prev[n]
                if taken.get(e) != player:
                    out.append(list(e))
            return out[::-1]
        nid = g.node_index[n]
        for eid in g.node_edge_ids[nid]:
            e = g.edges[eid]
            if not g.road_edge(eid) or (e in taken and taken[e] != player):
                continue
            m = g.nodes[g.other_node(eid, nid)]
            if m in prev or m in others:
                continue
            prev[m] = (e, n)
            q.append(m)
    return None


def test_a_posted_ship_lies_on_a_path_of_the_board(client):
    """GOLD-020: a ship is a piece on a path of the board; one posted far off it is refused, naming it."""
    import copy
    st = client.post("/v1/games", json={"scenario": "GOLD", "players": 3, "seed": 3}).get_json()["state"]
    st["pieces"]["settlements"].append({"player": 0, "node": [1, 3, "S"]})      # a front-coast home
    st["players"][0]["supply"]["settlements"] -= 1
    st["players"][0]["supply"]["ships"] -= 1
    for edge, ok in (([50, 50, "E"], False), ([0, 4, "E"], True)):
        posted = copy.deepcopy(st)
        posted["scenario_state"]["ships"] = [{"id": 0, "player": 0, "home": [1, 3, "S"], "edge": edge}]
        r = client.post("/v1/derive", json={"state": posted})
        assert (r.status_code == 200) is ok
        if not ok:
            assert any(e["pointer"] == "/state/scenario_state/ships/0/edge" and "GOLD-020" in e["detail"]
                       for e in r.get_json()["errors"])
