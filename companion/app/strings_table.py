"""The strings of the table's clock, statistics, caller's voice and settings (merged into
:data:`companion.app.strings.UI`), Spanish first."""

from __future__ import annotations

TABLE_UI: dict[str, tuple[str, str]] = {
    "turn_clock": ("{name}: {time}", "{name}: {time}"),
    "play_clock": ("Partida {time}", "Game {time}"),
    "clock_paused": ("En pausa · {time}", "Paused · {time}"),
    "pause": ("Pausa", "Pause"),
    "resume_clock": ("Seguir", "Resume"),
    "call_characters": ("Llamar en voz alta", "Call aloud"),
    "voice_calling": ("Llamada: {text}", "Calling: {text}"),
    "stop_calling": ("Parar la voz", "Stop the voice"),
    "caller_on": ("La voz dice cada llamada al tocar «Llamar al siguiente personaje».",
                  "The voice says each call when you tap «Call the next character»."),
    "murdered_silent": ("asesinado: pierde el turno sin decir nada", "murdered: loses the turn in silence"),
    "file_shared": ("Archivo compartido", "File shared"),
    "bgstats_push": ("Enviar a BG Stats", "Send to BG Stats"),
    "export_scores": ("Puntos CSV", "Scores CSV"),
    "export_log": ("Jugadas CSV", "Moves CSV"),
    "voice": ("Voz que llama a los personajes", "Voice calling the characters"),
    "play_time": ("Duración {minutes} min (pausas aparte)", "Played {minutes} min (breaks left out)"),
    "thinking": ("Tiempo pensando", "Thinking time"),
    "thinking_of": ("{name}: {time}", "{name}: {time}"),
    "statistics": ("Estadísticas", "Statistics"),
    "plays_of_one": ("1 partida terminada", "1 finished game"),
    "plays_of_other": ("{n} partidas terminadas", "{n} finished games"),
    "col_plays": ("partidas", "plays"),
    "col_wins": ("victorias", "wins"),
    "col_rate": ("ganadas", "won"),
    "col_average": ("media", "average"),
    "col_best": ("mejor", "best"),
    "scores_over_time": ("Puntos a lo largo del tiempo", "Scores over time"),
    "no_stats": ("Aún no hay partidas terminadas", "No finished games yet"),
    "breakdown_chart": ("De dónde salen los puntos", "Where the points come from"),
}
