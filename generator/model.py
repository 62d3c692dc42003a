"""The contract between the engine and the game modules (see generator/API.md)."""

from __future__ import annotations

from .record import field, record


class GeneratorError(ValueError):
    """Bad input for the print kit: the message is one line for the user (exit 2)."""


def in_lang(text: object, lang: str) -> str:
    """A displayed text in ``lang``: an {es, en} mapping gives its ``lang`` text (Spanish when that
    one is missing), a plain value its own text, nothing an empty string.

    >>> in_lang({"es": "Señorío", "en": "Manor"}, "en"), in_lang({"es": "Templo"}, "en"), in_lang(None, "es")
    ('Manor', 'Templo', '')
    """
    if isinstance(text, dict):
        return str(text.get(lang) or text.get("es") or "")
    return "" if text is None else str(text)


@record(frozen=True)
class Face:
    """One printed face: a template and the values it is rendered with."""

    template: str      # path relative to templates/, e.g. "ciudadelas/district.svg.j2"
    context: dict      # JSON-serialisable values for the template
    name: str          # file-safe name within its component ("castle", "back"): PNG names
    source: str = ""   # where the face comes from, for errors: "cards.csv:2" (a deck's row)


@record
class Component:
    """One physical component: items of one size, laid out on sheets of one kind."""

    game: str
    id: str
    title: dict
    size_mm: tuple[float, float]
    fronts: list[Face]
    backs: list[Face] | None = None
    layout: str = "grid"                  # "grid" | "page" | "board" | "pack"
    grid: tuple[int, int] | None = None   # force cols x rows; None = as many as fit
    bleed: bool = True
    deck: bool = False
    parts: list[Component] = field(default_factory=list)   # layout "pack": the pieces, one size each
    round: bool = False                   # the pieces are discs (pack: a circle cut line)

    def title_in(self, lang: str, game_name: str = "") -> str:
        """The component's title in ``lang`` (its id when it has none), with the game's name after
        it when given and not the same: "Distritos · Ciudadelas", as the PDF and the TTS deck are
        named."""
        title = in_lang(self.title, lang) or self.id
        return f"{title} · {game_name}" if game_name and game_name != title else title


@record
class Options:
    """What the user chose on the command line."""

    lang: str = "es"
    paper: str = "a4"
    ink_saver: bool = False
    markers: bool = True                  # the scan markers of scoring components (--no-markers)
    bleed_mm: float = 3.0
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    png_dpi: int | None = None
    layout: str = "duplex"                # "duplex" (backs on the next page) | "fold"
    quiet: bool = False                   # -q: no progress bar, no summary line
    shop: str | None = None               # --shop PROFILE: images for a print shop (shops.yaml)
    tts_url: str | None = None            # --tts-url BASE: TTS saved objects link BASE/<file>, not the local file
    extra: dict = field(default_factory=dict)
