"""The print kit engine: card data -> faces (Jinja2 SVG) -> sheets with bleed and crop marks -> vector PDF.

Modules, one concern each: :mod:`units` (mm <-> pt), :mod:`model` (Face, Component, Options),
:mod:`sheets` (paper and sheet kinds as data, grid geometry), :mod:`fonts` (fontconfig and text
fitting), :mod:`templating` (Jinja2), :mod:`compose` (one SVG per page), :mod:`render` (SVG -> PDF with a
page cache), :mod:`build` (orchestration, manifest, print guide), :mod:`deck` (anyone's CSV/YAML deck),
:mod:`png` (PNG faces and Tabletop Simulator sheets), :mod:`calibration` (duplex offset page),
:mod:`cli` (the ``build`` and ``deck`` sub-commands).
"""

from ludoteca import one_name

one_name(__name__)
