"""Anyone's deck: rows of a CSV (header, optional ``count``) or a YAML list -> a Component.

CSV files are read as spreadsheets write them: UTF-8 with or without a byte-order mark, else
Windows-1252 / Latin-1 (said in one note), the delimiter found in the header (``,`` ``;`` tab
``|``), every cell stripped.  A malformed row (a stray quote that would swallow the rows after
it, more values than columns, a cell over the size limit) is an error naming its line.  The
limits (file size, copies per row, cards per deck) are in ``sheets.yaml`` under ``deck``.
"""

from __future__ import annotations

import csv
import io
import re
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
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
    for encoding, label in (("cp1252", "Windows-1252"), ("latin-1", "Latin-1")):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        if notes is not None:
            notes.append(f"{path}: not UTF-8 (first at line {line}); read as {label}")
        return text
    raise GeneratorError(f"{path}:{line}: not UTF-8 text")   # latin-1 decodes anything: unreachable


def sniff_delimiter(header: str) -> str:
    """The delimiter of a CSV: the candidate that appears most in its header line (``,`` on a tie)."""
    counts = {d: _outside_quotes(header).count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def _outside_quotes(line: str) -> str:
    return re.sub(r'"[^"]*"', "", line)


def _read_csv(path: Path, notes: list[str] | None) -> list[Row]:
    raw = _read_bytes(path)
    text = decode(raw, path, notes)
    header = text.split("\n", 1)[0]
    delimiter = sniff_delimiter(header)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    old_limit = csv.field_size_limit(CELL_LIMIT)
    rows: list[Row] = []
    try:
        start = 1
        try:
            columns = [c.strip() for c in next(reader)]
        except StopIteration:
            raise GeneratorError(f"{path}: empty CSV (a header row is needed)") from None
        _check_columns(columns, path)
        start = reader.line_num + 1
        for values in reader:
            line, start = start, reader.line_num + 1
            if not values or all(not v.strip() for v in values):
                continue
            if len(values) > len(columns):
                raise GeneratorError(f"{path}:{line}: more values than columns "
                                     f"({len(values)} values, {len(columns)} columns)")
            cells = {k: (values[i].strip() if i < len(values) else "") for i, k in enumerate(columns)}
            rows.append((cells, line))
    except csv.Error as exc:
        raise GeneratorError(_csv_error(path, start, reader.line_num, str(exc))) from None
    finally:
        csv.field_size_limit(old_limit)
    return rows


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


def _read_bytes(path: Path) -> bytes:
    if not path.is_file():
        raise GeneratorError(f"{path}: no such file")
    top = float(limits()["max_file_mb"])
    size = path.stat().st_size
    if size > top * 1e6:
        raise GeneratorError(f"{path}: {size / 1e6:.1f} MB, over the {top:g} MB limit for deck data")
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
    if isinstance(value, bool) or not re.fullmatch(r"\+?\d{1,12}", text):
        raise GeneratorError(f"{path}:{line}: count: expected a whole number >= 0, got {value!r}")
    n = int(text)
    if n > top:
        raise GeneratorError(f"{path}:{line}: count: {n} copies of one card, over the limit of {top:,}")
    return n


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def check_text(row: dict, path: Path, line: int) -> None:
    """Refuse control characters (NUL and the like): no SVG can hold them."""
    for key, value in row.items():
        if isinstance(value, str):
            bad = _CONTROL.search(value)
            if bad:
                raise GeneratorError(f"{path}:{line}: column '{key}' holds a control character "
                                     f"(U+{ord(bad.group(0)):04X})")


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "card"


def deck_component(data_path: Path, template: str, back: str | None,
                   size: tuple[float, float], grid: tuple[int, int] | None = None,
                   notes: list[str] | None = None) -> Component:
    """One Component: one Face per copy of every row; the row is the template's context."""
    fronts: list[Face] = []
    backs: list[Face] = []
    top = int(limits()["max_cards"])
    for index, (row, line) in enumerate(read_rows(data_path, notes)):
        check_text(row, data_path, line)
        copies = count_of(row, data_path, line)
        if len(fronts) + copies > top:
            raise GeneratorError(f"{data_path}:{line}: the deck passes {top:,} cards, the limit "
                                 "of one build")
        name = _safe(str(row.get("id") or row.get("name") or index + 1))
        context = dict(row, row_line=line)
        source = f"{data_path}:{line}"
        front = Face(template, context, name, source)
        back_face = Face(back, context, "back", source) if back else None
        for _ in range(copies):
            fronts.append(front)
            if back_face is not None:
                backs.append(back_face)
    if not fronts:
        raise GeneratorError(f"{data_path}: no cards")
    stem = _safe(data_path.stem)
    return Component(game="deck", id=stem, title={"es": stem, "en": stem}, size_mm=size,
                     fronts=fronts, backs=backs if back else None, grid=grid, deck=True)
