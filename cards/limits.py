"""The sizes Ludoteca accepts in the YAML and JSON it reads, checked before anything is built.

Every limit is far above what real data needs (the largest shipped data file is 17 KB with
1,800 YAML nodes, 11 levels deep; a score record is a few hundred bytes) and far below what
would cost more than about 2 s and 200 MB to read.  A parser is bounded by a cheap scan
first: YAML through its event stream (libyaml's parser keeps its own stack, so a deep file
cannot crash it, and the size of every anchor is known, so alias bombs are counted without
being expanded), JSON through a scan of its brackets.

>>> json_loads('{"a": [1, 2]}', "<line>")
{'a': [1, 2]}
>>> try:
...     json_loads("[" * 100 + "]" * 100, "<line>")
... except InputTooLarge as exc:
...     print(exc)
<line>: json: nesting of at most 64 levels, got 65 or more
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from ludoteca.atomic import kind_of

#: Bytes of one YAML or JSON file (card data, score record, settings). 60 times the largest data file.
MAX_FILE_BYTES = 1024 * 1024
#: Bytes of one ``ludoteca play`` line (one action). An action is under 1 KB.
MAX_LINE_BYTES = 64 * 1024
#: Nesting levels of mappings and lists. Our data needs 11.
MAX_DEPTH = 64
#: Values (mappings, lists, scalars) after every alias is expanded. Our largest file has 1,800;
#: a 20,000-value file is read in about half a second.
MAX_NODES = 20_000
#: Uses of ``*alias`` in one YAML document. Our data uses none.
MAX_ALIASES = 1_000
#: Digits of an integer anywhere in our input: past the schema ranges (which say what is plausible)
#: but well under the 4,300 digits Python refuses with an exception of its own.
MAX_INT_DIGITS = 100


class InputTooLarge(ValueError):
    """An input beyond one of the limits above: ``path: what: expected, got``."""

    def __init__(self, path: Path | str, line: int | None, field: str, expected: str, got: str):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field}: {expected}, got {got}")
        self.path, self.line, self.field, self.expected, self.got = path, line, field, expected, got

    @property
    def message(self) -> str:
        """The message without the path and line."""
        return f"{self.field}: {self.expected}, got {self.got}"


class NotAFile(OSError):
    """A path that is there but is no regular file (a folder, a FIFO, a device, a socket): reading
    it could wait forever or never end. ``strerror`` says what it is."""


def _regular(mode: int, path: Path | str) -> None:
    if not stat.S_ISREG(mode):
        raise NotAFile(errno.EINVAL, f"{kind_of(mode)}, not a regular file", str(path))


def read_bytes(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes, refusing more than ``limit`` without reading them all. Anything else
    at ``path`` (a FIFO, ``/dev/zero``, a folder) is a :class:`NotAFile`, told without waiting: the
    file is looked at before it is opened (a device is not even opened), opened without blocking
    and looked at again before one byte is read. Other OSErrors pass."""
    _regular(os.stat(path).st_mode, path)
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a FIFO does not wait for a writer
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_BINARY", 0))
    try:
        info = os.stat(fd)
        _regular(info.st_mode, path)
        if info.st_size > limit:
            raise InputTooLarge(path, None, "file", f"at most {limit:,} bytes", f"{info.st_size:,} bytes")
        if nonblocking:
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise InputTooLarge(path, None, "file", f"at most {limit:,} bytes", "more")
    return data


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_SEPARATOR = re.compile(r"[,\[{]")
#: A ``\uD800``-``\uDFFF`` escape that is not half of a pair (what JSON allows and no text holds).
_HALF_CHARACTER = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
                             r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_INT_DIGITS + 1},}}")


def json_depth_ok(text: str, path: Path | str, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON nested deeper than ``limit`` before the parser recurses into it."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            line = text.count("\n", 0, match.start()) + 1 if "\n" in text else None
            raise InputTooLarge(path, line, "json", f"nesting of at most {limit} levels",
                                f"{limit + 1} or more")


def json_loads(text: str, path: Path | str, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """``json.loads`` within the limits (size, depth, number length); ``ValueError`` for bad JSON,
    and a :class:`json.JSONDecodeError` for a lone surrogate (``"\\ud800"``), which no text can hold
    (it could not be printed, saved or sent on)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise InputTooLarge(path, None, "json", f"at most {max_bytes:,} bytes", f"{size:,}")
    json_depth_ok(text, path)
    values = len(_SEPARATOR.findall(_STRING.sub('""', text)))
    if values > MAX_NODES:
        raise InputTooLarge(path, None, "json", f"at most {MAX_NODES:,} values", f"about {values:,}")
    long_number = _LONG_NUMBER.search(_STRING.sub('""', text))
    if long_number:
        raise InputTooLarge(path, None, "json", f"numbers of at most {MAX_INT_DIGITS} digits",
                            f"one of {len(long_number.group())}")
    value = json.loads(text)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        half = _HALF_CHARACTER.search(text)
        raise json.JSONDecodeError("a lone surrogate escape (half of a character, as \\ud800 alone) "
                                   "is no text", text, half.start() if half else 0) from None
    return value
