"""Tests that catch a broken implementation of rules whose earlier tests did not: each names the rule it
holds and fails with the mutant named in its docstring (a mutation audit disabled or changed the code
that enforces the rule and ran the module's tests)."""
from __future__ import annotations

from .ck_util import NE, act, ck, ckof, hand, knight, position, post, rules, with_cards
from .helpers import adjudicate


# -- Cities & Knights ---------------------------------------------------------------------------------------

def test_spy_takes_no_point_card_CK_PROG_P7(client):
    """CK-PROG-P7 (with CK-PROG-4): the Spy takes a progress card that is not a point card: naming the
    opponent's face-up Printer is refused for what the card is, not for a missing card. Mutant: the
    exclusion removed."""
    c = with_cards(with_cards(ck(), 1, "printer", "warlord"), 0, "spy")
    st = position(ck_state=c)
    v = post(client, st, act("play_progress", card="spy", target=1, progress="printer"))
    assert not v["legal"] and rules(v) == ["CK-PROG-4"]
    ok = post(client, st, act("play_progress", card="spy", target=1, progress="warlord"))
    assert ok["legal"] and ckof(ok)["hands"]["0"] == {"warlord": 1} and ckof(ok)["vp_cards"]["1"] == {"printer": 1}


def test_mighty_knight_needs_politics_level_three_CK_IMP_4(client):
    """CK-IMP-4: the Fortress is politics level 3; at level 2 a strong knight is not promoted to mighty.
    Mutant: the threshold lowered to level 2."""
    c = ck(knights=[knight(0, NE, 2, True)])
    c["improvements"]["0"]["politics"] = 2
    v = post(client, position(hands={0: hand(wool=2, ore=2)}, ck_state=c), act("promote_knight", node=list(NE)))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-4"] and "CK-IMP-4" in v["violations"][0]["message"]
    c["improvements"]["0"]["politics"] = 3
    v = post(client, position(hands={0: hand(wool=2, ore=2)}, ck_state=c), act("promote_knight", node=list(NE)))
    assert v["legal"] and ckof(v)["knights"][0]["level"] == 3


def test_event_die_has_three_ship_faces_and_one_gate_of_each_colour_CK_DICE_3(client):
    """CK-DICE-3: three ship faces and one city gate of each colour: over 240 seeded rolls the ship shows
    about half the time and each colour about a sixth. Mutant: another mix of faces."""
    from collections import Counter
    seen: Counter = Counter()
    base = position(phase="roll")
    for seed in range(240):
        st = {**base, "rng": {"seed": 1000 + seed, "counter": 0}}
        v = post(client, st, act("roll", dice=[2, 3]))
        seen[next(e for e in v["events"] if e["type"] == "rolled")["event"]] += 1
    assert set(seen) == {"ship", "politics", "science", "trade"}
    assert 0.38 < seen["ship"] / 240 < 0.62, seen
    assert all(0.08 < seen[c] / 240 < 0.27 for c in ("politics", "science", "trade")), seen


def test_merchant_never_on_gold_or_sea_CK_SEA_4(client):
    """CK-SEA-4: the merchant may not stand on a gold field or the sea, even on one touching the player's
    building (so that only this rule refuses it). Mutant: the check removed."""
    from .ck_util import board
    brd = board({(1, 0): ("gold", 5), (1, 1): "sea", (2, 0): "sea", (2, -1): "sea"})
    st = position(brd=brd, scenario="seafarers", roads=(), cities=((0, (1, 0, "N")), (1, (-1, 1, "N"))),
                  ck_state=with_cards(ck(), 0, "merchant"))
    v = post(client, st, act("play_progress", card="merchant", hex=[1, 0]))          # gold, at player 0's city
    assert not v["legal"] and rules(v) == ["CK-SEA-4"]
    sea = post(client, st, act("play_progress", card="merchant", hex=[2, -1]))       # sea, at that city
    assert not sea["legal"] and rules(sea) == ["CK-SEA-4"]
    ok = post(client, st, act("play_progress", card="merchant", hex=[1, -1]))        # fields at the city
    assert ok["legal"], ok["violations"]


# -- Treasures, Dragons & Explorers -----------------------------------------------------------------------

def test_treasure_tokens_are_shuffled_at_set_up_TDE1_005():
    """TDE1-005: the 20 tokens are mixed: every new game holds all of them (15 on the board, 5 in the stock),
    and different seeds lay them out differently. Mutant: the tokens dealt unshuffled."""
    from collections import Counter

    from service.engine.modules.tde_treasures.treasures import DEFAULT_TREASURES, as_list
    from service.engine.scenarios import get_scenario
    scen = get_scenario("TDE1")
    layouts = set()
    for seed in range(1, 6):
        ss = scen.new_game(scen.players[0], seed).scenario_state
        board = sorted((tuple(t["node"]), t["kind"]) for t in ss["treasures"])
        assert len(board) == 15 and len(ss["treasure_stock"]) == 5
        assert Counter(k for _, k in board) + Counter(ss["treasure_stock"]) == Counter(as_list(DEFAULT_TREASURES))
        layouts.add((tuple(board), tuple(ss["treasure_stock"])))
    assert len(layouts) == 5


# -- Gold / Front Coast -----------------------------------------------------------------------------------

def test_a_city_homes_two_ships_not_three_GOLD_022(client):
    """GOLD-022: a city homes 2 ships: with two homed, a third is refused. Mutant: a city homes 3."""
    from .test_gold_rules import DOCK, HOME, RICH, harbour_position, ship
    st = harbour_position(hands={0: RICH}, ships=[ship(), ship(edge=[2, 3, "SE"])], cities=[(0, HOME)],
                          settlements=[(1, [4, 3, "S"])])
    v = adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [1, 4, "NE"]})
    assert not v["legal"] and rules(v) == ["GOLD-022"]
    assert DOCK != [1, 4, "NE"]


def test_gold_is_loaded_only_at_a_gold_dock_not_at_home_GOLD_032(client):
    """GOLD-032: gold is loaded docked between a gold hex and water; a ship at its home dock loads none.
    Mutant: loading allowed at the home dock too."""
    from .test_gold_rules import DOCK, TO_GOLD, harbour_position, ship
    home = adjudicate(client, harbour_position(ships=[ship(edge=DOCK)]), {"type": "load_gold", "player": 0, "ship": 0})
    assert not home["legal"] and rules(home) == ["GOLD-032"]
    gold = adjudicate(client, harbour_position(ships=[ship(edge=TO_GOLD[2])]),
                      {"type": "load_gold", "player": 0, "ship": 0})
    assert gold["legal"] and gold["state"]["scenario_state"]["ships"][0]["cargo"] == 4


def test_a_ship_costs_exactly_one_gold_GOLD_008(client):
    """GOLD-008: a ship costs one gold (with 1 lumber and 1 wool): with exactly 1 gold it is built and
    leaves none; with none it is refused. Mutant: another amount of gold."""
    from .test_gold_rules import DOCK, full, harbour_position
    st = harbour_position(hands={0: full(lumber=1, wool=1)}, gold={0: 1})
    v = adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": DOCK})
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["gold"] == 0 and v["state"]["players"][0]["resources"] == full()
    st = harbour_position(hands={0: full(lumber=1, wool=1)}, gold={0: 0})
    assert rules(adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": DOCK})) == ["GOLD-008"]


# -- the mutation runner (bench/rule_mutants.py): a small check, not the audit itself -------------------------

def test_the_mutation_runner_finds_refusals_and_own_tests_and_disables_one_line(tmp_path):
    """bench/rule_mutants.py: the refusing lines of a rule ID are found (CK-IMP-1, actions of C&K), the
    test naming it in its name or docstring is its own test, and a mutant disables exactly that line and
    still compiles. ``--list`` names the mutants without running anything."""
    import importlib.util
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("rule_mutants", root / "bench" / "rule_mutants.py")
    rm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rm)
    where = rm.sites(root)
    rel, line_no = next(x for x in where["CK-IMP-1"] if x[0].endswith("cities_and_knights/actions.py"))
    assert "tests/test_cities_and_knights.py::test_no_level_beyond_the_fifth_CK_IMP_1" in rm.own_tests(root)["CK-IMP-1"]
    assert "tests/test_cities_and_knights.py::test_no_level_beyond_the_fifth_CK_IMP_1" in rm.tests_naming(root)["CK-IMP-1"]
    (tmp_path / rel).parent.mkdir(parents=True)
    original = (root / rel).read_text(encoding="utf-8")
    (tmp_path / rel).write_text(original, encoding="utf-8")
    rm.mutate(tmp_path, rel, line_no)
    before, after = original.splitlines(), (tmp_path / rel).read_text(encoding="utf-8").splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed == [line_no] and after[line_no].strip().startswith('if False: return [Violation("CK-IMP-1"')
    compile("\n".join(after), rel, "exec")
    r = subprocess.run([sys.executable, "bench/rule_mutants.py", "--ids", "CK-IMP-1", "--own", "--list"], cwd=root,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and f"{rel}:{line_no + 1}" in r.stdout and "CK_IMP_1" in r.stdout
