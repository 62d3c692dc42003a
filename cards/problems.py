"""One problem found in the data, and the error that carries them all."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def display_path(path: Path | str) -> str:
    """A path as a user would type it: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return os.path.abspath(path)
    return relative


@dataclass(frozen=True)
class Problem:
    """``path:line: <kind> '<id>': <field>: <expected>, got <found>``."""

    path: str
    line: int
    kind: str
    id: str
    field: str
    expected: str
    got: str = ""

    def __str__(self) -> str:
        head = f"{display_path(self.path)}:{self.line}: {self.kind} '{self.id}': {self.field}: {self.expected}"
        return f"{head}, got {self.got}" if self.got else head


class DataError(ValueError):
    """The data in cards/ is not valid; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (display_path(p.path), p.line, str(p)))
        super().__init__("\n".join(str(p) for p in self.problems))
