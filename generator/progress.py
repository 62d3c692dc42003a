"""A progress bar on stderr when it is a terminal; silent otherwise."""

from __future__ import annotations

import sys
import time


class Progress:
    """``bar(n)`` after n more items are done; ``total`` may be set once it is known."""

    def __init__(self, total: int, what: str = "pages", stream=None, quiet: bool = False):
        self.stream = stream or sys.stderr
        self.total, self.done, self.what = total, 0, what
        self.enabled = not quiet and hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._drawn = False

    def __call__(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and self.total and (now - self._last > 0.05 or self.done >= self.total):
            self._last, self._drawn = now, True
            width = 30
            filled = int(width * self.done / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} {self.what}")
            self.stream.flush()

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()
