"""The print kit's jinja2 SVG templates (package data: one folder per game, plus ``deck/``)."""

from ludoteca import one_name

one_name(__name__)
