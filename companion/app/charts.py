"""Charts drawn with Kivy's own graphics (no matplotlib on the phone): a stacked bar per player and
scores over time.  Each chart keeps what it drew (:attr:`StackedBars.drawn`, :attr:`LineChart.drawn`)
so tests can read the drawing back."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from . import theme
from .widgets import GrowLabel



def segment_colour(index: int) -> tuple[float, float, float, float]:
    """The colour of the ``index``-th breakdown line."""
    return theme.CHART_SERIES[index % len(theme.CHART_SERIES)]


class Bar(Widget):
    """One horizontal bar of positive segments ``[(key, value, rgba)]`` on a common ``scale``."""

    segments = ListProperty([])
    scale = ListProperty([1.0])

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.drawn: list[tuple[str, float, float]] = []
        self.bind(pos=self.redraw, size=self.redraw, segments=self.redraw, scale=self.redraw)

    def redraw(self, *_: Any) -> None:
        """Draw each segment as wide as its share of the scale; remember (key, x, width)."""
        self.canvas.clear()
        self.drawn = []
        top = max(self.scale[0], 1e-9)
        x = self.x
        with self.canvas:
            Color(*theme.CHART_TRACK)
            Rectangle(pos=self.pos, size=self.size)
            for key, value, colour in self.segments:
                if value <= 0:
                    continue
                width = self.width * value / top
                Color(*colour)
                Rectangle(pos=(x, self.y + dp(3)), size=(max(width - dp(1), 1), self.height - dp(6)))
                self.drawn.append((key, x - self.x, width))
                x += width


class StackedBars(BoxLayout):
    """A stacked bar per player (name and total on the left) with a legend of the breakdown lines."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("spacing", dp(4))
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.bars: dict[str, Bar] = {}

    def show(self, rows: list[dict], labels: dict[str, str]) -> None:
        """``rows``: ``[{"name", "total", "colour", "mark", "breakdown": {key: value}}]`` in display order;
        ``labels``: the display name of each breakdown key."""
        self.clear_widgets()
        self.bars = {}
        keys: list[str] = []
        for row in rows:
            for key in row.get("breakdown") or {}:
                if key not in keys:
                    keys.append(key)
        colours = {key: segment_colour(i) for i, key in enumerate(keys)}
        scale = max([sum(max(0, _num(v)) for v in (r.get("breakdown") or {}).values()) for r in rows] + [1])
        for row in rows:
            line = BoxLayout(size_hint_y=None, height=dp(40), spacing=dp(6))
            name = GrowLabel(text=f"{row.get('mark', '')} {row['name']} · {row['total']}".strip(),
                             font_size=sp(15), size_hint_x=0.38, color=row.get("colour") or theme.TEXT)
            name.bind(height=lambda w, h, line=line: setattr(line, "height", max(dp(40), h)))
            bar = Bar(segments=[(k, _num(v), colours[k]) for k, v in (row.get("breakdown") or {}).items()],
                      scale=[scale])
            bar.wid = f"bar_{row['name']}"
            self.bars[row["name"]] = bar
            line.add_widget(name)
            line.add_widget(bar)
            self.add_widget(line)
        legend = GridLayout(cols=2, size_hint_y=None, spacing=dp(4))
        legend.bind(minimum_height=legend.setter("height"))
        for key in keys:
            legend.add_widget(_Swatch(colours[key], labels.get(key, key)))
        self.add_widget(legend)


class _Swatch(BoxLayout):
    """A colour square and its label (one legend entry)."""

    def __init__(self, colour, text: str, **kwargs: Any):
        super().__init__(size_hint_y=None, height=dp(26), spacing=dp(4), **kwargs)
        square = Widget(size_hint_x=None, width=dp(18))
        with square.canvas:
            Color(*colour)
            rect = Rectangle(pos=square.pos, size=(dp(16), dp(16)))

        def place(widget: Widget, *_: Any) -> None:
            rect.pos = (widget.x, widget.y + (widget.height - dp(16)) / 2)

        square.bind(pos=place, size=place)
        label = GrowLabel(text=text, font_size=sp(13), halign="left")
        label.bind(height=lambda w, h: setattr(self, "height", max(dp(26), h)))
        self.add_widget(square)
        self.add_widget(label)


class LineChart(Widget):
    """Scores over time: one line per player, a dot per game, the lowest and highest score marked."""

    series = ListProperty([])  # [(name, rgba, [score, ...])], oldest first

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(200))
        super().__init__(**kwargs)
        self.drawn: dict[str, list[tuple[float, float]]] = {}
        self._labels: list[GrowLabel] = []
        self.bind(pos=self.redraw, size=self.redraw, series=self.redraw)

    def redraw(self, *_: Any) -> None:
        """Axes, then each series as a line with dots; remember the points (in widget coordinates)."""
        self.canvas.clear()
        for label in self._labels:
            self.remove_widget(label)
        self._labels = []
        self.drawn = {}
        values = [v for _, _, vals in self.series for v in vals]
        if not values:
            return
        low, high = min(values + [0]), max(values)
        span = (high - low) or 1
        longest = max(len(vals) for _, _, vals in self.series)
        left, bottom = dp(40), dp(20)
        width, height = max(self.width - left - dp(10), 1), max(self.height - bottom - dp(12), 1)

        def point(i: int, value: float) -> tuple[float, float]:
            x = left + (width * i / (longest - 1) if longest > 1 else width / 2)
            return x, bottom + height * (value - low) / span

        for value in (low, high):
            label = GrowLabel(text=_short(value), font_size=sp(12), size_hint=(None, None), width=left - dp(4),
                              halign="right", color=theme.NOTE_TEXT)
            label.pos = (self.x, self.y + point(0, value)[1] - label.height / 2)
            self.add_widget(label)
            self._labels.append(label)
        with self.canvas:
            Color(*theme.CHART_AXIS)
            Line(points=[self.x + left, self.y + bottom, self.x + left, self.y + bottom + height,
                         ], width=1)
            Line(points=[self.x + left, self.y + bottom, self.x + left + width, self.y + bottom], width=1)
            for name, colour, vals in self.series:
                pts = [point(i, v) for i, v in enumerate(vals)]
                self.drawn[name] = pts
                Color(*colour)
                if len(pts) > 1:
                    Line(points=[c for x, y in pts for c in (self.x + x, self.y + y)], width=dp(1.5))
                for x, y in pts:
                    Ellipse(pos=(self.x + x - dp(4), self.y + y - dp(4)), size=(dp(8), dp(8)))


def _num(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _short(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
