"""Helpers every game module shares: naming players, reading arguments, logging, ``adjust``.

Game modules are pure: ``apply(state, action, rng, data)`` changes the ``state`` it is given (the
session hands it a private copy) and raises an :class:`~companion.engine.errors.IllegalAction`
before changing anything when the action is not allowed.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import BadArgument, GameOver, NotEnough, NotYourTurn, UnknownAction, UnknownPlayer

#: How many recent lines ``state["log"]`` keeps (the full history is the action log).
LOG_LINES = 40

Text = dict[str, str]


def text(es: str, en: str) -> Text:
    """A displayed text, Spanish first."""
    return {"es": es, "en": en}


def name_of(entry: dict, lang: str = "es") -> str:
    """The display name of a data entry (its ``name: {es, en}``), or its id."""
    name = entry.get("name")
    if isinstance(name, dict):
        return str(name.get(lang) or name.get("es") or entry.get("id"))
    return str(entry.get("id"))


def copy_state(state: dict) -> dict:
    """A deep copy of a JSON-like state (faster than ``copy.deepcopy``)."""
    return json.loads(json.dumps(state))


def log(state: dict, es: str, en: str) -> None:
    """Add one short line to the state's recent log."""
    lines = state.setdefault("log", [])
    lines.append(text(es, en))
    if len(lines) > LOG_LINES:
        del lines[: len(lines) - LOG_LINES]


def find_entry(data: Any, kinds: str | tuple[str, ...], name: Any, not_a_name: Text, unknown: Text) -> dict:
    """The data entry ``name`` names (id, Spanish or English name), else a :class:`BadArgument`:
    ``not_a_name`` when it is not text, ``unknown`` followed by the closest names when none matches."""
    if not isinstance(name, str):
        raise BadArgument(not_a_name)
    try:
        return data.find(kinds, name)
    except LookupError as exc:
        raise BadArgument(text(f"{unknown['es']}: {exc}", f"{unknown['en']}: {exc}")) from None


def player_index(state: dict, who: Any, field: str = "player") -> int:
    """The seat of a player named by name (case-insensitive) or by seat number."""
    players = state["players"]
    if isinstance(who, bool) or who is None:
        raise BadArgument(text(f"falta '{field}': un nombre de jugador",
                               f"missing '{field}': a player name"))
    if isinstance(who, int):
        if 0 <= who < len(players):
            return who
    else:
        wanted = str(who).strip().casefold()
        for i, p in enumerate(players):
            if p["name"].casefold() == wanted:
                return i
    names = ", ".join(p["name"] for p in players)
    raise UnknownPlayer(text(f"'{who}' no juega en esta partida (jugadores: {names})",
                             f"'{who}' is not playing this game (players: {names})"))


def arg(action: dict, key: str, kind: type | tuple = str, default: Any = ...) -> Any:
    """An action argument of the expected type, or a :class:`BadArgument`."""
    if key not in action or action[key] is None:
        if default is not ...:
            return default
        raise BadArgument(text(f"a la acción '{action.get('action')}' le falta '{key}'",
                               f"action '{action.get('action')}' needs '{key}'"))
    value = action[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if int in kinds and isinstance(value, bool):
        raise BadArgument(text(f"'{key}' debe ser un número", f"'{key}' must be a number"))
    if not isinstance(value, kinds):
        wanted = "/".join(k.__name__ for k in kinds)
        raise BadArgument(text(f"'{key}' debe ser {wanted}, no {value!r}",
                               f"'{key}' must be {wanted}, not {value!r}"))
    return value


#: An argument whose description contains this word may be left out (``ACTIONS[name]["args"]``).
OPTIONAL = "optional"


#: The declaration of the ``player`` argument of an action the active player takes: it may be left out,
#: and when given it must name the active player (:func:`require_active`).
ACTIVE_PLAYER = "name (optional: must be the active player)"


def declare_active_player(actions: dict[str, dict], names: tuple[str, ...]) -> None:
    """Declare the optional ``player`` argument of the ``names`` actions (their handlers check it)."""
    for name in names:
        actions[name]["args"].setdefault("player", ACTIVE_PLAYER)


def is_optional(description: str) -> bool:
    """Whether a declared argument may be left out (its description says ``optional``)."""
    return OPTIONAL in description


def check_args(action: dict, declared: dict[str, str]) -> None:
    """Refuse an action with a key its declaration does not list, or without a required argument.

    ``declared`` is ``ACTIONS[name]["args"]``: ``{argument: description}``; an argument is required
    unless its description says ``optional``.  Nothing else is checked here (types and values are the
    handlers' business), so every game and every caller gets the same message for the same mistake.
    """
    name = action.get("action")
    allowed = ", ".join(declared) or "-"
    unknown = [key for key in action if key != "action" and key not in declared]
    if unknown:
        keys = ", ".join(f"'{k}'" for k in unknown)
        raise BadArgument(text(f"la acción '{name}' no admite {keys} (admite: {allowed})",
                               f"action '{name}' does not take {keys} (it takes: {allowed})"))
    missing = [key for key, description in declared.items()
               if not is_optional(description) and action.get(key) is None]
    if missing:
        keys = ", ".join(f"'{k}'" for k in missing)
        needs = ", ".join(f"{k}=<{declared[k]}>" for k in missing)
        raise BadArgument(text(f"a la acción '{name}' le falta {keys} ({needs})",
                               f"action '{name}' needs {keys} ({needs})"))


def count_arg(action: dict, key: str, default: Any = ..., minimum: int = 0) -> int:
    """A whole-number argument of at least ``minimum``."""
    value = arg(action, key, int, default)
    if value < minimum:
        raise BadArgument(text(f"'{key}' debe ser al menos {minimum}",
                               f"'{key}' must be at least {minimum}"))
    return value


def require_active(state: dict, action: dict) -> int:
    """The seat of the active player; if the action names a player, it must be them."""
    if state.get("finished"):
        raise GameOver(text("la partida ha terminado", "the game is over"))
    active = state.get("active")
    if active is None:
        raise NotYourTurn(text("ahora no es el turno de nadie", "it is nobody's turn now"))
    if action.get("player") is not None:
        who = player_index(state, action["player"])
        if who != active:
            name = state["players"][active]["name"]
            raise NotYourTurn(text(f"es el turno de {name}, no de {state['players'][who]['name']}",
                                   f"it is {name}'s turn, not {state['players'][who]['name']}'s"))
    return active


def spend(player: dict, resource: str, amount: int, es_name: str, en_name: str) -> None:
    """Take ``amount`` of a resource from a player, or raise :class:`NotEnough` (nothing spent)."""
    have = player.get(resource, 0)
    if amount > have:
        raise NotEnough(text(f"{player['name']} tiene {have} de {es_name} y necesita {amount}",
                             f"{player['name']} has {have} {en_name} and needs {amount}"))
    player[resource] = have - amount


def adjust(state: dict, action: dict, resources: dict[str, Text]) -> int:
    """Correct a player's resource by hand: the table is the truth. Returns the seat."""
    if state.get("finished"):
        raise GameOver(text("la partida ha terminado", "the game is over"))
    who = player_index(state, action.get("player"))
    resource = arg(action, "resource", str)
    delta = arg(action, "delta", int)
    key = resource_key(resource, resources)
    player = state["players"][who]
    new = player.get(key, 0) + delta
    if new < 0:
        raise NotEnough(text(f"{player['name']} quedaría con {new} de {resources[key]['es']}",
                             f"{player['name']} would be left with {new} {resources[key]['en']}"))
    player[key] = new
    sign = "+" if delta >= 0 else ""
    log(state, f"Ajuste: {player['name']} {sign}{delta} {resources[key]['es']} (= {new})",
        f"Adjusted: {player['name']} {sign}{delta} {resources[key]['en']} (= {new})")
    return who


def resource_key(resource: str, resources: dict[str, Text]) -> str:
    """The resource key named by its key or its Spanish/English name."""
    wanted = resource.strip().casefold()
    for key, names in resources.items():
        if wanted in (key, names["es"].casefold(), names["en"].casefold()):
            return key
    known = ", ".join(resources)
    raise BadArgument(text(f"recurso desconocido '{resource}' (se puede ajustar: {known})",
                           f"unknown resource '{resource}' (adjustable: {known})"))


def next_seat(state: dict, seat: int, step: int = 1) -> int:
    """The seat ``step`` places to the left (clockwise)."""
    return (seat + step) % len(state["players"])


def pass_turn(state: dict, seat: int) -> int:
    """The seat that plays after ``seat``; a new round starts when play comes back to the first player."""
    nxt = next_seat(state, seat)
    if nxt == state["first_player"]:
        state["round"] += 1
    return nxt


Handler = Callable[[dict, dict, Any, Any], None]


def dispatch(state: dict, action: dict, rng: Any, data: Any, handlers: dict[str, Handler],
             resources: dict[str, Text]) -> dict:
    """A game module's ``apply``: ``adjust`` (allowed until the end), else the action's handler."""
    name = action["action"]
    if name == "adjust":
        adjust(state, action, resources)
        return state
    if state.get("finished"):
        raise GameOver(text("la partida ha terminado", "the game is over"))
    handler = handlers.get(name)
    if handler is None:
        raise UnknownAction(text(f"acción desconocida '{name}'", f"unknown action '{name}'"))
    handler(state, action, rng, data)
    return state
