"""Deck data as spreadsheets write it: encodings, delimiters, quotes, counts, stripped cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca.generator import deck
from ludoteca.generator.deck import count_of, deck_component, read_rows, sniff_delimiter
from ludoteca.generator.model import GeneratorError


def _csv(tmp_path: Path, data: bytes, name: str = "cards.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_byte_order_mark_is_not_part_of_the_first_column_name(tmp_path):
    path = _csv(tmp_path, b"\xef\xbb\xbfid,name\n7,Ana\n")
    rows = read_rows(path)
    assert rows == [({"id": "7", "name": "Ana"}, 2)]
    assert list(rows[0][0])[0] == "id"          # not "\ufeffid"


def test_cells_and_column_names_are_stripped(tmp_path):
    path = _csv(tmp_path, b" id , name ,cost\n  7 ,  Torre del Oro  , 3 \n")
    assert read_rows(path) == [({"id": "7", "name": "Torre del Oro", "cost": "3"}, 2)]


def test_more_values_than_columns_names_the_line(tmp_path):
    path = _csv(tmp_path, b"id,name\n1,Ana\n2,Luis,extra\n3,Eva\n")
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert str(exc.value) == f"{path}:3: more values than columns (3 values, 2 columns)"


def test_fewer_values_than_columns_leave_the_rest_empty(tmp_path):
    path = _csv(tmp_path, b"id,name,count\n1,Ana\n")
    assert read_rows(path) == [({"id": "1", "name": "Ana", "count": ""}, 2)]


def test_an_empty_count_is_one_copy_and_zero_is_none(tmp_path):
    path = _csv(tmp_path, b"id,name,count\na,Ana,\nb,Luis,0\nc,Eva,3\nd,Ines,  \n")
    comp = deck_component(path, "face.svg.j2", None, (63.0, 88.0))
    assert [f.name for f in comp.fronts] == ["a", "c", "c", "c", "d"]


def test_latin1_from_a_spanish_spreadsheet_is_read_with_a_one_line_note(tmp_path):
    path = _csv(tmp_path, "id;nombre\n1;Ñandú\n2;Cañón\n".encode("cp1252"))
    notes: list[str] = []
    rows = read_rows(path, notes)
    assert [r[0]["nombre"] for r in rows] == ["Ñandú", "Cañón"]
    assert notes == [f"{path}: not UTF-8 (first at line 2); read as Windows-1252"]


def test_cp1252_only_characters_are_read_as_windows_1252(tmp_path):
    path = _csv(tmp_path, "id,text\n1,“Hola” — €5\n".encode("cp1252"))
    assert read_rows(path, [])[0][0]["text"] == "“Hola” — €5"


def test_utf8_gives_no_note(tmp_path):
    path = _csv(tmp_path, "id,nombre\n1,Ñandú\n".encode())
    notes: list[str] = []
    read_rows(path, notes)
    assert notes == []


@pytest.mark.parametrize("header,delimiter", [
    ("id,name,cost", ","), ("id;name;cost", ";"), ("id\tname\tcost", "\t"), ("id|name|cost", "|"),
    ('"a;b",name,cost', ","), ("name", ","),
])
def test_the_delimiter_is_found_in_the_header(header, delimiter):
    assert sniff_delimiter(header) == delimiter


def test_a_semicolon_file_reads_its_columns(tmp_path):
    path = _csv(tmp_path, b"id;name;text\n1;Ana;uno, dos\n2;Luis;\"tres; cuatro\"\n")
    assert read_rows(path) == [({"id": "1", "name": "Ana", "text": "uno, dos"}, 2),
                               ({"id": "2", "name": "Luis", "text": "tres; cuatro"}, 3)]


def test_a_stray_quote_is_reported_at_its_row_not_swallowing_the_rest(tmp_path):
    path = _csv(tmp_path, b'id,name\n1,Ana\n2,"Luis\n3,Eva\n4,Ines\n5,Olga\n')
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert str(exc.value).startswith(f"{path}:3: a quote (\") opened in this row is not closed")
    assert "lines 3-" in str(exc.value)


def test_a_stray_quote_closed_later_is_still_reported(tmp_path):
    path = _csv(tmp_path, b'id,name\n1,"Ana\n2,Luis\n3,"Eva"\n')
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert str(exc.value).startswith(f"{path}:2: a quote")


def test_a_quoted_cell_over_several_lines_is_one_cell(tmp_path):
    path = _csv(tmp_path, b'id,text,count\n1,"line one\nline two",2\n2,x,1\n')
    rows = read_rows(path)
    assert rows == [({"id": "1", "text": "line one\nline two", "count": "2"}, 2),
                    ({"id": "2", "text": "x", "count": "1"}, 4)]


def test_a_cell_over_the_limit_is_a_clear_error(tmp_path):
    path = _csv(tmp_path, b"id,text\n1,short\n2," + b"x" * 131_073 + b"\n")
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert str(exc.value) == f"{path}:3: a cell longer than 131,072 characters"


def test_a_cell_at_the_limit_is_read(tmp_path):
    path = _csv(tmp_path, b"id,text\n1," + b"x" * 131_072 + b"\n")
    assert len(read_rows(path)[0][0]["text"]) == 131_072


@pytest.mark.parametrize("value,message", [
    ("1000000000", "count: 1000000000 copies of one card, over the limit of 10,000"),
    ("10001", "count: 10001 copies of one card, over the limit of 10,000"),
    ("-1", "count: expected a whole number >= 0, got '-1'"),
    ("2.5", "count: expected a whole number >= 0, got '2.5'"),
    ("1e9", "count: expected a whole number >= 0, got '1e9'"),
    ("tres", "count: expected a whole number >= 0, got 'tres'"),
])
def test_bad_counts_are_refused_with_the_line(value, message):
    with pytest.raises(GeneratorError) as exc:
        count_of({"count": value}, Path("d.csv"), 4)
    assert str(exc.value) == f"d.csv:4: {message}"


def test_count_at_the_limit_is_accepted():
    assert count_of({"count": "10000"}, Path("d.csv"), 2) == 10_000
    assert count_of({"count": " 7 "}, Path("d.csv"), 2) == 7
    assert count_of({}, Path("d.csv"), 2) == 1


def test_a_deck_over_the_card_limit_names_the_row_that_passes_it(tmp_path):
    rows = "".join(f"r{i},10000\n" for i in range(11))
    path = _csv(tmp_path, ("id,count\n" + rows).encode())
    with pytest.raises(GeneratorError) as exc:
        deck_component(path, "f.svg.j2", None, (63.0, 88.0))
    assert str(exc.value) == f"{path}:12: the deck passes 100,000 cards, the limit of one build"


def test_a_header_repeating_a_column_is_refused(tmp_path):
    path = _csv(tmp_path, b"id,name,name\n1,a,b\n")
    with pytest.raises(GeneratorError, match=r":1: column 'name' appears twice"):
        read_rows(path)


def test_blank_lines_are_skipped_and_line_numbers_kept(tmp_path):
    path = _csv(tmp_path, b"id,name\n\n1,Ana\n\n,\n2,Luis\n")
    assert [(r["id"], line) for r, line in read_rows(path)] == [("1", 3), ("2", 6)]


def test_yaml_nested_to_the_depth_limit_is_read_one_deeper_is_refused(tmp_path):
    # Depth counts every open list or mapping: the deck's list is 1, a card's mapping 2, so a
    # cell holding 48 nested lists reaches 50 (YAML_MAX_DEPTH) and one more list 51.
    ok = _csv(tmp_path, b"- name: a\n  deep: " + b"[" * 48 + b"]" * 48 + b"\n", "ok.yaml")
    assert [row["name"] for row, _ in read_rows(ok)] == ["a"]
    deep = _csv(tmp_path, b"- name: a\n  deep: " + b"[" * 49 + b"]" * 49 + b"\n", "deep.yaml")
    with pytest.raises(GeneratorError) as exc:
        read_rows(deep)
    assert str(exc.value) == f"{deep}:2: nested deeper than 50 levels"


def test_yaml_values_are_counted_with_aliases_expanded(tmp_path, monkeypatch):
    # Every scalar is 1 value, every list or mapping 1 plus what it holds, an alias what it names:
    # card a: name, a, tags (3) + &t [x, y] (2 + 1) = 6, its mapping 7;
    # card b: name, b, tags (3) + *t (3) = 6, its mapping 7; the deck's list 7 + 7 + 1 = 15.
    path = _csv(tmp_path, b"- name: a\n  tags: &t [x, y]\n- name: b\n  tags: *t\n", "d.yaml")
    monkeypatch.setattr(deck, "YAML_MAX_VALUES", 15)
    assert [row["tags"] for row, _ in read_rows(path)] == [["x", "y"], ["x", "y"]]
    monkeypatch.setattr(deck, "YAML_MAX_VALUES", 14)
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert "expands to more than 14 values" in str(exc.value)
    # counted in reading order, card b's name, b, tags bring it to 10 and *t (line 4) to 13
    monkeypatch.setattr(deck, "YAML_MAX_VALUES", 12)
    with pytest.raises(GeneratorError) as exc:
        read_rows(path)
    assert str(exc.value) == f"{path}:4: expands to more than 12 values (aliases *name repeat whole lists)"


def test_an_alias_inside_its_own_anchor_counts_one_value(tmp_path, monkeypatch):
    # &l is still open when *l refers to it (a list holding itself): nothing is copied, so 1 value.
    # name, a, loop (3) + [x, *l] (1 + 1 + 1) = 6, the mapping 7, the deck's list 8.
    path = _csv(tmp_path, b"- name: a\n  loop: &l [x, *l]\n", "loop.yaml")
    monkeypatch.setattr(deck, "YAML_MAX_VALUES", 8)
    rows = read_rows(path)
    assert rows[0][0]["loop"][0] == "x" and rows[0][0]["loop"][1] is rows[0][0]["loop"]


def test_a_yaml_mapping_with_one_list_is_that_list_of_cards(tmp_path):
    path = _csv(tmp_path, b"cartas:\n  - name: Ana\n  - name: Luis\n", "d.yaml")
    assert read_rows(path) == [({"name": "Ana"}, 1), ({"name": "Luis"}, 2)]
    two = _csv(tmp_path, b"cartas: []\notras: []\n", "two.yaml")
    with pytest.raises(GeneratorError) as exc:
        read_rows(two)
    assert str(exc.value) == f"{two}: expected a list of mappings (one per card)"


def test_a_control_character_is_named_by_its_code_point(tmp_path):
    path = _csv(tmp_path, b"id,name\n1,An\x01a\n")
    with pytest.raises(GeneratorError) as exc:
        deck_component(path, "f.svg.j2", None, (63.0, 88.0))
    assert str(exc.value) == f"{path}:2: column 'name' holds a control character (U+0001)"


def test_face_names_are_file_safe_and_at_most_40_characters(tmp_path):
    path = _csv(tmp_path, ("id,name\n" + "0123456789" * 5 + ",A\n,Dragón rojo\n").encode())
    comp = deck_component(path, "f.svg.j2", None, (63.0, 88.0))
    # the 50-character id keeps its first 40; "Dragón rojo" has no id: 'ó' and the space become '-'
    assert [f.name for f in comp.fronts] == ["0123456789" * 4, "Drag-n-rojo"]


def test_a_row_of_blank_cells_is_skipped(tmp_path):
    path = _csv(tmp_path, b"id,name\n1,Ana\n  ,   \n2,Luis\n")
    assert read_rows(path) == [({"id": "1", "name": "Ana"}, 2), ({"id": "2", "name": "Luis"}, 4)]


def _eager(path: Path, template: str, back: bool) -> list:
    """The faces of a CSV deck made the plain way: every row, every copy, in a list."""
    faces = []
    for index, (row, line) in enumerate(read_rows(path)):
        faces += [deck._face(row, line, index, path, template, back)] * count_of(row, path, line)
    return faces


@pytest.mark.parametrize("encoding,bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("cp1252", b"")])
def test_faces_read_back_a_run_of_rows_are_the_rows_faces(tmp_path, encoding, bom):
    text = ("id;name;count;text\r\n1;Ñandú;2;\"dos\r\nlíneas\"\r\n\r\n2;Ávila;0;nada\r\n"
            "3;Torre;3;tres\r\n4;Çà;1;\"uno; con \"\"comillas\"\"\"\r\n")
    path = _csv(tmp_path, bom + text.encode(encoding))
    comp = deck_component(path, "face.svg.j2", "back.svg.j2", (63.0, 88.0))
    fronts, backs = _eager(path, "face.svg.j2", False), _eager(path, "back.svg.j2", True)
    assert isinstance(comp.fronts, deck.CsvFaces) and len(comp.fronts) == len(fronts) == 6
    assert list(comp.fronts) == fronts and list(comp.backs) == backs
    for a in range(7):
        for b in range(a, 7):
            assert comp.fronts[a:b] == fronts[a:b], (a, b)
    assert comp.fronts[-1] == fronts[-1] and comp.fronts[::2] == fronts[::2]
    assert comp.fronts[0].context["text"] == "dos\r\nlíneas" and comp.fronts[0].source == f"{path}:2"


def test_a_huge_csv_deck_is_not_held_in_memory(tmp_path):
    import tracemalloc
    rows = "".join(f"{i},Carta {i},{i % 7},azul,Texto de la carta número {i} con algo más\n"
                   for i in range(2000))
    path = _csv(tmp_path, ("id,name,cost,color,text\n" + rows).encode())
    tracemalloc.start()
    try:
        comp = deck_component(path, "face.svg.j2", None, (63.0, 88.0))
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(comp.fronts) == 2000 and comp.fronts[1999].context["id"] == "1999"
    assert held < 500_000                    # every row as a face: about 1.7 MB


def test_a_csv_changed_during_the_build_is_said(tmp_path):
    path = _csv(tmp_path, b"id,name\n1,Ana\n2,Eva\n")
    comp = deck_component(path, "face.svg.j2", None, (63.0, 88.0))
    path.write_bytes(b"id,name\n1,Ana\n2,Eva\n3,Sol\n")
    with pytest.raises(GeneratorError, match="changed while the deck was built"):
        list(comp.fronts)


def test_reading_a_csv_deck_never_holds_the_whole_file(tmp_path):
    """The rows are read from the file as they are taken: beyond what the deck keeps (where each
    row is), reading it holds a few pieces of the file at a time, not the whole of it (which
    reading it whole held five times over: its bytes, its text, a copy to split it in lines)."""
    import tracemalloc
    rows = "".join(f"{i},Carta {i},{i % 7},azul,Texto de la carta número {i} con algo más\n"
                   for i in range(2000))
    data = ("id,name,cost,color,text\n" + rows).encode()
    path = _csv(tmp_path, data)
    deck_component(_csv(tmp_path, b"id\n1\n", "warm.csv"), "face.svg.j2", None, (63.0, 88.0))  # limits read
    tracemalloc.start()
    try:
        comp = deck_component(path, "face.svg.j2", None, (63.0, 88.0))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(comp.fronts) == 2000
    assert len(data) > 130_000 and peak - held < 100_000, (peak, held, len(data))



def test_a_csv_decks_cache_key_is_made_of_its_rows_bytes_without_making_its_faces(tmp_path, monkeypatch):
    """build.component_key hashes a CSV deck's rows as bytes (CsvFaces.feed): no face is made
    for it (the deck's faces were made once more for the key alone), and any change a face would
    show (a cell, a row's line, the template, a back) still changes the key."""
    from ludoteca.generator.build import component_key
    from ludoteca.generator.model import Options

    def key(data: bytes, template: str = "face.svg.j2", back: str | None = None, name: str = "cards.csv") -> str:
        comp = deck_component(_csv(tmp_path, data, name), template, back, (63.0, 88.0))
        return component_key(comp, Options(), "templates")

    data = b"id,name,count\n1,Ana,2\n2,Eva,\n"
    first = key(data)
    monkeypatch.setattr(deck, "_face", lambda *a: pytest.fail("a face made for the key"))
    assert key(data) == first
    assert key(data, name="other.csv") != first
    others = {key(b"id,name,count\n1,Ana,2\n2,Eve,\n"), key(b"id,name,count\n1,Ana,3\n2,Eva,\n"),
              key(b"id,name,count\n\n1,Ana,2\n2,Eva,\n"), key(data, "other.svg.j2"), key(data, back="back.svg.j2"),
              key(b"id;name;count\n1;Ana;2\n2;Eva;\n")}
    assert first not in others and len(others) == 6


def test_lone_carriage_returns_split_lines_as_the_pattern_says_for_every_short_line():
    """_split_lone_cr looks for a pattern only in a line with a \\r before its own end: every line
    of up to six bytes of a, \\r and \\n is cut where the lone-\\r pattern cuts it."""
    import itertools
    import re

    def by_pattern(line: bytes) -> list[bytes]:
        cuts = [m.end() for m in re.finditer(rb"\r(?!\n)", line)]
        return [line[a:b] for a, b in zip([0] + cuts, cuts + [len(line)]) if a < b]

    for size in range(7):
        for parts in itertools.product((b"a", b"\r", b"\n"), repeat=size):
            line = b"".join(parts)
            assert list(deck._split_lone_cr([line])) == by_pattern(line), line


def test_a_rows_face_is_rendered_once_per_distinct_context_without_writing_it_as_json(tmp_path, monkeypatch):
    """Copies of a row render once; rows that differ in a value's type (1, True, '1') or its
    order of names render apart; a CSV row's plain values are keyed without JSON."""
    from ludoteca.generator import build, templating
    from ludoteca.generator.model import Face, Options
    data = tmp_path / "cards.csv"
    data.write_text("id,name,count\nc1,Ana,3\nc2,Bo,1\n", encoding="utf-8")
    comp = deck_component(data, "card.svg.j2", None, (63.0, 88.0))
    rendered = []
    monkeypatch.setattr(templating, "render", lambda face, *a, **k: rendered.append(face) or
                        f'<svg font-size="3">{len(rendered)}</svg>')

    def no_json(*args, **kwargs):
        raise AssertionError("a plain context written as JSON")
    monkeypatch.setattr(build.json, "dumps", no_json)
    faces = list(comp.fronts)
    assert len(faces) == 4
    svgs = build.render_faces(comp, faces, Options(), (str(templating.TEMPLATES),))
    assert len(rendered) == 2 and svgs[0] == svgs[1] == svgs[2] != svgs[3]
    rendered.clear()
    twins = [Face("t.svg.j2", {"a": v}, "x") for v in (1, True, "1", 1)]
    twins.append(Face("t.svg.j2", {"a": 1, "b": 2}, "x"))
    twins.append(Face("t.svg.j2", {"a": 1, "b": 2}, "x"))
    svgs = build.render_faces(comp, twins, Options(), (str(templating.TEMPLATES),))
    assert len(rendered) == 4 and svgs[0] == svgs[3] and svgs[4] == svgs[5]
