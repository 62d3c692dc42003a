"""Freed memory handed back to the system while a huge deck streams.

glibc's malloc keeps what Python frees (a slice's face SVG, the pool's pickled jobs, made in
its feeder thread's own arena) inside its heaps; a few objects that live on (a page's key) keep
those heaps from shrinking, so the free space grew with every slice: at 20,000 cards the parent
held about 4 MB of freed memory more than at 6,000.  :func:`give_back` returns the free pages
(``malloc_trim``); elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where there is none (macOS, Windows, musl)."""
    try:
        import ctypes
        trim = ctypes.CDLL(None).malloc_trim        # the C library Python itself runs on
    except (OSError, AttributeError, TypeError, ImportError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def give_back() -> bool:
    """Return the free pages of every malloc arena to the system; whether any were."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
