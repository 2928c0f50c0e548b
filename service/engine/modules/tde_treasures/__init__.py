"""Treasures, Dragons & Explorers scenarios 1 and 2: "The Treasure Islands" (TDE1) and "Departure into
the Unknown" (TDE2), with their shared treasure machinery (:mod:`.treasures`) and maps (:mod:`.scenarios`)."""
from .scenarios import DepartureIntoTheUnknown, TreasureIslands

SCENARIOS = (TreasureIslands(), DepartureIntoTheUnknown())
