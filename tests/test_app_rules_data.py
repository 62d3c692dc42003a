"""The app holds no rules: no rule number in its strings, no card or resource id in its code.
(The screens read both from ``cards/`` through the engine; these checks read the source, no window.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ludoteca.companion import app as companion_app
from ludoteca.cards import load
from ludoteca.companion.app.strings import UI

APP = Path(companion_app.__file__).parent

#: Kinds whose ids are rule data: an app that names one has copied a rule.
RULE_KINDS = {"ciudadelas": ("character", "district"), "el_mapa": ("resource", "building", "troop"),
              "gladiadores": ("gladiator", "building")}


def test_no_ui_string_carries_a_rule_number():
    found = []
    for key, texts in UI.items():
        if key.endswith("_one"):  # singular forms ("1 partida") are grammar, not rules
            continue
        for text in texts:
            if re.search(r"\d", re.sub(r"\{[^}]*\}", "", text)):
                found.append((key, text))
    assert found == []


def test_the_complete_city_banner_takes_its_number_from_the_data():
    n = load()["ciudadelas"].meta["complete_city"]
    for lang in ("es", "en"):
        banner = UI["complete_banner"][0 if lang == "es" else 1]
        assert "{n}" in banner
        assert str(n + 1) in banner.format(name="Ana", n=n + 1)


def test_no_card_or_resource_id_is_written_in_the_app_code():
    catalog = load()
    ids = {game: {e["id"]: kind for kind in kinds for e in catalog[game].entries(kind)}
           for game, kinds in RULE_KINDS.items()}
    everything = {i: kind for game_ids in ids.values() for i, kind in game_ids.items()}
    found = []
    for path in sorted(APP.glob("*.py")):
        # a game's screen is read against its own game's ids (a Ciudadelas district may be called
        # 'castle' while El Mapa's build action takes a 'castle' argument); shared files against all
        wanted = ids.get(path.stem, everything)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in wanted:
                found.append(f"{path.name}:{node.lineno} {node.value!r} ({wanted[node.value]})")
    assert len(everything) > 100 and found == []
