"""The day a game belongs to, decided in one place for every shell.

The ``nyt`` set's answer prior is the one of a day, built from the history before it, so the day
matters: replayed with today's prior, a past day's answer counts as a repeat and sits far down
the list (2026-05-14, WAVER, followed move by move with today's prior: SATER PIGLY BIFID RAVER
HAVER CAVER, lost; with that day's prior, solved in three or four).  Hence:

- ``resolve_day`` turns what the player gave (a date, a puzzle number, the number of a pasted
  share grid, in any of the forms ``parse_day`` reads) into a ``GameDay``, else today; it
  refuses a day before the first Wordle, one not published yet and two sources that disagree,
  all with ``InvalidDayError``; and it looks the day's answer up in the history once the day is
  over (never today's: a morning update must not give it away).
- Every shell shows ``GameDay.describe`` (which day's prior is in use); when the day was not
  chosen it also says how to choose one (``default_day_note``).
- **The replay rule** (``replay_note``): a game that ends (solved, or lost with a word still
  possible) on a word that the history names as the answer of another day than the one assumed
  gets one line: "WAVER was the answer of 2026-05-14 (#1,790), not of the day assumed,
  2026-11-27 (#1,987): to replay that day with its prior, use --date 2026-05-14".  It is said at the end,
  not during play: about one valid word in eight is a past answer, so a mid-game hint would fire
  on most positions and mean nothing.  It is a fact, not a guess at what the player did: since
  2026 the editor repeats old answers, so today's answer may be a past one too, and the line
  still reads true.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import clock, data
from .data import FIRST_DAY, HistoryEntry
from .errors import DataError, InvalidDayError, InvalidWordError
from .feedback import check_word

if TYPE_CHECKING:
    from .game import Game
    from .words import Lexicon

# The NYT publishes a puzzle where that day has begun: up to a day ahead of this machine's clock.
AHEAD = dt.timedelta(days=1)
SOURCES = ("today", "date", "puzzle", "grid")
LOST_WORDS = 12  # a lost game names a past answer among at most this many words left

_ISO = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")
_PUZZLE = re.compile(r"(?:wordle\s*)?(?:no\.?\s*|#\s*)?(\d[\d,.\s\u202f\u00a0']*)", re.I)


def puzzle_of(day: dt.date) -> int:
    """The NYT puzzle number of a day (puzzle 0 was 2021-06-19)."""
    return (day - FIRST_DAY).days


def day_of(puzzle: int) -> dt.date:
    """The day of an NYT puzzle number."""
    return FIRST_DAY + dt.timedelta(days=int(puzzle))


@dataclass(frozen=True)
class GameDay:
    """The day a game is played or analysed with: its prior, its puzzle number, and its answer
    when the history has it and the day is over (None otherwise).  ``source`` says where the
    day came from: ``today`` (nothing was said), ``date``, ``puzzle`` or ``grid``."""

    day: dt.date
    source: str = "today"
    answer: str | None = None

    @property
    def puzzle(self) -> int:
        return puzzle_of(self.day)

    @property
    def chosen(self) -> bool:
        """The player named the day (else it is today by default)."""
        return self.source != "today"

    def label(self) -> str:
        """``2026-05-14 (#1,790)``"""
        return f"{self.day.isoformat()} (#{self.puzzle:,})"

    def describe(self, today: dt.date | None = None) -> str:
        """Which day's prior is in use, for a header or a status line: ``today's prior,
        2026-11-27 (#1,987)`` or ``prior of 2026-05-14 (#1,790), from the share grid``."""
        today = today or clock.today()
        where = {"grid": ", from the share grid", "puzzle": ", from the puzzle number"}.get(self.source, "")
        if self.day == today:
            return f"today's prior, {self.label()}{where}"
        return f"prior of {self.label()}{where}"


def parse_day(text: str | None) -> tuple[dt.date, str] | None:
    """A day as the player may type it: ``2026-05-19``, or a puzzle number (``1795``,
    ``1,795``, ``#1795``, ``Wordle 1,795``); None for an empty text (today).  Returns the day
    and how it was given (``date`` or ``puzzle``)."""
    if text is None or not str(text).strip():
        return None
    s = str(text).strip()
    if _ISO.fullmatch(s):
        try:
            return dt.date.fromisoformat("-".join(f"{int(x):02d}" for x in s.split("-"))), "date"
        except ValueError:
            raise InvalidDayError(
                f"{s!r} is not a day of the calendar; give it as YYYY-MM-DD, e.g. 2026-05-19"
            ) from None
    m = _PUZZLE.fullmatch(s)
    if m:
        digits = re.sub(r"\D", "", m.group(1))
        if digits and len(digits) <= 7:
            return day_of(int(digits)), "puzzle"
    raise InvalidDayError(f"{s!r} is neither a day (YYYY-MM-DD, e.g. 2026-05-19) nor a puzzle number (e.g. 1795)")


def check_day(day: dt.date, today: dt.date | None = None) -> dt.date:
    """``day`` when a Wordle exists for it: not before the first one, not after tomorrow."""
    today = today or clock.today()
    if day < FIRST_DAY:
        raise InvalidDayError(f"{day} is before the first Wordle ({FIRST_DAY}, puzzle #0)")
    if day > today + AHEAD:
        raise InvalidDayError(
            f"{day} (puzzle #{puzzle_of(day):,}) is not published yet: today is {today} (#{puzzle_of(today):,})"
        )
    return day


def answer_of(day: dt.date, history: Iterable[HistoryEntry], today: dt.date | None = None) -> str | None:
    """The answer of ``day`` in the history, once that day is over (today's is never told)."""
    today = today or clock.today()
    if day >= today:
        return None
    return next((e.word for e in history if e.date == day), None)


def resolve_day(
    *,
    date: dt.date | str | None = None,
    puzzle: int | None = None,
    grid_puzzle: int | None = None,
    today: dt.date | None = None,
    history: Sequence[HistoryEntry] = (),
) -> GameDay:
    """The day of a game from what the player gave, else today (see the module's text).

    ``date``: a day, or a text ``parse_day`` reads (a date or a puzzle number); ``puzzle``: a
    puzzle number; ``grid_puzzle``: the number in a pasted share grid's header.  Given together
    they must name one day.  Raises InvalidDayError saying what is wrong."""
    today = today or clock.today()
    named: list[tuple[dt.date, str]] = []
    if isinstance(date, dt.date):
        named.append((date, "date"))
    elif date is not None:
        parsed = parse_day(date)
        if parsed is not None:
            named.append(parsed)
    if puzzle is not None:
        if puzzle < 0:
            raise InvalidDayError(f"puzzle number {puzzle} is below 0; the first Wordle is #0 ({FIRST_DAY})")
        named.append((day_of(puzzle), "puzzle"))
    if grid_puzzle is not None:
        named.append((day_of(grid_puzzle), "grid"))
    if not named:
        return GameDay(today, "today")
    day, source = named[0]
    for other, how in named[1:]:
        if other != day:
            raise InvalidDayError(
                f"{_what(source, day)} and {_what(how, other)} are different days; give one, or make them agree"
            )
    if any(how == "grid" for _, how in named):
        source = "grid"
    check_day(day, today)
    return GameDay(day, source, answer_of(day, history, today))


def _what(source: str, day: dt.date) -> str:
    if source == "grid":
        return f"the share grid's Wordle #{puzzle_of(day):,} ({day})"
    if source == "puzzle":
        return f"puzzle #{puzzle_of(day):,} ({day})"
    return f"the day {day} (#{puzzle_of(day):,})"


def default_day_note(game_day: GameDay, how: str, today: dt.date | None = None) -> str | None:
    """When the day was not chosen: which one is assumed, and how to choose another (``how``,
    in the shell's words: ``give --date YYYY-MM-DD``, ``F2: day``)."""
    if game_day.chosen:
        return None
    return f"{game_day.describe(today)}; replaying an earlier day? {how}, so its answer keeps the odds it had"


def replay_day(
    words: Sequence[str], game_day: GameDay, history: Sequence[HistoryEntry], today: dt.date | None = None
) -> HistoryEntry | None:
    """The day ``replay_note`` names (its history entry), or None."""
    today = today or clock.today()
    words = [w.lower() for w in words]
    if not words or len(words) > LOST_WORDS:
        return None
    latest: dict[str, HistoryEntry] = {}
    for e in history:
        if e.date >= today or e.word not in words:
            continue
        if e.date == game_day.day:
            return None  # this day's own answer: the prior was the right one
        if e.word not in latest or e.date > latest[e.word].date:
            latest[e.word] = e
    return max(latest.values(), key=lambda x: x.date) if latest else None


def replay_note(
    words: Sequence[str], game_day: GameDay, history: Sequence[HistoryEntry], how: str, today: dt.date | None = None
) -> str | None:
    """The replay rule (see the module's text): ``words`` are the game's answer when it was
    solved, or the words still possible when it was lost (at most ``LOST_WORDS``: past that,
    naming one would be a guess).  Of those the history names as the answer of a day that is
    over, the one of the latest day gives the line; ``how`` is the shell's way to set a day,
    with ``{day}`` where the date goes (``use --date {day}``).  None when no word was another
    day's answer, or one was this day's own."""
    e = replay_day(words, game_day, history, today)
    if e is None:
        return None
    lead = "" if len(words) == 1 else ", still possible,"
    return (
        f"{e.word.upper()}{lead} was the answer of {e.date} (#{e.puzzle:,}), not of the day assumed, "
        f"{game_day.label()}: to replay that day with its prior, {how.format(day=e.date.isoformat())}"
    )


def _end_words(game: Game, game_day: GameDay | None) -> list[str] | None:
    """The words the replay rule looks at in a finished game played elsewhere (assist): its
    answer when solved, the words still possible when lost.  None for a game that knows its
    answer (play mode: the word was drawn here, nothing was replayed), one not over, or a word
    set whose prior does not depend on the day."""
    if game_day is None or game.answer is not None or game.lexicon.day is None:
        return None
    if game.solved:
        return [game.rows[-1].guess]
    return list(game.candidate_words) if game.over else None


def end_of_game_note(
    game: Game, game_day: GameDay | None, history: Sequence[HistoryEntry], how: str, today: dt.date | None = None
) -> str | None:
    """``replay_note`` for a finished game played elsewhere (see ``_end_words``)."""
    words = _end_words(game, game_day)
    return None if words is None or game_day is None else replay_note(words, game_day, history, how, today)


def end_of_game_day(
    game: Game, game_day: GameDay | None, history: Sequence[HistoryEntry], today: dt.date | None = None
) -> dt.date | None:
    """The day ``end_of_game_note`` names, for a shell that offers to replay it."""
    words = _end_words(game, game_day)
    e = None if words is None or game_day is None else replay_day(words, game_day, history, today)
    return None if e is None else e.date


def pick_answer(
    lexicon: Lexicon,
    *,
    answer: str | None = None,
    day: dt.date | None = None,
    seed: int | None = None,
    data_dir: Path | None = None,
) -> tuple[str, int | None]:
    """The hidden word for ``play`` and its puzzle number (when it is a past NYT day)."""
    import numpy as np  # (not at import: the light commands read days without numpy)

    if answer is not None:
        w = check_word(answer, lexicon.length)
        lexicon.id(w)  # must be a word the player can type
        return w, None
    if day is not None:
        history = data.read_history(data_dir) if data_dir else []
        for e in history:
            if e.date == day:
                if e.word not in lexicon:
                    raise InvalidWordError(f"the answer of {day} is not in the {lexicon.name} guess list")
                return e.word, e.puzzle
        if day > clock.today() + dt.timedelta(days=1):  # a day ahead: some time zone plays it already
            raise DataError(
                f"no answer for {day}: that puzzle has not been published yet (today is "
                f"{clock.today()}); give a past day"
            )
        last = history[-1].date if history else None
        hint = f"the history ends {last}" if last else "there is no history"
        raise DataError(f"no answer for {day}: {hint}; run 'wordlebot data update' (or data fetch)")
    rng = np.random.default_rng(seed)
    j = int(rng.choice(lexicon.n_answers, p=lexicon.prior))
    return lexicon.answers[j], None
