"""A player's mark: their colour paired with a shape and their seat number, so players are told
apart without seeing colour (each palette colour has its own shape)."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

#: The shape of each palette colour (see ``widgets.PALETTE``).
SHAPES = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond",
          "purple": "hexagon", "orange": "pentagon", "grey": "cross"}
#: Polygon corners drawn as an ``Ellipse`` with that many segments.
SEGMENTS = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}


def shape_of(colour_id: str) -> str:
    """The shape paired with a colour id."""
    return SHAPES.get(colour_id, "circle")


class ColourMark(Label):
    """The shape in the player's colour, outlined in white, with the seat number on it."""

    colour_id = StringProperty("red")
    seat = NumericProperty(0)

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (dp(40), dp(40)))
        kwargs.setdefault("font_size", sp(16))
        kwargs.setdefault("bold", True)
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, colour_id=self.redraw, seat=self.redraw)
        self.redraw()

    @property
    def shape(self) -> str:
        """The shape drawn (tests read it back)."""
        return shape_of(self.colour_id)

    def redraw(self, *_: Any) -> None:
        """Draw the shape under the number."""
        from . import theme
        from .widgets import rgba

        self.text = str(int(self.seat) + 1)
        side = min(self.width, self.height) - dp(4)
        x, y = self.center_x - side / 2, self.center_y - side / 2
        shape = self.shape
        self.canvas.before.clear()
        with self.canvas.before:
            for colour, grow in ((theme.TEXT, dp(2)), (rgba(self.colour_id), 0)):
                Color(*colour)
                s = side + 2 * grow
                px, py = x - grow, y - grow
                if shape == "square":
                    Rectangle(pos=(px, py), size=(s, s))
                elif shape == "cross":
                    Rectangle(pos=(px + s / 3, py), size=(s / 3, s))
                    Rectangle(pos=(px, py + s / 3), size=(s, s / 3))
                else:
                    Ellipse(pos=(px, py), size=(s, s), segments=SEGMENTS.get(shape, 48))
            if shape == "triangle":  # a triangle leaves little room: underline the number instead
                Color(*theme.TEXT)
                Line(points=[self.center_x - dp(5), y + dp(4), self.center_x + dp(5), y + dp(4)], width=1)


class ColourButton(ButtonBehavior, ColourMark):
    """A player's mark that can be tapped (the Players screen: a tap picks the next colour)."""

    wid = StringProperty("")  # a name the tests press it by
