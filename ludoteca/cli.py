"""The ludoteca command: one dispatcher, each part registers its own sub-commands.

Every sub-command returns an exit code: 0 done, 1 failed, 2 bad input or options.
Bad input is reported as clear lines on stderr, never as a traceback.
"""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

#: Modules that add sub-commands, each with ``register(subparsers)``, and the sub-commands each
#: adds: ``ludoteca COMMAND ...`` imports only COMMAND's module (``ludoteca scan`` does not load
#: the print kit's generator or the app's Kivy), ``ludoteca --help`` imports them all.  A part may
#: also offer ``quick_args(argv)``: its hot commands read without argparse (:func:`quick_parse`).
PARTS = {"ludoteca.cards.cli": ("validate",), "ludoteca.generator.cli": ("build", "export-shop", "deck"),
         "ludoteca.companion.score_cli": ("score",), "ludoteca.companion.play_cli": ("play", "history", "export"),
         "ludoteca.companion.app_cli": ("companion",), "ludoteca.companion.scan_cli": ("scan",)}


@functools.cache
def _parser_class() -> type[argparse.ArgumentParser]:
    """:class:`Parser`, made at its first use: argparse (with gettext and locale) is imported
    only by a command line :func:`quick_parse` does not read."""
    import argparse

    class Parser(argparse.ArgumentParser):
        """An argument parser whose errors are one line and exit 2."""

        def error(self, message: str) -> None:  # type: ignore[override]
            self.exit(2, f"{self.prog}: error: {message}\n")

    return Parser


def __getattr__(name: str) -> Any:
    if name == "Parser":
        return _parser_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _part(name: str) -> Any:
    """The part module ``name`` (None when that part is not installed)."""
    import importlib
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``ludoteca`` parser; with a ``command`` one of the :data:`PARTS` add, only that
    command's part is imported and registered."""
    parser_class = _parser_class()
    parser = parser_class(prog="ludoteca", description=__doc__.splitlines()[0])
    from . import __version__
    parser.add_argument("--version", action="version", version=f"ludoteca {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)
    for name in _parts_of(command) or PARTS:
        module = _part(name)
        if module is not None:
            module.register(sub)
    return parser


#: The keywords of ``add_argument`` :func:`quick_parse` reads as argparse does.
QUICK_KEYWORDS = frozenset({"action", "type", "default", "choices", "nargs", "metavar", "help", "dest"})
_FLAGS = {"store_true": True, "store_false": False}     # what such an option stores when given


def quick_parse(command: str, words: Sequence[str], options: Sequence[tuple[tuple[str, ...], dict]],
                exclusive: Sequence[str] = (), defaults: dict | None = None) -> SimpleNamespace | None:
    """What argparse makes of ``ludoteca COMMAND WORDS`` when COMMAND's sub-parser is made of
    ``options`` (``(flags, add_argument's keywords)`` each: the list that registers it), read
    without argparse: importing it (with gettext and locale) and making the parser cost a deck
    run ~4 ms.  Only a line argparse reads in one obvious way is read here: each option by its
    whole name (no abbreviation, no ``--name=value``, no ``--``), values that do not start with
    ``-``, positionals of ``nargs="?"`` in their order, at most one of the ``exclusive`` options,
    each value one its type and choices take; options of ``store``, ``store_true`` and
    ``store_false``.  Anything else gives None: the caller lets argparse read (or refuse) it."""
    flags: dict[str, tuple[str, dict]] = {}
    positionals: list[tuple[str, dict]] = []
    values: dict[str, Any] = {}
    for names, keywords in options:
        action = keywords.get("action", "store")
        if not QUICK_KEYWORDS.issuperset(keywords) or action not in ("store", *_FLAGS):
            return None
        if names[0].startswith("-"):
            if "nargs" in keywords:
                return None
            long = [n for n in names if n.startswith("--")]
            dest = keywords.get("dest") or (long or names)[0].lstrip("-").replace("-", "_")
            flags.update((name, (dest, keywords)) for name in names)
        elif keywords.get("nargs") == "?":
            dest = names[0]
            positionals.append((dest, keywords))
        else:
            return None
        values[dest] = keywords.get("default", not _FLAGS[action] if action in _FLAGS else None)
    given: set[str] = set()
    taken = 0
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("-"):
            if taken == len(positionals):
                return None
            dest, keywords = positionals[taken]
            taken += 1
            i += 1
        elif word in flags:
            dest, keywords = flags[word]
            action = keywords.get("action", "store")
            if action in _FLAGS:
                values[dest] = _FLAGS[action]
                given.add(dest)
                i += 1
                continue
            if i + 1 == len(words) or words[i + 1].startswith("-"):
                return None
            word = words[i + 1]
            i += 2
        else:
            return None
        given.add(dest)
        values[dest] = _quick_value(word, keywords)
        if values[dest] is _REFUSED:
            return None
    if len(given & {flags[name][0] for name in exclusive}) > 1:
        return None
    for dest, keywords in [*flags.values(), *positionals]:   # a default given as a text is read as
        default = keywords.get("default")                     # one given (argparse does so)
        if dest not in given and isinstance(default, str) and "type" in keywords:
            values[dest] = _quick_value(default, keywords)
            if values[dest] is _REFUSED:
                return None
    return SimpleNamespace(command=command, **values, **(defaults or {}))


_REFUSED = object()


def _quick_value(word: str, keywords: dict) -> Any:
    """``word`` read by its option's type and checked against its choices (_REFUSED if not)."""
    convert = keywords.get("type")
    try:
        value = convert(word) if convert is not None else word
    except Exception:  # noqa: BLE001 - argparse reads the line again and says what is wrong
        return _REFUSED
    choices = keywords.get("choices")
    return _REFUSED if choices is not None and value not in choices else value


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ludoteca ARGV`` (the process's own arguments when ``argv`` is None) and return its
    exit code.  Run as the process's command, a sub-command that sets ``quick_exit`` (``scan``)
    ends the process as soon as it is done (:func:`leave`)."""
    whole = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    if whole:
        gc.disable()                    # until the command's modules are imported: see start_up
    command = argv[0] if argv else None
    parser: argparse.ArgumentParser | None = None
    args: Any = _quick_args(command, argv)
    if args is None:
        parser = build_parser(command)
        args = parser.parse_args(argv)
    if whole:
        start_up(getattr(args, "imports", ()))
    func: Callable[[Any], int] | None = getattr(args, "func", None)
    if func is None:
        (parser or build_parser(command)).print_help()
        return 2
    try:
        code = int(func(args) or 0)
    except KeyboardInterrupt:
        print("ludoteca: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:
        # the card data's errors: their module is loaded when one is raised, not imported for this
        problems = sys.modules.get("ludoteca.cards.problems")
        if problems is None or not isinstance(exc, problems.DataError):
            raise
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    if whole and getattr(args, "quick_exit", False):
        leave(code)
    return code


def _quick_args(command: str | None, argv: list[str]) -> SimpleNamespace | None:
    """The arguments of a command its part reads without argparse (its ``quick_args``), or None."""
    for name in _parts_of(command)[:1]:
        quick = getattr(_part(name), "quick_args", None)
        return quick(argv) if quick is not None else None
    return None


def _parts_of(command: str | None) -> list[str]:
    """The parts of :data:`PARTS` that register ``command``."""
    return [name for name, commands in PARTS.items() if command in commands]


def start_up(modules: Sequence[str]) -> None:
    """Import the modules a command names (``imports`` in its defaults), then keep everything
    alive so far (the modules, the parser) out of the garbage collector's passes and turn the
    collector back on.  Run as the process's command, :func:`main` imports them with the collector
    off: modules make no garbage worth collecting, and the 30-odd passes while a deck's modules
    loaded walked what the earlier ones had made again (2-3 ms of the 120-card deck's 0.22 s CPU).
    A kit's render workers, forked later, inherit them frozen.  (generator.templating freezes
    once more at its first environment: what Jinja imports then.)"""
    try:
        for name in modules:
            __import__(name)            # as an import statement does (-X importtime lists it)
    finally:
        gc.freeze()
        gc.enable()


def leave(code: int) -> None:
    """End the process with ``code`` once its output is flushed, without the interpreter's
    tear-down of every module (NumPy's and OpenCV's: 15-20 ms of a scan's CPU, more than its
    own code's start-up).  Only for a command whose files are all written and closed when it
    returns (ludoteca.atomic's writes are) and that leaves no temporary files to clean up."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    raise SystemExit(main())
