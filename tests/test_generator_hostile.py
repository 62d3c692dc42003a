"""Hostile input to ``ludoteca deck``: every case a clear answer, no traceback, inside bounds.

Each case runs the real command in a fresh process under a memory limit (``RLIMIT_AS``, as
``ulimit -v`` sets it) and a time limit, and checks its exit code and what it says.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from test_generator_layout import FACE, make_deck

ROOT = Path(__file__).resolve().parent.parent
MEMORY_MB = 800
SECONDS = 60


def _limit() -> None:
    limit = MEMORY_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``ludoteca ARGS`` in its own process under the memory and time limits."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "ludoteca.cli", *args], capture_output=True,
                          text=True, timeout=SECONDS, preexec_fn=_limit, cwd=cwd or ROOT, env=env)


def deck(tmp_path: Path, data: Path, *extra: str, face: Path | None = None) -> subprocess.CompletedProcess:
    if face is None:
        _, face, _ = make_deck(tmp_path / "tpl", 1)
    return run("deck", str(data), "--template", str(face), "--out", str(tmp_path / "out"), "-q", *extra)


def refused(done: subprocess.CompletedProcess, needle: str) -> None:
    """Exit 2, one line on stderr that says ``needle``, no traceback."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0], lines[0]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- data --------------------------------------------------------------------------------------

CSV_CASES = {
    "stray quote swallows rows": (b'id,name,colour\n1,Ana,#ff0000\n2,"Luis,#00ff00\n3,Eva,#0000ff\n'
                                  b"4,Ines,#ffffff\n5,Olga,#000000\n", ':3: a quote (") opened in this row'),
    "cell over the limit": (b"id,name,colour\n1," + b"x" * 200_000 + b",#ff0000\n",
                            ":2: a cell longer than 131,072 characters"),
    "count of a billion": (b"id,name,colour,count\n1,Ana,#ff0000,1000000000\n",
                           ":2: count: 1000000000 copies of one card, over the limit of 10,000"),
    "count of 10^50": (b"id,name,colour,count\n1,Ana,#ff0000,1" + b"0" * 50 + b"\n",
                       ":2: count: expected a whole number >= 0"),
    "negative count": (b"id,name,colour,count\n1,Ana,#ff0000,-3\n", ":2: count: expected a whole number"),
    "more values than columns": (b"id,name,colour\n1,Ana,#ff0000,extra\n", ":2: more values than columns"),
    "header only": (b"id,name,colour\n", ": no cards"),
    "empty file": (b"", ": empty CSV (a header row is needed)"),
    "nul bytes": (b"id,name,colour\n1,A\x00na,#ff0000\n", ":2: column 'name' holds a control character (U+0000)"),
    "rows past the card limit": (b"id,name,colour,count\n" + b"".join(
        b"%d,n,#ff0000,10000\n" % i for i in range(11)), ":12: the deck passes 100,000 cards"),
}


@pytest.mark.parametrize("case", sorted(CSV_CASES))
def test_hostile_csv_is_refused_by_line(tmp_path, case):
    data, needle = CSV_CASES[case]
    refused(deck(tmp_path, _write(tmp_path, "cards.csv", data)), needle)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "cards.csv"
    with open(path, "wb") as fh:
        fh.write(b"id,name,colour\n")
        fh.truncate(65 * 1000 * 1000)
    refused(deck(tmp_path, path), "65.0 MB, over the 64 MB limit for deck data")


def test_latin1_from_excel_builds_with_a_one_line_note(tmp_path):
    data = _write(tmp_path, "cards.csv", "id;name;colour\n1;Ñandú;#ff0000\n2;Cañón;#00ff00\n".encode("cp1252"))
    done = deck(tmp_path, data)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"note: {data}: not UTF-8 (first at line 2); read as Windows-1252"]
    text = subprocess.run(["pdftotext", str(tmp_path / "out" / "cards.pdf"), "-"],
                          capture_output=True, text=True).stdout
    assert "Ñandú" in text and "Cañón" in text


def test_semicolons_and_a_bom_build_every_row(tmp_path):
    data = _write(tmp_path, "cards.csv", b"\xef\xbb\xbfid;name;colour\n1;Ana;#ff0000\n2;Luis;#00ff00\n"
                  b"3;Eva;#0000ff\n4;Ines;#ffffff\n5;Olga;#000000\n")
    done = deck(tmp_path, data)
    assert done.returncode == 0 and done.stderr == ""
    import json
    entry = json.loads((tmp_path / "out" / "manifest.json").read_text())["files"][0]
    assert entry["items"] == 5


BOMB = b"""a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


@pytest.mark.parametrize("data,needle", [
    (BOMB, ":7: expands to more than 2,000,000 values"),
    (b"- " + b"[" * 30_000 + b"]" * 30_000 + b"\n", "nested deeper than 50 levels"),
    (b"- name: [unclosed\n", "not valid YAML"),
    (b"just text\n", "expected a list of mappings"),
])
def test_hostile_yaml_decks(tmp_path, data, needle):
    refused(deck(tmp_path, _write(tmp_path, "cards.yaml", data)), needle)


# --- templates ---------------------------------------------------------------------------------

def _template(tmp_path: Path, text: str, name: str = "face.svg.j2") -> tuple[Path, Path]:
    folder = tmp_path / "tpl"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    data = folder / "cards.csv"
    data.write_text("id,name,colour\n1,Ana,#ff0000\n", encoding="utf-8")
    return data, folder / name


@pytest.mark.parametrize("body", [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}",
    "{{ lib.__dict__ }}",
    "{% set x = name.__class__ %}{{ x }}",
])
def test_a_template_cannot_reach_python(tmp_path, body):
    data, face = _template(tmp_path, '{% import "_lib.svg.j2" as lib %}' + FACE + body)
    done = deck(tmp_path, data, face=face)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "face.svg.j2:7: " in done.stderr, done.stderr
    assert not (tmp_path / "PWNED").exists() and not (ROOT / "PWNED").exists()


def test_a_template_without_an_svg_element_is_a_clear_error(tmp_path):
    data, face = _template(tmp_path, "<p>{{ name }}</p>\n")
    refused(deck(tmp_path, data, face=face),
            f"template face.svg.j2: produced no <svg> element (in deck/cards face '1', {data}:2)")


def test_an_image_beside_the_template_is_embedded(tmp_path):
    import struct
    import zlib
    folder = tmp_path / "tpl"
    folder.mkdir()
    row = b"\x00" + b"\x00\x80\xff" * 4                     # a 4 x 4 blue image
    raw = zlib.compress(row * 4)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
    (folder / "art").mkdir()
    (folder / "art" / "blue.png").write_bytes(png)
    data, face = _template(tmp_path, FACE.replace("{{ lib.svg_close() }}",
                           '<image x="0" y="0" width="{{ w }}" height="{{ h }}" href="art/blue.png" '
                           'preserveAspectRatio="none"/>\n{{ lib.svg_close() }}'))
    done = deck(tmp_path, data, "--png", "50", face=face)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    from pdfmeasure import colour_distance, read_png
    image = read_png(tmp_path / "out" / "png" / "deck" / "cards" / "1.png")
    assert colour_distance(image.mean(image.width / 2, image.height / 2), (0, 128, 255)) < 4


@pytest.mark.parametrize("ref", ["../secret.png", "/etc/hostname", "file:///etc/passwd",
                                 "https://example.com/x.png", "missing.png"])
def test_a_reference_outside_the_folder_is_left_out_with_one_warning(tmp_path, ref):
    (tmp_path / "secret.png").write_bytes(b"not for the card")
    data, face = _template(tmp_path, FACE.replace("{{ lib.svg_close() }}",
                           f'<image x="0" y="0" width="5" height="5" href="{ref}"/>'
                           f'<rect style="fill: url({ref})" width="1" height="1"/>\n{{{{ lib.svg_close() }}}}'))
    done = deck(tmp_path, data, face=face)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"note: template face.svg.j2: refers to {ref!r}")
    pdf = (tmp_path / "out" / "cards.pdf").read_bytes()
    assert b"not for the card" not in pdf
    again = deck(tmp_path, data, face=face)                    # nothing to render: still said
    assert again.returncode == 0 and again.stderr.strip().splitlines() == lines


# --- the build folder ----------------------------------------------------------------------------

def test_the_temp_cache_folder_is_used_only_when_private_and_ours(tmp_path, monkeypatch):
    import tempfile
    from ludoteca.generator import fonts
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))      # the usual place is unusable
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    shared = tmp_path / f"ludoteca-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    assert fonts.cache_dir("jinja") is None
    shared.chmod(0o700)
    assert fonts.cache_dir("jinja") == shared / "jinja"
    if os.getuid() == 0:                                         # root can hand it to someone else
        os.chown(shared, 12345, 12345)
        assert fonts.cache_dir("jinja") is None
        os.chown(shared, 0, 0)
    shared.rename(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").chmod(0o700)
    shared.symlink_to(tmp_path / "elsewhere")                     # a link planted in /tmp
    assert fonts.cache_dir("jinja") is None
    shared.unlink()
    assert fonts.cache_dir("fonts") == shared / "fonts"            # made fresh: 0700, ours
    assert oct(shared.stat().st_mode & 0o777) == "0o700"
