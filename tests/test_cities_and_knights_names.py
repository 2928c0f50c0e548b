"""CK-PROG-9: the progress cards' names in the 2025 printing are the same cards; an action may name a
card by either, and states, events and the legal-action list carry the IDs."""
from __future__ import annotations

from service.engine.modules.cities_and_knights.data import ALIASES, DECKS, NAMES_2025, PROGRESS_CARDS, card_id

from .ck_util import SW, act, ck, ckof, knight, position, post, rules, with_cards


def test_mapping_is_published_and_complete():
    """CK-PROG-9: twelve renamed cards, each an ID of its deck; the contract's card field lists both names."""
    assert len(NAMES_2025) == 12 and all(c in PROGRESS_CARDS for c in NAMES_2025)
    assert ALIASES["taxation"] == "bishop" and ALIASES["guild_dues"] == "master_merchant"
    assert card_id("treason") == "deserter" and card_id("medicine") == "medicine" and card_id(None) is None
    assert not set(ALIASES) & {c for d in DECKS.values() for c in d}
    from service.engine.scenarios import get_scenario, with_expansions
    field = with_expansions(get_scenario("base"), {"cities_and_knights": True}).composition.actions[
        "play_progress"].fields["card"]
    assert "espionage" in field.type.enum and "spy" in field.type.enum and "espionage = spy" in field.doc


def test_2025_name_plays_the_card(client):
    """CK-PROG-9: Encouragement is the Warlord; the event and the deck name the ID."""
    st = position(ck_state=with_cards(ck(knights=[knight(0, (1, -1, "S"))]), 0, "warlord"))
    v = post(client, st, act("play_progress", card="encouragement"))
    assert v["legal"], v["violations"]
    assert ckof(v)["hands"]["0"] == {} and ckof(v)["decks"]["politics"]["warlord"] == 2
    assert any(e["type"] == "progress_played" and e["card"] == "warlord" for e in v["events"])
    r = post(client, position(), act("play_progress", card="encouragement"))
    assert not r["legal"] and rules(r) == ["CK-PROG-3"]


def test_2025_names_for_spy_and_put_back(client):
    """CK-PROG-9: Espionage takes a card named by its 2025 name; Treason is put back at the end of a turn."""
    c = with_cards(with_cards(ck(), 1, "deserter"), 0, "spy")
    v = post(client, position(ck_state=c), act("play_progress", card="espionage", target=1, progress="treason"))
    assert v["legal"], v["violations"]
    assert ckof(v)["hands"]["0"] == {"deserter": 1}
    full = with_cards(ck(), 0, "spy", "spy", "deserter", "warlord", "bishop")
    e = post(client, position(ck_state=full), act("end_turn", put_back=["taxation"]))
    assert e["legal"], e["violations"]
    assert ckof(e)["hands"]["0"] == {"spy": 2, "deserter": 1, "warlord": 1}
    assert ckof(e)["decks"]["politics"]["bishop"] == 2
    bad = post(client, position(ck_state=full), act("end_turn", put_back=["treason", "sabotage"]))
    assert not bad["legal"] and rules(bad) == ["CK-PROG-5"]
