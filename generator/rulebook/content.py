"""A game's rulebook as blocks in one language: our prose (texts/<game>.yaml) and the data.

The texts file is a list of blocks, each a mapping with one key:
``h`` / ``h2`` / ``h3`` (headings), ``p`` / ``small`` (paragraphs), ``list`` / ``steps`` (bulleted
or numbered items), ``data`` (a dotted path to an {es, en} text of the card data, printed as is) and
``auto`` (a part generated from the data: tables of cards, the box, the maps, the worked example,
the designer notes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ludoteca.cards import Game

from .blocks import Block, Heading, Items, Para, Picture, Title, markup
from .context import Context
from .parts import PARTS
from .source import LANGS, RulebookError, check_text, fill, lookup, texts, where

HEADINGS = {"h": 1, "h2": 2, "h3": 3}


def blocks(game: Game, lang: str, catalog: Any, examples: Path | None = None,
           with_example: bool = True, shown: list | None = None) -> list[Block]:
    """The whole book of ``game`` in ``lang``, cover first, designer notes last; the faces of
    the kit its pictures draw are added to ``shown`` (see :class:`Context`)."""
    ctx = Context(game, lang, catalog, examples, with_example)
    if shown is not None:
        ctx.shown = shown
    source = texts(game.id)
    name = game.id
    players = game.meta.get("players", {})
    cover = [markup(ctx.w("players", min=players.get("min"), max=players.get("max")))]
    if "cover" in source:
        cover.append(markup(fill(check_text(source["cover"], where(name, source, "cover", "cover"))[lang],
                                 game, lang, where(name, source, "cover", "cover"))))
    cover.append(f'<font size="7.5" color="#6b5a4a">{markup(ctx.w("made_by"))}</font>')
    cover_picture = PARTS.get(game.id, {}).get("cover")
    made = cover_picture(ctx) if cover_picture else []
    picture = made[0] if made and isinstance(made[0], Picture) else None
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
            make = PARTS.get(game.id, {}).get(value) or PARTS["*"].get(value)
            if make is None:
                known = sorted(PARTS.get(game.id, {})) + sorted(PARTS["*"])
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


def lang_ok(lang: str) -> str:
    if lang not in LANGS:
        raise RulebookError(f"rulebook: language '{lang}' (one of: {', '.join(LANGS)})")
    return lang
