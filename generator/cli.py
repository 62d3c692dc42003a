"""``ludoteca build`` and ``ludoteca deck``: the print kit and anyone's own deck.

Heavy modules (cairosvg, pypdf, reportlab) are imported only when a command runs; argparse only
when a command line is not one :func:`quick_args` reads.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

GAMES = ("ciudadelas", "el_mapa", "gladiadores")


def _refused(message: str) -> Exception:
    """The error argparse reports as a wrong value of an option's (imported when one is wrong)."""
    import argparse
    return argparse.ArgumentTypeError(message)


def _bleed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _refused(f"expected millimetres, got {text!r}") from None
    from .sheets import data
    top = float(data()["max_bleed"])
    if not 0 <= value <= top:
        raise _refused(f"must be between 0 and {top:g} mm, got {text}")
    return value


def _offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise _refused(f"expected two numbers X,Y in mm, got {text!r}") from None
    if abs(x) > 20 or abs(y) > 20:
        raise _refused(f"offsets beyond 20 mm are not a printer's error: {text}")
    return x, y


def _size(text: str) -> tuple[float, float]:
    parts = text.lower().replace("×", "x").split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        w, h = (float(p) for p in parts)
        if w <= 0 or h <= 0:
            raise ValueError
    except ValueError:
        raise _refused(f"expected WxH in mm (e.g. 63x88), got {text!r}") from None
    return w, h


def _dpi(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _refused(f"expected a whole number of dots per inch, got {text!r}") from None
    if not 50 <= value <= 1200:
        raise _refused(f"must be between 50 and 1200, got {value}")
    return value


def _url(text: str) -> str:
    """An http(s) address without spaces: where the output folder will be uploaded."""
    from urllib.parse import urlsplit
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in text) \
            or len(text) > 1000:
        raise _refused(f"expected an http:// or https:// address of at most 1000 "
                                         f"characters without spaces, got {text[:80]!r}")
    return text


def _paper(text: str) -> str:
    from .model import GeneratorError
    from .sheets import paper_size
    try:
        paper_size(text)
    except GeneratorError as exc:
        raise _refused(str(exc)) from None
    return text.lower().replace("×", "x").replace(" ", "")


def _shop(text: str) -> str:
    from .model import GeneratorError
    from .shop import profile
    try:
        return profile(text).id
    except GeneratorError as exc:
        raise _refused(str(exc)) from None


def _game(text: str) -> str:
    if text not in GAMES:
        raise _refused(f"unknown game {text!r} (choose from {', '.join(GAMES)})")
    return text


#: ``-q`` and ``-v`` exclude each other.
LOUD = ("--quiet", "--verbose")


def _shared(out_default: str) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """The options build, export-shop and deck share, as ``add_argument`` takes them: one list
    that registers them with argparse and that :func:`quick_args` reads."""
    return [
        (("--paper",), dict(type=_paper, default="a4",
                            help="a4 (default), letter, a3, tabloid, or WxH in mm (e.g. 320x450)")),
        (("--out",), dict(metavar="DIR", default=out_default, help=f"output folder ({out_default})")),
        (("--bleed",), dict(metavar="MM", type=_bleed, default=None, help="bleed around every face (3)")),
        (("--back-offset",), dict(metavar="X,Y", type=_offset, default=(0.0, 0.0),
                                  help="shift the backs by X,Y mm (read it off the calibration sheet)")),
        (("--layout",), dict(choices=("duplex", "fold"), default="duplex",
                             help="duplex: backs on the next page, printed double-sided (default); fold: "
                                  "fronts and backs side by side on one side, to fold, glue and cut")),
        (("--lang",), dict(choices=("es", "en"), default="es", help="es (default) or en")),
        (("--ink-saver",), dict(action="store_true", help="no full-bleed backgrounds")),
        (("--shop",), dict(metavar="PROFILE", type=_shop, default=None,
                           help="also the images a print shop expects, a listing of quantities and a ZIP "
                                "(profiles: mpc-poker, tgc-poker, generic-300)")),
        (("-q", "--quiet"), dict(action="store_true", help="no progress bar, no summary line")),
        (("-v", "--verbose"), dict(action="store_true", help="also list every file written")),
        (("--no-markers",), dict(dest="markers", action="store_false",
                                 help="leave out the scan markers of the scoring components")),
        (("--png",), dict(metavar="DPI", type=_dpi, default=None,
                          help="also one PNG per face and Tabletop Simulator sheets")),
        (("--tts-url",), dict(metavar="URL", type=_url, default=None,
                              help="with --png: the Tabletop Simulator objects load their images from "
                                   "URL/<file> (where you upload the output folder) instead of this "
                                   "computer's files")),
    ]


def _common(p: argparse.ArgumentParser, out_default: str) -> None:
    import re
    # "--back-offset -1.5,2" must read as a value, not as an unknown option
    p._negative_number_matcher = re.compile(r"^-\d[\d.,]*$|^-\.\d[\d.,]*$")
    loud = p.add_mutually_exclusive_group()
    for flags, keywords in _shared(out_default):
        (loud if flags[-1] in LOUD else p).add_argument(*flags, **keywords)


#: ``ludoteca deck``'s own arguments (before the shared ones), and what it sets besides them.
DECK_ARGUMENTS: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("data",), dict(metavar="DATA", nargs="?", help="a .csv (with header) or .yaml list of cards")),
    (("--init",), dict(metavar="DIR", default=None,
                       help="copy the example deck (cartas.csv, card.svg.j2, back.svg.j2) into DIR and stop")),
    (("--template",), dict(metavar="FACE.svg.j2", default=None,
                           help="the face template (default: the packaged example face)")),
    (("--back",), dict(metavar="BACK.svg.j2", default=None, help="the back template")),
    (("--size",), dict(metavar="WxH", type=_size, default=None,
                       help="card size in mm (default: the deck item of sheets.yaml, 63x88)")),
]
DECK_OUT = "output/deck"


def _deck_defaults() -> dict[str, Any]:
    return dict(func=run_deck, quick_exit=True,     # every file written and closed when it returns
                imports=("ludoteca.generator.build", "ludoteca.generator.deck"))


def quick_args(argv: list[str]):
    """``ludoteca deck ...`` read without argparse when :func:`ludoteca.cli.quick_parse` can
    (the same arguments argparse gives); None for any other command line."""
    if not argv or argv[0] != "deck":
        return None
    from ludoteca.cli import quick_parse
    return quick_parse("deck", argv[1:], DECK_ARGUMENTS + _shared(DECK_OUT), LOUD, _deck_defaults())


def register(sub: argparse._SubParsersAction) -> None:
    import argparse
    p = sub.add_parser("build", help="make the print-and-play PDFs",
                       description="Make print-ready PDF sheets of every component, a manifest "
                                   "and a print guide.")
    p.add_argument("games", nargs="*", metavar="GAME", type=_game,
                   help=f"games to build (default: all of {', '.join(GAMES)})")
    p.add_argument("--cards", metavar="DIR", default=None, help="read this copy of the card data")
    _common(p, "output")
    p.set_defaults(func=run_build, quick_exit=True,      # every file written and closed when it returns
                   imports=("ludoteca.generator.build",))

    e = sub.add_parser("export-shop", help="images for a print shop: the kit's cards, a ZIP and quantities",
                       description="Build the kit and, for every card a print shop profile fits, one "
                                   "image per face at the shop's pixel size and bleed, a listing of "
                                   "quantities and a ZIP to upload (same as build --shop PROFILE).")
    e.add_argument("profile", metavar="PROFILE", type=_shop, help="mpc-poker, tgc-poker or generic-300")
    e.add_argument("games", nargs="*", metavar="GAME", type=_game,
                   help=f"games to export (default: all of {', '.join(GAMES)})")
    e.add_argument("--cards", metavar="DIR", default=None, help="read this copy of the card data")
    _common(e, "output")
    e.set_defaults(func=run_export_shop, imports=("ludoteca.generator.build",))

    d = sub.add_parser("deck", help="lay out your own cards from a CSV or YAML file",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Lay out your own deck: one card per row (a 'count' column "
                                   "makes copies), one template for the face, one for the back.",
                       epilog="To start from a working example, copy it into a folder of yours:\n"
                              "  ludoteca deck --init my-deck\n"
                              "  ludoteca deck my-deck/cartas.csv --template my-deck/card.svg.j2 "
                              "--back my-deck/back.svg.j2\n"
                              "Each column of the data is a variable of the template ({{ name }}, "
                              "{{ cost }}).\nWithout --template, the packaged example face is used.")
    for flags, keywords in DECK_ARGUMENTS:
        d.add_argument(*flags, **keywords)
    _common(d, DECK_OUT)
    d.set_defaults(**_deck_defaults())


def _options(args: argparse.Namespace):
    from .model import GeneratorError, Options
    from .sheets import data
    if args.tts_url and not args.png:
        raise GeneratorError("--tts-url names where the PNGs will be: give --png DPI too")
    bleed = args.bleed if args.bleed is not None else float(data()["bleed"])
    return Options(lang=args.lang, paper=args.paper, ink_saver=args.ink_saver, bleed_mm=bleed,
                   back_offset_mm=tuple(args.back_offset), png_dpi=args.png,
                   layout=args.layout, quiet=args.quiet, shop=args.shop,
                   markers=getattr(args, "markers", True), tts_url=args.tts_url)


def _fail(message: str) -> int:
    print(f"ludoteca: error: {message}", file=sys.stderr)
    return 2


def run_build(args: argparse.Namespace) -> int:
    from .build import build, report
    from .model import GeneratorError
    try:
        summary = build(list(dict.fromkeys(args.games)), _options(args), Path(args.out), args.cards)
    except GeneratorError as exc:
        return _fail(str(exc))
    report(summary, verbosity=0 if args.quiet else 2 if args.verbose else 1)
    return 0


def run_export_shop(args: argparse.Namespace) -> int:
    args.shop = args.profile
    return run_build(args)


def example_files() -> dict[str, Path]:
    """The packaged example deck: its data and its two templates, by the names they are copied to."""
    from ludoteca import folder_of
    examples = folder_of("ludoteca.examples") / "deck"
    templates = folder_of("ludoteca.templates") / "deck"
    return {"cartas.csv": examples / "cartas.csv", "card.svg.j2": templates / "card.svg.j2",
            "back.svg.j2": templates / "back.svg.j2"}


def init_deck(folder: Path) -> int:
    """Copy the example deck into ``folder`` (never over a file that is there)."""
    from ludoteca.atomic import write_bytes
    files = example_files()
    clash = [name for name in files if (folder / name).exists()]
    if clash:
        return _fail(f"{folder}: {', '.join(clash)} already there; choose an empty folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, source in files.items():
            write_bytes(folder / name, source.read_bytes())
    except OSError as exc:
        return _fail(f"{folder}: cannot write there ({exc.strerror or exc})")
    print(f"example deck in {folder}: " + ", ".join(files))
    print(f"next: ludoteca deck {folder / 'cartas.csv'} --template {folder / 'card.svg.j2'} "
          f"--back {folder / 'back.svg.j2'}")
    return 0


def _deck_item() -> tuple[float, float]:
    from .sheets import data, item_size
    return item_size(data()["deck"]["item"])


def run_deck(args: argparse.Namespace) -> int:
    from .build import build_components, report
    from .deck import deck_component
    from .model import GeneratorError
    if args.init is not None:
        return init_deck(Path(args.init))
    if args.data is None:
        return _fail("deck: give the DATA file (or --init DIR to start from the example)")
    if args.template is None:
        args.template = str(example_files()["card.svg.j2"])
    try:
        roots: list[str] = []
        names: list[str | None] = []
        for given in (args.template, args.back):
            if given is None:
                names.append(None)
                continue
            path = Path(given)
            if not path.is_file():
                raise GeneratorError(f"template {given}: no such file")
            roots.append(str(path.resolve().parent))
            names.append(path.name)
        notes: list[str] = []
        comp = deck_component(Path(args.data), Path(args.template).name, names[1], args.size or _deck_item(),
                              notes=notes)
        summary = build_components([comp], _options(args), Path(args.out),
                                   roots=tuple(dict.fromkeys(roots)), flat=True, notes=notes)
    except GeneratorError as exc:
        return _fail(str(exc))
    report(summary, verbosity=0 if args.quiet else 2 if args.verbose else 1)
    return 0
