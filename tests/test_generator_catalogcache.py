"""generator.catalogcache: a build reads the same card files once, checked; any change is read again."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

from ludoteca.cards import DataError
from ludoteca.cards import catalog as loader
from ludoteca.generator import catalogcache

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cards(tmp_path, monkeypatch) -> tuple[Path, list[str]]:
    """A copy of Ciudadelas' data, an empty cache folder, and the files the loader parses."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copytree(ROOT / "cards" / "ciudadelas", tmp_path / "cards" / "ciudadelas")
    parsed: list[str] = []
    read = loader.read
    monkeypatch.setattr(loader, "read", lambda path, *a, **k: parsed.append(Path(path).name) or read(path, *a, **k))
    return tmp_path / "cards", parsed


def test_the_same_files_are_read_once_and_give_the_same_catalog(cards):
    root, parsed = cards
    first = catalogcache.load(root, ("ciudadelas",))
    assert "districts.yaml" in parsed
    parsed.clear()
    again = catalogcache.load(root, ("ciudadelas",))
    assert parsed == []                                   # from the cache: nothing parsed
    assert again["ciudadelas"].kinds == first["ciudadelas"].kinds and again is not first


def test_an_edited_file_is_read_again(cards):
    root, parsed = cards
    catalogcache.load(root, ("ciudadelas",))
    path = root / "ciudadelas" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    parsed.clear()
    catalogcache.load(root, ("ciudadelas",))
    assert "game.yaml" in parsed


def test_a_stray_file_and_bad_data_are_said_every_time(cards):
    """What the loader refuses is refused again (a stray file is a problem), never kept."""
    root, _parsed = cards
    catalogcache.load(root, ("ciudadelas",))
    (root / "ciudadelas" / "extra.yaml").write_text("x: 1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError, match="extra.yaml"):
            catalogcache.load(root, ("ciudadelas",))
    assert len(list((Path(catalogcache.cache_dir("catalog"))).glob("*.pickle"))) == 1


@pytest.mark.parametrize("damage", [b"", b"\x80\x05garbage", b"\x80\x04K\x01\x85R.", b"((((((((((",
                                    pickle.dumps(None), pickle.dumps({"ciudadelas": [1, 2]})])
def test_a_damaged_copy_is_read_again_never_an_error(cards, damage):
    """A cut or foreign file where the copy was (a full disk, another program): the data is read
    from the cards again and the copy made anew."""
    root, parsed = cards
    first = catalogcache.load(root, ("ciudadelas",))
    (kept,) = (Path(catalogcache.cache_dir("catalog"))).glob("*.pickle")
    kept.write_bytes(damage)
    parsed.clear()
    again = catalogcache.load(root, ("ciudadelas",))
    assert "districts.yaml" in parsed and again["ciudadelas"].kinds == first["ciudadelas"].kinds
    assert kept.read_bytes() != damage
