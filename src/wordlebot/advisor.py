"""The Advisor: what to play next in a game, with the figures a suggestion table shows.

It is the one object the shells (CLI, TUI, web) ask for suggestions, so the choice of strategy
lives here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .game import Game
from .matrix import pattern_matrix
from .strategies import STRATEGIES, Ranked, Ranking, rank
from .words import Lexicon


@dataclass
class Advisor:
    lexicon: Lexicon
    strategy: str = "entropy"
    guess_space: str = "all"
    matrix: np.ndarray | None = None
    # Words the game refused (not in its list): never suggested again in this session.
    rejected: set[int] = field(default_factory=set)
    _opening: dict[tuple, Ranking] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}; choose one of {', '.join(STRATEGIES)}")
        if self.matrix is None:
            self.matrix = pattern_matrix(self.lexicon)

    def new_game(self, *, hard: bool = False, max_guesses: int = 6) -> Game:
        return Game(self.lexicon, hard=hard, max_guesses=max_guesses, matrix=self.matrix)

    def ranking(self, game: Game) -> Ranking:
        """All guesses ranked for the game's current state."""
        hard_flags = game.constraints.mask(self.lexicon.guess_codes)
        legal = hard_flags.copy() if game.hard else np.ones(self.lexicon.n_guesses, np.bool_)
        if self.rejected:
            legal[list(self.rejected)] = False
            if not legal.any():
                legal[:] = True
        key = (game.hard, tuple(sorted(self.rejected)))
        if not game.rows and key in self._opening:
            return self._opening[key]
        r = rank(self.lexicon, self.matrix, game.candidates, strategy=self.strategy,
                 guess_space=self.guess_space, legal=legal, hard_legal=hard_flags)
        if not game.rows:
            self._opening[key] = r
        return r

    def suggest(self, game: Game, top: int = 10) -> list[Ranked]:
        return self.ranking(game).rows(self.lexicon, top)

    def best(self, game: Game) -> str:
        return self.lexicon.guesses[self.ranking(game).best]

    def reject(self, word: str) -> None:
        """The game refused ``word``: stop suggesting it."""
        self.rejected.add(self.lexicon.id(word))
