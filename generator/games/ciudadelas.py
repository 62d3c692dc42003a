"""Ciudadelas (classic Citadels): every printable component, drawn from cards/ciudadelas/.

The data says what each card is (names, costs, copies, effects, colours and their symbols); this
module only decides which template draws which face, and passes each face the few values it needs
(so that editing one card re-renders that card only). The printed labels that are not game data
("Coste", "Puntos", the score pad's row titles) are in generator/words.yaml, once.
"""

from __future__ import annotations

import difflib
import re

from ludoteca.cards import DataError
from ludoteca.cards.problems import Problem
from ludoteca.cards.yamlread import line_of
from ludoteca.companion.engine.scoring.ciudadelas import LABELS as SCORE_LINES
from ludoteca.generator.games import card_size, plain
from ludoteca.generator.model import Component, Face, Options
from ludoteca.generator.words import words

GAME = "ciudadelas"

#: Words printed on the kit that are not rules data. Each is {es, en}.
LABELS: dict[str, dict[str, str]] = words(GAME, "labels")

TITLES = words(GAME, "titles")
#: The score pad's icon for each scoring line (the lines and their words are scoring's).
SCORE_ICONS = {"districts": "coin", "all_colours": "colours", "first_complete": "crown", "complete": "city"}


def _mix(hex_colour: str, other: str, amount: float) -> str:
    """``hex_colour`` moved ``amount`` (0..1) of the way towards ``other``."""
    a = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colour_style(colour: dict) -> dict:
    """A district colour as the templates draw it: its hex, tints, the ink readable on it."""
    base = colour["hex"]
    return {"id": colour["id"], "name": plain(colour["name"]), "category": plain(colour["category"]),
            "symbol": colour["symbol"], "fill": base, "dark": _mix(base, "#3a1c0c", 0.5),
            "light": _mix(base, "#ffffff", 0.78), "pale": _mix(base, "#ffffff", 0.9),
            "ink": "#2b2118" if _luminance(base) > 0.5 else "#ffffff"}


#: the drawn elements a district's ``art:`` names: the public macros of this template
ART_TEMPLATE = "ciudadelas/_art.svg.j2"


def art_elements() -> list[str]:
    """The names of the drawn elements a district's ``art:`` may use, sorted."""
    from ludoteca.generator.templating import module as template_module
    module = template_module(ART_TEMPLATE)
    return sorted(name for name, value in vars(module).items()
                  if not name.startswith("_") and callable(value))


def _check_art(game, kind: str, d: dict, elements: list[str]) -> None:
    """A DataError on its own line when a district's ``art:`` names an element that is not drawn."""
    for i, part in enumerate(d["art"]):
        if part["el"] not in elements:
            path, _line = game.location(kind, d["id"])
            near = difflib.get_close_matches(part["el"], elements, 3, 0.5)
            hint = f" (closest: {', '.join(near)})" if near else ""
            raise DataError([Problem(str(path), d["art"].line_of(i), kind, d["id"], f"art[{i}].el",
                                     f"a drawn element of templates/{ART_TEMPLATE}{hint}",
                                     part["el"])])


def _district_face(d: dict, colours: dict[str, dict], dark_city: bool = False) -> Face:
    points = d.get("points")
    ctx = {"id": d["id"], "name": plain(d["name"]), "cost": d["cost"], "art": plain(d["art"]),
           "points": points if points is not None and points != d["cost"] else None,
           "effect": plain(d.get("effect")), "colour": colours[d["colour"]],
           "dark_city": dark_city, "labels": {k: LABELS[k] for k in ("points", "optional")},
           "marker": d.get("marker")}
    return Face("ciudadelas/district.svg.j2", ctx, d["id"])


def _district_back() -> Face:
    return Face("ciudadelas/district_back.svg.j2", {"label": LABELS["district"]}, "back")


def _deck(game, kind: str, comp_id: str, colours: dict, dark_city: bool) -> Component:
    fronts: list[Face] = []
    elements = art_elements()
    for d in game.entries(kind):
        _check_art(game, kind, d, elements)
        fronts += [_district_face(d, colours, dark_city)] * int(d["copies"])
    back = _district_back()
    return Component(GAME, comp_id, TITLES[comp_id], card_size(game), fronts,
                     [back] * len(fronts), deck=True)


def _characters(game, colours: dict) -> Component:
    fronts = []
    for c in sorted(game.entries("character"), key=lambda c: c["number"]):
        income = c.get("income_colour")
        ctx = {"id": c["id"], "number": c["number"], "name": plain(c["name"]),
               "ability": plain(c["ability"]),
               "income": colours[income] if income else None,
               "labels": {"income": LABELS["income"]}}
        fronts.append(Face("ciudadelas/character.svg.j2", ctx, c["id"]))
    back = Face("ciudadelas/character_back.svg.j2",
                {"label": LABELS["character"], "count": len(fronts)}, "back")
    return Component(GAME, "characters", TITLES["characters"], card_size(game), fronts,
                     [back] * len(fronts), deck=True)


def _component(game, comp_id: str) -> dict:
    return game.get("component", comp_id)


def _crown(game) -> Component:
    crown = _component(game, "crown")
    front = Face("ciudadelas/crown.svg.j2", {"name": plain(crown["name"]),
                                             "description": plain(crown["description"])}, "crown")
    back = Face("ciudadelas/crown.svg.j2", {"name": plain(crown["name"]), "description": None},
                "crown_back")
    n = int(crown["copies"])
    return Component(GAME, "crown", TITLES["crown"], card_size(game), [front] * n, [back] * n)


PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)\}")


def rule_values(game) -> dict[str, int]:
    """The rule numbers a printed text may name as ``{name}``, so that none is written twice.

    game.yaml's top-level numbers by their key (``starting_gold``, ``complete_city``...), its
    ``bonuses`` as ``bonus_<key>`` (``bonus_first_complete``), and each character's numbers as
    ``<id>_<field>`` (``architect_max_builds``).
    """
    values: dict[str, int] = {}

    def numbers(prefix: str, record: dict) -> None:
        for key, value in record.items():
            if isinstance(value, int) and not isinstance(value, bool):
                values[prefix + str(key)] = value

    numbers("", game.meta)
    numbers("bonus_", game.meta.get("bonuses") or {})
    for c in game.entries("character"):
        numbers(f"{c['id']}_", c)
    return values


def fill_rules(text: str, values: dict[str, int]) -> str:
    """``text`` with every ``{name}`` replaced by its rule number; KeyError names an unknown one."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)


def _filled_steps(game, ref: dict) -> list[dict]:
    """The reference card's turn steps ({es, en}) with their rule numbers filled in.

    An unknown ``{name}`` is a DataError on the step's own line (exit 2, one line).
    """
    values = rule_values(game)
    steps = ref.get("turn_summary") or []
    path, _line = game.location("component", ref["id"])
    out = []
    for i, step in enumerate(steps):
        filled = {}
        for lang, text in plain(step).items():
            try:
                filled[lang] = fill_rules(text, values)
            except KeyError as exc:
                near = difflib.get_close_matches(exc.args[0], values, 3, 0.5)
                hint = f" (closest: {', '.join(near)})" if near else ""
                raise DataError([Problem(str(path), line_of(steps, i), "component", ref["id"],
                                         f"turn_summary[{i}].{lang}",
                                         f"a rule number named in braces{hint}",
                                         "{" + exc.args[0] + "}")]) from None
        out.append(filled)
    return out


def turn_steps(game) -> list[dict]:
    """The turn in a few lines ({es, en}), as the reference card and the rulebook's summary say it."""
    return _filled_steps(game, _component(game, "reference_card"))


def _reference(game, colours: dict) -> Component:
    ref = _component(game, "reference_card")
    front = Face("ciudadelas/reference_front.svg.j2",
                 {"title": LABELS["your_turn"], "game_name": plain(game.meta["name"]),
                  "steps": turn_steps(game)}, "reference")
    rows = []
    for cid in ref.get("characters") or []:
        c = game.get("character", cid)
        income = c.get("income_colour")
        rows.append({"id": c["id"], "number": c["number"], "name": plain(c["name"]),
                     "summary": plain(c["summary"]),
                     "income": colours[income] if income else None})
    back = Face("ciudadelas/reference_back.svg.j2",
                {"title": LABELS["characters"], "subtitle": LABELS["called_in_order"],
                 "rows": rows}, "reference_back")
    n = int(ref["copies"])
    return Component(GAME, "reference", TITLES["reference"], card_size(game), [front] * n, [back] * n)


def _score_pad(game, colours: dict) -> Component:
    meta = game.meta
    bonuses = meta["bonuses"]
    rows = [{"key": key, "label": label, "bonus": bonuses.get(key), "icon": SCORE_ICONS[key]}
            for key, label in SCORE_LINES.items()]
    if meta["dark_city"]["enabled"]:
        rows.append({"key": "dark_city", "label": LABELS["dark_city"], "bonus": None,
                     "icon": "star"})
    tie = LABELS["tie_" + meta["tie_break"]["rule"]]
    ctx = {"title": LABELS["score_pad"], "game_name": plain(meta["name"]),
           "players": meta["players"]["max"], "rows": rows, "tie": tie,
           "complete_city": meta["complete_city"],
           "labels": {k: LABELS[k] for k in ("game_no", "date", "player", "total", "districts_rule")},
           "colours": list(colours.values())}
    return Component(GAME, "score_pad", TITLES["score_pad"], (0.0, 0.0),
                     [Face("ciudadelas/score_pad.svg.j2", ctx, "score_pad")], None, layout="page")


def components(game, opts: Options) -> list[Component]:
    """Every printable Ciudadelas component, in the order a player would print them.

    The Dark City districts are built (as their own file, same back as the districts) only when
    the data enables them: game.yaml ``dark_city.enabled``.
    """
    colours = {c["id"]: colour_style(c) for c in game.entries("colour")}
    comps = [_characters(game, colours), _deck(game, "district", "districts", colours, False)]
    if game.meta["dark_city"]["enabled"]:
        comps.append(_deck(game, "dark_district", "dark_city", colours, True))
    comps += [_crown(game), _reference(game, colours), _score_pad(game, colours)]
    return comps
