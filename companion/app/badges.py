"""Where the scan screen puts the numbered badge of each recognised piece on the photo: on the
piece when there is room, else at the nearest free spot around it (a leader line joins them), so
no two badges overlap and none leaves the picture.  No Kivy here.

>>> place_badges([(50, 50), (52, 50)], 10, (200, 100))
[(50, 50), (76, 50)]
"""

from __future__ import annotations

import math

#: The badge's radius as a share of the picture's longer side (legible on a phone's width).
RADIUS_SHARE = 0.05
#: Free space between two badges, as a share of the radius.
GAP_SHARE = 0.2


def badge_radius(size: tuple[int, int]) -> int:
    """The badge radius for a picture of ``size`` (width, height) in pixels."""
    return max(8, int(round(max(size) * RADIUS_SHARE)))


def place_badges(centres: list[tuple[float, float]], radius: float,
                 size: tuple[int, int]) -> list[tuple[int, int]]:
    """A position per centre, in order: the centre itself when it is free, else the first free
    point on rings around it (8 then 12, 16... directions, each ring one badge further)."""
    w, h = size
    gap = 2 * radius * (1 + GAP_SHARE)
    placed: list[tuple[int, int]] = []

    def inside(x: float, y: float) -> tuple[int, int]:
        return (int(round(min(max(x, radius), w - radius))), int(round(min(max(y, radius), h - radius))))

    def free(p: tuple[int, int]) -> bool:
        return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= gap for q in placed)

    for cx, cy in centres:
        best = inside(cx, cy)
        ring = 0
        while not free(best) and ring < 60:
            ring += 1
            steps = 4 + 4 * ring
            options = [inside(cx + ring * gap * math.cos(2 * math.pi * k / steps),
                              cy + ring * gap * math.sin(2 * math.pi * k / steps)) for k in range(steps)]
            options = [p for p in options if free(p)]
            if options:
                best = min(options, key=lambda p: math.hypot(p[0] - cx, p[1] - cy))
        placed.append(best)
    return placed
