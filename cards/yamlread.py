"""Read YAML keeping the line of every mapping key and list item.

PyYAML builds plain values and forgets where they came from; the data
checks and the scoring records need ``path:line`` in every message, so
this module walks the composed node tree itself.  Duplicate keys, which
PyYAML silently overwrites, are reported instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader


class LDict(dict):
    """A dict that remembers its own line and the line of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: Any) -> int:
        """The line of ``key`` (the mapping's own line if unknown)."""
        return self.key_lines.get(key, self.line)


class LList(list):
    """A list that remembers its own line and the line of each item."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        """The line of item ``index`` (the list's own line if out of range)."""
        if 0 <= index < len(self.item_lines):
            return self.item_lines[index]
        return self.line


class YamlProblem(ValueError):
    """A YAML file that cannot be read: syntax error or duplicate key."""

    def __init__(self, path: Path | str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


def _walk(loader: yaml.SafeLoader, node: yaml.Node, path: Path | str) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _walk(loader, key_node, path)
            if isinstance(key, (dict, list)):
                raise YamlProblem(path, key_node.start_mark.line + 1,
                                  "yaml: a plain value as a mapping key, got a "
                                  + ("mapping" if isinstance(key, dict) else "list"))
            if key in out:
                raise YamlProblem(
                    path, key_node.start_mark.line + 1,
                    f"yaml: each key once (first on line {out.key_lines[key]}), got '{key}' again")
            out[key] = _walk(loader, value_node, path)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        out_list = LList()
        out_list.line = node.start_mark.line + 1
        out_list.item_lines = []
        for item in node.value:
            out_list.append(_walk(loader, item, path))
            out_list.item_lines.append(item.start_mark.line + 1)
        return out_list
    return loader.construct_object(node, deep=True)


def parse(text: str, path: Path | str = "<string>") -> Any:
    """Parse YAML text into LDict/LList/scalars; raise YamlProblem on bad input."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _walk(loader, node, path)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = exc.problem or exc.context or "unreadable YAML"
        raise YamlProblem(path, line, f"yaml: valid YAML, got a syntax error ({what})") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(path, 1, f"yaml: valid YAML, got {exc}") from None
    except RecursionError:
        raise YamlProblem(path, 1, "yaml: data without recursive aliases, got a recursive alias") from None
    finally:
        loader.dispose()


def read(path: Path) -> Any:
    """Read and parse one YAML file (UTF-8)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(path, 1, f"file: UTF-8 text, got undecodable bytes ({exc.reason})") from None
    return parse(text, path)
