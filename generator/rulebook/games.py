"""The parts of each book generated from the card data: the box, card tables, maps, records.

Every number printed by these parts is read from the data when the book is built.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .blocks import Block, Heading, Items, MapGrid, Para, Table, icon, markup
from .content import Context, auto
from .source import RulebookError, texts, where


def _labels(ctx: Context) -> dict:
    return texts(ctx.game.id).get("labels", {})


def label(ctx: Context, key: str, **values: Any) -> str:
    """A word of the game's texts file (``labels:``), filled with ``values``."""
    table = _labels(ctx)
    if key not in table:
        raise RulebookError(f"{ctx.game.id}.yaml: labels.{key}: missing (an {{es, en}} text)")
    text = ctx.t(table[key])
    return text.format(**values) if values else text


def _name(ctx: Context, value: Any) -> str:
    """A card named in a record (id or either language), shown in the book's language."""
    for kind in ctx.game.kinds:
        try:
            entry = ctx.game.find(kind, str(value))
        except (LookupError, KeyError):
            continue
        if isinstance(entry.get("name"), dict):
            return ctx.t(entry["name"])
    return str(value)


def describe_player(ctx: Context, record: dict, player: dict) -> str:
    """One line of the worked example: a player's end state, every field of the record in words."""
    parts = []
    for key, value in player.items():
        if key == "name":
            continue
        if isinstance(value, list):
            shown = ", ".join(_name(ctx, v) for v in value) or "—"
        elif isinstance(value, dict):
            shown = ", ".join(f"{n} {_name(ctx, k)}" for k, n in value.items()) or "—"
        else:
            shown = str(value)
        parts.append(label(ctx, f"record_{key}", value=shown))
    for key, value in record.items():
        if key not in ("game", "players") and value == player.get("name"):
            parts.append(label(ctx, f"record_{key}"))
    return f"<b>{markup(player['name'])}</b>: " + markup("; ".join(parts)) + "."


# ---------------------------------------------------------------- Ciudadelas

def _colours(ctx: Context) -> dict[str, dict]:
    return {c["id"]: c for c in ctx.game.entries("colour")}


def _dot(ctx: Context, colour_id: str) -> str:
    return icon("dot", _colours(ctx)[colour_id]["hex"])


@auto("ciudadelas", "box")
def ciudadelas_box(ctx: Context) -> list[Block]:
    g = ctx.game
    counts = g.counts()
    by_colour = counts["districts_by_colour"]
    colours = ", ".join(f"{by_colour.get(c['id'], 0)} {ctx.t(c['name'])}" for c in g.entries("colour"))
    items = [label(ctx, "box_districts", n=counts["districts"], kinds=counts["districts_kinds"],
                   colours=colours),
             label(ctx, "box_characters", n=counts["characters"])]
    items += [f"{c['copies']} × {ctx.t(c['name'])}: {ctx.t(c['description'])}" for c in g.entries("component")]
    items.append(label(ctx, "box_gold"))
    return [Heading(1, markup(ctx.w("box"))), Para(markup(ctx.w("box_intro")), "small"),
            Items([markup(i) for i in items])]


@auto("ciudadelas", "colours")
def ciudadelas_colours(ctx: Context) -> list[Block]:
    by_colour = ctx.game.counts()["districts_by_colour"]
    rows = [[_dot(ctx, c["id"]) + markup(ctx.t(c["name"])), ctx.m(c["category"]),
             str(by_colour.get(c["id"], 0))] for c in ctx.game.entries("colour")]
    return [Table([markup(ctx.w("colour")), markup(label(ctx, "category")), markup(ctx.w("count"))],
                  rows, widths=[1.4, 1.6, 0.8])]


@auto("ciudadelas", "characters")
def ciudadelas_characters(ctx: Context) -> list[Block]:
    out: list[Block] = []
    for c in sorted(ctx.game.entries("character"), key=lambda e: e["number"]):
        lead = f"{c['number']}. {ctx.t(c['name'])}"
        dot = _dot(ctx, c["income_colour"]) if c.get("income_colour") else ""
        out.append(Para(f"<b>{markup(lead)}</b> {dot}{ctx.m(c['ability'])}"))
    return out


@auto("ciudadelas", "draft_table")
def ciudadelas_draft(ctx: Context) -> list[Block]:
    draft = ctx.game.meta["character_draft"]["by_players"]
    rows = []
    for n in sorted(draft, key=int):
        row = draft[n]
        rows.append([str(n), str(row["face_up"]), str(row["face_down_before"]), str(row["characters_each"]),
                     str(row.get("face_down_after", 0))])
    head = [label(ctx, "draft_players"), label(ctx, "draft_up"), label(ctx, "draft_down_before"),
            label(ctx, "draft_each"), label(ctx, "draft_down_after")]
    return [Table([markup(h) for h in head], rows, widths=[1, 1.3, 1.5, 1.3, 1.5])]


@auto("ciudadelas", "districts")
def ciudadelas_districts(ctx: Context) -> list[Block]:
    rows = [[_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), str(d["copies"])]
            for d in ctx.game.entries("district") if not d.get("effect")]
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("copies"))], rows,
                  widths=[2.6, 1, 1])]


@auto("ciudadelas", "wonders")
def ciudadelas_wonders(ctx: Context) -> list[Block]:
    rows = []
    for d in ctx.game.entries("district"):
        if not d.get("effect"):
            continue
        text = ctx.m(d["effect"])
        rows.append([_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), str(d["copies"]), text])
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("copies")),
                   markup(ctx.w("effect"))], rows, widths=[2.4, 1.1, 1.3, 5.0])]


@auto("ciudadelas", "tie")
def ciudadelas_tie(ctx: Context) -> list[Block]:
    rule = ctx.game.meta["tie_break"]["rule"]
    return [Para(markup(label(ctx, f"tie_{rule}")))]


@auto("ciudadelas", "dark_city")
def ciudadelas_dark_city(ctx: Context) -> list[Block]:
    rows = [[_dot(ctx, d["colour"]) + markup(ctx.t(d["name"])), str(d["cost"]), ctx.m(d.get("effect", ""))]
            for d in ctx.game.entries("dark_district")]
    return [Table([markup(ctx.w("name")), markup(ctx.w("cost")), markup(ctx.w("effect"))], rows,
                  widths=[2.4, 1.1, 5.6])]
