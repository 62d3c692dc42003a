"""What a generated part of a book (``auto: NAME`` in a texts file) is given: the game, the
language, the words of the book (:class:`Context`); and what it gives back (:data:`Auto`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ludoteca.cards import Game

from .blocks import Block, Picture, markup
from .source import check_text, texts, where

Auto = Callable[["Context"], list[Block]]


def kit_components(game: Game, lang: str) -> dict[str, Any]:
    """The kit's components of ``game`` by id, as the print kit makes them; a packed sheet of
    tokens by its parts, each of one size."""
    import importlib

    from ..model import Options
    module = importlib.import_module(f"ludoteca.generator.games.{game.id}")
    return {c.id: c for comp in module.components(game, Options(lang=lang)) for c in (comp.parts or [comp])}


def shown_face(components: dict[str, Any], component: str, back: bool, index: int):
    """The ``index``-th front (or back) of the kit's ``component`` and the component's size."""
    comp = components[component]
    faces = comp.backs if back and comp.backs else comp.fronts
    return faces[index], comp.size_mm


class Context:
    """What an auto part needs: the game, the language, the words, a way to fill texts.

    ``shown`` lists each face of the kit a picture of the book draws, as (component, back,
    index): the only way card art reaches a book (the rulebook cache keys on those faces)."""

    def __init__(self, game: Game, lang: str, catalog: Any, examples: Path | None = None,
                 with_example: bool = True):
        self.shown: list[tuple[str, bool, int]] = []
        self.game = game
        self.with_example = with_example
        self.lang = lang
        self.catalog = catalog
        self.examples = examples
        self._components: dict[str, Any] | None = None
        self.words = {k: check_text(v, where("common", texts("common")["words"], k, f"words.{k}"))
                      for k, v in texts("common")["words"].items()}

    def w(self, key: str, **values: Any) -> str:
        """An interface word in this language, ``{name}`` filled from ``values``."""
        text = self.words[key][self.lang]
        return text.format(**values) if values else text

    def t(self, value: Any) -> str:
        """The text of an {es, en} value in this language (other values as text)."""
        if isinstance(value, dict):
            return str(value.get(self.lang) or value.get("es") or "")
        return str(value)

    def m(self, value: Any) -> str:
        """:meth:`t` as paragraph markup."""
        return markup(self.t(value))

    def picture(self, template: str, context: dict, size_mm: tuple[float, float],
                caption: str = "") -> Picture:
        """A drawing of one of the kit's templates (``<game>/cover.svg.j2``…) in this language."""
        from ..model import Face, Options
        from ..templating import render
        face = Face(template, context, template.rsplit("/", 1)[-1].split(".")[0])
        svg = render(face, size_mm, 0.0, Options(lang=self.lang), where=f"rulebook {self.game.id}")
        return Picture(svg, size_mm[0], size_mm[1], caption)

    def _by_id(self) -> dict[str, Any]:
        """:func:`kit_components` of this game (made once)."""
        if self._components is None:
            self._components = kit_components(self.game, self.lang)
        return self._components

    def component(self, component: str) -> Any:
        """The kit's ``component`` of this game."""
        return self._by_id()[component]

    def face_where(self, component: str | None = None, **context: Any) -> tuple[str, int]:
        """(component, index) of the first front whose context has these values, in ``component``
        or in any of the kit's components of this game."""
        comps = [self.component(component)] if component else list(self._by_id().values())
        for comp in comps:
            for i, face in enumerate(comp.fronts):
                if all(face.context.get(k) == v for k, v in context.items()):
                    return comp.id, i
        raise KeyError(f"no face of {component or self.game.id} has {context}")

    def front_where(self, component: str, **context: Any) -> int:
        """The index of the first front of ``component`` whose context has these values."""
        return self.face_where(component, **context)[1]

    def component_face(self, component: str, back: bool = False, index: int = 0):
        """One printed face of the kit's ``component`` (its ``index``-th front, or back) and the
        component's size: what a setup picture shows, drawn as the real card."""
        found = shown_face(self._by_id(), component, back, index)
        self.shown.append((component, back, index))
        return found

    def scene(self, template: str, context: dict, size_mm: tuple[float, float],
              cards: list[tuple], caption: str = "") -> Picture:
        """A picture of the table: ``template`` draws the table and its words; each of ``cards``
        — (component, back, index, x, y, width, degrees) in mm, the card's top-left corner, turned
        about its centre — is the kit's real face, drawn small without scan markers."""
        from ..compose import nest
        from ..model import Options
        from ..templating import render
        picture = self.picture(template, context, size_mm, caption)
        opts = Options(lang=self.lang, markers=False)
        drawn = []
        faces_placed = []
        faces: dict[tuple, str] = {}           # a card shown several times is rendered once
        for k, (component, back, index, x, y, width, degrees) in enumerate(cards):
            face, (fw, fh) = self.component_face(component, back, index)
            height = width * fh / fw
            if (component, back, index) not in faces:
                faces[component, back, index] = render(face, (fw, fh), 0.0, opts, where=f"rulebook {self.game.id}")
            placed = nest(faces[component, back, index], x, y, width, height, f"c{k}-")
            if degrees:
                placed = (f'<g transform="rotate({degrees:g} {x + width / 2:.3f} {y + height / 2:.3f})">'
                          f"{placed}</g>")
            drawn.append(placed)
            faces_placed.append((faces[component, back, index], x, y, width, height, degrees))
        cut = picture.svg.rfind("</svg>")
        picture.table, picture.faces = picture.svg, tuple(faces_placed)
        picture.svg = picture.svg[:cut] + "".join(drawn) + picture.svg[cut:]
        return picture
