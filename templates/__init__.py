"""The print kit's jinja2 SVG templates (package data: one folder per game, plus ``deck/``)."""
