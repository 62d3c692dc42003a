"""Reading a photo of the table: the scan markers printed on the scoring components.

Kivy-free.  ``targets`` says which marker names which component (from ``cards/`` and the print
kit's marker places), ``detect`` finds them in an image (OpenCV, the optional extra
``ludoteca[scan]``), ``tally`` turns what was found into a scoring record for
``engine.scoring.score_record``, and ``synth`` makes synthetic table photos from the kit's own faces.
"""

from __future__ import annotations

from ludoteca.companion.engine.errors import Bilingual

HINT = "ludoteca scan needs OpenCV: pip install 'ludoteca[scan]'"


class ScanError(Bilingual):
    """Bad input for the scanner (a photo that cannot be read, a bad option): one line for the user.

    Like the engine's errors it carries ``text``, ``{es, en}``; ``str()`` is the English line (the
    command line's), the app shows its own language:

    >>> err = ScanError({"es": "foto.jpg: no es una imagen", "en": "foto.jpg: not an image"})
    >>> str(err), err.text["es"], ScanError("--set x: expected KEY=VALUE").text["es"]
    ('foto.jpg: not an image', 'foto.jpg: no es una imagen', '--set x: expected KEY=VALUE')
    """


class MissingExtra(ScanError):
    """OpenCV (the ``scan`` extra) is not installed."""


def require_cv2():
    """The ``cv2`` module, or :class:`MissingExtra` with the one-line install hint.

    Reading markers uses no linear algebra library: NumPy's OpenBLAS (imported by OpenCV) is kept
    to one thread, which spares its start-up of a thread per core (a third of the command's CPU)."""
    import os
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import cv2
    except ImportError:
        raise MissingExtra(HINT) from None
    if not hasattr(cv2, "aruco"):
        raise MissingExtra(HINT + " (this OpenCV has no aruco module)")
    return cv2
