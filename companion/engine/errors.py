"""Specific errors of the engine: every refused action is an :class:`IllegalAction` (a ``ValueError``).

Each error carries its message in Spanish and English:

>>> err = NotEnough({"es": "Ana no tiene 5 de oro", "en": "Ana lacks 5 gold"})
>>> str(err)
'Ana lacks 5 gold'
>>> err.text["es"]
'Ana no tiene 5 de oro'
"""

from __future__ import annotations


class Worded(Exception):
    """An error whose message is ``text``, ``{es, en}``; ``str()`` is the English one (the command
    line's), a screen shows its own language. A plain string serves both."""

    def __init__(self, text: dict[str, str] | str):
        if isinstance(text, str):
            text = {"es": text, "en": text}
        self.text = text
        super().__init__(text["en"])


class Bilingual(Worded, ValueError):
    """A refusal of what was asked (a ``ValueError``) worded in both languages."""


class IllegalAction(Bilingual):
    """An action the rules do not allow now; the state is left unchanged."""


class UnknownAction(IllegalAction):
    """The game has no action of that name."""


class BadArgument(IllegalAction):
    """An argument is missing, of the wrong type, or names nothing known."""


class UnknownPlayer(BadArgument):
    """The action names a player who is not at the table."""


class NotYourTurn(IllegalAction):
    """The action names a player other than the one whose turn it is."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase of the turn or round."""


class NotEnough(IllegalAction):
    """A player lacks the gold, coins, cards or other resource the action spends."""


class Duplicate(IllegalAction):
    """Building a second copy of something a player may hold only once."""


class LimitReached(IllegalAction):
    """A per-turn or per-player limit is already used up (builds, buildings, armies, trades)."""


class NotAllowed(IllegalAction):
    """A specific rule forbids this target (a protected city, the Keep, a building with points)."""


class GameOver(IllegalAction):
    """The game has finished; only undo is possible."""


class NothingToUndo(IllegalAction):
    """Undo at the start of the game, or redo with nothing undone."""


class StoreError(Worded, Exception):
    """The database cannot be used (not a rules problem); ``text`` as in :class:`Worded`."""
