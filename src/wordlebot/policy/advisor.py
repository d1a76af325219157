"""The Advisor: what to play next in a game, with the figures a suggestion table shows.

It is the one object the shells (CLI, TUI, web) ask for suggestions, so the choice of strategy
lives here and nowhere else.  The default strategy is the near-optimal tree search (``search``);
``exact`` searches every guess at every node; the greedy rankers are also available.  The first
move and the replies to the best first guess come from the opening book, computed once (the
replies one at a time, as games reach them).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.game import Game
from ..core.matrix import pattern_matrix, read_only
from ..core.words import Lexicon
from .strategies import STRATEGIES, Ranked, Ranking, partition_stats, rank

if TYPE_CHECKING:
    from ..core.game import HardConstraints
    from ..search.openings import Book
    from ..search.openings import Row as BookRow
    from ..search.tree_search import TreeSearch

log = logging.getLogger(__name__)

SEARCH_STRATEGIES = ("search", "exact")
ALL_STRATEGIES = SEARCH_STRATEGIES + STRATEGIES
DEFAULT_STRATEGY = "search"

# What the play policy minimises (the player's goal).  In play an answer not found within the
# guess cap costs a failure cost F (per unit of weight, on top of the guesses it used) instead of
# making a strategy inadmissible: the search always has an answer, and a node's value is
# G + F * L, G the guesses (weighted), L the weight of the answers lost.
#
# streak (the default): first the smallest chance of losing, then the fewest guesses.  F is
# large enough to make that order lexicographic for any loss chance a player could care about:
# two strategies' G differ by less than (guesses left - 1) * W at a node of weight W (every
# answer needs between one guess and all of them), so a difference in the chance of losing
# L / W larger than (guesses left - 1) / F ~ 5 / 2^20 ~ 5e-6 (1 game in 200,000: 550 years of
# daily play) always decides, whatever it costs in guesses; only below that can a guess saved
# on average outweigh it.  Precision: values reach (guesses left + F) * W; doubles hold them to
# ~2.2e-16 relative, i.e. 2.3e-10 * W, below the weighted search's tie margin (1e-9, W <= 1), and
# F = 2^20 keeps unit-weight values whole numbers (below 2^53 by far: 2^20 * 14,855 ~ 1.6e10),
# from which L reads back exactly (G < F: 6 * 14,855 < 2^20).  On the weighted nyt set the
# lightest answers weigh ~1e-11: losing one costs ~1e-5 guesses of the average, so among
# strategies of equal loss the average still decides.
#
# average: the fewest guesses on average, a lost game counted as ten guesses more (F = 10): the
# old default, an option for players who do not keep a streak.
GOALS = ("streak", "average")
DEFAULT_GOAL = "streak"
FAIL_COSTS = {"streak": 2.0**20, "average": 10.0}
GOAL_TEXT = {  # each fits an 80-column line after "goal: "
    "streak": "streak (the smallest chance of losing first, then the fewest guesses)",
    "average": "average (the fewest guesses on average, a lost game counted as ten more)",
}
# Work budget of one suggestion, in the search's scan units (search/kernels.py's M_WORK: node visits,
# guesses scanned, answers partitioned; ~3-5 ns each): under 100 ms.  The search deepens level
# by level and answers with the deepest level that finished; small nodes always finish, big
# early ones stop at the one-guess look-ahead.  Counting work rather than time keeps
# suggestions reproducible on any machine.
PLAY_WORK_BUDGET = 20_000_000
# Suggestions are ranked at least this wide whatever the caller shows, so that the budget's
# verdict (and with it the rows) does not change with the number of rows asked for: top 3
# is the first three rows of top 10.
PLAY_TOP = 10
RANKINGS_KEPT = 512  # budgeted rankings remembered per Advisor (a few KB each)
# Levels tried: one guess ahead (cheap, always finishes), then to the end.  (Intermediate
# look-aheads were measured to cost as much as a full search on the nodes that need a budget:
# estimates at the frontier prune worse than exact values.)
LEVELS = (1, 0)  # 0: to the end
# A node with more answers than this (in normal mode) is searched with a pool of guesses: the
# best POOL_GUESSES by the letter-based entropy estimate (one pass over the guesses) and the
# POOL_CANDIDATES likeliest answers.  A scan of every valid word against 1,800 weighted answers
# costs ~80 ms; against the pool, a tenth of that.
POOL_ABOVE = 300
POOL_GUESSES = 1500
POOL_CANDIDATES = 300
# The opening book is computed once per word list and rules: its first move and, each when
# first needed, its replies are searched to the end, with no budget and no pool (seconds, once).
# On a weighted set the prior changes every day (and with it the book), and a full search of
# every valid word as a possible answer would take hours: the book holds the first move only,
# chosen by a one-guess look-ahead (a few seconds), and the replies are searched in play.  The
# wordfreq sets (any length, not the official lists) choose their first move the same way: their
# lists are made up from word frequencies, no optimum is published for them, and the full search
# of the 4-letter root took 18 s of the first suggestion (the look-ahead: under a second).
BOOK_ROOT_DEPTH_WEIGHTED = 1
# The book is kept for the standard cap of six guesses (normal and hard mode).  Other caps are
# rare: their first two moves are searched within the play budget like any node (a fraction of a
# second to a few seconds at the root) instead of spending a minute on a book nobody reuses.
BOOK_GUESSES = 6


@dataclass(frozen=True)
class NodeRanking:
    """The search's ranking of a node, (guess id, value) best first, and how it was measured:
    ``lookahead`` guesses searched before the values are estimated (0: searched to the end),
    over the guesses of ``pool`` only when one is given (big nodes).  ``losses``: for each
    pair, the weight of the answers its strategy loses (``TreeSearch.loss``), so that the value
    G + F * L can be shown as what it is made of."""

    pairs: list[tuple[int, float]]
    lookahead: int = 0
    pool: np.ndarray | None = field(default=None, repr=False)
    losses: list[float] = field(default_factory=list)

    def top(self, n: int) -> NodeRanking:
        return NodeRanking(self.pairs[:n], self.lookahead, self.pool, self.losses[:n])


@dataclass(frozen=True)
class Prospect:
    """What a guess played now (and the search's strategy after it) leads to, under the prior:
    the two figures a player reads, never mixed into one."""

    expected: float | None  # average guesses to finish when solved, this one included (None: never solved)
    lose: float  # chance of not solving within the guess cap (0 to 1)
    lookahead: int = 0  # as NodeRanking.lookahead: 0 searched to the end, else an estimate past it

    @property
    def solve(self) -> float:
        return 1.0 - self.lose


@dataclass
class Advisor:
    lexicon: Lexicon
    strategy: str = DEFAULT_STRATEGY
    guess_space: str = "all"
    matrix: np.ndarray | None = None
    # what the search plays for (see GOALS): the streak first, or the average
    goal: str = DEFAULT_GOAL
    # answers x guesses for the search; None: the cached transpose (given when the caller holds
    # the patterns already, e.g. sliced from a bigger list, so nothing is built or cached again)
    matrix_t: np.ndarray | None = field(default=None, repr=False)
    k: int = 12
    kc: int = 6
    threads: int = 2
    use_book: bool = True
    # Transposition-table memory of each TreeSearch (None: the search's default, generous for
    # the book's long searches); a server with many Advisors gives each a little.
    search_memory_mb: float | None = None
    # TreeSearches (one per rule combination) kept, least recently used dropped (None: all).
    searches_kept: int | None = None
    # Words refused for the whole session (``reject``); a game's own refusals are in
    # ``game.refused``, undone with the game.
    rejected: set[int] = field(default_factory=set)
    _searches: OrderedDict[tuple[bool, int], TreeSearch] = field(default_factory=OrderedDict, repr=False)
    _books: dict[tuple[bool, int], Book | None] = field(default_factory=dict, repr=False)
    _opening: dict[tuple[str, bool, tuple[int, ...]], Ranking] = field(default_factory=dict, repr=False)
    # Budgeted rankings already made, by node (see rank_node): a ranking is a function of its
    # node, so keeping it changes no answer; it makes asking again (undo, the analysis of a
    # finished game, a page reload) instant.
    _ranked: OrderedDict[tuple[object, ...], NodeRanking] = field(default_factory=OrderedDict, repr=False)
    # One search at a time: the searches' scratch space and depth limit are shared state, and
    # shells (the TUI's workers, the web server's threads) call from threads.
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def __post_init__(self) -> None:
        if self.strategy not in ALL_STRATEGIES:
            raise ValueError(f"unknown strategy {self.strategy!r}; choose one of {', '.join(ALL_STRATEGIES)}")
        if self.goal not in GOALS:
            raise ValueError(f"unknown goal {self.goal!r}; choose one of {', '.join(GOALS)}")
        # a caller's matrices as the kernels are compiled for them (see read_only)
        self.matrix = pattern_matrix(self.lexicon) if self.matrix is None else read_only(self.matrix)
        if self.matrix_t is not None:
            self.matrix_t = read_only(self.matrix_t)

    @property
    def searching(self) -> bool:
        return self.strategy in SEARCH_STRATEGIES

    def new_game(self, *, hard: bool = False, max_guesses: int = 6) -> Game:
        return Game(self.lexicon, hard=hard, max_guesses=max_guesses, matrix=self.matrix)

    # --- suggestions ---------------------------------------------------------------------------

    def suggest(self, game: Game, top: int = 10) -> list[Ranked]:
        """The best guesses for the game's state, best first (empty once it is over).

        A function of the word lists, prior, rules, rows and settings alone: the same rows
        whenever and however often it is asked (see ``TreeSearch.isolated``)."""
        if game.over or game.off_list:  # off_list: the rows showed the answer is not in the list
            return []
        with self._lock:
            if self.searching:
                rows = self._search_rows(game, top)
                if rows:
                    return rows
            greedy: list[Ranked] = self._greedy(game).rows(self.lexicon, top)
            return greedy

    def best(self, game: Game) -> str:
        return self.suggest(game, 1)[0].word

    def reject(self, word: str) -> None:
        """Never suggest ``word`` in this session (a game's own refusals: ``game.refuse``)."""
        self.rejected.add(self.lexicon.id(word))

    def _excluded(self, game: Game) -> set[int]:
        return self.rejected | game.refused

    # --- greedy --------------------------------------------------------------------------------

    def _greedy(self, game: Game) -> Ranking:
        hard_flags = game.constraints.mask(self.lexicon.guess_codes)
        legal = hard_flags.copy() if game.hard else np.ones(self.lexicon.n_guesses, np.bool_)
        excluded = self._excluded(game)
        if excluded:
            legal[list(excluded)] = False
            if not legal.any():
                legal[:] = True
        strategy = self.strategy if self.strategy in STRATEGIES else "entropy"
        key = (strategy, game.hard, tuple(sorted(excluded)))
        if not game.rows and key in self._opening:
            return self._opening[key]
        r = rank(
            self.lexicon,
            game.matrix,
            game.candidates,
            strategy=strategy,
            guess_space="candidates" if self.guess_space == "candidates" else "all",
            legal=legal,
            hard_legal=hard_flags,
        )
        if not game.rows:
            self._opening[key] = r
        return r

    # --- tree search ---------------------------------------------------------------------------

    def search_for(self, hard: bool, max_guesses: int) -> TreeSearch:
        """The TreeSearch for these rules (kept, so its table serves the whole session)."""
        from ..search.tree_search import TreeSearch

        key = (hard, max_guesses)
        if key in self._searches:
            self._searches.move_to_end(key)
            return self._searches[key]
        weighted = self.lexicon.weighted
        memory: dict[str, Any] = {} if self.search_memory_mb is None else {"memory_mb": self.search_memory_mb}
        self._searches[key] = TreeSearch(
            self.lexicon,
            k=None if self.strategy == "exact" else self.k,
            kc=self.kc,
            hard=hard,
            max_guesses=max_guesses,
            weights="prior" if weighted else None,
            threads=self.threads,
            fail_cost=FAIL_COSTS[self.goal],
            guess_space=self.guess_space,
            matrix=self.matrix,
            matrix_t=self.matrix_t,
            **memory,
        )
        while self.searches_kept is not None and len(self._searches) > self.searches_kept:
            self._searches.popitem(last=False)
        return self._searches[key]

    def book(self, hard: bool = False, max_guesses: int = 6, *, build: bool = True) -> Book | None:
        """The opening book for these rules (built on first use, then read from the cache)."""
        from ..search.openings import get_book

        key = (hard, max_guesses)
        if key not in self._books or (self._books[key] is None and build):
            search = self.search_for(hard, max_guesses)
            self._books[key] = get_book(search, build=build, rank=self._rank_for_book, tag=self._policy_tag())
        return self._books[key]

    def _book_reply(self, hard: bool, max_guesses: int, pattern: int) -> list[BookRow] | None:
        """The book's ranking of the reply to ``pattern`` after its first guess (computed and
        kept on first use), or None when replies are not booked: on a weighted set the prior
        changes every day and its replies are searched in play instead."""
        from ..search.openings import book_reply

        book = self._books.get((hard, max_guesses))
        if book is None or self.lexicon.weighted:
            return None
        return book_reply(
            self.search_for(hard, max_guesses), book, pattern, rank=self._rank_for_book, tag=self._policy_tag()
        )

    def has_book(self, max_guesses: int) -> bool:
        """Whether the first two moves under this cap come from a book, in normal and hard mode
        alike (see BOOK_GUESSES)."""
        return self.searching and self.use_book and max_guesses == BOOK_GUESSES

    def books(self) -> dict[tuple[bool, int], Book | None]:
        """The opening books computed or read so far, by (hard, max_guesses)."""
        return {k: b for k, b in self._books.items() if b is not None}

    def use_books(self, books: dict[tuple[bool, int], Book | None]) -> None:
        """Take opening books computed by another Advisor of the same word set, strategy and
        settings (a server prepares them once and shares them with every Advisor it serves with)."""
        self._books.update(books)

    def needs_book(self, game: Game) -> bool:
        """True when the next suggestion would first have to compute the opening book's first
        move (seconds, once per word list and rules) or the reply it has reached (up to seconds,
        once per reply): a shell can say so meanwhile (and call ``prepare_book``)."""
        if len(game.rows) > 1 or not self.has_book(game.max_guesses):
            return False
        key = (game.hard, game.max_guesses)
        if not game.rows:
            return self._books.get(key) is None and not self.book_file(game.hard, game.max_guesses).exists()
        return self._pending_reply(game) is not None

    def _pending_reply(self, game: Game) -> int | None:
        """The pattern of the game's one row when it is a book reply not computed yet."""
        if self.lexicon.weighted or len(game.rows) != 1:
            return None
        book = self.book(game.hard, game.max_guesses, build=False)
        row = game.rows[0]
        if book is None or not book.first or row.guess != book.first[0][0]:
            return None
        with book.lock:
            return None if row.pattern in book.second else row.pattern

    def prepare_book(self, game: Game) -> None:
        """Compute now what of the opening book the next suggestion for ``game`` needs."""
        with self._lock:
            if not self.has_book(game.max_guesses) or len(game.rows) > 1:
                return
            self.book(game.hard, game.max_guesses)
            pattern = self._pending_reply(game)
            if pattern is not None:
                self._book_reply(game.hard, game.max_guesses, pattern)

    def complete_book(self, hard: bool = False, max_guesses: int = 6, stop: Callable[[], bool] | None = None) -> None:
        """Every reply of the book now (a server does it in the background, so that no request
        waits for one); nothing on a weighted set, whose replies are searched in play.
        ``stop() -> True`` ends it early (a server closing)."""
        from ..search.openings import book_all_replies

        if self.lexicon.weighted or not self.has_book(max_guesses):
            return
        with self._lock:
            book = self.book(hard, max_guesses)
            if book is not None:
                book_all_replies(
                    self.search_for(hard, max_guesses),
                    book,
                    rank=self._rank_for_book,
                    tag=self._policy_tag(),
                    stop=stop,
                )

    def book_file(self, hard: bool = False, max_guesses: int = 6) -> Path:
        """Where the opening book for these rules is kept."""
        from ..search.openings import book_path

        return book_path(self.search_for(hard, max_guesses), tag=self._policy_tag())

    def _policy_tag(self) -> str:
        return repr((self.strategy, LEVELS, BOOK_ROOT_DEPTH_WEIGHTED, self._book_root_depth, 3, self.goal))

    def rank_node(
        self,
        search: TreeSearch,
        H: np.ndarray,
        rows: int,
        constraints: HardConstraints | None,
        top: int,
        for_book: bool = False,
    ) -> NodeRanking:
        """The search's ranking of a node under the play policy: the exact strategy searches to
        the end; the near-optimal one deepens level by level within the work budget and keeps
        the deepest level that finished.  ``for_book``: no budget and every guess at big nodes
        too (the opening book is computed once, so it can afford the full search).

        Budgeted rankings run isolated (``TreeSearch.isolated``): on tables emptied first and
        with work shared out statically, so the work counted, the level that finishes and the
        rows are a function of the node alone, not of earlier searches or thread timing."""
        from ..search.tree_search import BudgetExceeded

        if self.strategy == "exact":
            search.set_depth(None)
            pairs = search.rank(H, rows=rows, constraints=constraints, top=top)
            return NodeRanking(pairs, 0, None, self._losses(search, H, rows, constraints, pairs, None, 0))
        budget = None if for_book else PLAY_WORK_BUDGET
        width = top if for_book else max(top, PLAY_TOP)
        key = None
        if not for_book:
            cons = (
                b""
                if constraints is None
                else constraints.green_at.tobytes() + constraints.min_count.astype(np.int64).tobytes()
            )
            key = (search.hard, search.max_guesses, rows, width, H.tobytes(), cons)
            if key in self._ranked:
                self._ranked.move_to_end(key)
                hit: NodeRanking = self._ranked[key].top(top)
                return hit
        pool = self.guess_pool(H) if (not for_book and H.size > POOL_ABOVE and not search.hard) else None
        result: list[tuple[int, float]] | None = None
        level_done = LEVELS[0]
        spent = 0
        with contextlib.nullcontext() if for_book else search.isolated():
            for level in LEVELS:
                search.set_depth(level or None)
                left = None if (budget is None or result is None) else budget - spent
                if left is not None and left <= 0:
                    break
                before = search.work_done
                try:
                    with search.budget(left):
                        result = search.rank(H, rows=rows, constraints=constraints, top=width, pool=pool)
                    level_done = level
                except BudgetExceeded:
                    break
                finally:
                    spent += search.work_done - before
                    search.set_depth(None)
            # on the tables the ranking just filled (the budget's verdict is in: this is not
            # counted against it)
            losses = self._losses(search, H, rows, constraints, result or [], pool, level_done)
        ranking = NodeRanking(result or [], level_done, pool, losses)
        if key is not None:
            self._ranked[key] = ranking
            while len(self._ranked) > RANKINGS_KEPT:
                self._ranked.popitem(last=False)
        return ranking.top(top)

    @staticmethod
    def _losses(
        search: TreeSearch,
        H: np.ndarray,
        rows: int,
        constraints: HardConstraints | None,
        pairs: list[tuple[int, float]],
        pool: np.ndarray | None,
        lookahead: int,
    ) -> list[float]:
        """The weight each ranked guess's strategy loses (see ``TreeSearch.loss``)."""
        return [search.loss(H, rows, constraints, guess=g, value=v, pool=pool, lookahead=lookahead) for g, v in pairs]

    def guess_pool(self, H: np.ndarray) -> np.ndarray:
        """Guess ids worth searching at a big node (see POOL_ABOVE)."""
        from .strategies import letter_scores

        lex = self.lexicon
        w = lex.prior[H]
        _, approx = letter_scores(lex, np.arange(lex.n_guesses), H, w)
        best = np.argsort(-approx, kind="stable")[:POOL_GUESSES]
        likely = lex.answer_ids[H[np.argsort(-w, kind="stable")[:POOL_CANDIDATES]]]
        return np.union1d(best, likely).astype(np.int32)

    @property
    def _book_root_depth(self) -> int:
        """Look-ahead of the book's first move (0: to the end); see BOOK_ROOT_DEPTH_WEIGHTED."""
        estimated = self.lexicon.weighted or not self.lexicon.official
        return BOOK_ROOT_DEPTH_WEIGHTED if estimated and self.strategy != "exact" else 0

    def _rank_for_book(
        self, search: TreeSearch, H: np.ndarray, rows: int, constraints: HardConstraints | None, top: int
    ) -> list[tuple[int, float, float]]:
        if H.size == self.lexicon.n_answers and self._book_root_depth:
            depth = self._book_root_depth
            search.set_depth(depth)
            try:
                pairs = search.rank(H, rows=rows, constraints=constraints, top=top)
            finally:
                search.set_depth(None)
            ranking = NodeRanking(pairs, depth, None, self._losses(search, H, rows, constraints, pairs, None, depth))
        else:
            ranking = self.rank_node(search, H, rows, constraints, top, for_book=True)
        return [(g, v, x) for (g, v), x in zip(ranking.pairs, ranking.losses)]

    def search_pairs(
        self,
        H: np.ndarray,
        history: list[tuple[int, int]],
        constraints: HardConstraints | None,
        *,
        hard: bool,
        max_guesses: int,
        top: int = PLAY_TOP,
    ) -> NodeRanking:
        """The ranking of the node reached by ``history`` ((guess id, pattern) rows): from the
        opening book for the first two moves, else searched."""
        search = self.search_for(hard, max_guesses)
        # a weighted set books no replies: after one row its book is not needed (nor built)
        if (not history or not self.lexicon.weighted) and len(history) <= 1 and self.has_book(max_guesses):
            book = self.book(hard, max_guesses)
            if book and not history:
                return self._from_book(book.first, self._book_root_depth).top(top)
            if history and book and book.first and self.lexicon.guesses[history[0][0]] == book.first[0][0]:
                reply = self._book_reply(hard, max_guesses, history[0][1])
                if reply is not None:
                    return self._from_book(reply, 0).top(top)
        return self.rank_node(search, H, len(history), constraints if hard else None, top)

    def _from_book(self, rows: list[BookRow], lookahead: int) -> NodeRanking:
        return NodeRanking([(self.lexicon.id(w), v) for w, v, _ in rows], lookahead, None, [x for _, _, x in rows])

    def _ranking(self, game: Game, top: int = PLAY_TOP) -> NodeRanking:
        """The ranking the suggestions and compare both read: wide enough to show ``top`` rows
        once the words refused in this game or session are left out.

        Its first rows never depend on ``top``: they are the PLAY_TOP-wide ranking's (a wider
        search spends the budget differently and could reorder them); more rows asked for are
        the wider ranking's others, after them."""
        n_excluded = len(self._excluded(game))

        def ranked(width: int) -> NodeRanking:
            return self.search_pairs(
                game.candidates,
                game.row_ids,
                game.constraints,
                hard=game.hard,
                max_guesses=game.max_guesses,
                top=width + n_excluded,
            )

        base = ranked(PLAY_TOP)
        if top <= PLAY_TOP:
            return base
        seen = {g for g, _ in base.pairs}
        wide = ranked(top)
        more = [(p, x) for p, x in zip(wide.pairs, wide.losses) if p[0] not in seen]
        return NodeRanking(
            base.pairs + [p for p, _ in more], base.lookahead, base.pool, base.losses + [x for _, x in more]
        )

    def _search_rows(self, game: Game, top: int) -> list[Ranked]:
        excluded = self._excluded(game)
        ranking = self._ranking(game, top)
        rows = [(g, v, x) for (g, v), x in zip(ranking.pairs, ranking.losses) if g not in excluded and g >= 0]
        if not rows:
            return []
        return self._describe(game, rows[:top], self.search_for(game.hard, game.max_guesses), ranking.lookahead)

    def prospect(
        self, search: TreeSearch, H: np.ndarray, rows: int, value: float, lost: float, lookahead: int = 0
    ) -> Prospect:
        """A searched value G + F * L at a node (answers ``H`` after ``rows`` guesses) as the
        figures a player reads: the chance of losing L / W, and the guesses when solved, those
        of the answers solved only (a lost answer used every guess left: G counts them)."""
        W = float(search.w[H].sum())
        left = search.max_guesses - rows
        lost = min(max(lost, 0.0), W)
        guesses = value - search.fail_cost * lost if lost > 0 else value
        solved = W - lost
        # an answer lost weighs at least the lightest: less than a millionth of that is rounding
        if solved <= 1e-6 * float(search.w[H].min()):
            return Prospect(None, 1.0, lookahead)
        expected = (guesses - left * lost) / solved
        return Prospect(min(max(expected, 1.0), float(left)), lost / W, lookahead)

    def compare(self, game: Game, word: str) -> tuple[str, Prospect, Prospect]:
        """(the search's best guess, its outcome, the outcome of ``word``) at the game's state,
        both measured by one procedure: the ranking the suggestions come from, and for a word
        outside it, the same search of that one guess at the same look-ahead, over the same
        pool."""
        with self._lock:
            return self._compare(game, word)

    def _compare(self, game: Game, word: str) -> tuple[str, Prospect, Prospect]:
        gid = self.lexicon.id(word)
        search = self.search_for(game.hard, game.max_guesses)
        H = game.candidates
        rows = len(game.rows)
        ranking = self._ranking(game)
        best_g, best_v = ranking.pairs[0]
        values = {g: (v, x) for (g, v), x in zip(ranking.pairs, ranking.losses)}
        cons = game.constraints if game.hard else None
        if gid in values:
            mine, lost = values[gid]
        else:
            search.set_depth(ranking.lookahead or None)
            try:
                mine = search.value_of_guess(gid, H, rows=rows, pool=ranking.pool, constraints=cons)
            finally:
                search.set_depth(None)
            lost = search.loss(H, rows, cons, guess=gid, value=mine, pool=ranking.pool, lookahead=ranking.lookahead)
        best = self.prospect(search, H, rows, best_v, values[best_g][1], ranking.lookahead)
        return self.lexicon.guesses[best_g], best, self.prospect(search, H, rows, mine, lost, ranking.lookahead)

    def _describe(
        self, game: Game, ranked: list[tuple[int, float, float]], search: TreeSearch, lookahead: int
    ) -> list[Ranked]:
        """Suggestion rows: the search's figures (the guesses when solved, the chance to lose)
        plus the partition figures."""
        H = game.candidates
        gids = np.array([g for g, _, _ in ranked], dtype=np.int64)
        prior = self.lexicon.prior[H]
        stats = partition_stats(game.matrix, gids, H, prior, self.lexicon.length)
        # the rows' words only (every guess of the list: ~10 ms of a classic suggestion)
        hard_flags = game.constraints.mask(np.ascontiguousarray(self.lexicon.guess_codes[gids]))
        rows = []
        for i, (g, v, lost) in enumerate(ranked):
            out = self.prospect(search, H, len(game.rows), v, lost, lookahead)
            rows.append(
                Ranked(
                    word=self.lexicon.guesses[g],
                    score=out.expected,
                    bits=float(stats.bits[i]),
                    expected_left=float(stats.expected_left[i]),
                    largest=int(stats.largest[i]),
                    parts=int(stats.parts[i]),
                    p_answer=float(stats.p_answer[i]),
                    can_be_answer=bool(stats.p_answer[i] > 0),
                    hard_legal=bool(hard_flags[i]),
                    expected=out.expected,
                    lose=out.lose,
                    lookahead=lookahead,
                    basis=self._basis(lookahead),
                )
            )
        return rows

    def _basis(self, lookahead: int) -> str:
        """What a searched value is: the proven optimum, the expected guesses of the searched
        strategy (the bot's own play, searched to the end), or an estimate past the look-ahead."""
        if lookahead:
            return "estimate"
        return "optimal" if self.strategy == "exact" else "searched"
