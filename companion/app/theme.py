"""The app's colours, named once: every screen and ``.kv`` file takes its colours from here.

Colours are RGBA tuples (0..1).  Buttons keep white text, so every button colour is dark enough to
read it on; ``dim`` and ``pressed`` derive the darker and lighter shades the screens use.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

# -- the window and text ---------------------------------------------------------------------------
WINDOW: RGBA = (0.10, 0.11, 0.14, 1)
PANEL: RGBA = (0.16, 0.17, 0.21, 1)
TEXT: RGBA = (1, 1, 1, 1)
NOTE_TEXT: RGBA = (0.8, 0.8, 0.8, 1)
QUIET_TEXT: RGBA = (0.7, 0.7, 0.7, 1)
DISABLED_TEXT: RGBA = (0.62, 0.62, 0.62, 1)
DISABLED_FILL: RGBA = (0.13, 0.14, 0.17, 1)   # a disabled button: barely lighter than the window...
DISABLED_EDGE: RGBA = (0.50, 0.50, 0.55, 1)   # ...inside a dashed outline
WHY: RGBA = (0.24, 0.20, 0.10, 0.97)          # the note a tap on a disabled button shows
LOG_TEXT: RGBA = (0.72, 0.72, 0.72, 1)
TITLE_TEXT: RGBA = (1, 0.75, 0.4, 1)
HIGHLIGHT: RGBA = (1, 0.85, 0.3, 1)
GOOD_TEXT: RGBA = (0.7, 0.9, 0.7, 1)
ERROR_TEXT: RGBA = (1, 0.6, 0.45, 1)
WARNING_TEXT: RGBA = (1, 0.55, 0.45, 1)

# -- buttons by what they do -----------------------------------------------------------------------
BUTTON: RGBA = (0.22, 0.24, 0.30, 1)
END: RGBA = (0.35, 0.35, 0.38, 1)
CONFIRM: RGBA = (0.16, 0.50, 0.25, 1)
BUILD: RGBA = (0.16, 0.45, 0.25, 1)
PLUS: RGBA = (0.16, 0.42, 0.22, 1)
GOLD: RGBA = (0.60, 0.48, 0.10, 1)
CARDS: RGBA = (0.20, 0.35, 0.55, 1)
POWER: RGBA = (0.45, 0.18, 0.18, 1)
FIGHT: RGBA = (0.55, 0.18, 0.18, 1)
CALL: RGBA = (0.55, 0.20, 0.20, 1)
CALLED: RGBA = (0.25, 0.25, 0.28, 1)     # a character already called this round
CALLING: RGBA = (0.80, 0.55, 0.15, 1)    # the character just called
TO_CALL: RGBA = (0.40, 0.22, 0.45, 1)    # a character still to call
CHARACTER: RGBA = (0.30, 0.25, 0.45, 1)
FACE_DOWN: RGBA = (0.22, 0.22, 0.30, 1)
PURPLE_DISTRICT: RGBA = (0.40, 0.22, 0.50, 1)
SELECTED: RGBA = (0.70, 0.55, 0.10, 1)
READY: RGBA = (0.20, 0.38, 0.30, 1)
EXHAUSTED: RGBA = (0.25, 0.25, 0.27, 1)
BUILT: RGBA = (0.3, 0.3, 0.3, 1)
UNKNOWN: RGBA = (0.5, 0.5, 0.5, 1)
BAR: RGBA = (0.50, 0.36, 0.12, 1)
NEW_GAME: RGBA = (0.20, 0.33, 0.52, 1)
RESUME: RGBA = (0.25, 0.42, 0.28, 1)

#: Player colours: id, RGBA, name. Strong enough to read white text on.
PLAYER_COLOURS: list[tuple[str, RGBA, dict[str, str]]] = [
    ("red", (0.78, 0.16, 0.16, 1), {"es": "Rojo", "en": "Red"}),
    ("blue", (0.13, 0.36, 0.75, 1), {"es": "Azul", "en": "Blue"}),
    ("green", (0.13, 0.55, 0.27, 1), {"es": "Verde", "en": "Green"}),
    ("yellow", (0.80, 0.62, 0.05, 1), {"es": "Amarillo", "en": "Yellow"}),
    ("purple", (0.50, 0.25, 0.65, 1), {"es": "Morado", "en": "Purple"}),
    ("orange", (0.90, 0.45, 0.10, 1), {"es": "Naranja", "en": "Orange"}),
    ("grey", (0.35, 0.35, 0.38, 1), {"es": "Gris", "en": "Grey"}),
]


def dim(colour, factor: float = 0.55) -> RGBA:
    """A darker shade of ``colour`` (an inactive player's band, a district's button)."""
    return (colour[0] * factor, colour[1] * factor, colour[2] * factor, 1)


def pressed(colour) -> RGBA:
    """The lighter shade a button shows while pressed."""
    return (min(1, colour[0] * 1.35), min(1, colour[1] * 1.35), min(1, colour[2] * 1.35), 1)


# -- the table: clock, caller, charts --------------------------------------------------------------
CLOCK_TEXT: RGBA = (0.85, 0.9, 1, 1)
CLOCK_PAUSED_TEXT: RGBA = (1, 0.8, 0.4, 1)
VOICE: RGBA = (0.45, 0.30, 0.10, 1)
VOICE_ON: RGBA = (0.70, 0.18, 0.12, 1)   # the caller's button while the voice is on ("stop")
CALL_TEXT: RGBA = (1, 0.85, 0.5, 1)
TAB_SELECTED: RGBA = (0.16, 0.40, 0.60, 1)

# -- the scan screen -------------------------------------------------------------------------------
SCAN_PLAYER: RGBA = (0.16, 0.42, 0.22, 1)       # the player whose photos are shown
SCAN_PLAYER_OFF: RGBA = (0.25, 0.25, 0.30, 1)
COUNTED: RGBA = (0.18, 0.32, 0.45, 1)           # a recognised piece that counts (and the Scan button)
STRUCK: RGBA = (0.45, 0.18, 0.18, 1)            # a recognised piece struck out
CHART_TRACK: RGBA = BUTTON
CHART_AXIS: RGBA = (0.5, 0.5, 0.55, 1)
#: Colours of breakdown lines and chart series, told apart by lightness as well as hue.
CHART_SERIES: list[RGBA] = [(0.95, 0.77, 0.20, 1), (0.30, 0.60, 0.95, 1), (0.85, 0.35, 0.35, 1),
                            (0.45, 0.80, 0.45, 1), (0.75, 0.55, 0.95, 1), (0.98, 0.60, 0.25, 1),
                            (0.55, 0.85, 0.90, 1), (0.85, 0.85, 0.85, 1), (0.60, 0.45, 0.30, 1)]


def light(colour, amount: float = 0.45) -> RGBA:
    """A lighter shade of ``colour`` that reads as text on the dark window (a player's name)."""
    return (colour[0] + (1 - colour[0]) * amount, colour[1] + (1 - colour[1]) * amount,
            colour[2] + (1 - colour[2]) * amount, 1)
