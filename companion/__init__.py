"""Ludoteca companion: the game engine (no Kivy) and the phone app."""

from ludoteca import one_name

one_name(__name__)
