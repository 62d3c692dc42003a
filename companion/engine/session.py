"""A game session: an append-only action log whose fold is the game state.

>>> from ludoteca.companion.engine import Store
>>> store = Store(":memory:")
>>> s = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=7)
>>> s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1})["players"][0]["gold"]
3
>>> s.apply({"action": "undo"})["players"][0]["gold"]
2

Undo and redo are themselves rows of the log, so nothing is ever lost: the *effective* list of
actions is what remains after walking the log (an undo takes the last effective action off, a redo
puts the last undone one back, any other action clears what could be redone).  Every action gets its
own random generator, ``random.Random(f"{seed}:{index}")`` where ``index`` is its place in the
effective list, so replaying a log always gives the same game.
"""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

from .common import check_args, copy_state, is_over, text
from .errors import BadArgument, NothingToUndo, UnknownAction


class Keeper(Protocol):
    """What a session needs of the place it is saved in (:class:`~ludoteca.companion.engine.store.Store`
    is one): the game's card data, the seq of an action id already saved, and the saving itself."""

    def data(self, game: str) -> Any:
        """The card data of ``game``."""

    def seq_of(self, game_id: str, client_id: str) -> int | None:
        """The seq of the action a client sent with ``client_id``, if it was saved."""

    def append(self, session: Session, action: dict, state: dict, client_id: str | None = None) -> None:
        """Save ``action`` and the ``state`` it led to as the session's next seq; raise if it is not saved."""


#: The longest client-chosen action ``id``.
MAX_CLIENT_ID = 100


def walk(applied: list[dict], undone: list[dict], action: dict) -> dict | None:
    """One step of the undo/redo walk, in place: ``undo`` moves the last effective action onto the
    undone ones, ``redo`` moves the last undone one back, any other action is appended and forgets
    the undone ones. Returns the action that now has to be folded (the new or the redone one), or
    None for an undo and for an undo/redo with nothing to walk."""
    name = action.get("action")
    if name == "undo":
        if applied:
            undone.append(applied.pop())
        return None
    if name == "redo":
        if not undone:
            return None
        applied.append(undone.pop())
        return applied[-1]
    applied.append(action)
    undone.clear()
    return action


def fold_log(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """Walk a raw log: the effective actions and the undone ones (most recent last)."""
    applied: list[dict] = []
    undone: list[dict] = []
    for row in rows:
        walk(applied, undone, row)
    return applied, undone


class Session:
    """One game being played: its id, its log, its current state (see ``API.md`` beside this module)."""

    def __init__(self, store: Keeper, game_id: str, game: str, players: list[str], seed: int,
                 options: dict, rows: list[dict], seq: int):
        from .games import DEFINITIONS, GAME_MODULES

        self.store = store
        self.id = game_id
        self.game = game
        self.players = list(players)
        self.seed = seed
        self.options = dict(options)
        self.module = GAME_MODULES[game]  # the game's own helpers (what screens ask: MOVES, names)
        self.definition = DEFINITIONS[game]
        self.data = store.data(game)
        self.seq = seq
        self.repeated = False  # whether the last apply() was a resent id, acknowledged again
        self.acknowledged = seq  # the seq the last apply() acknowledged
        self._applied, self._undone = fold_log(rows)
        self.state = self._replay(self._applied)

    # -- folding --------------------------------------------------------------------------------
    def _rng(self, index: int | str) -> random.Random:
        return random.Random(f"{self.seed}:{index}")

    def initial_state(self) -> dict:
        """The state before any action: the game's setup."""
        state = self.definition.setup(self.players, self.options, self._rng("setup"), self.data)
        state["game"] = self.game
        return state

    def _replay(self, actions: list[dict]) -> dict:
        """Fold the effective actions from the setup (in place: they were all legal)."""
        state = self.initial_state()
        for index, action in enumerate(actions):
            state = self.definition.apply(state, action, self._rng(index), self.data)
        return self._decorate(state)

    def _decorate(self, state: dict) -> dict:
        if self.definition.derive is not None:  # the numbers the screens show, worked out by the rules
            self.definition.derive(state, self.data)
        state["can_undo"] = bool(self._applied)
        state["can_redo"] = bool(self._undone)
        return state

    def actors(self, rows: list[dict]) -> list[str]:
        """Who acted in each action of a raw log (the actions of :meth:`Store.log`, undo and redo
        included): the action's own ``player``, else the player whose turn it was, else the one
        holding the crown (Ciudadelas' calls); an undo or redo is credited to whoever made the
        action it takes back or makes again; '' when nobody did."""
        names: list[str] = []
        applied: list[dict] = []
        undone: list[dict] = []
        by: list[str] = []        # who made each applied action
        by_undone: list[str] = []
        state = self.initial_state()
        for action in rows:
            name = action.get("action")
            if name == "undo":
                if applied:
                    walk(applied, undone, action)
                    by_undone.append(by.pop())
                    state = self._replay(applied)
                    names.append(by_undone[-1])
                else:
                    names.append("")
                continue
            if name == "redo":
                if undone:
                    walk(applied, undone, action)
                    by.append(by_undone.pop())
                    state = self.definition.apply(state, applied[-1], self._rng(len(applied) - 1), self.data)
                    names.append(by[-1])
                else:
                    names.append("")
                continue
            who = action.get("player")
            if not isinstance(who, str):
                players = state.get("players") or []
                seat = state.get("active")
                seat = seat if seat is not None else state.get("crown")
                who = players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else ""
            walk(applied, undone, action)
            by_undone.clear()
            by.append(who)
            state = self.definition.apply(state, action, self._rng(len(applied) - 1), self.data)
            names.append(who)
        return names

    # -- public API -----------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo."""
        return bool(self._applied)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo."""
        return bool(self._undone)

    @property
    def actions(self) -> list[dict]:
        """The effective actions (what the state is the fold of)."""
        return [dict(a) for a in self._applied]

    def apply(self, action: dict[str, Any]) -> dict:
        """Apply one action; it is committed to the database before this returns the new state.

        Raises :class:`~companion.engine.errors.IllegalAction` and leaves everything unchanged when
        the action is not allowed.  An optional ``"id"`` (a client's own name for the action, up to
        100 characters) makes a resend harmless: an id already saved in this game is acknowledged
        again (:attr:`repeated`, :attr:`acknowledged`) without being applied twice.
        """
        if not isinstance(action, dict) or not isinstance(action.get("action"), str):
            raise BadArgument(text('una acción es un objeto con "action": nombre',
                                   'an action is an object with "action": name'))
        try:
            action = json.loads(json.dumps(action))
        except (TypeError, ValueError):
            raise BadArgument(text("la acción no es JSON", "the action is not JSON")) from None
        client_id = self._client_id(action.pop("id", None))
        self.repeated = False
        if client_id is not None:
            seq = self.store.seq_of(self.id, client_id)
            if seq is not None:
                self.repeated, self.acknowledged = True, seq
                return self.state
        name = action["action"]
        if name not in self.definition.actions:
            known = ", ".join(sorted(self.definition.actions))
            raise UnknownAction(text(f"{self.game} no tiene la acción '{name}' (hay: {known})",
                                     f"{self.game} has no action '{name}' (known: {known})"))
        check_args(action, self.definition.actions[name]["args"])
        if name == "undo" and not self._applied:
            raise NothingToUndo(text("no hay nada que deshacer", "there is nothing to undo"))
        if name == "redo" and not self._undone:
            raise NothingToUndo(text("no hay nada que rehacer", "there is nothing to redo"))
        applied, undone = list(self._applied), list(self._undone)
        folded = walk(applied, undone, action)
        new_state = None
        if folded is not None:
            new_state = self.definition.apply(copy_state(self.state), folded, self._rng(len(applied) - 1),
                                          self.data)
        saved_applied, saved_undone = self._applied, self._undone
        self._applied, self._undone = applied, undone
        try:
            if new_state is None:
                new_state = self._replay(applied)
            new_state = self._decorate(new_state)
            self.store.append(self, action, new_state, client_id)
        except BaseException:
            self._applied, self._undone = saved_applied, saved_undone
            raise
        self.seq += 1
        self.acknowledged = self.seq
        self.state = new_state
        return new_state

    @staticmethod
    def _client_id(value: Any) -> str | None:
        """A client's action id as stored (text), or ``None``; anything else is refused."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip() \
                or len(str(value)) > MAX_CLIENT_ID:
            raise BadArgument(text(f'"id" es un texto o un número de 1 a {MAX_CLIENT_ID} caracteres',
                                   f'"id" is a text or a number of 1 to {MAX_CLIENT_ID} characters'))
        return str(value)

    def legal_actions(self) -> list[dict]:
        """What may be done now (the active player's moves, plus undo/redo when possible)."""
        moves = [] if is_over(self.state) else self.definition.legal_actions(self.state, self.data)
        if self.can_undo:
            moves.append({"action": "undo"})
        if self.can_redo:
            moves.append({"action": "redo"})
        return moves
