"""The one bridge from a finished game to the scoring package."""

from __future__ import annotations

from typing import Any

from .outcome import Outcome


def final_scores(record: dict, data: Any) -> dict:
    """Score an end-of-game record built from the state: ``{"game", "players", "winners", "labels",
    "notes", "record"}`` (``labels`` name each breakdown line in both languages; a player's own
    note carries ``"player"``).

    ``data`` is the game's card data (``cards.load()[game]``).  The state was reached through the
    rules and the table's own corrections (``adjust``), so it is scored leniently: an end the box
    would not allow is scored with a note saying so, never refused at the end of a game.
    """
    from .scoring import score_record
    from .scoring.records import plain_note

    result = score_record(record, {record["game"]: data}, lenient=True, trusted=True)
    out = result.as_json()
    out.update(result.extras())  # "labels" {key: {es, en}} and "notes" [{es, en[, player]}]
    out["notes"] = [plain_note(note) for note in out["notes"]]  # a player's words, not the CLI's
    out["record"] = record
    return out


def finish(state: dict, record: dict, data: Any, outcome: Outcome) -> None:
    """End the game for ``outcome``: no one is active any more and the final scores are kept in the
    state."""
    state["outcome"] = outcome.value
    state["finished"] = True
    state["phase"] = "finished"
    state["active"] = None
    state["final"] = final_scores(record, data)
