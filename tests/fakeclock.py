"""A clock the test moves by hand, for code that takes a ``now`` callable."""

from __future__ import annotations

from datetime import datetime, timedelta


class FakeTime:
    """Returns the same moment until the test advances it."""

    def __init__(self, start: datetime):
        self.t = start

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **delta) -> None:
        self.t += timedelta(**delta)
