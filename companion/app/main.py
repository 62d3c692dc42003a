"""The app: a thin :class:`LudotecaApp` that wires the screens to the engine.

The engine (``companion.engine``) holds every rule and saves every action; the app only shows
``session.state`` and sends ``session.apply(...)``.  The app's own settings (language,
keep-awake, which game is open) live in a small JSON file (:mod:`.settings`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from ludoteca.companion.engine.common import notices
from ludoteca.companion.engine.setup import first_player_option

from .platform import Platform, platform_services
from .settings import Settings
from .strings import name, tr
from . import theme

GAME_SCREENS = ("ciudadelas", "el_mapa", "gladiadores")


class LudotecaApp(App):
    """Screens on one side, the engine's :class:`Store` and open :class:`Session` on the other."""

    lang = StringProperty("es")
    keep_awake = BooleanProperty(False)
    message = StringProperty("")
    state = ObjectProperty(None, allownone=True)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    caller_on = BooleanProperty(False)   # Ciudadelas: each call is said aloud
    caller_notice = StringProperty("")  # the caller's last call, or why nothing is heard

    def __init__(self, db_path: str | Path | None = None, settings_dir: str | Path | None = None,
                 platform: Platform | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.title = "Ludoteca"
        self.icon = str(Path(__file__).with_name("art") / "icon.png")
        self.db_path = db_path
        self.settings_dir = Path(settings_dir) if settings_dir else None
        self.platform = platform or platform_services()
        self.prefs = Settings()
        self.store: Any = None
        self.session: Any = None
        self.catalog: Any = None
        self.catalog_error = ""

    # -- strings ----------------------------------------------------------------------------
    def t(self, key: str, lang: str | None = None, **values: Any) -> str:
        """A UI string in the current language (kv passes ``app.lang`` to re-run on a switch)."""
        return tr(key, lang or self.lang, **values)

    def n(self, text: Any, lang: str | None = None) -> str:
        """One language of a ``{es, en}`` text."""
        return name(text, lang or self.lang)

    def game_data(self, game: str) -> Any:
        """The ``cards`` data of a game, or ``None`` when it could not be loaded."""
        if self.catalog is None:
            self.catalog = {}
        if game not in self.catalog:
            try:
                if self.store is not None:
                    self.catalog[game] = self.store.data(game)
                else:
                    from ludoteca import cards

                    self.catalog[game] = cards.load(games=(game,))[game]
            except Exception as exc:  # DataError or a broken install: shown, not fatal
                self.catalog_error = str(exc).splitlines()[0]
                return None
        return self.catalog[game]

    def game_name(self, game: str) -> str:
        """The displayed name of a game, in the app's language."""
        data = self.game_data(game)
        if data is not None and data.meta.get("name"):
            return self.n(data.meta["name"])
        return {"ciudadelas": "Ciudadelas", "el_mapa": "El Mapa", "gladiadores": "Gladiadores"}[game]

    # -- life cycle -------------------------------------------------------------------------
    def build(self) -> ScreenManager:
        """The screen manager with the home screen; the others are built when first shown."""
        from .home import HomeScreen

        from kivy.core.window import Window

        Window.clearcolor = theme.WINDOW
        from kivy.utils import platform

        if platform == "android":  # the app's private folder holds the database and the settings
            os.environ.setdefault("LUDOTECA_DB", os.path.join(self.user_data_dir, "ludoteca.db"))
            self.settings_dir = self.settings_dir or Path(self.user_data_dir)
        self.prefs = Settings.load(self.settings_dir, db=self.settings_db(), platform=platform)
        self.lang = self.prefs.lang
        self.keep_awake = self.prefs.keep_awake
        self.open_store()
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        return manager

    def screen(self, name: str):
        """A screen by name, built (its module imported, its .kv read) the first time it is needed,
        which keeps the start to the home screen short."""
        manager = self.root
        if name in GAME_SCREENS:
            return self.game_screen(name)
        if not manager.has_screen(name):
            if name == "players":
                from .players import PlayersScreen as cls
            elif name == "history":
                from .history import HistoryScreen as cls
            elif name == "final":
                from .final import FinalScreen as cls
            elif name == "stats":
                from .stats import StatsScreen as cls
            elif name == "scan":
                from .scan import ScanScreen as cls
            else:
                raise KeyError(name)
            manager.add_widget(cls(name=name))
        return manager.get_screen(name)

    def game_screen(self, game: str):
        """The screen of a game, built the first time it is needed (keeps start-up fast)."""
        manager = self.root
        if not manager.has_screen(game):
            if game == "ciudadelas":
                from .ciudadelas import CiudadelasScreen as cls
            elif game == "el_mapa":
                from .el_mapa import ElMapaScreen as cls
            else:
                from .gladiadores import GladiadoresScreen as cls
            manager.add_widget(cls(name=game))
        return manager.get_screen(game)

    def open_store(self) -> None:
        """Open the games database (a message says what went wrong or what was repaired)."""
        try:
            from ludoteca.companion.engine import Store
            from ludoteca.companion.engine.errors import StoreError
        except ImportError as exc:
            self.message = self.t("engine_missing", error=exc)
            return
        path = self.db_path or os.environ.get("LUDOTECA_DB") or None
        try:
            self.store = Store(path) if path else Store()
        except (StoreError, OSError) as exc:  # not our file, a full disk: said, and no games
            self.store = None
            self.message = self.t("db_error", error=str(exc).splitlines()[0])
            return
        notice = getattr(self.store, "notice", None)
        if notice:
            self.message = self.t("db_notice", text=self.n(notice))

    def on_start(self) -> None:
        """Reopen the game that was open last, else show the home screen."""
        self.platform.keep_awake(self.keep_awake)
        if self.prefs.open_game is not None and self.store is not None:
            try:
                self.session = self.store.open(self.prefs.open_game)
            except Exception:  # deleted or unreadable game: start at home
                self.session = None
                self.prefs.open_game = None
                self.save_prefs()
        if self.session is not None:
            self.show_session()
        else:
            self.go("home")

    def on_pause(self) -> bool:
        """Save the preferences and stop the play's clock; the app may be paused."""
        self.save_prefs()
        self.clock_away()
        return True

    def on_resume(self) -> None:
        """Ask again to keep the screen awake; the play's clock counts again if its screen is in front."""
        self.platform.keep_awake(self.keep_awake)
        current = self.root.current_screen if self.root is not None else None
        if self.root is not None and self.root.current in GAME_SCREENS:
            current.on_enter()

    def on_stop(self) -> None:
        """Save the preferences, stop the play's clock and close the database."""
        self.save_prefs()
        self.clock_away()
        close = getattr(self.store, "close", None)
        if close is not None:
            close()

    def clock_away(self) -> None:
        """The app leaves the front: the open play's clock stops counting (its screen keeps nothing)."""
        if self.root is not None and self.root.current in GAME_SCREENS:
            self.root.current_screen.on_leave()

    def save_prefs(self) -> None:
        """Save the language, keep-awake and open game."""
        self.prefs.lang = self.lang
        self.prefs.keep_awake = self.keep_awake
        self.prefs.open_game = self.session.id if self.session is not None else None
        self.prefs.save(self.settings_dir, db=self.settings_db())

    def settings_db(self) -> str | None:
        """The database the settings follow (``--db``, else ``$LUDOTECA_DB``)."""
        return str(self.db_path) if self.db_path else os.environ.get("LUDOTECA_DB")

    # -- navigation and settings ------------------------------------------------------------
    def go(self, screen: str) -> None:
        """Refresh a screen and show it."""
        manager = self.root
        target = self.screen(screen)
        refresh = getattr(target, "refresh", None)
        if refresh is not None:
            refresh()
        manager.current = screen
        Logger.info("Ludoteca: showing the %s screen", screen)

    def set_lang(self, lang: str) -> None:
        """Switch the language and redraw the current screen."""
        self.lang = lang
        self.save_prefs()
        current = self.root.current_screen
        if hasattr(current, "refresh"):
            current.refresh()

    def set_keep_awake(self, on: bool) -> None:
        """Keep the screen awake during a game, or not."""
        self.keep_awake = bool(on)
        self.platform.keep_awake(self.keep_awake)
        self.save_prefs()

    # -- games ------------------------------------------------------------------------------
    def new_game(self, game: str, players: list[str], colours: list[str],
                 options: dict | None = None) -> None:
        """Start a game with these players (seat order) and show its screen."""
        options = dict(options or {})
        data = self.game_data(game)
        first = first_player_option(data) if data is not None else None
        if first is not None:  # seat 0 is the player picked on the Players screen
            options.setdefault(first, players[0])
        self.session = self.store.new_game(game, players=players, options=options)
        self.prefs.colours[str(self.session.id)] = list(colours)
        self.message = ""
        self.save_prefs()
        self.show_session()

    def resume(self, game_id: Any) -> None:
        """Open a saved game and show it."""
        self.session = self.store.open(game_id)
        self.message = ""
        self.save_prefs()
        self.show_session()

    def close_game(self) -> None:
        """Leave the open game (it stays saved) and go home."""
        if self.caller_on:
            self.toggle_caller()
        self.session = None
        self.state = None
        self.message = ""
        self.save_prefs()
        self.go("home")

    # -- the caller's voice (Ciudadelas) ----------------------------------------------------
    def speech(self) -> Any:
        """The platform's one voice, in the app's language; trouble is shown on the clock bar."""
        voice = self.platform.speech(self.lang)
        voice.on_trouble = lambda notice: Clock.schedule_once(lambda _dt: self._voice_trouble(notice), 0)
        return voice

    def _voice_trouble(self, notice: dict) -> None:
        if self.caller_on:
            self.caller_notice = self.n(notice)

    def toggle_caller(self) -> None:
        """Turn the caller's voice on (every call is said from now on) or off (stop speaking)."""
        voice = self.speech()
        self.caller_on = not self.caller_on
        if not self.caller_on:
            voice.stop()
            self.caller_notice = ""
        else:
            self.caller_notice = self.n(voice.notice) if voice.notice else self.t("caller_on")

    def say_call(self, number: int) -> None:
        """Say the call of the character ``number`` (the engine's call just made), when the voice is on."""
        if not self.caller_on:
            return
        from ludoteca.companion.engine.caller import call_line

        line = call_line(self.game_data("ciudadelas"), number, self.lang)
        voice = self.speech()
        voice.say(line)
        shown = self.t("voice_calling", text=line)
        self.caller_notice = f"{self.n(voice.notice)}  {shown}" if voice.notice else shown

    def colour_of(self, seat: int, game_id: str | None = None) -> str:
        """The colour id of a seat in a game (the open one unless ``game_id`` names another): the one
        chosen on the Players screen, else the palette's in seat order.  Play, the final screen and
        the statistics all ask here, so a player keeps one colour everywhere."""
        from .widgets import COLOUR_IDS

        if game_id is None and self.session is not None:
            game_id = self.session.id
        colours = self.prefs.colours.get(str(game_id), []) if game_id is not None else []
        return colours[seat] if seat < len(colours) else COLOUR_IDS[seat % len(COLOUR_IDS)]

    def show_session(self) -> None:
        """Show the open game: its screen, or the final scoring once it is over."""
        self.state = self.session.state
        self.can_undo = bool(getattr(self.session, "can_undo", False))
        self.can_redo = bool(getattr(self.session, "can_redo", False))
        target = "final" if self.state.get("finished") else self.session.game
        screen = self.screen(target)
        screen.refresh()
        self.root.current = target

    def act(self, action: dict) -> bool:
        """Send one action to the engine (saved before it returns); show its error if refused."""
        if self.session is None:
            return False
        from ludoteca.companion.engine import IllegalAction

        before = list((self.session.state or {}).get("log") or [])
        try:
            self.session.apply(action)
        except IllegalAction as exc:
            self.message = self.n(getattr(exc, "text", None) or str(exc))
            return False
        self.show_session()
        self.message = "" if action.get("action") in ("undo", "redo") else \
            "  ".join(self.n(line) for line in notices(before, self.session.state.get("log") or []))
        return True

    def undo(self) -> bool:
        """Undo the last action; whether it was done."""
        return self.act({"action": "undo"})

    def redo(self) -> bool:
        """Redo the last undone action; whether it was done."""
        return self.act({"action": "redo"})


def run(db_path: str | None = None) -> int:
    """Open the app window and run until it is closed."""
    LudotecaApp(db_path=db_path).run()
    return 0
