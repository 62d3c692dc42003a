"""Ludoteca companion: the game engine (no Kivy) and the phone app."""
