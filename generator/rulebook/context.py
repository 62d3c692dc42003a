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


class Context:
    """What an auto part needs: the game, the language, the words, a way to fill texts."""

    def __init__(self, game: Game, lang: str, catalog: Any, examples: Path | None = None,
                 with_example: bool = True):
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
        """The kit's components of this game by id, as the print kit makes them (made once); a
        packed sheet of tokens by its parts, each of one size."""
        import importlib

        from ..model import Options
        if self._components is None:
            module = importlib.import_module(f"ludoteca.generator.games.{self.game.id}")
            made = module.components(self.game, Options(lang=self.lang))
            self._components = {c.id: c for comp in made for c in (comp.parts or [comp])}
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
        comp = self.component(component)
        faces = comp.backs if back and comp.backs else comp.fronts
        return faces[index], comp.size_mm

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
        for k, (component, back, index, x, y, width, degrees) in enumerate(cards):
            face, (fw, fh) = self.component_face(component, back, index)
            height = width * fh / fw
            svg = render(face, (fw, fh), 0.0, opts, where=f"rulebook {self.game.id}")
            placed = nest(svg, x, y, width, height, f"c{k}-")
            if degrees:
                placed = (f'<g transform="rotate({degrees:g} {x + width / 2:.3f} {y + height / 2:.3f})">'
                          f"{placed}</g>")
            drawn.append(placed)
        cut = picture.svg.rfind("</svg>")
        picture.svg = picture.svg[:cut] + "".join(drawn) + picture.svg[cut:]
        return picture
