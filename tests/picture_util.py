"""Comparing pictures with committed reference images, tolerantly (fonts and antialiasing differ a little
between machines)."""
from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

REFERENCE = Path(__file__).parent / "fixtures" / "render"


def image_difference(a: bytes, b: bytes) -> tuple[float, float]:
    """(mean absolute difference per channel 0-255, share of pixels differing by more than 64 in a channel)
    of two pictures of the same size; a size mismatch is total difference."""
    ia, ib = Image.open(io.BytesIO(a)).convert("RGB"), Image.open(io.BytesIO(b)).convert("RGB")
    if ia.size != ib.size:
        return 255.0, 1.0
    ra, rb = ia.tobytes(), ib.tobytes()
    total, far = 0, 0
    for i in range(0, len(ra), 3):
        d = max(abs(ra[i] - rb[i]), abs(ra[i + 1] - rb[i + 1]), abs(ra[i + 2] - rb[i + 2]))
        total += abs(ra[i] - rb[i]) + abs(ra[i + 1] - rb[i + 1]) + abs(ra[i + 2] - rb[i + 2])
        far += d > 64
    n = len(ra) // 3
    return total / (3 * n), far / n


def matches_reference(name: str, png: bytes, mean: float = 6.0, share: float = 0.03) -> None:
    """Compare with ``tests/fixtures/render/<name>`` (tolerant: fonts and antialiasing differ between
    machines). ``UPDATE_REFERENCE_IMAGES=1`` writes the reference instead (look at it before committing)."""
    path = REFERENCE / name
    if os.environ.get("UPDATE_REFERENCE_IMAGES") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    got_mean, got_share = image_difference(path.read_bytes(), png)
    assert got_mean <= mean and got_share <= share, (
        f"{name}: mean difference {got_mean:.2f} (at most {mean}), {got_share:.1%} of pixels far off "
        f"(at most {share:.0%}); rerun with UPDATE_REFERENCE_IMAGES=1 if the change is meant")
