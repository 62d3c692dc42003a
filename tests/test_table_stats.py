"""Statistics per game and player, worked by hand from three finished games and one unfinished."""

from __future__ import annotations

import json
import subprocess
import sys

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.stats import compute_stats, player_totals, stats_table
from test_engine_helpers import play_to_end


def finished(gid, game, when, scores, winners):
    return {"id": gid, "game": game, "status": "finished", "updated": when, "players": list(scores),
            "final": {"winners": winners, "players": [{"name": n, "total": t} for n, t in scores.items()]}}


HISTORY = [
    finished("c", "ciudadelas", "2026-01-03T20:00:00+00:00", {"Ana": 20, "Luis": 25, "Eva": 18}, ["Luis"]),
    finished("a", "ciudadelas", "2026-01-01T20:00:00+00:00", {"Ana": 30, "Luis": 22}, ["Ana"]),
    finished("b", "ciudadelas", "2026-01-02T20:00:00+00:00", {"Ana": 26, "Luis": 26}, ["Ana", "Luis"]),
    finished("g", "gladiadores", "2026-01-04T20:00:00+00:00", {"Eva": 10, "Ana": 7}, ["Eva"]),
    {"id": "u", "game": "ciudadelas", "status": "active", "updated": "2026-01-05", "players": ["Ana"],
     "final": None},
]


def test_stats_by_hand():
    stats = compute_stats(HISTORY)
    assert list(stats) == ["ciudadelas", "gladiadores"]
    cit = stats["ciudadelas"]
    assert cit["plays"] == 3  # the unfinished game does not count
    ana, luis, eva = cit["players"]["Ana"], cit["players"]["Luis"], cit["players"]["Eva"]
    # Ana: 30, 26, 20 -> 2 wins of 3 (a shared win counts), average 76/3 = 25.33, best 30.
    assert (ana["plays"], ana["wins"], ana["win_rate"], ana["average"], ana["best"]) == (3, 2, 66.7, 25.33, 30)
    # Luis: 22, 26, 25 -> 2 wins of 3, average 73/3 = 24.33, best 26.
    assert (luis["plays"], luis["wins"], luis["win_rate"], luis["average"], luis["best"]) == (3, 2, 66.7, 24.33, 26)
    assert (eva["plays"], eva["wins"], eva["win_rate"], eva["average"], eva["best"]) == (1, 0, 0.0, 18.0, 18)
    # Scores over time, oldest first, whatever order the history came in.
    assert [s for _, s in ana["series"]] == [30, 26, 20]
    assert list(cit["players"]) == ["Ana", "Luis", "Eva"]  # wins, then plays, then name
    assert stats["gladiadores"]["players"]["Eva"]["win_rate"] == 100.0


def test_stats_table_prints_the_same_figures():
    table = stats_table(compute_stats(HISTORY))
    assert "ciudadelas: 3 finished plays" in table and "gladiadores: 1 finished play" in table
    ana_row = next(line for line in table.splitlines() if line.strip().startswith("Ana") and "66.7%" in line)
    assert ana_row.split() == ["Ana", "3", "2", "66.7%", "25.33", "30"]


def test_history_stats_command_matches_the_engine(tmp_path):
    db = tmp_path / "s.db"
    store = Store(db)
    for seed in (1, 2):
        play_to_end(store.new_game("gladiadores", ["Ana", "Luis"], seed=seed), seed=seed)
    expected = compute_stats(store.history())
    store.close()
    run = [sys.executable, "-m", "ludoteca", "history", "--stats", "--db", str(db)]
    out = subprocess.run(run + ["--json"], capture_output=True, text=True, timeout=60)
    assert json.loads(out.stdout) == expected
    text = subprocess.run(run, capture_output=True, text=True, timeout=60).stdout
    assert text.strip() == stats_table(expected)
    assert expected["gladiadores"]["plays"] == 2
    assert sum(p["wins"] for p in expected["gladiadores"]["players"].values()) >= 2


def test_wins_per_player_by_hand_and_the_store_counts_them_as_the_statistics_do(tmp_path):
    # Ana: a and b won (b shared), c and g lost; Luis: c and b won, a lost; Eva: g won, c lost.
    assert player_totals(HISTORY) == {"Ana": {"games": 4, "wins": 2}, "Luis": {"games": 3, "wins": 2},
                                      "Eva": {"games": 2, "wins": 1}}
    store = Store(tmp_path / "w.db")
    for game, players, seed in (("gladiadores", ["Ana", "Luis"], 1), ("gladiadores", ["Luis", "Eva"], 2),
                                ("el_mapa", ["Ana", "Eva"], 3)):
        play_to_end(store.new_game(game, players, seed=seed), seed)
    store.new_game("el_mapa", ["Ana", "Pablo"], seed=4)  # unfinished: counts nowhere
    summed: dict[str, dict[str, int]] = {}
    for entry in compute_stats(store.history()).values():
        for name, row in entry["players"].items():
            total = summed.setdefault(name, {"games": 0, "wins": 0})
            total["games"] += row["plays"]
            total["wins"] += row["wins"]
    assert store.player_stats() == summed
    assert sorted(summed) == ["Ana", "Eva", "Luis"] and sum(t["games"] for t in summed.values()) == 6
