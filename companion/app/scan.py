"""Scan screen: photograph each player's pieces (Android camera) or open an image (desktop), see
what was recognised drawn over the photo, tap a piece to strike it out or back in, add one by
hand, and score.  The recognising and the record are ``companion.scan`` (no Kivy there); the
score is the engine's, from the game's own end-of-game record with the photographed fields
replaced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.image import Image
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from . import theme
from .strings import UI, tr
from .widgets import FitButton, GrowLabel

class PhotoView(Image):
    """The photo with what was recognised drawn on it; a tap is passed on in photo pixels."""

    photo_size = (1, 1)

    def to_photo(self, x: float, y: float) -> tuple[float, float] | None:
        """Window point -> photo pixel (None outside the picture)."""
        w, h = self.norm_image_size
        left, bottom = self.center_x - w / 2, self.center_y - h / 2
        if not (left <= x <= left + w and bottom <= y <= bottom + h) or w <= 0 or h <= 0:
            return None
        pw, ph = self.photo_size
        return (x - left) / w * pw, (1 - (y - bottom) / h) * ph

    def on_touch_up(self, touch) -> bool:
        if not self.collide_point(*touch.pos) or touch.grab_current is not None:
            return super().on_touch_up(touch)
        point = self.to_photo(*touch.pos)
        screen = self.parent
        while screen is not None and not isinstance(screen, ScanScreen):
            screen = screen.parent
        if point is not None and screen is not None:
            screen.tap_photo(*point)
            return True
        return super().on_touch_up(touch)


class ScanScreen(Screen):
    """One photo per player, reviewed, then scored."""

    notice = StringProperty("")
    result = StringProperty("")
    player = StringProperty("")
    review = ObjectProperty(None, allownone=True)
    scored = BooleanProperty(False)   # a reviewed score is shown and may be saved as the final one
    last_folder = ""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._images: dict[str, Any] = {}

    # -- set up ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Start (or keep) the review of the open game's players and redraw."""
        app = App.get_running_app()
        state = app.state or {}
        game_id = state.get("game", "")
        try:
            from ludoteca.companion.scan import require_cv2
            from ludoteca.companion.scan.review import Review
            from ludoteca.companion.scan.targets import targets
            require_cv2()
        except (ImportError, ValueError):        # no OpenCV (MissingExtra is a ValueError)
            self.notice = tr("scan_missing", app.lang)
            return
        if self.review is None or self.review.game.id != game_id:
            game = app.game_data(game_id)
            self.review = Review(game, targets(game))
            self._images = {}
            self.result, self.scored = "", False
        names = [p["name"] for p in state.get("players", [])]
        if self.player not in names and names:
            self.player = names[0]
        row = self.ids.players
        row.clear_widgets()
        for i, name in enumerate(names):
            button = FitButton(text=name, base_font=sp(16))
            button.wid = f"scan_player_{i}"
            button.bg = theme.SCAN_PLAYER if name == self.player else theme.SCAN_PLAYER_OFF
            button.bind(on_release=lambda _b, n=name: self.pick_player(n))
            row.add_widget(button)
        self.ids.camera.disabled = not app.platform.has_camera
        self._redraw()

    def pick_player(self, name: str) -> None:
        self.player = name
        self.refresh()

    # -- photos ---------------------------------------------------------------------------------
    def open_image(self) -> None:
        """Desktop: choose an image file."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.filechooser import FileChooserListView
        app = App.get_running_app()
        box = BoxLayout(orientation="vertical", spacing=dp(6))
        start = self.last_folder if self.last_folder and Path(self.last_folder).is_dir() \
            else str(app.platform.picture_folder())
        chooser = FileChooserListView(path=start, filters=["*.jpg", "*.jpeg", "*.png", "*.JPG", "*.JPEG", "*.PNG"])
        chooser.wid = "scan_chooser"
        buttons = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
        cancel = FitButton(text=tr("scan_cancel", app.lang))
        choose = FitButton(text=tr("scan_choose", app.lang), bg=theme.CONFIRM)
        choose.wid = "scan_choose"
        buttons.add_widget(cancel)
        buttons.add_widget(choose)
        box.add_widget(chooser)
        box.add_widget(buttons)
        popup = Popup(title=tr("scan_open", app.lang), content=box)
        cancel.bind(on_release=lambda *_: popup.dismiss())

        def chosen(*_):
            if chooser.selection:
                self.last_folder = str(Path(chooser.selection[0]).parent)
                popup.dismiss()
                self.load_photo(chooser.selection[0])
        choose.bind(on_release=chosen)
        self.chooser_popup = popup
        popup.open()

    def take_photo(self) -> None:
        """The phone's camera app writes the photo (to a content URI of the app's FileProvider),
        then it is read for the selected player."""
        from kivy.clock import Clock

        app = App.get_running_app()
        safe = "".join(c if c.isalnum() else "-" for c in self.player) or "foto"
        target = app.platform.photo_folder() / f"scan-{safe}.jpg"
        if not app.platform.take_photo(target, lambda path: Clock.schedule_once(lambda _dt: self.load_photo(path), 0)):
            self.notice = tr("scan_no_camera", app.lang)

    def load_photo(self, path: str) -> None:
        """Read a photo for the selected player and show what it shows."""
        from ludoteca.companion.scan import ScanError
        from ludoteca.companion.scan.detect import read_photo, recognise
        app = App.get_running_app()
        try:
            gray, factor = read_photo(path)
            found = recognise(gray, self.review.table, factor)
        except ScanError as exc:
            self.notice = app.n(exc.text)
            return
        scan = self.review.scan(self.player)
        scan.photo, scan.found, scan.struck, scan.added = str(path), found, set(), []
        self.result, self.scored = "", False
        self.notice = tr("scan_found", app.lang, n=len(found))
        self._redraw()

    # -- corrections ----------------------------------------------------------------------------
    def tap_photo(self, x: float, y: float) -> None:
        if self.review is None or not self.review.scan(self.player).photo:
            return
        if self.review.toggle_at(self.player, x, y) is not None:
            self.result, self.scored = "", False
            self._redraw()

    def toggle(self, index: int) -> None:
        self.review.toggle(self.player, index)
        self.result, self.scored = "", False
        self._redraw()

    def add(self, label: str) -> None:
        """Add a piece by its name as listed in the spinner."""
        app = App.get_running_app()
        for number, target in self.review.table.items():
            if self._label(target, app.lang) == label:
                self.review.add(self.player, number)
                break
        self.ids.add.text = tr("scan_add", app.lang)
        self.result, self.scored = "", False
        self._redraw()

    # -- scoring --------------------------------------------------------------------------------
    def score(self) -> None:
        """Score the game's record with the photographed fields and show it in the players' words;
        *Guardar* then makes it the game's final score."""
        from ludoteca.companion.engine.final import final_scores
        from ludoteca.companion.engine.scoring import RecordError, score_record
        from ludoteca.companion.scan import ScanError

        from .final import result_text
        app = App.get_running_app()
        state = app.state or {}
        self.scored = False
        base = (state.get("final") or {}).get("record") or {"game": state.get("game"), "players": [
            {"name": p["name"]} for p in state.get("players", [])]}
        try:  # what the photos show may not make a record (point discs that are no whole combat)
            record = self.review.record(base)
        except ScanError as exc:
            self.result = app.n(exc.text)
            return
        try:  # lenient, as the engine's own end of game: the table is the truth, odd ends get a note
            result = score_record(record, {self.review.game.id: self.review.game}, lenient=True,
                                  trusted=True)
        except RecordError as exc:
            self.result = "\n".join(app.n(p.plain) if p.plain else p.message for p in exc.problems)
            return
        shown = result_text(app, {"game": state.get("game"), "final": final_scores(record, self.review.game)})
        self.result = f"[b]{tr('scan_result', app.lang)}[/b]\n{shown}"
        self.last_result, self.last_record = result, record
        self.scored = bool(state.get("finished"))
        self.ids.scroll.scroll_y = 1

    def save(self) -> None:
        """Make the reviewed score the game's final score (saved, undoable) and show it."""
        app = App.get_running_app()
        if self.scored and app.act({"action": "final_record", "record": self.last_record}):
            self.scored = False
            self.review = None

    # -- drawing --------------------------------------------------------------------------------
    @staticmethod
    def _kind(kind: str, lang: str) -> str:
        """How the summary names a kind of marked piece ("discos"); an unnamed kind by its id."""
        key = f"scan_kind_{kind}"
        return tr(key, lang) if key in UI else kind

    @staticmethod
    def _label(target, lang: str) -> str:
        return str(target.name.get(lang) or target.id)

    def _redraw(self) -> None:
        app = App.get_running_app()
        lang = app.lang
        view = self.ids.photo
        items = self.ids.found_list
        items.clear_widgets()
        scan = self.review.scan(self.player) if self.review else None
        if scan is None or not scan.photo:
            view.texture = None
            view.opacity = 0
            self.ids.summary.text = tr("scan_none", lang)
        else:
            view.opacity = 1
            view.texture, view.photo_size = self._texture(scan)
            for i, f in enumerate(scan.found):
                struck = i in scan.struck
                name = f"{i + 1}. {self._label(f.target, lang)}"
                button = FitButton(text=(f"[s]{name}[/s] ({tr('scan_struck', lang)})" if struck else name),
                                   markup=True, base_font=sp(16), size_hint_y=None, height=dp(48),
                                   bg=theme.STRUCK if struck else theme.COUNTED)
                button.wid = f"scan_item_{i}"
                button.bind(on_release=lambda _b, k=i: self.toggle(k))
                items.add_widget(button)
            for target in scan.added:
                items.add_widget(GrowLabel(text=f"+ {self._label(target, lang)} ({tr('scan_added', lang)})",
                                           font_size=sp(16)))
            from ludoteca.companion.scan.tally import counts
            per_kind = counts(scan.counted())
            self.ids.summary.text = " · ".join(f"{self._kind(kind, lang)}: {sum(ids.values())}"
                                               for kind, ids in per_kind.items()) or "0"
        self.ids.add.values = sorted(self._label(t, lang) for t in self.review.table.values()) if self.review else []
        self.ids.add.text = tr("scan_add", lang)

    def _texture(self, scan):
        """The photo no wider than 1280 px with each piece outlined (struck ones in red, crossed)
        and its number in a badge large enough to read on a phone, badges never overlapping."""
        import cv2
        import numpy as np
        from kivy.graphics.texture import Texture

        from .badges import badge_radius, place_badges
        if scan.photo not in self._images:
            image = cv2.imread(scan.photo, cv2.IMREAD_COLOR)
            self._images = {scan.photo: image}
        image = self._images[scan.photo]
        h, w = image.shape[:2]
        k = min(1.0, 1280 / max(w, h))
        drawn = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1.0 else image.copy()
        dh, dw = drawn.shape[:2]
        line = max(2, int(max(dw, dh) / 400))
        outlines = [np.int32([(x * k, y * k) for x, y in f.outline]) for f in scan.found]
        for i, pts in enumerate(outlines):
            struck = i in scan.struck
            cv2.polylines(drawn, [pts], True, (0, 0, 255) if struck else (60, 200, 60), line)
            if struck:
                cv2.line(drawn, tuple(pts[0]), tuple(pts[2 if len(pts) == 4 else len(pts) // 2]), (0, 0, 255), line)
        radius = badge_radius((dw, dh))
        centres = [(f.centre[0] * k, f.centre[1] * k) for f in scan.found]
        self.badges = place_badges(centres, radius, (dw, dh))
        self.badge_radius = radius
        font = cv2.FONT_HERSHEY_SIMPLEX
        for i, ((cx, cy), (bx, by)) in enumerate(zip(centres, self.badges)):
            if (bx, by) != (int(round(cx)), int(round(cy))):
                cv2.line(drawn, (int(cx), int(cy)), (bx, by), (255, 255, 255), line)
            cv2.circle(drawn, (bx, by), radius, (0, 0, 255) if i in scan.struck else (255, 255, 255), -1)
            cv2.circle(drawn, (bx, by), radius, (30, 30, 30), line)
            label = str(i + 1)
            scale = radius / 22
            (tw, th), _ = cv2.getTextSize(label, font, scale, max(2, line))
            cv2.putText(drawn, label, (bx - tw // 2, by + th // 2), font, scale, (20, 20, 20), max(2, line),
                        cv2.LINE_AA)
        texture = Texture.create(size=(dw, dh), colorfmt="rgb")
        texture.blit_buffer(cv2.flip(drawn, 0).tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        return texture, (w, h)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
