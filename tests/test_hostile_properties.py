"""Property-based hostile inputs (hypothesis): whatever the bytes or the structure, the readers
answer with their own clear error or a value, never another exception."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.cards import load
from ludoteca.cards.limits import InputTooLarge, json_loads
from ludoteca.cards.yamlread import YamlProblem, parse
from ludoteca.companion.engine import IllegalAction, Store, StoreError
from ludoteca.companion.engine.export import FORMULA_START, spreadsheet_safe
from ludoteca.companion.engine.recover import carve
from ludoteca.companion.engine.scoring import RecordError, score_record

CATALOG = load()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])
NAMES = ["Ana", "Luis", "Mercado", "Cuartel", "Pirámides", "Templo", "King", "Rey", "templum", "leva", "oro",
         "gold", "el_mapa", "ciudadelas", "gladiadores", "", " ", "x" * 300]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**60, 10**60), st.floats(allow_nan=False,
                                                                                      allow_infinity=False),
                    st.sampled_from(NAMES), st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.sampled_from(
        ["game", "players", "name", "city", "buildings", "gold", "tiles_revealed", "combat_wins", "defence_wins",
         "characters",
         "defeated", "resources", "variants", "target", "first_complete", "dark_city", "x"]), inner, max_size=6)),
    max_leaves=40)
records = st.builds(lambda game, players, extra: {"game": game, "players": players, **extra},
                    st.sampled_from(["ciudadelas", "el_mapa", "gladiadores", "Ciudadelas", "mapa"]),
                    st.one_of(values, st.lists(st.dictionaries(st.sampled_from(
                        ["name", "city", "buildings", "gold", "tiles_revealed", "combat_wins", "defence_wins",
                         "characters",
                         "defeated", "resources", "trained_troops", "hand", "coins"]),
                        st.one_of(scalars, st.lists(st.sampled_from(NAMES), max_size=12),
                                  st.dictionaries(st.sampled_from(NAMES), st.integers(-5, 10**9), max_size=4))),
                        max_size=8)), st.dictionaries(st.sampled_from(["variants", "target", "x"]), values, max_size=2))


@SETTINGS
@given(st.text(max_size=400))
def test_any_text_is_yaml_or_a_yaml_problem(text):
    try:
        parse(text, "t.yaml")
    except YamlProblem as exc:
        assert str(exc).startswith("t.yaml:")


@SETTINGS
@given(st.text(alphabet="[]{}\",:0123456789 \\ab", max_size=400))
def test_any_text_is_json_or_a_clear_error(text):
    try:
        json_loads(text, "l")
    except InputTooLarge as exc:
        assert str(exc).startswith("l")
    except ValueError:
        pass  # json's own one-line message


@SETTINGS
@given(records)
def test_any_record_is_scored_or_refused(record):
    record = json.loads(json.dumps(record, default=str))
    try:
        result = score_record(record, CATALOG)
    except RecordError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
    else:
        assert all(isinstance(p.total, int) for p in result.players)


@SETTINGS
@given(st.binary(max_size=3000))
def test_any_bytes_carve_without_error(data):
    found = carve(data + b"20261123-abcdef" + data)
    assert isinstance(found.actions, dict)


@SETTINGS
@given(st.binary(min_size=1, max_size=5000))
def test_any_file_as_a_database_is_refused_or_opened(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("db")
    path = folder / "x.db"
    path.write_bytes(data)
    try:
        store = Store(path)
    except StoreError:
        assert path.read_bytes() == data  # refused: left exactly as it was
    else:
        store.close()


@SETTINGS
@given(st.dictionaries(st.sampled_from(["action", "player", "resource", "delta", "id", "district", "x"]),
                       st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=5))
def test_any_action_is_applied_or_refused(action):
    session = Store(":memory:").new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    try:
        session.apply(action)
    except IllegalAction as exc:
        assert exc.text["es"] and exc.text["en"]


@SETTINGS
@given(st.text(max_size=30))
def test_a_csv_cell_never_starts_a_formula(cell):
    safe = spreadsheet_safe(cell)
    assert not safe.startswith(FORMULA_START) and safe.lstrip("'") == cell.lstrip("'") or safe == "'" + cell
