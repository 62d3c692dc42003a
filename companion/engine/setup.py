"""The one setup check every game shares: the player count and the options, read by their declared type.

Each game declares its options in its ``schema.yaml`` under ``setup: options:`` (see
``cards/README.md``): a type (``bool``, ``int``, ``seat`` or ``ids``), a default (or ``default_from``,
a rule number in ``game.yaml``), a range for numbers, and words for the screens.  A value typed at
the command line arrives as text; it is read by the option's type, so ``dark_city=no`` is off and
``dark_city=[1,2]`` is refused:

>>> from ludoteca.cards import load
>>> data = load(games=("ciudadelas",))["ciudadelas"]
>>> setup_options(data, ["Ana", "Luis"], {"dark_city": "no"})["dark_city"]
False
>>> setup_options(data, ["Ana", "Luis"], {"dark_city": [1, 2]})
Traceback (most recent call last):
...
ludoteca.companion.engine.errors.BadArgument: option 'dark_city' is yes or no (true/false), not [1, 2]
"""

from __future__ import annotations

from typing import Any

from ludoteca.cards.names import name_problem

from .common import text
from .errors import BadArgument

YES = {"yes", "y", "true", "on", "1", "si", "sí", "s"}
NO = {"no", "n", "false", "off", "0"}


def declared_options(data: Any) -> dict[str, dict]:
    """The game's options as its schema declares them: ``{name: {type, default, ...}}``."""
    return data.options


def first_player_option(data: Any) -> str | None:
    """The option that names who starts (the crown, the first player), if the game has one."""
    return next((name for name, spec in declared_options(data).items() if spec.get("first_player")), None)


def screen_options(data: Any) -> list[dict[str, Any]]:
    """The options a new-game screen offers, as the schema declares them (the first-player option is
    the screen's starter picker, so it is left out): ``name``, ``type``, ``doc`` ({es, en}), the
    ``default`` value, ``min``/``max`` for numbers and, for ``ids``, the ``choices`` {id: {es, en}}.

    >>> from ludoteca.cards import load
    >>> data = load(games=("gladiadores",))["gladiadores"]
    >>> [(o["name"], o["type"], o["default"]) for o in screen_options(data)]
    [('target', 'int', None), ('quick', 'bool', False), ('expansion', 'bool', False)]
    """
    out = []
    for name, spec in declared_options(data).items():
        if spec.get("first_player"):
            continue
        item: dict[str, Any] = {"name": name, "type": spec["type"], "doc": spec["doc"],
                                "default": _default(data, spec)}
        if spec["type"] == "int":
            item["min"], item["max"] = int_range(spec)
        if spec["type"] == "ids":
            item["choices"] = {e["id"]: e.get("name") or {"es": e["id"], "en": e["id"]}
                               for e in data.entries(spec["of"])}
        out.append(item)
    return out


def int_range(spec: dict) -> tuple[int, int]:
    """The numbers a number option takes: its ``min`` and ``max``, else 0 to 10,000."""
    return spec.get("min", 0), spec.get("max", 10_000)


def player_range(data: Any, options: dict[str, Any]) -> tuple[int, int]:
    """How many players the game takes with these (already read) options."""
    players = data.meta["players"]
    top = players["max"]
    for name, spec in declared_options(data).items():
        if spec.get("players_max") and options.get(name):
            top = players[spec["players_max"]]
    return players["min"], top


def player_names(players: list[Any]) -> list[str]:
    """The players' names, stripped; refused, naming the seat or the name, when one is empty, is no
    name (:func:`~ludoteca.cards.names.name_problem`: too long, control characters) or two are the
    same ignoring case (the Players screen and ``ludoteca play`` both ask this).

    >>> player_names([" Ana", "Luis "])
    ['Ana', 'Luis']
    >>> player_names(["Ana", "ana"])
    Traceback (most recent call last):
    ...
    ludoteca.companion.engine.errors.BadArgument: the name Ana is used twice
    """
    names = [str(p).strip() for p in players]
    for seat, name in enumerate(names, start=1):
        if not name:
            raise BadArgument(text(f"falta el nombre del jugador {seat}", f"player {seat} has no name"))
        problem = name_problem(name)
        if problem is not None:
            raise BadArgument(problem.text(f"el nombre del jugador {seat}", f"player {seat}'s name"))
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            first = seen[name.casefold()]
            raise BadArgument(text(f"el nombre {first} está repetido", f"the name {first} is used twice"))
        seen[name.casefold()] = name
    return names


def setup_options(data: Any, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Every declared option read by its type (defaults filled in), after checking that no option is
    unknown and that the player count fits; else a :class:`BadArgument` naming the option."""
    declared = declared_options(data)
    if not isinstance(options, dict):
        raise BadArgument(text("las opciones son un objeto {nombre: valor}", "options are an object {name: value}"))
    unknown = sorted(set(options) - set(declared))
    if unknown:
        known = ", ".join(declared) or "-"
        raise BadArgument(text(f"opciones desconocidas: {', '.join(map(str, unknown))} (hay: {known})",
                               f"unknown options: {', '.join(map(str, unknown))} (known: {known})"))
    out = {name: read_option(data, name, spec, options.get(name), players) for name, spec in declared.items()}
    lo, hi = player_range(data, out)
    if not lo <= len(players) <= hi:
        game = data.meta["name"]
        raise BadArgument(text(f"{game['es']} se juega con {lo} a {hi} jugadores, no {len(players)}",
                               f"{game['en']} takes {lo} to {hi} players, not {len(players)}"))
    return out


def read_option(data: Any, name: str, spec: dict, value: Any, players: list[str]) -> Any:
    """One option's value by its declared type (its default when not given)."""
    if value is None or value == "":
        return _default(data, spec)
    kind = spec["type"]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, (str, int)) and str(value).strip().casefold() in YES:
            return True
        if isinstance(value, (str, int)) and str(value).strip().casefold() in NO:
            return False
        raise _bad(name, "sí o no (true/false)", "yes or no (true/false)", value)
    if kind == "int":
        digits = value.strip() if isinstance(value, str) else ""
        if digits.lstrip("-").isdigit() and len(digits) < 12:  # longer text is no number of ours
            value = int(digits)
        lo, hi = int_range(spec)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _bad(name, f"un número de {lo} a {hi}", f"a number from {lo} to {hi}", value)
        return value
    if kind == "seat":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
            return players[value]
        if isinstance(value, str):
            for player in players:
                if player.casefold() == value.strip().casefold():
                    return player
        who = ", ".join(players)
        raise _bad(name, f"uno de los jugadores ({who})", f"one of the players ({who})", value)
    if kind == "ids":
        known = [e["id"] for e in data.entries(spec["of"])]
        items = [v.strip() for v in value.split(",") if v.strip()] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(v, str) and v in known for v in items):
            return_words = ", ".join(known)
            raise _bad(name, f"una lista de {return_words}", f"a list of {return_words}", value)
        return sorted(set(items))
    raise ValueError(f"option type {kind!r}")


def _default(data: Any, spec: dict) -> Any:
    if "default_from" in spec:
        value: Any = data.meta
        for key in spec["default_from"].split("."):
            value = value.get(key) if isinstance(value, dict) else None
        return value
    if "default_flag" in spec:
        return sorted(e["id"] for e in data.entries(spec["of"]) if e.get(spec["default_flag"]))
    return spec.get("default")


def _bad(name: str, es: str, en: str, value: Any) -> BadArgument:
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return BadArgument(text(f"la opción '{name}' es {es}, no {shown}", f"option '{name}' is {en}, not {shown}"))
