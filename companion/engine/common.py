"""What every game module shares: moves declared once (:class:`Move`, :class:`Arg`), the ``apply``
and ``legal_actions`` derived from them, naming players, logging, and ``adjust``.

Game modules are pure: ``apply(state, action, rng, data)`` changes the ``state`` it is given (the
session hands it a private copy) and raises an :class:`~companion.engine.errors.IllegalAction`
before changing anything when the action is not allowed.  Each move's precondition is the one
place its rule is written: ``apply`` checks it, ``legal_actions`` offers the candidates it lets
through, and a screen asks :func:`refusals` why a button is disabled.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Iterable

from .errors import (BadArgument, GameOver, IllegalAction, NotEnough, NotYourTurn, UnknownAction, UnknownPlayer,
                     WrongPhase)

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


def notices(old: list, new: list) -> list[dict]:
    """The ``notice`` lines one action added to the recent log (``old`` before it, ``new`` after; the
    log drops its oldest lines as it grows).

    >>> a, n = {"es": "a", "en": "a"}, {"es": "¡4 Atalaya!", "en": "4 Watchtower!", "notice": True}
    >>> notices([a], [a, n]), notices([a, n], [a, n, a])
    ([{'es': '¡4 Atalaya!', 'en': '4 Watchtower!', 'notice': True}], [])
    """
    for added in range(min(len(new), 12) + 1):
        kept = len(new) - added
        if (new[:kept] == old[len(old) - kept:]) if kept else not old:
            return [line for line in new[kept:] if isinstance(line, dict) and line.get("notice")]
    return []


def copy_state(state: dict) -> dict:
    """A deep copy of a JSON-like state (faster than ``copy.deepcopy``)."""
    return json.loads(json.dumps(state))


def log(state: dict, es: str, en: str, notice: bool = False) -> None:
    """Add one short line to the state's recent log; a ``notice`` is also said to the table when the
    action is taken (the app shows it as its message)."""
    lines = state.setdefault("log", [])
    lines.append({**text(es, en), "notice": True} if notice else text(es, en))
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


#: An argument whose description contains this word may be left out (``ACTIONS[name]["args"]``).
OPTIONAL = "optional"


def is_optional(description: str) -> bool:
    """Whether a declared argument may be left out (its description says ``optional``)."""
    return OPTIONAL in description


def check_args(action: dict, declared: dict[str, str]) -> None:
    """Refuse an action with a key its declaration does not list, or without a required argument.

    ``declared`` is ``ACTIONS[name]["args"]``: ``{argument: description}``; an argument is required
    unless its description says ``optional``.  Types and ranges are checked by :meth:`Arg.read`.
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


#: Plausible bounds for numbers no rule bounds more tightly (a hand-corrected count, a bid).
PLAUSIBLE = 10_000
#: The largest correction by hand one ``adjust`` may make (a table's whole bank, many times over).
CORRECTION = 1_000_000
#: The longest list an action may carry (gladiators pooled, troops named).
LONGEST_LIST = 50

@dataclass(frozen=True)
class Arg:
    """One declared argument of a move: its type, whether it may be left out, its range.

    ``kind`` is ``player`` (a name or seat), ``name`` (text naming a card or an id), ``int``,
    ``bool``, ``list`` (of names), ``counts`` (``{name: number}``) or ``record`` (an end-of-game
    record as ``ludoteca score`` reads it).  A number's range is
    ``lo..hi``; ``hi`` may be a function of the game's data when the rules fix it (El Mapa's
    treasures: no more than the tiles hold).

    >>> Arg("int", "dice", lo=1, hi=6).read({"action": "x", "n": 7}, "n", None)
    Traceback (most recent call last):
    ...
    ludoteca.companion.engine.errors.BadArgument: 'n' must be between 1 and 6, not 7
    """

    kind: str
    doc: str = ""
    optional: bool = False
    default: Any = None
    lo: int = 0
    hi: Any = PLAUSIBLE

    def describe(self) -> str:
        """The words ``play --actions`` shows for it (``optional`` when it may be left out)."""
        what = self.doc or self.kind
        if self.kind == "int":
            top = self.hi if isinstance(self.hi, int) else "a limit the cards set"
            what = f"{what} {self.lo}..{top}"
        if self.optional and OPTIONAL not in what:
            what += " (optional" + (f": {self.default}" if self.default is not None else "") + ")"
        return what

    def bound(self, data: Any) -> int:
        """The largest plausible value with this game's data."""
        return self.hi(data) if callable(self.hi) else self.hi

    def read(self, action: dict, key: str, data: Any) -> Any:
        """The argument's value (its default when left out), or a :class:`BadArgument`."""
        value = action.get(key)
        if value is None:
            if self.optional:
                return self.default
            raise BadArgument(text(f"a la acción '{action.get('action')}' le falta '{key}'",
                                   f"action '{action.get('action')}' needs '{key}'"))
        if self.kind == "int":
            return self._number(key, value, data)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise BadArgument(text(f"'{key}' es true o false, no {value!r}",
                                       f"'{key}' is true or false, not {value!r}"))
            return value
        if self.kind == "player":
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise BadArgument(text(f"'{key}' es un nombre de jugador, no {value!r}",
                                       f"'{key}' is a player name, not {value!r}"))
            return value
        if self.kind == "name":
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise BadArgument(text(f"'{key}' debe ser un nombre, no {_short(value)}",
                                       f"'{key}' must be a name, not {_short(value)}"))
            return value
        if self.kind == "list":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise BadArgument(text(f"'{key}' es una lista de nombres, no {_short(value)}",
                                       f"'{key}' is a list of names, not {_short(value)}"))
            if len(value) > LONGEST_LIST:
                raise BadArgument(text(f"'{key}' tiene {len(value)} nombres (como mucho {LONGEST_LIST})",
                                       f"'{key}' has {len(value)} names (at most {LONGEST_LIST})"))
            return value
        if self.kind == "record":
            if not isinstance(value, dict):
                raise BadArgument(text(f"'{key}' es un registro del final (un objeto), no {_short(value)}",
                                       f"'{key}' is an end-of-game record (an object), not {_short(value)}"))
            return value
        if self.kind == "counts":
            if not isinstance(value, dict) or len(value) > LONGEST_LIST:
                raise BadArgument(text(f"'{key}' es un objeto {{nombre: número}}",
                                       f"'{key}' is an object {{name: number}}"))
            for name, n in value.items():
                self._number(f"{key}.{name}", n, data)
            return value
        raise ValueError(f"unknown argument kind {self.kind!r}")

    def _number(self, key: str, value: Any, data: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadArgument(text(f"'{key}' debe ser un número entero, no {_short(value)}",
                                   f"'{key}' must be a whole number, not {_short(value)}"))
        hi = self.bound(data)
        if not self.lo <= value <= hi:
            shown = value if abs(value) < 10 ** 12 else f"{str(value)[:6]}... ({len(str(value))} digits)"
            raise BadArgument(text(f"'{key}' debe estar entre {self.lo} y {hi}, no {shown}",
                                   f"'{key}' must be between {self.lo} and {hi}, not {shown}"))
        return value


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


#: The ``player`` argument of a move the active player takes: it may be left out, and when given it
#: must name the active player (:func:`require_active`).
ACTIVE_PLAYER = Arg("player", "name (must be the active player)", optional=True)

Precondition = Callable[[dict, dict, Any], None]
Effect = Callable[[dict, dict, Any, Any], None]
Candidates = Callable[[dict, Any], Iterable[dict]]


@dataclass(frozen=True)
class Move:
    """One move, declared once: its arguments, the phases it belongs to, its one precondition and
    its effect.  ``apply`` and ``legal_actions`` both go through :meth:`refusal`.

    - ``phases``: the values of ``state["phase"]`` it may be taken in (empty: any phase);
    - ``active``: taken by the active player (an optional ``player`` argument must name them);
    - ``precondition(state, values, data)``: raises the :class:`IllegalAction` that says why the
      move is refused now, in Spanish and English; ``values`` are the arguments read by type;
    - ``effect(state, values, rng, data)``: changes the state; it refuses nothing;
    - ``candidates(state, data)``: the argument sets ``legal_actions`` tries (every district, every
      character...); each is offered only when :meth:`refusal` finds nothing against it.
    """

    name: str
    help: Text
    args: dict[str, Arg]
    precondition: Precondition
    effect: Effect
    phases: tuple[str, ...] = ()
    active: bool = True
    candidates: Candidates | None = None
    wrong_phase: Text | None = None
    after_end: bool = False  # taken only once the game is over (the final score, reviewed)

    @functools.cached_property
    def declared(self) -> dict[str, Arg]:
        """Every argument, with the active player's optional ``player`` when the move is theirs."""
        return {"player": ACTIVE_PLAYER, **self.args} if self.active and "player" not in self.args else self.args

    @functools.cached_property
    def described(self) -> dict[str, str]:
        """``{argument: the words play --actions shows}``: what :func:`check_args` checks keys against."""
        return {k: a.describe() for k, a in self.declared.items()}

    def read(self, action: dict, data: Any) -> dict:
        """The action's arguments read by type and range (defaults filled in), or a BadArgument."""
        declared = self.declared
        check_args(action, self.described)
        values = {"action": self.name}
        for key, spec in declared.items():
            values[key] = spec.read(action, key, data)
        return values

    def check_open(self, state: dict) -> None:
        """Raise why no form of the move can be taken now whatever its arguments: the game is over
        (:class:`GameOver`) or this is not one of its phases (:class:`WrongPhase`); a move taken
        after the end is closed until then."""
        if self.after_end:
            if not is_over(state):
                raise WrongPhase(text("solo cuando la partida ha terminado", "only once the game is over"))
            return
        check_not_over(state)
        if self.phases and state.get("phase") not in self.phases:
            raise WrongPhase(self.wrong_phase or text(
                f"'{self.name}' no se hace ahora (fase: {state.get('phase')})",
                f"'{self.name}' does not belong to this phase ({state.get('phase')})"))

    def closed(self, state: dict) -> IllegalAction | None:
        """What :meth:`check_open` would raise, or None when the move is open."""
        try:
            self.check_open(state)
        except IllegalAction as exc:
            return exc
        return None

    def check(self, state: dict, action: dict, data: Any) -> dict:
        """Raise why the move is refused now; return its arguments read by type when it is not."""
        self.check_open(state)
        values = self.read(action, data)
        if self.active:
            require_active(state, values)
        self.precondition(state, values, data)
        return values

    def refusal(self, state: dict, action: dict, data: Any) -> IllegalAction | None:
        """Why the move is refused now (its ``text`` says it in Spanish and English), or None."""
        try:
            self.check(state, action, data)
        except IllegalAction as exc:
            return exc
        return None


def declare(*moves: Move) -> dict[str, Move]:
    """A game's moves by name."""
    return {m.name: m for m in moves}


def adjust_move(resources: Any, describe: str) -> Move:
    """The ``adjust`` move every game has (the table is the truth): allowed in every phase until the
    end, by anyone.  ``resources(data)`` gives what may be corrected."""
    return Move("adjust", text("Corrige a mano un recurso de un jugador.", "Correct a player's resource by hand."),
                {"player": Arg("player", "name"), "resource": Arg("name", describe),
                 "delta": Arg("int", "int", lo=-CORRECTION, hi=CORRECTION)},
                precondition=lambda state, a, data: _adjust_check(state, a, resources(data)),
                effect=lambda state, a, rng, data: _adjust_effect(state, a, resources(data)),
                active=False)


def final_record_move() -> Move:
    """The ``final_record`` move every game has: once the game is over, the table's reviewed record
    of the end (the scan screen's photos, corrected by hand) becomes the final score.  The record
    names the game's players in seat order; it is scored as the engine scores its own end
    (leniently: an end the box would not allow gets a note)."""
    return Move("final_record",
                text("Puntúa el final con el registro revisado en la mesa (las fotos).",
                     "Score the end with the record the table reviewed (the photos)."),
                {"record": Arg("record", "an end-of-game record, as `ludoteca score` reads it")},
                precondition=_final_record_check, effect=_final_record_effect, active=False, after_end=True)


def _final_record_check(state: dict, a: dict, data: Any) -> None:
    from .scoring import RecordError, score_record

    record = a["record"]
    if record.get("game") != state.get("game"):
        raise BadArgument(text(f"el registro es de otro juego ({_short(record.get('game'))})",
                               f"the record is of another game ({_short(record.get('game'))})"))
    players = record.get("players")
    names = [p.get("name") if isinstance(p, dict) else None for p in players] if isinstance(players, list) else None
    if names != [p["name"] for p in state.get("players", [])]:
        raise BadArgument(text("el registro no nombra a los jugadores de esta partida en su orden",
                               "the record does not name this game's players in their seat order"))
    try:
        score_record(record, {state["game"]: data}, lenient=True)
    except RecordError as exc:
        problems = "; ".join(str(p.message) for p in exc.problems[:3])
        raise BadArgument(text(f"el registro no se puede puntuar: {problems}",
                               f"the record cannot be scored: {problems}")) from None


def _final_record_effect(state: dict, a: dict, rng: Any, data: Any) -> None:
    from .final import final_scores

    state["final"] = final_scores(a["record"], data)
    state["final"]["reviewed"] = True


def actions_table(moves: dict[str, Move]) -> dict[str, dict[str, Any]]:
    """``ACTIONS``: what ``play --actions`` lists and the session checks keys against:
    ``{name: {"args": {arg: description}, "help": {es, en}}}``, with ``undo`` and ``redo``."""
    table = {name: {"args": dict(m.described), "help": m.help}
             for name, m in moves.items()}
    table["undo"] = {"args": {}, "help": text("Deshace la última acción.", "Undo the last action.")}
    table["redo"] = {"args": {}, "help": text("Rehace la acción deshecha.", "Redo the undone action.")}
    return table


def apply_move(moves: dict[str, Move], state: dict, action: dict, rng: Any, data: Any,
               before: Callable[[dict, Move], None] | None = None) -> dict:
    """A game module's ``apply``: the move's precondition, then (``before`` it, for a rule that
    comes with every move) its effect."""
    move = moves.get(str(action.get("action")))
    if move is None:
        raise UnknownAction(text(f"acción desconocida '{action.get('action')}'",
                                 f"unknown action '{action.get('action')}'"))
    values = move.check(state, action, data)
    if before is not None:
        before(state, move)
    move.effect(state, values, rng, data)
    return state


def legal_moves(moves: dict[str, Move], state: dict, data: Any) -> list[dict]:
    """A game module's ``legal_actions``: every candidate of every move that :meth:`Move.refusal`
    lets through (no rule of its own)."""
    out: list[dict] = []
    for move in moves.values():
        if move.candidates is None or move.closed(state) is not None:
            continue
        for args in move.candidates(state, data):
            action = {"action": move.name, **args}
            if move.refusal(state, action, data) is None:
                out.append(action)
    return out


def move_refusal(moves: dict[str, Move], state: dict, data: Any, name: str) -> Text | None:
    """Why no form of move ``name`` is open now (``{es, en}``), or None when one is: the reason most of
    its candidates are refused for (a screen's disabled Build button says "take gold or cards first")."""
    move = moves[name]
    if move.candidates is None:
        reason = move.refusal(state, {"action": name}, data)
        return None if reason is None or isinstance(reason, BadArgument) else reason.text
    closed = move.closed(state)
    if closed is not None:
        return closed.text
    return refusal_of_all(moves, state, data, ({"action": name, **args} for args in move.candidates(state, data)))


def refusal_of_all(moves: dict[str, Move], state: dict, data: Any, actions: Iterable[dict]) -> Text | None:
    """None when one of ``actions`` is allowed now, else the reason most of them are refused for
    (a screen's button for a choice among them: build with these gladiators)."""
    reasons: dict[str, Text] = {}
    refused: list[str] = []
    for action in actions:
        reason = moves[action["action"]].refusal(state, action, data)
        if reason is None:
            return None
        reasons[reason.text["en"]] = reason.text
        refused.append(reason.text["en"])
    if not refused:
        return text("no hay ninguna opción ahora", "there is nothing to choose from now")
    return reasons[max(reasons, key=refused.count)]


def refusals(moves: dict[str, Move], state: dict, data: Any, actions: Iterable[dict]) -> list[Text | None]:
    """For each action, why it is refused now (``{es, en}``) or None: what a screen shows on a
    disabled button."""
    out: list[Text | None] = []
    for action in actions:
        move = moves.get(str(action.get("action")))
        if move is None:
            out.append(text(f"acción desconocida '{action.get('action')}'", f"unknown action '{action.get('action')}'"))
            continue
        reason = move.refusal(state, action, data)
        out.append(reason.text if reason is not None else None)
    return out


def is_over(state: dict) -> bool:
    """Whether the game has ended: the one reading of ``state["finished"]`` the rules go by."""
    return bool(state.get("finished"))


def check_not_over(state: dict) -> None:
    """Raise :class:`GameOver` when the game has ended: no move is taken after the end."""
    if is_over(state):
        raise GameOver(text("la partida ha terminado", "the game is over"))


def require_active(state: dict, action: dict) -> int:
    """The seat of the active player; if the action names a player, it must be them."""
    check_not_over(state)
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


def need(player: dict, resource: str, amount: int, es_name: str, en_name: str) -> None:
    """Raise :class:`NotEnough` when a player has less than ``amount`` of a resource."""
    have = player.get(resource, 0)
    if amount > have:
        raise NotEnough(text(f"{player['name']} tiene {have} de {es_name} y necesita {amount}",
                             f"{player['name']} has {have} {en_name} and needs {amount}"))


def _adjust_check(state: dict, action: dict, resources: dict[str, Text]) -> None:
    """``adjust`` is refused for a player not at the table, an unknown resource or a count below 0."""
    who = player_index(state, action.get("player"))
    key = resource_key(action["resource"], resources)
    player = state["players"][who]
    new = player.get(key, 0) + action["delta"]
    if new < 0:
        raise NotEnough(text(f"{player['name']} quedaría con {new} de {resources[key]['es']}",
                             f"{player['name']} would be left with {new} {resources[key]['en']}"))


def _adjust_effect(state: dict, action: dict, resources: dict[str, Text]) -> None:
    """Correct a player's resource by hand: the table is the truth."""
    who = player_index(state, action.get("player"))
    key = resource_key(action["resource"], resources)
    player = state["players"][who]
    delta = action["delta"]
    new = player.get(key, 0) + delta
    player[key] = new
    sign = "+" if delta >= 0 else ""
    log(state, f"Ajuste: {player['name']} {sign}{delta} {resources[key]['es']} (= {new})",
        f"Adjusted: {player['name']} {sign}{delta} {resources[key]['en']} (= {new})")


def resource_key(resource: str | int, resources: dict[str, Text]) -> str:
    """The resource key named by its key or its Spanish/English name (a number names none)."""
    wanted = str(resource).strip().casefold()
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
