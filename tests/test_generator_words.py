"""generator/words.yaml: the printed interface words, every one in Spanish and English."""

from __future__ import annotations

import pytest

from ludoteca.generator.games import ciudadelas, el_mapa
from ludoteca.generator.model import GeneratorError
from ludoteca.generator.words import WORDS_FILE, words


def test_every_table_has_both_languages_and_the_modules_use_them():
    import yaml
    data = yaml.safe_load(WORDS_FILE.read_text(encoding="utf-8"))
    for game, tables in data.items():
        for table in tables:
            for key, text in words(game, table).items():
                assert text["es"] and text["en"], (game, table, key)
    assert ciudadelas.LABELS == words("ciudadelas", "labels")
    assert ciudadelas.TITLES["districts"] == {"es": "Distritos", "en": "Districts"}
    assert el_mapa.LABELS["level"] == {"es": "Nivel", "en": "Level"}


@pytest.mark.parametrize("text, message", [
    ("g:\n  labels:\n    ok: {es: Hola, en: Hello}\n    bad: {es: Solo}\n",
     "words.yaml: g.labels.bad: needs a non-empty es and en text"),
    ("g:\n  other: {}\n", "words.yaml: g.labels: missing"),
    ("g: [unclosed\n", "words.yaml: cannot be read"),
])
def test_a_broken_entry_is_one_clear_error_naming_it(tmp_path, text, message):
    source = tmp_path / "words.yaml"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(GeneratorError) as err:
        words("g", "labels", source)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_ciudadelas_score_pad_rows_are_the_scoring_lines_in_the_same_words():
    """The printed score pad and the final score once named the same line in two ways ("Los cinco
    colores" / "Cinco colores"): its rows are now the lines a played game's final score has."""
    from ludoteca.cards import load
    from ludoteca.companion.engine import Store
    from test_engine_helpers import play_to_end

    game = load()["ciudadelas"]
    (face,) = ciudadelas._score_pad(game, {}).fronts
    pad = {row["key"]: row["label"] for row in face.context["rows"]}
    store = Store(":memory:")
    session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=1)
    play_to_end(session, 1)
    final = session.state["final"]
    lines = [key for key in final["players"][0]["breakdown"]]
    assert lines == [key for key in pad if key != "dark_city"]
    assert {key: pad[key] for key in lines} == {key: final["labels"][key] for key in lines}


@pytest.mark.parametrize("game, players", [("el_mapa", ["Ana", "Luis"]), ("gladiadores", ["Ana", "Luis"])])
def test_score_pad_rows_are_the_scoring_lines_in_the_same_words(game, players):
    """El Mapa's pad said "Fichas reveladas" and "Puntos de batalla" where the final score says
    "Losetas reveladas" and "Batallas"; Gladiadores' "Fights won" where it says "Combats won"."""
    from ludoteca.cards import load
    from ludoteca.companion.engine import Store
    from ludoteca.generator.games import gladiadores
    from test_engine_helpers import play_to_end

    data = load()[game]
    if game == "el_mapa":
        rows = el_mapa._score_pad(data).fronts[0].context["rows"]
    else:
        rows = gladiadores.score_pad(data).fronts[0].context["labels"]["rows"][:-1]
    store = Store(":memory:")
    session = store.new_game(game, players, seed=1)
    play_to_end(session, 1)
    final = session.state["final"]
    assert rows == [final["labels"][key] for key in final["players"][0]["breakdown"]]


def _spanish(node, skip=frozenset({"seed_line", "note", "notes", "source"})) -> list[str]:
    """Every Spanish text of a YAML tree: the ``es`` of each {es, en}, leaving out the data's
    quotations of its sources (seed lines, notes)."""
    if isinstance(node, dict):
        out = [node["es"]] if isinstance(node.get("es"), str) else []
        for key, value in node.items():
            if key not in skip and key != "es":
                out += _spanish(value, skip)
        return out
    if isinstance(node, list):
        return [t for item in node for t in _spanish(item, skip)]
    return []


def test_el_mapa_calls_a_map_tile_a_loseta_as_the_app_does():
    """The kit said "fichas del mapa" where the app says "losetas"; "ficha" stays the word for a
    token ("Fichas y contadores"), so a map tile is a loseta in the rulebook, the cards, the
    titles and the app alike."""
    import re
    from pathlib import Path

    import yaml
    from ludoteca.companion.engine.scoring.el_mapa import LABELS

    root = Path(el_mapa.__file__).resolve().parents[2]
    sources = [root / "generator" / "rulebook" / "texts" / name for name in ("el_mapa.yaml", "notes_es.yaml")]
    sources += sorted((root / "cards" / "el_mapa").glob("*.yaml"))
    load = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    texts = [t for path in sources for t in _spanish(yaml.load(path.read_text(encoding="utf-8"), Loader=load))]
    texts += [t for path in sources[1:2] for t in re.findall(r"[^\n]+", path.read_text(encoding="utf-8"))
              if not t.lstrip().startswith("#")]                  # the notes are plain Spanish text
    texts += [w["es"] for table in ("titles", "labels") for w in words("el_mapa", table).values()]
    common = yaml.safe_load((root / "generator" / "rulebook" / "texts" / "common.yaml").read_text(encoding="utf-8"))
    texts += _spanish(common)
    tile = re.compile(r"\bfichas? (del? mapa|de nivel|iniciales?|revelada|de hechizo|de pueblo|boca)|"
                      r"\bfichas (reveladas|iniciales|por nivel)|\bfichas del mapa|\bfichas? que revel",
                      re.IGNORECASE)
    assert [t for t in texts if tile.search(t)] == []
    assert "losetas" in LABELS["tiles"]["es"].lower()
    assert el_mapa.TITLES["tiles"]["es"].lower().startswith("losetas")
