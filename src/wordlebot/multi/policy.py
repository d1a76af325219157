"""What to play in a multi-board game: a one-step policy over all boards at once.

The score to minimise is the sum over boards of the guess that solves each.  A guess's cost on
one board is 1 (the guess) plus, for each colour pattern it can show there other than all
green, the pattern's probability times the guesses a part of that size still needs
(``solve_time``: a single-board estimate, exact for one and two candidates).  The policy plays:

1. a board's answer when a board has one candidate left: that board must be solved by guessing
   it, every turn it waits costs a guess, and the guess still informs the other boards (of
   several such words, the one that helps the other boards most);
2. when the guesses left are no more than the boards left, only words that can solve a board
   (any other guess loses a board for certain);
3. otherwise the guess with the lowest summed cost over the boards not solved yet; near the
   cap (at most ``ENDGAME_SLACK`` guesses more than open boards) the best few by that cost are
   also charged for the boards they would leave unfinishable in the guesses left (a dozen _A_ED
   words cannot be guessed one by one in three guesses);
4. in hard mode (a guess must keep every open board's hints), only guesses that split a board or
   can solve one (any other only spends a guess), each charged for the answer tuples after which
   no open board could ever be solved (``deadlock.py``): the usual openers lose most two-board
   games that way at the first guess.

Ties go to a word that is a candidate on more boards, then to the earlier word of the list, so
a suggestion is a function of the state alone.

Near the end (few answer tuples left) the rules and the estimate give way to a search of the rest
of the game (``endgame.py``), exact among the candidates and the estimate's best dozen words, for
either objective: the sum of the boards' solving guesses ("score") or the guesses to solve them
all ("guesses").  Before that both objectives rank by the estimate above (one for the guesses
was tried and played worse at them: see ``_estimate``).
"""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass

import numpy as np

from ..core import kernels
from ..core.feedback import all_green
from ..core.matrix import pattern_matrix, read_only
from ..core.text import json_number
from ..core.words import Lexicon
from ..policy.strategies import partition_stats
from . import deadlock, endgame, openings
from .game import MultiGame, check_objective

BITS_PER_GUESS = 4.6  # what a good guess learns in a big set (classic: 2,315 answers in 3.42 guesses)


def solve_time(n: int) -> float:
    """Guesses a board with ``n`` equally likely candidates still needs, the next one included:
    1 for one, 1.5 for two (guess one of them), then growing with log2(n)."""
    if n <= 0:
        return 0.0
    return 1.0 + (1.0 - 1.0 / n) * max(1.0, math.log2(n) / BITS_PER_GUESS)


@functools.lru_cache(maxsize=8)
def _solve_times(n_answers: int) -> np.ndarray:
    """``solve_time`` of every part size up to ``n_answers``, the kernel's lookup table (made once
    per list size, not at every move: 14,856 Python calls for the nyt set)."""
    return np.array([solve_time(n) for n in range(n_answers + 1)])


@dataclass(frozen=True)
class MultiSuggestion:
    word: str
    # What it was ranked by: searched, the objective's exact expected value from now ("score": the
    # guesses until each open board is solved, summed over them, this one included; "guesses": the
    # guesses until all are; a lost board counted endgame.LOSS_PENALTY more); otherwise the
    # one-step estimate of the former, for either objective.
    cost: float
    solves: tuple[int, ...]  # boards (1-based) where this word is a candidate
    why: str
    searched: bool = False  # cost is the exact expected value of the objective, the rest of the game searched

    def to_dict(self) -> dict[str, object]:
        """The suggestion as JSON (the web API's ``suggestions``)."""
        return {
            "word": self.word,
            "cost": json_number(self.cost),
            "solves": list(self.solves),
            "why": self.why,
            "searched": self.searched,
        }


def suggest(
    game: MultiGame, top: int = 5, matrix: np.ndarray | None = None, *, objective: str = "score", search: bool = True
) -> list[MultiSuggestion]:
    """The best guesses for the state of ``game``, best first (none once it is over, when every
    open board's answer is off the list, or when the game is ``stuck``), for
    ``objective`` ("score": the sum over boards of the guess that solves each; "guesses": the
    guesses to solve them all).  Near the end the rest of the game is searched (``endgame.py``;
    ``search=False``: the one-step estimate alone, to measure what the search adds).  A function
    of the lists, prior, rules, objective and rows alone."""
    check_objective(objective)
    if game.over or len(game.off_list) == len(game.active) or game.stuck:
        return []  # (every open board's answer off the list, or barred for good: nothing to aim at)
    if not game.rows:  # every game starts here: its ranking is kept (the first move scans most)
        lex = game.lexicon
        key = (lex.fingerprint, lex.prior.tobytes(), game.n_boards, game.hard, game.max_guesses, objective, search)
        with _openings_lock:
            hit = _openings.get(key)
        if hit is None or len(hit) < top:
            # kept on disk too (multi/openings.py): a new process reads it instead of ranking
            kept = openings.load_first_move(game, objective, search, _book_settings()) if top <= OPENING_ROWS else None
            hit = [MultiSuggestion(*row) for row in kept] if kept is not None else None
            if hit is None or len(hit) < top:
                hit = _rank(game, max(top, OPENING_ROWS), matrix, objective, search)
                openings.save_first_move(
                    game,
                    objective,
                    search,
                    _book_settings(),
                    [(r.word, r.cost, r.solves, r.why, r.searched) for r in hit[:OPENING_ROWS]],
                )
            with _openings_lock:
                _openings[key] = hit
                while len(_openings) > OPENINGS_KEPT:
                    _openings.pop(next(iter(_openings)))
        return hit[:top]
    return _rank(game, top, matrix, objective, search)


def _book_settings() -> tuple[object, ...]:
    """The constants a kept first move depends on (part of its file's key, multi/openings.py)."""
    return (
        BITS_PER_GUESS,
        OPENING_ROWS,
        ENDGAME_SLACK,
        ENDGAME_CHECKED,
        endgame.ENDGAME_TUPLES,
        endgame.EXTRA_WORDS,
        endgame.NODE_BUDGET,
        endgame.LOSS_PENALTY,
        DEADLOCK_WEIGHT,
        DEADLOCK_WEIGHT_FIRST,
        deadlock.DEADLOCK_SAMPLES,
        RISK_WORK,
        RISK_POOL_OWN,
    )


# How much of the deadlock share (multi/deadlock.py) a guess is charged as lost boards: the share
# counts only the loss it makes certain at once, but the one-step estimate does not see that a
# safe, slow guess still faces the same risk a turn later (with a guess less).  Classic hard
# Dordle, the policy over 100 seeded games (seed 0 / seed 1; mean score, games with a board lost):
# one weight throughout: 0: 14.51 / 14.92, 80 / 85 %; 0.25: 14.26 / 14.37, 75 / 77 %; 0.5:
# 14.21 / 14.64, 70 / 78 %; 1: 14.84, 84 % (seed 0); 2: 15.01, 86 % (seed 0).  The first guess
# weighed more (its doom is the largest and nothing is known yet to trade it against), then 0.25:
# first 1: 13.67 / 14.25, 68 / 75 %; first 2: 14.30, 75 % (seed 0).
DEADLOCK_WEIGHT = 0.25
DEADLOCK_WEIGHT_FIRST = 1.0
ENDGAME_SLACK = 3  # guesses beyond one per open board below which the failure risk is counted
ENDGAME_CHECKED = 24  # the best guesses by the estimate whose risk is counted


# The work the failure risk may spend on exact scans, in cells (guesses scanned times candidates
# of the part): counted, not timed, so a suggestion stays a function of its inputs.  An exact scan
# of a part costs every guess of the list times its size (nyt: 14,855 x n); a few Octordle first
# moves near the cap spent 5.6 billion cells that way (classic, 8 boards, 10 guesses: 196 s, the
# web's worker held meanwhile).  Past the budget a part is scanned with a pool of a few dozen words
# (``RiskWork.pool``), which can only find fewer parts than the whole list: the risk is then
# overstated, never understated (a player would rather take one more guess than lose a board).
RISK_WORK = 20_000_000
RISK_POOL_OWN = 48  # of a part's own words, the first this many join the small pool


class RiskWork:
    """What the failure risks of one ranking share: the exact-scan budget left, the largest
    number of parts a next guess makes of each part scanned (parts recur: every board at the
    first move, boards that saw the same colours), and the small pool for parts past the budget."""

    def __init__(self, matrix: np.ndarray, lexicon: Lexicon, pool: np.ndarray, budget: int = RISK_WORK) -> None:
        self.matrix = matrix
        self.lexicon = lexicon
        self.pool = np.unique(pool.astype(np.int64))
        self.left = budget
        self.spent = 0
        self.best: dict[bytes, int] = {}

    def most_parts(self, part: np.ndarray) -> int:
        """The most parts a next guess makes of ``part``: exactly (every guess) within the budget,
        else a lower bound (the pool and the part's first words)."""
        key = part.tobytes()
        hit = self.best.get(key)
        if hit is not None:
            return hit
        lex = self.lexicon
        cost = lex.n_guesses * part.size
        if cost <= self.left:
            self.left -= cost
            guesses = np.arange(lex.n_guesses, dtype=np.int64)
        else:
            own = lex.answer_ids[part[:RISK_POOL_OWN]].astype(np.int64)
            guesses = np.union1d(self.pool, own)
            cost = guesses.size * part.size
        self.spent += cost
        found = self.best[key] = int(kernels._most_parts(self.matrix, guesses, part, 3**lex.length))
        return found


def _failure_risk(game: MultiGame, gid: int, cands: dict[int, np.ndarray], work: RiskWork) -> float:
    """Expected boards lost after ``gid``, times the cost of a lost board.  After the guess, R
    guesses are left; each other open board needs one of them for its answer, so a board has
    B = R - (other open boards) to itself (a conservative count: those answers also inform it).
    A part of n candidates with B = 0 is lost; with B = 1 one guess finds 1 of n; with B = 2
    the best next guess finds the candidates it isolates (and itself, when it is one; within
    ``work``'s budget, else a guess of a small pool: see ``RISK_WORK``).  More room is taken as safe."""
    lex = game.lexicon
    matrix = work.matrix
    green = all_green(lex.length)
    fail = game.max_guesses + 1
    left_after = game.guesses_left - 1
    parts_of = {}
    for b, c in cands.items():
        pats = matrix[gid, c]
        order = np.argsort(pats, kind="stable")  # (a part keeps the candidates' order)
        ps = pats[order]
        cuts = np.flatnonzero(ps[1:] != ps[:-1]) + 1
        parts_of[b] = [(c[ix], int(ps[ix[0]])) for ix in np.split(order, cuts)]
    still_open = [b for b in cands if any(p != green for _, p in parts_of[b])]
    risk = 0.0
    for b in still_open:
        budget = left_after - (len(still_open) - 1)
        w = lex.prior[cands[b]]
        mass_all = w.sum()
        for part, p in parts_of[b]:
            if p == green:
                continue
            n = part.size
            share = lex.prior[part].sum() / mass_all
            if budget <= 0:
                lost = 1.0
            elif budget == 1:
                lost = 1.0 - 1.0 / n
            elif budget == 2 and n > 2:
                # the next guess finds one word of each part it makes (its own, when it is one of
                # them; a part of one with the guess after; one of a bigger part by luck)
                lost = 1.0 - min(1.0, work.most_parts(part) / n)
            else:
                lost = 0.0
            risk += share * lost * fail
    return risk


DEADLOCK_CHUNK = 512  # words whose deadlock share is measured at a time (see _charge_deadlocks)


def _charge_deadlocks(
    game: MultiGame, pool: np.ndarray, total: np.ndarray, m: np.ndarray, keep: int
) -> tuple[np.ndarray, np.ndarray]:
    """``total`` weighed against the loss of every board in the deadlock share of each word
    (multi/deadlock.py), and the shares.  Exact for the ``keep`` best words, without measuring
    every word in full: a charged total lies between the estimate and the loss, so the words are
    measured in the order of the smaller of the two, and once it exceeds the ``keep``-th best
    charged total no word left can come into the first ``keep`` (each stays at that bound, behind
    them).  Within a word, its tuples are counted only until the share so far charges it past
    that total (``doomed_share``'s ``stop_at``): its share is then a lower bound and its charged
    total too, both still behind the first ``keep``.  On nyt a hard-mode first move measured every
    tuple of all 14,855 words (2.4 s of a 5 s Octordle suggestion); the first ``keep`` are the same."""
    active = [b for b in game.active if b not in game.off_list]
    lost = len(active) * (game.max_guesses + 1 - game.guesses_used)
    weight = DEADLOCK_WEIGHT_FIRST if not game.rows else DEADLOCK_WEIGHT
    lower = np.minimum(total, lost)
    by_bound = np.lexsort((pool, lower))
    samples = deadlock.sample_tuples(game, game.active)  # (once: every chunk on the same tuples)
    n = samples.shape[0]
    doomed = np.zeros(pool.size)
    charged_total = lower.copy()
    done = np.zeros(pool.size, np.bool_)
    for start in range(0, pool.size, DEADLOCK_CHUNK):
        idx = by_bound[start : start + DEADLOCK_CHUNK]
        stop_at = np.full(idx.size, n + 1, np.int64)
        if done.sum() >= keep:
            kth = np.round(np.partition(charged_total[done], keep - 1)[keep - 1], 9)
            if np.round(lower[idx[0]], 9) > kth:
                break
            stop_at = _counts_past(total[idx], lost, weight, n, kth)
        share = deadlock.doomed_share(game, pool[idx], m, samples, stop_at)
        doomed[idx] = share
        charged_total[idx] = _charged(total[idx], share, weight, lost)
        done[idx] = True
    return charged_total, doomed


def _counts_past(total: np.ndarray, lost: float, weight: float, n: int, kth: float) -> np.ndarray:
    """For each estimate of ``total``, the fewest lost tuples of ``n`` whose share charges it past
    ``kth`` (rounded as the ranking compares), or n + 1 where no count does: the charged total
    of every count, tried one by one (n + 1 values a word; it is not monotone where the
    estimate exceeds the loss)."""
    shares = (np.arange(n + 1) / n)[None, :]
    past = np.round(_charged(total[:, None], shares, weight, lost), 9) > kth
    past = np.minimum.accumulate(past[:, ::-1], axis=1)[:, ::-1]  # (past from there on, each count)
    return np.where(past.any(axis=1), past.argmax(axis=1), n + 1).astype(np.int64)


def _charged(total: np.ndarray, share: np.ndarray, weight: float, lost: float) -> np.ndarray:
    """An estimate weighed against the loss of every board, in the deadlock share's proportion."""
    charged = np.minimum(1.0, weight * share)
    return np.asarray((1.0 - charged) * total + charged * lost)


OPENING_ROWS = 10  # first-move rows kept (a shorter table is their first rows)
OPENINGS_KEPT = 16
_openings: dict[tuple[object, ...], list[MultiSuggestion]] = {}
_openings_lock = threading.Lock()


def _estimate(game: MultiGame, pool: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The one-step estimate of every word of ``pool``: its expected cost summed over the open
    boards.  It serves both objectives: an estimate of the guesses to finish (one more guess,
    the expected boards left open, the expected largest solve time of the boards), tried in a
    kernel of its own, played worse at that very objective than this one did
    (classic Quordle, 200 seeded games with the endgame search: 6.98 guesses on average
    against 6.94, and 20.39 against 20.23 in score), so the objective is left to the search."""
    lex = game.lexicon
    times = _solve_times(lex.n_answers)
    total = np.zeros(pool.size)
    # Boards with the same candidates cost the same: costed once (every board at the first move,
    # and boards that saw the same colours later; Octordle's first move 0.31 s -> 0.04 s).
    costs: dict[bytes, np.ndarray] = {}
    for b in game.active:
        c = game.candidates(b).astype(np.int64)
        if c.size == 0:  # an answer off the list (MultiGame.off_list): nothing to estimate
            continue
        part = costs.get(c.tobytes())
        if part is None:
            w = lex.prior[c]
            part = costs[c.tobytes()] = np.empty(pool.size)
            kernels._board_costs(m, pool, c, w / w.sum(), all_green(lex.length), 3**lex.length, times, part)
        total += part
    return total


def _rank(game: MultiGame, top: int, matrix: np.ndarray | None, objective: str, search: bool) -> list[MultiSuggestion]:
    lex = game.lexicon
    m = read_only(matrix) if matrix is not None else pattern_matrix(lex)
    active = [b for b in game.active if b not in game.off_list]
    cands = {b: game.candidates(b) for b in active}
    searched = None
    doomed = None
    if search:
        searched = endgame.search(game, m, objective, lambda words: _estimate(game, words, m), top)
    if searched is not None:
        pool = np.array([g for g, _ in searched], np.int64)
        total = np.array([v for _, v in searched])
        rule = ""
    else:
        singles = [b for b in active if cands[b].size == 1]
        pool = np.arange(lex.n_guesses, dtype=np.int64)
        if singles:
            pool = np.unique(lex.answer_ids[np.concatenate([cands[b] for b in singles])]).astype(np.int64)
            rule = "solves board {boards}, whose answer is known"
        elif game.guesses_left <= len(active):
            pool = np.unique(lex.answer_ids[np.concatenate([cands[b] for b in active])]).astype(np.int64)
            rule = "can solve board {boards}: no guess may be spent on learning alone"
        else:
            rule = ""
        if game.hard:
            legal = game.legal_mask()  # (an off-list board's hints bind too)
            pool = pool[legal[pool]]
            if pool.size == 0:  # the answers the rule above wants are barred by another board's hints
                pool = np.flatnonzero(legal).astype(np.int64)  # (never empty: the last guess keeps them all)
                rule = ""
        total = _estimate(game, pool, m)
        if game.hard and len(active) > 1:
            # A guess that splits no board and can solve none only spends a guess (and in hard
            # mode the hints never loosen): never better than the best that does something.
            useful = np.zeros(pool.size, np.bool_)
            for b in active:  # (a word found useful on one board is not scanned on the next)
                rest = np.flatnonzero(~useful)
                if not rest.size:
                    break
                stats = partition_stats(m, pool[rest], cands[b], None, lex.length)
                useful[rest] = (stats.parts > 1) | (stats.p_answer > 0)
            if useful.any():
                pool, total = pool[useful], total[useful]
            # A guess after which no open board's answer keeps all their hints loses them all
            # (multi/deadlock.py): its estimate is weighed against that loss.
            total, doomed = _charge_deadlocks(game, pool, total, m, max(top, ENDGAME_CHECKED))
    on_board = np.zeros(pool.size, np.int64)
    for b in active:
        on_board += np.isin(lex.answer_of_guess[pool], cands[b])
    order = np.lexsort((pool, -on_board, np.round(total, 9)))
    if searched is None and not singles and game.guesses_left <= len(active) + ENDGAME_SLACK:
        # Near the cap the estimate above does not see a board that cannot be finished in time:
        # the best few by it are charged for the boards they would leave unfinishable.
        head = order[:ENDGAME_CHECKED]
        total = total.copy()
        work = RiskWork(m, lex, pool[head])
        for k in head.tolist():
            total[k] += _failure_risk(game, int(pool[k]), cands, work)
        order = np.concatenate(
            [head[np.lexsort((pool[head], -on_board[head], np.round(total[head], 9)))], order[ENDGAME_CHECKED:]]
        )
    order = order[:top]
    out = []
    for k in order.tolist():
        gid = int(pool[k])
        boards = tuple(b + 1 for b in active if lex.answer_of_guess[gid] in set(cands[b].tolist()))
        named = ", ".join(map(str, boards))
        known = [b + 1 for b in active if cands[b].size == 1 and lex.answer_of_guess[gid] == cands[b][0]]
        if rule:
            why = rule.format(boards=named)
        elif known:
            why = f"solves board {known[0]}, whose answer is known"
        elif boards:
            why = f"could be the answer on board{'s' if len(boards) > 1 else ''} {named}" + (
                "; narrows the others" if len(boards) < len(active) else ""
            )
        else:
            why = f"narrows all {len(active)} open boards"
        if searched is not None:
            why += "; the rest of the game searched"
        elif doomed is not None and doomed[k] > 0:
            # (the share of likely answer tuples after which no open board can ever be solved)
            why += f"; hard mode: loses every board in {doomed[k]:.0%} of likely cases"
        out.append(MultiSuggestion(lex.guesses[gid], float(total[k]), boards, why, searched is not None))
    return out
