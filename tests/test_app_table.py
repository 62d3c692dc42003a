"""The table's new screens in the real window: the clock bar, the caller's voice, the final chart with
play and thinking time, and the statistics screen (screenshots under tests/screenshots/)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import appdriver  # noqa: F401  (sets up Kivy before anything imports it)
from appdriver import AppDriver, drv, new_game  # noqa: F401  (drv is a fixture)

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.clock import GameClock
from ludoteca.companion.engine.stats import compute_stats
from test_engine_helpers import choose_move
from fakeclock import FakeTime

T0 = datetime(2026, 3, 28, 18, 0, tzinfo=timezone.utc)


class Recorder:
    """A voice that writes down what it is asked to say."""

    name, available, notice = "recorder", True, None

    def __init__(self):
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)

    def stop(self) -> None:
        pass


def test_clock_bar_turn_timer_pause_and_the_callers_voice(drv: AppDriver):
    now = FakeTime(T0)
    drv.app.clock_now = now
    voice = Recorder()
    drv.app.voice = lambda: voice
    pending: list[tuple[float, object]] = []
    drv.app.caller_schedule = lambda cb, delay: pending.append((delay, cb))
    new_game(drv, "ciudadelas", ["Ana", "Luis", "Eva", "Pablo"])
    state = drv.state
    active = state["players"][state["active"]]["name"]
    now.advance(seconds=65)
    drv.step(2)
    drv.find("clockbar").tick()
    assert drv.text("clock_text") == f"{active}: 1:05  ·  Partida 1:05"
    drv.shot("turn_timer")
    drv.press("clock_pause")
    now.advance(minutes=5)
    drv.find("clockbar").tick()
    assert drv.text("clock_text") == "En pausa · 1:05" and drv.text("clock_pause") == "Seguir"
    drv.shot("paused")
    drv.press("clock_pause")
    now.advance(seconds=10)
    drv.find("clockbar").tick()
    assert drv.text("clock_text").endswith("Partida 1:15")
    # The caller calls all eight characters, 4 s apart, whoever holds them.
    drv.press("call_characters")
    assert [d for d, _ in pending] == [0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 28.0]
    for _, callback in pending[:3]:
        callback(0)
    drv.step(2)
    assert "Tres: Mago." in drv.text("call_label")
    drv.shot("calling")
    for _, callback in pending[3:]:
        callback(0)
    assert voice.said == ["Uno: Asesino.", "Dos: Ladrón.", "Tres: Mago.", "Cuatro: Rey.", "Cinco: Obispo.",
                          "Seis: Mercader.", "Siete: Arquitecto.", "Ocho: Condotiero."]
    assert drv.cut_texts() == []


def finished_game_with_clock(db, seed: int, minutes_per_move: float) -> str:
    """A Gladiadores game played to the end in the engine, its clock following every move."""
    import random

    store = Store(db)
    session = store.new_game("gladiadores", ["Ana", "Luis", "Eva"], seed=seed)
    now = FakeTime(T0 + timedelta(days=seed))
    clock = GameClock(store, session.id, now=now)
    clock.observe(session.state)
    rnd = random.Random(seed)
    while not session.state["finished"]:
        session.apply(choose_move(session.state, session.legal_actions(), session.data, rnd))
        now.advance(minutes=minutes_per_move)
        clock.observe(session.state)
    store.close()
    return session.id


def test_final_chart_play_time_and_thinking_then_statistics(tmp_path):
    ids = [finished_game_with_clock(tmp_path / "ludoteca.db", seed, 0.5) for seed in (3, 4, 5)]
    with AppDriver(tmp_path, "test_app_table.final_and_stats") as drv:
        drv.app.prefs.colours[str(ids[-1])] = ["purple", "orange", "green"]  # chosen for the latest game
        drv.app.resume(ids[-1])
        drv.step(3)
        assert drv.app.root.current == "final"
        from ludoteca.companion.app import theme
        from ludoteca.companion.app.widgets import rgba
        played = {name: rgba(drv.app.colour_of(seat)) for seat, name in enumerate(drv.state["players"][i]["name"]
                                                                               for i in range(len(drv.state["players"])))}
        assert played["Ana"] == rgba("purple")
        final = drv.state["final"]
        chart = drv.find("breakdown_chart")
        drv.step(2)
        scale = max(sum(max(0, v) for v in p["breakdown"].values()) for p in final["players"])
        for player in final["players"]:
            bar = chart.bars[player["name"]]
            drawn = {key: width for key, _, width in bar.drawn}
            for key, value in player["breakdown"].items():
                if value > 0:
                    assert abs(drawn[key] - bar.width * value / scale) < 0.5, (player["name"], key)
                else:
                    assert key not in drawn
        thinking = drv.text("thinking")
        assert thinking.startswith("Tiempo pensando: Ana: ") and "Luis: " in thinking and "Eva: " in thinking
        assert "Duración" in drv.texts()
        assert drv.cut_texts() == []
        drv.shot("final_chart")
        drv.press("home")
        drv.press("history")
        drv.press("open_stats")
        assert drv.app.root.current == "stats"
        stats = compute_stats(drv.app.store.history())["gladiadores"]
        assert stats["plays"] == 3
        for name, row in stats["players"].items():
            assert drv.text(f"figures_{name}") == (
                f"partidas 3  ·  victorias {row['wins']}  ·  ganadas {row['win_rate']:.1f}%  ·  "
                f"media {row['average']:.2f}  ·  mejor {row['best']}")
        chart = drv.find("chart")
        assert {name: len(points) for name, points in chart.drawn.items()} == {n: 3 for n in stats["players"]}
        # each player has the colour they had in play (the latest game), in the chart and the table
        assert {name: tuple(colour) for name, colour, _ in chart.series} == played
        for name in stats["players"]:
            assert tuple(drv.find(f"player_{name}").color) == theme.light(played[name]), name
        assert drv.cut_texts() == []
        drv.shot("statistics")
        drv.press("stats_gladiadores")
        drv.press("back")
        assert drv.app.root.current == "history"
