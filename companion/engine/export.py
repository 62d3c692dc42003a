"""A saved game as text: ``json`` (players, state, actions, raw log), ``csv`` (one row per logged
action) or ``bgstats`` (the play format BG Stats imports).  ``ludoteca export`` and the app's final
screen both call :func:`export_data`.
"""

from __future__ import annotations

import csv
import io
import json
import uuid

from .common import text
from .errors import BadArgument

FORMATS = ("json", "csv", "bgstats")
#: The file name ending of each format (what the app names a shared export).
SUFFIXES = {"json": "json", "csv": "csv", "bgstats": "bgsplay.json"}


def export_data(store, game_id: str, fmt: str) -> str:
    """A saved game as text in one of the export formats (``store`` is a :class:`Store`)."""
    if fmt not in FORMATS:
        raise BadArgument(text(f"formato desconocido '{fmt}' (hay: {', '.join(FORMATS)})",
                               f"unknown format '{fmt}' (known: {', '.join(FORMATS)})"))
    session = store.open(game_id)
    summary = next(g for g in store.history() if g["id"] == game_id)
    if fmt == "json":
        return json.dumps({"id": session.id, "game": session.game, "players": session.players,
                           "seed": session.seed, "options": session.options, "status": summary["status"],
                           "created": summary["created"], "updated": summary["updated"],
                           "state": session.state, "actions": session.actions,
                           "log": store.log(game_id)}, ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["seq", "at", "action", "player", "arguments"])
        for row in store.log(game_id):
            action = dict(row["action"])
            name = action.pop("action", "")
            player = action.pop("player", "")
            writer.writerow([row["seq"], row["at"], name, player,
                             json.dumps(action, ensure_ascii=False) if action else ""])
        return buf.getvalue()
    return json.dumps(_bgstats(session, summary), ensure_ascii=False, indent=1) + "\n"


def _bgstats(session, summary: dict) -> dict:
    """BG Stats' import layout: ``players``, ``games`` and ``plays`` with ``playerScores``."""
    meta = session.data.meta
    names = meta.get("name", {})
    final = session.state.get("final") or {}
    scores = {p["name"]: p for p in final.get("players", [])}
    winners = set(final.get("winners", []))
    start = session.state.get("first_player")
    players = [{"id": i + 1, "name": n, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:player:{n}"))}
               for i, n in enumerate(session.players)]
    game = {"id": 1, "name": names.get("es") or session.game, "uuid": str(uuid.uuid5(
        uuid.NAMESPACE_URL, f"ludoteca:game:{session.game}")), "cooperative": False,
        "highestWins": True, "noPoints": False, "usesTeams": False}
    play_scores = []
    for i, name in enumerate(session.players):
        s = scores.get(name)
        play_scores.append({"playerRefId": i + 1, "score": str(s["total"]) if s else "",
                            "rank": s["rank"] if s else 0, "winner": name in winners,
                            "newPlayer": False, "startPlayer": start == i})
    created = summary["created"][:19].replace("T", " ")
    return {"about": "Exported from Ludoteca (https://example.invalid/ludoteca); BG Stats import format",
            "players": players, "games": [game], "locations": [],
            "plays": [{"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:play:{session.id}")),
                       "gameRefId": 1, "playDate": created, "entryDate": created,
                       "ignored": False, "rating": 0, "durationMin": 0, "rounds": session.state.get("round", 0),
                       "board": "", "comments": f"Ludoteca game {session.id}",
                       "playerScores": play_scores}]}
