"""Anyone's deck: rows of a CSV (header, optional ``count``) or a YAML list -> a Component."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from .model import Component, Face, GeneratorError


def read_rows(path: Path) -> list[dict]:
    """The rows of a CSV (with header) or a YAML list of mappings, each with its line number."""
    if not path.is_file():
        raise GeneratorError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            if not reader.fieldnames:
                raise GeneratorError(f"{path}: empty CSV (a header row is needed)")
            rows = []
            for row in reader:
                if None in row:
                    raise GeneratorError(f"{path}:{reader.line_num}: more values than columns")
                rows.append(({k.strip(): (v or "").strip() for k, v in row.items()}, reader.line_num))
            return rows
    if suffix in (".yaml", ".yml"):
        import yaml
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark else 0
            raise GeneratorError(f"{path}:{line}: not valid YAML") from None
        if isinstance(data, dict) and len(data) == 1:
            data = next(iter(data.values()))
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise GeneratorError(f"{path}: expected a list of mappings (one per card)")
        return [(dict(r), i + 1) for i, r in enumerate(data)]
    raise GeneratorError(f"{path}: expected a .csv, .yaml or .yml file")


def _count(row: dict, path: Path, line: int) -> int:
    value = row.get("count", 1)
    if value in ("", None):
        return 1
    try:
        n = int(str(value))
    except ValueError:
        n = -1
    if n < 0:
        raise GeneratorError(f"{path}:{line}: count: expected a whole number >= 0, got {value!r}")
    return n


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "card"


def deck_component(data_path: Path, template: str, back: str | None,
                   size: tuple[float, float], grid: tuple[int, int] | None = None) -> Component:
    """One Component: one Face per copy of every row; the row is the template's context."""
    fronts: list[Face] = []
    backs: list[Face] = []
    for index, (row, line) in enumerate(read_rows(data_path)):
        copies = _count(row, data_path, line)
        name = _safe(str(row.get("id") or row.get("name") or index + 1))
        context = dict(row, row_line=line)
        for _ in range(copies):
            fronts.append(Face(template, context, name))
            if back:
                backs.append(Face(back, context, "back"))
    if not fronts:
        raise GeneratorError(f"{data_path}: no cards")
    stem = _safe(data_path.stem)
    return Component(game="deck", id=stem, title={"es": stem, "en": stem}, size_mm=size,
                     fronts=fronts, backs=backs if back else None, grid=grid, deck=True)
