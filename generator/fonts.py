"""Fonts: only Bitstream Vera (shipped inside reportlab) is ever seen, and text is fitted to boxes.

:func:`configure` writes a fonts.conf listing only reportlab's font folder and points
FONTCONFIG_FILE at it; it must run before cairo is imported, so the PDF never depends on the
fonts installed on the machine.  :func:`fit` measures with the same TTF files.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path
from typing import Any, NamedTuple

from ludoteca.atomic import cache_dir

from .model import GeneratorError
from .units import pt_to_mm

FAMILY = "Bitstream Vera Sans"
MIN_PT = 6.0
LINE_SPACING = 1.2          # line height as a multiple of the font size
FACES = {"regular": "Vera", "bold": "VeraBd", "italic": "VeraIt"}


def font_dir() -> Path:
    """reportlab's bundled font folder (holds Vera*.ttf)."""
    spec = importlib.util.find_spec("reportlab")
    assert spec and spec.origin
    return Path(spec.origin).parent / "fonts"


def configure() -> Path:
    """Write fonts.conf (only Vera) and set FONTCONFIG_FILE; call before importing cairo."""
    folder = cache_dir("fontconfig")
    if folder is None:
        raise GeneratorError("cannot write a fonts.conf: no writable cache folder")
    conf = folder / "fonts.conf"
    text = ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
            f"  <dir>{font_dir()}</dir>\n  <cachedir>{folder / 'cache'}</cachedir>\n"
            # the folder also holds Type 1 and test fonts: only Vera*.ttf may ever be chosen
            "  <selectfont><rejectfont><glob>*.pfb</glob><glob>*.afm</glob>"
            "<glob>*/hb-test.ttf</glob></rejectfont></selectfont>\n"
            # any family a template asks for is drawn in Vera Sans (weight and slant kept)
            '  <match target="pattern"><edit name="family" mode="assign" binding="strong">'
            f"<string>{FAMILY}</string></edit></match>\n"
            "</fontconfig>\n")
    if not conf.exists() or conf.read_text(encoding="utf-8") != text:
        tmp = conf.with_name(f".fonts.conf.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, conf)
    os.environ["FONTCONFIG_FILE"] = str(conf)
    return conf


@functools.lru_cache(maxsize=1)
def _metrics():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    folder = font_dir()
    for name in FACES.values():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    return pdfmetrics


@functools.lru_cache(maxsize=1)
def _widths() -> dict[str, tuple[dict[int, float], float]]:
    """Per face: advance width of each character (1/1000 em) and the default, as reportlab has them.

    Read from reportlab once and kept in the cache folder (keyed by the font files), so a build
    does not load reportlab and parse three TrueType files just to measure text.
    """
    import marshal
    folder = font_dir()
    stamp: list[Any] = [FACES]
    for name in FACES.values():
        st = (folder / f"{name}.ttf").stat()
        stamp.append([name, st.st_size, st.st_mtime_ns])
    cache = cache_dir("fonts")
    path = cache / "widths.bin" if cache else None      # marshal: read in a fifth of JSON's time
    if path is not None:
        try:
            saved, faces = marshal.loads(path.read_bytes())
            if saved == stamp and isinstance(faces, dict) and set(faces) == set(FACES.values()) \
                    and all(type(f) is tuple and len(f) == 2 and type(f[0]) is dict for f in faces.values()):
                return faces
        except (OSError, ValueError, EOFError, TypeError):
            pass                                        # not cached, or damaged: read again
    pm = _metrics()
    faces = {}
    for name in FACES.values():
        face = pm.getFont(name).face
        faces[name] = (dict(face.charWidths), face.defaultWidth)
    if path is not None:
        from ludoteca.atomic import write_bytes
        try:
            write_bytes(path, marshal.dumps((stamp, faces)), durable=False)   # a cache
        except OSError:
            pass
    return faces


#: texts measured and fitted that are remembered (the last ones): a fit measures the same words at
#: every size it tries, and few texts repeat beyond one card, so a few thousand serve as well as
#: more (with 65,536, a 20,000-card deck's build kept about 4 MB more than a 6,000-card one's)
MEASURED_KEPT = 4096
FITTED_KEPT = 1024


@functools.lru_cache(maxsize=MEASURED_KEPT)
def _em_width(text: str, face: str) -> float:
    """Sum of the advances of ``text`` in 1/1000 em (reportlab's order, so the same float)."""
    table, default = _widths()[face]
    get = table.get
    return sum(get(ord(c), default) for c in text)


def text_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of one line of text in millimetres (reportlab's stringWidth, to the last bit)."""
    return pt_to_mm(0.001 * size_pt * _em_width(text, FACES["bold" if bold else "regular"]))


class Fit(NamedTuple):
    """A text fitted into a box: the size chosen and the lines it wraps into."""

    size_pt: float
    lines: tuple[str, ...]
    fits: bool

    @property
    def size_mm(self) -> float:
        return pt_to_mm(self.size_pt)

    @property
    def line_height_mm(self) -> float:
        return self.size_mm * LINE_SPACING

    @property
    def height_mm(self) -> float:
        return self.line_height_mm * len(self.lines)


#: What a template may read of a fit.
FIT_FIELDS = frozenset({"size_pt", "lines", "fits", "size_mm", "line_height_mm", "height_mm"})


class FitError(GeneratorError):
    """A text cannot fit its box even at the smallest size allowed."""


#: Whether ``sum`` of floats adds them one by one (Python before 3.12): then a line's width grows
#: word by word to the same float as measuring the whole line again.
_PLAIN_SUM = sum([1e100, 1.0, -1e100]) == 0.0


def _wrap(text: str, width_mm: float, size_pt: float, bold: bool) -> list[str] | None:
    """Greedy word wrap; None when a single word is wider than the box.

    Each candidate line's width is its line's width so far plus the space and the word's
    advances, added one by one in the same order :func:`_em_width` adds them: the same float
    as measuring the candidate from its start, without going over the line again.
    """
    if not _PLAIN_SUM:
        return _wrap_measured(text, width_mm, size_pt, bold)
    face = FACES["bold" if bold else "regular"]
    table, default = _widths()[face]
    get = table.get
    space = get(32, default)
    scale = 0.001 * size_pt
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        line_em: float = 0
        for word in paragraph.split():
            if line:
                em = line_em + space
                for c in word:
                    em += get(ord(c), default)
            else:
                em = _em_width(word, face)
            if pt_to_mm(scale * em) <= width_mm:
                line = f"{line} {word}" if line else word
                line_em = em
                continue
            alone = _em_width(word, face)
            if not line or pt_to_mm(scale * alone) > width_mm:
                return None
            lines.append(line)
            line, line_em = word, alone
        lines.append(line)
    return lines


def _wrap_measured(text: str, width_mm: float, size_pt: float, bold: bool) -> list[str] | None:
    """:func:`_wrap`, each candidate line measured whole (where ``sum`` compensates its floats)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if text_width_mm(candidate, size_pt, bold) <= width_mm:
                line = candidate
                continue
            if not line or text_width_mm(word, size_pt, bold) > width_mm:
                return None
            lines.append(line)
            line = word
        lines.append(line)
    return lines


@functools.lru_cache(maxsize=FITTED_KEPT)
def fit(text: str, width_mm: float, height_mm: float, max_pt: float, min_pt: float = MIN_PT,
        bold: bool = False) -> Fit:
    """The largest size from ``max_pt`` down (0.25 pt steps) at which ``text`` wraps into the box.

    Never below 6 pt: when it cannot fit, the result has ``fits=False`` (the template helper
    turns that into a build error naming the face).

    >>> f = fit("Catedral", 40, 10, 12)
    >>> f.fits and f.lines == ("Catedral",) and f.size_pt == 12
    True
    """
    min_pt = max(MIN_PT, float(min_pt))
    size = max(float(max_pt), min_pt)
    while True:
        lines = _wrap(text, width_mm, size, bold)
        if lines is not None and len(lines) * pt_to_mm(size) * LINE_SPACING <= height_mm + 1e-9:
            return Fit(size, tuple(lines), True)
        if size <= min_pt:
            return Fit(min_pt, tuple(lines or [str(text)]), False)
        size = max(min_pt, size - 0.25)
