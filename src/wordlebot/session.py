"""A session at the board: the state a user interface renders (the Textual UI keeps none of
its own).

Two modes: **assist** (the real game is played elsewhere; the user types each guess and sets
its colours) and **play** (the session holds a secret word; its Game knows it and colours the
guesses itself, the same Game ``wordlebot play`` uses).
The row being typed is kept here too (letters and, in assist mode, the colours chosen so far),
so every keystroke is a method call that either changes the state or raises a WordlebotError
saying why not.
"""

from __future__ import annotations

import datetime as dt

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .advisor import DEFAULT_STRATEGY, Advisor
from .analysis import GameReport, analyze_game
from .errors import InvalidWordError, WordlebotError
from .feedback import GRAY, GREEN, YELLOW, colours_to_pattern, pattern_to_colours
from .game import Game, Refusal, Row
from .interactive import pick_answer
from .paths import config_dir
from .render import share_grid
from .words import Lexicon

MODES = ("assist", "play")
NEXT_COLOUR = {GRAY: YELLOW, YELLOW: GREEN, GREEN: GRAY}  # a click or Space on a tile


@dataclass
class Settings:
    """What the user chose, remembered between runs (a JSON file in the config folder)."""

    words: str = "nyt"
    length: int = 5
    guesses_file: str | None = None
    answers_file: str | None = None
    strategy: str = DEFAULT_STRATEGY
    hard: bool = False
    max_guesses: int = 6
    mode: str = "assist"

    @classmethod
    def path(cls) -> Path:
        return config_dir() / "tui.json"

    @classmethod
    def load(cls) -> "Settings":
        try:
            doc = json.loads(cls.path().read_text())
            known = {k: v for k, v in doc.items() if k in cls.__dataclass_fields__}
            s = cls(**known)
            if s.mode not in MODES:
                s.mode = "assist"
            return s
        except (OSError, ValueError, TypeError):
            return cls()  # missing or damaged: defaults (the file is rewritten on the next save)

    def lexicon(self, data_dir: str | Path | None = None, **options) -> Lexicon:
        """The word lists these settings name (``options``: more load_lexicon arguments), loaded
        the same way at start-up and from the settings dialog."""
        from .wordsets import load_lexicon

        return load_lexicon(self.words, data_dir=data_dir, length=self.length, guesses=self.guesses_file,
                            answers=self.answers_file, **options)

    def save(self) -> None:
        from .data import atomic_write_json

        try:
            atomic_write_json(self.path(), asdict(self), indent=1)
        except WordlebotError:
            pass  # a read-only config folder must not stop play


@dataclass
class Session:
    lexicon: Lexicon
    settings: Settings = field(default_factory=Settings)
    secret: str | None = None  # play mode: the hidden word
    puzzle: int | None = None
    # The day whose answer prior the word set carries (None: today); kept when settings change.
    day: dt.date | None = None
    advisor: Advisor | None = None
    game: Game | None = None
    letters: str = ""
    colours: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.advisor is None:
            self.advisor = Advisor(self.lexicon, strategy=self.settings.strategy)
        if self.mode == "play" and self.secret is None:
            self.secret = self.random_secret()
        if self.game is None:
            self.game = self._fresh_game()

    @property
    def length(self) -> int:
        return self.lexicon.length

    @property
    def mode(self) -> str:
        return self.settings.mode

    @property
    def over(self) -> bool:
        return self.game.over

    # --- the row being typed ---------------------------------------------------------------------

    def type_letter(self, ch: str) -> None:
        if self.over:
            raise InvalidWordError("the game is over: start a new one (ctrl+n)")
        ch = ch.lower()
        if not (len(ch) == 1 and "a" <= ch <= "z"):
            raise InvalidWordError(f"{ch!r} is not a letter")
        if len(self.letters) >= self.length:
            return
        self.letters += ch
        self.colours.append(GRAY)

    def backspace(self) -> None:
        self.letters = self.letters[:-1]
        self.colours = self.colours[: len(self.letters)]

    def cycle(self, i: int) -> None:
        """Tile i of the row being typed: gray -> yellow -> green -> gray (assist mode)."""
        if self.mode != "assist":
            raise InvalidWordError("in play mode the game colours the tiles")
        if not 0 <= i < len(self.colours):
            raise InvalidWordError("type the letter first, then set its colour")
        self.colours[i] = NEXT_COLOUR[self.colours[i]]

    def use_word(self, word: str) -> None:
        """Put ``word`` (e.g. the top suggestion) in the row being typed."""
        w = word.lower()
        self.lexicon.id(w)
        self.letters = w
        self.colours = [GRAY] * len(w)

    def submit(self) -> Row:
        """Play the row being typed.  Nothing changes if the game refuses it."""
        if self.over:
            raise InvalidWordError("the game is over: start a new one (ctrl+n)")
        if len(self.letters) != self.length:
            raise InvalidWordError(f"type {self.length} letters first ({len(self.letters)} so far)")
        # Any refusal (not in the list, hard mode, impossible colours) leaves the row as typed.
        if self.mode == "play":
            row = self.game.guess(self.letters)  # the game knows the answer: it colours the row
        else:
            row = self.game.guess(self.letters, colours_to_pattern(self.colours))
        self.letters = ""
        self.colours = []
        return row

    # --- whole rows --------------------------------------------------------------------------------

    def undo(self) -> Row | Refusal | None:
        """Clear the row being typed, else take back the game's last action."""
        if self.letters:
            self.letters, self.colours = "", []
            return None
        return self.game.undo()

    def cycle_played(self, row: int, i: int) -> None:
        """Edit an earlier row's colours (assist mode): cycle tile i of row ``row`` (0-based)."""
        if self.mode != "assist":
            raise InvalidWordError("in play mode the colours come from the game")
        r = self.game.rows[row]
        cols = list(pattern_to_colours(r.pattern, self.length))
        cols[i] = NEXT_COLOUR[cols[i]]
        self.game.edit(row, r.guess, colours_to_pattern(cols))

    def new_game(self) -> None:
        self.letters, self.colours = "", []
        self.puzzle = None
        if self.mode == "play":
            self.secret = self.random_secret()
        self.game = self._fresh_game()

    def _fresh_game(self) -> Game:
        """A game with the settings' rules; in play mode it knows the secret (see ``Game``)."""
        return Game(self.lexicon, hard=self.settings.hard, max_guesses=self.settings.max_guesses,
                    matrix=self.advisor.matrix, answer=self.secret if self.mode == "play" else None)

    def random_secret(self) -> str:
        """An answer drawn from the prior (as ``wordlebot play`` draws it)."""
        return pick_answer(self.lexicon)[0]

    # --- what the panels show ------------------------------------------------------------------

    def suggestions(self, top: int = 8, game: Game | None = None):
        """The advisor's best next guesses (none once the answer is known to be off the list),
        for this session's game or a snapshot of it (``game.copy()``: what a UI hands a worker
        thread while the board may change)."""
        return self.advisor.suggest(game or self.game, top)

    def candidates(self, limit: int = 200) -> list[tuple[str, float]]:
        words = self.game.candidate_words
        probs = self.game.posterior
        order = np.argsort(-probs, kind="stable")[:limit]
        return [(words[i], float(probs[i])) for i in order.tolist()]

    def analysis(self) -> GameReport:
        """The game rated row by row (rows after an off-list answer showed itself: unrated, see
        ``analyze_game``)."""
        game = self.game
        return analyze_game(self.advisor, game.rows, answer=self.secret, hard=game.hard,
                            max_guesses=game.max_guesses)

    def share(self, style: str = "dark") -> str:
        return share_grid(self.game.rows, solved=self.game.solved, max_guesses=self.game.max_guesses,
                          hard=self.game.hard, puzzle=self.puzzle, style=style)
