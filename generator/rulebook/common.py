"""The parts every game's book has: the worked example (scored by the scoring engine) and the
designer notes."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from .blocks import Block, Heading, Items, Para, Table, markup
from .context import Context
from .games import describe_player
from .notes import notes
from .source import LANGS, RulebookError, check_text, fill, texts, where


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


def example(ctx: Context) -> list[Block]:
    """The worked example: the example record, then the points as the scoring engine counts them."""
    if not ctx.with_example:
        return []
    _file, record, result = scored_example(ctx.game.id, ctx.catalog, ctx.examples)
    out: list[Block] = [Heading(2, markup(ctx.w("example"))),
                        Para(markup(ctx.w("example_intro")))]
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
