"""The calendar day the program takes as today: one clock for every "today".

A game's day decides the ``nyt`` set's prior (see days.py), the puzzle number shown, which days
of the history are over, and whether a day asked for is published yet.  Every such "today" reads
``today()`` here, never ``datetime.date.today()`` directly, so that a session has one day from
its first screen to its last and a run can be pinned to a day: ``WORDLEBOT_TODAY=2026-05-20``
replays the program as it was on that day (the test suite pins its day this way, so a run that
crosses midnight, or one a day later, sees the same screens).
"""

from __future__ import annotations

import datetime as dt
import os

from .errors import InvalidDayError

TODAY_ENV = "WORDLEBOT_TODAY"


def today() -> dt.date:
    """``$WORDLEBOT_TODAY`` (YYYY-MM-DD) when set, else the machine's local date."""
    pinned = os.environ.get(TODAY_ENV, "").strip()
    if not pinned:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(pinned)
    except ValueError:
        raise InvalidDayError(
            f"{TODAY_ENV}={pinned!r} is not a date: give YYYY-MM-DD (e.g. 2026-05-20), or unset it for the real date"
        ) from None
