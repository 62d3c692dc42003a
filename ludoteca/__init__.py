"""Ludoteca: print-and-play kit and table companion for three Spanish board games."""

__version__ = "0.1.0"
