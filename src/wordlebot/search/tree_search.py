"""Tree search: the guess that minimises the total (or expected) number of guesses.

Two modes share one branch-and-bound recursion (``search_kernels._node``):

* **near-optimal** (default, ``k`` = 12): at each node only the k best guesses by a cheap key
  (a lower bound plus twice the expected part size), and the ``kc`` best possible answers, are
  searched, each exactly with branch and bound over the same restricted tree;
* **exact** (``k`` = None): every allowed guess at every node; admissible lower bounds (each
  answer needs a guess; a non-green part of n_i answers needs at least 2 n_i - 1 more),
  beta cut-offs, parts searched smallest first, perfect splitters detected, guesses whose
  partition repeats an earlier one skipped.  The result is proven optimal.

Both respect hard mode (exact NYT rule), a guess cap, and answer weights (unit weights give the
classic integer totals; a prior gives expected guesses).  A bounded transposition table, keyed by
the answer set and verified against it, holds (lower, upper, best guess) per node.

Ties are broken canonically (the first guess in key order among the best), so the chosen guess
and the exported tree do not depend on thread timing: the parallel root search gives the serial
result.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import TypeVar

import numpy as np

from ..core.errors import HardModeError, InvalidIdError, UnsolvableError
from ..core.feedback import all_green
from ..core.game import HardConstraints
from ..core.matrix import pattern_matrix, read_only, transposed
from ..core.pages import small_pages
from ..core.words import Lexicon, WordId
from . import kernels as sk

# A part of a node's answers: (its pattern under the node's guess, its answers, its hard-mode rules)
_Part = tuple[int, np.ndarray, HardConstraints | None]
_T = TypeVar("_T")

INF = sk.INF
Allowed = sk.Allowed  # the guesses a node may play and its hard-mode state (TreeSearch.allowed)
DEFAULT_K = 12
DEFAULT_KC = 6
DEFAULT_MEMORY_MB = 2048
# slots of the near-optimal search's cache of candidates (see sk._order_find), per worker: a
# part's candidates are read back within one guess's evaluation, so a few thousand suffice
ORDER_SLOTS = 1 << 12
MAX_PATTERNS = 3**7  # the scan keeps per-pattern tallies; longer words use the greedy rankers
# The worker arrays (Scratch fields) a scan fills per guess, copied when shares are joined.
SCAN_SLOTS = ("lbg", "key", "sig", "useful", "hitw")


@dataclass(frozen=True)
class SearchTuning:
    """The search's tuning: thresholds and costs measured on this kind of machine, which change
    how fast a search runs (and what a work budget buys), never what it returns.  One instance,
    ``DEFAULT_TUNING``, is every search's unless ``TreeSearch(tuning=...)`` is given another
    (tests lower thresholds so that small cases take the paths big ones do)."""

    # --- the threads and the table
    # A node's guess scan is shared out to the threads above this many (answer, guess) pairs: the
    # nyt root's scan (14,855 x 14,855) took 2.8 s on one core, a mid-game one tens of ms; below
    # ~1 ms of work, starting threads costs more than it saves.
    shared_scan_pairs: int = 1 << 20
    # A shared scan reads guess by guess (guesses x answers) when the node holds at least one
    # answer in this many: a cache line of a guess's row then serves several of the node's
    # answers.  Below, it reads answer by answer (the transposed matrix), where a line serves 64
    # guesses of one answer.  0: with unit weights always answer by answer, where the scan
    # counts SCAN_BLOCK guesses at once and tallies them (sk._scan_uniform) while by guess it
    # counts one guess at a time: the node's order on 2 threads (2026-12-01, one process, the
    # two alternated, medians of 6; the same order either way), classic root 31.1 -> 19.1 ms,
    # its parts after SALET of 221 / 107 answers 5.4 -> 2.2 / 3.8 -> 1.5 ms; NYT-3158 root 47.2
    # -> 33.8 ms, its parts after TARSE of 319 / 136 answers 8.6 -> 3.6 / 5.6 -> 2.0 ms (at 64
    # every classic node of 37 answers or more was read by guess).
    row_scan_density: int = 0
    # The same for weights, whose scan by answer takes SCAN_BLOCK guesses at once too (see
    # sk._scan_weighted): the nyt set, 14,855 guesses, one core (2026-11-28, load 3-4), by answer
    # / by guess: 250 answers 21 / 46 ms, 800 51 / 76, 1,500 88 / 107, 3,000 209 / 184, 6,000
    # 438 / 296.  At 64 a mid-game node of 287 answers read by guess: its order took 57 ms.
    row_scan_density_weighted: int = 6
    # A part of a first guess with this many answers is itself shared out to the threads (see
    # TreeSearch._split_parts); smaller ones are whole tasks.  The parts that hold most of a
    # search have ~110 answers (classic SALET, nyt-2309 TARSE); at 64 the extra tasks cost
    # classic 10 %.
    split_part_min: int = 100
    # The guesses a big node's threads evaluate one each (TreeSearch._evaluate_parallel: the
    # near-optimal root, ``rank``) go to them in runs of anagrams, each run on one thread in
    # order.  Anagrams leave many of the same parts (the part where none of their letters shows,
    # those where they show only yellow): searched one after the other, the second reads the
    # first's parts from the table (classic k=12 kc=6, one thread: TRACE 0.03 s after CRATE);
    # searched at once on two threads, both solve them (TRACE 0.09 s beside CRATE).  Classic
    # k=12, 2 threads (bench/bench_peer.py --child ROW --threads 2 [--tuning anagram_runs=0],
    # alternated, 2026-11-30): kc=6 0.835 -> 0.780 s (medians of 15, pair ratio 0.93), kc=0
    # 0.663 -> 0.594 s (7).  Values unchanged: each guess has its bound as before.
    anagram_runs: bool = True
    # Hard mode: a big part shared out whose first guess cannot win, and whose next guesses
    # have cost the threads aspiration_after seconds without a win, is refuted in rounds
    # against an aspiration (see _SharedParts._next_round), from its lower bound up in steps of
    # aspiration_step guesses an answer (0: never), until a round takes the threads over
    # aspiration_seconds.  NYT-3158 hard mode, 2 threads (python bench/bench_rate_word.py --words
    # nyt-3158 --hard --first tiare,crape,least,tarse [--tuning aspiration_step=0], 2026-11-30,
    # load 1.4-1.9): TIARE 27.0 -> 15.5 s, CRAPE 24.5 -> 17.2 s, LEAST 15.2 -> 18.4 s (a part
    # whose rounds climbed in vain: 494.7, then 530.7 failed after 3.1 s, then no bound),
    # TARSE 5.8 s both; RULES 37.9 / 38.8 s, ERICA 224.7 s (246 s that morning).  Climbing on
    # to the cap whatever a round costs (aspiration_seconds 1000, 2026-12-01, the same bench,
    # --first rules,tiare,least,crape,tarse,audio; ERICA's search timed in one process, its
    # rounds logged): ERICA 86.2 -> 73.1 s (its part of 238 answers, alpha 665, value 862: a
    # round at 818 of 14.7 thread-seconds, then one at 899.5 that wins), RULES 23.4 -> 32.1 s
    # (its part cannot be won: rounds at 785 and 891 of 16 and 29 thread-seconds, where the
    # search without a bound, which asks each guess's parts first whether they can be won, took
    # 16 s), the others unchanged.  What a dear round says about a part (near its value, or
    # unable to be won) is not known from its cost: left at 1 s.  What tells them apart is
    # the share of the round's refuted guesses whose search proved them unable to win at all
    # (INF, sk.Batch.floors): a dear round ends the climb only when it is at least
    # aspiration_lost.  Logged round by round (2026-12-01): RULES' part (cannot be won) 0.51,
    # 0.64, 0.80 at its rounds of 1-13 thread-seconds, AUDIO's 0.62-0.78; parts that can be won
    # lower below their value: ERICA's 238 answers 0.23 at 764 and 0.42 at 818 (its value 862),
    # BOITE's 372 0.06 and 0.23, LEAST's 158 0.35.  A heuristic: nearer its value a part that
    # can be won shows more (ERICA 0.53 at 836 and 0.58 at 845, rounds its steps of half again
    # skip; keeping the step after a dear round made it reach them: 58-99 s), and then the rule
    # ends the climb as the old one did.  NYT-3158 hard, 2 threads, the
    # opener sample (python bench/bench_rate_word.py --words nyt-3158 --hard --threads 2
    # --timeout 300 --sample 40 [--tuning aspiration_lost=0], 2026-12-01, load 0.7-2.0): ERICA
    # 91.6 -> 71.5 s, BOITE 35.2 -> 30.6 s, the other 38 the same (RULES 25.3 / 25.8 s,
    # TIARE 9.8 / 10.0 s, TIRES 14.6 s both).
    aspiration_step: float = 0.02
    aspiration_after: float = 2.0
    aspiration_seconds: float = 1.0
    aspiration_lost: float = 0.5
    # What a doomed part's batch proved of each guess it refuted (sk.Batch.floors) raises the
    # guess's lower bound: a guess proven unable to win is not searched again, in a later round
    # or in the search without a bound after them (a round's share still counts it), nor one
    # proven above the next aspiration.  Measured before the share rule (aspiration_lost), with
    # the rounds climbing on: the same times, a guess tried again reading what the table kept.
    # With the rule, where a part that cannot be won ends its climb and the search without a
    # bound must prove each guess unwinnable (NYT-3158 hard, 2 threads, python
    # bench/bench_rate_word.py --words nyt-3158 --hard --first W [--tuning keep_floors=0],
    # alternated, four pairs a word, 2026-12-01, load 1.0-2.0, a machine 1.6x slower than the
    # morning's), medians: AUDIO 35.5 -> 21.2 s (every pair faster: its part of 130 answers ends
    # with 945 of its 946 guesses proven unwinnable, most by the rounds), RULES 50.6 / 49.8 s,
    # BOITE 72.0 / 72.5 s, TIRES 32.8 / 35.8 s (pairs +-20 % either way); ERICA 178.7, 140.5 /
    # 151.8, 164.0 s.  Values and trees unchanged: a floor is a proven lower bound.
    keep_floors: bool = True
    trial_batch: int = 32  # a big part's other guesses go to the threads this many at a time
    # A table starts with this many slots in use (2 MB) and doubles them whenever a quarter are
    # taken (at half, 4-slot probe runs overflowed: 3 % of entries lost instead of 0.3 %), up to
    # its size: a search touches only the pages it fills.  Hashing over all of a 2 GB table from
    # the start touched a new page for nearly every probe: classic SALET hard faulted 29,000
    # pages, 7 % of its time on one thread and 17 % on two (the threads fault in turn).
    table_start_slots: int = 1 << 15
    # Isolated calls (the play policy's budgeted suggestions): work groups and their tables.  A
    # budgeted suggestion stores at most ~budget / node_cost nodes (20 M units: 100 k), so 2^18
    # entries rarely fill; a full table is emptied, which is still deterministic.
    play_split: int = 2
    play_table_entries: int = 1 << 18
    play_table_pool: int = 1 << 22  # answer ids kept for verification (16 MB)

    # --- the kernel's (copied into each search's parameters, S.ip / S.fp)
    # Smallest node stored in the transposition table.
    table_min: int = 3
    # From this many answers a uniform scan counts every guess's parts first and summarises each
    # tally once (see sk._scan_uniform); below, it counts parts and squares as it goes, which
    # lets a scan with a cut stop early.
    # A cut scan counts as it goes up to 400 answers, not 128 as it once did: a part's bound in
    # the exact search (sk._part_bound, which hard mode and big nodes call for every guess's
    # big parts) is scanned against the bound that refutes the guess, and from 128 to 400 answers
    # most blocks of guesses reach it early; counting first never stops.  Where hard mode's
    # opener sweep spends its time (cycle counts, 12 first words of the NYT-3158 top-10 sweep's
    # tail refuted at 11,678.5: 57 CPU-s, of which part-bound scans of 31-300 answers 32 s, node
    # scans 1.4 s): those 12 words 54.1 -> 42.0 CPU-s (two runs each; 250: 44.7, 1,000: 46.2);
    # NYT-3158 TARSE one thread (bench/bench_tuning.py nyt3158-tarse "" scan_tally_min=400,
    # 2026-11-29) normal 16.7 -> 13.8 s, hard 9.58 -> 8.49 s; classic SALET normal and hard and
    # nyt-2309 TARSE unchanged (their parts are smaller).
    scan_tally_min: int = 400
    # ... and this many for a scan with no cut (the near-optimal search's, which needs every
    # guess's key; the root's): counting as it goes is what lets a cut scan stop early, and
    # without a cut counting first pays from fewer answers.  CPU time, one thread, alternated
    # (bench/bench_tuning.py ROW "" scan_tally_uncut=48, 2026-11-29, medians of 5 or 3): classic
    # k=12 kc=6 1.219 -> 1.160 s, nyt-2309 1.307 -> 1.250 s, classic hard 0.522 -> 0.504 s (32:
    # about as 48, 64 as 48 on nyt-2309); classic SALET exact 0.279 -> 0.276 s.  Since the tallies
    # are summed in 32 bits and cleared in the same pass (sk._scan_uniform, 2026-11-30: a block's
    # summary and clearing ~1,200 -> ~550 ns), counting first pays from 16 (the same command and
    # machine, medians of 5, against 48: classic k=12 kc=6 x0.91, 12 and 8 the same; nyt-2309
    # k=12 kc=6 x0.89; classic SALET exact normal x0.89, hard x0.92; nyt-2309 TARSE x0.99).
    scan_tally_uncut: int = 16
    # The exact search drops the candidates a new incumbent rules out when more than this many
    # remain.
    prune_min: int = 32
    # A guess's parts of at least this many answers get a scan each for a tighter bound before
    # any recursion (see sk._tighten): a lone guess's (a first word of an opener sweep) in both
    # modes, with pass2_min_alone (the near-optimal search's with near_part_min, below); in the
    # exact search in hard mode every guess's, with
    # pass2_min_hard (and pass2_min_alone for the root guesses the threads share), and in normal
    # mode every guess's at a big node (pass2_node_min, below); the near-optimal search's at a
    # big node too (near_node_min, below).  Hard mode, NYT-3158 TARSE's
    # exact total, one thread, a quiet machine, beside the C++ (bench_peer): 26.1 s -> 9.95 s
    # (C++ 41.4 s); on a busy machine 38.2 s -> 17.1 s (18.5 s with parts of 8 inside the search,
    # 33.3 s with 100); the refutation of 21 of the hard opener proof's remaining first words 223
    # CPU-s -> 87; classic SALET hard unchanged (0.7-0.9 s).  Normal mode inside the search:
    # twice as slow (classic SALET 0.64 s -> 1.45 s, NYT-2309 TARSE 2.76 s -> 5.43 s), so it is
    # not done there at every node; at big ones it pays (pass2_node_min).
    pass2_min_alone: int = 8
    # Hard mode's every guess from 8 answers, not 30 as when the step came in: since then the
    # part scans are cut at the bound that refutes the guess (part_cut) and the parts go largest
    # first (largest_first), so a scan is cheap and a tighter bound refutes guesses sooner.  One
    # thread, CPU time, 2026-11-29: NYT-3158 hard opener sweep words refuted at 11,678.5 (drawn
    # by their seconds in the hard top-10 sweep's journal, a process each, both at once one a
    # core: bench/bench_journal_sample.py JOURNAL LO HI N --tuning pass2_min_hard=30): 120 of
    # 0.5-5 s 261.1 -> 225.2 s, 40 others 81.6 -> 79.1, 40 more 65.5 / 63.5 -> 56.6 / 57.6 (12:
    # 55.9 / 57.4, 20: 60.8 / 57.6); 12 of 5-40 s 108.1 -> 94.1 (12: 95.5-97.5); 80 of 0.05-0.5 s
    # 28.5 / 29.3 -> 30.1 / 30.0 (within the noise: 20 gave 26.8, 12 31.4);
    # bench_tuning.py --hard, alternated: classic SALET 0.559 -> 0.449 s (nodes 28,962 -> 5,105;
    # 12: 0.459-0.465, 5: 0.447), NYT-3158 TARSE 8.03 -> 7.61 s (12: 7.68); bench_proof_sample.py
    # --hard --bound 11678.5, two pairs: 136.6 -> 128.9 and 132.3 -> 122.3 s.  The whole hard
    # top-10 sweep from scratch: 1 h 3 min 54 s at 30, then at 8 1 h 8 min 56 s on a slower
    # machine that evening and 59 min 7 s on 2026-11-30 (its words' seconds 0.922x those of
    # the run at 30, 0.857x the slow run's): the change, as the samples said.
    pass2_min_hard: int = 8
    # ... and normal mode's big nodes' (pass2_node_min) from 30: there 8 was slower (nyt-2309
    # TARSE 1.237 -> 1.306 s, NYT-3158 TARSE 13.34 -> 13.82 s; 15: 1.294 and 13.61 s).
    pass2_min_big: int = 30
    # ... and in either mode every guess's at a node of at least this many answers (0: none), with
    # pass2_min_hard or pass2_min_big.  What is "twice as slow" everywhere (above) pays at big
    # nodes, where a guess's one-scan bound is furthest below its value and most of a search is
    # refuting guesses that were never going to win: NYT-3158 TARSE normal, one thread, CPU time,
    # alternated in one process (bench/bench_tuning.py nyt3158-tarse "" pass2_node_min=150,
    # 2026-11-28, load ~1): 81.0 -> 41.2 s (medians of 2; nodes 521,616 -> 62,464, scans 61,883 ->
    # 23,983; 44.5 s at 100); its rating on 2 threads (bench/bench_rate_word.py's search, two runs
    # each) 45-49 -> 26 s, CRANE 66 -> 43-47 s (300: no gain; 100 as 150), ADIEU 61-64 -> 47-49 s
    # (at 300).  Classic SALET and nyt-2309 TARSE, whose nodes past the first guess's parts are
    # smaller: no change beyond the noise (1.04 -> 0.96-1.24 s and 4.11 -> 4.04 s, medians of 5, a
    # noisy machine).
    pass2_node_min: int = 150
    # ... and below it, at a node of at least pass2_late_min answers (0: never), the rest of its
    # guesses once searching the parts of the guesses refuted so has cost pass2_late_after scans
    # of the node (work units, answers x guesses): a node whose one-scan bounds lie as far below
    # its guesses' values as a big node's.  The -ED trap: NYT-3158 COLED leaves 148 answers
    # ending in ED (ADDED ... WIRED, 5 guesses left, value 476, one-scan bound 412), just below
    # pass2_node_min; its exact value took 51 s on one thread (4.5 M nodes) where the C++ solver
    # takes 28-35 s, and 13.8 s so (142 K nodes; 15.8 s at pass2_node_min=100, which made the
    # peer rows 1.2-1.35x slower: their nodes of 60-150 answers are cheap to search and dear to
    # tighten).  The bar: at 4-64 scans classic SALET and nyt-2309 TARSE tighten too (1.3-1.5x
    # slower), at 256 nyt-2309 TARSE still does (1.34x), at 1,024 neither, nor NYT-3158 TARSE's
    # time (nodes 62,486 -> 55,665), while the -ED part keeps its gain.  2026-12-03, one thread,
    # CPU time: the proof sample against the top-100 bound (bench/bench_proof_sample.py --words
    # nyt-3158 --bound 11351.5 [--tuning pass2_late_min=0], both at once one a core) 369.4 ->
    # 313.5 CPU-s without its first word (the compile), COLED 62-72 -> 22-25 s; from nodes of 30
    # rather than 60, 300.9 / 306.4 CPU-s (the noise).
    pass2_late_min: int = 60
    pass2_late_after: int = 1024
    # The near-optimal search tightens every guess's parts of near_part_min answers or more at a
    # node of near_node_min or more (0: none), as the exact search does at big nodes: each part's
    # scan chooses its candidates too, kept for the part's own search (see sk._order_find), so a
    # part that is searched after all costs no second scan.  Where the time went first (classic,
    # k=12, kc=6, one thread, cycle counts): refuting the 17 root guesses that lose to SALET,
    # 0.03-0.18 s each, in the scans of their parts; tightening without keeping the candidates
    # saved 40 % of the nodes but its 320 extra scans cost 0.40 s of the 0.44 s it saved.  With
    # them kept (216 of the 320 read back; a lone guess's parts, as the root guesses the threads
    # share, from near_part_min answers too, not pass2_min_alone), CPU time, alternated in one process
    # (bench/bench_tuning.py ROW near_node_min=0 "", 2026-11-29, medians of 3): classic-near12
    # 1.57 -> 1.21 s (nodes 24,691 -> 14,888, scans 4,213 -> 2,825), nyt2309-near12 1.73 ->
    # 1.35 s; parts of 15 at nodes of 100 the same, of 8 at nodes of 20 slower (1.57 s: parts
    # scanned for guesses their bounds then refute); hard mode unchanged (0.51 -> 0.52 s).
    near_node_min: int = 30
    near_part_min: int = 30
    # Estimated value per unit weight of a node of n answers (n >= 3) when the depth limit stops
    # the search: a + b ln(n), fitted to the nodes of optimal trees (nyt-3158 from TARSE, 2,000
    # nodes; 1.74 at n=3, 2.3 at n=20, 3.0 at n=250).
    estimate_a: float = 1.454
    estimate_b: float = 0.283
    # The work a budget counts, in scan units (one answer against one guess, ~3-5 ns; see
    # search_kernels.M_WORK): a node visit, an answer partitioned when a guess is evaluated, a
    # guess scanned whatever the node's size (bookkeeping, cache lines); weighted work costs
    # weighted_cost / 2 times as much.  The play policy's budgets are in these units: changing
    # them changes what a budgeted suggestion can afford.
    node_cost: int = 200
    eval_cost: int = 4
    guess_cost: int = 40
    # A node of at most perfect_max answers that no possible answer splits well can be checked
    # for any guess that splits it into singletons before it is scanned (kernels._perfect_split),
    # charged perfect_cost a guess (0: no check, the default).  Such a split settles it without
    # the scan, but a failed check costs about a third of a scan.  Measured 2026-11-28, one
    # thread, CPU time, alternated: at perfect_max 6 classic SALET 1.190 -> 1.151 s and nyt-2309
    # TARSE 5.84 -> 5.59 s (medians of 7 and 5), but NYT-3158 TARSE 99.8 / 113.2 -> 114.1 /
    # 119.7 s (two runs each); every small node checked, classic SALET 1.264 s.  Off until a
    # cheaper check (or a better guess at which nodes to check) wins everywhere.
    perfect_cost: int = 0
    perfect_max: int = 6
    # The exact search's uniform scans of small nodes stop counting a block of guesses once
    # every one's collisions take its bound to the node's bound (see kernels._scan_uniform).
    # Values, trees and node counts unchanged; measured 2026-11-28, one thread, CPU time,
    # alternated in one process, medians of 3 (bench/bench_tuning.py): classic SALET 1.47 -> 0.96 s,
    # nyt-2309 TARSE 5.69 -> 3.81 s, classic SALET hard 1.89 -> 1.84 s.  Cutting only at one or
    # three collisions past the bound (keeping more exact bounds for the table) was slower.
    scan_cut: bool = True
    # The same for the scans that tighten a guess's part bounds (kernels._part_bound, hard mode
    # and a first guess evaluated alone), cut at the bound that refutes the guess: classic SALET
    # hard 2.00 -> 1.53 s (as above, medians of 3; the machine moved 20 % run to run).
    part_cut: bool = True
    # The exact search tightens a guess's big parts largest first (kernels._tighten): the dearest
    # part's bound gains most, and the guess is refuted after fewer scans, each cut at a bound
    # nearer its own.  Values, trees and bounds' validity unchanged (nodes within a few); one
    # thread, CPU time, 2026-11-29, each pair both at once, one a core: NYT-3158 hard-mode
    # opener sweep words refuted at 11,678.5 (16 words of 1-10 s in the sweep's journal, two
    # pairs) 61.2 / 60.4 -> 56.8 / 56.5 s; 8 of the order's dear head (10 s or more) 275 -> 176 s
    # (PLANE 152 -> 71 s); 40 cheap ones 70.8 -> 68.6 s; bench_proof_sample.py --hard --bound
    # 11678.5 153.5 -> 146.0 s, normal 48.2 -> 47.4 s; bench_tuning.py nyt3158-tarse --hard
    # 8.01 -> 7.57 s, normal 13.22 -> 13.09 s, classic SALET 0.305 -> 0.303 s, hard 0.514 ->
    # 0.512 s (medians of 2-5).  The near-optimal search keeps pattern order (its parts' scans
    # are uncut: the order changed no scan there).
    largest_first: bool = True
    # A part with two guesses left under a hard cap is won only by a split into singletons, so
    # its one-scan bound (what a guess's parts are tightened with, sk._part_bound) is its value
    # itself, INF where no allowed guess splits it: a guess whose part of 8 or more answers no
    # guess splits is refuted before its smaller parts are searched.  Most of it pays in hard
    # mode's refutations, where no finite bound is in sight (a part that cannot be won within the
    # cap).  CPU time, one thread, 2026-11-30: NYT-3158 hard mode, the exact total of CRANE
    # (which cannot win within 6) 43.4 -> 32.8 s (nodes 2.54 M -> 0.76 M), AUDIO 23.7 -> 19.6 s;
    # TARSE (bench/bench_tuning.py nyt3158-tarse "" two_left_exact=0 --hard, medians of 3) 8.30 ->
    # 7.92 s (nodes 222,415 -> 132,052); the hard proof's sample (bench/bench_proof_sample.py
    # --words nyt-3158 --hard --bound 11678.5 [--tuning two_left_exact=0], the two at once one a
    # core, then swapped) 149.6 / 147.9 -> 141.4 / 141.6 CPU-s; classic SALET hard 0.539 -> 0.521 s.
    two_left_exact: bool = True
    # Hard mode's traps, bounded (kernels._family_cut): a node's largest answer family (answers
    # equal but in one position, 211 families of four or more on NYT-3158) cannot be told apart
    # faster than its allowed guesses name its letters, so a node whose greens leave guesses
    # naming one or two at a time is settled INF without a search (the C++ solver's "endgame"
    # cut-off).  Tested against the naive recursion (tests/test_refutation.py).  One thread,
    # CPU time, 2026-11-30: NYT-3158 hard CRANE's exact total (cannot win) 29.9 -> 16.1 s
    # (nodes 763 K -> 277 K); QAJAQ's 412-answer part (cannot win with five left) over 10 min ->
    # 529 s; bench_tuning.py nyt3158-tarse --hard 7.72 -> 7.56 s; classic SALET hard 0.451 ->
    # 0.459 s, nyt-2309 TARSE hard 1.27 -> 1.29 s (medians of 2-3: noise).  Normal mode: off (a
    # guess there names five letters; see _family_applies).
    family_cut: bool = True
    # Where a node's value is wanted but no bound is in sight (beta INF, no incumbent) and a guess
    # of the node has already failed to win within the cap (or a shared big node's first guess
    # has, see sk._try_guesses), each next guess's big parts are first only asked whether they
    # can be won (beta sk.FEAS: the first strategy found settles a part), so a part that cannot
    # be won refutes the guess before its smaller parts are solved exactly, which is what the
    # smallest-first order did.  Asked of every guess at beta INF instead, it doubled winnable
    # searches (classic SALET hard 0.46 -> 0.91 s): their first guess usually wins.  Largest part
    # first in the probe: CRANE 10 s -> over 4 min (a big part that can be won costs a search of
    # its own to show it).  One thread, CPU time, 2026-11-30 (with family_cut): CRANE 15.8 -> 10.3 s,
    # QAJAQ's 412-answer part 529 -> 238 s; TARSE hard 7.56 s both, nyt-2309 TARSE hard 1.29 ->
    # 1.26 s, normal mode unchanged (the same nodes and scans: classic SALET, nyt-2309 TARSE).
    probe_parts: bool = True
    # A node's parts proven unable to win whose hints add nothing to the node's are kept as its
    # "cores" (the smallest, at nodes of 8 answers or more: see kernels.CORE_MAX), and a later
    # guess of the node that leaves one whole in a part is refuted without a search
    # (kernels._core_refutes: winning is monotone in the answers and the hints).  Hard mode's
    # traps: NYT-3158 hard RULES leaves 207 answers (E fourth, no R, U, L or S) that cannot be
    # won with five left; each of its 1,847 guesses must be refuted, each by its answers with
    # none of its letters (four left), and 1,491 of those sets hold an earlier guess's whole.
    # One thread, CPU time, 2026-11-30: that part 65.8 -> 28.8 s (the first 16 found kept, at
    # nodes of 16 or more: 43.1 s; the 64 smallest at nodes of 16: 30.3 s, at nodes of 8: 29.4
    # s; ERICA's part of 238 answers, 862, 409 -> 106 s); with 64 kept, on 2 threads
    # (bench/bench_rate_word.py --words nyt-3158 --hard --threads 2 --first ..., [--tuning
    # unwinnable_cores=0]) RULES 39.0 -> 22.7 s, ERICA (the README's 3 min 45 s) -> 83.3 s
    # (78.7 s with 1,024 kept), TIARE 13.8 -> 9.2 s, LEAST 16.2 -> 10.1 s, CRAPE 16.0 -> 10.8 s,
    # CRANE 11.2 -> 5.2 s, AUDIO 18.1 -> 15.1 s, TARSE 4.8 -> 4.3 s; nyt-2309 TARSE hard 1.23 ->
    # 0.96 s (bench/bench_tuning.py, medians of 3), classic SALET hard 0.474 -> 0.470 s.  Normal
    # mode: the same nodes and scans (its parts seldom cannot be won).
    unwinnable_cores: bool = True
    # The exact search in normal mode skips a guess whose partition of the node is coarser than
    # that of a guess the node evaluated before (kernels._dominated: the same but where its tile
    # is one colour for every answer, grey or green, and the earlier guess has one of their
    # letters): it is worth no less, so it cannot beat the bound that guess left.  Values, trees
    # and the table's bounds unchanged (the skipped guess could never be taken); the near-optimal
    # search (the player's default) never reads it.  One thread, CPU time,
    # 2026-12-03, bench/bench_tuning.py "" coarser_skip=0 (medians of 3-5): NYT-3158 TARSE
    # 26.72 -> 25.18 s (scans 23,552 -> 20,535, nodes 55,665 -> 52,807), nyt-2309 TARSE 2.32 ->
    # 2.35 s (noise; scans 4,637 -> 4,460), classic SALET 0.504 -> 0.488 s; the top-100 proof's
    # sample (bench/bench_proof_sample.py --bound 11351.5 --head 1500, the two at once one a
    # core) 321.2 -> 297.4 CPU-s, scans 361,492 -> 333,447.  Every guess a node evaluates is
    # noted, not only those it searches (nyt-2309 TARSE nodes 39,414 so, 35,548 noting all); the
    # notes are a table of keys (see kernels.DOM_SLOTS) because a list read guess by guess cost
    # what it saved (the sample 284.5 against 284.0 CPU-s, for 336,254 scans).  The green tiles
    # besides the grey ones (a later pair of the same sample): 282.0 -> 261.0 CPU-s, scans
    # 361,492 -> 331,358.
    coarser_skip: bool = True
    # A node of unit weights no possible answer splits into singletons (or into singletons and
    # one pair, with a guess to spare) is worth at least 2W: the exact search settles it at that
    # bound when its beta is no more, without a scan (kernels._shortcuts; most of these scans
    # found nothing below beta).  Nodes unchanged, scans classic SALET 1,564 -> 1,187, nyt-2309
    # TARSE 5,619 -> 4,612, classic hard 7,218 -> 5,974; CPU time as above (while a test suite
    # ran beside it): classic 1.33 -> 1.02 s, nyt-2309 4.55 -> 3.93 s, classic hard 1.33 s both.
    pair_bound: bool = True
    # A cut scan (above) reads the node's answers that share the most letters in place first
    # (kernels._collisions_first): its blocks collide, and stop, sooner.  Nodes and scans
    # unchanged; 2026-11-28, one thread, CPU time, alternated (bench/bench_tuning.py): classic
    # SALET 1.217 -> 1.185 s, nyt-2309 TARSE 4.18 -> 3.95 s (medians of 5), classic hard 2.07 ->
    # 1.99 s (of 3); but NYT-3158 TARSE 91.3 -> 94.1 s (of 2: pairs 95.5/96.4, 87.1/91.7, inside
    # the 5 % the same tuning moved between repeats): no gain shown there.
    # Tried and left out the same day: finishing a block's last few guesses below the cut one by
    # one (no gain: 0.874 s with none so finished, 0.89-0.98 s with 1-4), and a cut for the
    # near-optimal search against the keys that make a node's k + kc candidates (28 % of blocks
    # stopped early on classic nodes, yet classic-near12 took 6.38-6.68 s against 5.94-6.05 s
    # without it).
    collisions_first: bool = True
    weighted_cost: int = 5
    # A node below the query node scans, and hands its parts, one guess per letter class
    # (kernels._letter_classes): the guesses that differ only in letters none of its answers
    # holds colour them alike (and in hard mode give the same hints).  Values and trees
    # unchanged, and in normal mode nodes and scans too (hard mode: classic SALET 34,723 ->
    # 28,962 nodes, 0.566 -> 0.453 s; there the guesses alike were each tried); 2026-11-29,
    # one thread, CPU time, alternated in one process, medians of 3 (bench/bench_tuning.py),
    # first for nodes of up to 50 answers: classic SALET 0.408 -> 0.319 s, nyt-2309 TARSE 1.596 ->
    # 1.287 s, classic-near12-kc0 1.147 -> 0.971 s, classic-near12 1.872 -> 1.641 s (up to 30 or
    # 100 answers: within 3 % of 50); then for every node, against up to 50: classic SALET 0.347 ->
    # 0.331 s, nyt-2309 TARSE 1.321 -> 1.226 s, classic-near12 1.600 -> 1.483 s.  Where the time
    # went (classic SALET, cycle counts around the scans, up to 50): the scans of nodes of 3-50
    # answers 0.23 -> 0.10 s, the reduction itself 0.08 s (14 M guesses; nyt-2309 TARSE, every
    # node: 0.36 of 1.33 s, 58 M guesses).  With the reduction's table in one word a slot (see
    # _letter_classes), against none: classic SALET 0.396 -> 0.273 s, nyt-2309 TARSE 1.551 ->
    # 1.091 s, classic-near12 1.904 -> 1.385 s, classic-near12-kc0 1.142 -> 0.897 s.  The part
    # bounds' scans (kernels._part_bound) gained nothing so (they are cut short already).
    letter_classes: bool = True
    # ... but not a part the threads solve on its own (TreeSearch._by_classes) below this many
    # answers: the cut is a pass over every guess (~50 us on the classic lists), and a part of a
    # few answers is settled without a scan (perfect splits, closed forms) or by one of a few
    # microseconds.  Classic SALET on 2 threads (one process, fresh searches alternated, medians
    # of 15 then of 25): 0.1705 and 0.1518 s cutting every part, 0.1619 and 0.1469 from 8
    # answers (4: 0.1637, 12: 0.1653).
    classes_part_min: int = 8

    # --- the staged refutation of an opener sweep's first words (refutation.py)
    # Work the kernel gets on its own first (scan units: about half a second on the NYT lists).
    # Most first words are refuted by it in a tenth of a second; staging costs about a second.
    # Measured 2026-11-27 against 11,678.5 (the hard top-10 bound), one thread, cold table, 80 words
    # drawn at random from the ~10,000 a hard top-10 run leaves after its first 4,878: 90 CPU-s at
    # 150 M, 83 at 300 M, 77 at 1.5 G, 67 with no limit (the kernel alone beats the stages on the far
    # tail), 182 with no quick try (the stages alone: what the try leaves in the table pays); but 42
    # dearer words of the run's head went 336 -> 403 CPU-s at 4 G (HAROS 4.6 -> 21 s, ALECS 8.7 ->
    # 32 s).  No budget wins both by more than the noise, and none comes near halving the run.
    refute_quick_units: int = 150_000_000
    stage_min: int = 20  # parts of fewer answers are left to the kernel (their gaps are small and cheap)
    # Ask the parts for this much more than the bound needs.  1.2 (estimates err) was the guess; the
    # kernel fails soft, so a part that meets its target usually proves more than it, and that
    # overshoot is the margin.  NYT-3158 hard mode, refuted against the top-100 bound 11,762.5 (one
    # thread, cold table, a fresh process per set, 2026-11-27): 9 tail words (seed estimates 12,000-12,200)
    # 157 and 148 CPU-s at 1.2, 125 at 1.0; 14 others (11,990-12,300) 93.6 -> 79.6; the proof
    # sample (bench_proof_sample --hard, bound 11,627.5) 197 -> 204 CPU-s: no change within noise.
    # One round with no cap (stage_rounds = (1.0,)) did better on the tail (101-110 CPU-s) but 3-4x
    # worse on words whose small parts hold most of the gap (GRAVE 1.9 -> 6.4 s, TIARE 9 -> 37 s).
    stage_slack: float = 1.0
    stage_rounds: tuple[float, ...] = (0.5, 1.0)  # the most of its estimated gap a part is asked for, round by round
    # ... in hard mode; in normal mode the first round asks for more.  Near-ties dominate a
    # normal-mode sweep's head, and a near-tie needs most of every part's gap, so a first round
    # capped at half of it only re-opens every big part in the second.  NYT-3158 against the
    # top-100 bound 11,351.5, the proof sample's head (`python bench/bench_proof_sample.py --words
    # nyt-3158 --bound 11351.5 --head 3713 [--tuning stage_rounds_normal=0.5/1.0]`, one thread,
    # the two at once one a core, 2026-12-03): its 48 refuted words 443,696 -> 369,814 scans
    # (-17 %), 245.0 -> 230.9 CPU-s (and 244.8 -> 230.4 in another pair); the two exact words
    # (TIARE, LEAST) 101,167 -> 120,836 scans, but a sweep searches the words its seed proves
    # below the bound at once, unstaged (opener_sweep.beating_words).  In hard mode 0.7 did
    # fewer seconds but more scans (the hard sample's head 76.1 -> 72.3 CPU-s, 588,701 ->
    # 633,519 scans): left at 0.5 there.  0.6: 391,418 scans on the 48; 0.8 against 0.7 in a
    # pair: 363,477 / 369,814 scans, 245.5 / 249.1 CPU-s (the noise).
    stage_rounds_normal: tuple[float, ...] = (0.7, 1.0)
    # In hard mode, parts of this many answers or more are the dear ones: they share what the
    # cheaper parts cannot give (see refutation.staged_bound).  NYT-3158 hard mode, 30 first words of the
    # proof's head: 126 s with every part sharing in proportion to its gap, largest gap first; 96 s
    # so (120: 109 s, 300: 103 s).  Not in normal mode, where the same 30 words took 43 s sharing
    # and 48 s so: there the estimates are real strategies' totals, and sharing in proportion to
    # them is the better guess; in hard mode they include failure costs (see opener_sweep).  500
    # since 2026-11-27 (the slack at 1.0; one thread, cold table, the top-100 run beside it): the
    # words of the top-100 proof's tail spend 70-85 % of their time in their one part of 650-800
    # answers (CARKS: 8.3 of 12.2 s in its part of 661), which at 200 shared with the parts of
    # 200-499 and was asked for more than it need be.  Refuted against 11,762.5: 9 tail words 136 ->
    # 118 CPU-s, 14 others 75.9 -> 64.9, the dear head words DOILT, CLOTE, DROIT, PLANE 365 (325-358
    # before: no change); against 11,627.5: 7 words 45.9 -> 43.0, the proof sample 204 -> 211
    # (noise).  800 gave nothing (134 on the 9 tail words).
    stage_big_hard: int = 500

    # --- the opener sweep (opener_sweep.SweepSpec carries a tuning; see seed_size there)
    seed_words: int = 200  # near-optimal totals computed before an exact sweep ...
    seed_per_kept: int = 8  # ... or this many per word kept, if more ...
    seed_per_kept_hard: int = 150  # ... in hard mode, where the order is a poor guide
    # the seeding search: ~0.4 s a first word on the NYT lists, within 0.02 % of TARSE's exact total
    seed_k: int = 8
    seed_kc: int = 4
    seed_memory_mb: int = 256
    # The near-optimal search that estimates the parts' gaps in a staged refutation (refutation.py;
    # its memory is the seed's).  The estimates only share out what the parts are asked for:
    # a cheaper search's slightly worse ones cost the targets less than they save.  NYT-3158 hard,
    # refuted against 11,678.5 (words drawn from the hard top-10 sweep's journal by their seconds
    # there, a process each, one thread, cold table, the two at once one a core, 2026-11-29):
    # 24 words of 1-5 s 58.1 / 60.4 CPU-s at k=8 kc=4 (the seed's) -> 55.9 / 54.6 at k=4 kc=2
    # (estimates 4.0 -> 2.2 s); 60 words of 0.5-5 s 109.3 -> 107.0; 12 of 5-40 s 76.1 -> 72.4.
    # k=2 kc=1: 55.9 on the 24 (TELIC 4.1 -> 6.3 s: estimates too poor).
    stage_k: int = 4
    stage_kc: int = 2

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if any(v < 0 for v in (value if isinstance(value, tuple) else (value,))):
                raise ValueError(f"SearchTuning.{f.name} must not be negative, not {value!r}")

    def copy_into(self, ip: np.ndarray, fp: np.ndarray) -> None:
        """Write the kernel's part into a search's parameter arrays."""
        ip[sk.IP_TT_MIN] = self.table_min
        ip[sk.IP_SCAN_TALLY_MIN] = self.scan_tally_min
        ip[sk.IP_SCAN_TALLY_UNCUT] = self.scan_tally_uncut
        ip[sk.IP_PRUNE_MIN] = self.prune_min
        ip[sk.IP_PASS2_MIN_ALONE] = self.pass2_min_alone
        ip[sk.IP_PASS2_MIN_HARD] = self.pass2_min_hard
        ip[sk.IP_PASS2_MIN_BIG] = self.pass2_min_big
        ip[sk.IP_PASS2_NODE_MIN] = self.pass2_node_min
        ip[sk.IP_PASS2_LATE_MIN] = self.pass2_late_min
        ip[sk.IP_PASS2_LATE_AFTER] = self.pass2_late_after
        ip[sk.IP_NODE_COST] = self.node_cost
        ip[sk.IP_EVAL_COST] = self.eval_cost
        ip[sk.IP_GUESS_COST] = self.guess_cost
        ip[sk.IP_PERFECT_COST] = self.perfect_cost
        ip[sk.IP_PERFECT_MAX] = self.perfect_max
        ip[sk.IP_SCAN_CUT] = (
            (1 if self.scan_cut else 0)
            | (2 if self.part_cut else 0)
            | (4 if self.pair_bound else 0)
            | (8 if self.collisions_first else 0)
            | (16 if self.largest_first else 0)
            | (32 if self.two_left_exact else 0)
            | (64 if self.family_cut else 0)
            | (128 if self.probe_parts else 0)
            | (256 if self.unwinnable_cores else 0)
            | (512 if self.coarser_skip else 0)
        )
        ip[sk.IP_WEIGHTED_COST] = self.weighted_cost
        ip[sk.IP_CLASSES] = int(self.letter_classes)
        ip[sk.IP_NEAR_NODE_MIN] = self.near_node_min
        ip[sk.IP_NEAR_PART_MIN] = self.near_part_min
        fp[sk.FP_EST_A] = self.estimate_a
        fp[sk.FP_EST_B] = self.estimate_b


DEFAULT_TUNING = SearchTuning()


class BudgetExceeded(Exception):
    """The work budget of a call ran out before the search finished (its table stays valid)."""


class SearchStopped(Exception):
    """The search was stopped by ``TreeSearch.stop`` (another thread's Ctrl+C handler): the
    call's result is void; its table holds only what was proven."""


class _Halted(Exception):
    """A part being solved was stopped because another part of the same guess cannot be won
    within the cap, which settles the guess's total (INF) whatever this part is worth (see
    ``TreeSearch._halt``).  The stopped call's result is void; its table stays valid."""


@dataclass
class SearchStats:
    nodes: int = 0
    scans: int = 0
    evaluations: int = 0
    table_hits: int = 0
    table_stored: int = 0
    table_clears: int = 0
    perfect_splits: int = 0  # nodes settled by kernels._perfect_split, without a scan
    family_cuts: int = 0  # nodes and parts proven unwinnable by kernels._family_cut
    core_cuts: int = 0  # guesses refuted by a node's unwinnable cores (kernels._core_refutes)
    dominated: int = 0  # guesses skipped as coarser than one evaluated before (kernels._dominated)

    def add(self, meta: np.ndarray) -> None:
        self.nodes += int(meta[sk.M_NODES])
        self.scans += int(meta[sk.M_SCANS])
        self.evaluations += int(meta[sk.M_EVALS])
        self.table_hits += int(meta[sk.M_HITS])
        self.table_stored += int(meta[sk.M_STORED])
        self.table_clears += int(meta[sk.M_CLEARS])
        self.perfect_splits += int(meta[sk.M_PERFECT])
        self.family_cuts += int(meta[sk.M_FAMILY])
        self.core_cuts += int(meta[sk.M_CORE])
        self.dominated += int(meta[sk.M_DOMINATED])


class _Worker:
    """One thread's scratch space, table view and parameters.  The threads of a search share
    one transposition table (each with its own counters, ``TT.meta``); isolated calls' groups
    have tables of their own.

    Each worker has its own copy of the int parameters (``S.ip``), because the work budget
    written there is the worker's own allowance: threads running at once must not overwrite
    each other's.  ``allowance`` is that budget while a call shares work out statically.
    """

    def __init__(self, search: TreeSearch, table: sk.Table) -> None:
        lex = search.lexicon
        ng, na = lex.n_guesses, lex.n_answers
        npat = 3**lex.length
        rows = search.max_guesses + 2  # one per depth of the recursion
        # the near-optimal candidates kept (see sk._order_find): up to k + kc a node
        width = search.k + search.kc if search.k else 1
        slots = ORDER_SLOTS if search.k else 1
        self.X = sk.Scratch(
            lbg=np.zeros((rows, ng), np.float64),
            key=np.zeros((rows, ng), np.float64),
            sig=np.zeros((rows, ng), np.uint64),
            useful=np.zeros((rows, ng), np.int8),
            order=np.zeros((rows, ng), np.int32),
            hitw=np.zeros((rows, ng), np.float64),
            elems=np.zeros((rows, na), np.int32),
            offs=np.zeros((rows, npat + 1), np.int64),
            pw=np.zeros((rows, npat), np.float64),
            plb=np.zeros((rows, npat), np.float64),
            plist=np.zeros((rows, 2 * npat + 1), np.int64),
            tbuf=np.zeros((rows + 1, ng), np.int32),
            hscan=np.zeros((rows + 1, na), np.int32),
            classes=np.zeros((rows + 1, ng), np.int32),
            ctab=np.zeros((1 << 15) + 1, np.int64),
            ckeys=np.zeros(ng, np.int64),
            okeys=np.zeros((slots, 2), np.uint64),
            otrials=np.zeros(slots, np.int64),
            oscan=np.zeros((slots, 3), np.float64),
            ot=np.zeros((slots, width), np.int32),
            olb=np.zeros((slots, width), np.float64),
            run=np.zeros((rows, ng), np.int32),
            rest=np.zeros(rows, np.float64),
            block=np.zeros((sk.SCAN_BLOCK, npat), np.int32),
            cnt=np.zeros(npat, np.int32),
            mass=np.zeros(npat, np.float64),
            mx=np.zeros(npat, np.float64),
            zs=np.zeros(npat, np.uint64),
            fcnt=np.zeros(int(search.S.fam.max(initial=-1)) + 1, np.int32),
            fmem=np.zeros(26, np.int32),
            fhist=np.zeros(lex.length + 2, np.int64),
            fseen=np.zeros(lex.length + 2, np.int64),
            corekey=np.zeros(rows, np.uint64),
            coren=np.zeros((rows, 2), np.int64),
            coreoff=np.zeros((rows, 2 * sk.CORE_MAX), np.int64),
            cores=np.zeros((rows, sk.CORE_ROOM * na), np.int32),  # (pages touched only as cores are kept)
            domtab=np.zeros((rows, sk.DOM_SLOTS), np.int64),
            domn=np.zeros((rows, sk.DOM_GREENS + 6), np.int64),  # (words of up to 6 letters: see sk._dom_open)
        )
        self.lists = (np.empty(ng, np.int32), np.empty(ng, np.int32))  # TreeSearch._part_list's
        self.TT = table._replace(meta=np.zeros(sk.N_META, np.int64))  # the table, own counters
        self.S = search.S._replace(ip=search.S.ip.copy())
        self.allowance: int | None = None
        self.halted = False  # set by TreeSearch._halt: the parts under way are not needed

    def clear(self) -> None:
        """Empty the table: what follows depends on nothing searched before."""
        sk._tt_clear(self.TT)

    @staticmethod
    def table(
        table_bytes: int = 0,
        *,
        entries: int | None = None,
        pool: int | None = None,
        grows: bool = True,
        start_slots: int = 1 << 15,
    ) -> sk.Table:
        """A transposition table in about ``table_bytes`` (or of the sizes given).  It starts
        with ``start_slots`` slots in use (SearchTuning.table_start_slots) and doubles them as
        they fill (``grows``), else uses all from the start."""
        # ~35 % of the bytes for entries (64 bytes each), the rest for the answer sets.
        if entries is None:
            entries = 1 << max(8, int(np.log2(max(256, 0.35 * table_bytes / (8 * sk.E_WORDS)))))
        if pool is None:
            pool = max(1 << 12, int(0.65 * table_bytes / 4))
        start = min(entries, start_slots) if grows else entries
        alloc = np.zeros(sk.N_ALLOC, np.int64)
        alloc[[sk.A_MASK, sk.A_HIGH]] = start - 1
        alloc[sk.A_START] = start
        with small_pages():
            return sk.Table(
                ent=_line_aligned_zeros(entries, sk.E_WORDS),  # zero pages cost nothing until used
                pool=np.empty(pool, np.int32),
                alloc=alloc,
                meta=np.zeros(sk.N_META, np.int64),
            )


def answer_families(codes: np.ndarray, least: int = 4) -> np.ndarray:
    """The answer families of the word list ``codes`` (answers x L letter codes): the sets of at
    least ``least`` answers equal but in one position (FIGHT LIGHT MIGHT NIGHT ...), as each
    answer's family id for each position (answers x L, int32, -1: none), ids 0, 1, ... in order
    of position, then of the other letters.  The search's family bound reads them (see
    kernels._family_cut); families of four and more, as the C++ solver's endgames."""
    n, length = codes.shape
    out = np.full((n, length), -1, np.int32)
    nf = 0
    for j in range(length):
        rest = np.delete(codes, j, axis=1).astype(np.int64)
        key = np.zeros(n, np.int64)
        for i in range(length - 1):
            key = key * 32 + rest[:, i]
        _, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
        big = counts >= least
        ids = np.full(counts.shape[0], -1, np.int64)
        ids[big] = nf + np.arange(int(big.sum()))
        nf += int(big.sum())
        out[:, j] = ids[inv]
    return out


def _line_aligned_zeros(rows: int, words: int) -> np.ndarray:
    """A zeroed uint64 array (rows x words) starting on a 64-byte boundary, so that a row of 8
    words is one cache line (numpy only promises 16 bytes)."""
    raw = np.zeros(rows * words + 8, np.uint64)
    skip = (-raw.ctypes.data % 64) // 8
    return raw[skip : skip + rows * words].reshape(rows, words)


@dataclass
class _PartPlan:
    """A big part being shared out (see TreeSearch._split_parts): what ``_node_plan`` found,
    then what the threads find."""

    H: np.ndarray  # the part's answers
    cons: HardConstraints | None
    allowed: Allowed  # TreeSearch.allowed(cons) cut to H's letter classes, computed once (a
    # hard-mode part has ~400 batches)
    legal: Allowed  # TreeSearch.allowed(cons) whole: what the first guess's parts' lists come from
    settled: float | None  # the node's value when _node_plan settled it
    alpha: float  # the node's lower bound
    cap: float  # the table's upper bound (plus the margin)
    incumbent: tuple[float, int]  # a perfect split's (value, guess), else (INF, -1)
    order: np.ndarray  # the guesses to try, in trial order
    lbs: np.ndarray  # their lower bounds (raised by what their batches prove: keep_floors)
    subs: dict[int, tuple[float, Node | None]] = field(
        default_factory=dict
    )  # pattern -> (value, subtree) of the first guess's parts
    waiting: int = 0  # of those parts, still being solved
    batches: int = 0  # refutation batches not yet done (set by _refutations)
    # set when the first guess's value is known (_refutations)
    values: np.ndarray = field(default_factory=lambda: np.empty(0))  # each guess's value (INF: did not beat its bound)
    best: np.ndarray = field(
        default_factory=lambda: np.empty(0, np.int64)
    )  # each thread's best so far, packed (see sk._try_guesses)
    doomed: bool = False  # neither the first guess nor the incumbent wins within the cap
    # a doomed part's refutations in rounds (see _SharedParts._aspire): the round's bound (INF:
    # none, the search's own), the step to the next, the threads' seconds in its refutations so
    # far, whether the rounds have begun, and the bound each guess was last refuted at
    aspiration: float = INF
    step: float = 0.0
    spent: float = 0.0
    aspiring: bool = False
    refuted: int = 0  # guesses the round searched and refuted at its aspiration
    lost: int = 0  # of those, proven unable to win (their search proved INF)
    tried: np.ndarray = field(default_factory=lambda: np.empty(0))

    def begin_round(self, keep_floors: bool) -> None:
        """The round's tallies from zero: its threads' seconds and what its batches refuted.
        With ``keep_floors`` the guesses earlier rounds proved unable to win are not searched
        again, but the round counts them, refuted and lost, as it would have proven them."""
        self.spent = 0.0
        self.refuted = self.lost = 0
        if keep_floors and self.tried.size:
            self.refuted = self.lost = int(np.count_nonzero((self.lbs[1:] >= INF) & self.undecided))

    @property
    def first(self) -> int:
        return int(self.order[0])

    @property
    def undecided(self) -> np.ndarray:
        """Per guess after the first: not yet tried, or refuted only at an aspiration below the
        cap (a guess refuted at the cap or without a bound is done: INF, or no better than it)."""
        return self.tried[1:] < min(INF, self.cap)


@dataclass(frozen=True)
class _Task:
    """A unit of work for _split_parts' threads: opening a big part (its plan), a whole small
    part, a part of a big part's first guess, or a batch of a big part's other guesses (places
    in its trial order)."""

    kind: str  # "plan", "part", "sub" or "refute"
    size: int  # answers (the queue takes the biggest first)
    part: int  # the first guess's pattern of the part
    sub: int | None = None  # "sub": the pattern under the part's first guess
    H: np.ndarray = field(default_factory=lambda: np.empty(0, np.int32))  # the part's answers (not "refute")
    cons: HardConstraints | None = None
    batch: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))  # "refute": places in the trial order


class _SharedParts:
    """One run of ``TreeSearch._split_parts``: a first guess's parts solved on the threads, the
    big ones shared out too:

    1. each big part's node is opened as _node opens it (``TreeSearch._plan``: settled at once,
       or the guesses it would try and its incumbent), the parts' plans the first tasks (a plan
       is a scan of every guess: 5-30 ms each on classic, done one after the other before the
       threads started, 8 % of classic SALET's 2-thread time);
    2. the first of those guesses is searched by solving its parts, as tasks of their own
       (an exact search's first guess is usually its best: its parts must be solved exactly
       anyway);
    3. once they are solved, the part's other guesses become tasks, in batches, each bounded by
       the best value so far (``sk._try_guesses``: ties only with a guess later in trial
       order); most are refuted at once, and the threads read each other's refutations in the
       shared table.

    The threads take the plans, then the first guesses' parts, biggest first; a part's
    refutations are taken in order by the thread that solved the last part of its first guess,
    and by the other, still in order, once the queue is empty (before the small parts): a thread
    never waits while the other works on the part that holds most of the search (82 % of
    nyt-2309 TARSE's is one part of 113 answers; 57 % of classic SALET's).  (Taking them from
    the far end instead, where they repeat less of each other's work, left the expensive head of
    the order to one thread: classic SALET 2 threads 0.40 s against 0.39 s in order.)  The whole
    small parts come last: independent and of every size, they even out the threads' ends.  In
    hard mode they come first: there a part under ``split_part_min`` answers can be the dearest
    of all, and when it cannot be won it settles the total (INF) and stops the rest (see
    ``TreeSearch._halt``).  NYT-3158 hard CRANE (a part of 89 answers that cannot be won, 89 s
    on one thread alone) took 254 s on 2 threads with it last and takes 102 s with it first;
    TARSE 18.7 -> 16.9 s (2026-11-28, a run each).  In normal mode the order made no difference
    beyond the noise (classic SALET, nyt-2309 TARSE, three alternated runs each).  The
    node's guess is chosen as _node chooses it (the incumbent, replaced only by a strictly
    better guess in trial order), so values and trees equal the serial search's.

    Steps: ``_work`` is a thread's loop (``_take`` a task, ``_run`` it, ``_file`` what it
    returns); a task opens a part (``_open``), solves a part or a part of a first guess
    (``_solve``, which hands the last one's part to ``_refutations``), or refutes a batch of a
    part's other guesses (``_refute``); ``_results`` chooses each big part's guess at the end.
    The state is shared by the threads under ``cond``."""

    def __init__(
        self,
        search: TreeSearch,
        parts: list[_Part],
        big: list[_Part],
        rows: int,
        build: bool,
        row: tuple[Allowed, int] | None = None,
    ) -> None:
        self.search = search
        self.row = row  # the list of the node the parts are of, and its guess (see TreeSearch._part_list)
        self.rows = rows
        self.rem = search.max_guesses - rows
        self.build = build
        self.plans: dict[int, _PartPlan] = {}
        self.results: dict[int, tuple[float, Node | None]] = {}
        big_keys = {b[0] for b in big}
        self.queue = collections.deque(
            sorted((_Task("plan", Hs.size, p, H=Hs, cons=cons) for p, Hs, cons in big), key=lambda t: -t.size)
        )
        self.small = collections.deque(
            sorted(
                (_Task("part", Hs.size, p, H=Hs, cons=cons) for p, Hs, cons in parts if p not in big_keys),
                key=lambda t: -t.size,
            )
        )
        self.chains: dict[int, collections.deque[_Task]] = {}  # a part's refutation batches, in trial order
        self.owner: dict[int, int] = {}  # the thread that takes them in order
        self.cond = threading.Condition()
        self.running = 0
        # hard mode: the whole small parts first (see the class docstring)
        self.small_first = search.hard

    def run(self) -> dict[int, tuple[float, Node | None]]:
        self.search._on_threads(self.search._active, self._work)
        if self.search._active[0].halted:  # a part cannot be won: its INF is in results
            return self.results
        return self._results()

    # --- a thread's loop

    def _work(self, worker: _Worker, group: int) -> None:
        while True:
            with self.cond:
                task = self._take(group)
                while task is None and self.running > 0:
                    self.cond.wait()  # a task under way may still add refutations
                    task = self._take(group)
                if task is None:
                    return
                self.running += 1
            new: list[_Task] = []
            try:
                new = self._run(worker, group, task)
            except _Halted:
                pass
            finally:
                with self.cond:
                    self.running -= 1
                    self._file(task, new, group)
                    self.cond.notify_all()

    def _take(self, group: int) -> _Task | None:
        """The next task for a thread (under the lock): the next batch of the part it refutes
        (in order, as one thread would: each batch reads the refutations before it in the
        table), else (in hard mode) a small part, else a queued task (plans, then first guesses'
        parts), else the next batch of another thread's part (every chain has an owner from the
        start), else a small part; nothing once a part is known unwinnable."""
        if self.search._active[group].halted:
            return None
        mine = [p for p, g in self.owner.items() if g == group and self.chains[p]]
        if mine:
            return self.chains[mine[0]].popleft()
        # A part whose first guess cannot win most likely cannot be won at all, which settles
        # the total and stops everything else: every thread refutes its guesses first.
        for p, chain in self.chains.items():
            if chain and self.plans[p].doomed:
                return chain.popleft()
        if self.small_first and self.small:
            return self.small.popleft()
        if self.queue:
            return self.queue.popleft()
        for chain in self.chains.values():
            if chain:
                return chain.popleft()
        return self.small.popleft() if self.small else None

    def _file(self, task: _Task, new: list[_Task], group: int) -> None:
        """What a task returned, where the threads take it (under the lock): an opened part's
        first guess's parts join the queue, biggest first after the plans; a part's refutation
        batches become its chain, owned by the thread that solved the last part of its first
        guess."""
        if new and task.kind == "plan":
            queued = sorted([*self.queue, *new], key=lambda t: (t.kind != "plan", -t.size))
            self.queue.clear()
            self.queue.extend(queued)
        elif new:
            self.chains[task.part] = collections.deque(new)
            self.owner[task.part] = group

    def _run(self, worker: _Worker, group: int, task: _Task) -> list[_Task]:
        if task.kind == "plan":
            return self._open(worker, task)
        if task.kind == "refute":
            self._refute(worker, group, task)
            return []
        return self._solve(worker, task)

    # --- the tasks

    def _open(self, worker: _Worker, task: _Task) -> list[_Task]:
        """Open a big part: its plan, and its first guess's parts as tasks (none when the plan
        settles the part)."""
        search, lex = self.search, self.search.lexicon
        p, Hs, cons = task.part, task.H, task.cons
        plan = search._plan(Hs, self.rem, cons, worker)
        if plan.settled is not None or plan.order.size == 0:  # nothing to try, or nothing beats the incumbent
            value = plan.settled if plan.settled is not None else plan.incumbent[0]
            self.results[p] = (
                value,
                search._build(worker, Hs, self.rows, cons) if self.build and value < INF else None,
            )
            if value >= INF:
                search._halt()
            return []
        pats = np.asarray(search.mt[Hs, plan.first])
        green = all_green(lex.length)
        subs = [q for q in np.unique(pats).tolist() if q != green]
        plan.waiting = len(subs)
        self.plans[p] = plan
        return [
            _Task(
                "sub",
                int((pats == q).sum()),
                p,
                q,
                Hs[pats == q],
                search._child_constraints(cons, lex.guesses[plan.first], q),
            )
            for q in subs
        ]

    def _solve(self, worker: _Worker, task: _Task) -> list[_Task]:
        """Solve a whole part, or a part of a big part's first guess (the last of those hands
        the big part's other guesses out as refutations)."""
        search = self.search
        r = self.rows if task.kind == "part" else self.rows + 1
        if self.build:
            try:
                node = search._build(worker, task.H, r, task.cons)
                out: tuple[float, Node | None] = (node.value, node)
            except UnsolvableError:  # a first guess that cannot finish (hard mode, guess cap)
                out = (INF, None)
        else:
            row, p = self.row, task.part  # a whole part of the first guess (self.row's)
            if task.sub is not None:  # a part of a big part's first guess
                big = self.plans[task.part]
                row, p = (big.legal, big.first), task.sub
            allowed = search._part_list(worker, task.H, task.cons, row, p)
            out = (search._run(worker, task.H, search.max_guesses - r, INF, allowed, -1)[0], None)
        if task.kind == "part":
            self.results[task.part] = out
            if out[0] >= INF:
                search._halt()
            return []
        plan = self.plans[task.part]
        assert task.sub is not None  # a "sub" task names its pattern
        with self.cond:
            plan.subs[task.sub] = out
            plan.waiting -= 1
            last = plan.waiting == 0
        return self._refutations(task.part) if last else []

    def _refutations(self, p: int) -> list[_Task]:
        """The part's other guesses as batches, now that its first guess's value is known."""
        search = self.search
        plan = self.plans[p]
        v1 = float(search.w[plan.H].sum()) + sum(v for v, _ in plan.subs.values())
        plan.values = np.full(plan.order.size, INF)
        plan.values[0] = v1
        # the best value so far and its place in the trial order, one entry per thread (each
        # writes its own, all read all); the first guess and the incumbent come first
        v0 = min(v1, plan.incumbent[0])
        plan.doomed = v0 >= INF
        plan.best = np.full(len(search._active), sk.BEST_NONE if v0 >= INF else int(v0) << sk.BEST_SHIFT, np.int64)
        if v0 <= plan.alpha:
            return []  # the node's lower bound is met: nothing after can be better
        plan.tried = np.full(plan.order.size, -INF)
        if self._aspires(plan):  # (at once only with aspiration_after 0: the tests')
            self._aspire(plan)
        batches = self._batches(p, min(v0, plan.cap))
        if not batches:
            return self._settled(p)
        return batches

    def _batches(self, p: int, bound: float) -> list[_Task]:
        """The part's guesses after its first whose lower bounds are below ``bound``, as batches
        of refutations (counted in ``plan.batches``)."""
        plan = self.plans[p]
        live = np.flatnonzero((plan.lbs[1:] < min(bound, plan.aspiration)) & plan.undecided) + 1
        n = self.search.tuning.trial_batch
        cuts = list(range(0, live.size, n))
        if plan.doomed and not plan.aspiring and self.search.tuning.aspiration_step > 0:
            # A doomed part's guesses can each take a second to refute without a bound, and the
            # rounds begin only between batches (see _aspires): batches of 1, 2, 4 … guesses up
            # to trial_batch.  (Batches of 4 throughout cost classic SALET hard on 2 threads a
            # sixth of its time, 0.30 -> 0.36 s: its doomed parts' guesses take milliseconds.)
            cuts, size, i = [], 1, 0
            while i < live.size:
                cuts.append(i)
                i += size
                size = min(2 * size, n)
        ends = [*cuts[1:], live.size]
        batches = [_Task("refute", 0, p, batch=live[a:b]) for a, b in zip(cuts, ends)]
        plan.batches = len(batches)
        plan.begin_round(self.search.tuning.keep_floors)
        return batches

    def _refute(self, worker: _Worker, group: int, task: _Task) -> None:
        """A batch of a big part's other guesses, each against the best value so far."""
        plan = self.plans[task.part]
        i = task.batch
        batch = sk.Batch(plan.order[i], plan.lbs[i], i.astype(np.int64), np.full(i.size, INF), np.full(i.size, -INF))
        race = sk.Race(plan.alpha, min(plan.cap, plan.aspiration), plan.best, group)
        t0 = time.perf_counter()
        self.search._accounted(
            worker, sk._try_guesses, worker.S, worker.X, worker.TT, plan.H, self.rem, plan.allowed, batch, race
        )
        plan.values[i] = batch.values
        plan.tried[i] = race.cap
        with self.cond:
            if self.search.tuning.keep_floors:
                plan.lbs[i] = np.maximum(plan.lbs[i], batch.floors)
            if race.cap < INF or not plan.aspiring:  # (a round counts its own batches)
                plan.spent += time.perf_counter() - t0
            if plan.aspiring and race.cap == plan.aspiration < INF:  # the round's own batches
                searched = batch.floors > -INF
                plan.refuted += int(np.count_nonzero(searched & (batch.values >= INF)))
                plan.lost += int(np.count_nonzero(batch.floors >= INF))
            plan.batches -= 1
            if plan.batches == 0:
                more = self._settled(task.part)
                if more:
                    self.chains[task.part].extend(more)
            elif self._aspires(plan):
                self._aspire(plan)

    def _settled(self, p: int) -> list[_Task]:
        """Every guess of big part ``p`` is tried (under the lock): when none wins within the
        cap, the part's INF settles the sum, and the other parts are stopped; when none beat a
        round's aspiration, the next round's batches (see _next_round)."""
        plan = self.plans[p]
        if min(plan.incumbent[0], float(plan.values.min())) < INF:
            return []
        if plan.aspiring and np.any(plan.undecided):
            return self._next_round(p)
        self.results[p] = (INF, None)
        self.search._halt()
        return []

    def _aspires(self, plan: _PartPlan) -> bool:
        """Whether a doomed part's refutations, so far without a bound and none of them a win,
        have cost the threads enough to begin the rounds (see _next_round)."""
        tune = self.search.tuning
        return (
            plan.doomed
            and not plan.aspiring
            and tune.aspiration_step > 0
            and plan.spent >= tune.aspiration_after
            and float(plan.values.min()) >= INF
        )

    def _aspire(self, plan: _PartPlan) -> None:
        """The first round: the part's batches not yet begun are refuted against its lower
        bound plus a step."""
        plan.aspiring = True
        plan.step = self.search.tuning.aspiration_step * plan.H.size
        plan.aspiration = plan.alpha + plan.step
        plan.begin_round(self.search.tuning.keep_floors)

    def _next_round(self, p: int) -> list[_Task]:
        """A doomed part's refutations again, at a higher aspiration.

        In hard mode a part whose first guess cannot win often has hundreds more that cannot
        (NYT-3158 hard TIARE's part 00101, 121 answers: its first 313 guesses in trial order,
        GLEAM the first that wins, at 402).  Searched without a bound, each of them must be
        proven unable to win, a search of its trap to the end (PECAN 1.9 s); against a bound
        just above the part's value it is refuted by its parts' bounds (PECAN 0.4 s), and the
        part's whole search takes 3.7 s instead of 33.  So a doomed part's guesses are refuted
        in rounds against an aspiration, from the part's lower bound up, in steps of
        ``aspiration_step`` a answer growing half again each round: a guess that beats it is
        exact, and from then on the race goes on as without aspiration (the guesses refuted at
        the aspiration are above it, so above the value found: the chosen guess and the value
        are the search's own).  A round no guess beats proves only that the part is worth at
        least its aspiration; the next round reads the table the last one left.  A part that
        truly cannot be won would climb in vain (NYT-3158 hard RULES' part 00020: 66 CPU-s
        without a bound, 144 after a climb), as would one whose value is dear to reach from
        below (ERICA's 238 answers).  The two differ in what a round proves of its refuted
        guesses: in a part that cannot be won, more and more of them are proven unable to win
        at all (their search's fail-soft bound is INF); in one that can, fewer.  So a round that
        took over ``aspiration_seconds`` of the threads' time and proved at least
        ``aspiration_lost`` of its refuted guesses unable to win, or an aspiration past the most
        the cap allows (every answer at the last guess), is followed by the search without
        one; a dear round that proved fewer climbs on."""
        plan = self.plans[p]
        tune = self.search.tuning
        while True:
            plan.step *= 1.5
            nxt = plan.aspiration + plan.step
            lost = plan.lost >= tune.aspiration_lost * max(plan.refuted, 1)
            if (plan.spent > tune.aspiration_seconds and lost) or nxt >= plan.H.size * self.rem:
                nxt = INF
            plan.aspiration = nxt
            batches = self._batches(p, plan.cap)  # (none: every guess's bound is above the aspiration)
            if batches or nxt >= INF:
                break
        if not batches:
            self.results[p] = (INF, None)
            self.search._halt()
        return batches

    # --- the end

    def _results(self) -> dict[int, tuple[float, Node | None]]:
        """Each part's value (and with ``build`` its subtree): a big part's guess is its
        incumbent, replaced only by a strictly better guess in trial order, as in _node."""
        search = self.search
        results = self.results
        for p, plan in self.plans.items():
            value, guess = plan.incumbent
            # trial order: only a strictly better guess replaces, so the first of the best (a
            # loop over every guess here was 5 ms of classic SALET's 0.17 s on 2 threads)
            i = int(np.argmin(plan.values)) if plan.values.size else -1
            if i >= 0 and plan.values[i] < min(value, plan.cap):
                value, guess = float(plan.values[i]), int(plan.order[i])
            node = None
            if self.build and value < INF:
                if guess == plan.first:
                    node = Node(guess, plan.H, value, {q: n for q, (_, n) in plan.subs.items() if n is not None})
                else:
                    node = search._build(search._active[0], plan.H, self.rows, plan.cons)
            results[p] = (value, node)
        return results


class TreeSearch:
    """Best guesses by tree search over a lexicon.

    ``k``: guesses searched per node (None: all, i.e. exact); ``kc``: extra possible answers per
    node; ``weights``: answer weights (None: unit weights, the classic total; ``"prior"``: the
    lexicon's prior, expected guesses).
    """

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        k: int | None = DEFAULT_K,
        kc: int = DEFAULT_KC,
        hard: bool = False,
        max_guesses: int = 6,
        weights: np.ndarray | str | None = None,
        memory_mb: float = DEFAULT_MEMORY_MB,
        threads: int = 2,
        matrix_t: np.ndarray | None = None,
        matrix: np.ndarray | None = None,
        fail_cost: float | None = None,
        depth: int | None = None,
        guess_space: str = "all",
        tuning: SearchTuning = DEFAULT_TUNING,
    ) -> None:
        if 3**lexicon.length > MAX_PATTERNS:
            raise ValueError(f"tree search supports words of up to 7 letters, not {lexicon.length}")
        self.lexicon = lexicon
        if guess_space not in ("all", "candidates"):
            raise ValueError(f"unknown guess space {guess_space!r}; use 'all' or 'candidates'")
        if not isinstance(tuning, SearchTuning):
            raise TypeError("tuning must be a SearchTuning")
        self.tuning = tuning
        self.k = k
        self.kc = kc
        self.depth = depth
        self.guess_space = guess_space
        self.hard = hard
        self.max_guesses = max_guesses
        self.threads = max(1, threads)
        if isinstance(weights, str):
            if weights != "prior":
                raise ValueError("weights must be an array, None or 'prior'")
            weights = lexicon.prior if lexicon.weighted else None
        self.weighted = weights is not None
        w = np.ones(lexicon.n_answers) if weights is None else np.asarray(weights, np.float64)
        if w.shape != (lexicon.n_answers,) or not np.all(w > 0):
            raise ValueError("one positive weight per answer is needed")
        if self.weighted:
            w = w / w.sum()
        self.w = np.ascontiguousarray(w)
        # answers x guesses: the search reads one answer's patterns contiguously
        self.mt = read_only(matrix_t) if matrix_t is not None else transposed(lexicon)
        if self.mt.shape != (lexicon.n_answers, lexicon.n_guesses):
            raise ValueError(f"matrix_t must be answers x guesses, {lexicon.n_answers} x {lexicon.n_guesses}")
        # guesses x answers, for scans of big nodes (see _shared_scan_order): the caller's, or
        # the one the transpose was made from (already in memory); none when only the transpose
        # was given (those scans then read the transpose)
        self._rows: np.ndarray | None = None
        if matrix is not None:
            self._rows = read_only(matrix)
        elif matrix_t is None:
            self._rows = pattern_matrix(lexicon)
        if self._rows is not None and self._rows.shape != (lexicon.n_guesses, lexicon.n_answers):
            raise ValueError(f"matrix must be guesses x answers, {lexicon.n_guesses} x {lexicon.n_answers}")
        rng = np.random.default_rng(0x5EED)
        codes = lexicon.guess_codes
        lcount = np.zeros((lexicon.n_guesses, 26), np.int8)
        for i in range(lexicon.length):
            np.add.at(lcount, (np.arange(lexicon.n_guesses), codes[:, i]), 1)
        ip = np.zeros(sk.N_IP, np.int64)
        ip[sk.IP_K] = 0 if k is None else k
        ip[sk.IP_KC] = kc
        ip[sk.IP_HARD] = int(hard)
        ip[sk.IP_UNIFORM] = int(not self.weighted)
        ip[sk.IP_NPAT] = 3**lexicon.length
        ip[sk.IP_GREEN] = all_green(lexicon.length)
        ip[sk.IP_DEDUP] = int(not hard)
        if depth is not None and k is None:
            raise ValueError("the exact search has no depth limit")
        ip[sk.IP_DEPTH] = 0 if depth is None else depth
        ip[sk.IP_CANDONLY] = int(guess_space == "candidates")
        ip[sk.IP_PASS2] = 1
        fp = np.zeros(sk.N_FP, np.float64)
        fp[sk.FP_MARGIN] = 1e-9 if self.weighted else 0.5
        tuning.copy_into(ip, fp)
        # A hard cap (every answer within max_guesses, else INF) unless a failure cost is given.
        fp[sk.FP_FAIL] = INF if fail_cost is None else float(fail_cost)
        if fail_cost is not None and fail_cost < 1:
            raise ValueError("fail_cost must be at least 1 (a lost game costs at least a guess)")
        self.S = sk.Static(
            mt=self.mt,
            w=self.w,
            gid=np.ascontiguousarray(lexicon.answer_ids.astype(np.int32)),
            aog=np.ascontiguousarray(lexicon.answer_of_guess.astype(np.int32)),
            zob=rng.integers(1, 2**63, lexicon.n_answers, dtype=np.uint64),
            codes=np.ascontiguousarray(codes),
            lcount=lcount,
            allg=np.arange(lexicon.n_guesses, dtype=np.int32),
            # only the family bound reads them (hard mode, kernels._family_applies): 4.5 ms on
            # the nyt set's 14,855 answers that a normal-mode search would spend for nothing
            fam=(
                answer_families(lexicon.answer_codes)
                if hard and tuning.family_cut
                else np.full((lexicon.n_answers, lexicon.length), -1, np.int32)
            ),
            ip=ip,
            fp=fp,
        )
        n = lexicon.length
        # every guess, no hints: made once (a part the threads solve asks for it: ~5 us a time)
        self._every = Allowed(self.S.allg, np.uint64(0), np.full(n, -1, np.int8), np.zeros(26, np.int8))
        self.margin = float(fp[sk.FP_MARGIN])
        self.fail_cost = float(fp[sk.FP_FAIL])  # INF: a hard cap
        self._budget_lock = threading.Lock()
        self._remaining: int | None = None
        self.work_done = 0
        # One table for all the threads: what one proves, the others read (see sk._tt_check).
        shared = _Worker.table(int(memory_mb * (1 << 20)), start_slots=tuning.table_start_slots)
        self._workers = [_Worker(self, shared) for _ in range(self.threads)]
        # Isolated calls (see ``isolated``) run on their own small tables, emptied each time.
        self._play: list[_Worker] | None = None
        self._active = self._workers
        # Lanes (see ``lane``): scratch workers of callers' own threads, on the shared table.
        self._lanes: list[_Worker] = []  # free ones
        self._all_lanes: list[_Worker] = []
        self._lanes_lock = threading.Lock()
        self._lane_of = threading.local()
        self._last_order: tuple[tuple[object, ...], np.ndarray] | None = None  # see root_order
        self.stats = SearchStats()
        self._stopped = False  # see stop

    # --- node description ----------------------------------------------------------------------

    def allowed(self, constraints: HardConstraints | None = None, pool: np.ndarray | None = None) -> Allowed:
        """The guesses a node may play (guess ids), and what names them: the hard-mode hints and
        their hash (``constraints``, hard mode only; None: none yet), or a ``pool`` of guess ids
        (normal mode only) that restricts the guesses the whole search may use, whose hash keeps
        the table's entries for it apart from unrestricted ones."""
        n = self.lexicon.length
        if not self.hard or constraints is None:
            if pool is not None:
                T = np.ascontiguousarray(np.unique(pool).astype(np.int32))
                h = np.frombuffer(hashlib.sha256(T.tobytes()).digest()[:8], np.uint64)[0] | np.uint64(1)
                return Allowed(T, np.uint64(h), np.full(n, -1, np.int8), np.zeros(26, np.int8))
            return self._every
        greens = constraints.green_at.astype(np.int8)
        mins = constraints.min_count.astype(np.int8)
        guesses = np.flatnonzero(constraints.mask(self.lexicon.guess_codes)).astype(np.int32)
        return Allowed(guesses, np.uint64(sk._constraint_hash(greens, mins)), greens, mins)

    def _node_list(self, H: np.ndarray, constraints: HardConstraints | None) -> Allowed:
        """The list a node of answers H is searched with from Python: ``allowed(constraints)``,
        except for one or two answers, whose value and guess have a closed form that reads no list
        (``sk._closed_forms``: guess the likelier answer, then the other; an answer is always a
        legal guess under its own hints), so every guess stands in.  In hard mode the list of
        legal guesses is a pass over every guess: ~40 us alone, 105-180 us on a thread beside a
        sibling's search (classic SALET hard on 2 threads: 358 such lists, 196 of them for one
        or two answers; 2026-12-03)."""
        return self._every if H.size <= 2 else self.allowed(constraints)

    def _by_classes(self, worker: _Worker, H: np.ndarray, allowed: Allowed) -> Allowed:
        """``allowed`` cut to the first guess of each letter class of H (see
        sk._letter_classes): for a part the threads share out (_SharedParts) and search as a
        node of its own (its query node), as the serial search cuts the same part below its
        query node.  Same values and guesses (the first of equal partitions is kept); the
        part's own scan and its parts' reductions then start from the shorter list.  On 2
        threads (bench_peer.py, medians of 3, 2026-11-29): classic SALET 0.18 -> 0.16 s,
        nyt-2309 TARSE 0.63 -> 0.57 s.  Not for the parts ``_solve_parts`` hands out whole: each
        does the work ``node_value`` does on it (hard mode's node counts too; a test holds it)."""
        if H.size < self.tuning.classes_part_min or not sk._by_classes(worker.S, H):
            return allowed
        out = np.empty(allowed.guesses.size, np.int32)
        kept = sk._letter_classes(worker.S, worker.X, H, allowed.guesses, out)
        return allowed._replace(guesses=kept)

    def _part_list(
        self,
        worker: _Worker,
        H: np.ndarray,
        constraints: HardConstraints | None,
        row: tuple[Allowed, int] | None,
        pattern: int,
        classes: bool = True,
    ) -> Allowed:
        """The list a part handed to a thread is searched with: the part H (hints
        ``constraints``) left by the pattern ``pattern`` of ``row``'s guess at a node of list
        ``row[0]``.  ``_node_list``, cut to H's letter classes with ``classes`` (as
        ``_by_classes``), made in one kernel call from the node's list (``sk._part_list``, the
        way the search derives a child's) rather than from every guess: same guesses, same order,
        same hash.  Classic SALET hard on 2 threads makes 162 such lists; made from the hints,
        each was a parallel mask of every guess (40 us alone, 180-260 us a call beside the
        sibling thread's search) and a second call for the classes: a thread's time in Python
        between kernel calls 40.5 -> 33 ms a run (means of six, alternated; 2026-12-03).
        ``row`` None: made from the hints.  The list lives in the worker's scratch
        (``_Worker.lists``) until its next call."""
        if H.size <= 2:
            return self._every  # (see _node_list)
        if row is None or not self.hard:  # (outside hard mode every part's list is every guess)
            allowed = self._node_list(H, constraints)
            return self._by_classes(worker, H, allowed) if classes else allowed
        parent, guess = row
        minimum = self.tuning.classes_part_min if classes else H.size + 1
        a = sk._part_list(worker.S, worker.X, parent, guess, pattern, H, *worker.lists, minimum)
        return Allowed(a.guesses, np.uint64(a.hsig), a.greens, a.mins)

    def _run(
        self, worker: _Worker, H: np.ndarray, rem: int, beta: float, allowed: Allowed, forced: int
    ) -> tuple[float, int]:
        """``sk._node`` at (H, allowed, rem) on a worker: (value, guess), see its docstring."""
        found = self._accounted(
            worker, sk._node, worker.S, worker.X, worker.TT, H, 0, int(rem), float(beta), allowed, int(forced)
        )
        return float(found.value), int(found.guess)

    def stop(self) -> None:
        """Stop this search's calls under way, from another thread: their kernels return at the
        next check (milliseconds) and the calls raise SearchStopped, as does every call after.
        For a Ctrl+C: Python handles it in the main thread between two bytecodes, so a kernel
        running there (a first word's whole search on one thread: minutes) would hold it until
        it returned; the caller runs the search on a thread of its own instead and, on the
        interrupt, stops it here (see app/opener_rating.py)."""
        self._stopped = True  # before the aborts: _accounted reads it after clearing its abort
        for wk in self._workers + (self._play or []) + self._all_lanes:
            wk.TT.meta[sk.M_ABORT] = 1

    def _accounted(self, worker: _Worker, kernel: Callable[..., _T], *args: object) -> _T:
        """``kernel(*args)`` on a worker, its work counted against the budget and its counters
        added to the stats; raises BudgetExceeded when the budget ran out."""
        meta = worker.TT.meta
        meta[sk.M_WORK] = 0
        meta[sk.M_ABORT] = 0
        # read after the reset: _halt (and stop) set the flag before they set M_ABORT, so a
        # halt is seen here or by the kernel
        if self._stopped:
            raise SearchStopped()
        if worker.halted:
            raise _Halted()
        with self._budget_lock:
            # a worker's own allowance while work is shared out statically, else what is left
            limit = worker.allowance if worker.allowance is not None else self._remaining
        if limit is not None and limit <= 0:
            raise BudgetExceeded()
        worker.S.ip[sk.IP_WORK_BUDGET] = 0 if limit is None else max(1, limit)
        if limit is not None:
            # a budget buys the same work whatever an earlier call left: cores start empty
            worker.X.corekey[:] = 0
        before = meta.copy()
        out = kernel(*args)
        self.stats.add(meta - before)
        work = int(meta[sk.M_WORK])
        with self._budget_lock:
            self.work_done += work
            if self._remaining is not None:
                self._remaining -= work
            if worker.allowance is not None:
                worker.allowance -= work
        if meta[sk.M_ABORT]:
            if self._stopped:
                raise SearchStopped()
            raise _Halted() if worker.halted else BudgetExceeded()
        return out

    def set_depth(self, depth: int | None) -> None:
        """Change the look-ahead limit (None: search to the end).  Table entries made under a
        limit are tagged with it, so levels never mix."""
        if depth is not None and self.k is None:
            raise ValueError("the exact search has no depth limit")
        self._set_ip(sk.IP_DEPTH, 0 if depth is None else depth)
        self.depth = depth

    def _set_ip(self, index: int, value: int) -> None:
        """Set an int parameter for the search and every worker's copy of it."""
        self.S.ip[index] = value
        for wk in self._workers + (self._play or []) + self._all_lanes:
            wk.S.ip[index] = value

    # --- work budget ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def budget(self, units: int | None) -> Iterator[TreeSearch]:
        """The calls inside may do at most ``units`` of work in all (scan units, see
        ``search_kernels.M_WORK``), else they raise BudgetExceeded.  None: no limit."""
        self._remaining = units
        try:
            yield self
        finally:
            self._remaining = None

    @contextlib.contextmanager
    def isolated(self) -> Iterator[TreeSearch]:
        """The calls inside depend on nothing searched before, so what they return (and the
        work they count against a budget) is a function of their arguments alone.

        They run on ``tuning.play_split`` small tables of their own, emptied on entry, and share work out
        statically: a big node's guesses go to fixed groups (guess i to group i mod play_split),
        each with its own table, bound and equal share of the budget.  The groups run on two
        threads when the search has them, one after the other otherwise, so the outcome is the
        same for any thread count.  (With the shared queue of the normal calls, which thread
        searched what, and so what its table held and whether a budget sufficed, depended on
        timing: the same position could get another suggestion when asked again.)  Values are
        the same as outside; only the budget's verdict could differ.
        """
        if self._play is None:
            # each group its own table: its work must not depend on the other's timing
            tune = self.tuning
            self._play = [
                _Worker(self, _Worker.table(entries=tune.play_table_entries, pool=tune.play_table_pool, grows=False))
                for _ in range(tune.play_split)
            ]
        for wk in self._play:
            wk.clear()
        self._active = self._play
        try:
            yield self
        finally:
            self._active = self._workers

    # --- public API ----------------------------------------------------------------------------
    #
    # The checked entry points (value_of_guess, best, rank, tree) validate ids, rows and
    # constraints and raise WordlebotErrors; ``best_unchecked`` is the documented fast path for
    # callers that hold valid arrays already (the simulator), with a sentinel instead of errors.

    def value_of_guess(
        self,
        guess: WordId,
        candidates: np.ndarray | None = None,
        *,
        rows: int = 0,
        constraints: HardConstraints | None = None,
        beta: float = INF,
        parallel: bool | None = None,
        pool: np.ndarray | None = None,
    ) -> float:
        """Total (expected) guesses over ``candidates`` if ``guess`` is played now and the search's
        strategy after it; a result ``>= beta`` only means "not below beta".

        Without a bound (and without a depth limit) the parts left by ``guess`` are independent
        problems, solved on all threads (same result as serial); with a bound the serial search
        can stop early.  Under a depth limit the guess is searched as ``rank`` searches each
        of its guesses, so the two values compare like for like.
        """
        H = self._check_cands(candidates)
        gid = self._check_guess(guess)
        self._check_rows(rows)
        constraints = self._check_constraints(constraints)
        if self.hard and constraints is not None:
            reason = constraints.violation(self.lexicon.guesses[gid])
            if reason:
                raise HardModeError(f"{self.lexicon.guesses[gid]!r} is not allowed: {reason}")
        if parallel is None:
            parallel = self._threaded and beta >= INF and H.size > 100
        if parallel and pool is None and self.depth is None:
            return self.subtrees(gid, H, rows, constraints)[0]
        allowed = self.allowed(constraints, pool)
        v, _ = self._run(self._current(), H, self.max_guesses - rows, beta, allowed, gid)
        return v

    def node_value(
        self, candidates: np.ndarray, *, rows: int, constraints: HardConstraints | None = None, beta: float = INF
    ) -> float:
        """The node's value (its best guess searched, as ``best`` does) if below ``beta``, else a
        number ``>= beta``: a lower bound proven, and kept in the table."""
        H = self._check_cands(candidates)
        self._check_rows(rows)
        allowed = self.allowed(self._check_constraints(constraints))
        v, _ = self._run(self._current(), H, self.max_guesses - rows, beta, allowed, -1)
        return v

    def node_bound(self, candidates: np.ndarray, *, rows: int, constraints: HardConstraints | None = None) -> float:
        """A lower bound on the node's value: the table's, else the best one-guess bound of a scan
        of every allowed guess (then kept in the table).  Exact searches only (0 otherwise)."""
        H = self._check_cands(candidates)
        self._check_rows(rows)
        allowed = self.allowed(self._check_constraints(constraints))
        wk = self._current()
        return float(
            self._accounted(
                wk,
                sk._part_bound,
                wk.S,
                wk.X,
                wk.TT,
                H,
                1,
                self.max_guesses - rows,
                allowed,
                float(self.w[H].sum()),
                INF,
            )
        )

    def _current(self) -> _Worker:
        """The worker of a serial call: the calling thread's lane (see ``lane``), if any."""
        worker = getattr(self._lane_of, "worker", None)
        return self._active[0] if worker is None or self._isolated else worker

    @contextlib.contextmanager
    def allowance(self, units: int) -> Iterator[TreeSearch]:
        """Inside a lane: the calling thread's calls may do at most ``units`` of work (scan
        units, see ``search_kernels.M_WORK``), else they raise BudgetExceeded.  The lane's own
        budget, unlike ``budget``: the other lanes' calls go on unbounded."""
        worker = getattr(self._lane_of, "worker", None)
        if worker is None:
            raise RuntimeError("allowance() needs a lane: use it inside `with search.lane():`")
        worker.allowance = units
        try:
            yield self
        finally:
            worker.allowance = None

    @contextlib.contextmanager
    def lane(self) -> Iterator[TreeSearch]:
        """Serial ``value_of_guess`` calls inside run on a scratch worker of the calling thread's
        own, on the search's one table: callers' threads can then evaluate guesses at once and
        each reads what the others proved (an opener sweep's tasks on one Dask worker process:
        the parts one first word leaves recur under its anagrams and neighbours).  Values are
        the same as without lanes; the table only saves work."""
        with self._lanes_lock:
            if not self._lanes:
                self._lanes.append(_Worker(self, self._workers[0].TT))
                self._all_lanes.append(self._lanes[-1])
            worker = self._lanes.pop()
        self._lane_of.worker = worker
        try:
            yield self
        finally:
            self._lane_of.worker = None
            with self._lanes_lock:
                self._lanes.append(worker)

    @property
    def _isolated(self) -> bool:
        return self._active is self._play

    @property
    def _threaded(self) -> bool:
        """Share big nodes out to work groups: on two threads or more, and always in isolated
        calls (whose groups then run one after the other), so that the work done, and a budget's
        verdict, do not depend on the thread count."""
        return self.threads > 1 or self._isolated

    def subtrees(
        self, guess: WordId, H: np.ndarray, rows: int, constraints: HardConstraints | None, build: bool = False
    ) -> tuple[float, dict[int, Node]]:
        """Solve each part ``guess`` leaves, the parts spread over the threads, biggest first.
        Returns the total and, with ``build``, each part's subtree (built by the thread that
        solved it, so its table already holds the answers).

        One part can hold most of the work (SALET's _ _ _ E _, 107 of 2,315 answers, is 57 % of
        classic SALET's search), so with threads a part of ``tuning.split_part_min`` answers or more is
        shared out itself: see ``_split_parts``.  Same values and trees either way."""
        lex = self.lexicon
        if self.hard and constraints is None:
            constraints = HardConstraints.none(lex.length)  # the parts' guesses follow from the root's
        word = lex.guesses[guess]
        green = all_green(lex.length)
        pats = np.asarray(self.mt[H, guess])
        parts = [
            (int(p), H[pats == p], self._child_constraints(constraints, word, int(p)))
            for p in np.unique(pats)
            if p != green
        ]
        total = float(self.w[H].sum())
        results = self._solve_parts(parts, rows + 1, build, (self.allowed(constraints), guess))
        for p, (v, _) in results.items():
            total += v
        return min(total, INF), {p: n for p, (_, n) in results.items() if n is not None}

    @property
    def _splits(self) -> bool:
        """Whether big parts are shared out (see _split_parts): on threads, outside isolated
        calls and budgets (whose work must not depend on the thread count); unit weights and a
        hard cap (integer values, summed in any order to the same total: a part's value is
        added up here from its parts as they finish); no depth limit (a part's parts, searched
        on their own, would get a level more than inside the part)."""
        return (
            self.threads > 1
            and not self._isolated
            and self._remaining is None
            and not self.weighted
            and self.fail_cost >= INF
            and self.depth is None
        )

    def _solve_parts(
        self, parts: list[_Part], rows: int, build: bool, row: tuple[Allowed, int] | None = None
    ) -> dict[int, tuple[float, Node | None]]:
        """Value (and with ``build`` the subtree) of each (key, answers, constraints) in
        ``parts``, each a node after ``rows`` guesses; spread over the threads, biggest first.
        ``row``: the list of the node the parts are of and the guess played there, the key
        each part's pattern (see _part_list).

        A part that cannot be won within the cap settles the sum (INF): the other parts are
        then stopped (``_halt``) and left out of the result, which holds that part's INF.
        (NYT-3158 hard mode CRANE: 205 s on 2 threads solving every part, against 94 s on one
        thread, whose kernel stops at the first such part.)"""
        with self._halting():
            rem = self.max_guesses - rows
            big = [t for t in parts if t[1].size >= self.tuning.split_part_min and rem >= 3] if self._splits else []
            if big:
                return self._split_parts(parts, big, rows, build, row)
            parts = sorted(parts, key=lambda t: -t[1].size)
            results: dict[int, tuple[float, Node | None]] = {}

            def solve(worker: _Worker, group: int, i: int) -> None:
                if worker.halted:
                    return
                p, Hs, cons = parts[i]
                try:
                    if build:
                        node = self._build(worker, Hs, rows, cons)
                        results[p] = (node.value, node)
                    else:
                        v, _ = self._run(worker, Hs, rem, INF, self._part_list(worker, Hs, cons, row, p, False), -1)
                        results[p] = (v, None)
                except UnsolvableError:  # _build: this part cannot be won
                    results[p] = (INF, None)
                except _Halted:
                    return
                if results[p][0] >= INF:
                    self._halt()

            self._share_out(len(parts), solve)
            return results

    @contextlib.contextmanager
    def _halting(self) -> Iterator[None]:
        """Within: ``_halt`` may stop the active workers' searches (their flags start and end
        clear, so a halt never reaches another call)."""
        for wk in self._active:
            wk.halted = False
        try:
            yield
        finally:
            for wk in self._active:
                wk.halted = False

    def _halt(self) -> None:
        """Stop the active workers' searches: the kernels under way return at their next check
        (void, storing nothing more) and ``_accounted`` raises _Halted, now and for every later
        call until ``_halting`` ends.  The flag is set before the abort, and ``_accounted``
        clears the abort before it reads the flag, so no call starting meanwhile runs on."""
        for wk in self._active:
            wk.halted = True
            wk.TT.meta[sk.M_ABORT] = 1

    def _split_parts(
        self, parts: list[_Part], big: list[_Part], rows: int, build: bool, row: tuple[Allowed, int] | None = None
    ) -> dict[int, tuple[float, Node | None]]:
        """``_solve_parts`` with the big parts shared out too (see ``_SharedParts``).  Its own
        ``_halting``: warm_up calls it directly, and a halt must not outlive the call."""
        with self._halting():
            return _SharedParts(self, parts, big, rows, build, row).run()

    def _plan(self, H: np.ndarray, rem: int, constraints: HardConstraints | None, wk: _Worker) -> _PartPlan:
        """``sk._node_plan`` for a node, on the worker ``wk``: the guesses to try in trial order
        (key, then list order; in the near-optimal search the kernel's own order), with their
        lower bounds."""
        legal = self.allowed(constraints)
        allowed = self._by_classes(wk, H, legal)
        size = max(allowed.guesses.size, H.size)
        out = sk.PlanOut(
            np.empty(size, np.int32), np.empty(size, np.float64), np.empty(size, np.int64), np.empty(size, np.float64)
        )
        plan = self._accounted(wk, sk._node_plan, wk.S, wk.X, wk.TT, H, int(rem), allowed, out)
        n = int(plan.count)
        order = np.lexsort((out.places[:n], out.keys[:n]))
        return _PartPlan(
            H,
            constraints,
            allowed,
            legal,
            float(plan.value) if plan.settled else None,
            float(plan.alpha),
            float(plan.cap),
            (float(plan.best_value), int(plan.best_guess)),
            out.guesses[order],
            out.lbs[order],
        )

    def _share_out(self, n: int, solve: Callable[[_Worker, int, int], None]) -> None:
        """Call ``solve(worker, group, i)`` for i in 0 … n-1 over the active workers (``group``:
        the worker's index among them).

        Normal calls: a shared queue, first come first served (fastest).  Isolated calls: item
        i goes to group i mod groups, in order, each group with an equal share of the budget, so
        every group's work is fixed by the arguments alone.
        """
        workers = self._active
        groups = len(workers)
        static = self._isolated
        lock = threading.Lock()
        nxt = [0]

        def work(worker: _Worker, group: int) -> None:
            i = group
            while True:
                if not static:
                    with lock:
                        i = nxt[0]
                        nxt[0] += 1
                if i >= n:
                    return
                solve(worker, group, i)
                i += groups

        if static:
            with self._budget_lock:
                share = None if self._remaining is None else self._remaining // groups
            for wk in workers:
                wk.allowance = share
        try:
            self._on_threads(workers, work)
        finally:
            for wk in workers:
                wk.allowance = None

    def _on_threads(self, workers: list[_Worker], work: Callable[[_Worker, int], None]) -> None:
        """``work(worker, group)`` for each worker: on threads when the search has them, else
        one after the other."""
        if self.threads == 1 or len(workers) == 1:
            for i, wk in enumerate(workers):
                work(wk, i)
            return
        errors: list[BaseException] = []

        def guarded(wk: _Worker, i: int) -> None:
            try:
                work(wk, i)
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)
                if isinstance(exc, BudgetExceeded):
                    for other in workers:  # stop the other threads soon too
                        other.TT.meta[sk.M_ABORT] = 1  # the search under way
                        if other.allowance is not None:
                            other.allowance = 0  # and the items it has yet to start

        threads = [threading.Thread(target=guarded, args=(wk, i), daemon=True) for i, wk in enumerate(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    # --- what a value is made of ----------------------------------------------------------------

    def loss(
        self,
        H: np.ndarray,
        rows: int,
        constraints: HardConstraints | None = None,
        *,
        guess: int = -1,
        value: float | None = None,
        pool: np.ndarray | None = None,
        lookahead: int = 0,
    ) -> float:
        """The weight of the answers of ``H`` that the searched strategy does not find within the
        cap: ``guess`` now (-1: the search's best) and the search's best after it, the strategy
        whose value (``value``, when the caller has it) ``rank`` or ``value_of_guess`` gave.

        With a failure cost F a value is G + F * L (G: the guesses, a lost answer's included; L:
        this loss), one number the search compares; the shells show L and G apart (the chance to
        lose, the guesses when solved: never a penalty as guesses).  G is at least the node's
        weight W and at most W times the guesses left, and a lost answer weighs at least the
        lightest, so a value below W + F * (lightest weight) has no loss: nothing to walk (always
        so without a loss on unit weights and the streak goal's F).  Otherwise the strategy is
        walked down to where that test settles it, each node's best guess asked of the search
        (table hits: the strategy was searched just before).

        ``lookahead``: the depth limit the value was searched at (1: the guess's parts are
        estimated, as the kernel does, without a loss, but for the closed forms it applies
        before the limit: the cap reached, one guess left)."""
        if self.fail_cost >= INF:
            return 0.0
        if self.hard and constraints is None:
            constraints = HardConstraints.none(self.lexicon.length)
        depth = self.depth
        try:
            return self._loss(
                self._current(), H, self.max_guesses - rows, constraints, guess, value, pool, lookahead or None
            )
        finally:
            self.set_depth(depth)

    def _loss(
        self,
        wk: _Worker,
        H: np.ndarray,
        rem: int,
        constraints: HardConstraints | None,
        guess: int,
        value: float | None,
        pool: np.ndarray | None,
        levels: int | None,
    ) -> float:
        """``loss`` below a node; ``levels``: the searched levels left above the depth limit
        (None: no limit)."""
        w = self.w[H]
        W = float(w.sum())
        if rem <= 0:
            return W
        if guess < 0:
            # the kernel's closed forms, in its order (_open_node)
            if H.size == 1:
                return 0.0
            if rem == 1:
                return W - float(w.max())
            if H.size == 2:
                return 0.0
            if levels is not None and levels <= 0:  # past the depth limit: an estimate, no loss in it
                return 0.0
        F = self.fail_cost
        floor = W + F * float(w.min()) * (1 - 1e-9)  # below it, no answer can be lost
        if value is not None and value < floor:
            return 0.0
        g = guess
        if value is None or guess < 0:
            self.set_depth(levels)
            allowed = self.allowed(constraints if self.hard else None, pool)
            value, g = self._run(wk, H, rem, INF, allowed, guess)
            if g < 0 or value >= INF:
                return W  # nothing finishes (the search gave up): every answer counted lost
            if value < floor:
                return 0.0
        word = self.lexicon.guesses[g]
        green = all_green(self.lexicon.length)
        pats = np.asarray(self.mt[H, g])
        lost = 0.0
        for p in np.unique(pats).tolist():
            if p == green:
                continue
            part = H[pats == p]
            lost += self._loss(
                wk,
                part,
                rem - 1,
                self._child_constraints(constraints, word, p),
                -1,
                None,
                pool,
                None if levels is None else levels - 1,
            )
        return lost

    def tree(
        self,
        first: WordId | None = None,
        candidates: np.ndarray | None = None,
        *,
        constraints: HardConstraints | None = None,
    ) -> Node:
        """The whole strategy from this node as a tree (the first guess chosen, or given)."""
        H = self._check_cands(candidates)
        constraints = self._check_constraints(constraints)
        if constraints is None and self.hard:
            constraints = HardConstraints.none(self.lexicon.length)
        if first is None:
            first, _ = self.best(H, constraints=constraints)
        first = self._check_guess(first)
        total, subtrees = self.subtrees(first, H, 0, constraints, build=True)
        if total >= INF:
            raise UnsolvableError(
                f"{self.lexicon.guesses[first]!r} cannot find every answer within {self.max_guesses} guesses"
            )
        return Node(first, H, total, subtrees)

    def _child_constraints(
        self, constraints: HardConstraints | None, word: str, pattern: int
    ) -> HardConstraints | None:
        """The hard-mode constraints after playing ``word`` and seeing ``pattern``."""
        return constraints.add(word, pattern) if (self.hard and constraints is not None) else constraints

    def _build(self, worker: _Worker, H: np.ndarray, rows: int, constraints: HardConstraints | None) -> Node:
        """Walk the solved strategy below a node (every step is a table hit or a closed form)."""
        allowed = self._node_list(H, constraints)
        v, g = self._run(worker, H, self.max_guesses - rows, INF, allowed, -1)
        if v >= INF or g < 0:
            raise UnsolvableError(f"no strategy finishes {H.size} answers within {self.max_guesses - rows} guesses")
        lex = self.lexicon
        green = all_green(lex.length)
        pats = np.asarray(self.mt[H, g])
        children = {}
        for p in np.unique(pats).tolist():
            if p == green:
                continue
            cons = self._child_constraints(constraints, lex.guesses[g], p)
            children[p] = self._build(worker, H[pats == p], rows + 1, cons)
        return Node(g, H, v, children)

    def best(
        self,
        candidates: np.ndarray | None = None,
        *,
        rows: int = 0,
        constraints: HardConstraints | None = None,
        parallel: bool | None = None,
        pool: np.ndarray | None = None,
    ) -> tuple[WordId, float]:
        """The best guess for the node and its value.  Raises UnsolvableError when no strategy
        finds every answer within the guesses left (only possible with a hard guess cap).

        Big nodes search their root candidates on all threads; the answer equals the serial one.
        """
        H = self._check_cands(candidates)
        self._check_rows(rows)
        g, v = self.best_unchecked(
            H, rows=rows, constraints=self._check_constraints(constraints), parallel=parallel, pool=pool
        )
        if g < 0:
            raise UnsolvableError(
                f"no strategy finds every one of these {H.size} answers within {self.max_guesses - rows} guesses"
            )
        return g, v

    def best_unchecked(
        self,
        H: np.ndarray,
        *,
        rows: int = 0,
        constraints: HardConstraints | None = None,
        parallel: bool | None = None,
        pool: np.ndarray | None = None,
    ) -> tuple[WordId, float]:
        """``best`` without checks: ``H`` must be sorted, distinct, in-range answer ids (int32,
        contiguous).  Returns (-1, INF) when nothing finishes in time."""
        rem = self.max_guesses - rows
        allowed = self.allowed(constraints, pool)
        if parallel is None:
            parallel = self._threaded and H.size > 3**self.lexicon.length
        if not parallel or rem <= 2:
            v, g = self._run(self._current(), H, rem, INF, allowed, -1)
            return (g, v) if v < INF else (-1, INF)
        order = self.root_order(H, rem, allowed)
        if order.size == 0:
            return -1, INF
        values = self._evaluate_parallel(order, H, rem, allowed)
        if not np.any(values < INF):
            return -1, INF
        i = int(np.argmin(values))  # first index among equal minima: the serial choice
        return int(order[i]), float(values[i])

    def root_order(self, H: np.ndarray, rem: int, allowed: Allowed, *, scanned: bool = False) -> np.ndarray:
        """The guesses a node (answers ``H``, ``rem`` guesses left, ``allowed``: see ``allowed``)
        would try, best first (guess ids).

        A function of the node's answers, guesses and constraint hash alone (not of the depth
        limit or the table), so the last one is remembered: the play policy ranks a node at
        two depths in a row, and this scan of every guess is a third of a mid-game suggestion.
        ``scanned``: the first worker's last search was of this node (same answers and guesses)
        and scanned it; its rows of depth 0 hold that scan (a node's parts use the deeper rows),
        so only the ordering is done again (``rank`` after ``best_unchecked``: on the nyt set a
        node of 219 answers saved 13 of the suggestion's ~45 ms)."""
        T = allowed.guesses
        key = (H.tobytes(), T.tobytes(), int(allowed.hsig))
        if self._last_order is not None and self._last_order[0] == key:
            return self._last_order[1].copy()
        wk = self._active[0]
        out = np.empty(max(T.size, H.size), np.int32)
        if scanned and wk.S.ip[sk.IP_CANDONLY] == 0:
            n = int(sk._order_scanned(wk.S, wk.X, H, T, out))
        elif self._threaded and T.size * H.size >= self.tuning.shared_scan_pairs and wk.S.ip[sk.IP_CANDONLY] == 0:
            n = self._shared_scan_order(H, T, out)
        else:
            n = sk._node_trials(wk.S, wk.X, wk.TT, H, int(rem), allowed, out)
        self._last_order = (key, out[:n].copy())
        return out[:n]

    def _shared_scan_order(self, H: np.ndarray, T: np.ndarray, out: np.ndarray) -> int:
        """``_node_trials`` with the scan shared out: each worker scans a contiguous share of
        ``T``, the shares are copied into the first worker's arrays, which orders them."""
        workers = self._active
        cuts = [T.size * i // len(workers) for i in range(len(workers) + 1)]
        by_answer = workers[0].S.mt
        density = self.tuning.row_scan_density_weighted if self.weighted else self.tuning.row_scan_density
        if self._rows is not None and H.size * density >= self.lexicon.n_answers:
            by_answer = self._rows.T  # each guess's patterns in one run (see sk._scan_share)
        self._on_threads(workers, lambda wk, i: sk._scan_share(wk.S, wk.X, H, T[cuts[i] : cuts[i + 1]], by_answer))
        first = workers[0].X
        for i, wk in enumerate(workers[1:], start=1):
            lo, hi = cuts[i], cuts[i + 1]
            for slot in SCAN_SLOTS:
                getattr(first, slot)[0][lo:hi] = getattr(wk.X, slot)[0][: hi - lo]
        return int(sk._order_scanned(workers[0].S, first, H, T, out))

    def warm_up(self, *, shared_parts: bool = True) -> None:
        """Compile (or load from Numba's cache) the kernels this search's calls reach, on a small
        node of all its answers, including the paths that only big nodes take and that a small
        node would never reach: a big node's scan shared out to the threads (read guess by guess
        and answer by answer), and, with ``shared_parts`` (exact whole-tree searches: unit weights,
        a hard cap, no depth limit), a first guess's big part shared out.  Each path compiles
        once per type of pattern matrix (5 letters: uint8; 6 and 7: uint16): ``prepare --kernels``
        calls this on made-up lists so that the first real search does not wait for it.
        Nothing searched here changes what later calls return."""
        lex = self.lexicon
        H = np.arange(lex.n_answers, dtype=np.int32)
        if shared_parts and not self.weighted and self.fail_cost >= INF and self.depth is None:
            if lex.n_answers * lex.n_guesses > 1 << 20:
                raise ValueError(
                    f"warm_up(shared_parts=True) solves all {lex.n_answers:,} answers: it is "
                    "meant for a small made-up lexicon"
                )
            cons = HardConstraints.none(lex.length) if self.hard else None
            self._split_parts([(0, H, cons)], [(0, H, cons)], 1, True)
            # the part may settle at its first guess (some made-up lists do), its other guesses
            # never tried in a batch: one batch here, against no bound, whatever the lists
            wk = self._active[0]
            plan = self._plan(H, self.max_guesses - 1, cons, wk)
            i = np.arange(min(plan.order.size, 4), dtype=np.int64)
            batch = sk.Batch(plan.order[i], plan.lbs[i], i, np.full(i.size, INF), np.full(i.size, -INF))
            race = sk.Race(plan.alpha, plan.cap, np.full(len(self._active), sk.BEST_NONE, np.int64), 0)
            self._accounted(wk, sk._try_guesses, wk.S, wk.X, wk.TT, H, self.max_guesses - 1, plan.allowed, batch, race)
            if self.hard and H.size > 2:  # a part's list cut from its node's (the parts above are whole)
                self._part_list(wk, H, cons, (self.allowed(cons), 0), int(self.mt[H[0], 0]))
        T = self.allowed().guesses
        self._shared_scan_order(H, T, np.empty(max(T.size, H.size), np.int32))
        wk = self._active[0]
        for layout in (wk.S.mt, None if self._rows is None else self._rows.T):
            if layout is not None:  # answer by answer; guess by guess
                sk._scan_share(wk.S, wk.X, H, T, layout)

    def rank(
        self,
        candidates: np.ndarray | None = None,
        *,
        rows: int = 0,
        constraints: HardConstraints | None = None,
        top: int = 10,
        pool: np.ndarray | None = None,
    ) -> list[tuple[WordId, float]]:
        """The ``top`` guesses with their values (total or expected guesses from here), best
        first: ``best``'s choice, then the node's other candidate guesses, each searched like
        the best one (bounded by the top-th value so far, so only the shown values are exact).
        Empty when no guess finishes in time."""
        H = self._check_cands(candidates)
        self._check_rows(rows)
        if top < 1:
            raise InvalidIdError(f"top must be at least 1, not {top}")
        constraints = self._check_constraints(constraints)
        rem = self.max_guesses - rows
        allowed = self.allowed(constraints, pool)
        if self._threaded and H.size > 3**self.lexicon.length and rem > 2:
            # Big node: every candidate guess shared out at once; the first is best's choice.
            trials = self.root_order(H, rem, allowed)
            values = self._evaluate_parallel(trials, H, rem, allowed, keep=top)
            idx = [i for i in np.argsort(values, kind="stable").tolist() if values[i] < INF]
            return [(int(trials[i]), float(values[i])) for i in idx][:top]
        scans = self.stats.scans
        g0, v0 = self.best_unchecked(H, rows=rows, constraints=constraints, parallel=False, pool=pool)
        # A node is scanned before any of its parts, so a scan means the root's own, in the rows
        # of depth 0 of the worker that searched it (see root_order).
        scanned = self.stats.scans > scans and self._current() is self._active[0]
        trials = self.root_order(H, rem, allowed, scanned=scanned)
        trials = trials[trials != g0]
        values = np.full(trials.size, INF)
        kept: list[float] = []
        wk = self._active[0]
        for i, g in enumerate(trials.tolist()):
            bound = kept[top - 2] + self.margin if top >= 2 and len(kept) >= top - 1 else INF
            v, _ = self._run(wk, H, rem, bound, allowed, int(g))
            if v < bound and v < INF:
                values[i] = v
                kept = sorted(kept + [v])
        rows_out = [(g0, v0)] if g0 >= 0 else []
        idx = [i for i in np.argsort(values, kind="stable").tolist() if values[i] < INF]
        rows_out += [(int(trials[i]), float(values[i])) for i in idx]
        return rows_out[:top]

    def _evaluate_parallel(
        self, order: np.ndarray, H: np.ndarray, rem: int, allowed: Allowed, keep: int = 1
    ) -> np.ndarray:
        """Each guess's value, the guesses shared out to the workers in order.  A guess is
        searched with the bound (keep-th best value so far + margin), so ties with the kept
        values are found exactly and, among equal values, order decides, as in the serial
        search.  A value that did not beat its bound is reported as INF.

        In isolated calls each group keeps its own values for its bound: a group's keep-th
        best is never better than the overall one, so every guess of the overall top ``keep``
        is still found exactly."""
        values = np.full(order.size, INF)
        static = self._isolated
        kept_by: list[list[float]] = [
            [] for _ in self._active
        ]  # isolated: one per group; else one for all (kept_by[0])
        lock = threading.Lock()

        def solve(worker: _Worker, group: int, i: int) -> None:
            kept = kept_by[group if static else 0]
            with lock:
                bound = kept[keep - 1] + self.margin if len(kept) >= keep else INF
            v, _ = self._run(worker, H, rem, bound, allowed, int(order[i]))
            with lock:
                if v < bound and v < INF:
                    values[i] = v
                    kept.append(v)
                    kept.sort()

        if static or not self.tuning.anagram_runs:
            self._share_out(order.size, solve)
            return values
        runs = self._anagram_runs(order)

        def solve_run(worker: _Worker, group: int, r: int) -> None:
            for i in runs[r]:
                solve(worker, group, i)

        self._share_out(len(runs), solve_run)
        return values

    def _anagram_runs(self, order: np.ndarray) -> list[list[int]]:
        """The places of ``order`` in runs of anagrams (the same letters, in any order), each run
        in order and the runs by their first place: what the threads of ``_evaluate_parallel``
        take, a run at a time (see SearchTuning.anagram_runs)."""
        runs: dict[str, list[int]] = {}
        words = self.lexicon.guesses
        for i, g in enumerate(order.tolist()):
            runs.setdefault("".join(sorted(words[g])), []).append(i)
        return list(runs.values())

    # --- checks of the public entry points -----------------------------------------------------

    def _check_cands(self, candidates: object) -> np.ndarray:
        """Answer ids as sorted distinct int32; a clear error for anything else."""
        n = self.lexicon.n_answers
        if candidates is None:
            return np.arange(n, dtype=np.int32)
        H = np.asarray(candidates)
        if H.ndim != 1 or not (H.size == 0 or np.issubdtype(H.dtype, np.integer)):
            raise InvalidIdError("candidates must be a flat list of answer ids (integers)")
        if H.size == 0:
            raise InvalidIdError("no candidates: the node has no answer left")
        bad = H[(H < 0) | (H >= n)]
        if bad.size:
            raise InvalidIdError(
                f"answer id {int(bad[0])} is out of range: the {self.lexicon.name} "
                f"list has {n:,} answers (ids 0 to {n - 1})"
            )
        H = H.astype(np.int32)
        if np.any(H[1:] <= H[:-1]):
            H = np.unique(H)
        return np.ascontiguousarray(H)

    def _check_guess(self, guess: object) -> int:
        n = self.lexicon.n_guesses
        if isinstance(guess, (bool, np.bool_)) or not isinstance(guess, (int, np.integer)):
            raise InvalidIdError(f"a guess id is an integer, not {guess!r} (use lexicon.id(word))")
        if not 0 <= int(guess) < n:
            raise InvalidIdError(
                f"guess id {int(guess)} is out of range: the {self.lexicon.name} "
                f"list has {n:,} guesses (ids 0 to {n - 1})"
            )
        return int(guess)

    def _check_rows(self, rows: int) -> None:
        if not 0 <= rows < self.max_guesses:
            raise InvalidIdError(f"rows played must be 0 to {self.max_guesses - 1}, not {rows}")

    def _check_constraints(self, constraints: object) -> HardConstraints | None:
        if constraints is not None and not isinstance(constraints, HardConstraints):
            raise InvalidIdError("constraints must be a HardConstraints (game.constraints) or None")
        if constraints is not None and constraints.green_at.shape != (self.lexicon.length,):
            raise InvalidIdError(
                f"constraints are for {constraints.green_at.shape[0]}-letter words, not {self.lexicon.length}"
            )
        return constraints


@dataclass
class Node:
    """A decision-tree node: the guess played for the answers ``answers`` (answer ids) and one
    child per feedback pattern other than all green.  ``value`` is the total (expected)
    number of guesses from here."""

    guess: WordId
    answers: np.ndarray
    value: float
    children: dict[int, Node] = field(default_factory=dict)
