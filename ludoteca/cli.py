"""The ludoteca command: one dispatcher, each part registers its own sub-commands.

Every sub-command returns an exit code: 0 done, 1 failed, 2 bad input or options.
Bad input is reported as clear lines on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence

#: Modules that add sub-commands, each with ``register(subparsers)``, and the sub-commands each
#: adds: ``ludoteca COMMAND ...`` imports only COMMAND's module (``ludoteca scan`` does not load
#: the print kit's generator or the app's Kivy), ``ludoteca --help`` imports them all.
PARTS = {"ludoteca.cards.cli": ("validate",), "ludoteca.generator.cli": ("build", "export-shop", "deck"),
         "ludoteca.companion.score_cli": ("score",), "ludoteca.companion.play_cli": ("play", "history", "export"),
         "ludoteca.companion.app_cli": ("companion",), "ludoteca.companion.scan_cli": ("scan",)}


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> Parser:
    """The ``ludoteca`` parser; with a ``command`` one of the :data:`PARTS` add, only that
    command's part is imported and registered."""
    import importlib

    parser = Parser(prog="ludoteca", description=__doc__.splitlines()[0])
    from . import __version__
    parser.add_argument("--version", action="version", version=f"ludoteca {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    only = [name for name, commands in PARTS.items() if command in commands]
    for name in only or PARTS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ludoteca ARGV`` (the process's own arguments when ``argv`` is None) and return its
    exit code.  Run as the process's command, a sub-command that sets ``quick_exit`` (``scan``)
    ends the process as soon as it is done (:func:`leave`)."""
    whole = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    if whole:
        gc.disable()                    # until the command's modules are imported: see start_up
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if whole:
        start_up(getattr(args, "imports", ()))
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
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
