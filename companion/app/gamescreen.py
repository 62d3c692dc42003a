"""What every game screen shares: the undo bar, the status line, the error banner, the recent
log, and a body that the game's own screen fills from ``app.state``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from ludoteca.companion.engine.common import move_refusal, refusal_of_all, refusals

from . import theme
from .tableclock import ClockBar  # noqa: F401  (used in gamescreen.kv)
from .widgets import Counter, FitButton, FitLabel, GrowLabel, Tile, rgba


#: The height of a button that shows why its move is refused (its text and the engine's reason).
REASON_HEIGHT = dp(72)


class GameScreen(Screen):
    """Base of the three game screens: subclasses implement :meth:`fill`."""

    status = StringProperty("")
    game_title = StringProperty("")
    #: The open panel (a choice in progress), e.g. ``("build",)``; ``()`` when none is open.
    mode: tuple = ()
    #: The ``wid`` of the widget just tapped: the next refresh keeps it where it is in the view.
    hold: str = ""
    #: True when the last tap opened a panel: the next refresh brings it into view.
    opened: bool = False

    def refresh(self) -> None:
        """Rebuild the body from ``app.state`` and show the last log lines."""
        app = App.get_running_app()
        state = app.state or {}
        self.game_title = app.game_name(state.get("game", self.name))
        body = self.ids.body
        self._pool = getattr(self, "_next", {})
        self._next = {}
        self._spare = getattr(self, "_made", {})
        self._made = {}
        self.ids.clockbar.follow(state)
        held = self._held_place(self.hold)
        self.hold = ""
        opened, self.opened = self.opened, False
        self._panel_from = None
        body.clear_widgets()
        self.ids.footer.clear_widgets()
        self.fill(app, state, body)
        if held is not None:
            self._keep_place(*held)
        elif not self.mode:
            self.ids.scroll.scroll_y = 1
        elif opened and self._panel_from is not None and len(body.children) > self._panel_from:
            self._show_panel(body.children[:len(body.children) - self._panel_from])
        lines = state.get("log") or []
        self.ids.log.text = "\n".join(app.n(line) for line in lines[-3:])

    def _held_place(self, wid: str) -> tuple[str, float] | None:
        """``wid`` and how far its top is below the top of the view (before a refresh), or None."""
        widget = self._pool.get(wid) if wid else None
        if widget is None or widget.parent is None:
            return None
        return wid, (self.ids.body.top - widget.top) - self._scrolled()

    def _scrolled(self) -> float:
        """How far (in pixels) the view is scrolled down from the top of the body."""
        scroll, body = self.ids.scroll, self.ids.body
        return (1 - scroll.scroll_y) * max(body.height - scroll.height, 0)

    def _scroll_down(self, offset: float) -> None:
        """Scroll the view ``offset`` pixels down from the top of the body (as far as it goes)."""
        scroll, body = self.ids.scroll, self.ids.body
        room = body.height - scroll.height
        if room > 0:
            scroll.scroll_y = min(1.0, max(0.0, 1 - offset / room))

    def _keep_place(self, wid: str, below_top: float) -> None:
        """Once the new body is laid out, scroll so that ``wid`` is where it was in the view."""
        def place(_dt) -> None:
            widget = self._next.get(wid)
            if widget is not None and widget.parent is not None:
                self._scroll_down((self.ids.body.top - widget.top) - below_top)
        # the body's height follows its children a frame after they are added
        Clock.schedule_once(lambda dt: Clock.schedule_once(place, 0), 0)

    def panel_starts(self, body) -> None:
        """The widgets added to ``body`` from now on are the open panel: shown in view when it opens."""
        self._panel_from = len(body.children)

    def _show_panel(self, widgets: list) -> None:
        """Once laid out, scroll the panel made of ``widgets`` into view (its top at the top of the view
        when it is not wholly in sight), so that a tap that opens a panel below the fold shows it."""
        def show(_dt) -> None:
            if any(w.parent is None for w in widgets):
                return
            top, bottom = max(w.top for w in widgets), min(w.y for w in widgets)
            view_top = self.ids.body.top - self._scrolled()
            if top > view_top or bottom < view_top - self.ids.scroll.height:
                self.scroll_to_top(widgets[-1])
        Clock.schedule_once(lambda dt: Clock.schedule_once(show, 0), 0)

    def scroll_to_top(self, widget) -> None:
        """Scroll the body so that ``widget`` is at the top of the view (the question just asked)."""
        if widget.parent is not None:
            self._scroll_down(self.ids.body.top - widget.top)

    def on_enter(self, *_args) -> None:
        """The play is in front: its clock counts again (see :meth:`GameClock.back`)."""
        from .tableclock import game_clock

        self._clock = game_clock(App.get_running_app())
        if self._clock is not None:
            self._clock.back()
            self.ids.clockbar.tick()

    def on_leave(self, *_args) -> None:
        """Another screen is in front (home, history, the final score): the clock stops counting."""
        clock, self._clock = getattr(self, "_clock", None), None
        if clock is not None:
            clock.away()

    def fill(self, app, state: dict, body) -> None:
        """Add the game's own widgets for ``state`` to ``body`` (each game screen writes its own)."""
        raise NotImplementedError

    def send(self, action: dict) -> bool:
        """Send an action (whether the engine took it); any action but a correction (``adjust``)
        closes the open panel."""
        if action["action"] != "adjust":
            self.close_panel()
        return App.get_running_app().act(action)

    def close_panel(self) -> None:
        """Forget the open panel (a screen with more choices in progress forgets those too)."""
        self.mode = ()

    def set_mode(self, *mode) -> None:
        """Open the panel ``mode``, or close it when it is the one already open."""
        self.mode = () if self.mode == mode else mode
        self.opened = bool(self.mode)
        self.refresh()

    def entry(self, kind: str, entry_id: str) -> dict:
        """A data entry of this game by id, or a stand-in naming the id (for ids the data does not know)."""
        try:
            return self.data.get(kind, entry_id)
        except KeyError:
            return {"id": entry_id, "name": {"es": entry_id, "en": entry_id}}

    # -- small builders the game screens share ------------------------------------------------
    def reuse(self, wid: str, cls: type):
        """The widget of the same ``wid`` from the last refresh (detached), so a tap rebuilds fast."""
        widget = self._pool.pop(wid, None)
        if widget is None or type(widget) is not cls or wid in self._next:
            return None
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        return widget

    def keep(self, wid: str, widget):
        """Remember ``widget`` under ``wid`` for the next refresh; return it."""
        self._next.setdefault(wid, widget)
        return widget

    def button(self, text: str, wid: str, on_tap: Callable[[], Any], bg=None, height: float = dp(52),
               disabled: bool = False, font: float = sp(18)) -> FitButton:
        """A button that calls ``on_tap`` (reused from the last refresh when it has the same ``wid``)."""
        button = self.reuse(wid, FitButton)
        if button is None:
            button = FitButton(wid=wid)
            button.bind(on_release=lambda b: b.payload() if b.payload else None)
        button.text, button.height, button.base_font, button.disabled = text, height, font, disabled
        button.why = ""
        button.bg = list(bg) if bg is not None else list(theme.BUTTON)
        button.payload = on_tap
        return self.keep(wid, button)

    def tile(self, text: str, wid: str, bg=None, height: float = dp(48), font: float = sp(16)) -> Tile:
        """A coloured box to read, not to tap (reused from the last refresh when it has the same ``wid``)."""
        tile = self.reuse(wid, Tile) or Tile(wid=wid)
        tile.text, tile.height, tile.base_font = text, height, font
        tile.bg = list(bg) if bg is not None else list(theme.BUTTON)
        return self.keep(wid, tile)

    def why_not(self, action: dict) -> str:
        """Why the engine refuses ``action`` now, in the app's language ('' when it is allowed)."""
        app = App.get_running_app()
        session = app.session
        [reason] = refusals(session.module.MOVES, session.state, session.data, [action])
        return app.n(reason) if reason else ""

    def move_why_not(self, name: str) -> str:
        """Why no form of the move ``name`` is open now, in the app's language ('' when one is)."""
        app = App.get_running_app()
        session = app.session
        reason = move_refusal(session.module.MOVES, session.state, session.data, name)
        return app.n(reason) if reason else ""

    def refused_button(self, text: str, wid: str, reason: str, on_tap: Callable[[], Any], bg=None,
                       height: float = dp(52), **kwargs) -> FitButton:
        """A button for a move: when ``reason`` (the engine's) says why it is refused now, the button is
        disabled, shows the reason under its text and is tall enough to read it."""
        if not reason:
            return self.button(text, wid, on_tap, bg=bg, height=height, **kwargs)
        button = self.button(f"{text}\n{reason}", wid, on_tap, bg=bg, height=max(height, REASON_HEIGHT),
                             disabled=True, **kwargs)
        button.why = reason
        return button

    def why_none(self, actions: list[dict]) -> str:
        """Why the engine refuses every one of ``actions`` now, in the app's language ('' when one is
        allowed): a button that opens a choice among them."""
        app = App.get_running_app()
        session = app.session
        reason = refusal_of_all(session.module.MOVES, session.state, session.data, actions)
        return app.n(reason) if reason else ""

    def choices(self, name: str) -> list[dict]:
        """Every form of move ``name`` the engine would try now (its candidates), legal or not: a panel
        shows each, the refused ones disabled with their reason."""
        session = App.get_running_app().session
        move = session.module.MOVES[name]
        if move.candidates is None:
            return []
        return [{"action": name, **args} for args in move.candidates(session.state, session.data)]

    def action_button(self, text: str, wid: str, action: dict, bg=None, **kwargs) -> FitButton:
        """A button that sends ``action``; when the engine refuses it now, the button is disabled and
        shows the engine's reason under its text."""
        return self.refused_button(text, wid, self.why_not(action), lambda: self.send(action), bg=bg, **kwargs)

    def move_button(self, text: str, wid: str, name: str, on_tap: Callable[[], Any], bg=None,
                    **kwargs) -> FitButton:
        """A button that opens the choices of move ``name`` (``on_tap``); disabled with the engine's
        reason when no form of the move is open now."""
        return self.refused_button(text, wid, self.move_why_not(name), on_tap, bg=bg, **kwargs)

    def even_grid(self, cols: int, *buttons) -> GridLayout:
        """A grid whose buttons in one row share the row's tallest height (a refused one is taller)."""
        for start in range(0, len(buttons), cols):
            row = buttons[start:start + cols]
            tallest = max(b.height for b in row)
            for b in row:
                b.height = tallest
        return self.grid(cols, *buttons)

    def spare(self, cls: type):
        """A plain widget of ``cls`` from the last refresh (detached and emptied), else a new one."""
        pool = self._spare.get(cls) or []
        widget = pool.pop() if pool else cls()
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        self._made.setdefault(cls, []).append(widget)
        return widget

    def heading(self, text: str, colour=None, font: float = sp(20), wid: str = "") -> GrowLabel:
        """A bold label."""
        return self.note(text, font, bold=True, colour=colour, wid=wid)

    def note(self, text: str, font: float = sp(16), bold: bool = False, colour=None, wid: str = "") -> GrowLabel:
        """A label that grows to fit its text."""
        label = self.spare(GrowLabel)
        label.text, label.font_size, label.bold, label.wid = text, font, bold, wid
        label.color = colour if colour is not None else theme.TEXT
        return label

    def grid(self, cols: int, *children) -> GridLayout:
        """A grid of ``cols`` columns as tall as its children."""
        grid = self.spare(GridLayout)
        grid.clear_widgets()
        if grid.size_hint_y is not None:
            grid.size_hint_y = None
            grid.spacing = dp(4)
            grid.bind(minimum_height=grid.setter("height"))
        grid.cols = cols
        for child in children:
            grid.add_widget(child)
        return grid

    def counter(self, title: str, value: Any, wid: str, changer: Callable[[str, int], Any]) -> Counter:
        """A titled value with - / + buttons that call ``changer(wid, delta)``."""
        counter = self.reuse(wid, Counter)
        if counter is None:
            counter = Counter(key=wid, wid=wid)
            counter.ids.minus.wid = f"{wid}_minus"
            counter.ids.plus.wid = f"{wid}_plus"
        counter.title, counter.value, counter.changer = title, str(value), changer
        return self.keep(wid, counter)

    def player_header(self, app, seat: int, player: dict, active: bool, extra: str = "") -> PlayerBand:
        """A coloured band with a player's name (and a marker when it is their turn), reused from the
        last refresh so a tap does not build it again."""
        wid = f"band_{seat}"
        band = self.reuse(wid, PlayerBand) or PlayerBand()
        band.show(app.colour_of(seat), seat, f"{'» ' if active else ''}{player.get('name', '')}{extra}", active)
        return self.keep(wid, band)


class PlayerBand(BoxLayout):
    """A player's band: the colour mark with the seat number, the name, the colour behind (dimmed
    when it is not their turn)."""

    def __init__(self, **kwargs: Any):
        super().__init__(size_hint_y=None, height=dp(48), padding=(dp(4), 0), **kwargs)
        from kivy.graphics import Color, RoundedRectangle

        from .marks import ColourMark

        self.badge = ColourMark()
        self.label = FitLabel(base_font=sp(22), bold=True)
        self.add_widget(self.badge)
        self.add_widget(self.label)
        with self.canvas.before:
            self._colour = Color(*theme.TEXT)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)])
        self.bind(pos=lambda _w, v: setattr(self._rect, "pos", v), size=lambda _w, v: setattr(self._rect, "size", v))

    def show(self, colour_id: str, seat: int, text: str, active: bool) -> None:
        """Show this player's colour, seat number and name."""
        self.badge.colour_id, self.badge.seat, self.badge.wid = colour_id, seat, f"mark_{seat}"
        self.label.text = text
        colour = rgba(colour_id)
        self._colour.rgba = colour if active else theme.dim(colour)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
