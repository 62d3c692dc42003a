"""Options and templates: every mistake is one clear line and exit 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.cli import main
from test_generator_layout import make_deck


def _run(capsys, args):
    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code, capsys.readouterr().err


@pytest.mark.parametrize("args,needle", [
    (["build", "monopoly"], "unknown game 'monopoly'"),
    (["build", "--paper", "a5"], "unknown paper 'a5' (choose a4, letter, a3, tabloid or WxH in mm)"),
    (["build", "--paper", "20x300"], "paper 20x300: each side must be between 50 and 1500 mm"),
    (["build", "--bleed", "-1"], "between 0 and"),
    (["build", "--bleed", "40"], "between 0 and"),
    (["build", "--bleed", "tres"], "expected millimetres"),
    (["build", "--back-offset", "3"], "expected two numbers X,Y"),
    (["build", "--back-offset", "a,b"], "expected two numbers X,Y"),
    (["build", "--png", "9000"], "between 50 and 1200"),
    (["deck", "x.csv", "--template", "t.svg.j2", "--size", "63"], "expected WxH"),
    (["deck", "x.csv", "--template", "t.svg.j2", "--size", "0x88"], "expected WxH"),
])
def test_bad_options_are_one_line_and_exit_2(capsys, args, needle):
    code, err = _run(capsys, args)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def _deck(capsys, tmp_path, *extra):
    data, face, back = make_deck(tmp_path / "src", 3)
    code = main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out"), *extra])
    return code, capsys.readouterr()


def test_unwritable_out_dir_is_one_line(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, io = _deck(capsys, tmp_path, "--out", str(blocker / "sub"))
    assert code == 2
    lines = io.err.strip().splitlines()
    assert len(lines) == 1 and "output folder" in lines[0] and str(blocker) in lines[0]


@pytest.mark.parametrize("body,line,message", [
    ("<svg>\n{% if %}\n</svg>\n", 2, "Expected an expression"),
    ('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n\n{{ no_such_column }}\n</svg>\n', 4,
     "'no_such_column' is undefined"),
    ('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n{{ lib.text(name, 1, 1, 5) }}\n</svg>\n', 3,
     "under the 6 pt minimum"),
])
def test_broken_template_names_template_and_line(capsys, tmp_path, body, line, message):
    data, face, _ = make_deck(tmp_path / "src", 2)
    face.write_text(body, encoding="utf-8")
    code = main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "face.svg.j2:" in err[0] and message in err[0]
    if "under the 6 pt" not in message:
        assert f"template {face.relative_to(Path.cwd()) if face.is_relative_to(Path.cwd()) else face}:{line}:" in err[0]
    assert not (tmp_path / "out" / "cards.pdf").exists()


def test_text_too_long_for_its_box_fails_naming_the_face(capsys, tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 2)
    face.write_text('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
                    '{{ lib.text_block(name ~ " palabra" * 80, 2, 2, 20, 8, 9) }}\n</svg>\n', encoding="utf-8")
    code = main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "face.svg.j2:3: text does not fit" in err[0] and "Carta1" in err[0]
    assert err[0].endswith(f"(in deck/cards face 'c1', {data}:2)")


def test_deck_from_yaml_with_counts(capsys, tmp_path):
    _, face, back = make_deck(tmp_path / "src", 1)
    data = tmp_path / "src" / "mine.yaml"
    data.write_text("- {name: Uno, colour: '#ff0000', count: 4}\n- {name: Dos, colour: '#00ff00'}\n",
                    encoding="utf-8")
    code = main(["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert code == 0 and "2 files" in out
    import json
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["component"] == "mine")
    assert entry["items"] == 5 and entry["pages"] == 2


def test_bad_count_names_file_and_line(capsys, tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 3)
    data.write_text(data.read_text().replace("c2,Carta2 Ñandú,#3f9a4a,1", "c2,Carta2,#3f9a4a,dos"))
    code = main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == [f"ludoteca: error: {data}:3: count: expected a whole number >= 0, got 'dos'"]


def test_default_deck_template_renders_the_bench_deck_columns(capsys, tmp_path):
    repo = Path(__file__).resolve().parent.parent
    data = tmp_path / "d.csv"
    data.write_text("id,name,cost,color,text\n1,Catedral de Ñuñoa,5,morado,Vale dos puntos más.\n"
                    "2,Mercado,2,verde,\n", encoding="utf-8")
    code = main(["deck", str(data), "--template", str(repo / "templates/deck/card.svg.j2"),
                 "--back", str(repo / "templates/deck/back.svg.j2"), "--out", str(tmp_path / "out")])
    assert code == 0, capsys.readouterr().err
    text = subprocess.run(["pdftotext", str(tmp_path / "out" / "d.pdf"), "-"], capture_output=True,
                          text=True).stdout
    assert "Catedral de Ñuñoa" in text and "morado" in text and "Mercado" in text


def test_help_does_not_import_the_renderer():
    code = ("import sys; from ludoteca.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('cairosvg', 'pypdf', 'reportlab') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


class _Stream:
    def __init__(self, tty: bool):
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> None:
        self.text += s

    def flush(self) -> None:
        pass


def test_progress_bar_only_on_a_terminal():
    from ludoteca.generator.progress import Progress
    for tty in (True, False):
        stream = _Stream(tty)
        bar = Progress(0, stream=stream)
        bar.total = 4
        for _ in range(4):
            bar(1)
        bar.close()
        assert ("4/4 pages" in stream.text) is tty
        assert stream.text == "" or stream.text.endswith("\r")


def test_summary_is_one_line(capsys, tmp_path):
    code, io = _deck(capsys, tmp_path)
    assert code == 0
    lines = io.out.strip().splitlines()
    assert len(lines) == 1
    assert re.fullmatch(r"1 files, 1 pages \(1 rendered, 0 cached\), 1 written, \d+\.\d\d s", lines[0])


def test_raw_text_under_6pt_in_a_template_is_refused(capsys, tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 2)
    face.write_text('{% import "_lib.svg.j2" as lib %}\n{{ lib.svg_open() }}\n'
                    '<text x="1" y="5" font-size="1.8">{{ name }}</text>\n</svg>\n', encoding="utf-8")
    code = main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert f"face.svg.j2: text of 5.10 pt is under the 6 pt minimum (in deck/cards face 'c1', {data}:2)" in err[0]


def test_each_part_adds_the_commands_the_dispatcher_names():
    """`ludoteca COMMAND` imports only the part cli.PARTS names for COMMAND: that part must add
    exactly those commands, and the full parser no others."""
    import importlib

    from ludoteca.cli import PARTS, Parser, build_parser
    for name, commands in PARTS.items():
        sub = Parser(prog="t").add_subparsers(parser_class=Parser)
        importlib.import_module(name).register(sub)
        assert tuple(sub.choices) == commands, name
        assert tuple(build_parser(commands[0])._subparsers._group_actions[0].choices) == commands
    assert set(build_parser()._subparsers._group_actions[0].choices) == {c for cs in PARTS.values() for c in cs}


def test_a_deck_process_imports_its_modules_then_freezes_them_and_turns_the_collector_back_on():
    """main, run as the process's command, keeps the collector off until the command's modules
    are imported (start_up): it must never stay off for the command's own work."""
    import gc

    from ludoteca.cli import build_parser, start_up
    args = build_parser("deck").parse_args(["deck", "x.csv"])
    assert "ludoteca.generator.deck" in args.imports
    was = gc.isenabled()
    gc.disable()
    try:
        start_up(args.imports)
        assert gc.isenabled() and gc.get_freeze_count() > 0
        assert all(name in sys.modules for name in args.imports)
    finally:
        gc.unfreeze()
        if not was:
            gc.disable()


#: deck command lines read without argparse: each must give what argparse gives
QUICK = [["deck"], ["deck", "x.csv"], ["deck", "--init", "mine"],
         ["deck", "x.csv", "--template", "t.svg.j2", "--paper", "a4", "--out", "o"],
         ["deck", "--template", "t", "x.csv", "--back", "b", "-q", "--quiet"],
         ["deck", "x.csv", "--paper", "A4", "--paper", "100x150", "--bleed", "2", "--back-offset", "1,2",
          "--layout", "fold", "--lang", "en", "--ink-saver", "--no-markers", "--png", "150",
          "--tts-url", "https://x.example/k", "--size", "63x88", "--shop", "mpc-poker", "-v"]]
#: ... and lines left to argparse, which reads them (or refuses them) in its own way
ARGPARSE = [["deck", "--paper=a4", "x"], ["deck", "--temp", "t", "x"], ["deck", "x", "y"], ["deck", "-q", "-v"],
            ["deck", "--back-offset", "-1,2", "x"], ["deck", "--paper", "zz"], ["deck", "--layout", "x"],
            ["deck", "--", "x"], ["deck", "-h"], ["deck", "x", "--out"], ["deck", "-qv"], ["deck", "-"],
            ["build"], ["export-shop", "mpc-poker"], ["validate"]]


@pytest.mark.parametrize("argv", QUICK + ARGPARSE)
def test_a_deck_line_read_without_argparse_gives_what_argparse_gives(argv, capsys):
    from ludoteca.cli import build_parser
    from ludoteca.generator.cli import quick_args
    quick = quick_args(argv)
    assert (quick is None) is (argv in ARGPARSE)
    if quick is not None:
        assert vars(quick) == vars(build_parser(argv[0]).parse_args(argv))


def test_a_deck_line_argparse_refuses_is_refused_in_its_words(capsys):
    code, err = _run(capsys, ["deck", "x.csv", "-q", "--verbose"])
    assert code == 2 and err.strip().splitlines() == [
        "ludoteca deck: error: argument -v/--verbose: not allowed with argument -q/--quiet"]
