"""The Advisor: what to play next in a game, with the figures a suggestion table shows.

It is the one object the shells (CLI, TUI, web) ask for suggestions, so the choice of strategy
lives here and nowhere else.  The default strategy is the near-optimal tree search (``search``);
``exact`` searches every guess at every node; the greedy rankers are also available.  The first
move and the replies to the best first guess come from the opening book, computed once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from .game import Game
from .matrix import pattern_matrix
from .strategies import STRATEGIES, Ranked, partition_stats, rank
from .words import Lexicon

log = logging.getLogger(__name__)

SEARCH_STRATEGIES = ("search", "exact")
ALL_STRATEGIES = SEARCH_STRATEGIES + STRATEGIES
DEFAULT_STRATEGY = "search"

# In play an answer not found within the guess cap costs this many extra guesses (per unit of
# weight) instead of making a strategy inadmissible: the search then always has an answer, and
# loses a game only where no strategy can avoid it.
PLAY_FAIL_COST = 10.0
# Nodes up to this many (effective) answers are searched to the end; bigger ones (the weighted
# nyt set early in a game) look this many levels ahead and estimate beyond.
FULL_DEPTH_UP_TO = 400
BIG_NODE_DEPTH = 1


@dataclass
class Advisor:
    lexicon: Lexicon
    strategy: str = DEFAULT_STRATEGY
    guess_space: str = "all"
    matrix: np.ndarray | None = None
    k: int = 12
    kc: int = 6
    threads: int = 2
    use_book: bool = True
    # Words the game refused (not in its list): never suggested again in this session.
    rejected: set[int] = field(default_factory=set)
    _searches: dict = field(default_factory=dict, repr=False)
    _books: dict = field(default_factory=dict, repr=False)
    _opening: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.strategy not in ALL_STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}; choose one of {', '.join(ALL_STRATEGIES)}")
        if self.matrix is None:
            self.matrix = pattern_matrix(self.lexicon)

    @property
    def searching(self) -> bool:
        return self.strategy in SEARCH_STRATEGIES

    def new_game(self, *, hard: bool = False, max_guesses: int = 6) -> Game:
        return Game(self.lexicon, hard=hard, max_guesses=max_guesses, matrix=self.matrix)

    # --- suggestions ---------------------------------------------------------------------------

    def suggest(self, game: Game, top: int = 10) -> list[Ranked]:
        """The best guesses for the game's state, best first (empty once it is solved)."""
        if game.solved:
            return []
        if self.searching:
            rows = self._search_rows(game, top)
            if rows:
                return rows
        return self._greedy(game).rows(self.lexicon, top)

    def best(self, game: Game) -> str:
        return self.suggest(game, 1)[0].word

    def reject(self, word: str) -> None:
        """The game refused ``word``: stop suggesting it."""
        self.rejected.add(self.lexicon.id(word))

    # --- greedy --------------------------------------------------------------------------------

    def _greedy(self, game: Game):
        hard_flags = game.constraints.mask(self.lexicon.guess_codes)
        legal = hard_flags.copy() if game.hard else np.ones(self.lexicon.n_guesses, np.bool_)
        if self.rejected:
            legal[list(self.rejected)] = False
            if not legal.any():
                legal[:] = True
        strategy = self.strategy if self.strategy in STRATEGIES else "entropy"
        key = (strategy, game.hard, tuple(sorted(self.rejected)))
        if not game.rows and key in self._opening:
            return self._opening[key]
        r = rank(self.lexicon, self.matrix, game.candidates, strategy=strategy,
                 guess_space=self.guess_space, legal=legal, hard_legal=hard_flags)
        if not game.rows:
            self._opening[key] = r
        return r

    # --- tree search ---------------------------------------------------------------------------

    def search_for(self, hard: bool, max_guesses: int):
        """The TreeSearch for these rules (kept, so its table serves the whole session)."""
        from .search import TreeSearch

        key = (hard, max_guesses)
        if key not in self._searches:
            weighted = self.lexicon.weighted
            self._searches[key] = TreeSearch(
                self.lexicon, k=None if self.strategy == "exact" else self.k, kc=self.kc, hard=hard,
                max_guesses=max_guesses, weights="prior" if weighted else None, threads=self.threads,
                fail_cost=PLAY_FAIL_COST, guess_space=self.guess_space,
            )
        return self._searches[key]

    def book(self, hard: bool = False, max_guesses: int = 6, *, build: bool = True):
        """The opening book for these rules (built on first use, then read from the cache)."""
        from .openings import get_book

        key = (hard, max_guesses)
        if key not in self._books or (self._books[key] is None and build):
            search = self.search_for(hard, max_guesses)
            self._set_depth(search, np.arange(self.lexicon.n_answers))
            self._books[key] = get_book(search, build=build)
        return self._books[key]

    def needs_book(self, game: Game) -> bool:
        """True when the next suggestion would first have to compute the opening book (seconds
        to a minute, once per word list and rules): a shell can say so meanwhile."""
        if not (self.searching and self.use_book and not game.rows):
            return False
        key = (game.hard, game.max_guesses)
        if self._books.get(key) is not None:
            return False
        from .openings import book_path

        search = self.search_for(game.hard, game.max_guesses)
        self._set_depth(search, np.arange(self.lexicon.n_answers))
        return not book_path(search).exists()

    def _set_depth(self, search, H: np.ndarray) -> None:
        """Full depth for small nodes (and always for the exact search); a look-ahead limit for
        big weighted nodes, where a full search would take seconds."""
        from . import search_kernels as sk

        if self.strategy == "exact":
            return
        depth = 0
        if self.lexicon.weighted:
            w = search.w[H]
            n_eff = float(w.sum() ** 2 / np.sum(np.square(w)))
            if n_eff > FULL_DEPTH_UP_TO:
                depth = BIG_NODE_DEPTH
                if H.size == self.lexicon.n_answers:
                    depth += 1  # the opening is computed once: look one level further
        search.S[8][sk.IP_DEPTH] = depth
        search.depth = depth or None

    def _search_rows(self, game: Game, top: int) -> list[Ranked]:
        search = self.search_for(game.hard, game.max_guesses)
        H = game.candidates
        pairs: list[tuple[int, float]] | None = None
        if self.use_book and len(game.rows) <= 1:
            book = self.book(game.hard, game.max_guesses)
            if book and not game.rows:
                pairs = [(self.lexicon.id(w), v) for w, v in book.first]
            elif book and book.first and game.rows[0].guess == book.first[0][0] and game.rows[0].pattern in book.second:
                pairs = [(self.lexicon.id(w), v) for w, v in book.second[game.rows[0].pattern]]
        if pairs is None:
            self._set_depth(search, H)
            cons = game.constraints if game.hard else None
            pairs = search.rank(H, rows=len(game.rows), constraints=cons, top=top)
        pairs = [(g, v) for g, v in pairs if g not in self.rejected and g >= 0]
        if not pairs:
            return []
        return self._describe(game, pairs[:top], search)

    def _describe(self, game: Game, pairs: list[tuple[int, float]], search) -> list[Ranked]:
        """Suggestion rows: the search's expected guesses plus the partition figures."""
        H = game.candidates
        gids = np.array([g for g, _ in pairs], dtype=np.int64)
        prior = self.lexicon.prior[H]
        stats = partition_stats(self.matrix, gids, H, prior, self.lexicon.length)
        hard_flags = game.constraints.mask(self.lexicon.guess_codes)
        total_w = float(search.w[H].sum())
        rows = []
        for i, (g, v) in enumerate(pairs):
            rows.append(Ranked(
                word=self.lexicon.guesses[g], score=v / total_w, bits=float(stats.bits[i]),
                expected_left=float(stats.expected_left[i]), largest=int(stats.largest[i]),
                parts=int(stats.parts[i]), p_answer=float(stats.p_answer[i]),
                can_be_answer=bool(stats.p_answer[i] > 0), hard_legal=bool(hard_flags[g]),
                expected=v / total_w,
            ))
        return rows
