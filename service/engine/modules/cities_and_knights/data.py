"""Cities & Knights data: commodities, costs, the improvement tracks, the progress-card decks.

Rule IDs are those of ``rules/cities-and-knights.md`` (CK-*); the numbers below are the tables of its
sections 2, 3, 6, 10 and 13-16.
"""
from __future__ import annotations

from ...mapgraph import RESOURCES

OPTION = "cities_and_knights"

COMMODITIES = ("paper", "cloth", "coin")                       # CK-COMP-1
CARDS = RESOURCES + COMMODITIES
COMMODITY_COUNT = 12                                           # CK-COMP-1: 12 of each
#: CK-COM table: what a city on a hex of this terrain takes besides its one resource.
COMMODITY_OF = {"forest": "paper", "pasture": "cloth", "mountains": "coin"}

KNIGHTS_PER_LEVEL = 2                                          # CK-COMP-2: 2 basic, 2 strong, 2 mighty
LEVELS = (1, 2, 3)
LEVEL_NAMES = {1: "basic", 2: "strong", 3: "mighty"}
WALLS = 3                                                      # CK-COMP-2, CK-WALL-1

#: CK-COST table.
COSTS = {
    "wall": {"brick": 2},
    "knight": {"wool": 1, "ore": 1},
    "activate": {"grain": 1},
    "promote": {"wool": 1, "ore": 1},
}

TRACKS = ("trade", "politics", "science")                      # CK-IMP table
TRACK_COMMODITY = {"trade": "cloth", "politics": "coin", "science": "paper"}
IMPROVEMENT_NAMES = {
    "trade": ("market", "trading_house", "merchant_guild", "bank", "great_exchange"),
    "politics": ("town_hall", "church", "fortress", "cathedral", "high_assembly"),
    "science": ("abbey", "library", "aqueduct", "theater", "university"),
}
METROPOLIS_LEVEL = 4                                           # CK-IMP-7
MAX_LEVEL = 5

EVENT_FACES = ("ship", "ship", "ship", "politics", "science", "trade")    # CK-DICE-3
EVENTS = ("ship", "politics", "science", "trade")
BARBARIAN_STEPS = 7                                            # CK-BARB-1
VP_TARGET = 13                                                 # CK-VP-1, CK-CHG-3
SEA_VP_RAISE = 2                                               # CK-SEA-1
HAND_LIMIT = 7                                                 # CK-SEVEN-2: 7 + 2 per wall
PROGRESS_LIMIT = 4                                             # CK-PROG-5

#: CK-COMP-4, sections 13-15: each deck's cards and how many of each.
DECKS = {
    "science": {"alchemist": 2, "crane": 2, "engineer": 1, "inventor": 2, "irrigation": 2, "medicine": 2,
                "mining": 2, "printer": 1, "road_building": 2, "smith": 2},
    "politics": {"bishop": 2, "constitution": 1, "deserter": 2, "diplomat": 2, "intrigue": 2, "saboteur": 2,
                 "spy": 3, "warlord": 2, "wedding": 2},
    "trade": {"commercial_harbor": 2, "master_merchant": 2, "merchant": 6, "merchant_fleet": 2,
              "resource_monopoly": 4, "trade_monopoly": 2},
}
DECK_OF = {card: deck for deck, cards in DECKS.items() for card in cards}
PROGRESS_CARDS = tuple(c for d in TRACKS for c in DECKS[d])
VP_CARDS = ("printer", "constitution")                         # CK-PROG-4
#: The rule ID of each card (sections 13-15).
CARD_RULE = {
    "alchemist": "CK-PROG-S1", "crane": "CK-PROG-S2", "engineer": "CK-PROG-S3", "inventor": "CK-PROG-S4",
    "irrigation": "CK-PROG-S5", "medicine": "CK-PROG-S6", "mining": "CK-PROG-S7", "printer": "CK-PROG-S8",
    "road_building": "CK-PROG-S9", "smith": "CK-PROG-S10",
    "bishop": "CK-PROG-P1", "constitution": "CK-PROG-P2", "deserter": "CK-PROG-P3", "diplomat": "CK-PROG-P4",
    "intrigue": "CK-PROG-P5", "saboteur": "CK-PROG-P6", "spy": "CK-PROG-P7", "warlord": "CK-PROG-P8",
    "wedding": "CK-PROG-P9",
    "commercial_harbor": "CK-PROG-T1", "master_merchant": "CK-PROG-T2", "merchant": "CK-PROG-T3",
    "merchant_fleet": "CK-PROG-T4", "resource_monopoly": "CK-PROG-T5", "trade_monopoly": "CK-PROG-T6",
}
assert all(sum(DECKS[d].values()) == 18 for d in TRACKS)      # CK-COMP-4

#: CK-PROG-9: the names of the 2025 English printing (same effects and counts), by card ID. The referee
#: takes either name wherever an action names a progress card (``card_id``); states, events and the
#: legal-action list always use the IDs.
NAMES_2025 = {
    "alchemist": "alchemy", "engineer": "engineering", "inventor": "invention", "printer": "printing",
    "smith": "smithing", "bishop": "taxation", "deserter": "treason", "diplomat": "diplomacy",
    "saboteur": "sabotage", "spy": "espionage", "warlord": "encouragement", "master_merchant": "guild_dues",
}
ALIASES = {v: k for k, v in NAMES_2025.items()}
#: What an action may name a progress card by: its ID or its 2025 name (CK-PROG-9).
CARD_NAMES = PROGRESS_CARDS + tuple(NAMES_2025[c] for c in PROGRESS_CARDS if c in NAMES_2025)


def card_id(name):
    """CK-PROG-9: the card ID of a progress card named by its ID or its 2025 name (None stays None)."""
    return ALIASES.get(name, name)
