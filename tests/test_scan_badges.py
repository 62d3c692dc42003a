"""The scan screen's numbered badges (companion/app/badges.py): pieces photographed in a pile still
get badges that do not overlap and stay inside the picture."""

from __future__ import annotations

import math
import random

from ludoteca.companion.app.badges import badge_radius, place_badges


def test_badges_of_a_pile_of_pieces_neither_overlap_nor_leave_the_photo():
    rnd = random.Random(5)
    size = (1280, 960)
    radius = badge_radius(size)
    for _pile in range(20):
        centres = [(rnd.uniform(0, 200), rnd.uniform(0, 150)) for _ in range(rnd.randint(2, 14))]  # a corner pile
        placed = place_badges(centres, radius, size)
        assert len(placed) == len(centres)
        for i, (ax, ay) in enumerate(placed):
            assert radius <= ax <= size[0] - radius and radius <= ay <= size[1] - radius
            for bx, by in placed[i + 1:]:
                assert math.hypot(ax - bx, ay - by) >= 2 * radius
    lone = place_badges([(600.0, 400.0)], radius, size)
    assert lone == [(600, 400)]  # a badge that has room sits on its piece
