"""The root ``<svg>`` tag of a face: where a page places it (:mod:`.compose`) and how the image
writers frame it (:mod:`.raster`) are both new values for a few of its attributes."""

from __future__ import annotations

import functools
import re

ROOT = r"(?s)<svg\b[^>]*>"        # compiled at its first use (re's own cache): a deck's run makes none


@functools.cache
def _attributes(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\s(?:" + "|".join(names) + r')="[^"]*"')


def with_root(svg: str, **values: str) -> str:
    """``svg`` with its root tag's attributes ``values`` set (any old value of them removed), in
    the order given, right after ``<svg``.

    >>> with_root('<?xml?><svg width="1" id="a"><rect width="2"/></svg>', width="5mm", height="4mm")
    '<?xml?><svg width="5mm" height="4mm" id="a"><rect width="2"/></svg>'
    """
    match = re.search(ROOT, svg)
    if not match:
        raise ValueError("a face template did not produce an <svg> element")
    tag = _attributes(tuple(values)).sub("", match.group(0))
    tag = tag[:4] + "".join(f' {name}="{value}"' for name, value in values.items()) + tag[4:]
    return svg[:match.start()] + tag + svg[match.end():]
