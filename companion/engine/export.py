"""A saved game as text: ``json`` (players, state, actions, raw log), ``csv`` (the final scores,
one row per player), ``log`` (the action log as CSV, one row per logged action with who made it),
``bgstats`` (the play file BG Stats imports) or ``bgstats-link`` (BG Stats' "push plays" link, which
opens its import dialog).  ``ludoteca export`` and the app's final screen both call :func:`export_data`.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import Any
from urllib.parse import quote
from datetime import datetime, tzinfo, UTC

from .common import text
from .errors import BadArgument

FORMATS = ("json", "csv", "log", "bgstats", "bgstats-link")
#: What a spreadsheet may read as the start of a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: The file name ending of each format (what the app names a shared export).
SUFFIXES = {"json": "json", "csv": "csv", "log": "log.csv", "bgstats": "bgsplay", "bgstats-link": "txt"}
#: BG Stats' "push plays" address: the play as URL-encoded JSON after ``data=``.
BGSTATS_PUSH = "https://app.bgstatsapp.com/createPlay.html?data="
#: How a play pushed to BG Stats names where it came from.
SOURCE_NAME = "Ludoteca"
#: The ``about`` text of a BG Stats file (our words; BG Stats shows it to whoever opens the file elsewhere).
ABOUT = ("Partida exportada por Ludoteca en el formato de Board Game Stats: ábrela con esa app. / "
         "A play exported by Ludoteca in Board Game Stats' format: open it with that app.")


def export_data(store, game_id: str, fmt: str, tz: tzinfo | None = None) -> str:
    """A saved game as text in one of the export formats (``store`` is a :class:`Store`; ``tz`` the
    local time zone of BG Stats' dates, the system's when ``None``)."""
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
                           "log": store.log(game_id),
                           "clock": _clock_json(store, game_id, len(session.players))},
                          ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        return _scores_csv(session)
    if fmt == "log":
        rows = store.log(game_id)
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a CR inside a cell stays in it
        writer.writerow(["seq", "at", "action", "player", "arguments"])
        for row, who in zip(rows, session.actors([r["action"] for r in rows])):
            action = dict(row["action"])
            name = action.pop("action", "")
            action.pop("player", None)
            writer.writerow([spreadsheet_safe(cell) for cell in (
                row["seq"], row["at"], name, who, json.dumps(action, ensure_ascii=False) if action else "")])
        return buf.getvalue()
    if fmt == "bgstats-link":
        return bgstats_link(push_play(session, summary, store, tz)) + "\n"
    return json.dumps(_bgstats(session, summary, store, tz), ensure_ascii=False, indent=1) + "\n"


def _scores_csv(session) -> str:
    """The final scores: one row per player in seat order (name, each scoring line, total, rank,
    winner 1/0); an unfinished game has the names and empty scores."""
    final = session.state.get("final") or {}
    scores = {p["name"]: p for p in final.get("players", [])}
    lines = list((final.get("labels") or {}).keys())
    for p in final.get("players", []):
        lines += [key for key in p.get("breakdown", {}) if key not in lines]
    winners = set(final.get("winners", []))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(["player", *lines, "total", "rank", "winner"])
    for name in session.players:
        s = scores.get(name)
        cells = [name, *[(s["breakdown"].get(key, 0) if s else "") for key in lines],
                 s["total"] if s else "", s["rank"] if s else "", (1 if name in winners else 0) if s else ""]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return buf.getvalue()


def push_play(session, summary: dict, store=None, tz: tzinfo | None = None) -> dict:
    """The play in BG Stats' "push plays" format: where it comes from (``sourceName``, ``sourcePlayId``),
    the game (BoardGameGeek id, name), the local start date, the minutes played, and the players
    inline with a numeric ``score``, ``winner``, ``rank``, ``startPlayer`` and seat order."""
    from .clock import play_times

    meta = session.data.meta
    final = session.state.get("final") or {}
    scores = {p["name"]: p for p in final.get("players", [])}
    winners = set(final.get("winners", []))
    start_seat = session.state.get("first_player")
    times: dict[str, Any] = (play_times(store, session.id, seats=len(session.players)) if store is not None
                             else {"start": None, "minutes": 0})
    moment = times["start"] or datetime.fromisoformat(summary["created"])
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    players = []
    for i, name in enumerate(session.players):
        s = scores.get(name)
        players.append({"name": name, "sourcePlayerId": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:player:{name}")),
                        "score": s["total"] if s else 0, "winner": name in winners,
                        "rank": s["rank"] if s else 0, "startPlayer": start_seat == i, "seatOrder": i + 1,
                        "role": ""})
    return {"sourceName": SOURCE_NAME, "sourcePlayId": session.id,
            "playDate": moment.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S"),
            "durationMin": times["minutes"], "location": "", "board": "",
            "comments": f"Ludoteca {session.id}",
            "game": {"name": (meta.get("name") or {}).get("es") or session.game,
                     "bggId": int((meta.get("bgg") or {}).get("id") or 0), "sourceGameId": session.game,
                     "highestWins": True, "noPoints": False},
            "players": players}


def bgstats_link(play: dict) -> str:
    """The link that opens BG Stats' import dialog with ``play`` (:func:`push_play`).

    >>> bgstats_link({"sourceName": "Ludoteca"})
    'https://app.bgstatsapp.com/createPlay.html?data=%7B%22sourceName%22%3A%22Ludoteca%22%7D'
    """
    return BGSTATS_PUSH + quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")


def spreadsheet_safe(cell: object) -> object:
    r"""A CSV cell a spreadsheet shows as text: one that could start a formula gets a leading ``'``.

    >>> spreadsheet_safe('=HYPERLINK("http://x")'), spreadsheet_safe("Ana"), spreadsheet_safe(-3)
    ('\'=HYPERLINK("http://x")', 'Ana', -3)
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_START):
        return "'" + cell
    return cell


def _bgstats(session, summary: dict, store=None, tz: tzinfo | None = None) -> dict:
    """BG Stats' play-file layout (``about``, ``players``, ``locations``, ``games``, ``plays``).

    Checked against a real BG Stats export and BG Stats' documented import: dates are local wall
    time ``YYYY-MM-DD HH:MM:SS``; ``playDate`` is when the play started; ``durationMin`` the minutes
    played (pauses left out); each score has ``seatOrder`` (1 = first seat) and ``startPlayer``;
    the game carries ``bggId`` from ``cards/<game>/game.yaml`` (0 when the game has none).
    ``tz`` is the local time zone (the system's when ``None``).
    """
    from .clock import play_times

    meta = session.data.meta
    names = meta.get("name", {})
    bgg_id = int((meta.get("bgg") or {}).get("id") or 0)
    final = session.state.get("final") or {}
    scores = {p["name"]: p for p in final.get("players", [])}
    winners = set(final.get("winners", []))
    start_seat = session.state.get("first_player")
    times: dict[str, Any] = (play_times(store, session.id, seats=len(session.players)) if store is not None
                             else {"start": None, "end": None, "minutes": 0})
    created = datetime.fromisoformat(summary["created"])
    updated = datetime.fromisoformat(summary["updated"])

    def local(moment: datetime | None) -> str:
        moment = moment or created
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")

    modified = local(updated)
    players = [{"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:player:{n}")), "id": i + 1, "name": n,
                "isAnonymous": False, "modificationDate": modified, "bggUsername": ""}
               for i, n in enumerate(session.players)]
    game = {"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:game:{session.game}")), "id": 1,
            "name": names.get("es") or session.game, "modificationDate": modified, "cooperative": False,
            "highestWins": True, "noPoints": False, "usesTeams": False, "bggId": bgg_id}
    play_scores = []
    for i, name in enumerate(session.players):
        s = scores.get(name)
        play_scores.append({"playerRefId": i + 1, "score": str(s["total"]) if s else "",
                            "rank": s["rank"] if s else 0, "winner": name in winners,
                            "newPlayer": False, "startPlayer": start_seat == i, "seatOrder": i + 1,
                            "role": ""})
    return {"about": ABOUT,
            "players": players, "locations": [], "games": [game],
            "plays": [{"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"ludoteca:play:{session.id}")),
                       "modificationDate": modified, "entryDate": local(times["end"] or updated),
                       "playDate": local(times["start"]), "usesTeams": False,
                       "durationMin": times["minutes"], "ignored": False, "manualWinner": False,
                       "rounds": session.state.get("round", 0) or 0, "gameRefId": 1, "board": "",
                       "scoringSetting": 0, "rating": 0, "comments": f"Ludoteca {session.id}",
                       "playerScores": play_scores}]}


def _clock_json(store, game_id: str, seats: int) -> dict:
    """The play's start, end (ISO with offset), minutes played and paused, thinking seconds per seat,
    and how many clock rows could not be read."""
    from .clock import play_times

    times = play_times(store, game_id, seats=seats)
    return {"start": times["start"].isoformat() if times["start"] else None,
            "end": times["end"].isoformat() if times["end"] else None,
            "minutes": times["minutes"], "paused_minutes": times["paused_min"], "source": times["source"],
            "thinking_s": {str(seat): round(s, 1) for seat, s in sorted(times["thinking"].items())},
            "skipped_rows": times["skipped"]}
