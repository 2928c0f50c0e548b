"""Records of other apps in, our game record out (``service/records``, ``docs/records.md``).

Real records: JSettlers2's own test saves and event logs, and catanatron games (``tests/fixtures/records``,
sources in each folder's ``SOURCE.md``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cache import GraphCache
from service.engine.geometry import edge_hexes, edge_nodes, hex_corners, node_hexes
from service.records import read, read_for_replay
from service.records import jsgeometry as g
from service.records.problems import RecordProblem
from service.records.record import read_text, write_json, write_text
from service.records.replay import position_comparison, replay_record

ROOT = Path(__file__).resolve().parent / "fixtures" / "records"
JS = ROOT / "jsettlers2"
CAT = ROOT / "catanatron"


@pytest.fixture(scope="module")
def cache():
    return GraphCache.from_config({"REDIS_URL": None, "GRAPH_CACHE_SIZE": 16, "REDIS_TIMEOUT": 0.05})


def js_save(name: str) -> dict:
    return json.loads((JS / name).read_text(encoding="utf-8"))


def js_log(name: str) -> str:
    return (JS / name).read_text(encoding="utf-8")


# ---- coordinates ----------------------------------------------------------------------------------

def test_v1_hexes_are_our_base_board_and_their_corners_are_ours():
    """JSettlers2's classic board (37 hexes) is our base board with its frame; the six corners JSettlers2
    gives a hex (its HEXNODES offsets, N then clockwise) are that hex's corners in our geometry."""
    from service.engine.scenarios import start_game
    ours = set(start_game("base", 3, 0, None).hexes)
    assert {g.v1_hex(h) for h in g.V1_HEXES} == ours
    offsets = (0x01, 0x12, 0x21, 0x10, -0x01, -0x10)
    for h in g.V1_HEXES:
        assert [g.v1_node(h + d) for d in offsets] == list(hex_corners(g.v1_hex(h)))


def test_every_v1_edge_joins_the_two_nodes_jsettlers2_gives_it():
    n = 0
    for c in range(0x100):
        e = g.v1_edge(c)
        if e is None:
            continue
        a, b = g.v1_edge_nodes(c)
        assert {g.v1_node(a), g.v1_node(b)} == set(edge_nodes(e)), hex(c)
        n += 1
    assert n > 150


def test_v3_hexes_corners_and_edges_agree_with_jsettlers2s_tables():
    """The sea board: each hex's corners by JSettlers2's A_NODE2HEX offsets (rows and columns) are our
    corners, and every edge joins the two nodes its encoding names."""
    offsets = ((-0x100, 0), (-0x100, 1), (0x100, 1), (0x100, 0), (0x100, -1), (-0x100, -1))
    for row in range(1, 34, 2):
        for col in range(1, 40):
            if not g.v3_is_hex(row, col):
                continue
            h = (row << 8) | col
            assert [g.v3_node(h + a + b) for a, b in offsets] == list(hex_corners(g.v3_hex(h))), hex(h)
    count = 0
    for c in range(0x100, 0x2200):
        e = g.v3_edge(c)
        if e is None or (c & 0xFF) == 0:
            continue
        a, b = g.v3_edge_nodes(c)
        assert {g.v3_node(a), g.v3_node(b)} == set(edge_nodes(e)), hex(c)
        count += 1
    assert count > 1000


# ---- JSettlers2 saves -------------------------------------------------------------------------------

IMPORTED = {  # save -> (our scenario, players)
    "reletest-longest-3p-sea.game.json": ("seafarers", 3),
    "testscen-simple-4isl.game.json": ("SC02", 3),
    "testsea-closed.game.json": ("seafarers", 3),
    "tradeoffers.game.json": ("base", 4),
    "tradestats.game.json": ("base", 3),
    # D-records-two-players: 2 seats of 4, refereed by the base rules unchanged
    "all-basic-actions-first-turn.game.json": ("seafarers", 2),
    "all-basic-actions-over.game.json": ("seafarers", 2),
    "reletest-longest-joinships.game.json": ("seafarers", 2),
    # the 6-player board (encoding v2): 5 players with the 5-6 extension; 4 players on it
    "modelversion-2300.game.json": ("base", 5),
    "test6p-sbp.game.json": ("base", 5),
    "reletest-longest-3p.game.json": ("base", 4),
    # D-records-deck: cards a debug command gave, and played cards the save credits to nobody
    "classic-botturn.game.json": ("base", 3),
    "devcard-stats.game.json": ("base", 3),
    "message-seqs.game.json": ("seafarers", 3),
    "classic-over.game.json": ("base", 3),
}
REFUSED = {  # save -> (pointer, words of the reason)
    "bad-field-contents.game.json": ("/record/playerSeats/1/oldDevCards/1", "NOT_A_DEFINED_NAME"),
    "bad-gameopt-inactive.game.json": ("/record/gameOptions/_TESTACT", "not one we play"),
    "bad-gameopt-unknown.game.json": ("/record/gameOptions/_NOEXIST", "not one we play"),
    "bad-scen-unsupported.game.json": ("/record/gameOptions/_SC_CLVI", "not one we play"),
    "testscen-simple-sany.game.json": ("/record/gameOptions/NT", "without trades between players"),
}


def test_every_save_fixture_is_listed():
    assert {p.name for p in JS.glob("*.game.json")} == set(IMPORTED) | set(REFUSED)


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_a_save_is_our_position_with_every_piece_on_the_board_and_its_route_holder_and_vp_agreeing(name, cache):
    got = read(js_save(name))
    assert got["kind"] == "position" and got["format"] == "jsettlers2-save"
    st = got["state"]
    assert (st["scenario"], len(st["players"])) == IMPORTED[name]
    hexes = {(h["q"], h["r"]) for h in st["board"]["hexes"]}
    land = {(h["q"], h["r"]) for h in st["board"]["hexes"] if h["terrain"] not in ("sea", "frame")}
    for kind in ("settlements", "cities"):
        for b in st["pieces"][kind]:
            assert any(h in land for h in node_hexes(tuple(b["node"])))
    for kind in ("roads", "ships"):
        for r in st["pieces"][kind]:
            assert all(h in hexes for h in edge_hexes(tuple(r["edge"])))
    cmp = position_comparison(got, cache)       # the position loads: the service's own checks pass
    assert cmp["disagreements"] == []           # the save's Longest Road holder, Largest Army and VP are ours
    pieces = sum(len(s["pieces"]) for s in js_save(name)["playerSeats"])
    assert pieces == sum(len(v) for v in st["pieces"].values())


def test_a_sea_save_s_longest_route_counts_ships_as_the_save_says():
    """reletest-longest-3p-sea: the route holder (seat 1, our player 0, with ships closing the route) as
    the save records it; our derived values name the same holder with the longest route."""
    got = read(js_save("reletest-longest-3p-sea.game.json"))
    cmp = position_comparison(got, GraphCache.from_config({"REDIS_URL": None, "GRAPH_CACHE_SIZE": 4,
                                                            "REDIS_TIMEOUT": 0.05}))
    holder = cmp["derived"]["longest_road_holder"]
    assert holder == got["stated"]["longest_road"] == 0
    assert cmp["derived"]["victory_points"]["0"]["longest_road"] == 2


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_save_holding_what_we_do_not_play_is_refused_naming_it(name):
    pointer, words = REFUSED[name]
    with pytest.raises(RecordProblem) as e:
        read(js_save(name))
    assert e.value.status == 422
    assert e.value.errors[0]["pointer"] == pointer
    assert words in e.value.errors[0]["detail"]


def test_v2_hexes_are_our_five_six_board_and_its_ports_lie_between_land_and_frame():
    """The 6-player board (encoding v2, JSettlers2's SOCBoard6p): its 30 land hexes (the v1 grid) are the 30
    land hexes of our 5-6 board (BASE56-013), and each port's fixed edge is a side between land and frame."""
    from service.engine.modules.five_six.board import LAND
    got = read(js_save("test6p-sbp.game.json"))
    land = {(h["q"], h["r"]) for h in got["state"]["board"]["hexes"] if h["terrain"] not in ("frame", "sea")}
    assert land == set(LAND)
    frame = {(h["q"], h["r"]) for h in got["state"]["board"]["hexes"] if h["terrain"] == "frame"}
    harbors = got["state"]["board"]["harbors"]
    assert len(harbors) == 11
    for hb in harbors:
        a, b = edge_hexes(tuple(hb["edge"]))
        assert {a in land, b in land} == {True, False} and (a in frame or b in frame)


def test_a_save_in_the_special_building_phase_is_our_slot_of_that_phase(cache):
    """test6p-sbp: JSettlers2's Special Building Phase (gameState 100) after seat 3's turn, seat 1 building:
    our phase special_build, the ended player and the slot's player the same seats (BASE56-028)."""
    got = read(js_save("test6p-sbp.game.json"))
    seats = got["source"]["seats"]
    st = got["state"]
    assert st["phase"] == "special_build"
    assert seats[st["scenario_state"]["special_build"]["ended"]] == 3 and seats[st["current_player"]] == 1
    cmp = position_comparison(got, cache)
    assert cmp["state"]["phase"] == "special_build"
    assert cmp["derived"]["special_build"]["ended"] == st["scenario_state"]["special_build"]["ended"]


def test_a_five_player_save_has_the_five_six_components():
    """modelversion-2300 (cards and pieces written as numbers): 5 players, so the 5-6 extension's deck of 34
    and bank of 24 of each resource (BASE56-005, -006)."""
    got = read(js_save("modelversion-2300.game.json"))
    st = got["state"]
    assert sum(st["dev_deck"].values()) + sum(sum(p[k].values()) for p in st["players"] for k in (
        "dev_cards", "dev_cards_new", "dev_cards_played")) == 34
    assert all(st["bank"][r] + sum(p["resources"].get(r, 0) for p in st["players"]) == 24 for r in st["bank"])


def test_two_seated_players_are_read_by_the_base_rules_d_records_two_players(cache):
    got = read(js_save("all-basic-actions-over.game.json"))
    assert any(p["note"].startswith("D-records-two-players") for p in got["provenance"])
    cmp = position_comparison(got, cache)
    assert cmp["derived"]["winner"] == got["state"]["winner"] == got["stated"]["vp"].index(10)


def test_cards_a_debug_command_gave_leave_our_deck_d_records_deck():
    """classic-botturn: the save's deck still holds all 25 cards while two players hold 5 more (JSettlers2's
    debug command): hands as the save says, our deck the game's cards less those, each kind named."""
    save = js_save("classic-botturn.game.json")
    got = read(save)
    st = got["state"]
    assert st["players"][2]["dev_cards"]["year_of_plenty"] == 1           # seat 3 (debug) holds DISC
    assert st["dev_deck"] == {"knight": 13, "road_building": 1, "year_of_plenty": 0, "monopoly": 2,
                              "victory_point": 4}
    notes = [p["note"] for p in got["provenance"] if p["note"].startswith("D-records-deck")]
    assert len(notes) == 4 and all("debug command" in n for n in notes)
    save["playerSeats"][3]["oldDevCards"] += ["DISC", "DISC"]             # 3 of the 2 a game has, in hands
    with pytest.raises(RecordProblem) as e:
        read(save)
    assert e.value.errors[0]["pointer"] == "/record/devCardDeck" and "more than the 2" in e.value.errors[0]["detail"]


@pytest.mark.parametrize("opt,words", [("RD=t", "robber kept off the desert"), ("NT=t", "without trades"),
                                        ("DEBUGINT=t500", "keeps for its own tests")])
def test_a_house_rule_we_do_not_play_is_refused_naming_the_option(opt, words):
    save = js_save("tradestats.game.json")
    save["gameOptions"] += "," + opt
    with pytest.raises(RecordProblem) as e:
        read(save)
    assert e.value.errors[0]["pointer"] == "/record/gameOptions/" + opt.split("=")[0]
    assert words in e.value.errors[0]["detail"]


def test_options_with_a_counterpart_are_read():
    """PLP on is our own rule (nothing to say); off (written or by default) with 4 players on the 6-player
    board it is named in the provenance; _VP_ALL in a scenario is the standard 10 VP."""
    save = js_save("reletest-longest-3p.game.json")
    assert "PLP" not in save["gameOptions"]                 # off by default
    assert "its default" in {p["field"]: p["note"] for p in read(save)["provenance"]}["/record/gameOptions/PLP"]
    save["gameOptions"] += ",PLP=f"
    assert "5-6 extension is for 5 or 6" in {p["field"]: p["note"] for p in read(save)["provenance"]}["/record/gameOptions/PLP"]
    save["gameOptions"] = save["gameOptions"].replace("PLP=f", "PLP=t")
    assert "/record/gameOptions/PLP" not in {p["field"] for p in read(save)["provenance"]}
    isl = js_save("testscen-simple-4isl.game.json")
    isl["gameOptions"] = isl["gameOptions"].replace(",VP=t12", "")
    assert "vp_target" not in read(isl)["state"]
    isl["gameOptions"] += ",_VP_ALL=t"
    assert read(isl)["state"]["vp_target"] == 10


def test_a_save_from_a_model_version_we_do_not_know_is_refused():
    save = js_save("tradestats.game.json")
    save["modelVersion"] = 9999
    with pytest.raises(RecordProblem) as e:
        read(save)
    assert e.value.errors[0]["pointer"] == "/record/modelVersion"


def test_a_truncated_save_is_a_problem_naming_the_record():
    text = (JS / "tradestats.game.json").read_text()
    with pytest.raises(RecordProblem) as e:
        read(text[: len(text) // 2], "jsettlers2-save")
    assert e.value.errors[0]["pointer"] == "/record" and "not JSON" in e.value.errors[0]["detail"]


# ---- JSettlers2 event logs --------------------------------------------------------------------------

LOG_REFUSED = {  # log -> (line or None, words)
    # a robbery of cloth, SC_CLVI's goods, added by hand to a game without that scenario (the log says so)
    "all-basic-actions.soclog": (426, "a robbery of SCENARIO_CLOTH_COUNT"),
    # JSettlers2's 6-seat sea board of 3 players deals fog hexes: no rule we play reveals a hex
    "initial-placement-sea-cancel.soclog": (105, "fog hex"),
    "test-gamename-mismatch-newgame.soclog": (5, "differs from the header"),
    "test-gamename-mismatch-newgamewithopts.soclog": (5, "differs from the header"),
    "test-header-gamename-empty.soclog": (1, "no game_name"),
    "test-header-gamename-invalid.soclog": (1, "'te|st'"),
    "test-header-gamename-missing.soclog": (1, "no game_name"),
    "test-header-type-invalid.soclog": (1, "is not F or C"),
    "test-header-type-length.soclog": (1, "'FG' is not F or C"),
    "test-header-type-missing.soclog": (1, "no type"),
    "test-header-version-missing.soclog": (1, "no version"),
    "test-header-version-numparse.soclog": (1, "'XYZ' is not a number"),
    "test-missing-header.soclog": (1, "starts with 'SOC game event log"),
    "test-missing-socnewgame.soclog": (None, "no SOCNewGame"),
    "test-missing-socversion.soclog": (4, "before any SOCVersion"),
    "test-version-mismatch.soclog": (4, "2500 in its header and 2501"),
    "test-version-too-old.soclog": (1, "older than 2500"),
    # the STAC corpus sample holds seat locks and joins only: no game
    "test-stac-legacy-human-league1-sample.soclog": (None, "no SOCNewGame"),
}
LOG_REPLAYED = {"has-timestamps.soclog": (23, 7), "is-at-client.soclog": (25, 4)}   # actions, hands stated


def test_every_log_fixture_is_listed():
    assert {p.name for p in JS.glob("*.soclog")} == set(LOG_REFUSED) | set(LOG_REPLAYED)


@pytest.mark.parametrize("name", sorted(LOG_REFUSED))
def test_a_log_we_cannot_read_is_refused_naming_its_line(name):
    line, words = LOG_REFUSED[name]
    with pytest.raises(RecordProblem) as e:
        read(js_log(name))
    err = e.value.errors[0]
    assert words in err["detail"], err
    assert err.get("line") == line


@pytest.mark.parametrize("name", sorted(LOG_REPLAYED))
def test_a_log_replays_to_its_end_with_every_hand_it_states_agreeing(name, cache):
    got = read(js_log(name))
    rec = got["record"]
    n, hands = LOG_REPLAYED[name]
    assert len(rec["actions"]) == n and len(rec["checks"]) == hands
    res = replay_record(rec, cache)
    assert res["all_legal"] and res["applied"] == n
    assert res["disagreements"] == []        # every hand the log states after a roll is ours there
    assert all(isinstance(s, int) for s in rec["sources"])


#: Logs a replay judges to a first illegal move (before any line it cannot read): log -> (line, rule, the
#: first line it cannot read or None).
LOG_ILLEGAL = {"all-basic-actions.soclog": (187, "BASE-DEV-1", 426)}


def test_every_log_is_replayed_to_its_end_or_to_a_first_illegal_move_or_refused_before_any_game():
    """The count the evidence reports: of the 20 logs, 2 replay to their end, 1 to its first illegal move,
    and the 17 others are refused at a line naming why (15 of JSettlers2's malformed-log tests and the STAC
    sample hold no game; one deals fog hexes)."""
    names = {p.name for p in JS.glob("*.soclog")}
    assert len(names) == 20 and set(LOG_ILLEGAL) <= set(LOG_REFUSED) and set(LOG_REPLAYED).isdisjoint(LOG_REFUSED)
    assert (len(LOG_REPLAYED), len(LOG_ILLEGAL), len(LOG_REFUSED) - len(LOG_ILLEGAL)) == (2, 1, 17)


def test_all_basic_actions_is_judged_up_to_its_first_illegal_move_base_dev_1(cache):
    """all-basic-actions.soclog (2 players, D-records-two-players): at line 182 the player types JSettlers2's
    debug command 'rsrcs: 0 5 5 5 0 debug' and is given 5 ore, 5 wool and 5 grain. No rule gives cards so:
    the command is not read (the provenance names it), and the development card he buys at line 187 with
    them is one he cannot pay for (BASE-DEV-1). That move comes before the first line the log cannot be read
    at (426, cloth robbed in a game without cloth), so it is the replay's verdict."""
    line, rule, unread_at = LOG_ILLEGAL["all-basic-actions.soclog"]
    got, unread = read_for_replay(js_log("all-basic-actions.soclog"))
    assert unread is not None and unread.errors[0]["line"] == unread_at
    rec = got["record"]
    assert max(rec["sources"]) < unread_at
    assert any(p.get("line") == 182 and "debug command" in p["note"] for p in rec["provenance"])
    res = replay_record(rec, cache)
    fi = res["first_illegal"]
    assert fi["source"] == line and fi["rules"] == [rule] and fi["action"]["type"] == "buy_development_card"
    assert fi["violations"][0]["path"] == f"/actions/{fi['index']}"
    # with the 5 wool, grain and ore the debug command gave, the same purchase is legal: the gift is the cause
    from service.api.codec import dump_state
    before = res["_replay"].final
    st = dump_state(before)
    for r in ("wool", "grain", "ore"):
        st["players"][fi["action"]["player"]]["resources"][r] = st["players"][fi["action"]["player"]]["resources"].get(r, 0) + 5
        st["bank"][r] -= 5
    again = replay_record(dict(rec, initial=st, actions=rec["actions"][fi["index"]:fi["index"] + 1],
                               sources=[line], checks=[]), cache)
    assert again["all_legal"]


def test_trades_between_players_and_ship_moves_are_read():
    """SOCAcceptOffer (the offer's two sides, as announced) is our domestic_trade, accepted; SOCMovePiece of a
    ship is our move_ship, both edges mapped. (The log with its two hand-made test lines put right.)"""
    text = js_log("all-basic-actions.soclog").split("\n")
    text[425] = "all:SOCGameServerText:game=test|text=(removed)"
    text[505] = text[505].replace("coord=55", "coord=508")
    text[506] = text[506].replace("coord=55", "coord=508")
    rec = read("\n".join(text))["record"]
    by_line = dict(zip(rec["sources"], rec["actions"]))
    assert by_line[350] == {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"brick": 1},
                            "get": {"lumber": 1}, "accepted": True}
    mv = by_line[588]
    assert mv["type"] == "move_ship" and mv["player"] == 0
    assert (mv["from"], mv["to"]) == (list(g.v3_edge(0x602)), list(g.v3_edge(0x503)))


def test_a_log_legal_up_to_a_line_it_cannot_read_is_refused_at_that_line(cache):
    """Nothing after a line the log cannot represent is judged: when every move before it is legal, the
    refusal naming the line stands (read_for_replay gives it back for the replay to raise)."""
    lines = js_log("has-timestamps.soclog").split("\n")
    at = next(i for i, t in enumerate(lines) if "SOCDiceResult:" in t and "param=-1" not in t) + 1
    lines.insert(at, "all:SOCMovePiece:game=g|pn=1|pieceType=0|fromCoord=58|toCoord=59")
    got, unread = read_for_replay("\n".join(lines))
    assert unread.errors[0]["line"] == at + 1 and "only ships move" in unread.errors[0]["detail"]
    assert replay_record(got["record"], cache)["first_illegal"] is None


def test_special_building_slots_a_log_does_not_announce_are_ended_in_turn():
    """5 players: JSettlers2 announces (SOCTurn, gameState 100) only the slots of those who asked. Our phase
    gives every other player a slot, each ended by its own end_turn (D-five-six-slot): the reader ends those
    passed over, up to the next seat announced."""
    from service.records import soclog
    L = soclog._Log()
    L.players, L.current, L.main = [0, 1, 2, 3, 4], 1, True
    soclog.end_turn_or_slot(L, 4, 100, 10)           # player 1's turn ends; the slot announced is player 4's
    assert [(a["type"], a["player"]) for a in L.actions] == [("end_turn", 1), ("end_turn", 2), ("end_turn", 3)]
    L.current = 4
    soclog.end_turn_or_slot(L, 2, 15, 11)            # player 4's slot ends; the next turn is player 2's
    assert [a["player"] for a in L.actions[3:]] == [4, 0] and L.sbp is None
    L2 = soclog._Log()
    L2.players, L2.current, L2.main = [0, 1, 2], 1, True
    soclog.end_turn_or_slot(L2, 2, 100, 10)          # fewer than 5: a slot is read as the turn it announces
    assert [a["player"] for a in L2.actions] == [1] and L2.sbp is None


def test_a_hand_that_differs_from_ours_is_a_disagreement_naming_the_log_line(cache):
    rec = read(js_log("has-timestamps.soclog"))["record"]
    c = rec["checks"][0]
    c["resources"] = dict(c["resources"], ore=c["resources"].get("ore", 0) + 1)
    res = replay_record(rec, cache)
    d = res["disagreements"][0]
    assert d["value"] == f"resources/{c['player']}" and d["source"] == c["line"] and d["after"] == c["after"]


def test_an_illegal_move_in_a_log_is_named_with_its_rule_and_line(cache):
    """A log whose second settlement is moved next to the first: the distance rule (BASE-BUILD-2) at the
    log line that placed it."""
    text = js_log("has-timestamps.soclog").replace("pieceType=1|coord=58", "pieceType=1|coord=54")
    rec = read(text)["record"]
    res = replay_record(rec, cache)
    fi = res["first_illegal"]
    assert fi["index"] == 2 and fi["rules"] == ["BASE-BUILD-2"]
    assert text.split("\n")[fi["source"] - 1].endswith("SOCPutPiece:game=g|playerNumber=1|pieceType=1|coord=54")


def test_a_truncated_log_line_is_refused_naming_the_line():
    text = js_log("has-timestamps.soclog")
    lines = text.split("\n")
    cut = "\n".join(lines[:120] + [lines[120][:25]])
    with pytest.raises(RecordProblem) as e:
        read(cut)
    assert e.value.errors[0]["line"] == 121


# ---- catanatron --------------------------------------------------------------------------------------

def cat(name: str) -> dict:
    return json.loads((CAT / name).read_text(encoding="utf-8"))


def test_catanatron_coordinates_map_every_edge_between_its_two_nodes():
    got = read(cat("kept-0000.json"))
    assert got["format"] == "catanatron"
    st = got["record"]["initial"]
    assert len(st["board"]["hexes"]) == 37 and len(st["board"]["harbors"]) == 9
    assert sum(1 for h in st["board"]["hexes"] if h["terrain"] == "desert") == 1


def test_a_catanatron_game_of_random_players_keeping_fresh_cards_is_legal_to_its_end(cache):
    rec = read(cat("kept-0000.json"))["record"]
    res = replay_record(rec, cache)
    assert res["all_legal"] and res["disagreements"] == []
    assert res["final"]["derived"]["winner"] == rec["stated"]["winner"]


def test_catanatron_plays_a_card_the_turn_it_was_bought_base_dev_4(cache):
    rec = read(cat("random-0000.json"))["record"]
    res = replay_record(rec, cache)
    fi = res["first_illegal"]
    assert fi["rules"] == ["BASE-DEV-4"] and fi["source"] == 39 and fi["action"]["type"] == "play_knight"
    raw = cat("random-0000.json")["actions"]
    assert raw[38][1] == "BUY_DEVELOPMENT_CARD" and raw[38][2] == "KNIGHT" and raw[39][1] == "PLAY_KNIGHT_CARD"


def test_catanatron_undercounts_a_road_ending_at_an_opponents_settlement_base_lr(cache):
    """kept-0014: catanatron's Longest Road holder is not ours; its longest-road walk never takes a road
    into an intersection with another player's building, so a road ending there is not counted (BASE-LR-1
    counts it: only a road through it is broken)."""
    rec = read(cat("kept-0014.json"))["record"]
    res = replay_record(rec, cache)
    assert res["all_legal"]
    lr = [d for d in res["disagreements"] if d["value"] == "longest_road_holder"]
    assert lr and lr[0]["record"] != lr[0]["ours"]


def test_a_game_ending_on_the_knight_that_wins_it_is_read_up_to_that_knight(cache):
    """kept-0001: catanatron ends the game on the Knight that gives Largest Army, before its robber move;
    our play_knight moves the robber, so the record ends before it and says so in its provenance."""
    got = read(cat("kept-0001.json"))
    prov = got["record"]["provenance"]
    assert any("ends the record" in p["note"] for p in prov)
    res = replay_record(got["record"], cache)
    assert res["all_legal"]
    assert {d["value"] for d in res["disagreements"]} >= {"largest_army", "winner"}


def test_a_robber_move_with_no_one_holding_cards_names_no_victim_r_124(cache):
    res = replay_record(read(cat("random-0005.json"))["record"], cache)
    assert res["first_illegal"] is None or res["first_illegal"]["rules"] != ["BASE-ROBBER-4"]


# ---- our record ---------------------------------------------------------------------------------------

def test_a_record_replayed_and_exported_round_trips_to_the_same_bytes(cache):
    rec = read(js_log("has-timestamps.soclog"))["record"]
    once = write_json(replay_record(rec, cache)["record"])
    again = write_json(replay_record(json.loads(once), cache)["record"])
    assert once == again
    text = write_text(json.loads(once))
    assert write_text(read_text(text)) == text
    assert write_json(replay_record(read_text(text), cache)["record"]) == once


def test_a_record_written_by_a_seeded_game_carries_its_outcomes(cache):
    """A roll left to the seeded generator is written with the dice it gave: the record never needs the
    generator to be read again."""
    from service.api.codec import dump_state
    from service.engine.scenarios import start_game
    from service.records.record import new_record
    st = dump_state(start_game("base", 3, 7, None))
    st.update(phase="roll", current_player=0, turn=1)
    st["setup"] = {"round": 2, "step": "settlement", "last_settlement": None}
    rec = new_record(st, [{"type": "roll", "player": 0}], seed=7)
    out = replay_record(rec, cache)
    assert out["all_legal"] and len(out["record"]["actions"][0]["dice"]) == 2


def test_a_record_of_an_unknown_version_or_format_is_refused():
    with pytest.raises(RecordProblem) as e:
        read({"format": "seafarers-record", "version": 2, "header": {}, "initial": {}, "actions": []})
    assert e.value.errors[0]["pointer"] == "/record/version"
    with pytest.raises(RecordProblem) as e:
        read({"something": "else"})
    assert e.value.errors[0]["pointer"] == "/record"
    with pytest.raises(RecordProblem) as e:
        read("#seafarers-record 1\n#header {}\n#initial {}\n0 roll X1\n")
    assert e.value.errors[0]["line"] == 4


def test_a_piece_off_the_board_is_refused_naming_the_piece():
    save = js_save("tradestats.game.json")
    save["playerSeats"][1]["pieces"].append({"pieceType": "ROAD", "coord": 0x02})
    with pytest.raises(RecordProblem) as e:
        read(save)
    n = len(save["playerSeats"][1]["pieces"]) - 1
    assert e.value.errors[0]["pointer"] == f"/record/playerSeats/1/pieces/{n}/coord"
    assert "off the board" in e.value.errors[0]["detail"]
    save["playerSeats"][1]["pieces"][-1] = {"pieceType": "SETTLEMENT", "coord": 0x10}
    with pytest.raises(RecordProblem) as e:
        read(save)
    assert "touches no land hex" in e.value.errors[0]["detail"]


@pytest.mark.parametrize("scenario", ["base", "seafarers", "SC02"])
def test_a_log_s_first_position_on_a_sea_board_loads(scenario, cache):
    """A sea log starts from the general Seafarers rules or a scenario's new game, its board put in (the
    sea board of a JSettlers2 save stands in for a log's layout message)."""
    from service.api.service import parse_state
    from service.records import jsettlers as js
    from service.records.soclog import initial_state
    st = initial_state(scenario, 3)
    if scenario != "base":
        b = js.board_v3(js_save("testsea-closed.game.json")["boardInfo"]["layout2"], {}, "/x", [])
        st["board"] = {"hexes": b.state_hexes(),
                       "harbors": [{"edge": list(e), "kind": k} for e, k in sorted(b.harbors.items())]}
        st["robber"] = list(b.robber)
    state, _graph = parse_state(st, cache)
    assert state.phase == "setup" and state.scenario == scenario


def _mutate(x, rnd):
    junk = [None, [1], "x", -1, {"a": 1}, [[1]], 3.5, True, 99999, [["RED"]]]
    if isinstance(x, dict) and x:
        k = rnd.choice(sorted(x))
        return {**x, k: _mutate(x[k], rnd) if rnd.random() < 0.7 else rnd.choice(junk)}
    if isinstance(x, list) and x:
        i = rnd.randrange(len(x))
        y = list(x)
        y[i] = _mutate(x[i], rnd) if rnd.random() < 0.7 else rnd.choice(junk)
        return y
    return rnd.choice(junk)


def test_mutated_records_are_read_or_refused_never_a_crash(cache):
    """Records with one value swapped for junk anywhere (a catanatron game, a save, our record of a log, a log
    line cut and garbled): each is read and replayed, or refused as a RecordProblem or a 4xx Problem."""
    import random

    from service.api.errors import Problem
    rnd = random.Random(26)
    bases = [json.loads((CAT / "kept-0000.json").read_text()), js_save("tradestats.game.json"),
             read(js_log("has-timestamps.soclog"))["record"]]
    lines = js_log("has-timestamps.soclog").split("\n")
    cases = [_mutate(b, rnd) for b, n in zip(bases, (12, 40, 30)) for _ in range(n)]
    for _ in range(40):
        cut = list(lines)
        i = rnd.randrange(len(cut))
        cut[i] = cut[i][: rnd.randrange(len(cut[i]) + 1)] + rnd.choice(["|x=", "=", "}", "{ 1 2", "|playerNumber=9"])
        cases.append("\n".join(cut))
    for m in cases:
        try:
            got = read(m)
            if got["kind"] == "record":
                replay_record(got["record"], cache)
        except RecordProblem as e:
            assert 400 <= e.status < 500 and e.errors
        except Problem as e:
            assert 400 <= e.status < 500


def test_the_slots_a_log_reader_ends_are_the_engines_special_building_phase(cache):
    """The reader's slots (end_turn_or_slot) against the engine: from JSettlers2's 5-player save, put back to
    the main phase of our player 3's turn, the turn's end and the four slots JSettlers2 would not announce
    (nobody asked) are all legal, and the next regular turn is player 4's, before its roll."""
    from service.records import soclog
    got = read(js_save("test6p-sbp.game.json"))
    st = dict(got["state"], phase="main", current_player=3, scenario_state={}, turn_flags={"rolled": True})
    L = soclog._Log()
    L.players, L.current, L.main = [0, 1, 2, 3, 4], 3, True
    soclog.end_turn_or_slot(L, 4, 15, 10)
    assert [a["player"] for a in L.actions] == [3, 4, 0, 1, 2]
    res = replay_record({"initial": st, "actions": L.actions, "sources": [10] * 5, "checks": []}, cache)
    assert res["all_legal"] and res["applied"] == 5
    assert (res["_replay"].final.current_player, res["_replay"].final.phase) == (4, "roll")


def test_a_log_s_six_player_board_is_read_as_the_save_s():
    """SOCBoardLayout2 with bef=2 (the 6-player board) as a log writes it (HL and NL in decimal, PL in
    hexadecimal, RH a decimal number) is the board the save of the same layout gives."""
    from service.records import soclog
    lay = js_save("test6p-sbp.game.json")["boardInfo"]["layout2"]["layoutParts"]
    line = ("SOCBoardLayout2:game=g|bef=2|HL={ " + " ".join(map(str, lay["HL"])) + " }|NL={ "
            + " ".join(map(str, lay["NL"])) + " }|PL={ " + " ".join(format(x, "x") for x in lay["PL"])
            + " }|RH=" + str(lay["RH"]))
    L = soclog._Log()
    soclog.handle(L, "all", "SOCBoardLayout2", soclog._params(line.split(":", 1)[1]), 7, line, "/record")
    st = read(js_save("test6p-sbp.game.json"))["state"]
    assert L.board.state_hexes() == st["board"]["hexes"] and list(L.board.robber) == st["robber"]
    assert sorted(([list(e), k] for e, k in L.board.harbors.items())) == sorted(
        [h["edge"], h["kind"]] for h in st["board"]["harbors"])
