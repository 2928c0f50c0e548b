"""Where Cities & Knights keeps its data: ``scenario_state["cities_and_knights"]`` (declared in
``STATE``), and small readers and writers of it.

Per player (keys ``"0"``..``"3"``): commodities, improvement levels, Defender of Catan cards, progress
cards in hand and the revealed VP cards. For the game: the commodity bank, the barbarian ship's steps
and the attacks so far, knights (each on an intersection, with its owner, level, whether active and what
it did this turn), city walls, metropolis holders, the three progress decks (counts; draws are seeded),
the merchant, and what the current turn's cards allow.
"""
from __future__ import annotations

from typing import Any, Optional

from ...geometry import Node
from ...spec import HEX, NODE, PLAYER, Bool, Cards, F, Int, List, Null, Obj, Str, by_player
from ...state import State
from .data import (CARDS, COMMODITIES, COMMODITY_COUNT, DECKS, KNIGHTS_PER_LEVEL, LEVELS, PROGRESS_CARDS,
                   TRACKS, VP_CARDS, WALLS)

KEY = "cities_and_knights"

KNIGHT = Obj({
    "node": F(NODE, required=True, doc="the intersection it stands on"),
    "player": F(PLAYER, required=True),
    "level": F(Int(1, 3), required=True, doc="1 basic, 2 strong, 3 mighty (CK-COMP-2)"),
    "active": F(Bool(), required=True, doc="CK-KNIGHT-3"),
    "activated": F(Bool(), doc="activated this turn: may not act this turn (CK-KNIGHT-3)"),
    "acted": F(Bool(), doc="acted this turn (CK-KNIGHT-5)"),
    "promoted": F(Bool(), doc="promoted this turn (CK-KNIGHT-4)"),
}, doc="a knight on the board")

TRACK_LEVELS = Obj({t: F(Int(0, 5), required=True) for t in TRACKS})
HOLDER = Null(Obj({"player": F(PLAYER, required=True), "node": F(NODE, required=True),
                   "level": F(Int(4, 5), required=True, doc="the holder's level when it took it (CK-IMP-9)")}))

SHAPE = Obj({
    "commodities": F(by_player(Cards(COMMODITIES, hi=36)), required=True, doc="CK-COMP-1: commodities in hand"),
    "commodity_bank": F(Cards(COMMODITIES, hi=COMMODITY_COUNT), required=True, doc="CK-COMP-1"),
    "barbarian": F(Int(0, 50), required=True, doc="CK-BARB-1: spaces the ship has advanced from its start"),
    "barbarian_steps": F(Int(1, 50), required=True, doc="CK-BARB-1: advances that bring the ship to Catan"),
    "attacks": F(Int(0, 1000), required=True, doc="barbarian attacks so far (the robber sleeps before the first, "
                                                   "CK-SEVEN-3)"),
    "knights": F(List(KNIGHT, max_len=24), required=True, doc="CK-KNIGHT-1"),
    "walls": F(List(NODE, max_len=12), required=True, doc="CK-WALL-1: the cities carrying a wall"),
    "sideways": F(List(NODE, max_len=16), doc="CK-BARB-5: pillaged cities laid on their side (no settlement piece "
                                              "was left): a settlement until restored"),
    "improvements": F(by_player(TRACK_LEVELS), required=True, doc="CK-IMP-1: levels per track"),
    "metropolises": F(Obj({t: F(HOLDER, nullable=True) for t in TRACKS}), required=True, doc="CK-IMP-7"),
    "defenders": F(by_player(Int(0, 100)), required=True, doc="CK-BARB-6/7: Defender of Catan VP"),
    "decks": F(Obj({d: F(Cards(tuple(DECKS[d]), hi=6), required=True) for d in TRACKS}), required=True,
               doc="CK-COMP-4: the progress cards left in each deck"),
    "hands": F(by_player(Cards(PROGRESS_CARDS, hi=6)), required=True, doc="CK-PROG-3: progress cards held"),
    "vp_cards": F(by_player(Cards(VP_CARDS, hi=1)), required=True, doc="CK-PROG-4: Printer, Constitution revealed"),
    "merchant": F(Null(Obj({"hex": F(HEX, required=True), "player": F(PLAYER, required=True)})), nullable=True,
                  doc="CK-PROG-T3"),
    "turn": F(Obj({
        "crane": F(Bool(), doc="CK-PROG-S2: the next improvement costs 1 less"),
        "fleet": F(Null(Str(CARDS)), nullable=True, doc="CK-PROG-T4: the card traded 2:1 this turn"),
        "harbor_partners": F(List(PLAYER, max_len=4), doc="CK-PROG-T1: opponents already offered a resource"),
        "harbor": F(Bool(), doc="CK-PROG-T1: a Commercial Harbor was played this turn"),
        "medicine": F(Bool(), doc="CK-PROG-S6: the next city costs 2 ore + 1 grain"),
        "smith": F(Int(0, 2), doc="CK-PROG-S10: free promotions left"),
        "engineer": F(Bool(), doc="CK-PROG-S3: a free city wall"),
        "roads": F(Int(0, 2), doc="CK-PROG-S9: free roads or ships left"),
        "diplomat": F(Bool(), doc="CK-PROG-P4: the own road just removed may be placed again free"),
        "alchemist": F(Bool(), doc="CK-PROG-S1: played before this roll"),
    }), required=True, doc="what this turn's progress cards allow"),
}, doc="Cities & Knights")


def initial(num_players: int, steps: int = 7) -> dict[str, Any]:
    ps = [str(p) for p in range(num_players)]
    return {
        "commodities": {p: {c: 0 for c in COMMODITIES} for p in ps},
        "commodity_bank": {c: COMMODITY_COUNT for c in COMMODITIES},
        "barbarian": 0, "barbarian_steps": steps, "attacks": 0,          # CK-SETUP-3
        "knights": [], "walls": [], "sideways": [],
        "improvements": {p: {t: 0 for t in TRACKS} for p in ps},
        "metropolises": {t: None for t in TRACKS},                         # CK-COMP-3: one per track
        "defenders": {p: 0 for p in ps},
        "decks": {d: dict(DECKS[d]) for d in TRACKS},
        "hands": {p: {} for p in ps},
        "vp_cards": {p: {} for p in ps},
        "merchant": None,                                                # CK-SETUP-3: off the board
        "turn": fresh_turn(),
    }


def fresh_turn() -> dict[str, Any]:
    return {"crane": False, "fleet": None, "harbor_partners": [], "harbor": False, "medicine": False, "smith": 0,
            "engineer": False, "roads": 0, "diplomat": False, "alchemist": False}


def ck(s: State) -> dict[str, Any]:
    return s.scenario_state[KEY]


def commodities(s: State, p: int) -> dict[str, int]:
    return ck(s)["commodities"].setdefault(str(p), {c: 0 for c in COMMODITIES})


def cards_of(s: State, p: int) -> dict[str, int]:
    """Resources and commodities in one hand (CK-COM-3)."""
    com = ck(s)["commodities"].get(str(p), {})
    return {**{r: n for r, n in s.players[p].resources.items()}, **{c: com.get(c, 0) for c in COMMODITIES}}


def hand_size(s: State, p: int) -> int:
    """CK-COM-3, CK-SEVEN-2: resources plus commodities (progress cards never count, CK-SEVEN-5)."""
    com = ck(s)["commodities"].get(str(p), {})
    return s.players[p].hand_size + sum(com.values())


def give_card(s: State, p: int, card: str, n: int = 1) -> None:
    """From the bank to ``p`` (the caller checked the bank holds it)."""
    if card in COMMODITIES:
        ck(s)["commodity_bank"][card] -= n
        com = commodities(s, p)
        com[card] = com.get(card, 0) + n
    else:
        s.bank[card] -= n
        s.players[p].resources[card] += n


def return_card(s: State, p: int, card: str, n: int = 1) -> None:
    """From ``p`` to the bank."""
    if card in COMMODITIES:
        commodities(s, p)[card] -= n
        ck(s)["commodity_bank"][card] += n
    else:
        s.players[p].resources[card] -= n
        s.bank[card] += n


def move_card(s: State, src: int, dst: int, card: str, n: int = 1) -> None:
    if card in COMMODITIES:
        commodities(s, src)[card] -= n
        d = commodities(s, dst)
        d[card] = d.get(card, 0) + n
    else:
        s.players[src].resources[card] -= n
        s.players[dst].resources[card] += n


def bank_has(s: State, card: str) -> int:
    return ck(s)["commodity_bank"].get(card, 0) if card in COMMODITIES else s.bank.get(card, 0)


def knights(s: State) -> list[dict[str, Any]]:
    return ck(s)["knights"]


def knight_at(s: State, node: Node) -> Optional[dict[str, Any]]:
    want = list(node)
    for k in ck(s)["knights"]:
        if k["node"] == want:
            return k
    return None


def knight_nodes(s: State) -> dict[Node, int]:
    """Intersection -> owner of the knight standing there."""
    return {tuple(k["node"]): k["player"] for k in ck(s)["knights"]}


def knights_in_supply(s: State, p: int, level: int) -> int:
    """CK-COMP-2: 2 knights of each level per player."""
    return KNIGHTS_PER_LEVEL - sum(1 for k in ck(s)["knights"] if k["player"] == p and k["level"] == level)


def walls_of(s: State, p: int) -> int:
    return sum(1 for n in ck(s)["walls"] if s.buildings.get(tuple(n), (None,))[0] == p)


def walls_in_supply(s: State, p: int) -> int:
    return WALLS - walls_of(s, p)


def level(s: State, p: int, track: str) -> int:
    return ck(s)["improvements"].get(str(p), {}).get(track, 0)


def metropolis_nodes(s: State) -> dict[Node, str]:
    out = {}
    for t, h in ck(s)["metropolises"].items():
        if h:
            out[tuple(h["node"])] = t
    return out


def sideways(s: State) -> set:
    """CK-BARB-5: cities on their side (settlements for every purpose until restored)."""
    return {tuple(n) for n in ck(s).get("sideways") or ()}


def robber_awake(s: State) -> bool:
    """CK-SEVEN-3, CK-SEA-8: the robber and pirate move only once the first attack is resolved."""
    return ck(s)["attacks"] > 0


def hand(s: State, p: int) -> dict[str, int]:
    return ck(s)["hands"].setdefault(str(p), {})


def hand_of(s: State, p: int) -> dict[str, int]:
    """``p``'s progress cards, read only (no entry is made: the state judged stays as posted)."""
    return ck(s)["hands"].get(str(p)) or {}


def commodities_of(s: State, p: int) -> dict[str, int]:
    """``p``'s commodities, read only."""
    return ck(s)["commodities"].get(str(p)) or {c: 0 for c in COMMODITIES}


def progress_count(s: State, p: int) -> int:
    """CK-PROG-5: progress cards held (the VP cards are laid out, not held)."""
    return sum(ck(s)["hands"].get(str(p), {}).values())


def strength(s: State, p: int) -> int:
    """CK-BARB-3: the strength of ``p``'s active knights."""
    return sum(k["level"] for k in ck(s)["knights"] if k["player"] == p and k["active"])


__all__ = ["KEY", "SHAPE", "initial", "fresh_turn", "ck", "commodities", "commodities_of", "hand_of", "cards_of",
           "hand_size", "give_card",
           "return_card", "move_card", "bank_has", "knights", "knight_at", "knight_nodes", "knights_in_supply",
           "walls_of", "walls_in_supply", "level", "metropolis_nodes", "robber_awake", "hand", "progress_count",
           "strength", "LEVELS", "CARDS"]
