"""Statistics: per game and per player, plays, wins, win rate, average and best score, and a chart
of scores over time.  The figures come from :func:`companion.engine.stats.compute_stats`, the same
function ``ludoteca history --stats`` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from .charts import LineChart  # noqa: F401  (used in stats.kv)
from . import theme
from .strings import count
from .widgets import FitButton, GrowLabel, rgba


class StatsScreen(Screen):
    """One game's table of figures and its chart; buttons switch the game."""

    game = StringProperty("")

    def refresh(self) -> None:
        """Work the figures out from the saved games and show the chosen game's."""
        app = App.get_running_app()
        from ludoteca.companion.engine.stats import compute_stats

        history = app.store.history() if app.store is not None else []
        stats = compute_stats(history)
        self.stats = stats
        self.history = history
        if self.game not in stats:
            self.game = next(iter(stats), "")
        picker = self.ids.games
        picker.clear_widgets()
        for game in stats:
            button = FitButton(text=app.game_name(game), base_font=sp(16), wid=f"stats_{game}",
                               bg=list(theme.TAB_SELECTED if game == self.game else theme.BUTTON))
            button.bind(on_release=lambda b, g=game: self.pick(g))
            picker.add_widget(button)
        self.show()

    def pick(self, game: str) -> None:
        """Show another game's figures."""
        self.game = game
        self.refresh()

    def show(self) -> None:
        """Fill the table and the chart for ``self.game``."""
        app = App.get_running_app()
        table = self.ids.table
        table.clear_widgets()
        entry = self.stats.get(self.game)
        if entry is None:
            self.ids.summary.text = app.t("no_stats")
            self.ids.chart.series = []
            return
        self.ids.summary.text = f"{app.game_name(self.game)} · {count('plays_of', entry['plays'], app.lang)}"
        series = []
        for name, row in entry["players"].items():
            colour = self.colour_of(app, name)
            head = GrowLabel(text=f"[b]{name}[/b]", markup=True, font_size=sp(18), color=theme.light(colour))
            head.wid = f"player_{name}"
            figures = GrowLabel(text=figures_text(app, row), font_size=sp(16))
            figures.wid = f"figures_{name}"
            table.add_widget(head)
            table.add_widget(figures)
            series.append((name, colour, [score for _, score in row["series"]]))
        self.ids.chart.series = series
        legend = self.ids.legend
        legend.clear_widgets()
        for name, colour, _ in series:
            legend.add_widget(self._cell(f"— {name}", colour=theme.light(colour)))

    def colour_of(self, app: Any, name: str):
        """A player's colour (RGBA) in their latest game of this kind, as it was shown in play."""
        for game in self.history:  # newest first
            if game.get("game") == self.game and name in game.get("players", []):
                return rgba(app.colour_of(game["players"].index(name), game["id"]))
        return rgba(None)

    @staticmethod
    def _cell(text: str, colour=None) -> GrowLabel:
        label = GrowLabel(text=text, font_size=sp(15))
        if colour is not None:
            label.color = colour
        return label


def figures_text(app: Any, row: dict) -> str:
    """One player's figures in a line that wraps: plays, wins, win rate, average, best."""
    average = "-" if row["average"] is None else f"{row['average']:.2f}"
    best = "-" if row["best"] is None else str(row["best"])
    return "  ·  ".join((f"{app.t('col_plays')} {row['plays']}", f"{app.t('col_wins')} {row['wins']}",
                         f"{app.t('col_rate')} {row['win_rate']:.1f}%", f"{app.t('col_average')} {average}",
                         f"{app.t('col_best')} {best}"))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
