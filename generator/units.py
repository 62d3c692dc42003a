"""Units, converted in one place: every length in the engine is millimetres until it meets the PDF."""

from __future__ import annotations

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points (1/72 inch).

    >>> round(mm_to_pt(210), 2)
    595.28
    """
    return mm * PT_PER_INCH / MM_PER_INCH


def pt_to_mm(pt: float) -> float:
    """PDF points to millimetres.

    >>> round(pt_to_mm(72), 1)
    25.4
    """
    return pt * MM_PER_INCH / PT_PER_INCH


def mm_to_px(mm: float, dpi: float) -> float:
    """Millimetres to pixels at ``dpi``."""
    return mm * dpi / MM_PER_INCH


def num(x: float) -> str:
    """A length as short SVG text: at most 3 decimals, no trailing zeros.

    >>> num(3.0), num(1.23456), num(-0.0)
    ('3', '1.235', '0')
    """
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
