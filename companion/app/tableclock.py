"""The clock bar every game screen shows: whose turn it is and for how long (advisory, seen by all,
never forcing anything), the play's time, a pause for everyone, and in Ciudadelas the caller's voice
(on or off; the calls themselves are the round's own taps).

The clock itself lives in the engine (:mod:`companion.engine.clock`); the app's ``clock_now``
(a callable) gives the time, so tests move it by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout


def game_clock(app: Any):
    """The :class:`GameClock` of the app's open game (one per game, kept on the app), or ``None``."""
    if app is None or getattr(app, "session", None) is None or getattr(app, "store", None) is None:
        return None
    from ludoteca.companion.engine.clock import GameClock, utc_now

    now = getattr(app, "clock_now", None) or utc_now
    cached = getattr(app, "_game_clock", None)
    if cached is None or cached.game_id != app.session.id or cached.now is not now:
        cached = GameClock(app.store, app.session.id, now=now)
        app._game_clock = cached
    return cached


class ClockBar(BoxLayout):
    """Turn timer, play time, pause/resume and (Ciudadelas) the caller's button."""

    text = StringProperty("")
    paused = BooleanProperty(False)
    can_call = BooleanProperty(False)

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._tick = Clock.schedule_interval(lambda dt: self.tick(), 1.0)

    def on_kv_post(self, base_widget: Any) -> None:
        """Start without the caller's button (only Ciudadelas with the voice on shows it)."""
        self._call_button = self.ids.call_characters.__self__  # a strong reference while it is out
        self.on_can_call(self, self.can_call)

    def on_can_call(self, _widget: Any, value: bool) -> None:
        """Show the caller's button only when it can be used."""
        button = getattr(self, "_call_button", None)
        if button is None:
            return
        row = self.ids.row
        if value and button.parent is None:
            row.add_widget(button)
        elif not value and button.parent is not None:
            row.remove_widget(button)

    def follow(self, state: dict) -> None:
        """Record what the state says (start, a new turn, the end) and show the times."""
        app = App.get_running_app()
        clock = game_clock(app)
        if clock is not None:
            clock.observe(state)
        prefs = getattr(app, "prefs", None)
        self.can_call = state.get("game") == "ciudadelas" and bool(getattr(prefs, "voice", True))
        self.tick()
        Clock.schedule_once(lambda dt: self.tick(), 0)  # once the screen is on the window

    def tick(self) -> None:
        """Redraw the times (once a second while the screen is shown)."""
        app = App.get_running_app()
        clock = game_clock(app)
        if clock is None or self.get_root_window() is None:
            return
        from ludoteca.companion.engine.clock import clock_text

        t = clock.timing()
        self.paused = t.paused
        state = app.state or {}
        players = state.get("players") or []
        if t.paused:
            self.text = app.t("clock_paused", time=clock_text(t.played_s))
            return
        total = app.t("play_clock", time=clock_text(t.played_s))
        if t.seat is not None and t.seat < len(players) and t.end is None:
            turn = app.t("turn_clock", name=players[t.seat].get("name", ""), time=clock_text(t.turn_s))
            self.text = f"{turn}  ·  {total}"
        else:
            self.text = total

    def toggle(self) -> None:
        """Pause the clock for everyone, or start it again."""
        clock = game_clock(App.get_running_app())
        if clock is not None:
            clock.toggle()
        self.tick()

    def call(self) -> None:
        """The caller's button: the voice on (each call said from now on) or off."""
        App.get_running_app().toggle_caller()

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
