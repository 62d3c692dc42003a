"""Anyone's deck: rows of a CSV (header, optional ``count``) or a YAML list -> a Component.

CSV files are read as spreadsheets write them: UTF-8 with or without a byte-order mark, else
Windows-1252 / Latin-1 (said in one note), the delimiter found in the header (``,`` ``;`` tab
``|``), every cell stripped.  A malformed row (a stray quote that would swallow the rows after
it, more values than columns, a cell over the size limit) is an error naming its line.  The
limits (file size, copies per row, cards per deck) are in ``sheets.yaml`` under ``deck``.
"""

from __future__ import annotations

import bisect
import csv
import io
import itertools
import os
import re
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path

from .model import Component, Face, GeneratorError

DELIMITERS = ",;\t|"
CELL_LIMIT = 131_072          # characters in one cell (Python's csv default, said in the error)

Row = tuple[dict, int]        # the row's values by column, its line number


def limits() -> dict:
    """The deck limits of sheets.yaml: max_file_mb, max_count, max_cards."""
    from .sheets import data
    return data()["deck"]


def decode(raw: bytes, path: Path, notes: list[str] | None = None) -> str:
    """Text of a spreadsheet export: UTF-8 (BOM dropped), else cp1252/Latin-1 with a note."""
    return _decoded(raw, path, notes)[0]


#: The encodings data is read in, the first that decodes it all; after UTF-8, said in a note.
ENCODINGS = (("utf-8", "UTF-8"), ("cp1252", "Windows-1252"), ("latin-1", "Latin-1"))


def _read_as(path: Path, encoding: str, line: int, notes: list[str] | None) -> None:
    """Note that data not in UTF-8 (first at ``line``) is read in ``encoding``."""
    if encoding != "utf-8" and notes is not None:
        notes.append(f"{path}: not UTF-8 (first at line {line}); read as {dict(ENCODINGS)[encoding]}")


def _decoded(raw: bytes, path: Path, notes: list[str] | None = None) -> tuple[str, str]:
    """:func:`decode`, and the encoding it read the text in."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    line = 0
    for encoding, _label in ENCODINGS:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            if encoding == "utf-8":
                line = raw[:exc.start].count(b"\n") + 1
            continue
        _read_as(path, encoding, line, notes)
        return text, encoding
    raise GeneratorError(f"{path}:{line}: not UTF-8 text")   # latin-1 decodes anything: unreachable


def sniff_delimiter(header: str) -> str:
    """The delimiter of a CSV: the candidate that appears most in its header line (``,`` on a tie)."""
    outside = _outside_quotes(header)
    counts = {d: outside.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def _outside_quotes(line: str) -> str:
    """``line`` without its quoted parts (each pair of quotes and what is between them; a last
    quote left open stays, with what follows it)."""
    parts = line.split('"')
    if len(parts) % 2:
        return "".join(parts[::2])
    return "".join(parts[:-1:2]) + '"' + parts[-1]


def _read_csv(path: Path, notes: list[str] | None) -> list[Row]:
    return [(cells, line) for cells, line, _start, _end in _csv_rows(path, notes)[1]]


class CsvFormat:
    """How a CSV file was read: enough to read any run of its rows again from their bytes."""

    __slots__ = ("encoding", "delimiter", "columns")

    def __init__(self, encoding: str, delimiter: str, columns: list[str]) -> None:
        self.encoding, self.delimiter, self.columns = encoding, delimiter, columns


RowAt = tuple[dict, int, int, int]      # cells, line, byte offsets of the row's start and end


def _csv_rows(path: Path, notes: list[str] | None, raw: bytes | None = None,
              fmt: CsvFormat | None = None, first_line: int = 1) -> tuple[CsvFormat, Iterator[RowAt]]:
    """The format of a CSV and its rows, one at a time, each with where its bytes are.

    The file is read as the rows are taken, never whole (its encoding is found first, in one pass
    over it).  With ``raw`` and ``fmt``: those bytes are whole rows of a file read before (no
    header), starting at line ``first_line``.
    """
    if fmt is None:
        encoding, offset, header = _encoding_of(path, notes)
        fmt = CsvFormat(encoding, sniff_delimiter(header.split("\n", 1)[0]), [])
        source: Iterator[bytes] = _file_lines(path, offset)
    else:
        assert raw is not None
        offset, source = 0, iter(io.BytesIO(raw))
    mark = [offset]                          # the byte offset of the next line to read

    def lines() -> Iterator[str]:
        for piece in _split_lone_cr(source):
            mark[0] += len(piece)            # counted as the reader takes it
            yield piece.decode(fmt.encoding)

    reader = csv.reader(lines(), delimiter=fmt.delimiter, strict=True)

    def rows() -> Iterator[RowAt]:
        old_limit = csv.field_size_limit(CELL_LIMIT)
        start = first_line
        try:
            if not fmt.columns:
                try:
                    fmt.columns = [c.strip() for c in next(reader)]
                except StopIteration:
                    raise GeneratorError(f"{path}: empty CSV (a header row is needed)") from None
                _check_columns(fmt.columns, path)
                start = first_line + reader.line_num
            columns = fmt.columns
            while True:
                at = mark[0]
                values = next(reader, None)
                if values is None:
                    return
                line, start = start, first_line + reader.line_num
                if not values or all(not v.strip() for v in values):
                    continue
                if len(values) > len(columns):
                    raise GeneratorError(f"{path}:{line}: more values than columns "
                                         f"({len(values)} values, {len(columns)} columns)")
                cells = {k: (values[i].strip() if i < len(values) else "") for i, k in enumerate(columns)}
                yield cells, line, at, mark[0]
        except csv.Error as exc:
            raise GeneratorError(_csv_error(path, start, first_line - 1 + reader.line_num,
                                            str(exc))) from None
        finally:
            csv.field_size_limit(old_limit)

    found = rows()
    if fmt.columns:
        return fmt, found
    head = next(found, None)                 # reads the header into fmt.columns
    return fmt, itertools.chain([head] if head is not None else [], found)


_LONE_CR = rb"\r(?!\n)"        # compiled at its first use (re's own cache): most files have none


def _split_lone_cr(lines: Iterator[bytes]) -> Iterator[bytes]:
    """Lines of bytes (each ending at ``\\n``) cut after every lone ``\\r`` too: the lines a text
    file opened with ``newline=""`` gives (``\\n``, ``\\r\\n`` and ``\\r`` end a line), in an
    encoding where those bytes are only those characters (UTF-8, Windows-1252, Latin-1)."""
    for line in lines:
        first = line.find(b"\r")
        if first < 0 or first == len(line) - 1 or first == len(line) - 2 and line[-1:] == b"\n":
            if line:
                yield line                  # no \r, or only the line's own end (\r, \r\n)
            continue
        start = 0
        for match in re.finditer(_LONE_CR, line):
            yield line[start:match.end()]
            start = match.end()
        if start < len(line):
            yield line[start:]


def _file_lines(path: Path, offset: int) -> Iterator[bytes]:
    """The lines of bytes of a file from ``offset`` on, read as they are taken."""
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            yield from fh
    except OSError as exc:
        raise GeneratorError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _encoding_of(path: Path, notes: list[str] | None) -> tuple[str, int, str]:
    """How a CSV file is read: its encoding (UTF-8, else Windows-1252 / Latin-1, said in one
    note), the length of its byte-order mark and its first line, found reading it a piece at a
    time (the same answer as :func:`decode` gives for its bytes)."""
    import codecs
    _check_file(path)
    chunk_size = 1 << 14                     # decoded only to be checked: a small piece at a time
    try:
        with open(path, "rb") as fh:
            offset = 3 if fh.read(3) == b"\xef\xbb\xbf" else 0
            line = 0
            for encoding, _label in ENCODINGS:
                fh.seek(offset)
                decoder = codecs.getincrementaldecoder(encoding)()
                lines_before = 0
                try:
                    for chunk in iter(lambda: fh.read(chunk_size), b""):
                        decoder.decode(chunk)
                        lines_before += chunk.count(b"\n")
                    decoder.decode(b"", final=True)
                except UnicodeDecodeError as exc:
                    if encoding == "utf-8":
                        line = lines_before + exc.object[:exc.start].count(b"\n") + 1
                    continue
                _read_as(path, encoding, line, notes)
                fh.seek(offset)
                return encoding, offset, fh.readline().decode(encoding)
    except OSError as exc:
        raise GeneratorError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    raise GeneratorError(f"{path}:{line}: not UTF-8 text")   # latin-1 decodes anything: unreachable


def _csv_error(path: Path, line: int, end: int, message: str) -> str:
    if "field larger than field limit" in message:
        return f"{path}:{line}: a cell longer than {CELL_LIMIT:,} characters"
    if "unexpected end of data" in message or "expected after" in message:
        return (f"{path}:{line}: a quote (\") opened in this row is not closed where the cell ends; "
                f"it would swallow lines {line}-{end} into one cell")
    return f"{path}:{line}: not valid CSV ({message})"


def _check_columns(columns: list[str], path: Path) -> None:
    if not any(columns):
        raise GeneratorError(f"{path}:1: the header row has no column names")
    seen: set[str] = set()
    for name in columns:
        if name and name in seen:
            raise GeneratorError(f"{path}:1: column '{name}' appears twice in the header")
        seen.add(name)


def _check_file(path: Path) -> None:
    """A deck data file that exists and is within the size limit, or a :class:`GeneratorError`."""
    if not path.is_file():
        raise GeneratorError(f"{path}: no such file")
    top = float(limits()["max_file_mb"])
    size = path.stat().st_size
    if size > top * 1e6:
        raise GeneratorError(f"{path}: {size / 1e6:.1f} MB, over the {top:g} MB limit for deck data")


def _read_bytes(path: Path) -> bytes:
    _check_file(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise GeneratorError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _read_yaml(path: Path) -> list[Row]:
    import yaml
    text = decode(_read_bytes(path), path)
    _check_yaml_shape(text, path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise GeneratorError(f"{path}:{line}: not valid YAML") from None
    if isinstance(data, dict) and len(data) == 1:
        data = next(iter(data.values()))
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise GeneratorError(f"{path}: expected a list of mappings (one per card)")
    return [({str(k): v for k, v in r.items()}, i + 1) for i, r in enumerate(data)]


YAML_MAX_DEPTH = 50
YAML_MAX_VALUES = 2_000_000     # values once every alias is expanded (a 20,000-card deck: ~200,000)


def _check_yaml_shape(text: str, path: Path) -> None:
    """Refuse deep nesting and alias bombs before any object is built: the parser's events are
    streamed and every node's size, aliases expanded, is added up."""
    import yaml
    stack: list[list] = [[0, None]]          # per open collection: [values inside, anchor]
    sizes: dict[str, int] = {}

    def add(n: int, event) -> None:
        stack[-1][0] += n
        if sum(frame[0] for frame in stack) > YAML_MAX_VALUES:
            raise GeneratorError(f"{path}:{event.start_mark.line + 1}: expands to more than "
                                 f"{YAML_MAX_VALUES:,} values (aliases *name repeat whole lists)")

    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                stack.append([0, event.anchor])
                if len(stack) - 1 > YAML_MAX_DEPTH:
                    raise GeneratorError(f"{path}:{event.start_mark.line + 1}: nested deeper than "
                                         f"{YAML_MAX_DEPTH} levels")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                inside, anchor = stack.pop()
                if anchor:
                    sizes[anchor] = inside + 1
                add(inside + 1, event)
            elif isinstance(event, yaml.ScalarEvent):
                if event.anchor:
                    sizes[event.anchor] = 1
                add(1, event)
            elif isinstance(event, yaml.AliasEvent):
                add(sizes.get(event.anchor, 1), event)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise GeneratorError(f"{path}:{mark.line + 1 if mark else 0}: not valid YAML") from None


def read_rows(path: Path, notes: list[str] | None = None) -> list[Row]:
    """The rows of a CSV (with header) or a YAML list of mappings, each with its line number."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv(path, notes)
    if suffix in (".yaml", ".yml"):
        return _read_yaml(path)
    raise GeneratorError(f"{path}: expected a .csv, .yaml or .yml file")


def count_of(row: dict, path: Path, line: int) -> int:
    """Copies of a row: its ``count`` (empty or absent = 1), a whole number up to the limit."""
    value = row.get("count", 1)
    if value is None or (isinstance(value, str) and not value.strip()):
        return 1
    top = int(limits()["max_count"])
    text = str(value).strip()
    digits = text[1:] if text[:1] == "+" else text           # \+?\d{1,12}: str.isdecimal is \d
    if isinstance(value, bool) or not (0 < len(digits) <= 12 and digits.isdecimal()):
        raise GeneratorError(f"{path}:{line}: count: expected a whole number >= 0, got {value!r}")
    n = int(text)
    if n > top:
        raise GeneratorError(f"{path}:{line}: count: {n} copies of one card, over the limit of {top:,}")
    return n


#: Compiled at its first use (re's own cache; 0.4 ms): only a text that is not all printable
#: characters can hold one of these.
_CONTROL = r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"


def check_text(row: dict, path: Path, line: int) -> None:
    """Refuse control characters (NUL and the like): no SVG can hold them."""
    for key, value in row.items():
        if isinstance(value, str) and not value.isprintable():
            bad = re.search(_CONTROL, value)
            if bad:
                raise GeneratorError(f"{path}:{line}: column '{key}' holds a control character "
                                     f"(U+{ord(bad.group(0)):04X})")


def _safe(text: str) -> str:
    if not (text.isascii() and text.replace("-", "a").replace("_", "a").isalnum()):   # else as it is
        text = re.sub(r"[^A-Za-z0-9_-]+", "-", text)
    return text.strip("-")[:40] or "card"


class CsvFaces(Sequence):
    """The faces of a CSV deck, read from the file a run of rows at a time (never all at once).

    The rows were checked when the deck was made; what is kept per row is where its bytes are,
    its line and how many faces come before its end, so memory does not grow with the deck
    (a 20,000-card deck holds a few hundred kilobytes here, not its 20,000 rows).
    """

    CHUNK = 256                      # faces made at a time when iterated

    def __init__(self, path: Path, fmt: CsvFormat, template: str, back: bool,
                 rows: array[int], stamp: tuple[int, int]):
        self.path, self.fmt, self.template, self.back = path, fmt, template, back
        self.rows, self.stamp = rows, stamp           # per row: start, end, line, faces up to it

    def __len__(self) -> int:
        return self.rows[-1] if self.rows else 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            faces = self._run(start, stop) if start < stop else []
            return faces if step == 1 else faces[::step]
        n = len(self)
        if not -n <= index < n:
            raise IndexError(index)
        index %= n
        return self._run(index, index + 1)[0]

    def __iter__(self) -> Iterator[Face]:
        for start in range(0, len(self), self.CHUNK):
            yield from self._run(start, min(len(self), start + self.CHUNK))

    def feed(self, digest) -> None:
        """Add to ``digest`` (a hashlib object) all these faces are made of: the template, the
        file's name, how it is read, where each row is and the rows' bytes.  What
        :func:`~.build.component_key` hashes of a CSV deck, without making its faces (the same
        bytes make the same faces)."""
        digest.update(repr((self.template, self.back, str(self.path), self.fmt.encoding, self.fmt.delimiter,
                            self.fmt.columns)).encode("utf-8", "surrogatepass"))
        digest.update(self.rows.tobytes())
        if self.rows:
            digest.update(self._bytes(0, len(self.rows) // 4 - 1))

    def _bytes(self, first: int, last: int) -> bytes:
        """The bytes of rows ``first`` to ``last`` (whole rows), read from the file unless it changed."""
        rows = self.rows
        try:
            with open(self.path, "rb") as fh:
                if (os.fstat(fh.fileno()).st_size, os.fstat(fh.fileno()).st_mtime_ns) != self.stamp:
                    raise GeneratorError(f"{self.path}: changed while the deck was built; build again")
                fh.seek(rows[4 * first])
                return fh.read(rows[4 * last + 1] - rows[4 * first])
        except OSError as exc:
            raise GeneratorError(f"{self.path}: cannot read it ({exc.strerror or exc})") from None

    def _run(self, start: int, stop: int) -> list[Face]:
        """Faces ``start`` to ``stop`` (stop > start), read from the rows that hold them."""
        rows = self.rows
        upto = memoryview(rows)[3::4]
        first = bisect.bisect_right(upto, start)
        last = bisect.bisect_left(upto, stop)
        raw = self._bytes(first, last)
        faces: list[Face] = []
        before = upto[first - 1] if first else 0
        found = _csv_rows(self.path, None, raw, self.fmt, rows[4 * first + 2])[1]
        for number, (row, line, _a, _b) in enumerate(found, start=first):
            face = _face(row, line, number, self.path, self.template, self.back)
            copies = upto[number] - before
            faces += [face] * max(0, min(stop, upto[number]) - max(start, before))
            before += copies
        return faces


def _face(row: dict, line: int, index: int, path: Path, template: str, back: bool) -> Face:
    """The face of a row: the row is its context; named by its id, name or number."""
    context = dict(row, row_line=line)
    if back:
        return Face(template, context, "back", f"{path}:{line}")
    return Face(template, context, _safe(str(row.get("id") or row.get("name") or index + 1)),
                f"{path}:{line}")


def deck_component(data_path: Path, template: str, back: str | None,
                   size: tuple[float, float], grid: tuple[int, int] | None = None,
                   notes: list[str] | None = None) -> Component:
    """One Component: one Face per copy of every row; the row is the template's context.

    A CSV deck's faces are read from the file as they are needed (:class:`CsvFaces`).
    """
    top = int(limits()["max_cards"])
    data_path = Path(data_path)
    csv_file = data_path.suffix.lower() == ".csv"
    if csv_file:
        fmt, found = _csv_rows(data_path, notes)
    else:
        found = ((row, line, 0, 0) for row, line in read_rows(data_path, notes))
    rows = array("q")
    fronts: list[Face] = []
    backs: list[Face] = []
    total = 0
    for index, (row, line, start, end) in enumerate(found):
        check_text(row, data_path, line)
        copies = count_of(row, data_path, line)
        if total + copies > top:
            raise GeneratorError(f"{data_path}:{line}: the deck passes {top:,} cards, the limit "
                                 "of one build")
        total += copies
        if csv_file:
            rows.extend((start, end, line, total))
            continue
        front = _face(row, line, index, data_path, template, False)
        back_face = _face(row, line, index, data_path, back, True) if back else None
        fronts += [front] * copies
        if back_face is not None:
            backs += [back_face] * copies
    if not total:
        raise GeneratorError(f"{data_path}: no cards")
    if csv_file:
        st = data_path.stat()
        stamp = (st.st_size, st.st_mtime_ns)
        fronts = CsvFaces(data_path, fmt, template, False, rows, stamp)  # type: ignore[assignment]
        backs = CsvFaces(data_path, fmt, back, True, rows, stamp) if back else []  # type: ignore[assignment]
    stem = _safe(data_path.stem)
    return Component(game="deck", id=stem, title={"es": stem, "en": stem}, size_mm=size,
                     fronts=fronts, backs=backs if back else None, grid=grid, deck=True)
