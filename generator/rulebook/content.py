"""A game's rulebook as blocks in one language: our prose (texts/<game>.yaml) and the data.

The texts file is a list of blocks, each a mapping with one key:
``h`` / ``h2`` / ``h3`` (headings), ``p`` / ``small`` (paragraphs), ``list`` / ``steps`` (bulleted
or numbered items), ``data`` (a dotted path to an {es, en} text of the card data, printed as is) and
``auto`` (a part generated from the data: tables of cards, the box, the maps, the worked example,
the designer notes).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ludoteca.cards import Game

from .blocks import Block, Heading, Items, Para, Picture, Table, Title, markup
from .notes import notes
from .source import LANGS, RulebookError, check_text, fill, lookup, texts, where

HEADINGS = {"h": 1, "h2": 2, "h3": 3}

Auto = Callable[["Context"], list[Block]]
AUTOS: dict[str, dict[str, Auto]] = {}


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

    def face_where(self, **context: Any) -> tuple[str, int]:
        """(component, index) of the first front of any of the kit's components of this game
        whose context has these values."""
        for comp in self._by_id().values():
            for i, face in enumerate(comp.fronts):
                if all(face.context.get(k) == v for k, v in context.items()):
                    return comp.id, i
        raise KeyError(f"no face of {self.game.id} has {context}")

    def front_where(self, component: str, **context: Any) -> int:
        """The index of the first front of ``component`` whose context has these values."""
        fronts = self.component(component).fronts
        for i, face in enumerate(fronts):
            if all(face.context.get(k) == v for k, v in context.items()):
                return i
        raise KeyError(f"no card of {component} has {context}")

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


def auto(game_id: str, name: str) -> Callable[[Auto], Auto]:
    """Register a generated part of a game's book (``auto: name`` in its texts)."""
    def register(fn: Auto) -> Auto:
        AUTOS.setdefault(game_id, {})[name] = fn
        return fn
    return register


def blocks(game: Game, lang: str, catalog: Any, examples: Path | None = None,
           with_example: bool = True) -> list[Block]:
    """The whole book of ``game`` in ``lang``, cover first, designer notes last."""
    from . import games  # noqa: F401  (registers the autos)
    ctx = Context(game, lang, catalog, examples, with_example)
    source = texts(game.id)
    name = game.id
    players = game.meta.get("players", {})
    cover = [markup(ctx.w("players", min=players.get("min"), max=players.get("max")))]
    if "cover" in source:
        cover.append(markup(fill(check_text(source["cover"], where(name, source, "cover", "cover"))[lang],
                                 game, lang, where(name, source, "cover", "cover"))))
    cover.append(f'<font size="7.5" color="#6b5a4a">{markup(ctx.w("made_by"))}</font>')
    cover_picture = AUTOS.get(game.id, {}).get("cover")
    picture = cover_picture(ctx)[0] if cover_picture else None
    out: list[Block] = [Title(markup(ctx.t(game.meta["name"])), markup(ctx.w("rulebook")), cover,
                              source.get("accent", "#6b2d1f"), picture)]
    items = source.get("blocks")
    if not isinstance(items, list):
        raise RulebookError(f"{name}.yaml:1: blocks: a list of blocks")
    for i, item in enumerate(items):
        at = where(name, items, i, f"blocks[{i}]")
        if not isinstance(item, dict) or len(item) != 1:
            kinds = sorted(HEADINGS) + ["p", "small", "list", "steps", "data", "auto"]
            raise RulebookError(f"{at}: one of {', '.join(kinds)}")
        (kind, value), = item.items()
        at = f"{at}.{kind}"
        if kind in HEADINGS:
            out.append(Heading(HEADINGS[kind], markup(_text(value, game, lang, at))))
        elif kind in ("p", "small"):
            out.append(Para(markup(_text(value, game, lang, at)), "body" if kind == "p" else "small"))
        elif kind in ("list", "steps"):
            if not isinstance(value, list) or not value:
                raise RulebookError(f"{at}: a list of {{es, en}} texts")
            out.append(Items([markup(_text(v, game, lang, f"{at}[{j}]")) for j, v in enumerate(value)],
                             numbered=kind == "steps"))
        elif kind == "data":
            try:
                found = lookup(game, str(value))
            except KeyError:
                raise RulebookError(f"{at}: '{value}' names no text of {game.id}'s data") from None
            out.append(Para(markup(_text(found, game, lang, f"{at} ({value})"))))
        elif kind == "auto":
            make = AUTOS.get(game.id, {}).get(value) or AUTOS.get("*", {}).get(value)
            if make is None:
                known = sorted(AUTOS.get(game.id, {})) + sorted(AUTOS.get("*", {}))
                raise RulebookError(f"{at}: unknown part '{value}' (one of: {', '.join(known)})")
            try:
                out += make(ctx)
            except (KeyError, TypeError, ValueError) as exc:
                if isinstance(exc, RulebookError):
                    raise
                raise RulebookError(f"{at}: the part '{value}' cannot be made from {game.id}'s data "
                                    f"({type(exc).__name__}: {exc})") from None
        else:
            raise RulebookError(f"{at}: unknown block kind '{kind}'")
    return out


def _text(value: Any, game: Game, lang: str, at: str) -> str:
    return fill(check_text(value, at)[lang], game, lang, at)


# ---------------------------------------------------------------- parts every game has

@auto("*", "designer_notes")
def designer_notes(ctx: Context) -> list[Block]:
    """The short appendix of designer notes: the ``designer_notes`` of the game's texts file, each
    our plain-words account of one or more ``note:`` fields of the card data (named in its
    ``about``; the lead is what they are about). The data keeps its notes, written for whoever
    edits it; the book says what matters to a player, without ids, options or file names."""
    source = texts(ctx.game.id)
    items = source.get("designer_notes")
    name = ctx.game.id
    if not isinstance(items, list) or not items:
        raise RulebookError(f"{where(name, source, 'designer_notes', 'designer_notes')}: a list of "
                            "notes, each with about (the data notes it presents), es and en")
    found = {n.path: n for n in notes(ctx.game)}
    out: list[Block] = [Heading(1, markup(ctx.w("designer_notes"))),
                        Para(markup(ctx.w("designer_notes_intro")), "small")]
    for i, item in enumerate(items):
        at = where(name, items, i, f"designer_notes[{i}]")
        about = item.get("about") if isinstance(item, dict) else None
        if not isinstance(about, list) or not about:
            raise RulebookError(f"{at}.about: a list of the data notes it presents (e.g. game.tie_break.note)")
        missing = [path for path in about if path not in found]
        if missing:
            raise RulebookError(f"{at}.about: '{missing[0]}' is no note of {name}'s data")
        text = check_text({lang: item.get(lang) for lang in LANGS}, at)
        if "topic" in item:
            topic = check_text(item["topic"], f"{at}.topic")[ctx.lang]
        else:
            topics = list(dict.fromkeys(found[path].topic[ctx.lang] for path in about))
            topic = ", ".join(topics)
        out.append(Para(f"<b>{markup(topic)}.</b> {markup(fill(text[ctx.lang], ctx.game, ctx.lang, at))}",
                        "small"))
    return out


def scored_example(game_id: str, catalog: Any, examples: Path | None = None) -> tuple[str, Any, Any]:
    """The game's example end-of-game record (examples/<game>.yaml), read and scored as
    ``ludoteca score`` does it: (file name, record, result)."""
    from ludoteca.companion.engine.scoring import RecordError, read_record, score_record
    folder = examples or Path(str(resources.files("ludoteca.examples")))
    path = folder / f"{game_id}.yaml"
    try:
        record = read_record(path)
        return path.name, record, score_record(record, catalog, path.name)
    except RecordError as exc:
        raise RulebookError(f"examples/{path.name}: the worked example does not score with these data: "
                            f"{str(exc).splitlines()[0]}") from None


@auto("*", "example")
def example(ctx: Context) -> list[Block]:
    """The worked example: the example record, then the points as the scoring engine counts them."""
    if not ctx.with_example:
        return []
    _file, record, result = scored_example(ctx.game.id, ctx.catalog, ctx.examples)
    out: list[Block] = [Heading(2, markup(ctx.w("example"))),
                        Para(markup(ctx.w("example_intro")))]
    from .games import describe_player
    out.append(Items([describe_player(ctx, record, p) for p in record["players"]]))
    out.append(Para(markup(ctx.w("example_scores"))))
    keys = list(result.players[0].breakdown) if result.players else []
    header = [""] + [markup(p.name) for p in result.players]
    rows = [[ctx.m(result.labels.get(k, k))] + [str(p.breakdown[k]) for p in result.players] for k in keys]
    rows.append([f"<b>{markup(ctx.w('total'))}</b>"] + [f"<b>{p.total}</b>" for p in result.players])
    out.append(Table(header, rows, widths=[2.6] + [1.0] * len(result.players), bold_last=True))
    for p in result.players:
        for n in p.notes:
            out.append(Para(f"<b>{markup(p.name)}:</b> {ctx.m(n)}.", "small"))
    for n in result.notes:
        out.append(Para(ctx.m(n), "small"))
    best = max(p.total for p in result.players)
    who = ", ".join(result.winners) or ", ".join(p.name for p in result.players if p.total == best)
    key = "example_winner" if len(result.winners) == 1 else "example_tie"
    out.append(Para(f"<b>{markup(ctx.w(key, who=who, total=best))}</b>"))
    return out


def lang_ok(lang: str) -> str:
    if lang not in LANGS:
        raise RulebookError(f"rulebook: language '{lang}' (one of: {', '.join(LANGS)})")
    return lang
