"""Statistics of finished games, per game and per player: worked out once, here, for both the app's
statistics screen and ``ludoteca history --stats``.

>>> games = [{"id": "a", "game": "gladiadores", "status": "finished", "updated": "2026-01-02T10:00:00+00:00",
...           "players": ["Ana", "Luis"], "final": {"winners": ["Ana"],
...           "players": [{"name": "Ana", "total": 10}, {"name": "Luis", "total": 6}]}}]
>>> s = compute_stats(games)["gladiadores"]["players"]["Ana"]
>>> s["plays"], s["wins"], s["win_rate"], s["average"], s["best"]
(1, 1, 100.0, 10.0, 10)
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from ludoteca.cards.names import shown


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def compute_stats(history: Iterable[dict]) -> dict[str, dict]:
    """From :meth:`Store.history` rows: ``{game: {"plays", "players": {name: {"plays", "wins",
    "win_rate" (percent, 1 decimal), "average" (2 decimals), "best", "series": [[when, score], ...]}}}}``.

    Only finished games with final scores count; series run oldest first (``updated``, the moment the
    game was finished); games are sorted by name and players by wins, then plays, then name.
    """
    finished = [g for g in history if g.get("status") == "finished" and g.get("final")]
    finished.sort(key=lambda g: (str(g.get("updated", "")), str(g.get("id", ""))))
    raw: dict[str, dict[str, Any]] = {}
    for game in finished:
        entry = raw.setdefault(game["game"], {"plays": 0, "players": {}})
        entry["plays"] += 1
        final = game["final"]
        winners = set(final.get("winners", []))
        totals = {p.get("name"): _number(p.get("total")) for p in final.get("players", [])}
        for name in game.get("players", []):
            row = entry["players"].setdefault(name, {"plays": 0, "wins": 0, "scores": [], "series": []})
            row["plays"] += 1
            row["wins"] += name in winners
            score = totals.get(name)
            if score is not None:
                row["scores"].append(score)
                row["series"].append([game.get("updated", ""), _tidy(score)])
    out: dict[str, dict] = {}
    for game_id in sorted(raw):
        players = {}
        for name, row in raw[game_id]["players"].items():
            scores = row.pop("scores")
            row["win_rate"] = round(100.0 * row["wins"] / row["plays"], 1)
            row["average"] = round(sum(scores) / len(scores), 2) if scores else None
            row["best"] = _tidy(max(scores)) if scores else None
            players[name] = row
        ordered = sorted(players.items(), key=lambda kv: (-kv[1]["wins"], -kv[1]["plays"], kv[0].casefold()))
        out[game_id] = {"plays": raw[game_id]["plays"], "players": dict(ordered)}
    return out


def player_totals(history: Iterable[dict]) -> dict[str, dict[str, int]]:
    """Per player name, over every game: ``{"games", "wins"}`` of the finished games, added up from
    :func:`compute_stats` so that the two never count a win differently."""
    out: dict[str, dict[str, int]] = {}
    for entry in compute_stats(history).values():
        for name, row in entry["players"].items():
            total = out.setdefault(name, {"games": 0, "wins": 0})
            total["games"] += row["plays"]
            total["wins"] += row["wins"]
    return out


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def stats_table(stats: dict[str, dict]) -> str:
    """The statistics as a plain text table per game (what ``ludoteca history --stats`` prints)."""
    lines: list[str] = []
    header = ("player", "plays", "wins", "win rate", "average", "best")
    for game, entry in stats.items():
        if lines:
            lines.append("")
        lines.append(f"{game}: {entry['plays']} finished " + ("play" if entry["plays"] == 1 else "plays"))
        rows = [(shown(name), str(r["plays"]), str(r["wins"]), f"{r['win_rate']:.1f}%",
                 "-" if r["average"] is None else f"{r['average']:.2f}",
                 "-" if r["best"] is None else str(r["best"])) for name, r in entry["players"].items()]
        widths = [max(len(x[i]) for x in rows + [header]) for i in range(len(header))]
        for row in [header] + rows:
            cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
            lines.append("  " + "  ".join(cells).rstrip())
    return "\n".join(lines)
