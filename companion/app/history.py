"""History: every saved game (winners of finished ones) and each player's games and wins."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.uix.screenmanager import Screen

from .strings import count
from .widgets import FitButton, GrowLabel


def local_time(stamp: str) -> str:
    """An ISO time from the database as local "YYYY-MM-DD HH:MM"."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(stamp)[:16]


class HistoryScreen(Screen):
    """Past games and per-player statistics."""

    def open_stats(self) -> None:
        """Show the statistics screen (figures and charts per game)."""
        App.get_running_app().go("stats")

    def refresh(self) -> None:
        """List the saved games (finished or in progress) and each player's games and wins."""
        app = App.get_running_app()
        games_box, stats_box = self.ids.games, self.ids.stats
        games_box.clear_widgets()
        stats_box.clear_widgets()
        if app.store is None:
            return
        for game in app.store.history():
            when = local_time(game.get("updated", ""))
            names = ", ".join(game.get("players", []))
            if game.get("status") == "finished" and game.get("final"):
                winners = ", ".join(game["final"].get("winners", [])) or app.t("nobody")
                detail = app.t("winner", name=winners)
            else:
                detail = app.t("in_progress", seq=count("actions", game.get("seq", 0), app.lang))
            button = FitButton(text=f"{app.game_name(game['game'])} · {when}\n{names}\n{detail}",
                               base_font=sp(16), height=dp(84))
            button.payload = game["id"]
            button.wid = f"game_{game['id']}"
            button.bind(on_release=lambda b: App.get_running_app().resume(b.payload))
            games_box.add_widget(button)
        stats = app.store.player_stats()
        ordered = sorted(stats.items(), key=lambda kv: (-kv[1]["wins"], -kv[1]["games"], kv[0].casefold()))
        for player, counts in ordered:
            stats_box.add_widget(GrowLabel(
                text=f"[b]{player}[/b]: {count('games', counts['games'], app.lang)}, "
                     f"{count('wins', counts['wins'], app.lang)}",
                markup=True, font_size=sp(18)))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
