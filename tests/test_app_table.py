"""The table's new screens in the real window: the clock bar, the caller's voice, the final chart with
play and thinking time, and the statistics screen (screenshots under tests/screenshots/)."""

from __future__ import annotations

from datetime import datetime, timedelta, UTC

import appdriver  # noqa: F401  (sets up Kivy before anything imports it)
from appdriver import AppDriver, drv, new_game  # noqa: F401  (drv is a fixture)

from ludoteca.companion.app import theme
from ludoteca.companion.app.platform import NO_SOUND, Speech
from ludoteca.companion.engine import Store
from ludoteca.companion.engine.caller import call_line
from ludoteca.companion.engine.clock import GameClock
from ludoteca.companion.engine.stats import compute_stats
from test_engine_helpers import choose_move
from fakeclock import FakeTime

T0 = datetime(2026, 3, 28, 18, 0, tzinfo=UTC)


class Recorder(Speech):
    """A voice that writes down what it is asked to say."""

    name = "recorder"

    def __init__(self):
        super().__init__()
        self.said: list[str] = []
        self.stopped = 0

    def say(self, text: str) -> None:
        self.said.append(text)

    def stop(self) -> None:
        self.stopped += 1


def _draft(drv: AppDriver, seed_players: list[str]) -> tuple[str, str]:
    """A game whose first picker can take the Assassin; the draft played in the engine: the first
    picker takes the Assassin, the others the lowest character left.  Returns the Assassin's holder
    and the character of the next picker (the one to murder)."""
    store = drv.app.store
    for seed in range(40):
        session = store.new_game("ciudadelas", seed_players, seed=seed)
        if "assassin" in session.state["draft"]["available"]:
            break
    drv.app.session = session
    numbers = {c["id"]: c["number"] for c in session.data.entries("character")}
    picks: list[tuple[str, str]] = []
    while session.state["phase"] == "choose":
        seat = session.state["active"]
        available = session.state["draft"]["available"]
        cid = "assassin" if not picks else min(available, key=numbers.get)
        session.apply({"action": "choose", "player": session.state["players"][seat]["name"], "character": cid})
        picks.append((session.state["players"][seat]["name"], cid))
    drv.app.show_session()
    drv.step(3)
    return picks[0][0], picks[1][1]


def test_clock_bar_and_the_caller_who_calls_one_character_per_tap(drv: AppDriver):
    """The clock bar's turn timer and pause; then issue 22 #3: no timer reading all eight; each
    "next" tap is one call, said in the app's language, the called ones marked; the murdered
    character is called and skipped without a turn and without naming its holder; the caller's
    button says "stop" while the voice is on."""
    now = FakeTime(T0)
    drv.app.clock_now = now
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
    # the caller, in a round whose draft is played in the engine
    voice = Recorder()
    drv.app.platform.speech = lambda lang: voice
    killer, victim = _draft(drv, ["Ana", "Luis", "Eva", "Pablo"])
    data = drv.app.game_data("ciudadelas")
    assert drv.state["phase"] == "call"
    assert drv.text("call_characters") == "Llamar en voz alta"
    drv.press("call_characters")
    assert drv.text("call_characters") == "Parar la voz" and voice.said == []   # nothing said by itself
    assert "Llamar al siguiente personaje" in drv.text("call_label")
    drv.press("call")                                      # 1: the Assassin, the killer's turn
    assert voice.said == ["Uno: Asesino."]
    assert drv.state["phase"] == "turn" and drv.state["players"][drv.state["active"]]["name"] == killer
    drv.press("power_murder")
    drv.press(f"target_{victim}")
    drv.press("end_turn")
    assert drv.state["murdered"] == victim
    number = {c["id"]: c["number"] for c in data.entries("character")}
    holder = next(p["name"] for seat, p in enumerate(drv.state["players"]) if victim in drv.state["picks"][seat])
    while drv.state["called"] < number[victim]:
        assert drv.state["phase"] == "call"
        drv.press("call")
        if drv.state["phase"] == "turn":
            drv.press("end_turn")
    # the murdered one was called aloud like any other, and nobody's turn came
    assert voice.said == [call_line(data, n, "es") for n in range(1, number[victim] + 1)]
    assert drv.state["phase"] == "call" and drv.state["active"] is None
    heading = drv.text("last_call")
    assert heading.endswith("asesinado: pierde el turno sin decir nada") and holder not in heading
    assert drv.find(f"called_{victim}").bg == list(theme.CALLING)
    assert drv.find("called_assassin").bg == list(theme.CALLED)
    later = next(c["id"] for c in data.entries("character") if c["number"] == number[victim] + 1)
    assert drv.find(f"called_{later}").bg == list(theme.TO_CALL)
    assert drv.text("call").endswith(f"{number[victim] + 1} / 8")
    assert drv.cut_texts() == []
    drv.shot("murdered_called")
    drv.resize((480, 800))
    assert drv.cut_texts() == []
    drv.shot("murdered_called_480x800")
    # a voice that turns out to have no sound device says so on the clock bar (told from its own thread)
    import threading

    worker = threading.Thread(target=voice.trouble, args=(NO_SOUND,))
    worker.start()
    worker.join()
    drv.step(2)
    assert drv.text("call_label") == NO_SOUND["es"]
    # in English the next call is said in English; the button stops the voice
    drv.app.set_lang("en")
    drv.step(2)
    drv.press("call")
    assert voice.said[-1] == call_line(data, number[victim] + 1, "en")
    drv.shot("calling_en")
    drv.press("call_characters")
    assert drv.text("call_characters") == "Call aloud" and voice.stopped >= 1
    if drv.state["phase"] == "turn":
        drv.press("end_turn")
    said = len(voice.said)
    drv.press("call")
    assert len(voice.said) == said                         # the voice is off: calls are not said


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
        names = [p["name"] for p in drv.state["players"]]
        played = {name: rgba(drv.app.colour_of(seat)) for seat, name in enumerate(names)}
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
