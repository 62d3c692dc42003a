"""The hostile-input corpus: hundreds of bad, huge, deep, damaged or impossible inputs, each run
through the ``ludoteca`` command as a user would, in one process under a memory limit.

Run as a script, it prints one JSON line per case and a summary; ``tests/test_hostile_corpus.py``
runs it in a subprocess and checks every case.  Each case is *kind*, *name*, the command line, the
files it needs (written into a fresh folder, the working folder of the case), what arrives on
stdin, and what must come back: the exit codes allowed and text that must appear.  Whatever the
case, no traceback, no hang and no memory error.

Other parts of Ludoteca add their own cases by appending to :data:`EXTRA` (a list of callables
returning cases), or by adding a generator function to :data:`GENERATORS`.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterator

#: Memory a case may use beyond what the idle process holds (the issue's bound).
MEMORY_LIMIT = 200 * 1024 * 1024
#: A case still running after this many seconds is a hang: the bound issue 19 sets for every hostile
#: input (the slowest case takes about 3 s; its time is measured by bench/bench_hostile.py, not here).
HANG_SECONDS = 15
MB = 1024 * 1024


@dataclass
class Case:
    """One hostile input and what must come of it."""

    kind: str
    name: str
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes = b""
    codes: tuple[int, ...] = (2,)
    must: tuple[str, ...] = ()
    cards: bool = False  # copy the card data into ./cards first (files may then overwrite some)
    check: Callable[[Path, str, str], str | None] | None = None  # extra check: a failure message or None
    #: the world the command runs in (a full disk, a read-only mount): a context manager around it
    world: Callable[[], contextlib.AbstractContextManager] | None = None
    fifos: tuple[str, ...] = ()  # named pipes made in the folder (in place of a card file, say), no writer
    call: Callable[[Path], int] | None = None  # run instead of the command: the app's own files, read
    # as the app reads them (same folder, alarm and memory cap); returns the exit code
    around: Callable[[Path], contextlib.AbstractContextManager] | None = None  # set the scene in the folder


def one_line_naming(path: str) -> Callable[[Path, str, str], str | None]:
    """A refusal in one line that starts with ``path:LINE:``, whichever layer made it.

    For inputs that more than one layer may refuse first (PyYAML's own parser stops very deep
    nesting before our depth count does, with words of its own): what matters to the user is one
    clear line naming the file and the line, not whose wording it is.
    """
    def check(folder: Path, out: str, err: str) -> str | None:
        lines = err.strip().splitlines()
        if len(lines) != 1 or not re.match(rf"{re.escape(path)}:\d+: \S", lines[0]):
            return f"expected one line starting with {path}:LINE:, got {err.strip()[:300]!r}"
        return None
    return check


def record_yaml(body: str) -> bytes:
    return body.encode("utf-8")


GOOD_MAPA = "game: el_mapa\nplayers:\n  - name: Ana\n    buildings: [Mercado]\n  - name: Luis\n    buildings: [Cuartel]\n"


# -- generators -----------------------------------------------------------------------------------

def yaml_bombs() -> Iterator[Case]:
    """Billion laughs and its cousins: aliases that expand far beyond their bytes."""
    for width in (2, 4, 9, 16):
        for levels in (5, 9, 14):
            lol = ", ".join(['"lol"'] * width)
            lines = [f"a0: &a0 [{lol}]"]
            for k in range(1, levels):
                lines.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * width) + "]")
            text = "\n".join(lines) + "\n"
            yield Case("yaml_bomb", f"record_w{width}_l{levels}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                       codes=(2,), must=("r.yaml:",))
    bomb = "\n".join(["x: &x [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"] +
                     [f"x{k}: &x{k} [" + ", ".join([f"*x{k - 1}" if k > 1 else "*x"] * 10) + "]" for k in range(1, 9)])
    for target in ("ciudadelas/districts.yaml", "el_mapa/tiles.yaml", "gladiadores/game.yaml"):
        yield Case("yaml_bomb", f"card_file_{target.replace('/', '_')}", ["validate", "--cards", "cards"],
                   {f"cards/{target}": bomb.encode()}, cards=True, must=("at most 20,000 values",))
    many = "\n".join(f"k{k}: *a" for k in range(2000))
    yield Case("yaml_bomb", "alias_count", ["score", "r.yaml"], {"r.yaml": f"a: &a 1\n{many}\n".encode()},
               must=("aliases",))
    yield Case("yaml_bomb", "recursive_alias", ["score", "r.yaml"], {"r.yaml": b"a: &a [*a]\n"},
               must=("recursive alias",))
    yield Case("yaml_bomb", "merge_key_bomb", ["score", "r.yaml"],
               {"r.yaml": ("a: &a {x: 1, y: 2}\n" + "".join(f"b{k}: &b{k} {{<<: *{'a' if k == 0 else f'b{k-1}'}, z{k}: 1}}\n" for k in range(200))).encode()},
               codes=(2,))


def deep_nesting() -> Iterator[Case]:
    """Nesting around and far past the limit, in every reader."""
    for depth in (10, 63, 64, 65, 200, 5_000, 30_000, 100_000):
        over = depth > 64
        flow = "[" * depth + "]" * depth
        yield Case("deep_nesting", f"yaml_flow_{depth}", ["score", "r.yaml"], {"r.yaml": f"game: {flow}\n".encode()},
                   check=one_line_naming("r.yaml") if over else None)
        block = "".join("  " * i + "- \n" for i in range(min(depth, 3000)))
        yield Case("deep_nesting", f"yaml_block_{depth}", ["score", "r.yaml"], {"r.yaml": block.encode()},
                   must=("at most 1,048,576 bytes",) if len(block) > MB else (),
                   check=one_line_naming("r.yaml") if 64 < min(depth, 3000) and len(block) <= MB else None)
        yield Case("deep_nesting", f"json_list_{depth}", ["score", "r.json"],
                   {"r.json": ('{"game": ' + flow + "}").encode()},
                   must=("nesting of at most 64",) if over else ())
        obj = '{"a":' * depth + "1" + "}" * depth
        yield Case("deep_nesting", f"json_object_{depth}", ["score", "r.json"], {"r.json": obj.encode()},
                   must=("nesting of at most 64",) if over else ())
        if len(flow) < 64 * 1024:
            yield play_case("deep_nesting", f"play_line_{depth}", [flow, ADJUST],
                            ["nesting of at most 64" if over else "an action is an object", None])
    yield Case("deep_nesting", "card_file_deep", ["validate", "--cards", "cards"],
               {"cards/ciudadelas/districts.yaml": ("districts: " + "[" * 5000 + "]" * 5000 + "\n").encode()},
               cards=True, check=one_line_naming("cards/ciudadelas/districts.yaml"))
    yield Case("deep_nesting", "json_strings_with_brackets", ["score", "r.json"],
               {"r.json": json.dumps({"game": "el_mapa", "players": [{"name": "[" * 60, "buildings": ["Mercado"]},
                                                                      {"name": "{" * 60, "buildings": ["Cuartel"]}]}).encode()},
               codes=(0,))


def oversize() -> Iterator[Case]:
    """Up to and past 1 MB: one long string, one long list, a long key, a file over the limit."""
    for size in (1000, 100_000, 1_000_000, 1_048_576, 1_048_577, 5_000_000):
        text = "game: el_mapa\nplayers:\n  - name: " + "A" * max(size - 40, 1) + "\n"
        yield Case("oversize", f"long_name_{size}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                   must=("at most 1,048,576 bytes",) if len(text) > MB else ("players",))
    for count in (1000, 19_000, 21_000, 250_000):
        items = "[" + ",".join(["Mercado"] * count) + "]"
        text = f"game: el_mapa\nplayers:\n  - name: Ana\n    buildings: {items}\n  - name: Luis\n    buildings: [Cuartel]\n"
        too_many = "at most 20,000 values" if len(text) <= MB else "at most 1,048,576 bytes"
        yield Case("oversize", f"long_list_{count}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                   must=(too_many if count > 20_000 else "at most 200 items",))
        yield Case("oversize", f"long_json_list_{count}", ["score", "r.json"],
                   {"r.json": json.dumps({"game": "gladiadores", "players": [{"name": "Ana", "combat_wins": 1,
                                                                               "buildings": ["x"] * count}]}).encode()},
                   codes=(2,))
    yield Case("oversize", "long_key", ["score", "r.yaml"], {"r.yaml": ("k" * 900_000 + ": 1\n").encode()})
    yield Case("oversize", "card_file_over_limit", ["validate", "--cards", "cards"],
               {"cards/el_mapa/tiles.yaml": b"tiles: []\n" + b"#" * (2 * MB) + b"\n"}, cards=True,
               must=("at most 1,048,576 bytes",))
    yield play_case("oversize", "play_line_over_64k", ['{"action": "adjust", "x": "' + "y" * 70_000 + '"}', ADJUST],
                    ["at most 65,536 bytes", None])
    yield play_case("oversize", "play_line_of_10mb", ["z" * (10 * MB), ADJUST], ["at most 65,536 bytes", None])


def big_numbers() -> Iterator[Case]:
    """Numbers no game holds, in records, card data and play lines."""
    for value in ("1000", "1000000000", "1" + "0" * 50, "-1", "-" + "9" * 60, "1.5", "1e400", ".inf", ".nan",
                  "1_000", "9" * 100, "9" * 101, "9" * 5000, "true", "'7'", "[]", "{}"):
        for key in ("tiles_revealed", "trained_troops"):
            text = f"game: el_mapa\nplayers:\n  - name: Ana\n    buildings: [Mercado]\n    {key}: {value}\n  - name: Luis\n    buildings: [Cuartel]\n"
            yield Case("big_numbers", f"mapa_{key}_{value[:12]}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                       codes=(2,), must=("r.yaml:",))
    for value in (10**9, 10**50, -5, 2**63):
        text = json.dumps({"game": "gladiadores", "target": value,
                           "players": [{"name": "Ana", "combat_wins": 1}, {"name": "Luis", "combat_wins": 2}]})
        yield Case("big_numbers", f"glad_target_{value}", ["score", "r.json"], {"r.json": text.encode()},
                   must=("target",))
    for value in ("1" + "0" * 50, "1" + "0" * 120, "1e309", "-0"):
        line = '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": ' + value + "}"
        yield play_case("big_numbers", f"play_delta_{value[:10]}_{len(value)}", [line, ADJUST], ["", None],
                        ok_first=None)


def schema_ranges() -> Iterator[Case]:
    """Every kind of number in the card data set past its range: validate names file, line, entry, field."""
    root = Path(__file__).resolve().parents[2] / "cards"
    pattern = re.compile(r"^(\s+(?:- )?)(cost|copies|level|points|extra_points|number|gold_income|hp|damage|"
                         r"fight_cost|recruit_every|map_move|value|size_mm|count|starting_gold|complete_city): (\d+)\s*$")
    picked = 0
    rnd = random.Random(10)
    for path in sorted(root.glob("*/*.yaml")):
        if path.name == "schema.yaml":
            continue
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        spots = [i for i, line in enumerate(lines) if pattern.match(line)]
        for i in rnd.sample(spots, min(len(spots), 1)):
            for bad in ("1" + "0" * 50, "-3", "100000"):
                edited = list(lines)
                m = pattern.match(lines[i])
                edited[i] = f"{m.group(1)}{m.group(2)}: {bad}\n"
                rel = f"cards/{path.parent.name}/{path.name}"
                picked += 1
                yield Case("schema_ranges", f"{path.parent.name}_{path.stem}_{i + 1}_{m.group(2)}_{bad[:6]}",
                           ["validate", "--cards", "cards"], {rel: "".join(edited).encode()}, cards=True,
                           must=(f"{rel}:{i + 1}: ", f"{m.group(2)}: an integer from ", f"got {bad}"))


def issue_cases() -> Iterator[Case]:
    """The exact inputs the issue lists, each once."""
    root = Path(__file__).resolve().parents[2] / "cards"
    text = (root / "ciudadelas" / "districts.yaml").read_text(encoding="utf-8")
    at = text.index("cost: ")
    line = text.count("\n", 0, at) + 1
    entry = re.findall(r"- id: (\w+)", text[:at])[-1]
    edited = text[:at] + "cost: 1" + "0" * 50 + text[text.index("\n", at):]
    yield Case("issue", "card_cost_10e50", ["validate", "--cards", "cards"],
               {"cards/ciudadelas/districts.yaml": edited.encode()}, cards=True,
               must=(f"cards/ciudadelas/districts.yaml:{line}: district '{entry}': cost: an integer from 0 to 100, "
                     f"got 1{'0' * 50}",))
    laughs = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
              + "".join(f"{chr(98 + k)}: &{chr(98 + k)} [" + ",".join([f"*{chr(97 + k)}"] * 9) + "]\n" for k in range(8)))
    assert len(laughs) < 400
    yield Case("issue", "billion_laughs_record", ["score", "r.yaml"], {"r.yaml": laughs.encode()},
               must=("at most 20,000 values",))
    yield Case("issue", "json_100000_deep_record", ["score", "r.json"], {"r.json": ("[" * 100_000 + "]" * 100_000).encode()},
               must=("nesting of at most 64",))
    yield play_case("issue", "json_100000_deep_play_line", ["[" * 100_000 + "]" * 100_000, ADJUST],
                    ["at most 65,536 bytes", None])
    yield play_case("issue", "json_30000_deep_play_line", ["[" * 30_000 + "]" * 30_000, ADJUST],
                    ["nesting of at most 64", None])
    yield Case("issue", "yaml_30000_deep_record", ["score", "r.yaml"], {"r.yaml": ("[" * 30_000 + "]" * 30_000).encode()},
               check=one_line_naming("r.yaml"))
    yield Case("issue", "seed_50_digits", ["play", "el_mapa", "--players", "A,B", "--db", "g.db", "--seed", "9" * 50],
               must=("--seed: expected a whole number from 0 to 9223372036854775807",))
    yield Case("issue", "history_notes_txt", ["history", "--db", "notes.txt"], {"notes.txt": b"my notes\n"},
               must=("not a Ludoteca database",),
               check=lambda folder, out, err: None if (folder / "notes.txt").read_bytes() == b"my notes\n"
               and len(list(folder.iterdir())) == 1 else "notes.txt was touched")


def impossible_games() -> Iterator[Case]:
    """End states the box does not allow, and their --lenient twins."""
    full = "[Cuartel, Mercado, Almacén, Ayuntamiento, Banco, Arquería, Teatro, Tesorería, Universidad]"
    mapa = {
        "wonder_alone": ("[Pirámides]", "needs 9 under it"),
        "wonder_on_three": ("[Templo de Midas, Cuartel, Mercado, Banco]", "needs 9 under it"),
        "level2_alone": ("[Teatro]", "needs 2 under it"),
        "level3_on_two": ("[Coliseo, Cuartel, Mercado]", "needs 5 under it"),
        "thirteen_barracks": ("[" + ", ".join(["Cuartel"] * 13) + "]", "one per castle board"),
        "variant_off": ("[Armería, Cuartel, Mercado]", "variants: [armeria_atalaya]"),
        "watchtower_off": ("[Atalaya, Cuartel, Mercado]", "variants: [armeria_atalaya]"),
    }
    for name, (buildings, must) in mapa.items():
        text = f"game: el_mapa\nplayers:\n  - name: Ana\n    buildings: {buildings}\n  - name: Luis\n    buildings: [Cuartel]\n"
        yield Case("impossible_game", f"mapa_{name}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                   must=(must, "seed 001_1b1189934490b265.txt:"))
        yield Case("impossible_game", f"mapa_{name}_lenient", ["score", "r.yaml", "--lenient"],
                   {"r.yaml": text.encode()}, codes=(0,), must=("House rule",))
    ok = f"game: el_mapa\nplayers:\n  - name: Ana\n    buildings: [Pirámides, {full[1:-1]}]\n  - name: Luis\n    buildings: [Cuartel]\n"
    yield Case("impossible_game", "mapa_wonder_on_full_castle", ["score", "r.yaml"], {"r.yaml": ok.encode()}, codes=(0,))
    for tiles in (500, 10**6, 235, 240):
        text = GOOD_MAPA.replace("buildings: [Mercado]", f"buildings: [Mercado]\n    tiles_revealed: {tiles}")
        yield Case("impossible_game", f"mapa_tiles_{tiles}", ["score", "r.yaml"], {"r.yaml": text.encode()},
                   codes=(2,), must=("tiles",))
    for tiles in (0, 228, 234):  # 240 tiles, 3 face up per player from the start
        yield Case("impossible_game", f"mapa_tiles_{tiles}", ["score", "r.yaml"],
                   {"r.yaml": GOOD_MAPA.replace("buildings: [Mercado]",
                                                f"buildings: [Mercado]\n    tiles_revealed: {tiles}").encode()},
                   codes=(0,))
    yield Case("big_numbers", "yaml_hex_int", ["score", "r.yaml"],
               {"r.yaml": GOOD_MAPA.replace("buildings: [Mercado]", "buildings: [Mercado]\n    tiles_revealed: 0x1F").encode()},
               codes=(0,))
    cit = {
        "four_of_three": ("[Templo]", 4, "the deck holds 3"),
        "unique_twice": ("[Universidad]", 2, "the deck holds 1"),
        "six_of_five": ("[Taberna]", 6, "the deck holds 5"),
    }
    for name, (city, players, must) in cit.items():
        rows = "".join(f"  - name: P{k}\n    city: {city}\n" for k in range(players))
        yield Case("impossible_game", f"ciudadelas_{name}", ["score", "r.yaml"],
                   {"r.yaml": f"game: ciudadelas\nplayers:\n{rows}".encode()}, must=(must, "000_f3c6419bc6162887.txt:9"))
    rows = "  - name: Ana\n    city: [Templo]\n    characters: [Rey]\n  - name: Luis\n    city: [Taberna]\n    characters: [King]\n"
    yield Case("impossible_game", "ciudadelas_king_twice", ["score", "r.yaml"],
               {"r.yaml": f"game: ciudadelas\nplayers:\n{rows}".encode()}, must=("one card of each character",))
    yield Case("impossible_game", "gladiadores_unique_twice", ["score", "r.json"],
               {"r.json": json.dumps({"game": "gladiadores", "players": [
                   {"name": "Ana", "combat_wins": 1, "buildings": ["templum"]},
                   {"name": "Luis", "combat_wins": 1, "buildings": ["templum"]}]}).encode()},
               must=("and the game has 1",))


def encodings() -> Iterator[Case]:
    """Bytes that are not the UTF-8 text the readers expect."""
    samples = {
        "latin1": GOOD_MAPA.replace("Ana", "Añá").encode("latin-1"),
        "utf16": GOOD_MAPA.encode("utf-16"),
        "bom": b"\xef\xbb\xbf" + GOOD_MAPA.encode(),
        "nul_bytes": b"\x00" * 100,
        "random": bytes(random.Random(3).randrange(256) for _ in range(3000)),
        "empty": b"",
        "only_comment": b"# nothing\n",
        "tabs": b"game:\tel_mapa\n\tplayers: []\n",
        "control_chars": b"game: el_mapa\nplayers:\n  - name: \x1b[31mAna\n",
        "surrogate_escape": b'{"game": "\\ud800"}',
    }
    for name, data in samples.items():
        for suffix in ("yaml", "json"):
            yield Case("encoding", f"{name}_{suffix}", ["score", f"r.{suffix}"], {f"r.{suffix}": data},
                       codes=(0, 2))
    yield play_case("encoding", "play_invalid_utf8", [b"\xff\xfe{}".decode("latin-1"), ADJUST], ["", None],
                    ok_first=None)


ADJUST = '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}'


def play_case(kind: str, name: str, lines: list[str], errors: list[str | None], ok_first: bool | None = False,
              extra: list[str] | None = None) -> Case:
    """A ``play`` session fed ``lines``: answer *k* is an error containing ``errors[k]`` (``None``: ok)."""
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"

    def check(folder: Path, out: str, err: str) -> str | None:
        answers = [json.loads(x) for x in out.splitlines()]
        if len(answers) != len(lines):
            return f"{len(answers)} answers to {len(lines)} lines"
        for k, (answer, want) in enumerate(zip(answers, errors)):
            if answer.get("kind") == "InternalError":  # the session survived a fault of ours: still a fault
                return f"line {k + 1}: {answer['error']}"
            if want is None and not answer.get("ok"):
                return f"line {k + 1} refused: {answer}"
            if want is not None and (ok_first is not None or k > 0) and (answer.get("ok") or want not in answer.get("error", "")):
                return f"line {k + 1}: expected an error with {want!r}, got {str(answer)[:200]}"
        return None

    return Case(kind, name, ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "g.db", *(extra or [])],
                stdin=data, codes=(0,), check=check)


def play_lines() -> Iterator[Case]:
    """What a client may send to ``play``: every line answered, the session never ends early."""
    garbage = ["", "null", "1", '"adjust"', "[]", "{}", '{"action": null}', '{"action": 1}', '{"action": "nope"}',
               '{"action": "adjust"}', '{"action": "adjust", "player": "Nadie", "resource": "gold", "delta": 1}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": "1"}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": NaN}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": Infinity}',
               '{"action": "adjust", "player": ["Ana"], "resource": "gold", "delta": 1}',
               '{"action": "adjust", "player": "Ana", "resource": {"a": 1}, "delta": 1}',
               '{"action": "undo"}', '{"action": "redo"}', '{"action": "adjust", "__proto__": 1}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": true}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": ""}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": [1]}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": "' + "x" * 101 + '"}',
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": 1.5}',
               "{'action': 'adjust'}", '{"action": "adjust",}', "\x00\x00", "\t", "\u2028",
               '{"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1}' * 2,
               # issue 22 #8's final_record: before the end, not a record, a record of strangers or too deep
               '{"action": "final_record"}', '{"action": "final_record", "record": "Ana 30"}',
               '{"action": "final_record", "record": {"game": "ciudadelas", "players": [{"name": "Eva"}]}}',
               '{"action": "final_record", "record": {"game": "ciudadelas", "players": [{"name": "Ana"}, '
               '{"name": "Luis"}]}}',
               '{"action": "final_record", "record": ' + '{"a": ' * 60 + "1" + "}" * 61]
    for k, line in enumerate(garbage):
        if not line.strip():
            continue  # blank lines are skipped without an answer
        yield play_case("play_line", f"garbage_{k}", [line, ADJUST], ["", None])
    ids = [dict(json.loads(ADJUST), id="a"), dict(json.loads(ADJUST), id="a"), dict(json.loads(ADJUST), id=7),
           dict(json.loads(ADJUST), id="7")]

    def repeated(folder: Path, out: str, err: str) -> str | None:
        answers = [json.loads(x) for x in out.splitlines()]
        got = [(a["seq"], a.get("repeated", False)) for a in answers]
        return None if got == [(1, False), (1, True), (2, False), (2, True)] else f"answers {got}"

    yield Case("play_line", "resent_ids", ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "g.db"],
               stdin="".join(json.dumps(a) + "\n" for a in ids).encode(), codes=(0,), check=repeated)
    for seed in ("0", "1", str(2**63 - 1)):
        yield Case("seed", f"seed_{seed[:8]}", ["play", "gladiadores", "--players", "A,B", "--db", "g.db", "--seed", seed],
                   codes=(0,))
    for seed in (str(2**63), "9" * 50, "9" * 5000, "-1", "1.0", "0x10", "", " ", "١٢٣", "1e3"):
        yield Case("seed", f"seed_bad_{len(seed)}_{seed[:4]}",
                   ["play", "gladiadores", "--players", "A,B", "--db", "g.db", f"--seed={seed}"],
                   must=("--seed",))


def databases() -> Iterator[Case]:
    """Files that are not our database, damaged ones, and missing paths, for every command."""
    foreign = {
        "text": b"Comprar pan.\n",
        "random": bytes(random.Random(7).randrange(256) for _ in range(20_000)),
        "sqlite_magic_garbage": b"SQLite format 3\x00" + b"\xff" * 5000,
        "png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 2000,
        "zeros": b"\x00" * 8192,
        "one_byte": b"x",
    }
    commands = {"history": ["history", "--db", "x.db"], "history_json": ["history", "--json", "--db", "x.db"],
                "export": ["export", "20260101-abcdef", "--db", "x.db"],
                "play": ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "x.db"]}
    for fname, data in foreign.items():
        for cname, argv in commands.items():
            def unchanged(folder: Path, out: str, err: str, data: bytes = data) -> str | None:
                left = sorted(p.name for p in folder.iterdir())
                if (folder / "x.db").read_bytes() != data or left != ["x.db"]:
                    return f"the file was changed or moved: {left}"
                return None
            yield Case("database", f"{fname}_{cname}", argv, {"x.db": data}, must=("not a Ludoteca database",),
                       check=unchanged)
    other = _sqlite_bytes("CREATE TABLE photos (name TEXT); INSERT INTO photos VALUES ('a');")
    for cname, argv in commands.items():
        yield Case("database", f"other_program_{cname}", argv, {"x.db": other}, must=("another program",))
    for cname in ("history", "history_json"):
        yield Case("database", f"missing_{cname}", commands[cname], codes=(0,),
                   check=lambda folder, out, err: "created a file" if (folder / "x.db").exists() else None)
    yield Case("database", "missing_export", commands["export"], must=("no database here",),
               check=lambda folder, out, err: "created a file" if (folder / "x.db").exists() else None)
    yield Case("database", "empty_file_play", commands["play"], {"x.db": b""}, codes=(0,))
    yield Case("database", "a_folder", commands["play"], {"x.db/keep": b""}, must=("is a folder",))
    for cname, argv in commands.items():  # a FIFO would make SQLite's open wait for a writer forever
        yield Case("database", f"a_fifo_{cname}", argv, fifos=("x.db",), must=("x.db: is a FIFO",))
    good = _ludoteca_db(actions=30)
    for damage in ("header", "page1", "tail", "middle"):
        data = bytearray(good)
        if damage == "header":
            data[:100] = bytes(100)
        elif damage == "page1":
            data[:4096] = bytes(4096)
        elif damage == "tail":
            del data[len(data) // 2:]
        else:
            data[4096:8192] = b"\xee" * 4096
        for cname in ("history", "play"):
            def recovered(folder: Path, out: str, err: str, cname: str = cname) -> str | None:
                if cname == "play" and "readable actions were recovered" not in err:
                    return "no recovery notice"
                return None
            yield Case("database", f"damaged_{damage}_{cname}", commands[cname], {"x.db": bytes(data)},
                       codes=(0,) if cname == "play" else (0, 2), check=recovered)


def _sqlite_bytes(script: str) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        conn = sqlite3.connect(path)
        conn.executescript(script)
        conn.close()
        return path.read_bytes()


def _ludoteca_db(actions: int, with_id: bool = False):
    """A Ludoteca database of one Ciudadelas game, closed cleanly (and, ``with_id``, the game's id)."""
    from ludoteca.companion.engine import Store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        store = Store(path)
        session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
        for k in range(actions):
            session.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": k + 1})
        store.close()
        return (path.read_bytes(), session.id) if with_id else path.read_bytes()


def _sqlite_refuses(error_of: Callable[[], sqlite3.Error], when: Callable[[str], bool], full: bool = False):
    """A world where SQLite reports a real error of its own (``error_of``) for the connections
    ``when`` picks, and (``full``) the disk has no free space left."""

    @contextlib.contextmanager
    def world():
        from collections import namedtuple
        real_connect, real_usage = sqlite3.connect, shutil.disk_usage
        error = error_of()

        class Refusing:
            def execute(self, *args):
                raise error

            def close(self):
                pass

        sqlite3.connect = lambda target, *a, **k: Refusing() if when(str(target)) else real_connect(target, *a, **k)
        if full:
            shutil.disk_usage = lambda path: namedtuple("Usage", "total used free")(1, 1, 0)
        try:
            yield
        finally:
            sqlite3.connect, shutil.disk_usage = real_connect, real_usage
    return world


def _shm_full() -> sqlite3.Error:
    """What SQLite raises on a full disk when the -shm of a cleanly closed database cannot grow."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode, error.sqlite_errorname = 4874, "SQLITE_IOERR_SHMSIZE"
    return error


def _cant_open() -> sqlite3.Error:
    """SQLite's own SQLITE_CANTOPEN, as on a read-only mount (no -shm can be made)."""
    try:
        sqlite3.connect("file:/nonexistent-ludoteca/x.db?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("SQLite opened a file that does not exist")


def _left_alone(data: bytes, name: str = "g.db") -> Callable[[Path, str, str], str | None]:
    def check(folder: Path, out: str, err: str) -> str | None:
        left = sorted(p.name for p in folder.iterdir() if not p.name.startswith(f"{name}-"))
        if left != [name] or (folder / name).read_bytes() != data:
            return f"the healthy database was changed or moved: {left}"
        return None
    return check


def _with_clock_row(data: bytes, at: object, seat: object) -> bytes:
    """``data`` with a clock whose second row is (``turn``, ``at``, ``seat``)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        path.write_bytes(data)
        conn = sqlite3.connect(path)
        [game_id] = conn.execute("SELECT id FROM games").fetchone()
        conn.execute("CREATE TABLE IF NOT EXISTS clock (game_id TEXT NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL,"
                     " at TEXT NOT NULL, seat INTEGER, PRIMARY KEY (game_id, n))")
        conn.executemany("INSERT INTO clock VALUES (?, ?, ?, ?, ?)",
                         [(game_id, 1, "start", "2026-01-01T09:00:00+00:00", None), (game_id, 2, "turn", at, seat)])
        conn.commit()
        conn.close()
        return path.read_bytes()


def _with_game_change(data: bytes, change: str) -> bytes:
    """``data`` with its games row changed by ``UPDATE games SET <change>``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        path.write_bytes(data)
        conn = sqlite3.connect(path)
        conn.execute(f"UPDATE games SET {change}")
        conn.commit()
        conn.close()
        return path.read_bytes()


def store_troubles() -> Iterator[Case]:
    """Issue 19's database repros: a full disk, a read-only mount, damaged clock rows, damage on
    any page (every intact action recovered)."""
    data, game_id = _ludoteca_db(actions=5, with_id=True)
    full = _sqlite_refuses(_shm_full, lambda target: True, full=True)
    yield Case("database", "full_disk_play_game_id", ["play", "ciudadelas", "--game-id", game_id, "--db", "g.db"],
               {"g.db": data}, stdin=(ADJUST + "\n").encode(), must=("the disk is full",), world=full,
               check=_left_alone(data))
    yield Case("database", "full_disk_play_new", ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "g.db"],
               {"g.db": data}, must=("the disk is full",), world=full, check=_left_alone(data))
    read_only = _sqlite_refuses(_cant_open, lambda target: "mode=ro" in target)
    for name, argv in {"history": ["history"], "history_last": ["history", "last"],
                       "export_csv": ["export", "last", "--format", "csv"],
                       "export_bgstats": ["export", "last", "--format", "bgstats"]}.items():
        yield Case("database", f"read_only_mount_{name}", [*argv, "--db", "g.db"], {"g.db": data}, codes=(0,),
                   must=(game_id,) if name.startswith("history") else (), world=read_only, check=_left_alone(data))
    unopenable = _sqlite_refuses(_cant_open, lambda target: True)
    yield Case("database", "unopenable_play", ["play", "ciudadelas", "--game-id", game_id, "--db", "g.db"],
               {"g.db": data}, must=("cannot open the database",), world=unopenable, check=_left_alone(data))
    for k, (at, seat) in enumerate([("not a time", 0), (12345, 0), ("2026-01-01T10:00:00+00:00", "Ana"),
                                    ("2026-01-01T10:00:00+00:00", -99), ("2026-01-01T10:00:00+00:00", 9)]):
        clocked = _with_clock_row(data, at, seat)
        for argv in (["history", "last"], ["export", "last", "--format", "bgstats"],
                     ["export", "last", "--format", "json"]):
            yield Case("clock_rows", f"row_{k}_{argv[0]}_{argv[-1]}", [*argv, "--db", "g.db"],
                       {"g.db": clocked}, codes=(0,), must=("1 damaged clock row(s) left out",))
    for k, change in enumerate(["created = 'nope'", "players = 'notjson'", "players = '[1, 2]'", "final = '{bad'",
                                "status = 'finished', final = '{\"players\": 5}'"]):
        edited = _with_game_change(data, change)
        for argv in (["history"], ["history", "--stats"], ["history", "--json"], ["export", "last"],
                     ["play", "ciudadelas", "--game-id", game_id]):
            yield Case("game_rows", f"row_{k}_{'_'.join(argv[:2])}", [*argv, "--db", "g.db"], {"g.db": edited},
                       codes=(2,) if argv[0] != "history" else (0,),
                       must=("saved row of game" if argv[0] == "play" else "their saved row is damaged",))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import recoverycases as rc
    with tempfile.TemporaryDirectory() as folder:
        rows = rc.build(Path(folder) / "g.db", games=3, per_game=60)
        healthy = (Path(folder) / "g.db").read_bytes()
    for kind in rc.ISSUE_DAMAGE:
        damaged = rc.damage(healthy, kind)

        def every_intact_back(folder: Path, out: str, err: str, damaged: bytes = damaged) -> str | None:
            from ludoteca.companion.engine import Store
            store = Store(folder / "g.db", readonly=True)
            back = {cid for (cid,) in store.conn.execute("SELECT client_id FROM actions")}
            store.close()
            lost = rc.intact(rows, [damaged]) - back
            return f"{len(lost)} intact actions not recovered" if lost else None
        yield Case("database", f"recovery_{kind}", ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "g.db"],
                   {"g.db": damaged}, codes=(0,), must=("readable actions were recovered",), check=every_intact_back)


def csv_injection() -> Iterator[Case]:
    """Player names a spreadsheet would run as formulas, exported as CSV."""
    for k, name in enumerate(['=HYPERLINK("http://x.invalid","x")', "+SUM(1)", "-2+3", "@cmd", "\tTab", "=1+1",
                              "=cmd|' /C calc'!A0", "Ana"]):
        def exported(folder: Path, out: str, err: str, name: str = name) -> str | None:
            import csv
            from ludoteca.companion.engine import Store
            from ludoteca.companion.engine.export import export_data
            store = Store(folder / "g.db", readonly=True)
            [game] = store.history()
            rows = [row for fmt in ("csv", "log")
                    for row in list(csv.reader(io.StringIO(export_data(store, game["id"], fmt), newline="")))[1:]]
            store.close()
            cells = [c for row in rows for c in row]
            bad = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
            return f"formula cells: {bad}" if bad else None
        line = json.dumps({"action": "adjust", "player": name, "resource": "gold", "delta": 1})
        yield Case("csv_injection", f"name_{k}", ["play", "ciudadelas", f"--players={name},Luis", "--db", "g.db"],
                   stdin=(line + "\n").encode(), codes=(0,), check=exported)


# -- issue 19: play lines, names, a player count's buildings, schema words, special files, photos ----

def surrogate_lines() -> Iterator[Case]:
    """Play lines the engine read wrongly: a number as a resource, halves of a character (lone
    surrogates), as JSON escapes and as raw bytes; each is answered and the session goes on."""
    lines = {
        "resource_number": ('{"action":"adjust","player":"Ana","resource":5,"delta":1}', "unknown resource '5'"),
        "resource_float": ('{"action":"adjust","player":"Ana","resource":1.5,"delta":1}', "must be a name"),
        "resource_true": ('{"action":"adjust","player":"Ana","resource":true,"delta":1}', "must be a name"),
        "action_surrogate": ('{"action":"\\ud800"}', "lone surrogate"),
        "player_surrogate": ('{"action":"adjust","player":"\\ud800","resource":"gold","delta":1}', "lone surrogate"),
        "resource_surrogate": ('{"action":"adjust","player":"Ana","resource":"\\udfff","delta":1}', "lone surrogate"),
        "id_surrogate": ('{"action":"adjust","player":"Ana","resource":"gold","delta":1,"id":"\\udc00"}',
                         "lone surrogate"),
        "key_surrogate": ('{"\\ud800":1,"action":"adjust"}', "lone surrogate"),
        "pair_reversed": ('{"action":"\\udc00\\ud800"}', "lone surrogate"),
        "high_then_letter": ('{"action":"\\ud83dx"}', "lone surrogate"),
        "raw_surrogate_bytes": ('{"action":"\ud800"}', "has no action"),
        "pair_is_a_character": ('{"action":"\\ud83d\\ude00"}', "has no action"),
    }
    for name, (line, words) in lines.items():
        yield play_case("play_line", name, [line, ADJUST], [words, None])
    yield play_case("play_line", "three_bad_then_good", [lines["resource_number"][0], lines["action_surrogate"][0],
                                                          lines["player_surrogate"][0], ADJUST],
                    ["unknown resource", "lone surrogate", "lone surrogate", None])


BAD_NAMES = {"long_100000": "A" * 100_000, "long_61": "A" * 61, "soh": "Ana\x01", "ansi_red": "\x1b[31mAna",
             "ansi_clear": "Ana\x1b[2J", "bell": "Ana\x07", "del": "Ana\x7f", "c1_csi": "Ana\x9b31m",
             "rtl_override": "Ana\u202eqwe", "isolate": "\u2066Ana", "line_separator": "Ana\u2028Luis",
             "tab": "An\ta", "nul": "Ana\x00"}


def _no_escape(folder: Path, out: str, err: str) -> str | None:
    raw = [c for c in out + err if c in "\x1b\x07\x9b\u202e\x01"]
    return f"printed raw: {raw[:3]!r}" if raw else None


def _db_with_players(players: list[str]) -> bytes:
    """A database an older Ludoteca wrote, whose players' names are no names today."""
    from ludoteca.companion.engine import Store

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.db"
        store = Store(path)
        store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
        store.close()
        conn = sqlite3.connect(path)
        with conn:
            conn.execute("UPDATE games SET players = ?", (json.dumps(players),))
        conn.close()
        return path.read_bytes()


def names() -> Iterator[Case]:
    """Names that are no names (too long, control characters, ANSI escapes, bidi overrides): refused
    where they are typed, and never printed raw where they are shown."""
    for key, name in BAD_NAMES.items():
        yield Case("names", f"play_players_{key}", ["play", "ciudadelas", f"--players={name},Luis", "--db", "g.db"],
                   must=("player 1's name: a name of",), check=_no_escape)
        yield Case("names", f"play_second_player_{key}", ["play", "gladiadores", f"--players=Ana,{name}", "--db", "g.db"],
                   must=("player 2's name: a name of",), check=_no_escape)
        record = json.dumps({"game": "gladiadores", "players": [{"name": name, "combat_wins": 1},
                                                                {"name": "Luis", "combat_wins": 2}]})
        yield Case("names", f"score_record_{key}", ["score", "r.json"], {"r.json": record.encode()},
                   must=("players[0].name: expected a name of",), check=_no_escape)
        if len(name) < 1000:
            city = json.dumps({"game": "ciudadelas", "players": [{"name": "Ana", "city": [name]},
                                                                 {"name": "Luis", "city": ["Templo"]}]})
            yield Case("names", f"score_unknown_card_{key}", ["score", "r.json"], {"r.json": city.encode()},
                       must=("unknown district",), check=_no_escape)
    yield Case("names", "play_players_60_characters", ["play", "ciudadelas", f"--players={'B' * 60},Luis", "--db", "g.db"],
               codes=(0,))
    old = _db_with_players(["\x1b[31mAna\x07", "L" * 5000, "Eva\u202e"])
    for argv in (["history", "--db", "g.db"], ["history", "last", "--db", "g.db"],
                 ["history", "--json", "--db", "g.db"], ["history", "--stats", "--db", "g.db"]):
        yield Case("names", "old_names_" + "_".join(a.strip("-") for a in argv[1:-2]) or "old_names_list",
                   argv, {"g.db": old}, codes=(0,), check=_no_escape)
    root = Path(__file__).resolve().parents[2] / "cards"
    text = (root / "gladiadores" / "buildings.yaml").read_text(encoding="utf-8")
    for key, name in BAD_NAMES.items():
        quoted = json.dumps(name)  # a YAML double-quoted scalar with JSON's escapes
        edited = text.replace("name: {es: Domus, en: Domus}", f"name: {{es: {quoted}, en: Domus}}")
        yield Case("names", f"validate_card_name_{key}", ["validate", "--cards", "cards"],
                   {"cards/gladiadores/buildings.yaml": edited.encode()}, cards=True,
                   must=("building 'domus': name.es: a name of",), check=_no_escape)


def player_count_buildings() -> Iterator[Case]:
    """Gladiadores buildings of a larger player count in a smaller game (player_counts in game.yaml)."""
    glad = {"v_in_3": (3, ["Domus", "Arcus"], "(symbol V)"), "v_in_4": (4, ["Domus"], "(symbol V)"),
            "iv_in_3": (3, ["Circus"], "(symbol IV)"), "iii_in_2": (2, ["Basilica"], "(symbol III)"),
            "v_in_2_expansion": (2, ["Arcus"], "(symbol V)")}
    for key, (count, buildings, words) in glad.items():
        players = [{"name": f"P{k}", "combat_wins": 1, **({"buildings": buildings} if k == 0 else {})}
                   for k in range(count)]
        record = {"game": "gladiadores", "players": players, **({"expansion": True} if "expansion" in key else {})}
        data = json.dumps(record).encode()
        yield Case("impossible_game", f"gladiadores_{key}", ["score", "r.json"], {"r.json": data},
                   must=(words, "seed 002_ecf15d19eaf72115.txt:"))
        yield Case("impossible_game", f"gladiadores_{key}_lenient", ["score", "r.json", "--lenient"], {"r.json": data},
                   codes=(0,), must=("House rule", words))
    five = [{"name": f"P{k}", "combat_wins": 1, **({"buildings": ["Domus", "Arcus"]} if k == 0 else {})} for k in range(5)]
    yield Case("impossible_game", "gladiadores_v_in_5_expansion", ["score", "r.json"],
               {"r.json": json.dumps({"game": "gladiadores", "expansion": True, "players": five}).encode()}, codes=(0,))


def schema_words() -> Iterator[Case]:
    """A word where a schema.yaml wants a number, and ids repeated inside an entry."""
    root = Path(__file__).resolve().parents[2] / "cards"
    edits = {
        "gladiadores_min_len": ("gladiadores", "        min_len: 1\n", "        min_len: one\n", "'min_len'"),
        "gladiadores_min_len_negative": ("gladiadores", "        min_len: 1\n", "        min_len: -1\n", "'min_len'"),
        "gladiadores_option_min": ("gladiadores", "      type: int\n      min: 1\n", "      type: int\n      min: uno\n",
                                   "setup.options.target.min: a whole number"),
        "gladiadores_option_max": ("gladiadores", "      min: 1\n      max: 100\n", "      min: 1\n      max: cien\n",
                                   "setup.options.target.max: a whole number"),
        "el_mapa_int_min": ("el_mapa", "fields: {min: {type: int, min: 1,", "fields: {min: {type: int, min: uno,",
                            "plausible range ('min'"),
        "el_mapa_tiles_unique_len": ("el_mapa", "tiles: {type: list, of: {type: ref, to: tile}, min_len: 1,",
                                     "tiles: {type: list, of: {type: ref, to: tile}, min_len: [1],", "'min_len'"),
    }
    for key, (game, old, new, words) in edits.items():
        text = (root / game / "schema.yaml").read_text(encoding="utf-8")
        assert old in text, key
        yield Case("card_schema", key, ["validate", "--cards", "cards"],
                   {f"cards/{game}/schema.yaml": text.replace(old, new, 1).encode()}, cards=True,
                   must=(f"cards/{game}/schema.yaml:", words))
    game_yaml = (root / "el_mapa" / "game.yaml").read_text(encoding="utf-8")
    for key, (old, new, words) in {"end_condition": ("- id: ultima_ficha", "- id: maravilla", "end_conditions[1].id"),
                                   "variant": ("- id: obstaculos", "- id: armeria_atalaya", "variant 'armeria_atalaya'"),
                                   "resource": ("- id: madera", "- id: oro", "resource 'oro'")}.items():
        yield Case("card_schema", f"el_mapa_duplicate_{key}", ["validate", "--cards", "cards"],
                   {"cards/el_mapa/game.yaml": game_yaml.replace(old, new, 1).encode()}, cards=True,
                   must=(words, "a unique id (first used on line"))


def art_parts() -> Iterator[Case]:
    """El Mapa pictures made of parts the art library does not draw (issue 20): one line each, naming
    the file, the entry and the field, before anything is drawn."""
    text = (Path(__file__).resolve().parents[2] / "cards" / "el_mapa" / "buildings.yaml").read_text(encoding="utf-8")
    old = "art: [grass, barracks, spears, banner]"
    line = text[:text.index(old)].count("\n") + 1
    edits = {"unknown": ("[grass, barraks]", "art[1]: one of the", "(did you mean 'barracks'?)"),
             "long": ("[" + "x" * 100_000 + "]", "art[0]: one of the", "got 'xxx"),
             "accent": ("[césped]", "art[0]: one of the", "got 'césped'")}
    for key, (new, *words) in edits.items():
        edited = text.replace(old, "art: " + new, 1).encode()
        yield Case("art_parts", key, ["validate", "--cards", "cards"], {"cards/el_mapa/buildings.yaml": edited},
                   cards=True, must=(f"cards/el_mapa/buildings.yaml:{line}: building 'cuartel': ", *words),
                   check=one_line_naming("cards/el_mapa/buildings.yaml"))
    yield Case("art_parts", "build_unknown", ["build", "el_mapa", "--cards", "cards", "--out", "o", "-q"],
               {"cards/el_mapa/buildings.yaml": text.replace(old, "art: [grass, barraks]", 1).encode()}, cards=True,
               must=("building 'cuartel': art[1]",),
               check=lambda folder, out, err: "wrote the output folder" if (folder / "o").exists() else None)


def _settings_default(folder: Path) -> int:
    """The app's start reading its settings from ``folder``: 0 when it gets the defaults."""
    from ludoteca.companion.app.settings import Settings

    return 0 if Settings.load(folder) == Settings() else 1


def special_files() -> Iterator[Case]:
    """Paths that are no regular files (a FIFO with no writer, /dev/zero, a folder) where a file is read."""
    yield Case("special_file", "settings_fifo", [], fifos=("companion.json",), codes=(0,), call=_settings_default)
    yield Case("special_file", "settings_folder_inside", [], files={"companion.json/x": b""}, codes=(0,),
               call=lambda folder: 0 if _settings_default(folder) in (0, 1) else 2)
    for suffix in ("yaml", "json"):
        yield Case("special_file", f"score_fifo_{suffix}", ["score", f"r.{suffix}"], fifos=(f"r.{suffix}",),
                   must=("a FIFO (named pipe), not a regular file",))
    for target in ("el_mapa/tiles.yaml", "ciudadelas/schema.yaml", "gladiadores/game.yaml"):
        yield Case("special_file", f"card_file_fifo_{target.replace('/', '_')}", ["validate", "--cards", "cards"],
                   cards=True, fifos=(f"cards/{target}",), must=("got a FIFO (named pipe)",))
    if Path("/dev/zero").exists():
        yield Case("special_file", "score_dev_zero", ["score", "/dev/zero"], must=("a character device",))
        yield Case("special_file", "scan_dev_zero", ["scan", "/dev/zero", "--game", "ciudadelas"],
                   must=("/dev/zero: cannot read the photo (a character device, not a regular file)",))
    yield Case("special_file", "scan_fifo_jpg", ["scan", "x.jpg", "--game", "ciudadelas"], fifos=("x.jpg",),
               must=("x.jpg: cannot read the photo (a FIFO (named pipe), not a regular file)",))
    yield Case("special_file", "scan_fifo_among_photos", ["scan", "a.png", "x.jpg", "--game", "gladiadores"],
               {"a.png": _png(160, 120)}, fifos=("x.jpg",), must=("x.jpg: cannot read the photo",),
               check=lambda folder, out, err: f"printed {out[:80]!r}" if out else None)
    yield Case("special_file", "scan_folder", ["scan", "fotos", "--game", "ciudadelas"], {"fotos/a.png": _png(16, 16)},
               must=("fotos: cannot read the photo (a folder, not a regular file)",))
    yield Case("special_file", "scan_record_fifo", ["scan", "--game", "gladiadores", "--score", "--player", "Ana=a.png",
                                                    "--player", "Luis=a.png", "--record", "p.yaml"],
               {"a.png": _png(160, 120)}, fifos=("p.yaml",), must=("a FIFO (named pipe)",))


def _png(width: int, height: int, rows: int | None = None) -> bytes:
    """A grey PNG of ``width`` x ``height`` that holds ``rows`` rows of white (all of them by default)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    body = zlib.compress((b"\x00" + b"\xff" * width) * (height if rows is None else rows))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def _jpeg_declaring(width: int, height: int) -> bytes:
    """The start of a JPEG whose frame header declares ``width`` x ``height`` (no image data)."""
    import struct

    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + sof + b"\xff\xd9" + b"\x00" * 16


def scan_photos() -> Iterator[Case]:
    """Photos that cannot be photos: empty, declaring billions of pixels, lying, endless, not images."""
    good = _png(160, 120)
    bad = {
        "empty": (b"", "the file is empty (0 bytes), not a photo"),
        "png_60000": (_png(60000, 60000, rows=1), "a photo of 1 to 100 megapixels, got 60000 x 60000 pixels"),
        "png_32000": (_png(32000, 32000, rows=1), "a photo of 1 to 100 megapixels, got 32000 x 32000 pixels"),
        "png_10001_square": (_png(10001, 10001, rows=1), "a photo of 1 to 100 megapixels, got 10001 x 10001 pixels"),
        "png_zero_wide": (_png(0, 10, rows=0), "a photo of 1 to 100 megapixels, got 0 x 10 pixels"),
        "png_truncated_rows": (_png(4000, 3000, rows=2), "not an image OpenCV can read"),
        "png_signature_only": (b"\x89PNG\r\n\x1a\n", "not an image Ludoteca can read"),
        "jpeg_65535": (_jpeg_declaring(65535, 65535), "a photo of 1 to 100 megapixels, got 65535 x 65535 pixels"),
        "jpeg_no_data": (_jpeg_declaring(800, 600), "not an image OpenCV can read"),
        "jpeg_all_ff": (b"\xff\xd8" + b"\xff" * 2_000_000, "not an image Ludoteca can read"),
        "jpeg_marker_soup": (b"\xff\xd8" + b"\x00\xff\x01" * 500_000, "not an image Ludoteca can read"),
        "text": (b"no soy una foto\n", "not an image Ludoteca can read"),
        "gif": (b"GIF89a" + b"\x00" * 100, "not an image Ludoteca can read"),
    }
    for key, (data, words) in bad.items():
        yield Case("scan", f"photo_{key}", ["scan", "x.jpg", "--game", "ciudadelas"], {"x.jpg": data},
                   must=(f"x.jpg: {words}",))
        yield Case("scan", f"among_several_{key}", ["scan", "a.png", "x.jpg", "b.png", "--game", "gladiadores"],
                   {"a.png": good, "x.jpg": data, "b.png": good}, must=(f"x.jpg: {words}",),
                   check=lambda folder, out, err: f"printed {out[:80]!r}" if out else None)
    yield Case("scan", "good_photos", ["scan", "a.png", "b.png", "--game", "gladiadores"], {"a.png": good, "b.png": good},
               codes=(0,), must=("a.png: 0 components",))
    score = ["scan", "--game", "ciudadelas", "--score", "--player", "Ana=a.png", "--player", "Luis=a.png"]
    for key, value, words in (("digits_5000", "9" * 5000, "numbers of at most 100 digits, got one of 5000"),
                              ("digits_101", "9" * 101, "numbers of at most 100 digits"),
                              ("deep", "[" * 200 + "]" * 200, "nesting of at most 64"),
                              ("alias_bomb", "[&a [1,1,1,1,1,1,1,1], " + ", ".join(["*a"] * 3000) + "]", "at most 1,000 aliases")):
        yield Case("scan", f"set_{key}", [*score, "--set", f"Luis.gold={value}"], {"a.png": good},
                   must=(f"--set Luis.gold: yaml: {words}",))
    yield Case("scan", "set_empty_photo", [*score[:-2], "--player", "Luis=x.jpg"], {"a.png": good, "x.jpg": b""},
               must=("x.jpg: the file is empty",))
    yield Case("scan", "player_name_ansi", ["scan", "--game", "gladiadores", "--score", "--player", "\x1b[31mAna=a.png",
                                            "--player", "Luis=a.png"], {"a.png": good},
               must=("expected a name of letters",), check=_no_escape)


def _settings_lang(want: str):
    """The app's start reading its settings from the case's folder: 0 when it gets language ``want``."""
    def load(folder: Path) -> int:
        from ludoteca.companion.app.settings import Settings

        return 0 if Settings.load(folder).lang == want else 1
    return load


def app_files() -> Iterator[Case]:
    """The app's settings file as the app reads it at start: whatever is there, the app starts (the
    defaults, or the values of the right kind)."""
    files = {
        "good": (json.dumps({"lang": "en"}).encode(), "en"),
        "empty": (b"", "es"),
        "huge": (b" " * (2 * MB) + b'{"lang": "en"}', "es"),
        "deep": (b"[" * 100_000 + b"]" * 100_000, "es"),
        "lone_surrogate": (b'{"lang": "\\ud800"}', "es"),
        "surrogate_beside_good": (b'{"lang": "en", "open_game": "\\udc00"}', "es"),
        "utf16": (json.dumps({"lang": "en"}).encode("utf-16"), "es"),
        "long_number": (b'{"lang": "en", "open_game": 1' + b"0" * 5000 + b"}", "es"),
        "nul_bytes": (b"\x00" * 4096, "es"),
        "wrong_kinds": (json.dumps({"lang": ["en"], "voice": "si", "colours": "red"}).encode(), "es"),
        "ansi_lang": (json.dumps({"lang": "\x1b[31men"}).encode(), "es"),
        "bomb_of_keys": (json.dumps({f"k{k}": k for k in range(30_000)}).encode(), "es"),
    }
    for key, (data, lang) in files.items():
        yield Case("app_file", f"settings_{key}", [], {"companion.json": data}, codes=(0,), call=_settings_lang(lang))


def names_in_lines() -> Iterator[Case]:
    """Bad names where a name is an argument (a play line's player, a seat option, a scan player):
    each refused in one line, and none printed raw."""
    for key, name in BAD_NAMES.items():
        if len(name) > 1000:
            continue
        line = json.dumps({"action": "adjust", "player": name, "resource": "gold", "delta": 1}, ensure_ascii=False)
        case = play_case("names", f"play_line_player_{key}", [line, ADJUST], ["is not playing this game", None])
        yield Case(case.kind, case.name, case.argv, stdin=case.stdin, codes=case.codes,
                   check=lambda folder, out, err, inner=case.check: inner(folder, out, err) or _no_escape(folder, out, err))
        yield Case("names", f"option_crown_{key}", ["play", "ciudadelas", "--players", "Ana,Luis", "--db", "g.db",
                                                     "--option", f"crown={name}"],
                   must=("option 'crown' is one of the players",), check=_no_escape)
    for key, name in list(BAD_NAMES.items())[:7]:
        yield Case("names", f"scan_player_{key}", ["scan", "--game", "gladiadores", "--score", "--player", f"{name}=a.png",
                                                   "--player", "Luis=a.png"], {"a.png": _png(160, 120)},
                   must=("players[0].name: expected a name of",), check=_no_escape)


@contextlib.contextmanager
def special_targets(folder: Path) -> Iterator[None]:
    """``dev``: a character device like /dev/full (root) or a FIFO; ``link``: a link to it."""
    import stat
    try:
        os.mknod(folder / "dev", stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except OSError:
        os.mkfifo(folder / "dev")
    (folder / "link").symlink_to(folder / "dev")
    (folder / "dangling").symlink_to(folder / "nowhere")
    yield


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``ro``: a folder this process cannot write (for root, the immutable flag)."""
    import subprocess
    (folder / "ro").mkdir()
    (folder / "ro").chmod(0o555)
    flagged = os.getuid() == 0 and subprocess.run(["chattr", "+i", str(folder / "ro")],
                                                  capture_output=True).returncode == 0
    try:
        yield
    finally:
        if flagged:
            subprocess.run(["chattr", "-i", str(folder / "ro")], capture_output=True)
        (folder / "ro").chmod(0o755)


def _can_make_read_only() -> bool:
    with tempfile.TemporaryDirectory() as tmp, read_only_folder(Path(tmp)):
        return not os.access(Path(tmp) / "ro", os.W_OK)


@contextlib.contextmanager
def full_disk(folder: Path) -> Iterator[None]:
    """Every fsync of a regular file fails with ENOSPC (a full disk); renders stay in this process."""
    import errno
    import stat
    real_fsync, real_count = os.fsync, os.cpu_count

    def fsync(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    os.fsync, os.cpu_count = fsync, lambda: 1
    try:
        yield
    finally:
        os.fsync, os.cpu_count = real_fsync, real_count


def output_targets() -> Iterator[Case]:
    """Where the writers are pointed: a file, a path under a file, /proc, a device, a FIFO, a link,
    a read-only folder, a full disk.  One line, exit 2, nothing written, the target untouched."""
    def untouched(*names: str) -> Callable[[Path, str, str], str | None]:
        def check(folder: Path, out: str, err: str) -> str | None:
            import stat
            left = sorted(p.name for p in folder.iterdir())
            if any(n not in ("dev", "link", "dangling", "ro") and n.split("-")[0] not in names for n in left):
                return f"something was written: {left}"
            if (folder / "dev").exists() and stat.S_ISREG(os.lstat(folder / "dev").st_mode):
                return "the device was replaced by a file"
            if (folder / "link").exists() and not (folder / "link").is_symlink():
                return "the link was replaced by a file"
            if len(err.strip().splitlines()) != 1:
                return f"not one line: {err!r}"
            return None
        return check

    ro = _can_make_read_only()
    for cname, command in (("build", ["build", "el_mapa"]), ("shop", ["export-shop", "mpc-poker", "el_mapa"])):
        for tname, out, files, must in (("file", "f", {"f": b"x"}, "f: is a regular file, not a folder"),
                                        ("under_file", "f/sub", {"f": b"x"}, "f is a regular file, not a folder"),
                                        ("proc", "/proc/nope", {}, "cannot create the folder"),
                                        ("dev_null", "/dev/null", {}, "is a character device, not a folder")):
            yield Case("output_target", f"{cname}_out_{tname}", [*command, "--out", out, "-q"], files,
                       must=(must,), check=untouched(*files))
        yield Case("output_target", f"{cname}_out_device", [*command, "--out", "dev", "-q"],
                   must=("not a folder",), around=special_targets, check=untouched())
        if ro:
            yield Case("output_target", f"{cname}_out_read_only", [*command, "--out", "ro", "-q"],
                       must=("ro: is a read-only folder",), around=read_only_folder, check=untouched())
        yield Case("output_target", f"{cname}_full_disk", [*command, "--out", "kit", "-q"],
                   must=("No space left on device",), around=full_disk,
                   check=lambda folder, out, err: (f"left in the kit: {os.listdir(folder / 'kit')}"
                                                   if os.listdir(folder / "kit") else None))
    scan = ["scan", "--game", "ciudadelas", "--score", "--player", "Ana=a.jpg"]
    for option, target, files, must, scene in (
            ("--save-record", "dev", {}, "dev: is a ", special_targets),
            ("--save-record", "link", {}, "link: a symbolic link to a", special_targets),
            ("--save-record", "dangling", {}, "which does not exist", special_targets),
            ("--save-record", "d", {"d/keep": b""}, "d: is a folder, not a regular file", None),
            ("--save-record", "f/r.yaml", {"f": b"x"}, "f is a regular file, not a folder", None),
            ("--annotate", "f", {"f": b"x"}, "f: is a regular file, not a folder", None),
            ("--annotate", "dev", {}, "not a folder", special_targets),
            ("--annotate", "ro", {}, "ro: is a read-only folder", read_only_folder)):
        if scene is read_only_folder and not ro:
            continue
        yield Case("output_target", f"scan{option[1:].replace('-', '_')}_{target.replace('/', '_')}",
                   [*scan, option, target], files, must=(f"{option} {target}" if "/" not in target else option, must),
                   around=scene, check=untouched(*{n.split("/")[0] for n in files}))
    db = _ludoteca_db(actions=3)
    for target, files, must, scene in (("dev", {}, "dev: is a ", special_targets),
                                       ("link", {}, "link: a symbolic link to a", special_targets),
                                       ("d", {"d/keep": b""}, "d: is a folder, not a regular file", None),
                                       ("ro/x.json", {}, "folder ro is read-only", read_only_folder)):
        if scene is read_only_folder and not ro:
            continue
        yield Case("output_target", f"export_out_{target.replace('/', '_')}",
                   ["export", "last", "--db", "g.db", "--out", target], dict(files, **{"g.db": db}),
                   must=(must,), around=scene, check=untouched("g.db", *{n.split("/")[0] for n in files}))


DECK_FACE_OPEN = '{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
DECK_FACE_CLOSE = "\n{{ lib.svg_close() }}\n"
XXE_DOCTYPE = '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'


def deck_case(name: str, body: str, must: tuple[str, ...], codes: tuple[int, ...] = (2,),
              files: dict[str, bytes] | None = None, head: str = "") -> Case:
    """``ludoteca deck cards.csv --template t.svg.j2`` with one row (line 2) and the face
    ``head + OPEN + body + CLOSE``; a refused deck leaves no PDF behind."""
    def no_pdf(folder: Path, out: str, err: str) -> str | None:
        return "a PDF was written" if (folder / "out" / "cards.pdf").exists() else None

    return Case("deck_template", name, ["deck", "cards.csv", "--template", "t.svg.j2", "--out", "out", "-q"],
                {"cards.csv": b"id,name,colour\nc1,Ana,#3a6fc4\n",
                 "t.svg.j2": (head + DECK_FACE_OPEN + body + DECK_FACE_CLOSE).encode(), **(files or {})},
                codes=codes, must=must, check=no_pdf if codes == (2,) else None)


def deck_templates() -> Iterator[Case]:
    """Shared deck templates that would run for ever, eat the memory, or draw without end, and
    XML entities: each refused naming the template, the face and its row, before any page is
    drawn.  (Decks that draw their pages are in tests/test_generator_sandbox.py: this process,
    its address space near its cap, leaves the renderers' pool waiting for ever on a worker that
    cannot start.)"""
    over = ("t.svg.j2", "over the budget of one face", "face 'c1', cards.csv:2")
    budget = {
        "power_9_9_9": "{{ 9**(9**9) }}",
        "power_of_a_power": "{% set x = 10 ** 10 %}{{ x ** x }}",
        "product_of_big_numbers": "{% set n = 10**3000 %}{{ n * n }}",
        "nested_range_100000": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "loops_over_a_text": "{% set s = '" + "x" * 200 + "' %}{% for a in s %}{% for b in s %}{% for c in s %}"
                             "{% endfor %}{% endfor %}{% endfor %}",
        "loop_over_cycler": "{% set c = cycler(1, 2) %}{% for i in range(100000) %}{% for j in range(100) %}"
                            "{{ c.next() }}{% endfor %}{% endfor %}",
        "lipsum_million": "{{ lipsum(1000000) }}",
        "text_times_billion": "{{ 'x' * 1000000000 }}",
        "list_times_10e8": "{{ [0] * 10**8 }}",
        "center_filter": "{{ 'x'|center(20000000) }}",
        "output_of_9_million": "{% for i in range(90000) %}{{ 'y' * 100 }}{% endfor %}",
        "ljust_2_gb": "{{ 'x'.ljust(2000000000) }}",
        "format_width_1_gb": "{{ '{:>999999999}'.format(1) }}",
        "percent_width_1_gb": "{{ '%0999999999d' % 1 }}",
        "macro_doubling": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
        "doubling_text": "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                         "{% endfor %}{{ ns.s|length }}",
    }
    for name, body in budget.items():
        yield deck_case(name, body, over)
    # the same refusals when the template runs as compiled code (generator/trun.py): through the
    # objects that code makes (its macros, modules, loop values, Markup), by item as by attribute
    face = ("face 'c1', cards.csv:2",)
    compiled = {
        "compiled_macro_class": ("{{ lib.text.__class__ }}", "attribute '__class__' of 'Macro' object is unsafe"),
        "compiled_macro_function": ("{{ lib.text.fn.__globals__ }}", "'jinja2.runtime.Macro object' has no attribute 'fn'"),
        "compiled_module_dict": ("{{ lib.__dict__ }}", "attribute '__dict__' of 'TemplateModule' object is unsafe"),
        "compiled_current_class": ("{{ _cur.__class__.__mro__ }}", "attribute '__class__' of 'Current' object is unsafe"),
        "compiled_class_by_item": ("{{ name['__class__'] }}", "attribute '__class__' of 'str' object is unsafe"),
        "compiled_loop_value_class": ("{% for i in range(2) %}{{ i.__class__ }}{% endfor %}",
                                      "attribute '__class__' of 'int' object is unsafe"),
        "compiled_markup_format": ("{{ ('{0.__class__}'|safe).format(1) }}", "attribute '__class__' of 'int' object is unsafe"),
        "compiled_format_of_a_macro": ("{{ '{0.__globals__}'.format(lib.text) }}", "has no attribute '__globals__'"),
        "compiled_fit_private": ("{{ _cur.fit('x', 20, 10, 9)._asdict() }}", "attribute '_asdict' of 'Fit' object is unsafe"),
        "compiled_huge_range": ("{{ range(10**9)|length }}", "Range too big"),
        "compiled_macro_recursion": ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "maximum recursion depth exceeded"),
        "compiled_text_times_billion": ("{% macro m(s) %}{{ s * 10**9 }}{% endmacro %}{{ m('x') }}",
                                        "'x' * 1000000000 would make a text of 1,000,000,000 characters"),
    }
    for name, (body, needle) in compiled.items():
        yield deck_case(name, body, ("t.svg.j2:3: ", needle) + face)
    entity = ("t.svg.j2: its SVG declares the XML entity 'x'", "cards.csv:2")
    yield deck_case("xxe_file_passwd", "&x;", entity + ("SYSTEM 'file:///etc/passwd'",), head=XXE_DOCTYPE)
    yield deck_case("xxe_http", "&x;", entity, head=XXE_DOCTYPE.replace("file:///etc/passwd", "http://127.0.0.1:9/x"))
    yield deck_case("xxe_parameter_entity", "", ("declares the XML entity 'p'",),
                    head='<!DOCTYPE svg [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n')
    laughs = "".join(f'<!ENTITY x{k} "{f"&x{k - 1};" * 10 if k else "lol"}">' for k in range(10))
    yield deck_case("entity_laughs", "&x9;", ("declares the XML entity 'x0'",),
                    head=f"<!DOCTYPE svg [{laughs}]>\n")
    icon = ('<?xml version="1.0"?>\n' + XXE_DOCTYPE + '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>').encode()
    yield deck_case("xxe_in_an_svg_beside", '<image href="icon.svg" width="5" height="5"/>',
                    ("t.svg.j2: refers to 'icon.svg', which declares the XML entity 'x'", "cards.csv:2"),
                    files={"icon.svg": icon})
    yield deck_case("xml_encoding_unknown", "", ("t.svg.j2: its SVG declares an encoding that cannot be read "
                                               "(unknown encoding: bogus)", "cards.csv:2"),
                    head='<?xml version="1.0" encoding="bogus"?>\n')
    yield deck_case("xml_encoding_unknown_beside", '<image href="icon.svg" width="5" height="5"/>',
                    ("t.svg.j2: refers to 'icon.svg', which declares an encoding that cannot be read",
                     "cards.csv:2"),
                    files={"icon.svg": b'<?xml version="1.0" encoding="bogus"?><svg/>'})
    uses = {
        "use_without_href": ('<use x="1"/>', "has a <use> with href='', which draws the whole face"),
        "use_href_hash": ('<use href="#"/>', "has a <use> with href='#', which draws the whole face"),
        "use_of_its_own_group": ('<g id="a"><rect width="1" height="1"/><use href="#a" x="1"/></g>',
                                 "has a <use> with href='#a' that draws an element holding it"),
        "use_loop_of_two": ('<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>',
                            "that draws an element holding it"),
        "use_copies_of_copies": ('<defs><g id="a0"><rect width="1" height="1"/></g>{% for k in range(1, 8) %}'
                                 '<g id="a{{ k }}">{% for j in range(10) %}<use href="#a{{ k - 1 }}"/>{% endfor %}'
                                 '</g>{% endfor %}</defs><use href="#a7"/>', "draw more than 10,000 elements"),
        "not_well_formed": ("<g><rect/>", "its SVG is not well-formed XML (mismatched tag: line 3, column 2)"),
    }
    for name, (body, needle) in uses.items():
        yield deck_case(name, body, ("t.svg.j2: ", needle, "cards.csv:2"))


def district_art() -> Iterator[Case]:
    """A Ciudadelas district's ``art:`` naming what is not drawn (a typo, a private helper macro of
    the art template) or a thousand elements long: each refused in one line naming the file, the
    line, the district and the field, before anything is written."""
    root = Path(__file__).resolve().parents[2] / "cards"
    text = (root / "ciudadelas" / "districts.yaml").read_text(encoding="utf-8")
    spot = "      - {el: pier, x: 34, s: 0.9}\n"
    at = text.index(spot)
    line = text.count("\n", 0, at) + 1
    rel = "cards/ciudadelas/districts.yaml"

    def no_output(folder: Path, out: str, err: str) -> str | None:
        if len(err.strip().splitlines()) != 1:
            return f"expected one line, got {err.strip()[:300]!r}"
        return "something was written" if (folder / "out").exists() else None

    bad = {
        "typo": ("      - {el: peir, x: 34}\n", "art[2].el: a drawn element of templates/ciudadelas/_art.svg.j2 (closest: pier"),
        "private_macro": ("      - {el: _win}\n", "art[2].el: a drawn element of templates/ciudadelas/_art.svg.j2, got _win"),
        "thousand": ("      - {el: boat}\n" * 1000, "art: a list of "),
    }
    for name, (lines, needle) in bad.items():
        edited = text[:at] + lines + text[at + len(spot):]
        yield Case("district_art", name, ["build", "ciudadelas", "--cards", "cards", "--out", "out", "-q"],
                   {rel: edited.encode()}, cards=True, check=no_output,
                   must=(f"{rel}:{line if name != 'thousand' else line - 3}: district 'harbor': ", needle))


def gladiadores_art() -> Iterator[Case]:
    """Gladiadores' art: fields naming a drawing the kit does not have, or not as an ASCII id: one
    line naming the file, the entry and the field, and no kit folder begun."""
    root = Path(__file__).resolve().parents[2] / "cards" / "gladiadores"
    buildings = (root / "buildings.yaml").read_text(encoding="utf-8")
    gladiators = (root / "gladiators.yaml").read_text(encoding="utf-8")
    domus = "art: {main: domus, left: tree, right: fountain}"
    crixo = "art: {extra: [torque, scar]}"
    edits = {
        "unknown_scene": ("buildings.yaml", buildings, domus, domus.replace("main: domus", "main: villa"),
                          ("building 'domus': art.main: a drawing of templates/gladiadores/_art.svg.j2", "'villa'")),
        "unknown_scene_close": ("buildings.yaml", buildings, domus, domus.replace("tree", "tre"),
                                ("building 'domus': art.left:", "did you mean 'tree'?")),
        "scene_not_ascii": ("buildings.yaml", buildings, domus, domus.replace("main: domus", 'main: "dómus"'),
                            ("building 'domus': art.main: an ASCII id",)),
        "unknown_gear": ("gladiators.yaml", gladiators, crixo, crixo.replace("scar", "eyepatch"),
                         ("gladiator 'crixo': art.extra[1]: a drawing of", "'eyepatch'")),
        "gear_of_a_building": ("gladiators.yaml", gladiators, " weapon: gladius,", " weapon: temple,",
                               ("origin 'romano': art.weapon: a drawing of",)),
        "unknown_pose": ("gladiators.yaml", gladiators, "pose: shield_wall,", "pose: cartwheel,",
                         ("origin 'romano': art.pose: a pose of templates/gladiadores/_art.svg.j2", "'cartwheel'")),
        "pose_close": ("gladiators.yaml", gladiators, "pose: shield_wall,", "pose: shieldwall,",
                       ("origin 'romano': art.pose:", "did you mean 'shield_wall'?")),
        "gear_as_a_pose": ("gladiators.yaml", gladiators, "pose: shield_wall,", "pose: gladius,",
                           ("origin 'romano': art.pose: a pose of",)),
    }

    def nothing_written(folder: Path, out: str, err: str) -> str | None:
        if len(err.strip().splitlines()) != 1:
            return f"expected one line, got {err.strip()[:300]!r}"
        return "a kit folder was begun" if (folder / "kit").exists() else None

    for key, (name, text, old, new, must) in edits.items():
        assert old in text, (key, old)
        yield Case("gladiadores_art", key, ["build", "gladiadores", "--cards", "cards", "--out", "kit"],
                   {f"cards/gladiadores/{name}": text.replace(old, new, 1).encode()}, cards=True,
                   must=must, check=nothing_written)


GENERATORS: list[Callable[[], Iterator[Case]]] = [issue_cases, yaml_bombs, deep_nesting, oversize, big_numbers, schema_ranges,
                                                  impossible_games, encodings, play_lines, databases, csv_injection,
                                                  store_troubles,
                                                  surrogate_lines, names, player_count_buildings, schema_words,
                                                  special_files, scan_photos, app_files, names_in_lines,
                                                  output_targets, deck_templates, district_art, gladiadores_art, art_parts]
#: Cases other parts add: callables returning an iterable of :class:`Case`.
EXTRA: list[Callable[[], Iterator[Case]]] = []


def all_cases() -> list[Case]:
    """Every case of the corpus."""
    return [case for generate in GENERATORS + EXTRA for case in generate()]


# -- running --------------------------------------------------------------------------------------

class Hang(Exception):
    """A case ran past :data:`HANG_SECONDS`."""


def _alarm(signum, frame):  # noqa: ANN001 - signal handler
    raise Hang()


def run_case(case: Case, cards_root: Path) -> dict:
    """Run one case in a fresh folder; what happened, and whether it is what must happen."""
    from ludoteca.cli import main

    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    old_cwd = os.getcwd()
    result: dict = {"kind": case.kind, "name": case.name}
    try:
        if case.cards:
            shutil.copytree(cards_root, folder / "cards", ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.md"))
        for name, data in case.files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for name in case.fifos:
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)
            os.mkfifo(target)
        os.chdir(folder)
        out, err = io.StringIO(), io.StringIO()
        stdin = io.TextIOWrapper(io.BytesIO(case.stdin), encoding="utf-8")
        start = time.perf_counter()
        signal.alarm(HANG_SECONDS)
        code: int | None
        trace = ""
        saved_stdin = sys.stdin
        try:
            sys.stdin = stdin
            scene = case.around(folder) if case.around else contextlib.nullcontext()
            with scene, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                    (case.world() if case.world else contextlib.nullcontext()):
                try:
                    code = case.call(folder) if case.call is not None else main(case.argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 2
        except Hang:
            code, trace = None, "hang"
        except BaseException:  # the very thing the corpus looks for: anything escaping main()
            code, trace = None, traceback.format_exc(limit=8)
        finally:
            signal.alarm(0)
            sys.stdin = saved_stdin
        result["seconds"] = round(time.perf_counter() - start, 4)
        result["code"] = code
        stdout, stderr = out.getvalue(), err.getvalue()
        result["stderr"] = stderr[:2000]
        problems = []
        if trace:
            problems.append("traceback: " + trace[-1500:])
        elif code not in case.codes:
            problems.append(f"exit {code}, expected {case.codes}")
        if "Traceback" in stderr or "Traceback" in stdout:
            problems.append("a traceback in the output")
        if code == 2 and not stderr.strip() and not trace:
            problems.append("exit 2 without a message")
        for text in case.must:
            if text not in stderr + stdout:
                problems.append(f"missing {text!r}")
        if case.check is not None and not trace:
            try:
                extra = case.check(folder, stdout, stderr)
            except Exception as exc:  # a check that breaks is a failed case, reported with its reason
                extra = f"check failed: {type(exc).__name__}: {exc}"
            if extra:
                problems.append(extra)
        result["problems"] = problems
    finally:
        os.chdir(old_cwd)
        shutil.rmtree(folder, ignore_errors=True)
    return result


def limit_memory() -> int:
    """Cap the address space at what the process holds now plus :data:`MEMORY_LIMIT`."""
    with open("/proc/self/status", encoding="ascii") as f:
        size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    limit = size + MEMORY_LIMIT
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return limit


def main() -> int:
    """Run the corpus (``--only KIND`` to run one kind, ``--shard K/N`` every N-th case from the K-th);
    one JSON line per case, then a summary (which counts the whole corpus, by kind, too)."""
    import ludoteca.companion.engine  # noqa: F401 - imported before the limit: it is the baseline
    import ludoteca.companion.play_cli  # noqa: F401
    import ludoteca.cli  # noqa: F401
    import ludoteca.companion.app.settings  # noqa: F401 - the app's files are read as the app reads them
    with contextlib.suppress(ImportError):  # what `scan` holds idle (OpenCV maps far more than it uses)
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    from ludoteca.cards import default_dir, load
    load()
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    every = all_cases()
    cases = [c for c in every if only is None or c.kind == only]
    if "--shard" in sys.argv:  # K/N: every N-th case from the K-th (0-based), for parallel runs
        k, n = (int(x) for x in sys.argv[sys.argv.index("--shard") + 1].split("/"))
        cases = cases[k::n]
    signal.signal(signal.SIGALRM, _alarm)
    limit = limit_memory() if "--no-limit" not in sys.argv else None
    cards_root = default_dir()
    failed = 0
    for case in cases:
        result = run_case(case, cards_root)
        failed += bool(result["problems"])
        print(json.dumps(result), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    kinds: dict[str, int] = {}
    for case in every:
        kinds[case.kind] = kinds.get(case.kind, 0) + 1
    print(json.dumps({"summary": True, "cases": len(cases), "failed": failed, "address_space_limit": limit,
                      "peak_rss": peak, "corpus": kinds}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
