"""Small widgets every screen shares: labels and buttons that shrink their text to fit,
a +/- counter, and the palette of player colours."""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from . import theme

#: Player colours: id, RGBA, name (kept in the theme).
PALETTE = theme.PLAYER_COLOURS
COLOUR_IDS = [c[0] for c in PALETTE]


def rgba(colour_id: str | None) -> tuple[float, float, float, float]:
    """The RGBA of a palette colour (grey for an unknown one)."""
    for cid, value, _ in PALETTE:
        if cid == colour_id:
            return value
    return PALETTE[-1][1]


class FitMixin:
    """Wrap the text to the widget's width and shrink the font until it fits its box."""

    base_font = NumericProperty(sp(18))
    min_font = NumericProperty(sp(9))
    pad = NumericProperty(dp(6))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._fit_trigger = Clock.create_trigger(self.fit, -1)
        self.bind(size=self._fit_trigger, text=self._fit_trigger, base_font=self._fit_trigger)
        self._fit_trigger()

    def fit(self, *_) -> None:
        """Render at the base size, then shrink (never below ``min_font``) until the text fits
        without breaking a word across lines.  Results are remembered per text and box."""
        if self.width <= 1 or self.height <= 1:
            return
        self.text_size = (max(self.width - 2 * self.pad, 1), None)
        key = (self.text, round(self.width), round(self.height), self.base_font, self.min_font, self.bold,
               self.font_name, self.pad)
        known = _FITTED.get(key)
        if known is not None:
            self.font_size = known
            return
        room_w, room_h = self.width - self.pad, self.height - self.pad
        words = [w for w in self.text.replace("[b]", "").replace("[/b]", "").split() if w]
        longest = max(words, key=len) if words else ""
        size = self.base_font
        while True:
            self.font_size = size
            self.texture_update()
            tw, th = self.texture_size
            ww = _word_width(longest, size, self.bold, self.font_name) if longest else 0
            if (tw <= room_w and th <= room_h and ww <= self.text_size[0] - 1) or size <= self.min_font:
                break
            ratio = min(room_w / max(tw, ww, 1), room_h / max(th, 1))
            size = max(self.min_font, min(size - sp(1), size * max(ratio, 0.5) ** 0.5))
        if len(_FITTED) > 5000:
            _FITTED.clear()
        _FITTED[key] = size


#: Font sizes already fitted, by (text, box, font settings).
_FITTED: dict[tuple, float] = {}


def _word_width(word: str, size: float, bold: bool, font_name: str) -> float:
    """The width of one word on one line at this font size."""
    label = CoreLabel(text=word, font_size=size, bold=bold, font_name=font_name)
    label.refresh()
    return label.texture.size[0] if label.texture else 0


class FitLabel(FitMixin, Label):
    """A label of fixed size whose text is never cut: it wraps and then shrinks."""


class FitButton(FitMixin, ButtonBehavior, Label):
    """A flat button (at least 48 dp tall) whose text wraps and shrinks to fit.  Disabled, it is drawn
    as a dashed outline with grey text (not a filled button) and a tap on it shows ``why``."""

    bg = ListProperty(list(theme.BUTTON))
    payload = ObjectProperty(None, allownone=True)
    wid = StringProperty("")  # a name the tests press it by
    why = StringProperty("")  # why it is disabled, shown when it is tapped anyway

    def on_touch_down(self, touch):
        if self.disabled and self.collide_point(*touch.pos):
            if self.why and not getattr(touch, "is_mouse_scrolling", False):
                show_why(self, self.why)
            return True
        return super().on_touch_down(touch)


class WhyBubble(Label):
    """The note a tap on a disabled button shows beside it for a few seconds: why it cannot be used."""

    wid = StringProperty("why_bubble")


_bubble: list = []


def hide_why() -> None:
    """Take away the note of a tap on a disabled button, if one is shown."""
    from kivy.core.window import Window

    for old in _bubble:
        Window.remove_widget(old)
    _bubble.clear()


def show_why(widget, text: str, seconds: float = 4.0) -> WhyBubble:
    """Show ``text`` in a bubble just above ``widget`` (below it near the top of the window), inside
    the window, replacing any bubble already shown; it goes away after ``seconds`` or the next tap."""
    from kivy.core.window import Window

    hide_why()
    bubble = WhyBubble(text=text, size_hint=(None, None))
    bubble.text_size = (min(Window.width - dp(24), dp(420)) - dp(20), None)
    bubble.texture_update()
    bubble.size = (bubble.texture_size[0] + dp(20), bubble.texture_size[1] + dp(16))
    x, y = widget.to_window(widget.center_x, widget.top)
    top = y + dp(4) + bubble.height
    if top > Window.height:
        y = widget.to_window(widget.x, widget.y)[1] - dp(4) - bubble.height
    else:
        y = y + dp(4)
    bubble.pos = (min(max(dp(8), x - bubble.width / 2), Window.width - bubble.width - dp(8)), max(dp(8), y))
    Window.add_widget(bubble)
    _bubble.append(bubble)

    def gone(*_):
        if bubble in _bubble:
            Window.remove_widget(bubble)
            _bubble.remove(bubble)
        Window.unbind(on_touch_down=gone)
    Clock.schedule_once(gone, seconds)
    Clock.schedule_once(lambda _dt: Window.bind(on_touch_down=gone), 0)
    return bubble


class Tile(FitLabel):
    """A coloured box of text that is not a button: flat, square corners, a thin border (something to
    read, such as a rival's gladiator or a district in a city)."""

    bg = ListProperty(list(theme.BUTTON))
    wid = StringProperty("")


class GrowLabel(Label):
    """A label that wraps at its width and grows in height to show all of its text."""


class Counter(BoxLayout):
    """A big number with - and + buttons; ``changer(key, delta)`` is called on a tap."""

    title = StringProperty("")
    value = StringProperty("0")
    key = StringProperty("")
    wid = StringProperty("")
    changer = ObjectProperty(None, allownone=True)

    def tap(self, delta: int) -> None:
        """Report a tap on - or + to the changer."""
        if self.changer is not None:
            self.changer(self.key, delta)


class UndoBar(BoxLayout):
    """The top bar of every game screen: home, title, undo and redo (always one tap away)."""

    title = StringProperty("")


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
