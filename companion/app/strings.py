"""Every string the app shows, Spanish first: ``tr("new_game", "en")``.

Card and game names do not live here: they come from ``cards/`` (see :func:`name`).
"""

from __future__ import annotations

from typing import Any

LANGS = ("es", "en")

UI: dict[str, tuple[str, str]] = {
    "app_title": ("Ludoteca", "Ludoteca"),
    "new_game": ("Nueva partida", "New game"),
    "resume": ("Continuar", "Resume"),
    "unfinished": ("Partidas sin terminar", "Unfinished games"),
    "no_unfinished": ("No hay partidas a medias", "No unfinished games"),
    "history": ("Historial", "History"),
    "stats": ("Jugadores", "Players"),
    "games_one": ("1 partida", "1 game"),
    "games_other": ("{n} partidas", "{n} games"),
    "wins_one": ("1 victoria", "1 win"),
    "wins_other": ("{n} victorias", "{n} wins"),
    "winner": ("Ganador: {name}", "Winner: {name}"),
    "in_progress": ("en juego, {seq}", "in progress, {seq}"),
    "actions_one": ("1 acción", "1 action"),
    "actions_other": ("{n} acciones", "{n} actions"),
    "language": ("Idioma", "Language"),
    "lang_name": ("Español", "English"),
    "keep_awake": ("Pantalla siempre encendida", "Keep screen on"),
    "back": ("Volver", "Back"),
    "home": ("Inicio", "Home"),
    "players": ("Jugadores", "Players"),
    "players_range": ("De {min} a {max} jugadores", "{min} to {max} players"),
    "player_n": ("Jugador {n}", "Player {n}"),
    "add_player": ("Añadir jugador", "Add player"),
    "starts": ("Empieza", "Starts"),
    "crown": ("Corona", "Crown"),
    "random_pick": ("Al azar", "Random"),
    "move_up": ("Subir", "Up"),
    "move_down": ("Bajar", "Down"),
    "remove": ("Quitar", "Remove"),
    "colour": ("Color", "Colour"),
    "start_game": ("Empezar", "Start"),
    "too_few": ("Hacen falta al menos {min} jugadores", "At least {min} players are needed"),
    "too_many": ("Como mucho {max} jugadores", "At most {max} players"),
    "undo": ("Deshacer", "Undo"),
    "redo": ("Rehacer", "Redo"),
    "round": ("Ronda {n}", "Round {n}"),
    "turn": ("Turno {n}", "Turn {n}"),
    "turn_of": ("Turno de {name}", "{name}'s turn"),
    "engine_missing": ("Falta el motor de juego: {error}", "The game engine is missing: {error}"),
    "db_notice": ("Aviso: {text}", "Notice: {text}"),
    "db_error": ("No se pueden guardar partidas: {error}", "Games cannot be saved: {error}"),
    "no_data": ("sin datos", "no data"),
    "options": ("Opciones", "Options"),
    "yes": ("sí", "yes"),
    "no": ("no", "no"),
    "auto": ("vacío: el del juego ({min} a {max})", "empty: the game's own ({min} to {max})"),
    "data_error": ("No se pueden leer los datos de un juego: {error}", "A game's data cannot be read: {error}"),
    "final_scoring": ("Puntuación final", "Final scoring"),
    "ranking": ("Clasificación", "Ranking"),
    "total": ("Total", "Total"),
    "points": ("{n} puntos", "{n} points"),
    "share": ("Compartir", "Share"),
    "export": ("Exportar", "Export"),
    "shared": ("Texto compartido", "Text shared"),
    "exported": ("Guardado en {path}", "Saved to {path}"),
    "close_game": ("Cerrar partida", "Close game"),
    "finished": ("Terminada", "Finished"),
    "log": ("Registro", "Log"),
    "adjust": ("Corregir", "Correct"),
    "search": ("Buscar", "Search"),
    "cancel": ("Cancelar", "Cancel"),
    "ok": ("Aceptar", "OK"),
    "actions": ("Acciones", "Actions"),
    "nobody": ("nadie", "nobody"),
    # Ciudadelas
    "discard_step": ("Descarte de personajes", "Character discard"),
    "face_up": ("Boca arriba", "Face up"),
    "face_down": ("Boca abajo", "Face down"),
    "call_next": ("Llamar al siguiente personaje", "Call the next character"),
    "calling": ("Se llama al {n}: {name}", "Calling {n}: {name}"),
    "who_reveals": ("¿Quién lo tiene?", "Who has it?"),
    "nobody_has": ("Nadie", "Nobody"),
    "take_gold": ("Tomar {n} de oro", "Take {n} gold"),
    "take_card": ("Robar {draw}, quedarte {keep}", "Draw {draw}, keep {keep}"),
    "income": ("Cobrar por color", "Colour income"),
    "build": ("Construir", "Build"),
    "end_turn": ("Terminar turno", "End turn"),
    "murder": ("Asesinar", "Murder"),
    "steal": ("Robar", "Steal"),
    "swap": ("Cambiar mano", "Swap hands"),
    "swap_deck": ("Cambiar con el mazo", "Swap with the deck"),
    "built": ("ya construido", "already built"),
    "reclaim": ("Recuperar", "Reclaim"),
    "destroy": ("Destruir", "Destroy"),
    "gold": ("Oro", "Gold"),
    "cards": ("Cartas", "Cards"),
    "city": ("Ciudad", "City"),
    "take_face_down": ("En vez de eso, la carta boca abajo: {name}", "Instead, the face-down card: {name}"),
    "complete_banner": ("¡{name} ha completado su ciudad con {n} distritos! Última ronda.",
                        "{name} completed their city with {n} districts! Last round."),
    "colours_n": ("colores {n}/{of}", "colours {n}/{of}"),
    "trade_rate": ("{give} por {get}", "{give} for {get}"),
    "pick_then_discard": ("Eliges {name}; ahora pon uno boca abajo:", "You take {name}; now put one face down:"),
    "cost": ("coste {n}", "cost {n}"),
    "price": ("precio {n}", "price {n}"),
    # El Mapa
    "turn_start": ("Inicio de turno", "Turn start"),
    "apply_turn_start": ("Aplicar inicio de turno", "Apply turn start"),
    "castle_board": ("Castillo", "Castle"),
    "level": ("Nivel {n}", "Level {n}"),
    "turns_left": ("faltan {n} turnos", "{n} turns left"),
    "hire": ("Contratar", "Hire"),
    "trade": ("Comerciar", "Trade"),
    "rate_limit": ("{rate} · quedan {left}", "{rate} · {left} left"),
    "tiles": ("Casillas reveladas", "Revealed tiles"),
    "battle_points": ("Puntos de batalla", "Battle points"),
    "end_conditions": ("Fin de la partida", "End of the game"),
    # Gladiadores
    "coins": ("Monedas", "Coins"),
    "victory_points": ("Puntos", "Points"),
    "gladiators": ("Gladiadores", "Gladiators"),
    "ready": ("Listo", "Ready"),
    "exhausted": ("Agotado", "Exhausted"),
    "buildings": ("Edificios", "Buildings"),
    "phase": ("Fase: {name}", "Phase: {name}"),
    "auction": ("Subasta", "Auction"),
    "bid": ("Pujar", "Bid"),
    "pass": ("Pasar", "Pass"),
    "bidder": ("Puja {name}", "{name} bids"),
    "target": ("Objetivo: {n} puntos", "Target: {n} points"),
    "work": ("Trabajar", "Work"),
    "fight": ("Combatir", "Fight"),
    "demolish": ("Derribar", "Demolish"),
    "chain": ("Encadenar", "Chain"),
    "chain_these": ("Encadenar {n}", "Chain {n}"),
    "end_main": ("Terminar fase principal", "End main phase"),
    "start_auction": ("Subastar un veterano", "Auction a veteran"),
    "discard": ("Descartar", "Discard"),
    "pick_defender": ("{name} elige defensor", "{name} picks a defender"),
    "construction": ("construcción {n}", "construction {n}"),
    "high_bid": ("Puja más alta: {amount} ({name})", "Highest bid: {amount} ({name})"),
    "phase_main": ("principal", "main"),
    "phase_auction": ("subasta", "auction"),
    "phase_end": ("final del turno", "end of turn"),
    "phase_start": ("inicio", "start"),
    "centre": ("Centro de la mesa", "Centre of the table"),
    "select_gladiators": ("Toca tus gladiadores listos para elegirlos", "Tap your ready gladiators to select them"),
    "reveal": ("Revelar casilla", "Reveal a tile"),
    "hidden_tiles": ("Casillas ocultas: {n}", "Hidden tiles: {n}"),
    "reserve": ("Reserva", "Reserve"),
    "armies": ("Ejércitos", "Armies"),
    "produced": ("Producción", "Production"),
    "recruited": ("Reclutados", "Recruited"),
    "returned": ("Vuelven", "Returning"),
    "trades_left": ("Comercios: quedan {n}", "Trades: {n} left"),
    "last_turn": ("Último turno: {reason}", "Last turn: {reason}"),
    "glad_stats": ("Combate {combat} · Trabajo {work}\nConstrucción {construction}\nCombatir cuesta {fight_cost}",
                   "Fight {combat} · Work {work}\nBuild {construction}\nFighting costs {fight_cost}"),
    "reason_maravilla": ("se ha construido una maravilla", "a wonder was built"),
    "reason_ultima_ficha": ("se ha revelado la última casilla", "the last tile was revealed"),
    "next_turn": ("el próximo turno", "next turn"),
    "tile_found": ("Casilla", "Tile"),
    "claim_village": ("Pueblo", "Village"),
    "claim_mine": ("Mina de {name}", "{name} mine"),
    "claim_spell": ("Hechizo nivel {n}", "Spell level {n}"),
    "treasure": ("Tesoro", "Treasure"),
    "battle": ("Batalla", "Battle"),
    "winner_is": ("Gana", "Winner"),
    "loser_is": ("Pierde", "Loser"),
    "neutral": ("Neutral", "Neutral"),
    "defeated": ("Tropas vencidas", "Troops defeated"),
    "record_battle": ("Anotar batalla", "Record battle"),
    "empty_slot": ("libre", "empty"),
    "use_district": ("Usar {name}", "Use {name}"),
    "trades_of": ("Comercios: quedan {n} de {of}", "Trades: {n} of {of} left"),
    "winner_army": ("Ejército vencedor", "Winning army"),
    "winner_losses": ("Bajas del vencedor", "Winner's losses"),
    "loser_army": ("Ejército vencido", "Losing army"),
    "no_army": ("Sin ejército", "No army"),
    "fled": ("El vencido huye (sus tropas se dispersan)", "The loser fled (troops scatter)"),
    "army_label": ("Ejército {id}: {troops}", "Army {id}: {troops}"),
    "score": ("Puntuación: {n}", "Score: {n}"),
}


def tr(key: str, lang: str = "es", **values: Any) -> str:
    """The UI string ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    pair = UI[key]
    text = pair[0] if lang == "es" else pair[1]
    return text.format(**values) if values else text


def count(key: str, n: int, lang: str = "es") -> str:
    """A counted noun: ``count("games", 1)`` is "1 partida", ``count("games", 3)`` "3 partidas"."""
    return tr(f"{key}_one" if n == 1 else f"{key}_other", lang, n=n)


def name(text: Any, lang: str = "es") -> str:
    """Pick one language from a ``{es, en}`` text (or a data entry with a ``name``)."""
    if isinstance(text, dict):
        if "name" in text and isinstance(text["name"], dict):
            text = text["name"]
        if lang in text or "es" in text:
            return str(text.get(lang) or text.get("es") or "")
        return str(text.get("id", ""))
    return "" if text is None else str(text)


from .strings_table import TABLE_UI  # noqa: E402  (clock, statistics, voice and settings strings)

if set(TABLE_UI) & set(UI):
    raise RuntimeError(f"strings_table.py reuses UI keys: {sorted(set(TABLE_UI) & set(UI))}")
UI.update(TABLE_UI)
