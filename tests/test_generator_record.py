"""generator.record makes of a class what dataclasses makes of it, for the kit's value classes."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from ludoteca.generator.record import as_dict, field, record, replace


@record(frozen=True)
class Sheet:
    paper: tuple[float, float]
    cols: int
    bleed: float = 3.0


@record(frozen=True)
class Grid(Sheet):
    gutter: tuple[float, float] = (6.0, 6.0)


@record(slots=True)
class Page:
    svg: str
    key: str = field(default="", compare=False)
    faces: list = field(default_factory=list, repr=False)


@dataclasses.dataclass(frozen=True)
class DataGrid:
    paper: tuple[float, float]
    cols: int
    bleed: float = 3.0
    gutter: tuple[float, float] = (6.0, 6.0)


def test_a_record_takes_its_fields_in_order_bases_first_and_shows_them_as_a_dataclass_does() -> None:
    grid = Grid((210.0, 297.0), 3, 2.0)
    twin = DataGrid((210.0, 297.0), 3, 2.0)
    assert repr(grid).removeprefix("Grid") == repr(twin).removeprefix("DataGrid")
    assert as_dict(grid) == dataclasses.asdict(twin)
    assert grid == Grid(paper=(210.0, 297.0), cols=3, bleed=2.0) and grid != Grid((210.0, 297.0), 3)
    assert hash(grid) == hash(Grid((210.0, 297.0), 3, 2.0)) and len({grid, Grid((210.0, 297.0), 3, 2.0)}) == 1
    assert grid != twin and Sheet((1.0, 1.0), 1) != Grid((1.0, 1.0), 1)   # another class is never equal
    with pytest.raises(TypeError):
        Grid((210.0, 297.0))                                            # cols has no default


def test_a_frozen_record_refuses_assignment_and_a_mutable_one_is_not_hashable() -> None:
    grid = Grid((210.0, 297.0), 3)
    with pytest.raises(AttributeError):
        grid.cols = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del grid.cols  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(Page("<svg/>"))


def test_fields_left_out_of_the_comparison_and_the_repr_and_defaults_made_per_instance() -> None:
    a, b = Page("<svg/>", key="k1"), Page("<svg/>", key="k2")
    assert a == b and repr(a) == "Page(svg='<svg/>', key='k1')"
    a.faces.append(1)
    assert b.faces == [] and a.faces is not b.faces
    assert not hasattr(a, "__dict__") and Page.__slots__ == ("svg", "key", "faces")


def test_replace_copies_a_record_with_some_fields_changed_and_records_pickle() -> None:
    page = Page("<svg/>", key="k", faces=[("face", (0, 0, 1, 1), ())])
    light = replace(page, svg="")
    assert (light.svg, light.key, light.faces) == ("", "k", page.faces) and page.svg == "<svg/>"
    assert replace(Grid((1.0, 2.0), 3), cols=4) == Grid((1.0, 2.0), 4)
    for value in (page, Grid((1.0, 2.0), 3)):                          # as pages go to the workers
        back = pickle.loads(pickle.dumps(value))
        assert back == value and as_dict(back) == as_dict(value)


def test_a_records_init_is_compiled_once_then_read_from_the_user_cache(tmp_path, monkeypatch) -> None:
    """The ``__init__`` a record writes is compiled in the first process and kept in the user
    cache: a later process reads it there (compiling it again cost each run 0.1 ms per class);
    a damaged cache is compiled again."""
    from ludoteca.generator import record as module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(module, "_CODES", None)

    def make() -> type:
        @record(frozen=True)
        class Card:
            name: str
            cost: int = 0
            tags: list = field(default_factory=list)
        return Card

    assert make()("Catedral").cost == 0
    kept = module._code_file()
    assert kept.is_file()
    monkeypatch.setattr(module, "_CODES", None)            # a later process
    monkeypatch.setattr("builtins.compile", lambda *a, **k: pytest.fail("compiled again"))
    assert make()("Catedral", 3).cost == 3
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(module, "_CODES", None)
    kept.write_bytes(b"\x00damaged")
    assert make()("Catedral", tags=["x"]).tags == ["x"]


def test_the_user_cache_keeps_the_last_inits_written_only(tmp_path, monkeypatch) -> None:
    """A checkout whose classes change does not grow the cache of compiled ``__init__`` code
    without end: the oldest are let go past CODES_KEPT."""
    from ludoteca.generator import record as module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(module, "_CODES", None)
    monkeypatch.setattr(module, "CODES_KEPT", 2)
    for fields in ("a", "b", "c"):
        record(type(f"R{fields}", (), {"__annotations__": {fields: "int"}}))
    assert len(module._CODES) == 2
    assert [s.split("(")[1].split(")")[0] for s in module._CODES] == ["self, b", "self, c"]
