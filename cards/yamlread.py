"""Read YAML keeping the line of every mapping key and list item.

PyYAML builds plain values and forgets where they came from; the data
checks and the scoring records need ``path:line`` in every message, so
this module walks the composed node tree itself.  Duplicate keys, which
PyYAML silently overwrites, are reported instead.

Before anything is composed, :func:`prescan` walks the event stream and refuses a document
beyond the limits of :mod:`cards.limits` (depth, values after alias expansion, alias uses).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .limits import (MAX_ALIASES, MAX_DEPTH, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_NODES, InputTooLarge,
                     read_bytes)

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader


def load_own(stream: Any) -> Any:
    """``yaml.safe_load`` with libyaml's parser when PyYAML has it: for the kit's own files
    (sheets.yaml, words.yaml, shops.yaml), several times faster than the pure-Python one."""
    return yaml.load(stream, Loader=_Loader)


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


def line_of(node: Any, key: Any) -> int:
    """The line of ``key`` in a mapping or list read by :func:`read` (for anything else: its own
    line, else 1), so a caller that has only checked ``isinstance(node, dict)`` can ask."""
    if isinstance(node, (LDict, LList)):
        return node.line_of(key)
    return getattr(node, "line", 1)


class YamlProblem(ValueError):
    """A YAML file that cannot be read: syntax error or duplicate key."""

    def __init__(self, path: Path | str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


_NODE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)


def prescan(text: str, path: Path | str = "<string>") -> None:
    """Refuse YAML that is too deep, too large once its aliases are expanded, or alias-heavy.

    The event parser is iterative, so this is safe on any input; the size and height of every
    anchored value are kept, so an alias counts as what it would expand to.
    """
    if len(text) > MAX_FILE_BYTES:
        raise YamlProblem(path, 1, f"file: at most {MAX_FILE_BYTES:,} characters, got {len(text):,}")
    total = 0
    aliases = 0
    stack: list[list] = []  # per open collection: [anchor, total at its start, height of its children]
    anchors: dict[str, tuple[int, int]] = {}  # anchor -> (values, height) of the anchored value
    for event in yaml.parse(text, Loader=_Loader):
        height = 0
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise YamlProblem(path, event.start_mark.line + 1,
                                  f"yaml: at most {MAX_ALIASES:,} aliases (*name), got more")
            if event.anchor not in anchors:
                what = "a recursive alias" if any(s[0] == event.anchor for s in stack) else \
                    f"'*{event.anchor}' before its anchor"
                raise YamlProblem(path, event.start_mark.line + 1,
                                  f"yaml: data without recursive aliases, got {what}")
            size, height = anchors[event.anchor]
            total += size
        elif isinstance(event, _NODE_EVENTS):
            total += 1
            if isinstance(event, yaml.ScalarEvent):
                height = 1
                if event.anchor:
                    anchors[event.anchor] = (1, 1)
                if event.implicit[0] and len(event.value) > MAX_INT_DIGITS \
                        and event.value.lstrip("+-").isdigit():
                    raise YamlProblem(path, event.start_mark.line + 1,
                                      f"yaml: numbers of at most {MAX_INT_DIGITS} digits, "
                                      f"got one of {len(event.value.lstrip('+-'))}")
            else:
                stack.append([event.anchor, total - 1, 0])
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, start, children = stack.pop()
            height = children + 1
            if anchor:
                anchors[anchor] = (total - start, height)
        if height and stack:
            stack[-1][2] = max(stack[-1][2], height)
        if len(stack) + (height if isinstance(event, yaml.AliasEvent) else 0) > MAX_DEPTH:
            raise YamlProblem(path, event.start_mark.line + 1,
                              f"yaml: nesting of at most {MAX_DEPTH} levels, got more")
        if total > MAX_NODES:
            raise YamlProblem(path, event.start_mark.line + 1,
                              f"yaml: at most {MAX_NODES:,} values (aliases expanded), got more")


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
    loader = None
    try:
        prescan(text, path)
        loader = _Loader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        return _walk(loader, node, path)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = exc.problem or exc.context or "unreadable YAML"
        if "maximum nesting depth" in what:  # libyaml's own bound (PyYAML 6.0.4), met before ours in prescan
            raise YamlProblem(path, line, f"yaml: nesting of at most {MAX_DEPTH} levels, got more") from None
        raise YamlProblem(path, line, f"yaml: valid YAML, got a syntax error ({what})") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(path, 1, f"yaml: valid YAML, got {exc}") from None
    except RecursionError:
        raise YamlProblem(path, 1, "yaml: data without recursive aliases, got a recursive alias") from None
    finally:
        if loader is not None:
            loader.dispose()


def read(path: Path) -> Any:
    """Read and parse one YAML file (UTF-8)."""
    try:
        text = read_bytes(path).decode("utf-8")
    except InputTooLarge as exc:
        raise YamlProblem(path, 1, exc.message) from None
    except UnicodeDecodeError as exc:
        raise YamlProblem(path, 1, f"file: UTF-8 text, got undecodable bytes ({exc.reason})") from None
    return parse(text, path)
