"""The face being rendered, as templates see it (``_cur``): what compiled templates
(:mod:`.tcompile`) read in place and their run time (:mod:`.trun`) checks, in one place."""

from __future__ import annotations

from typing import Any


class Current:
    """The face being rendered, as the shared macros of _lib.svg.j2 see it (``_cur``)."""

    w: float = 0.0
    h: float = 0.0
    bleed: float = 0.0
    lang: str = "es"
    ink_saver: bool = False
    markers: bool = True
    fit: Any = None
    t: Any = None


#: What a template may read of ``_cur``: Current's own attributes.
CURRENT = frozenset(Current.__annotations__)
