"""The session machinery: no Kivy, the log, undo/redo, replay, durability paths, the damaged file."""

from __future__ import annotations

import json
import pkgutil
import sqlite3
import subprocess
import sys

import pytest

import ludoteca.companion.engine
from ludoteca.companion.engine import (GAME_MODULES, BadArgument, NotAllowed, NothingToUndo, Store,
                                      UnknownAction, UnknownPlayer, default_db_path)
from ludoteca.cards import load
from ludoteca.companion.engine.common import (Arg, Move, adjust_move, apply_move, declare, find_entry, log,
                                              legal_moves, move_refusal, name_of, player_index, text)
from test_engine_helpers import play_to_end

GAMES = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo"], "gladiadores": ["Ana", "Luis", "Eva"],
         "el_mapa": ["Ana", "Luis"]}


def test_engine_imports_no_kivy():
    modules = [m.name for m in pkgutil.walk_packages(ludoteca.companion.engine.__path__, "ludoteca.companion.engine.")]
    assert "ludoteca.companion.engine.games.ciudadelas" in modules and len(modules) >= 8
    code = ("import sys, importlib\n"
            f"for m in {modules + ['ludoteca.companion.engine', 'ludoteca.companion.play_cli']!r}:\n"
            "    importlib.import_module(m)\n"
            "bad = sorted(k for k in sys.modules if k == 'kivy' or k.startswith('kivy.'))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_default_db_path(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDOTECA_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("LUDOTECA_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    if sys.platform.startswith("linux"):
        assert default_db_path() == tmp_path / "share" / "ludoteca" / "ludoteca.db"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_replay_is_deterministic_and_reopen_rebuilds_the_same_state(tmp_path, game):
    store = Store(tmp_path / "a.db")
    a = store.new_game(game, GAMES[game], seed=42)
    b = store.new_game(game, GAMES[game], seed=42)
    play_to_end(a, seed=1)
    for action in a.actions:
        b.apply(action)
    assert b.state == a.state
    reopened = Store(tmp_path / "a.db").open(a.id)
    assert reopened.state == a.state and reopened.seq == a.seq


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_walks_back_to_the_start_and_redo_forward(tmp_path, game):
    store = Store(tmp_path / "u.db")
    s = store.new_game(game, GAMES[game], seed=8)
    states = [s.state]
    import random
    from test_engine_helpers import choose_move
    rnd = random.Random(2)
    for _ in range(25):
        if s.state["finished"]:
            break
        states.append(s.apply(choose_move(s.state, s.legal_actions(), s.data, rnd)))
    n = len(states) - 1
    for k in range(n, 0, -1):
        s.apply({"action": "undo"})
        assert strip(s.state) == strip(states[k - 1])
    with pytest.raises(NothingToUndo):
        s.apply({"action": "undo"})
    for k in range(1, n + 1):
        s.apply({"action": "redo"})
        assert strip(s.state) == strip(states[k])
    with pytest.raises(NothingToUndo):
        s.apply({"action": "redo"})
    # the log keeps everything: n actions, n undos, n redos
    assert s.seq == 3 * n
    assert strip(Store(tmp_path / "u.db").open(s.id).state) == strip(states[n])


def strip(state):
    return {k: v for k, v in state.items() if k not in ("can_undo", "can_redo")}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_live_undo_redo_and_the_reopened_log_walk_alike(tmp_path, game):
    """The live session and a session rebuilt from its log take the same undo/redo walk: after any
    mix of moves, undos and redos, reopening gives the same state, actions and can_undo/can_redo."""
    import random
    from test_engine_helpers import choose_move
    store = Store(tmp_path / "w.db")
    s = store.new_game(game, GAMES[game], seed=5)
    rnd = random.Random(7)
    for _ in range(40):
        if s.state["finished"]:
            break
        roll = rnd.random()
        if roll < 0.3 and s.can_undo:
            s.apply({"action": "undo"})
        elif roll < 0.5 and s.can_redo:
            s.apply({"action": "redo"})
        else:
            s.apply(choose_move(s.state, s.legal_actions(), s.data, rnd))
        reopened = store.open(s.id)
        assert (reopened.state, reopened.actions, reopened.can_undo, reopened.can_redo) == \
            (s.state, s.actions, s.can_undo, s.can_redo)


def test_new_action_after_undo_clears_redo(tmp_path):
    store = Store(tmp_path / "r.db")
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=1)
    s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 5})
    s.apply({"action": "undo"})
    assert s.can_redo
    s.apply({"action": "adjust", "player": "Luis", "resource": "hand", "delta": 1})
    assert not s.can_redo and s.state["can_undo"]
    with pytest.raises(NothingToUndo):
        s.apply({"action": "redo"})
    assert [p["gold"] for p in s.state["players"]] == [2, 2, 2, 2]
    assert s.state["players"][1]["hand"] == 5
    assert [row["action"]["action"] for row in store.log(s.id)] == ["adjust", "undo", "adjust"]


def test_bad_actions_are_refused_and_not_logged(tmp_path):
    store = Store(tmp_path / "b.db")
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=1)
    for bad, err in [("nope", BadArgument), ({"x": 1}, BadArgument), ({"action": "fly"}, UnknownAction),
                     ({"action": "adjust", "player": "Ana", "resource": "gems", "delta": 1}, BadArgument),
                     ({"action": "adjust", "player": "Ana", "resource": "gold", "delta": "x"}, BadArgument)]:
        with pytest.raises(err):
            s.apply(bad)
    assert s.seq == 0 and store.log(s.id) == []


def test_new_game_checks_players(tmp_path):
    store = Store(tmp_path / "p.db")
    with pytest.raises(BadArgument):
        store.new_game("ciudadelas", ["Ana"])
    with pytest.raises(BadArgument):
        store.new_game("ciudadelas", ["Ana", "ana", "Eva"])
    with pytest.raises(BadArgument):
        store.new_game("parchis", ["Ana", "Luis"])
    assert store.history() == []


def test_unfinished_games_are_offered_for_resume(tmp_path):
    store = Store(tmp_path / "f.db")
    s = store.new_game("gladiadores", GAMES["gladiadores"], seed=1)
    s.apply({"action": "adjust", "player": "Eva", "resource": "coins", "delta": 2})
    again = Store(tmp_path / "f.db")
    [row] = again.unfinished()
    assert row["id"] == s.id and row["seq"] == 1 and row["players"] == GAMES["gladiadores"]
    assert again.open(s.id).state["players"][2]["coins"] == s.state["players"][2]["coins"]


def test_database_settings_are_durable(tmp_path):
    store = Store(tmp_path / "d.db")
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("damage", ["header", "first_page"])
def test_damaged_database_is_moved_aside_and_its_actions_recovered(tmp_path, damage):
    path = tmp_path / "ludoteca.db"
    good = Store(path)
    old = good.new_game("ciudadelas", GAMES["ciudadelas"], seed=1)
    for delta in (3, 5, 7):
        old.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": delta})
    good.close()
    data = bytearray(path.read_bytes())
    span = 100 if damage == "header" else 4096
    data[:span] = bytes(span)
    path.write_bytes(bytes(data))
    store = Store(path)
    assert store.moved_to is not None and store.moved_to.read_bytes() == bytes(data)
    assert store.moved_to.name.startswith("ludoteca.db.damaged-")
    assert "damaged" in store.notice["en"] and "dañada" in store.notice["es"]
    assert str(store.moved_to.name) in store.notice["en"] and "All 3 readable actions" in store.notice["en"]
    assert (store.recovery.actions_found, store.recovery.actions, store.recovery.games) == (3, 3, 1)
    [row] = store.history()
    assert row["id"] == old.id and store.open(old.id).state["players"][0]["gold"] == old.state["players"][0]["gold"]
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=1)
    assert s.id != old.id and Store(path).notice is None


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100,
                                     b"SQLite format 3\x00" + b"\xff" * 5000])
def test_a_file_that_is_not_ours_is_left_alone(tmp_path, content):
    from ludoteca.companion.engine.store import NotOurs

    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    with pytest.raises(NotOurs, match="not a Ludoteca database"):
        Store(path)
    assert path.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_damaged_database_on_the_command_line(tmp_path):
    path = tmp_path / "x.db"
    store = Store(path)
    store.new_game("gladiadores", GAMES["gladiadores"], seed=1)
    store.close()
    data = bytearray(path.read_bytes())
    data[:100] = b"garbage " * 12 + b"gear"
    path.write_bytes(bytes(data))
    out = subprocess.run([sys.executable, "-m", "ludoteca", "history", "--db", str(path), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "damaged" in out.stderr and "Traceback" not in out.stderr
    assert path.read_bytes() == bytes(data)  # history only reads
    out = subprocess.run([sys.executable, "-m", "ludoteca", "play", "gladiadores", "--players", "A,B",
                          "--db", str(path)], capture_output=True, text=True, input="")
    assert out.returncode == 0, out.stderr
    assert "moved aside" in out.stderr and "All 0 readable actions" in out.stderr
    assert len(list(tmp_path.glob("x.db.damaged-*"))) == 1
    out = subprocess.run([sys.executable, "-m", "ludoteca", "history", "--db", str(path), "--json"],
                         capture_output=True, text=True)
    assert len(json.loads(out.stdout)) == 2


def test_every_game_module_declares_its_actions():
    for name, module in GAME_MODULES.items():
        assert module.GAME == name
        for action in ("adjust", "undo", "redo"):
            assert action in module.ACTIONS
        for spec in module.ACTIONS.values():
            assert set(spec["help"]) == {"es", "en"}


def test_sqlite_rows_match_acknowledged_actions(tmp_path):
    store = Store(tmp_path / "s.db")
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=1)
    for k in range(5):
        s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": k})
    raw = sqlite3.connect(tmp_path / "s.db")
    assert raw.execute("SELECT count(*) FROM actions WHERE game_id=?", (s.id,)).fetchone()[0] == 5
    assert raw.execute("SELECT seq FROM games WHERE id=?", (s.id,)).fetchone()[0] == 5


def test_a_locked_database_is_not_taken_for_a_damaged_one(tmp_path, monkeypatch):
    """Another program holding the lock (the phone app) must not get its games moved aside."""
    import ludoteca.companion.engine.store as store_module
    from ludoteca.companion.engine import StoreError

    path = tmp_path / "busy.db"
    first = Store(path)
    kept = first.new_game("gladiadores", GAMES["gladiadores"], seed=1)
    first.close()
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.2)
    store = Store(path)
    assert store.notice is None and list(tmp_path.glob("busy.db.damaged-*")) == []
    assert [g["id"] for g in store.history()] == [kept.id]
    with pytest.raises(StoreError, match="locked"):
        store.new_game("gladiadores", GAMES["gladiadores"], seed=2)
    session = store.open(kept.id)
    with pytest.raises(StoreError, match="locked"):
        session.apply({"action": "adjust", "player": "Ana", "resource": "coins", "delta": 1})
    assert session.seq == 0 and session.state == store.open(kept.id).state
    holder.execute("ROLLBACK")
    holder.close()
    session.apply({"action": "adjust", "player": "Ana", "resource": "coins", "delta": 1})
    assert Store(path).open(kept.id).seq == 1


FUZZ_VALUES = [None, True, 0, 1, 2, 3, -1, 99, 1.5, "", "x", "Ana", "Luis", "king", "warlord", "temple",
               "keep", "levy", "leva", "oro", "madera", "gold", "village", "1", "n1_a", [], ["a"], {},
               {"a": 1}, {"leva": 1}]


@pytest.mark.parametrize("game,players", [("ciudadelas", ["Ana", "Luis"]),
                                          ("ciudadelas", ["Ana", "Luis", "Eva", "Pablo", "Rosa", "Hugo", "Iris"]),
                                          ("gladiadores", ["Ana", "Luis", "Eva"]),
                                          ("el_mapa", ["Ana", "Luis"])])
def test_any_action_is_applied_or_refused_cleanly(game, players):
    """A random walk of legal moves and garbage: every refusal is an IllegalAction, never a crash."""
    import random

    from ludoteca.companion.engine import IllegalAction
    from ludoteca.companion.engine.common import copy_state
    from ludoteca.cards import load

    module, data = GAME_MODULES[game], load(games=(game,))[game]
    names = [n for n in module.ACTIONS if n not in ("undo", "redo")]
    arg_names = sorted({a for spec in module.ACTIONS.values() for a in spec["args"]} | {"player", "target"})
    applied = refused = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = module.setup(players, {}, random.Random(seed), data)
        for step in range(250):
            if state.get("finished"):
                break
            legal = module.DEFINITION.legal_actions(state, data)
            if legal and rng.random() < 0.6:
                action = dict(rng.choice(legal))
                for key in module.ACTIONS[action["action"]]["args"]:
                    if key not in action and rng.random() < 0.7:
                        action[key] = rng.choice(FUZZ_VALUES + players)
            else:
                action = {"action": rng.choice(names)}
                action.update({k: rng.choice(FUZZ_VALUES) for k in arg_names if rng.random() < 0.5})
            before = json.dumps(state, sort_keys=True)
            try:
                state = module.DEFINITION.apply(copy_state(state), action, random.Random(f"{seed}:{step}"), data)
                json.dumps(state)
                applied += 1
            except IllegalAction as exc:
                assert exc.text["es"] and exc.text["en"], action
                assert json.dumps(state, sort_keys=True) == before
                refused += 1
    assert applied > 50 and refused > 50


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_refuses_keys_it_does_not_declare(game):
    store = Store(":memory:")
    s = store.new_game(game, GAMES[game], seed=5)
    before = json.dumps(s.state, sort_keys=True)
    for name, spec in GAME_MODULES[game].ACTIONS.items():
        action = {"action": name, **{k: 1 for k in spec["args"]}, "foo": 1}
        with pytest.raises(BadArgument) as err:
            s.apply(action)
        message = str(err.value)
        assert "'foo'" in message and f"action '{name}'" in message, message
        for allowed in spec["args"]:
            assert allowed in message.split("it takes:")[1]
        assert "foo" in err.value.text["es"]
    assert s.seq == 0 and json.dumps(s.state, sort_keys=True) == before
    assert store.log(s.id) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_required_argument_is_named_when_missing(game):
    from ludoteca.companion.engine.common import is_optional
    store = Store(":memory:")
    s = store.new_game(game, GAMES[game], seed=5)
    checked = 0
    for name, spec in GAME_MODULES[game].ACTIONS.items():
        required = [k for k, d in spec["args"].items() if not is_optional(d)]
        for missing in required:
            action = {"action": name, **{k: 1 for k in spec["args"] if k != missing}}
            with pytest.raises(BadArgument) as err:
                s.apply(action)
            assert f"action '{name}' needs '{missing}'" in str(err.value), str(err.value)
            checked += 1
    assert checked >= 5 and s.seq == 0


def test_optional_arguments_may_be_left_out():
    store = Store(":memory:")
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=5)
    pick = next(a for a in s.legal_actions() if a["action"] == "choose")
    del pick["player"]  # declared optional: the active player
    s.apply(pick)
    assert s.seq == 1


@pytest.mark.parametrize("game, action, es, en", [
    ("el_mapa", {"action": "build", "building": "Nowhere", "castle": 0}, "edificio desconocido: ",
     "unknown building: "),
    ("el_mapa", {"action": "hire", "troop": "Nobody", "count": 1}, "tropa desconocida: ", "unknown troop: "),
    ("gladiadores", {"action": "build", "building": "Nowhere", "gladiators": ["g1"]},
     "edificio desconocido: ", "unknown building: "),
])
def test_a_named_card_that_does_not_exist_is_refused_with_its_kind(tmp_path, game, action, es, en):
    store = Store(tmp_path / "t.db")
    s = store.new_game(game, GAMES[game][:2] if game == "el_mapa" else GAMES[game], seed=1)
    seq = s.seq
    with pytest.raises(BadArgument) as info:
        s.apply(action)
    assert info.value.text["es"].startswith(es) and info.value.text["en"].startswith(en)
    assert s.seq == seq
    store.close()


@pytest.mark.parametrize("game", ["el_mapa", "gladiadores"])
def test_the_round_goes_up_when_play_comes_back_to_the_first_player(tmp_path, game):
    store = Store(tmp_path / "t.db")
    s = store.new_game(game, GAMES[game], seed=2)
    first, rounds = s.state["first_player"], [s.state["round"]]
    seats = [s.state["active"]]
    for _ in range(len(GAMES[game])):
        if game == "gladiadores":
            s.apply({"action": "end_main"})
        s.apply({"action": "end_turn"})
        seats.append(s.state["active"])
        rounds.append(s.state["round"])
    n = len(GAMES[game])
    assert seats == [(first + k) % n for k in range(n + 1)]
    assert rounds == [rounds[0]] * n + [rounds[0] + 1]
    store.close()


def test_find_entry_names_the_closest_cards_and_refuses_what_is_not_a_name():
    data = load(games=("el_mapa",))["el_mapa"]
    assert find_entry(data, "building", "mercado", text("a", "a"), text("b", "b"))["id"] == "mercado"
    with pytest.raises(BadArgument) as info:
        find_entry(data, "building", "Mercadillo", text("x", "x"), text("edificio desconocido", "unknown building"))
    assert info.value.text["en"].startswith("unknown building: ") and "Mercado" in info.value.text["en"]
    with pytest.raises(BadArgument) as info:
        find_entry(data, "building", 7, text("no es un nombre", "not a name"), text("x", "x"))
    assert info.value.text == {"es": "no es un nombre", "en": "not a name"}


def test_a_player_is_named_ignoring_case_and_surrounding_spaces():
    state = {"players": [{"name": "Ana"}, {"name": "Luis"}]}
    assert player_index(state, "  luis ") == 1
    assert player_index(state, "ANA") == 0 and player_index(state, 1) == 1
    with pytest.raises(UnknownPlayer):
        player_index(state, "Eva")


def test_a_huge_number_out_of_range_is_shown_shortened():
    dice = Arg("int", "dice", lo=1, hi=6)
    with pytest.raises(BadArgument) as info:
        dice.read({"action": "roll", "n": 10 ** 20}, "n", None)
    # 10**20 is a 1 and twenty zeros: 21 digits, of which the first six are shown.
    assert info.value.text == {"es": "'n' debe estar entre 1 y 6, no 100000... (21 digits)",
                               "en": "'n' must be between 1 and 6, not 100000... (21 digits)"}
    with pytest.raises(BadArgument) as info:
        dice.read({"action": "roll", "n": 10 ** 12 - 1}, "n", None)  # 12 digits: still shown whole
    assert str(info.value) == "'n' must be between 1 and 6, not 999999999999"


def _refuse(reasons: dict[str, str]):
    def precondition(state: dict, values: dict, data) -> None:
        reason = reasons.get(values.get("card"), reasons.get("*"))
        if reason:
            raise NotAllowed(text(reason, reason))
    return precondition


def _nothing(state: dict, values: dict, rng, data) -> None:
    return None


def _three(state: dict, data) -> list[dict]:
    return [{"card": "a"}, {"card": "b"}, {"card": "c"}]


def test_move_refusal_gives_the_reason_most_candidates_are_refused_for():
    state = {"players": [{"name": "Ana"}], "active": 0, "phase": "main"}
    moves = declare(
        Move("knock", text("Llama.", "Knock."), {}, _refuse({"*": "closed"}), _nothing, active=False),
        Move("pick", text("Elige.", "Pick."), {"card": Arg("name", "card")},
             _refuse({"a": "too dear", "b": "too dear", "c": "taken"}), _nothing, active=False,
             candidates=_three),
        Move("take", text("Toma.", "Take."), {"card": Arg("name", "card")},
             _refuse({"a": "too dear"}), _nothing, active=False, candidates=_three))
    assert move_refusal(moves, state, None, "knock") == {"es": "closed", "en": "closed"}
    open_moves = declare(
        Move("wave", text("Saluda.", "Wave."), {}, _refuse({}), _nothing, active=False),
        Move("say", text("Di.", "Say."), {"word": Arg("name", "word")}, _refuse({}), _nothing, active=False))
    assert move_refusal(open_moves, state, None, "wave") is None
    assert move_refusal(open_moves, state, None, "say") is None  # open: it only needs its word
    # a and b are too dear, c is taken: two of three say "too dear"
    assert move_refusal(moves, state, None, "pick") == {"es": "too dear", "en": "too dear"}
    assert move_refusal(moves, state, None, "take") is None  # b and c may be taken
    assert legal_moves(moves, state, None) == [{"action": "take", "card": "b"}, {"action": "take", "card": "c"}]


def test_the_session_state_carries_the_numbers_the_screens_show(tmp_path):
    store = Store(tmp_path / "d.db")
    s = store.new_game("gladiadores", ["Ana", "Luis"], seed=3)
    # cards/gladiadores/game.yaml limits.max_buildings: 5; nobody has won a combat and every
    # starting building is worth 0 points (buildings.yaml), so both scores are 0.
    assert s.state["max_buildings"] == 5
    assert [p["score"] for p in s.state["players"]] == [0, 0]
    store.close()


def test_a_display_name_falls_back_to_spanish_then_to_the_id():
    assert name_of({"id": "mercado", "name": {"es": "Mercado", "en": "Market"}}, "en") == "Market"
    assert name_of({"id": "mercado", "name": {"es": "Mercado", "en": "Market"}}) == "Mercado"
    assert name_of({"id": "mercado", "name": {"es": "Mercado"}}, "en") == "Mercado"
    assert name_of({"id": "mercado", "name": {}}, "en") == "mercado"
    assert name_of({"id": "mercado"}, "en") == "mercado"


@pytest.mark.parametrize("kind, value, en", [
    ("bool", "yes", "'a' is true or false, not 'yes'"),
    ("bool", 1, "'a' is true or false, not 1"),
    ("player", True, "'a' is a player name, not True"),
    ("player", [1], "'a' is a player name, not [1]"),
    ("player", 1.5, "'a' is a player name, not 1.5"),
])
def test_arguments_of_the_wrong_type_are_refused(kind, value, en):
    with pytest.raises(BadArgument) as info:
        Arg(kind).read({"action": "x", "a": value}, "a", None)
    assert str(info.value) == en


@pytest.mark.parametrize("kind, value", [("bool", True), ("bool", False), ("player", "Ana"), ("player", 0)])
def test_arguments_of_the_right_type_are_read_as_given(kind, value):
    assert Arg(kind).read({"action": "x", "a": value}, "a", None) is value


def test_adjust_logs_the_signed_correction():
    moves = declare(adjust_move(lambda data: {"gold": text("oro", "gold")}, "resource"))
    state = {"players": [{"name": "Ana", "gold": 2}], "active": 0}
    for delta, en in [(3, "Adjusted: Ana +3 gold (= 5)"), (0, "Adjusted: Ana +0 gold (= 5)"),
                      (-4, "Adjusted: Ana -4 gold (= 1)")]:
        apply_move(moves, state, {"action": "adjust", "player": "Ana", "resource": "gold", "delta": delta},
                   None, None)
        assert state["log"][-1]["en"] == en
    assert state["log"][-1]["es"] == "Ajuste: Ana -4 oro (= 1)"


def test_a_fresh_or_reopened_session_has_acknowledged_no_resend(tmp_path):
    store = Store(tmp_path / "r.db")
    s = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    assert (s.repeated, s.acknowledged) == (False, 0)
    s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": "tap-1"})
    reopened = Store(tmp_path / "r.db").open(s.id)
    assert (reopened.repeated, reopened.acknowledged, reopened.seq) == (False, 1, 1)
    reopened.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": "x" * 100})
    assert reopened.seq == 2  # an id of 100 characters, the most allowed, is taken
    for blank in ("", "   ", "x" * 101):
        with pytest.raises(BadArgument, match='"id" is a text or a number of 1 to 100 characters'):
            reopened.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1, "id": blank})
    store.close()


def test_the_log_keeps_its_last_forty_lines():
    state: dict = {}
    for n in range(45):
        log(state, f"línea {n}", f"line {n}")
    # lines 0..44 written, at most 40 kept: 5..44
    assert [line["en"] for line in state["log"]] == [f"line {n}" for n in range(5, 45)]
