"""Home: start a game of each of the three games, resume an unfinished one, history,
language and keep-awake."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.uix.screenmanager import Screen

from ludoteca.companion.engine.setup import player_range

from .strings import count
from .widgets import FitButton
from . import theme

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


class HomeScreen(Screen):
    """The first screen."""

    def refresh(self) -> None:
        """List the games to start and the unfinished ones to resume."""
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        for game in GAMES:
            data = app.game_data(game)
            label = app.game_name(game)
            if data is not None:
                low, high = player_range(data, {})
                label += "\n" + app.t("players_range", min=low, max=high)
            else:  # a game whose data cannot be read cannot be played; the message says why
                label += "\n" + app.t("no_data")
                app.message = app.t("data_error", error=app.catalog_error)
            button = FitButton(text=label, base_font=sp(20), height=dp(76), bg=list(theme.NEW_GAME),
                               disabled=app.store is None or data is None)
            button.why = app.message if button.disabled else ""  # the database's or the data's trouble
            button.payload = game
            button.wid = f"new_{game}"
            button.bind(on_release=lambda b: self.new_game(b.payload))
            box.add_widget(button)
        self.show_unfinished()

    def show_unfinished(self) -> None:
        """A button for each unfinished game, to resume it (nothing, not even the title, when none)."""
        app = App.get_running_app()
        box = self.ids.unfinished
        box.clear_widgets()
        games = app.store.unfinished() if app.store is not None else []
        for game in games:
            names = ", ".join(game.get("players", []))
            done = count("actions", game.get("seq", 0), app.lang)
            text = f"{app.game_name(game['game'])} · {names}\n{app.t('in_progress', seq=done)}"
            button = FitButton(text=text, base_font=sp(17), height=dp(64), bg=list(theme.RESUME))
            button.payload = game["id"]
            button.wid = f"resume_{game['id']}"
            button.bind(on_release=lambda b: App.get_running_app().resume(b.payload))
            box.add_widget(button)

    def set_voice(self, on: bool) -> None:
        """Turn the caller's voice (Ciudadelas) on or off, and remember it."""
        app = App.get_running_app()
        if app.prefs.voice != bool(on):
            app.prefs.voice = bool(on)
            app.save_prefs()

    def new_game(self, game: str) -> None:
        """Go to the Players screen for a new game of ``game``."""
        app = App.get_running_app()
        players = app.screen("players")
        players.setup(game)
        app.root.current = "players"


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
