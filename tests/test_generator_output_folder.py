"""One output folder, always consistent: partial builds, variants, completeness, PDF metadata."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ludoteca.cli import main
from test_generator_layout import make_deck, run_deck


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def _present(out: Path) -> set[str]:
    """Every PDF in the folder (the cache aside)."""
    return {str(p.relative_to(out)) for p in out.rglob("*.pdf") if ".cache" not in p.parts}


@pytest.fixture(scope="module")
def kit(shared_kit):
    """The whole kit on A4 (read only: a test that builds into it copies it first)."""
    return shared_kit("--paper", "a4")


def test_a_full_build_lists_every_file_and_is_complete(kit):
    manifest = _manifest(kit)
    assert manifest["complete"] is True
    assert manifest["options"] == {"lang": "es", "paper": "a4", "ink_saver": False, "bleed_mm": 3.0,
                                   "layout": "duplex", "back_offset_mm": [0.0, 0.0]}
    assert {e["path"] for e in manifest["files"]} == _present(kit)
    assert {e["game"] for e in manifest["files"]} == {"ciudadelas", "el_mapa", "gladiadores", "kit"}


def test_a_partial_build_keeps_every_file_listed(kit, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(kit, out)
    before = _manifest(out)
    guide_before = (out / "LEEME-imprimir.txt").read_text(encoding="utf-8")
    assert main(["build", "el_mapa", "--out", str(out), "-q"]) == 0
    after = _manifest(out)
    assert after["complete"] is True
    assert {e["path"] for e in after["files"]} == _present(out) == {e["path"] for e in before["files"]}
    guide = (out / "LEEME-imprimir.txt").read_text(encoding="utf-8")
    for entry in after["files"]:
        if entry["game"] != "kit":
            assert entry["path"] in guide
    assert guide == guide_before                 # same files, same sheets: the same guide


def test_a_partial_build_drops_a_component_the_game_no_longer_makes(kit, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(kit, out)
    manifest = _manifest(out)
    ghost = {"game": "el_mapa", "component": "ghost", "path": "el_mapa/ghost.pdf", "pages": 1,
             "sheets": 1, "items": 1, "title": {"es": "Fantasma", "en": "Ghost"}}
    (out / "el_mapa" / "ghost.pdf").write_bytes((out / "el_mapa" / "tech_cards.pdf").read_bytes()
                                                if (out / "el_mapa" / "tech_cards.pdf").exists()
                                                else b"%PDF-1.5\n")
    manifest["files"].append(ghost)
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert main(["build", "el_mapa", "--out", str(out), "-q"]) == 0
    assert not (out / "el_mapa" / "ghost.pdf").exists()
    assert "el_mapa/ghost.pdf" not in {e["path"] for e in _manifest(out)["files"]}


@pytest.mark.parametrize("extra,said", [
    (["--lang", "en"], "lang 'es' (now 'en')"),
    (["--ink-saver"], "ink_saver False (now True)"),
    (["--paper", "letter"], "paper 'a4' (now 'letter')"),
])
def test_another_variant_into_the_same_folder_is_refused(tmp_path, capsys, extra, said):
    out = run_deck(tmp_path, 2)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    data, face = tmp_path / "src" / "cards.csv", tmp_path / "src" / "face.svg.j2"
    capsys.readouterr()
    assert main(["deck", str(data), "--template", str(face), "--out", str(out), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0] == (f"ludoteca: error: {out} holds a kit built with {said}; build into another "
                      "folder (--out) so the two never mix, or empty this one")
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


def test_two_decks_in_one_folder_are_both_listed(tmp_path):
    data, face, _ = make_deck(tmp_path / "src", 3)
    other = tmp_path / "src" / "otras.csv"
    other.write_text("id,name,colour\nz1,Zeta,#112233\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["deck", str(data), "--template", str(face), "--out", str(out), "-q"]) == 0
    assert main(["deck", str(other), "--template", str(face), "--out", str(out), "-q"]) == 0
    assert {e["path"] for e in _manifest(out)["files"]} == {"cards.pdf", "otras.pdf"} == _present(out)
    guide = (out / "LEEME-imprimir.txt").read_text(encoding="utf-8")
    assert "cards.pdf" in guide and "otras.pdf" in guide


def _files(out: Path) -> dict[str, bytes]:
    """Every file under ``out`` (hidden ones too) with its bytes."""
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _hidden(out: Path) -> list[str]:
    return [str(p.relative_to(out)) for p in out.rglob(".*")]


def test_a_full_build_leaves_nothing_hidden_in_the_folder(kit):
    assert _hidden(kit) == []


def test_what_dead_builds_left_is_removed(tmp_path):
    out = run_deck(tmp_path, 2)
    before = _files(out)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = out / f".cards.pdf.{dead}.tmp"                 # a temporary file of an older version
    stale.write_bytes(b"half a PDF")
    abandoned = out / f".ludoteca-staging.{dead}"          # a build killed before its swap
    (abandoned / "cards.pdf").parent.mkdir(parents=True)
    (abandoned / "cards.pdf").write_bytes(b"%PDF-1.5 half of a new kit")
    mine = out / "notes.tmp"                               # not ours: left alone
    mine.write_text("x")
    run_deck(tmp_path, 2)
    assert not stale.exists() and not abandoned.exists()
    assert _files(out) == dict(before, **{"notes.tmp": b"x"})


def test_a_build_still_running_in_the_folder_is_waited_for(tmp_path, capsys):
    import fcntl
    out = run_deck(tmp_path, 2)
    running = out / ".ludoteca-staging.999999"
    running.mkdir()
    with open(running / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)                   # as a live build holds it
        capsys.readouterr()
        data, face = tmp_path / "src" / "cards.csv", tmp_path / "src" / "face.svg.j2"
        assert main(["deck", str(data), "--template", str(face), "--out", str(out), "-q"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"ludoteca: error: another build is writing into {out}")
    assert running.is_dir()


def test_an_interrupted_rebuild_leaves_the_old_kit_whole(tmp_path, monkeypatch):
    from ludoteca.generator import render
    out = run_deck(tmp_path, 12)
    before = _files(out)
    (tmp_path / "src" / "cards.csv").write_text(
        (tmp_path / "src" / "cards.csv").read_text().replace("Carta1 ", "Carta1b "), encoding="utf-8")

    def killed(spec):
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "_write_pdf", killed)
    code = main(["deck", str(tmp_path / "src" / "cards.csv"), "--template",
                 str(tmp_path / "src" / "face.svg.j2"), "--out", str(out), "-q"])
    assert code != 0
    assert _files(out) == before
    monkeypatch.undo()
    assert main(["deck", str(tmp_path / "src" / "cards.csv"), "--template",
                 str(tmp_path / "src" / "face.svg.j2"), "--out", str(out), "-q"]) == 0
    assert _manifest(out)["complete"] is True and _hidden(out) == []
    assert _files(out)["cards.pdf"] != before["cards.pdf"]


def test_a_swap_cut_short_is_finished_by_the_next_build(tmp_path, monkeypatch):
    """Killed while the new files are renamed in: the manifest says so, the next build ends the swap."""
    from ludoteca.generator import staging
    clean = run_deck(tmp_path / "clean", 12, "--bleed", "2", back=True)
    out = run_deck(tmp_path, 12, back=True)
    renames = []
    original = os.replace

    def cut(src, dst):
        if str(dst).startswith(f"{out}/") and ".ludoteca-staging." not in str(dst):    # into the kit
            renames.append(dst)
            if len(renames) == 2:
                raise KeyboardInterrupt
        return original(src, dst)

    monkeypatch.setattr(staging.os, "replace", cut)
    src = tmp_path / "src"
    code = main(["deck", str(src / "cards.csv"), "--template", str(src / "face.svg.j2"), "--back",
                 str(src / "back.svg.j2"), "--bleed", "2", "--out", str(out), "-q"])
    monkeypatch.undo()
    assert code != 0 and len(renames) == 2
    assert _manifest(out)["complete"] is False
    [staged] = [p for p in out.iterdir() if p.name.startswith(".")]   # the staging folder, kept
    assert (staged / ".swap.json").is_file()
    run_deck(tmp_path, 12, "--bleed", "2", back=True)
    assert _hidden(out) == []
    assert _manifest(out) == _manifest(clean)
    assert set(_files(out)) == set(_files(clean))
    for name in ("cards.pdf", "calibracion-doble-cara.pdf"):
        assert _fingerprints(out / name) == _fingerprints(clean / name)


def _fingerprints(pdf: Path) -> list[str]:
    import pdfmeasure as pm
    from pypdf import PdfReader
    return [pm.fingerprint(page) for page in PdfReader(str(pdf)).pages]


def _wait_until_gone(group: int, seconds: float = 10) -> None:
    """Until no live process of ``group`` is left: the killed build's render workers share its lock
    on the staging folder and die a moment after it (a zombie holds no file, so it does not count)."""
    import time
    deadline = time.time() + seconds
    while time.time() < deadline:
        alive = False
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                state, _ppid, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
            except (OSError, IndexError, ValueError):
                continue
            alive = alive or (int(pgrp) == group and state != "Z")
        if not alive:
            return
        time.sleep(0.01)


def test_a_rebuild_killed_halfway_leaves_the_old_kit(tmp_path):
    """SIGKILL once the new bleed's first images are written: every file is the old one."""
    import signal
    import time
    out = run_deck(tmp_path, 12, "--png", "50", back=True)
    before = _files(out)
    start = time.time()
    data, face, back = (tmp_path / "src" / n for n in ("cards.csv", "face.svg.j2", "back.svg.j2"))
    proc = subprocess.Popen([sys.executable, "-m", "ludoteca", "deck", str(data), "--template", str(face),
                             "--back", str(back), "--bleed", "2", "--png", "50", "--out", str(out), "-q"],
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while proc.poll() is None and time.time() - start < 60:
            if any(p.suffix == ".png" and p.stat().st_mtime > start for p in out.rglob("*.png")):
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the build ended before any new file appeared"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        _wait_until_gone(proc.pid)
    after = _files(out)
    assert {k: v for k, v in after.items() if not k.startswith(".ludoteca-staging.")} == before
    run_deck(tmp_path, 12, "--bleed", "2", "--png", "50", back=True)
    assert _manifest(out)["options"]["bleed_mm"] == 2.0 and _hidden(out) == []


def test_nothing_changed_rewrites_no_manifest(tmp_path):
    out = run_deck(tmp_path, 3)
    stamp = (out / "manifest.json").stat().st_mtime_ns
    run_deck(tmp_path, 3)
    assert (out / "manifest.json").stat().st_mtime_ns == stamp


def test_pdfs_carry_title_author_subject_language_and_an_outline(kit):
    from pypdf import PdfReader
    reader = PdfReader(str(kit / "ciudadelas" / "districts.pdf"))
    meta = reader.metadata
    entry = next(e for e in _manifest(kit)["files"] if e["path"] == "ciudadelas/districts.pdf")
    assert meta.title == f"{entry['title']['es']} · Ciudadelas"
    assert meta.author == "Ludoteca"
    assert meta.subject == (f"Ludoteca, kit para imprimir: {entry['items']} piezas de 63 × 88 mm "
                            "en papel A4")
    assert reader.trailer["/Root"]["/Lang"] == "es"
    outline = [(o.title, reader.get_destination_page_number(o)) for o in reader.outline]
    # one bookmark per sheet, on its front page (fronts and backs alternate)
    assert outline == [(f"Hoja {n + 1}", 2 * n) for n in range(entry["sheets"])]


def test_board_pieces_and_pages_get_their_own_bookmarks(kit):
    from pypdf import PdfReader
    for entry in _manifest(kit)["files"]:
        reader = PdfReader(str(kit / entry["path"]))
        titles = [o.title for o in reader.outline]
        pages = [reader.get_destination_page_number(o) for o in reader.outline]
        assert titles and all(0 <= n < len(reader.pages) for n in pages), entry["path"]
        if not entry["component"].startswith("rulebook"):  # a rulebook's short chapters may share a page
            assert len(titles) <= len(reader.pages), entry["path"]
        assert reader.metadata.title and reader.metadata.author == "Ludoteca"


def test_english_build_metadata(tmp_path):
    out = run_deck(tmp_path, 2, "--lang", "en")
    from pypdf import PdfReader
    reader = PdfReader(str(out / "cards.pdf"))
    assert reader.trailer["/Root"]["/Lang"] == "en"
    assert [o.title for o in reader.outline] == ["Sheet 1"]
    assert reader.metadata.subject == "Ludoteca print-and-play kit: 2 items of 63 × 88 mm on A4 paper"


def test_quiet_prints_nothing_and_verbose_lists_the_files(tmp_path, capsys):
    data, face, _ = make_deck(tmp_path / "src", 2)
    assert main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "q"), "-q"]) == 0
    io = capsys.readouterr()
    assert io.out == "" and io.err == ""
    assert main(["deck", str(data), "--template", str(face), "--out", str(tmp_path / "v"), "-v"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "  cards.pdf: 1 pages, 2 items"
    assert lines[-1].startswith("1 files, 1 pages")


def test_a_new_back_offset_or_bleed_rebuilds_the_whole_folder(tmp_path):
    """After printing the calibration sheet: the same deck again with --back-offset, same folder."""
    out = run_deck(tmp_path, 2, back=True)
    run_deck(tmp_path, 2, "--back-offset", "1.5,-0.5", back=True)
    assert _manifest(out)["options"]["back_offset_mm"] == [1.5, -0.5]
    run_deck(tmp_path, 2, "--bleed", "2", back=True)
    assert _manifest(out)["options"]["bleed_mm"] == 2.0


def test_a_new_back_offset_for_one_game_of_a_full_kit_is_refused(kit, tmp_path, capsys):
    out = tmp_path / "out"
    shutil.copytree(kit, out)
    capsys.readouterr()
    assert main(["build", "el_mapa", "--back-offset", "1,0", "--out", str(out)]) == 2
    assert "holds a kit built with back_offset_mm [0.0, 0.0] (now [1.0, 0.0])" in capsys.readouterr().err


def test_a_kit_whose_cards_fail_makes_no_output_folder(tmp_path, monkeypatch):
    """A cold kit looks for its cache before the cards are loaded, yet cards that fail leave no
    output folder behind (one core: no workers to start and end)."""
    from ludoteca.cards.problems import DataError
    from ludoteca.generator.build import build
    from ludoteca.generator.model import Options
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    with pytest.raises(DataError, match="no such folder"):
        build(["ciudadelas"], Options(quiet=True), tmp_path / "kit", tmp_path / "no-cards")
    assert not (tmp_path / "kit").exists()


def test_staged_files_and_their_folders_are_synced_before_the_journal(tmp_path, monkeypatch):
    """A file staged without fsync (as the workers join the PDFs) and the folder that lists it are
    on disk before the journal says to move it in: a crash after the journal never finds it gone."""
    from ludoteca.generator import staging
    out = tmp_path / "kit"
    out.mkdir()
    stage = staging.Stage(out)
    stage.open()
    stage.path(out / "game" / "cards.pdf").write_bytes(b"%PDF-1.5 joined")
    stage.write_text(out / "manifest.json", "{}")
    synced: list[str] = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    stage.commit()
    journal = next(i for i, p in enumerate(synced) if Path(p).name.startswith(f".{staging.JOURNAL}"))
    before = set(synced[:journal])
    assert {str(stage.root / "game" / "cards.pdf"), str(stage.root / "game"), str(stage.root),
            str(stage.root / "manifest.json"), str(out)} <= before
    assert (out / "game" / "cards.pdf").read_bytes() == b"%PDF-1.5 joined"


def test_staged_files_are_all_synced_on_threads_and_the_first_error_is_raised(tmp_path, monkeypatch):
    """_sync_files spreads the files over threads it joins before returning: every file is
    synced once, and an error met on any thread is raised here."""
    import threading

    from ludoteca.generator import staging
    files = [tmp_path / f"f{i}" for i in range(6)]
    seen: list[tuple[str, int]] = []

    def sync(path: Path) -> None:
        seen.append((path.name, threading.get_ident()))
        if path.name == "f4":
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(staging, "_sync_file", sync)
    with pytest.raises(OSError, match="Input/output"):
        staging._sync_files(files, threads=3)
    assert sorted(name for name, _ in seen) == sorted(f.name for f in files)   # joined: all done
    seen.clear()
    monkeypatch.setattr(staging, "_sync_file", lambda path: seen.append((path.name, threading.get_ident())))
    staging._sync_files(files[:4], threads=8)
    assert sorted(name for name, _ in seen) == ["f0", "f1", "f2", "f3"]
