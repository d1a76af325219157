"""A session at the board: the state a user interface renders (the Textual UI keeps none of
its own), and what every key does to it.

Two modes: **assist** (the real game is played elsewhere; the user types each guess and sets
its colours) and **play** (the session holds a secret word; its Game knows it and colours the
guesses itself, the same Game ``wordlebot play`` uses).

Keys are handled here, one at a time and in the order they came (``Session.press``), so a
burst of keys (a paste, fast typing) gives what the same keys typed slowly give.  The one key
that depends on the search, Tab (play the top suggestion), waits for the suggestions of the
position it was typed in: it and every key after it are held until they arrive (``offer``).

Colours (assist mode) are set by keyboard as quickly as by mouse: once the row has its letters,
``0``/``1``/``2`` (or ``b``/``y``/``g``, ``.``, ``-``, ``x``, or the emoji) colour the tile under
the cursor and move it on, so ``crane`` then ``20110`` then Enter plays a row; Space cycles the
tile under the cursor; ←/→ move it; ↑/↓ pick an earlier row to correct (Enter applies, Esc
cancels).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import clock, data
from ..core.data import HistoryEntry
from ..core.days import GameDay, default_day_note, end_of_game_note, pick_answer, resolve_day
from ..core.errors import DataError, InvalidFeedbackError, InvalidWordError, WordlebotError
from ..core.feedback import _CHAR_COLOUR, GRAY, GREEN, YELLOW, EmojiStyle, colours_to_pattern, pattern_to_colours
from ..core.game import Game, Refusal, Row
from ..core.share import share_grid
from ..core.text import plural
from ..core.words import Lexicon
from ..policy import explain
from ..policy.advisor import Advisor
from ..policy.analysis import GameReport, SharedGame, analyze_game
from ..policy.grid_analysis import GridReport, analyze_grid, looks_like_grid, read_grid, words_of_rows
from ..policy.strategies import Ranked
from .settings import MODES, Settings

__all__ = ["BoardRow", "Cell", "KEYS_HELP", "MODES", "Outcome", "Session", "Settings", "SettingsPlan"]

NEXT_COLOUR = {GRAY: YELLOW, YELLOW: GREEN, GREEN: GRAY}  # a click or Space on a tile
# How this UI sets the day, in the words of days.default_day_note and days.replay_note.
HOW_DEFAULT = "F2 sets the day (a date or a puzzle number)"
HOW_REPLAY = "F2: day {day}"
# Letters that are colours once the row has its letters (b/x/w gray, y yellow, g green).
COLOUR_LETTERS = frozenset("bxwyg")
# Characters a paste may carry between a word and its colours, or between decorations.
PASTE_SEPARATORS = frozenset(" \t:=\ufe0f\ufe0e\u200d")


KEYS_HELP = """\
Type the word; Tab puts the top suggestion in the row (or click on one).
Assist mode, once the row has its letters, its colours:
  0 1 2 or b y g   colour the tile under the cursor and move on (. - x are
                   gray too; emoji work): crane, 20110, Enter plays a row
  Space            cycle the tile under the cursor: gray, yellow, green
  ← →              move the cursor
  Backspace        clear the colour before the cursor, then letters
  ↑ ↓              correct an earlier row (Enter applies, Esc cancels)
  click a tile     cycle it (on an earlier row: corrected at once)
Enter plays the row · ^z undo · ^n new game · F2 settings · ^q quit
F3 shows the hints (suggestions, words left) when they are hidden:
in play mode until asked, at each new row (F2: hints).
A paste is typed in order: "crane 20110" and a new line plays a row.
Keys typed during a search keep their order; Tab waits for the search."""


# ---------------------------------------------------------------------------------------------
# What a key did; what the board shows


@dataclass(frozen=True)
class Outcome:
    """What one key or click did, for the shell to show.  ``message``: a line for the status
    (an error when ``error``); ``played``: the game changed (a row, undo, a correction, a new
    game), so the suggestions on screen are stale; ``finished``: this key ended the game;
    ``held``: the key waits for the suggestions of the current position."""

    message: str = ""
    error: bool = False
    played: bool = False
    finished: bool = False
    held: bool = False
    grid: object = None  # a pasted share grid (analysis.SharedGame) for the shell to act on (see GridUse)


class _Hold:
    """_press: this key must wait for the suggestions."""


_HOLD = _Hold()


@dataclass(frozen=True)
class Cell:
    """One tile as the board shows it: ``state`` is empty, current (the next tile to type),
    typed (play mode, not yet coloured), or gray / yellow / green; ``cursor``: the tile the
    colour keys act on."""

    letter: str
    state: str
    cursor: bool = False


@dataclass(frozen=True)
class BoardRow:
    cells: list[Cell]
    kind: str  # played, editing (an earlier row being corrected), typing, empty


COLOUR_NAME = {GRAY: "gray", YELLOW: "yellow", GREEN: "green"}


@dataclass(frozen=True)
class GridUse:
    """What a pasted share grid means for the session: its day (a new one for the prior when
    ``new_day``), and the words of the board when its rows show the grid's colours (the
    player's own game: rated with the day's answer)."""

    grid: object  # analysis.SharedGame
    game_day: GameDay
    new_day: bool
    words: list[str] | None

    def message(self) -> str:
        gd = self.game_day
        head = f"share grid of Wordle #{gd.puzzle:,}: the day is {gd.day}"
        if self.words:
            return head + "; your rows show its colours: their analysis"
        if gd.answer:
            return head + "; its answer is in the history: what the grid says"
        return head + "; its answer is not in the history yet, so play your words to rate them"


@dataclass
class SettingsPlan:
    """What applying new settings would do to the game in progress (see ``Session.plan``)."""

    settings: Settings
    lexicon: Lexicon
    advisor: Advisor
    game: Game | None  # the game under the new settings with its rows kept; None: a new game
    reason: str | None  # why the rows cannot be kept (None when they are, or there are none)
    rows: int  # rows played in the game now
    moves: int = 0  # rows and refusals
    game_day: GameDay | None = None  # the day these settings play (None: the session's)

    @property
    def loses_rows(self) -> bool:
        """The game has moves that these settings would clear."""
        return self.game is None and self.moves > 0


@dataclass
class Session:
    lexicon: Lexicon
    settings: Settings = field(default_factory=Settings)
    secret: str | None = None  # play mode: the hidden word
    puzzle: int | None = None
    # The day whose answer prior the word set carries (None: today); kept when settings change.
    day: dt.date | None = None
    # The same as a GameDay (days.py): where it came from and its answer once the day is over;
    # and the answer history, for the replay rule at the end of a game.
    game_day: GameDay | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    # The game version whose hints the player asked for (F3) while they are hidden.
    hints_version: int | None = None
    # Given, or made by __post_init__: never None once the session exists.
    advisor: Advisor = None  # type: ignore[assignment]
    game: Game = None  # type: ignore[assignment]
    letters: str = ""
    colours: list[int] = field(default_factory=list)
    # Which tiles of the row being typed got a colour key; a row coloured with clicks or Space
    # (``cycled``) has its other tiles gray, as shown.  See ``missing_colours``.
    typed: list[bool] = field(default_factory=list)
    cycled: bool = False
    pos: int = 0  # the colour cursor: a tile of the row being typed or corrected (length: past the end)
    editing: int | None = None  # the earlier row being corrected (0-based), if any
    edit_colours: list[int] = field(default_factory=list)
    # Bumped at every change of the game: suggestions are offered for one version (see offer).
    version: int = 0
    offered: list[Ranked] = field(default_factory=list)
    offered_version: int | None = None
    held: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.advisor is None:
            self.advisor = Advisor(
                self.lexicon,
                strategy=self.settings.strategy,
                guess_space=self.settings.guess_space,
                goal=self.settings.goal,
            )
        if self.game_day is None:
            self.game_day = GameDay(self.day, "date") if self.day is not None else GameDay(clock.today())
        if self.mode == "play" and self.secret is None:
            self.secret = self.random_secret()
        if self.game is None:
            self.game = self._fresh_game()

    @classmethod
    def start(
        cls,
        saved: Settings,
        *,
        data_dir: str | Path | None = None,
        day: dt.date | None = None,
        answer: str | None = None,
        notify: Callable[[str], None] | None = None,
        load_options: dict[str, Any] | None = None,
        **run: Any,
    ) -> Session:
        """The session a user starts: the saved settings with this run's flags (``run``: None
        leaves a setting as saved; a --date or --answer means play mode unless ``mode`` says
        assist).  When the saved word lists cannot be loaded (a file that has gone), the
        default lists are used and ``notify`` says why; lists given as flags raise instead."""
        say = notify or (lambda m: None)
        try:
            history = data.read_history(Path(data_dir)) if data_dir is not None else []
        except DataError:
            history = []  # the word set's loading says what is wrong with it
        game_day = resolve_day(date=day, history=history)  # a day not published yet is refused here
        settings = saved.changed(**run)
        if run.get("guesses_file") is not None:  # files given: the answers are those given, or the guesses
            settings.answers_file = run.get("answers_file")
        if answer or (day and run.get("mode") != "assist"):
            settings.mode = "play"
        options = dict(load_options or {})
        options.setdefault("prefetch_matrix", True)  # the session's Advisor needs the matrices
        try:
            lexicon = settings.lexicon(data_dir, notify=say, day=day, **options)
        except WordlebotError as exc:
            if any(run.get(k) is not None for k in ("words", "length", "guesses_file", "answers_file")):
                raise
            say(f"the saved word set could not be loaded ({exc}); using the default one")
            default = Settings()
            settings = replace(
                settings, words=default.words, length=default.length, guesses_file=None, answers_file=None
            )
            lexicon = settings.lexicon(data_dir, notify=say, day=day, **options)
        secret = puzzle = None
        if answer or (day and settings.mode == "play"):
            secret, puzzle = pick_answer(
                lexicon, answer=answer, day=day, data_dir=None if data_dir is None else Path(data_dir)
            )
        return cls(lexicon, settings, secret=secret, puzzle=puzzle, day=day, game_day=game_day, history=history)

    @property
    def length(self) -> int:
        return self.lexicon.length

    @property
    def mode(self) -> str:
        return self.settings.mode

    @property
    def over(self) -> bool:
        return self.game.over

    # --- keys --------------------------------------------------------------------------------------

    def press(self, key: str) -> Outcome:
        """Handle one key: a character ("c", "2", "🟩") or a name ("enter", "tab", "backspace",
        "left", "right", "up", "down", "space", "escape", "ctrl+z" undo, "ctrl+n" new game).
        Never raises: a refused key leaves the state as it was and says why."""
        if self.held:
            if key == "escape":
                n = len(self.held)
                self.held.clear()
                return Outcome(f"dropped {plural(n, 'key')} that waited for the search")
            self.held.append(key)
            return Outcome(self._waiting(), held=True)
        out = self._checked(key)
        if isinstance(out, _Hold):
            self.held.append(key)
            return Outcome(self._waiting(), held=True)
        return out

    def paste(self, text: str) -> list[Outcome]:
        """Pasted text, as the keys it stands for: letters, colours (digits, letters, emoji), a
        new line or a comma for Enter (several in a row count once); spaces and colons between a
        word and its colours are skipped.  ``crane 20110`` + new line plays a row;
        ``salet:20110,crony:00210`` two.  A share grid (``Wordle 1,790 4/6`` and its tiles) is
        not typed: it comes back as one Outcome carrying it (``grid``), or its error."""
        if looks_like_grid(text):
            try:
                return [Outcome("share grid", grid=read_grid(text))]
            except WordlebotError as exc:
                return [Outcome(f"that share grid cannot be read: {exc}", error=True)]
        keys: list[str] = []
        for ch in text:
            if ch in "\r\n,;":
                if keys and keys[-1] != "enter":
                    keys.append("enter")
            elif ch not in PASTE_SEPARATORS:
                keys.append(ch)
        return [self.press(k) for k in keys]

    def offer(self, rows: list[Ranked], version: int) -> list[Outcome]:
        """The suggestions found for ``version`` of the game (ignored when the game has changed
        since): Tab reads them, and the keys that waited for them run now, in order."""
        if version != self.version:
            return []
        self.offered, self.offered_version = list(rows), version
        outs = []
        while self.held:
            key = self.held.pop(0)
            out = self._checked(key)
            if isinstance(out, _Hold):  # an Enter among the held keys changed the game: wait again
                self.held.insert(0, key)
                break
            outs.append(out)
        return outs

    @property
    def suggestions_current(self) -> bool:
        return self.offered_version == self.version

    def _waiting(self) -> str:
        return f"waiting for the search ({plural(len(self.held), 'key')} held; Esc drops them)"

    def _checked(self, key: str) -> Outcome | _Hold:
        try:
            return self._press(key)
        except WordlebotError as exc:
            return Outcome(str(exc), error=True)

    def _press(self, key: str) -> Outcome | _Hold:
        if key in (" ", "space"):
            return self._cycle_key()
        if key == "ctrl+z":
            return self._undo_key()
        if key == "ctrl+n":
            self.new_game()
            return Outcome("new game", played=True)
        if key == "escape":
            if self.editing is not None:
                k = self.editing
                self._stop_editing()
                return Outcome(f"correction of row {k + 1} cancelled")
            return Outcome()
        if key == "tab":
            return self._tab()
        if key == "f3":
            return self.show_hints()
        if key == "enter":
            return self._enter()
        if key == "backspace":
            return self._backspace()
        if key in ("left", "right"):
            n = self.length if self.editing is not None else len(self.letters)
            if n:
                step = -1 if key == "left" else 1
                self.pos = (min(self.pos, n - 1 if step > 0 else n) + step) % n
            return Outcome()
        if key in ("up", "down"):
            return self._pick_row(key)
        if len(key) == 1:
            return self._char(key)
        return Outcome()  # a key with no meaning here (F-keys are the shell's)

    def _char(self, ch: str) -> Outcome:
        low = ch.lower()
        if low.isascii() and low.isalpha():
            if self.editing is not None:
                if low in COLOUR_LETTERS:
                    return self._colour(_CHAR_COLOUR[low])
                raise InvalidWordError(
                    f"row {self.editing + 1} keeps its word: type its colours "
                    "(0 1 2 or b y g), Enter applies, Esc cancels"
                )
            if self.over:
                raise InvalidWordError("the game is over: ctrl+n starts a new one")
            if len(self.letters) < self.length:
                self.type_letter(low)
                if len(self.letters) == self.length:
                    # said now, not after the colours: not in the list, refused before, hard mode
                    # (the word stays, to be corrected with Backspace)
                    self.game.check_guess(self.letters)
                return Outcome()
            if self.mode == "assist" and low in COLOUR_LETTERS:
                return self._colour(_CHAR_COLOUR[low])
            if self.mode == "assist":
                raise InvalidWordError(
                    f"the row has its {self.length} letters: type its colours (0 1 2 "
                    "or b y g), then Enter; Backspace deletes"
                )
            raise InvalidWordError(f"the row has its {self.length} letters: Enter plays it, Backspace deletes")
        colour = _CHAR_COLOUR.get(ch)
        if colour is not None:
            return self._colour(colour)
        if ch.isdigit():
            raise InvalidWordError(f"{ch!r} is not a colour: 0 gray, 1 yellow, 2 green")
        raise InvalidWordError(f"{ch!r} is neither a letter nor a colour")

    def _colour(self, colour: int) -> Outcome:
        """Colour the tile under the cursor and move the cursor on."""
        if self.mode != "assist":
            raise InvalidWordError("in play mode the game colours the tiles")
        if self.editing is None:
            if self.over:
                raise InvalidWordError("the game is over: ctrl+n starts a new one")
            if len(self.letters) < self.length:
                raise InvalidWordError("type the whole word first, then its colours")
        row = self.edit_colours if self.editing is not None else self.colours
        if self.pos >= self.length:
            raise InvalidWordError(
                f"the {self.length} colours are set: Enter "
                f"{'applies them' if self.editing is not None else 'plays the row'} "
                "(Backspace or ← to change one)"
            )
        row[self.pos] = colour
        if self.editing is None:
            self.typed[self.pos] = True
        self.pos += 1
        return Outcome()

    def _cycle_key(self) -> Outcome:
        if self.editing is not None:
            i = min(self.pos, self.length - 1)
            self.edit_colours[i] = NEXT_COLOUR[self.edit_colours[i]]
            return Outcome()
        if self.letters:
            self.cycle(min(self.pos, len(self.letters) - 1))
        return Outcome()

    def _tab(self) -> Outcome | _Hold:
        if self.editing is not None:
            raise InvalidWordError(f"finish correcting row {self.editing + 1} first: Enter applies, Esc cancels")
        if self.over:
            raise InvalidWordError("the game is over: ctrl+n starts a new one")
        if not self.hints_shown:
            raise InvalidWordError("the hints are hidden: F3 shows them for this position")
        if not self.suggestions_current:
            return _HOLD
        if not self.offered:
            raise InvalidWordError(self.game.off_list_note or "no suggestion for this position")
        self.use_word(self.offered[0].word)
        return Outcome()

    def _enter(self) -> Outcome:
        if self.editing is not None:
            k = self.editing
            pattern = colours_to_pattern(self.edit_colours)
            if pattern == self.game.rows[k].pattern:
                self._stop_editing()
                return Outcome(f"row {k + 1} unchanged")
            self.game.edit(k, None, pattern)  # refused with the reason: still editing
            self._stop_editing()
            self.version += 1
            return Outcome(f"row {k + 1} corrected", played=True, finished=self.over)
        self.submit()
        g = self.game
        if g.solved:
            msg = f"Solved in {len(g.rows)}!"
        elif g.over:
            msg = "Out of guesses." + (f" The word was {self.secret.upper()}." if self.secret else "")
        else:
            msg = g.off_list_note or ""
        return Outcome(msg, played=True, finished=g.over)

    def _backspace(self) -> Outcome:
        if self.editing is not None:
            if self.pos == 0:
                raise InvalidWordError(f"row {self.editing + 1} keeps its word: Esc cancels the correction")
            self.pos = min(self.pos, self.length) - 1
            self.edit_colours[self.pos] = GRAY
            return Outcome()
        if self.mode == "assist" and len(self.letters) == self.length and self.pos > 0:
            self.pos = min(self.pos, self.length) - 1  # the colour before the cursor first
            self.colours[self.pos] = GRAY
            self.typed[self.pos] = False
            return Outcome()
        self.backspace()
        return Outcome()

    def _undo_key(self) -> Outcome:
        if self.editing is not None:
            k = self.editing
            self._stop_editing()
            return Outcome(f"correction of row {k + 1} cancelled")
        move = self.undo()
        if move is None:
            return Outcome("row cleared")
        if isinstance(move, Refusal):
            return Outcome(f"took back the refusal of {move.word.upper()}", played=True)
        return Outcome(f"took back {move.guess.upper()}", played=True)

    def _pick_row(self, key: str) -> Outcome:
        if self.mode != "assist":
            raise InvalidWordError("in play mode the colours come from the game")
        rows = self.game.rows
        if not rows:
            raise InvalidWordError("no row to correct yet")
        if key == "up":
            k = len(rows) - 1 if self.editing is None else max(0, self.editing - 1)
        else:
            if self.editing is None:
                return Outcome()
            k = self.editing + 1
            if k == len(rows):
                self._stop_editing()
                return Outcome("back to the new row")
        self.editing = k
        self.edit_colours = list(pattern_to_colours(rows[k].pattern, self.length))
        self.pos = 0
        return Outcome(
            f"correcting row {k + 1} ({rows[k].guess.upper()}): type its colours or Space, Enter applies, Esc cancels"
        )

    def _stop_editing(self) -> None:
        self.editing = None
        self.edit_colours = []
        self.pos = 0 if len(self.letters) == self.length else max(0, len(self.letters) - 1)

    def click(self, row: int, col: int) -> Outcome:
        """A click on a tile: on the row being typed or corrected it cycles that tile (and puts
        the cursor there); on an earlier row it corrects that row at once, if the rows after it
        still fit."""
        if self.held:
            return Outcome(self._waiting(), held=True)
        try:
            rows = self.game.rows
            if self.editing is not None and row == self.editing:
                self.pos = col
                self.edit_colours[col] = NEXT_COLOUR[self.edit_colours[col]]
                return Outcome()
            if row < len(rows):
                self.cycle_played(row, col)
                return Outcome(f"row {row + 1} corrected", played=True, finished=self.over)
            if row == len(rows) and col < len(self.letters) and self.editing is None:
                self.pos = col
                self.cycle(col)
            return Outcome()
        except WordlebotError as exc:
            return Outcome(str(exc), error=True)

    # --- the row being typed (checked: raise a WordlebotError saying why not) ---------------------

    def type_letter(self, ch: str) -> None:
        if self.over:
            raise InvalidWordError("the game is over: ctrl+n starts a new one")
        ch = ch.lower()
        if not (len(ch) == 1 and "a" <= ch <= "z"):
            raise InvalidWordError(f"{ch!r} is not a letter")
        if len(self.letters) >= self.length:
            return
        self.letters += ch
        self.colours.append(GRAY)
        self.typed.append(False)
        self.pos = 0 if len(self.letters) == self.length else len(self.letters) - 1

    def backspace(self) -> None:
        self.letters = self.letters[:-1]
        self.colours = self.colours[: len(self.letters)]
        self.typed = self.typed[: len(self.letters)]
        if not self.letters:
            self.cycled = False
        self.pos = max(0, len(self.letters) - 1)

    def cycle(self, i: int) -> None:
        """Tile i of the row being typed: gray -> yellow -> green -> gray (assist mode)."""
        if self.mode != "assist":
            raise InvalidWordError("in play mode the game colours the tiles")
        if not 0 <= i < len(self.colours):
            raise InvalidWordError("type the letter first, then set its colour")
        self.colours[i] = NEXT_COLOUR[self.colours[i]]
        self.cycled = True

    def use_word(self, word: str) -> None:
        """Put ``word`` (e.g. the top suggestion) in the row being typed."""
        w = word.lower()
        self.lexicon.id(w)
        self._clear_row()
        self.letters = w
        self.colours = [GRAY] * len(w)
        self.typed = [False] * len(w)

    def submit(self) -> Row:
        """Play the row being typed.  Nothing changes if the game refuses it."""
        if self.over:
            raise InvalidWordError("the game is over: ctrl+n starts a new one")
        if len(self.letters) != self.length:
            raise InvalidWordError(f"type {self.length} letters first ({len(self.letters)} so far)")
        # Any refusal (not in the list, hard mode, impossible colours) leaves the row as typed.
        if self.mode == "play":
            row = self.game.guess(self.letters)  # the game knows the answer: it colours the row
        else:
            self.game.check_guess(self.letters)  # the word's own fault first
            missing = self.missing_colours()
            if missing:
                raise InvalidFeedbackError(self._missing_message(missing))
            row = self.game.guess(self.letters, colours_to_pattern(self.colours))
        self._clear_row()
        self.version += 1
        return row

    def missing_colours(self) -> list[int]:
        """The tiles of the row being typed (0-based) that have no colour yet, assist mode: none
        once every tile got a colour key, or once the row was coloured with clicks or Space
        (where a tile left alone is gray, as the board shows it).  ``raver`` ``0202`` leaves the
        5th: typed colours that stop short are a slip, never padded with gray."""
        if self.mode != "assist" or self.cycled:
            return []
        return [i for i, t in enumerate(self.typed) if not t]

    def _missing_message(self, missing: list[int]) -> str:
        word, n = self.letters.upper(), self.length
        if len(missing) == n:
            return (
                f"{word} has no colours yet: type them, 0 gray, 1 yellow, 2 green "
                f"({'0' * n} when all are gray), then Enter"
            )
        which = ", ".join(str(i + 1) for i in missing)
        return (
            f"{word} has {n - len(missing)} of its {n} colours: type the colour of tile"
            f"{'s' if len(missing) > 1 else ''} {which} too (0 gray, 1 yellow, 2 green), then Enter"
        )

    def _clear_row(self) -> None:
        self.letters, self.colours, self.typed, self.cycled, self.pos = "", [], [], False, 0

    # --- whole rows --------------------------------------------------------------------------------

    def undo(self) -> Row | Refusal | None:
        """Clear the row being typed, else take back the game's last action."""
        if self.letters:
            self._clear_row()
            return None
        move = self.game.undo()
        self.version += 1
        return move

    def cycle_played(self, row: int, i: int) -> None:
        """Edit an earlier row's colours (assist mode): cycle tile i of row ``row`` (0-based)."""
        if self.mode != "assist":
            raise InvalidWordError("in play mode the colours come from the game")
        r = self.game.rows[row]
        cols = list(pattern_to_colours(r.pattern, self.length))
        cols[i] = NEXT_COLOUR[cols[i]]
        self.game.edit(row, r.guess, colours_to_pattern(cols))
        self.version += 1

    def new_game(self) -> None:
        self._clear_row()
        self.editing, self.edit_colours = None, []
        self.puzzle = None
        if self.mode == "play":  # the day's own word was played: a new game draws one from its prior
            self.secret = self.random_secret()
        self.game = self._fresh_game()
        self.version += 1

    def _fresh_game(self) -> Game:
        """A game with the settings' rules; in play mode it knows the secret (see ``Game``)."""
        return Game(
            self.lexicon,
            hard=self.settings.hard,
            max_guesses=self.settings.max_guesses,
            matrix=self.advisor.matrix,
            answer=self.secret if self.mode == "play" else None,
        )

    def random_secret(self) -> str:
        """An answer drawn from the prior (as ``wordlebot play`` draws it)."""
        return pick_answer(self.lexicon)[0]

    def _play_secret(self) -> tuple[str, int | None]:
        """Play mode's hidden word: the chosen day's answer when the history has it (a replay
        of that day), else one drawn from the prior; and its puzzle number (a replay only)."""
        gd = self.game_day
        if gd is not None and gd.chosen and gd.answer is not None and gd.answer in self.lexicon:
            return gd.answer, gd.puzzle
        return self.random_secret(), None

    # --- settings ----------------------------------------------------------------------------------

    def plan(
        self, new: Settings, load: Callable[[Settings], Lexicon] | None = None, game_day: GameDay | None = None
    ) -> SettingsPlan:
        """What applying ``new`` (and ``game_day``, when the day changes) would do, without
        doing it: the lists (loaded by ``load`` when they change, or when a new day changes
        their prior; ``load`` gives them the new day's), the advisor (kept when the lists,
        strategy, guess space and goal are the same), and the game with its rows kept under the
        new rules, or the reason they cannot be (a row that breaks hard mode, more rows than the
        new cap, a word the new lists lack, play mode that must hide a new word)."""
        old = self.settings
        game_day = game_day or self.game_day
        new_day = game_day is not None and self.game_day is not None and game_day.day != self.game_day.day
        same_lists = new.lists == old.lists and not (new_day and self.lexicon.day is not None)
        if same_lists:
            lexicon = self.lexicon
        elif load is None:
            raise ValueError("the settings name other word lists: give load")
        else:
            lexicon = load(new)
        if same_lists and (new.strategy, new.guess_space, new.goal) == (old.strategy, old.guess_space, old.goal):
            advisor = self.advisor
        else:
            advisor = Advisor(
                lexicon,
                strategy=new.strategy,
                guess_space=new.guess_space,
                goal=new.goal,
                matrix=self.advisor.matrix if same_lists else None,
            )
        rows = len(self.game.rows)
        moves = rows + len(self.game.refused)
        if not moves:
            return SettingsPlan(new, lexicon, advisor, None, None, 0, 0, game_day)
        if new.mode == "play" and old.mode != "play":
            reason = "play mode hides a new word, so the rows typed in assist mode cannot be kept"
            return SettingsPlan(new, lexicon, advisor, None, reason, rows, moves, game_day)
        if new.mode == "play" and new_day:
            reason = "in play mode another day hides another word, so the rows played cannot be kept"
            return SettingsPlan(new, lexicon, advisor, None, reason, rows, moves, game_day)
        if rows == new.max_guesses and not self.game.solved:  # more rows: replay says so
            reason = (
                f"a cap of {new.max_guesses} guesses would end the game now, with "
                f"{plural(rows, 'row')} played and not solved"
            )
            return SettingsPlan(new, lexicon, advisor, None, reason, rows, moves, game_day)
        try:
            game = self.game.replay(
                lexicon,
                hard=new.hard,
                max_guesses=new.max_guesses,
                answer=self.secret if new.mode == "play" else None,
                matrix=advisor.matrix,
            )
        except WordlebotError as exc:
            return SettingsPlan(
                new, lexicon, advisor, None, f"the rows played do not fit: {exc}", rows, moves, game_day
            )
        return SettingsPlan(new, lexicon, advisor, game, None, rows, moves, game_day)

    def adopt(self, plan: SettingsPlan) -> None:
        """Apply a plan: its game (rows kept) or, when it has none, a new game."""
        old, old_day = self.settings, self.game_day
        self.settings, self.lexicon, self.advisor = plan.settings, plan.lexicon, plan.advisor
        if plan.game_day is not None:
            self.game_day = plan.game_day
            self.day = plan.game_day.day if plan.game_day.chosen else None
        new_day = self.game_day is not None and old_day is not None and self.game_day.day != old_day.day
        if self.mode != "play":
            self.secret, self.puzzle = None, None
        elif old.mode != "play" or self.secret is None or self.secret not in self.lexicon or new_day:
            self.secret, self.puzzle = self._play_secret()
        self.game = plan.game if plan.game is not None else self._fresh_game()
        if len(self.letters) != self.length or self.mode != old.mode:
            self._clear_row()
        self.editing, self.edit_colours, self.pos = None, [], 0
        self.held.clear()
        self.offered, self.offered_version = [], None
        self.version += 1

    # --- hints and the day ---------------------------------------------------------------------

    @property
    def hints_shown(self) -> bool:
        """Whether the panels show the hints: always, unless the settings hide them (play mode,
        by default), and then for the position they were asked for (F3) and once the game is
        over.  A hint asked for at one row says nothing of wanting them at the next."""
        return not self.settings.hints_hidden() or self.hints_version == self.version or self.over

    def show_hints(self) -> Outcome:
        """F3: the hints of this position, while they are hidden."""
        if self.hints_shown:
            return Outcome(
                "the hints are shown"
                + ("" if self.settings.hints_hidden() else " (F2: hints hidden until asked, in play mode by default)")
            )
        self.hints_version = self.version
        return Outcome("hints shown for this position; they hide again at the next row")

    def day_line(self) -> str | None:
        """Which day's prior the word set carries, and how to choose another when none was
        chosen (None when the prior does not depend on the day)."""
        if self.game_day is None or self.lexicon.day is None:
            return None
        return default_day_note(self.game_day, HOW_DEFAULT) or self.game_day.describe()

    def day_label(self) -> str | None:
        """The day, short, for a header: ``today 2026-11-27 #1,987`` / ``2026-05-14 #1,790``."""
        if self.game_day is None or self.lexicon.day is None:
            return None
        gd = self.game_day
        return f"{'today ' if gd.day == clock.today() else ''}{gd.day} #{gd.puzzle:,}"

    def day_note(self) -> str | None:
        """At the end of a game played elsewhere: the replay rule (days.replay_note)."""
        return end_of_game_note(self.game, self.game_day, self.history, HOW_REPLAY)

    # --- what the panels show ------------------------------------------------------------------

    def board(self) -> list[BoardRow]:
        """Every row of the board, as tiles to paint."""
        n = self.length
        played = self.game.rows
        out = []
        for r in range(self.game.max_guesses):
            if r < len(played):
                if r == self.editing:
                    out.append(
                        BoardRow(
                            [
                                Cell(played[r].guess[i], COLOUR_NAME[self.edit_colours[i]], i == self.pos)
                                for i in range(n)
                            ],
                            "editing",
                        )
                    )
                else:
                    cols = pattern_to_colours(played[r].pattern, n)
                    out.append(BoardRow([Cell(played[r].guess[i], COLOUR_NAME[cols[i]]) for i in range(n)], "played"))
            elif r == len(played) and not self.over:
                assist = self.mode == "assist"
                show_cursor = assist and self.editing is None and bool(self.letters)
                cells = []
                for i in range(n):
                    if i < len(self.letters):
                        # a tile with no colour yet shows none (Enter refuses it), not gray
                        coloured = assist and (self.cycled or self.typed[i])
                        state = COLOUR_NAME[self.colours[i]] if coloured else "typed"
                        cells.append(Cell(self.letters[i], state, show_cursor and i == self.pos))
                    else:
                        cells.append(Cell("", "current" if i == len(self.letters) else "empty"))
                out.append(BoardRow(cells, "typing"))
            else:
                out.append(BoardRow([Cell("", "empty") for _ in range(n)], "empty"))
        return out

    def keyboard(self) -> dict[str, int]:
        """What the rows played say of each letter: green somewhere, else yellow somewhere, else
        gray (not in the word, beyond the copies revealed); letters not played are absent."""
        best: dict[str, int] = {}
        for row in self.game.rows:
            for ch, c in zip(row.guess, pattern_to_colours(row.pattern, self.length)):
                best[ch] = max(best.get(ch, GRAY), c)
        return best

    def hint(self) -> str:
        """The line that says what to do now (shown when there is nothing else to say)."""
        if self.over:
            return "ctrl+n starts a new game"
        if self.editing is not None:
            return (
                f"correcting row {self.editing + 1}: colours 0 1 2 (b y g) or Space, ←/→ move, "
                "Enter applies, Esc cancels"
            )
        if self.mode == "play":
            return "type a word and press Enter (" + (
                "Tab: the top suggestion)" if self.hints_shown else "F3: the hints, hidden until asked)"
            )
        if len(self.letters) < self.length:
            return "type the word you played (Tab: the top suggestion), then its colours" + (
                " · ↑ corrects a row" if self.game.rows else ""
            )
        return "colours: 0/b gray, 1/y yellow, 2/g green (or Space, ←/→), then Enter"

    def notice(self) -> str | None:
        """The line to keep in view for the whole session, or None: the word list in use is not
        the official one asked for, why, and the command that fixes it."""
        fallback = self.lexicon.fallback
        return fallback.line if fallback is not None else None

    def suggestions(self, top: int = 8, game: Game | None = None) -> list[Ranked]:
        """The advisor's best next guesses (none once the answer is known to be off the list),
        for this session's game or a snapshot of it (``game.copy()``: what a UI hands a worker
        thread while the board may change)."""
        return self.advisor.suggest(game or self.game, top)

    def candidates(self, limit: int = 200) -> list[tuple[str, float]]:
        """The words still possible with their probabilities, likeliest first."""
        return explain.by_likelihood(self.game, limit)

    def candidates_line(self) -> str:
        """``840 candidates left · about 120 likely`` (see ``explain.candidates_line``), or the
        note that the answer is not in the list."""
        return self.game.off_list_note or explain.candidates_line(self.game)

    def trap(self) -> str | None:
        """A hard-mode trap ahead (see ``explain.hard_mode_trap``), or None."""
        return explain.hard_mode_trap(self.game)

    def analysis(self, answer: str | None = None) -> GameReport:
        """The game rated row by row (rows after an off-list answer showed itself: unrated, see
        ``analyze_game``); ``answer``: the answer when it is known from elsewhere (a share
        grid's day)."""
        game = self.game
        return analyze_game(
            self.advisor, game.rows, answer=self.secret or answer, hard=game.hard, max_guesses=game.max_guesses
        )

    def use_grid(self, grid: SharedGame) -> GridUse:
        """A pasted share grid: its puzzle's day (InvalidDayError when it has no number, or is
        not published yet) and whether the board's rows are its game."""
        if grid.puzzle is None:
            raise InvalidWordError("that share grid has no puzzle number, so it names no day")
        gd = resolve_day(grid_puzzle=grid.puzzle, history=self.history)
        new_day = self.game_day is None or gd.day != self.game_day.day
        return GridUse(grid, gd, new_day, words_of_rows(grid, list(self.game.rows)))

    def grid_report(self, grid: SharedGame) -> GridReport:
        """What a pasted grid says with this session's prior and its day's answer (the grid's
        day must be the session's: ``use_grid`` then ``adopt`` a plan with its day first)."""
        return analyze_grid(self.advisor, grid, self.game_day)

    def review(self, report: GameReport, limit: int = 12) -> list[str]:
        """One plain-language paragraph per rated row: what the guess did, and the words still
        possible after it (see ``explain.review_rows``)."""
        return explain.review_rows(self.advisor, self.game, report, limit)

    def share(self, style: EmojiStyle = "dark") -> str:
        """The share grid; its number is the replayed day's in play mode, and in assist mode
        the day's when one was chosen or the word set's prior is a day's (the game played
        elsewhere is that day's puzzle)."""
        puzzle = self.puzzle
        gd = self.game_day
        if (
            puzzle is None
            and self.mode == "assist"
            and gd is not None
            and self.lexicon.length == 5
            and (gd.chosen or self.lexicon.day is not None)
        ):
            puzzle = gd.puzzle
        return share_grid(
            self.game.rows,
            solved=self.game.solved,
            max_guesses=self.game.max_guesses,
            hard=self.game.hard,
            puzzle=puzzle,
            style=style,
        )
