"""What was recognised, drawn over the photo: each component's outline and its name (in orange
with a question mark when only one of its markers was read)."""

from __future__ import annotations

from collections.abc import Sequence

from . import require_cv2
from .detect import Found

#: outline colours (BGR) by kind
COLOURS = {"district": (40, 200, 40), "dark_district": (200, 60, 160), "building": (40, 160, 250),
           "counter": (230, 180, 30), "token": (60, 60, 230)}
#: the outline of a piece read from one of its markers only (orange)
UNSURE = (0, 140, 255)


def annotate(image, found: Sequence[Found], lang: str = "es"):
    """A copy of a BGR image with the outlines and names of ``found`` drawn on it."""
    cv2 = require_cv2()
    import numpy as np
    out = image.copy()
    width = max(2, int(max(out.shape[:2]) / 500))
    for f in found:
        colour = COLOURS.get(f.target.kind, (255, 255, 255)) if f.sure else UNSURE
        cv2.polylines(out, [np.int32(f.outline)], True, colour, width, cv2.LINE_AA)
        # every marker that voted for the piece (both copies of a card read, or one)
        cv2.polylines(out, [np.int32(q) for q in f.seen], True, (0, 0, 255), max(1, width // 2), cv2.LINE_AA)
        name = str(f.target.name.get(lang) or f.target.id) + ("" if f.sure else " ?")
        x, y = (int(v) for v in f.centre)
        scale = width / 3
        size, _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, width)
        cv2.rectangle(out, (x - size[0] // 2 - 4, y - size[1] - 6), (x + size[0] // 2 + 4, y + 6), (0, 0, 0), -1)
        cv2.putText(out, name, (x - size[0] // 2, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255),
                    width, cv2.LINE_AA)
    return out
