"""Players: 2-7 names within the game's range, a colour each, seat order, who starts
(or holds the crown), or a random pick."""

from __future__ import annotations

import random
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.uix.screenmanager import Screen

from ludoteca.companion.engine import IllegalAction
from ludoteca.companion.engine.setup import first_player_option, player_names, player_range, screen_options

from .marks import ColourButton  # noqa: F401  (used in players.kv)
from . import theme
from .widgets import COLOUR_IDS, FitButton, GrowLabel, rgba


class PlayerRow(BoxLayout):
    """One seat: colour, name, starts/crown, move up/down, remove."""

    seat = NumericProperty(0)
    colour = StringProperty("red")
    player_name = StringProperty("")
    first = BooleanProperty(False)
    last = BooleanProperty(False)
    crown = BooleanProperty(False)  # Ciudadelas: the first seat holds the crown


class PlayersScreen(Screen):
    """Choose who plays, in seat order, before a game starts."""

    game = StringProperty("ciudadelas")
    error = StringProperty("")
    range_text = StringProperty("")
    choose_first = BooleanProperty(True)  # False when the cards decide who starts

    def setup(self, game: str) -> None:
        """Prepare the screen for a new game of ``game`` (names from the last game are kept)."""
        app = App.get_running_app()
        self.game = game
        data = app.game_data(game)
        if data is None:  # the game's data could not be loaded (said on the home screen)
            return
        # the engine's numbers and rules: how many play, and whether the table picks who starts
        self.data = data
        self.options = screen_options(data)
        self.chosen = {o["name"]: ("" if o["type"] == "int" else o["default"]) for o in self.options}
        self.min_players, self.max_players = player_range(data, self.chosen)
        self.choose_first = first_player_option(data) is not None
        if not getattr(self, "names", None):
            self.names = ["", ""]
            self.colours = COLOUR_IDS[:2]
        while len(self.names) < self.min_players:
            self.add_player(refresh=False)
        del self.names[self.max_players:]
        del self.colours[self.max_players:]
        self.first = 0
        self.error = ""
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the rows of names, colours and the first player."""
        app = App.get_running_app()
        self.range_text = app.t("players_range", min=self.min_players, max=self.max_players)
        box = self.ids.rows
        box.clear_widgets()
        for seat, (player, colour) in enumerate(zip(self.names, self.colours)):
            row = PlayerRow(seat=seat, colour=colour, player_name=player, first=seat == self.first,
                            last=seat == len(self.names) - 1, crown=self.game == "ciudadelas")
            row.ids.name.bind(text=lambda field, value, s=seat: self.names.__setitem__(s, value))
            box.add_widget(row)
        self.ids.add.disabled = len(self.names) >= self.max_players
        self._fill_options(app)
        Clock.schedule_once(self._top_if_short, 0)

    def _fill_options(self, app) -> None:
        """The game's options as its schema declares them: a toggle for yes/no, one per choice for a
        list of ids, a number field (empty = the game's own value)."""
        box = self.ids.options
        box.clear_widgets()
        if not self.options:
            return
        box.add_widget(GrowLabel(text=app.t("options"), font_size=sp(20), bold=True))
        for option in self.options:
            name, value = option["name"], self.chosen[option["name"]]
            words = app.n(option["doc"])
            if option["type"] == "bool":
                shown = f"{words.rstrip('.')}: {app.t('yes' if value else 'no')}"
                box.add_widget(self._toggle(shown, bool(value), f"option_{name}",
                                            lambda n=name: self.set_option(n, None)))
            elif option["type"] == "ids":
                box.add_widget(GrowLabel(text=words, font_size=sp(17)))
                for key, label in option["choices"].items():
                    box.add_widget(self._toggle(app.n(label), key in value, f"option_{name}_{key}",
                                                lambda n=name, k=key: self.set_option(n, k)))
            else:
                box.add_widget(GrowLabel(text=words, font_size=sp(17)))
                hint = app.t("auto", min=option["min"], max=option["max"])
                field = TextInput(text=str(value), hint_text=hint, input_filter="int", multiline=False,
                                  write_tab=False, font_size=sp(20), size_hint_y=None, height=dp(48))
                field.wid = f"option_{name}"
                field.bind(text=lambda _field, text, n=name: self.chosen.__setitem__(n, text))
                box.add_widget(field)

    @staticmethod
    def _toggle(text: str, on: bool, wid: str, tapped) -> FitButton:
        button = FitButton(text=text, height=dp(52), bg=list(theme.SELECTED if on else theme.BUTTON))
        button.wid = wid
        button.bind(on_release=lambda _b: tapped())
        return button

    def set_option(self, name: str, key: str | None) -> None:
        """Flip a yes/no option, or one choice of a list option; the player range follows (the
        Gladiadores expansion takes a fifth player)."""
        value = self.chosen[name]
        if key is None:
            self.chosen[name] = not value
        else:
            self.chosen[name] = sorted(set(value) ^ {key})
        self.min_players, self.max_players = player_range(self.data, self.chosen)
        del self.names[self.max_players:]
        del self.colours[self.max_players:]
        self.first = min(self.first, len(self.names) - 1)
        self.refresh()

    def _top_if_short(self, *_) -> None:
        """Keep a list shorter than the view at the top (not where the last scroll left it)."""
        if self.ids.rows.height <= self.ids.scroll.height:
            self.ids.scroll.scroll_y = 1

    def placeholder(self, seat: int) -> str:
        """The hint of an empty name field ("Player 2")."""
        return App.get_running_app().t("player_n", n=seat + 1)

    def add_player(self, refresh: bool = True) -> None:
        """Add an empty seat, up to the game's maximum."""
        if len(self.names) >= self.max_players:
            return
        self.names.append("")
        free = [c for c in COLOUR_IDS if c not in self.colours]
        self.colours.append(free[0] if free else COLOUR_IDS[0])
        if refresh:
            self.refresh()

    def remove(self, seat: int) -> None:
        """Remove a seat, or say why not when the game needs more players."""
        if len(self.names) <= self.min_players:
            self.error = App.get_running_app().t("too_few", min=self.min_players)
            return
        del self.names[seat]
        del self.colours[seat]
        self.first = min(self.first, len(self.names) - 1) if self.first != seat else 0
        self.refresh()

    def move(self, seat: int, step: int) -> None:
        """Move a seat one place up or down (``step`` -1 or 1), its colour and first-player mark too."""
        other = seat + step
        if not 0 <= other < len(self.names):
            return
        for items in (self.names, self.colours):
            items[seat], items[other] = items[other], items[seat]
        if self.first in (seat, other):
            self.first = other if self.first == seat else seat
        self.refresh()

    def next_colour(self, seat: int) -> None:
        """Cycle a seat's colour through those no one else has."""
        taken = set(self.colours) - {self.colours[seat]}
        start = COLOUR_IDS.index(self.colours[seat])
        for step in range(1, len(COLOUR_IDS) + 1):
            candidate = COLOUR_IDS[(start + step) % len(COLOUR_IDS)]
            if candidate not in taken:
                self.colours[seat] = candidate
                break
        self.refresh()

    def set_first(self, seat: int) -> None:
        """Make ``seat`` the first player."""
        self.first = seat
        self.refresh()

    def random_first(self) -> None:
        """Draw the first player at random."""
        self.set_first(random.randrange(len(self.names)))

    def colour_rgba(self, colour: str):
        """The colour id as RGBA."""
        return rgba(colour)

    def start(self) -> None:
        """Check the names and start the game; the seats are rotated so the starter comes first."""
        app = App.get_running_app()
        try:  # the engine says what is wrong with the names ("falta el nombre del jugador 2")
            names = player_names(self.names)
            turn = self.first  # rotate so the starter is seat 0: the order round the table is kept
            self.error = ""
            app.new_game(self.game, names[turn:] + names[:turn], self.colours[turn:] + self.colours[:turn],
                         options=dict(self.chosen))
        except IllegalAction as exc:
            self.error = app.n(exc.text)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
