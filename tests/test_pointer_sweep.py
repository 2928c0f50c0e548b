"""One-field mutations of real positions of every scenario (``tests/pointer_sweep.py``): a refused body
points at the field changed, and a broken sum (cards in hands and the bank, pieces on the board and in
supply, a clash of two pieces on one place) names both sides, so whichever side was changed is named.

The default run tries ``POINTER_SWEEP`` cases (300); ``RUN_SLOW=1`` adds a run of 5,000 on another seed,
and ``bench/pointer_sweep.py`` runs any number and prints the misses."""
from __future__ import annotations

import os

import pytest

from .pointer_sweep import names_the_field, sweep

CASES = int(os.environ.get("POINTER_SWEEP", "300"))


def test_names_the_field():
    assert names_the_field(["/state/bank/lumber", "/state/players/1/resources/lumber"],
                           "/state/players/1/resources/lumber")
    assert names_the_field(["/state/board/hexes/4"], "/state/board/hexes/4/r")
    assert not names_the_field(["/state/board/hexes/5/q"], "/state/board/hexes/4/q")
    assert not names_the_field(["/state"], "/state/bank/lumber")


def test_a_refused_position_points_at_the_field_changed():
    total, refused, missed, misses = sweep(CASES, seed=3)
    assert refused > CASES // 4, (total, refused)        # the sweep does reach the checks
    assert not missed, misses[:5]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RUN_SLOW"), reason="a long budget: RUN_SLOW=1")
def test_a_refused_position_points_at_the_field_changed_many():
    total, refused, missed, misses = sweep(5_000, seed=11)
    assert not missed, misses[:5]
