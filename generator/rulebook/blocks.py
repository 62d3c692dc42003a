"""What a rulebook is made of, in one language, before it is set on pages.

Texts here are already in their language and already marked up for reportlab's paragraphs
(escaped, ``<b>`` for bold, :func:`icon` for a small drawing inside a line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field


def escape(text: str) -> str:
    """Text safe inside paragraph markup (``&``, ``<``, ``>``, ``"``)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


@dataclass
class Heading:
    level: int                 # 1 chapter (bookmark, new page for chapters after the first), 2, 3
    text: str
    new_page: bool = False


@dataclass
class Para:
    text: str
    style: str = "body"        # body | small | lead


@dataclass
class Items:
    items: list[str]
    numbered: bool = False
    small: bool = False        # set in the small size (a summary that must fit one page)


@dataclass
class Icon:
    """A small drawing: ``dot`` (a coloured disc), ``level`` (the El Mapa level badge), ``res``."""

    kind: str
    colour: str
    label: str = ""
    shape: str = "circle"


Cell = str | Icon | list


@dataclass
class Table:
    header: list[str]
    rows: Sequence[Sequence[Cell]]
    widths: list[float] | None = None      # relative widths; None = equal
    align: list[str] | None = None         # per column: LEFT | CENTER | RIGHT
    bold_last: bool = False                # the last row is a total


@dataclass
class MapGrid:
    """An El Mapa starting map: the grid of codes and how to colour it."""

    title: str
    grid: list[list[str]]
    styles: dict[str, dict]                # level code -> {"fill", "dark", "light", "shape"}
    colours: list[str]                     # player colours, J1 first
    hole: str = ""
    counts: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class Picture:
    """A drawing of the kit's own (an SVG of its templates) set at its size, or smaller when the
    page is narrower; the caption under it."""

    svg: str
    width_mm: float
    height_mm: float
    caption: str = ""
    #: a scene's table alone and the faces ``svg`` nests on it (see :meth:`.context.Context.scene`),
    #: so a face it shows several times is drawn once
    table: str = ""
    faces: tuple = ()


@dataclass
class Title:
    """The cover: the game's name, what the book is, lines under it, and its picture."""

    name: str
    subtitle: str
    lines: list[str]
    colour: str
    picture: Picture | None = None


Block = Heading | Para | Items | Table | MapGrid | Picture | Title

_BOLD = re.compile(r"\*\*(.+?)\*\*")


def markup(text: str) -> str:
    """Plain text (``**bold**`` allowed) as paragraph markup: escaped, spaces joined."""
    return _BOLD.sub(r"<b>\1</b>", escape(" ".join(str(text).split())))


def icon(kind: str, colour: str, label: str = "", shape: str = "circle") -> str:
    """Markup that draws a small icon inside a line of text (room kept with fixed spaces)."""
    return (f'<onDraw name="icon" label="{escape(kind)}|{escape(colour)}|{escape(label)}|{escape(shape)}"/>'
            "\u00a0\u00a0\u00a0\u00a0")
