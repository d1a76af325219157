"""Numba kernels of the tree search (see ``tree_search.py`` for the public twins and the method).

A node is a set H of answers (sorted answer ids), the guesses still allowed (all of them, or in
hard mode those meeting the constraints so far) and the number of guesses left.  Its value is the
least total, over H, of the guesses still needed (weighted by the answer weights; with unit
weights, the number of guesses), or INF when no strategy finishes within the guesses left.

``_node`` returns the exact value when it is below ``beta``; otherwise some number >= beta (a
proof that the node cannot beat beta).  Everything the recursion needs travels in named tuples
(numba compiles attribute access to a field load, so naming costs nothing), three of them
long-lived:

``Static``  (S, shared by the threads): the pattern matrix transposed (answers x guesses), answer
            weights, ids, hashes, letter tables and the parameters (``ip``/``fp``, see IP_*/FP_*;
            the tuning among them comes from ``search.SearchTuning``).
``Scratch`` (X, one per thread): per-depth rows, so a node's buffers survive while its children
            run, and the scan's small tallies.
``Table``   (TT, one per thread): a bounded transposition table of (lower, upper, best guess) per
            node, keyed by the set, the guesses left and the hard-mode constraints; every hit is
            verified against the stored answer set (collision-checked).  ``meta`` holds counters.

and the others per node or per step: ``Allowed`` (the guesses a node may play and its hard-mode
state), ``Found`` (a value and its guess), ``Opened`` (what ``_open_node`` settled or readied),
``Scan``, ``Entry``, ``Trial``, ``Split`` and ``Parts`` (what the steps return and fill), ``Plan``,
``Batch`` and ``Race`` (a big node's guesses shared between threads).  Every value that crosses
the boundary is one of these or a plain array or scalar: no Numba type leaves the module.

The module holds the tree search's kernels only; the generic ones (feedback, the pattern matrix,
the greedy rankers, hard-mode masks, the multi-board kernels) are in ``kernels.py``.
"""

from __future__ import annotations

from collections import namedtuple
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.kernels import JIT, bits_f64, f64_bits, wrapping

INF = 1e30
# A beta of FEAS asks a node only whether it can be won (see _node): any total below it is a
# strategy's (an upper bound, not the least), anything at or above it means INF.  Above every
# real total (at most guesses x answers x weights), and FEAS - total == FEAS in float64 for any
# total below 8e12, so a node's parts inherit the question.
FEAS = 1e29
# Constants one kernel passes another, typed.  Numba compiles a kernel called from another one
# for the types of the call's arguments, and it types a constant written in the call as itself
# (``_scan(..., 0, W)``: d is ``Literal[int](0)``, not int64) and an argument left out as its
# default: each such call site had the scan's four kernels, the ordering's two and the table's
# store compiled once more (``prepare --kernels`` compiled 129 specialisations, 103 once these
# calls were typed; 466 -> 403 s, 2026-12-02).  tests/test_prepare.py reads the calls.  For
# _node it is more than time: a cached recursive function with two specialisations crashes on
# reload (numba issue 6713), so _node is called with these alone (Python calls it likewise).
DEPTH0 = np.int64(0)  # the root's depth
NO_GUESS = np.int64(-1)  # a table entry's best guess when none is known
SIGNED = np.bool_(True)  # _scan: order the guesses and sign their partitions
UNSIGNED = np.bool_(False)  # _scan: a bound only

Static = namedtuple(
    "Static",
    [
        "mt",  # pattern matrix transposed: answers x guesses (uint8)
        "w",  # answer weights (unit weights: totals are exact integers in float64)
        "gid",  # guess id of each answer
        "aog",  # answer id of each guess, or -1
        "zob",  # a random 64-bit number per answer (the hash of a set is the sum of its members')
        "codes",  # guess letters (n_guesses x L)
        "lcount",  # letter counts per guess (n_guesses x 26)
        "allg",  # 0 ... n_guesses-1: the allowed list when hard mode is off
        "fam",  # the families of each answer (answers x L, -1: none), see _family_cut
        "ip",  # int64 parameters, see IP_* (each worker has its own copy: it holds the work budget)
        "fp",  # float64 parameters, see FP_*
    ],
)
Scratch = namedtuple(
    "Scratch",
    [
        # per depth d (row d), one entry per guess of the node's list T, written by the scan:
        "lbg",  # lower bound on the node's value if that guess is played now
        "key",  # ordering key, lower is better
        "sig",  # partition signature (0 until computed, see _signature)
        "useful",  # 1 if the guess splits the set or can win
        "order",  # the guesses to try, as indices into T
        "hitw",  # weight of the answer the guess is (-1: none)
        # per depth, per part of the guess being evaluated:
        "elems",  # the node's answers grouped by pattern
        "offs",  # start of each pattern's run in elems
        "pw",  # weight of each part
        "plb",  # lower bound of each part
        "plist",  # the non-empty patterns, then the parts that need a search
        "tbuf",  # hard mode: the guesses allowed in a child (depth + 1 rows)
        "hscan",  # the node's answers in the order a cut scan reads them (depth + 1 rows; see _collisions_first)
        "classes",  # normal mode: the node's guess list, one per letter class (depth + 1 rows; see _letter_classes)
        "ctab",  # _letter_classes' table of the classes seen (see there)
        "ckeys",  # the class key of each guess of the list being reduced
        # near-optimal search: the candidates of nodes scanned (see _order_find), per slot:
        "okeys",  # the node's two hashes (0, 0: empty)
        "otrials",  # how many candidates
        "oscan",  # the scan's least bound, perfect split's value and its guess
        "ot",  # the candidates in trial order, as indices into the node's list
        "olb",  # their lower bounds
        "run",  # exact search: the guesses taken so far with the current key (see _next_trial)
        "rest",  # exact search: the least lower bound of the useful guesses not heaped (see _heap_of_trials)
        # the scan's tallies (reused by every node):
        "block",  # per-pattern counts of SCAN_BLOCK guesses at once (uniform scans)
        "cnt",  # per-pattern counts (weighted scans, the candidate-split shortcut)
        "mass",  # per-pattern weight
        "mx",  # per-pattern largest weight
        "zs",  # per-pattern hash sums (signatures)
        "fcnt",  # per family, its members in the node (zero between calls of _family_cut)
        "fmem",  # the members of the node's largest family
        "fhist",  # per class count, the guesses that split the family so (length + 2)
        "fseen",  # the patterns one guess gives the family's members (length + 2)
        # per depth, the node's unwinnable cores (see _core_refutes): whose node they are, how
        # many, where each starts and ends in ``cores``, and their answers
        "corekey",
        "coren",  # how many, and the end of the last in ``cores``
        "coreoff",  # each one's start and end in ``cores``
        "cores",
        # per depth, exact search in normal mode: the guesses the node evaluated (see _dominated)
        "domtab",  # the partitions coarser than theirs, as keys (see _dom_keep)
        "domn",  # the node's stamp, letters, keys stored and greens (see DOM_STAMP …)
    ],
)
Table = namedtuple(
    "Table",
    [
        # shared by a search's threads (see _tt_check):
        "ent",  # entries x E_WORDS uint64, one entry a cache line (see E_*)
        "pool",  # answer sets
        "alloc",  # the shared counts, see A_*
        # the worker's own:
        "meta",  # counters, see M_*
    ],
)


class Allowed(NamedTuple):
    """The guesses a node may play, and what names them in the table.  Outside hard mode: every
    guess (or a pool's), hsig 0 (or the pool's hash), no constraints.  In hard mode: the guesses
    meeting the hints so far, the hints (``greens``, ``mins``) and their hash (see
    ``_constraint_hash``); a child's come from ``_hard_child``.  Built in Python by
    ``TreeSearch.allowed``: the field types must be these, or every kernel compiles again."""

    guesses: np.ndarray  # allowed guess ids (int32, contiguous): the node's list "T"
    hsig: np.uint64  # the constraint (or pool) hash: part of every table key
    greens: np.ndarray  # int8 per position: the green letter there, -1 for none
    mins: np.ndarray  # int8 per letter: how many a guess must hold


class Found(NamedTuple):
    """A node's (or a guess's) value, and the guess that gets it (-1: none proven)."""

    value: float
    guess: int


class Entry(NamedTuple):
    """A table entry read by ``_tt_find``: its slot (-1: absent), bounds and best guess."""

    slot: int
    lo: float
    hi: float
    best: int


class Scan(NamedTuple):
    """What a scan found besides its per-guess rows: the least lower bound of a useful guess, and
    the best split into singletons (value INF and guess -1 when none)."""

    min_lb: float
    perfect: float
    perfect_guess: int


class Trial(NamedTuple):
    """The next guess out of the exact search's heap (``_next_trial``): its index into the
    node's list (-1: none left), the heap's size after it, and the run of equal keys taken."""

    t: int
    left: int
    run: int


class Parts(NamedTuple):
    """One depth's rows that ``_partition`` fills for the guess being evaluated."""

    elems: np.ndarray  # the node's answers grouped by pattern
    offs: np.ndarray  # start of each pattern's run in elems
    pw: np.ndarray  # weight of each part
    plb: np.ndarray  # lower bound of each part
    plist: np.ndarray  # the non-empty patterns, then the parts that need a search


class Split(NamedTuple):
    """What ``_partition`` returns: the parts, how many of them need a search (listed after the
    patterns in ``Parts.plist``), and the node's weight plus every part's lower bound."""

    parts: int
    big: int
    total: float


class TableTag(NamedTuple):
    """How a node is named in the table: its key, the guesses left it is stored under (with a
    depth limit, the levels left too) and whether it is stored at all."""

    key: np.uint64
    rem: int
    use: bool


class Opened(NamedTuple):
    """What ``_open_node`` returns.  ``done``: the node is settled at ``value`` (best guess
    ``guess``).  Otherwise the guesses to try are ready at the node's depth (``trials`` of them,
    a heap in the exact search, a sorted list in the near-optimal one) and index ``guesses`` (the
    node's allowed list, or in the candidates-only guess space the candidates themselves);
    ``alpha`` is the node's lower bound, ``cap`` the table's upper bound (plus the margin), and a
    perfect split, if any, the incumbent (``best_value``, ``best_guess``)."""

    done: bool
    value: float
    guess: int
    alpha: float
    cap: float
    best_value: float
    best_guess: int
    trials: int
    guesses: np.ndarray
    tag: TableTag


class Plan(NamedTuple):
    """What ``_node_plan`` returns: ``Opened``'s verdict and bounds, and ``count``, the guesses
    written to its ``PlanOut`` arrays when the node is not settled."""

    settled: bool
    value: float
    guess: int
    alpha: float
    cap: float
    best_value: float
    best_guess: int
    count: int


class PlanOut(NamedTuple):
    """The arrays ``_node_plan`` fills, one entry per guess the node may try."""

    guesses: np.ndarray  # guess ids (int32)
    keys: np.ndarray  # ordering keys (exact search; 0 in the near-optimal one)
    places: np.ndarray  # places in the guess list (exact) or in the trial order (near-optimal)
    lbs: np.ndarray  # lower bounds


class Batch(NamedTuple):
    """Guesses of a node that ``_try_guesses`` evaluates, and where it writes their values."""

    guesses: np.ndarray  # guess ids (int32)
    lbs: np.ndarray  # their lower bounds
    places: np.ndarray  # their places in the node's trial order (int64)
    values: np.ndarray  # out: each guess's value, INF when it did not beat its bound
    # out: what its search proved of each guess searched (its value, or a lower bound at least
    # the bound it failed; INF: it cannot be won), -INF for one skipped
    floors: np.ndarray


class Race(NamedTuple):
    """The threads sharing one node's guesses: the node's bounds, and each thread's best so far
    packed as one int64 (value << BEST_SHIFT | place; BEST_NONE: none yet), ``me`` the entry
    this thread writes."""

    alpha: float  # the node's lower bound: a guess that meets it ends the search
    cap: float  # the table's upper bound (plus the margin)
    best: np.ndarray
    me: int


# Table.alloc: the counts the threads share (written without locks: a lost increment only
# delays a growth).
A_POOL = 0  # pool entries in use
A_STORED = 1  # entries stored since the table was emptied
A_MASK = 2  # the slots in use are 0 … mask (see _tt_grow)
A_HIGH = 3  # the most slots ever in use since the table was made (what _tt_clear empties)
A_GROWING = 4  # a thread is moving entries (see _tt_grow)
A_START = 5  # the slots in use when the table is empty
N_ALLOC = 6
# A table starts with few slots in use (A_START; search.SearchTuning.table_start_slots) and
# doubles them whenever a quarter are taken (see _tt_grow).

# An entry's words (Table.ent's columns).  One entry is one 64-byte line: a probe reads one line
# and a first store faults in one page, where a column per field (the layout before) read eight
# lines and faulted eight pages (classic SALET: 28,000 page faults in 0.6 s; threads fault in
# turn).  The table's arrays start on a 64-byte boundary (search._Worker.table).
E_KEY = 0  # the node's key XOR the entry's check (see _tt_check); 0 = empty
E_HSIG = 1  # hard-mode constraint hash
E_LO = 2  # lower bound on the value, as float64 bits
E_HI = 3  # upper bound
E_OFF = 4  # the answer set: its start in pool
E_PACK = 5  # best guess (low 32 bits, -1: unknown) | set size << 32 (24 bits) | guesses left << 56
E_WORDS = 8  # 6 used, padded to the line
PACK_NN_SHIFT = 32
PACK_RR_SHIFT = 56
PACK_NN_MASK = (1 << 24) - 1

# int parameters (S.ip)
IP_K = 0  # guesses tried per node: <= 0 means every allowed guess (exact search)
IP_KC = 1  # extra: best possible answers tried per node (near-optimal search)
IP_HARD = 2
IP_UNIFORM = 3  # unit weights: enables the integer closed forms and shortcuts
IP_NPAT = 4
IP_GREEN = 5
IP_PERFECT_COST = (
    6  # (a tuning, see IP_PERFECT_MAX) per guess checked for a split into singletons (see _perfect_split; 0: no check)
)
IP_DEDUP = 7  # skip guesses whose partition equals an earlier one (normal mode only)
IP_TT_MIN = 8  # smallest node stored in the table
IP_DEPTH = 9  # levels searched below the query node before estimating (0: all the way)
IP_CANDONLY = 10  # guess space: only words that can still be the answer
IP_PASS2 = 11  # a guess evaluated alone tightens its parts' bounds with a scan each first
IP_WORK_BUDGET = 12  # stop (abort) after this much work, in scan units (see M_WORK; 0: no limit)
# the tuning (search.SearchTuning, where each is explained), copied in by TreeSearch:
IP_SCAN_TALLY_MIN = 13  # from this many answers a uniform scan counts first, then reads each tally
IP_PRUNE_MIN = 14  # the exact search prunes its heap of guesses above this many
IP_PASS2_MIN_ALONE = 15  # parts this big of a lone guess get a scan each (see IP_PASS2)
IP_PASS2_MIN_HARD = 16  # ... and of every guess in the exact search in hard mode
IP_NODE_COST = 17  # the work of a node visit, in scan units (see M_WORK)
IP_EVAL_COST = 18  # per answer partitioned when a guess is evaluated
IP_GUESS_COST = 19  # per guess scanned, whatever the node's size
IP_WEIGHTED_COST = 20  # weighted work costs this / 2 times as much
IP_PERFECT_MAX = 21  # nodes of up to this many answers are checked for a split into singletons first
IP_SCAN_CUT = 22  # bits: uniform scans stop a block of guesses at the node's bound (1), part bounds at the guess's (2; see _scan_uniform); a node's bound 2W settles it unscanned (4; see _shortcuts); a cut scan reads the answers most alike first (8; see _collisions_first); the exact search tightens a guess's parts largest first (16; see _tighten); with two guesses left under a hard cap a part's bound is its value (32; see _part_bound); the family bound settles hard mode's traps (64; see _family_cut); a guess's parts are first asked whether they can be won at all where no bound is in sight (128; see _node); a guess that leaves an answer set known unwinnable whole in one part is refuted unsearched (256; see _core_refutes); the exact search in normal mode skips a guess coarser than one evaluated at the node (512; see _dominated)
IP_PASS2_NODE_MIN = 23  # the exact search tightens every guess's parts (IP_PASS2_MIN_HARD, IP_PASS2_MIN_BIG) at nodes this big, in either mode (0: none)
IP_CLASSES = 24  # nodes below the query node scan one guess per letter class (see _by_classes; 0: every guess)
IP_NEAR_NODE_MIN = 25  # the near-optimal search tightens every guess's parts at nodes this big (0: none) ...
IP_NEAR_PART_MIN = 26  # ... the parts of at least this many answers (see _tighten, _order_find)
IP_SCAN_TALLY_UNCUT = 27  # IP_SCAN_TALLY_MIN for a scan without a cut
IP_PASS2_MIN_BIG = 28  # IP_PASS2_MIN_HARD for normal mode's big nodes (IP_PASS2_NODE_MIN)
IP_PROBE_FORCED = 29  # set by _try_guesses: its guesses at bound INF probe their parts (see _node)
IP_PASS2_LATE_MIN = 30  # below IP_PASS2_NODE_MIN, a node this big tightens its later guesses' parts ...
IP_PASS2_LATE_AFTER = 31  # ... once its guesses refuted by search cost this many scans of it (see _node)
N_IP = 32

# A uniform scan counts the parts of this many guesses at once, reading each answer's patterns
# for them as one run of the matrix row (see _scan_uniform).  Not a tuning like the others: it
# sizes the scratch tallies (Scratch.block) and the kernel's small arrays, and is compiled in.
SCAN_BLOCK = 16
# The most answers a uniform scan tallies first (its squares summed in 32 bits: 46,340**2 < 2**31).
TALLY32_MAX = 46_340
# The work of reducing a guess list to its letter classes, per guess (see _letter_classes), in
# scan units: ~6 ns a guess, about what two answers' patterns cost a scan.
CLASS_COST = 2
# A weighted scan takes SCAN_BLOCK guesses at once (_scan_weighted) from this many answers: the
# nyt set, 14,855 guesses, one core (2026-11-28, load 3): 50 answers 8.1 -> 5.1 ms, 100 20 -> 9.2,
# 219 45 -> 18, 600 75 -> 42; below ~16 its tallies' setup costs more than it saves (3 answers
# 0.21 -> 0.27 ms, 8 0.67 -> 0.81; 20 2.5 -> 2.2).
SCAN_WEIGHTED_MIN = 16
# Below this many answers the one-guess-at-a-time scan also writes every guess's partition
# signature: a small node has fewer distinct partitions than the near-optimal search's k, so its
# ordering compares nearly every guess's signature with the ones kept (see _trial_order), and
# computing them one call at a time took 1.5-3 ms a node of 3-8 answers on the nyt set (the scan
# itself 0.2-0.7 ms).
SCAN_SIG_MAX = 16
# A thread's best value so far and the place of its guess in trial order, packed in one int64
# (value << BEST_SHIFT | place) for the threads sharing a node's guesses (see _try_guesses).
BEST_SHIFT = 24
BEST_NONE = np.int64(1) << 62  # no value yet

# float parameters (S.fp)
FP_MARGIN = 0  # ties: a bound of (best + margin) lets an equal value be found exactly
FP_FAIL = 1  # cost per unit weight of an answer not found within the cap (INF: a hard cap)
FP_EST_A = 2  # the estimate past the depth limit: a + b ln(n) per unit weight (tuning)
FP_EST_B = 3
N_FP = 4

# meta counters (TT.meta)
M_STORED, M_CLEARS, M_HITS, M_NODES, M_SCANS, M_EVALS = 1, 2, 3, 4, 5, 6  # (0: free)
M_WORK = 7  # work done in this call, in scan units (one answer against one guess, ~3-5 ns)
M_ABORT = 8  # set when the work budget ran out: the call's result is void, nothing more is stored
M_PERFECT = 9  # nodes settled by a split into singletons found without a scan (see _perfect_split)
M_FAMILY = 10  # nodes settled by the family bound (see _family_cut)
M_CORE = 11  # guesses refuted by a node's unwinnable cores (see _core_refutes)
M_DOMINATED = 12  # guesses skipped as coarser than one evaluated before (see _dominated)
N_META = 13

_GREEN_SALT = np.uint64(0x9E3779B97F4A7C15)


@njit(inline="always", **JIT)
def _failed(x, fail):
    """Cost of answers of weight x left unfound when the guesses run out."""
    return INF if fail >= INF else x * fail


@njit(inline="always", **JIT)
def _last_guess(sw, smax, fail):
    """Value of a set (weight sw, heaviest smax) with one guess left: play the heaviest; the
    rest are not found."""
    if sw == smax:
        return sw
    return INF if fail >= INF else sw + (sw - smax) * fail


@njit(inline="always", **JIT)
def _mix(z):
    """splitmix64 finaliser: a bijection with _mix(0) == 0, so empty parts add nothing."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


# ---------------------------------------------------------------------------------------------
# Transposition table


@njit(**JIT)
def _tt_key(hsum, rem, hsig):
    return _mix(hsum ^ _mix(np.uint64(rem) * np.uint64(0x100000001B3) ^ hsig)) | np.uint64(1)


@njit(inline="always", **JIT)
def _node_key(S, H, rem, hsig):
    """A node's table key: its answers' hash (the sum of theirs), the guesses left and the hints'."""
    hsum = np.uint64(0)
    zob = S.zob
    for j in range(H.shape[0]):
        hsum += zob[H[j]]
    return _tt_key(hsum, rem, hsig)


@njit(inline="always", **JIT)
def _tt_check(hsig, lo, hi, off, pack):
    """A hash of an entry's words.  The table stores the node's key XOR this, so that threads
    can share one table without locks: an entry read while another thread writes it (some
    words old, some new, some another node's) fails the check and reads as a miss, never as
    wrong bounds."""
    h = _mix(lo ^ np.uint64(0x2545F4914F6CDD1D))
    h = _mix(h ^ hi)
    h = _mix(h ^ hsig)
    h = _mix(h ^ pack)
    return _mix(h ^ off)


@njit(inline="always", **JIT)
def _tt_pack(g, nh, rem):
    return (
        np.uint64(np.int64(g) & 0xFFFFFFFF)
        | (np.uint64(nh) << np.uint64(PACK_NN_SHIFT))
        | (np.uint64(rem) << np.uint64(PACK_RR_SHIFT))
    )


@njit(inline="always", **JIT)
def _tt_best(pack):
    b = np.int64(pack & np.uint64(0xFFFFFFFF))
    return np.int32(b - (1 << 32) if b >= (1 << 31) else b)


@njit(inline="always", **JIT)
def _tt_find(TT, key, H, rem, hsig):
    """The ``Entry`` of (H, rem, hsig): slot (-1 when absent), lower, upper, best guess.  Each
    field is read once, the reads are checked together (see _tt_check), then the set itself."""
    ent, pool = TT.ent, TT.pool
    mask = TT.alloc[A_MASK]
    nh = H.shape[0]
    want = (np.uint64(nh) << np.uint64(PACK_NN_SHIFT)) | (np.uint64(rem) << np.uint64(PACK_RR_SHIFT))
    i = np.int64(key & np.uint64(mask))
    for _ in range(4):
        stored = ent[i, E_KEY]
        if stored == 0:
            break
        pack = ent[i, E_PACK]
        h_i = ent[i, E_HSIG]
        if (pack & ~np.uint64(0xFFFFFFFF)) == want and h_i == hsig:
            lo = ent[i, E_LO]
            hi = ent[i, E_HI]
            ow = ent[i, E_OFF]
            o = np.int64(ow)
            if stored ^ _tt_check(h_i, lo, hi, ow, pack) == key and 0 <= o and o + nh <= pool.shape[0]:
                same = True
                for j in range(nh):
                    if pool[o + j] != H[j]:
                        same = False
                        break
                if same:
                    return Entry(i, bits_f64(lo), bits_f64(hi), np.int64(_tt_best(pack)))
        i = (i + 1) & mask
    return Entry(np.int64(-1), 0.0, 0.0, np.int64(-1))


@njit(**JIT)
def _tt_clear(TT):
    """Empty the table (only the slots ever used are touched), back to its first size."""
    alloc = TT.alloc
    TT.ent[: alloc[A_HIGH] + 1, E_KEY] = 0
    alloc[A_POOL] = 0
    alloc[A_STORED] = 0
    alloc[A_MASK] = alloc[A_START] - 1
    TT.meta[M_CLEARS] += 1


@njit(**JIT)
def _tt_grow(TT):
    """Double the slots in use (see A_START).  An entry's slot is its key's low bits
    (then up to 3 further on, see _tt_find), so with one bit more an entry of the old slots
    either belongs where it is or ``size`` slots further on: those are moved (the key is
    recovered from the entry's words and its check), then the ones left behind close the gaps
    the moves opened in their probe runs (a probe stops at an empty slot).  Other threads go on
    reading and writing meanwhile: an entry being moved reads as a miss, never as another
    node's bounds (see _tt_check), and one stored meanwhile where the new slots do not look is
    only lost.  What the table holds changes the search's speed, never its results."""
    alloc = TT.alloc
    if alloc[A_GROWING] != 0:
        return  # another thread is at it
    alloc[A_GROWING] = 1
    ent = TT.ent
    size = alloc[A_MASK] + 1
    if 2 * size <= ent.shape[0]:
        new_mask = 2 * size - 1
        for stay in range(2):  # the entries that move, then the ones that stay
            for i in range(size):
                stored = ent[i, E_KEY]
                if stored == 0:
                    continue
                lo, hi, ow, pack, hsig = ent[i, E_LO], ent[i, E_HI], ent[i, E_OFF], ent[i, E_PACK], ent[i, E_HSIG]
                j = np.int64((stored ^ _tt_check(hsig, lo, hi, ow, pack)) & np.uint64(new_mask))
                if (j < size) != (stay == 1) or j == i:
                    continue
                ent[i, E_KEY] = 0  # readers miss while it moves (or it is dropped: no slot left)
                for _ in range(4):
                    if j == i or ent[j, E_KEY] == 0:
                        ent[j, E_HSIG] = hsig
                        ent[j, E_LO] = lo
                        ent[j, E_HI] = hi
                        ent[j, E_OFF] = ow
                        ent[j, E_PACK] = pack
                        ent[j, E_KEY] = stored
                        break
                    j = (j + 1) & new_mask
        alloc[A_MASK] = new_mask
        if new_mask > alloc[A_HIGH]:
            alloc[A_HIGH] = new_mask
    alloc[A_GROWING] = 0


@njit(inline="always", **JIT)
def _tt_write(TT, slot, key, hsig, vlo, vhi, g, o, nh, rem):
    lo = f64_bits(vlo)
    hi = f64_bits(vhi)
    ow = np.uint64(o)
    pack = _tt_pack(g, nh, rem)
    ent = TT.ent
    ent[slot, E_KEY] = 0  # readers miss while the words change
    ent[slot, E_HSIG] = hsig
    ent[slot, E_LO] = lo
    ent[slot, E_HI] = hi
    ent[slot, E_OFF] = ow
    ent[slot, E_PACK] = pack
    ent[slot, E_KEY] = key ^ _tt_check(hsig, lo, hi, ow, pack)


@njit(**JIT)
def _tt_store(TT, key, H, rem, hsig, vlo, vhi, g):
    """Store (or tighten) the bounds of (H, rem, hsig).  Threads may share the table: each
    entry is written with its check (see _tt_check); a pool slice two threads claimed at once
    holds one set or the other, and _tt_find compares the set itself."""
    meta = TT.meta
    if meta[M_ABORT] != 0:
        return  # an aborted search's numbers are not bounds
    e = _tt_find(TT, key, H, rem, hsig)
    nh = H.shape[0]
    i = e.slot
    if i >= 0:
        lo_n, hi_n, b_n = e.lo, e.hi, e.best
        if vlo > lo_n:
            lo_n = vlo
        if vhi < hi_n:
            hi_n = vhi
            b_n = g
        if vlo == vhi:
            b_n = g
        _tt_write(TT, i, key, hsig, lo_n, hi_n, b_n, np.int64(TT.ent[i, E_OFF]), nh, rem)
        return
    pool = TT.pool
    alloc = TT.alloc
    o = alloc[A_POOL]
    if o + nh > pool.shape[0]:
        _tt_clear(TT)  # full: start afresh (bounded memory; cheap compared to a search)
        o = 0
    alloc[A_POOL] = o + nh
    for j in range(nh):
        pool[o + j] = H[j]
    ent = TT.ent
    mask = alloc[A_MASK]
    i = np.int64(key & np.uint64(mask))
    slot = i
    for _ in range(4):
        if ent[i, E_KEY] == 0:
            slot = i
            break
        i = (i + 1) & mask
    _tt_write(TT, slot, key, hsig, vlo, vhi, g, o, nh, rem)
    meta[M_STORED] += 1
    alloc[A_STORED] += 1
    if 4 * alloc[A_STORED] > mask + 1 and mask + 1 < ent.shape[0]:
        _tt_grow(TT)


@njit(inline="always", **JIT)
def _charge(S, meta, units):
    """Count work; past the budget, flag the call as aborted.  Weighted nodes cost more per
    answer (masses and maxima are kept beside the counts)."""
    if S.ip[IP_UNIFORM] == 0:
        units = units * S.ip[IP_WEIGHTED_COST] // 2
    meta[M_WORK] += units
    budget = S.ip[IP_WORK_BUDGET]
    if budget > 0 and meta[M_WORK] > budget:
        meta[M_ABORT] = 1


# ---------------------------------------------------------------------------------------------
# Hard mode


@njit(**JIT)
def _hard_child(S, allowed, g, p, out):
    """The child's ``Allowed`` after the row (g, p): the node's allowed guesses (which meet its
    constraints) that meet the row's too, written to ``out``, with the child's constraints and
    their hash."""
    T, greens, mincnt = allowed.guesses, allowed.greens, allowed.mins
    codes = S.codes
    lcount = S.lcount
    length = codes.shape[1]
    g2 = greens.copy()
    m2 = mincnt.copy()
    row = np.zeros(26, np.int8)
    q = p
    for i in range(length):
        c = q % 3
        q //= 3
        x = codes[g, i]
        if c == 2:
            g2[i] = x
        if c != 0:
            row[x] += 1
    for x in range(26):
        if row[x] > m2[x]:
            m2[x] = row[x]
    # T already meets the parent's constraints: only what the row adds is checked (at most a
    # green and a minimum count per tile), not all 26 letters of every guess.  Hard-mode
    # searches spent half their time here (classic SALET hard 2.1 s, of which 1.2 s).
    gpos = np.empty(length, np.int64)
    ng = 0
    for i in range(length):
        if g2[i] >= 0 and g2[i] != greens[i]:
            gpos[ng] = i
            ng += 1
    mlet = np.empty(length, np.int64)
    nm = 0
    for x in range(26):
        if m2[x] > mincnt[x]:
            mlet[nm] = x
            nm += 1
    n = 0
    for t in range(T.shape[0]):
        w = T[t]
        # The rule of kernels._hard_mode_mask (both are checked against the textbook rule in
        # the tests), written out: a shared helper called here made exact hard-mode
        # searches 2.5x slower (SALET hard 2.6 s instead of 1.0 s).
        ok = True
        for k in range(ng):
            i = gpos[k]
            if codes[w, i] != g2[i]:
                ok = False
                break
        if ok:
            for k in range(nm):
                x = mlet[k]
                if lcount[w, x] < m2[x]:
                    ok = False
                    break
        if ok:
            out[n] = w
            n += 1
    return Allowed(out[:n], _constraint_hash(g2, m2), g2, m2)


@wrapping
@njit(**JIT)
def _constraint_hash(greens, mincnt):
    """Names a hard-mode state: the allowed guesses are a function of it."""
    h = np.uint64(0x51ED27)
    for i in range(greens.shape[0]):
        # int64 first, as Numba promotes (int8 + int literal is int64 there); as plain Python the
        # sum would stay int8 and overflow.
        h = _mix(h ^ np.uint64(np.int64(greens[i]) + 1 + 64 * i))
    for x in range(26):
        if mincnt[x] > 0:
            h = _mix(h ^ np.uint64(1000 + 32 * x + np.int64(mincnt[x])))
    return h


# ---------------------------------------------------------------------------------------------
# The scan: every allowed guess against a node's answers


@wrapping
@njit(**JIT)
def _scan(S, X, H, T, d, W, signed=True, cut=INF):
    """Per guess t of T: lower bound ``lbg`` on the node value if t is played now, an ordering
    ``key`` (lower is better), the weight of the answer it hits (``hitw``, -1 if none) and
    whether t is useful (splits H or can win); ``sig`` is cleared (partition signatures are
    computed later, only for the few guesses that need one), or below SCAN_SIG_MAX answers on
    weights written for every guess (see _scan_general).  Returns a ``Scan``: the least
    lbg of a useful guess, the best perfect split's value and its guess.

    ``cut`` (the exact search's bound, INF: none): a guess whose lower bound is found to reach
    it before every answer is counted may stop there (uniform scans, see _scan_uniform).  Its
    lbg is then a lower bound at least ``cut`` (not its full scan bound), its key and signature
    unset: it must not be tried below ``cut``, which is what the exact search does with it.

    With the matrix in rows (answers x guesses, as S.mt is), SCAN_BLOCK guesses at a time:
    ``_scan_uniform`` for unit weights, ``_scan_weighted`` otherwise (from SCAN_WEIGHTED_MIN
    answers).  Smaller weighted nodes, and the root's share read through the guesses x answers
    matrix: ``_scan_general``, one guess at a time.  Same values either way (the weighted ones
    bit for bit: the same sums in the same order).
    """
    if S.ip[IP_UNIFORM] != 0 and S.mt.strides[1] == 1:
        return _scan_uniform(S, X, H, T, d, W, cut)
    if S.ip[IP_UNIFORM] == 0 and S.mt.strides[1] == 1 and H.shape[0] >= SCAN_WEIGHTED_MIN:
        return _scan_weighted(S, X, H, T, d, W)
    return _scan_general(S, X, H, T, d, W, signed)


@njit(**JIT)
def _scan_uniform(S, X, H, T, d, W, cut):
    """``_scan`` with unit weights, SCAN_BLOCK guesses at once.  For each answer the patterns of
    the block's guesses are one run of its matrix row (one cache line; the guesses of T are
    consecutive ids outside hard mode), counted into SCAN_BLOCK separate tallies: independent
    increments the processor overlaps, where one guess at a time chains every increment to the
    previous one and reads one cache line per answer.  2.4-3x faster per (answer, guess) pair.

    A small node counts parts and squares as it goes (and clears the tallies it touched); a
    big one only counts, then reads each tally once (fewer operations per answer).  The
    tallies are all zero between calls.

    The cut (a small node's scan, with ``cut`` below INF): once j answers are counted, a guess
    with ``parts`` parts so far has j - parts collisions (answers that share a part), and no
    later answer takes one back, so its bound W + 2 nh - parts - cg (see below) is at least
    W + nh - 1 + (j - parts).  When every guess of the block has collisions enough to reach the
    cut, the block stops: the exact search never tries a guess whose bound reaches its bound.
    Most guesses of a small node collide within a few answers (classic SALET: 2,200 of 12,972
    guesses a scan are below the bound), so the rest of their answers is never read."""
    mt = S.mt
    green = S.ip[IP_GREEN]
    lbg, key, sig, useful, hitw = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.hitw[d]
    blk = X.block
    npat = blk.shape[1]
    nh = H.shape[0]
    nt = T.shape[0]
    parts = np.zeros(SCAN_BLOCK, np.int64)
    s2 = np.zeros(SCAN_BLOCK, np.int64)
    hits = np.zeros(SCAN_BLOCK, np.int64)  # the green tallies (a tallied block is cleared as summed)
    # (a tallied block's squares are summed in 32 bits: see below)
    tally = (S.ip[IP_SCAN_TALLY_MIN] if cut < INF else S.ip[IP_SCAN_TALLY_UNCUT]) <= nh <= TALLY32_MAX
    # collisions that take a guess's bound to the cut (nh + 1: never, the scan has no cut)
    thr = nh + 1
    if cut < INF:
        thr = max(np.int64(np.ceil(cut - (W + nh - 1))), 1)
        if not tally and S.ip[IP_SCAN_CUT] & 8 != 0:
            H = _collisions_first(S, H, X.hscan[d])
    min_lb = INF
    perfect = INF
    perfect_g = -1
    for t0 in range(0, nt, SCAN_BLOCK):
        nb = min(SCAN_BLOCK, nt - t0)
        g0 = T[t0]
        run = nb == SCAN_BLOCK  # the block's guesses are consecutive ids (T need not be sorted)
        for b in range(nb):
            if T[t0 + b] != g0 + b:
                run = False
                break
        if tally:
            for j in range(nh):
                if run:
                    row = mt[H[j], g0 : g0 + SCAN_BLOCK]
                    for b in range(SCAN_BLOCK):
                        blk[b, row[b]] += 1
                else:
                    h = H[j]
                    for b in range(nb):
                        blk[b, mt[h, T[t0 + b]]] += 1
            # Summed in 32 bits, eight tallies to a vector rather than four, and cleared in
            # the same pass (the green tally kept first): a block of 24 to 200 answers 1,110-1,950
            # -> 430-1,240 ns in a stand-alone kernel (the 64-bit sum and a second pass to clear
            # took three fifths of a block at 24 answers, a third at 200).  Exact: a node's
            # squares add up to at most nh**2, under 2**31 up to TALLY32_MAX answers (bigger
            # nodes count as they go).
            for b in range(nb):
                hits[b] = blk[b, green]
                pb = np.int32(0)
                sb = np.int32(0)
                for p in range(npat):
                    c = np.int32(blk[b, p])
                    pb = np.int32(pb + (c > 0))
                    sb = np.int32(sb + c * c)
                    blk[b, p] = 0
                parts[b] = pb
                s2[b] = sb
        else:
            for b in range(nb):
                parts[b] = 0
                s2[b] = 0
            jend = nh  # the answers counted
            for j in range(nh):
                if run:
                    row = mt[H[j], g0 : g0 + SCAN_BLOCK]
                    for b in range(SCAN_BLOCK):
                        p = row[b]
                        c = blk[b, p]
                        parts[b] += c == 0
                        s2[b] += 2 * c + 1
                        blk[b, p] = c + 1
                else:
                    h = H[j]
                    for b in range(nb):
                        p = mt[h, T[t0 + b]]
                        c = blk[b, p]
                        parts[b] += c == 0
                        s2[b] += 2 * c + 1
                        blk[b, p] = c + 1
                if j + 1 >= thr and j + 1 < nh:
                    most = 0
                    for b in range(nb):
                        most = max(most, parts[b])
                    if j + 1 - most >= thr:
                        jend = j + 1
                        break
            if jend < nh:  # the block is cut: bounds from its collisions, then clear
                for b in range(nb):
                    lb = W + nh - 1 + (jend - parts[b])
                    lbg[t0 + b] = lb
                    useful[t0 + b] = 1  # a valid bound whatever the guess (see _scan_node)
                    min_lb = min(min_lb, lb)
                _clear_block(blk, mt, H, T, t0, nb, run, jend)
                continue
        for b in range(nb):
            t = t0 + b
            cand = (hits[b] if tally else blk[b, green]) > 0
            cg = 1 if cand else 0
            # non-green parts: sum of (2c - 1) = 2 (nh - cg) - (parts - cg); squares without the green 1
            lb = W + (2 * (nh - cg) - (parts[b] - cg))
            lbg[t] = lb
            sig[t] = 0
            hitw[t] = 1.0 if cand else -1.0
            ok = parts[b] > 1 or cand
            useful[t] = 1 if ok else 0
            key[t] = nh * lb + 2.0 * (s2[b] - cg)
            if ok and lb < min_lb:
                min_lb = lb
            if parts[b] == nh:
                v = 2.0 * W - cg
                if v < perfect:
                    perfect = v
                    perfect_g = T[t]
        if not tally:
            _clear_block(blk, mt, H, T, t0, nb, run, nh)
    return Scan(np.float64(min_lb), np.float64(perfect), np.int64(perfect_g))


@njit(**JIT)
def _collisions_first(S, H, out):
    """The answers of H in the order a cut scan should read them (in ``out``): those sharing
    the most letters in place with the others first.  Two answers collide under a guess when
    it colours them alike, which letters in common make likelier, so a block of guesses
    reaches its cut after fewer answers.  Any order gives the same counts; only where a
    block stops depends on it (a function of H: deterministic)."""
    codes, gid = S.codes, S.gid
    nh = H.shape[0]
    length = codes.shape[1]
    freq = np.zeros((length, S.lcount.shape[1]), np.int64)  # per position, per letter
    for j in range(nh):
        g = gid[H[j]]
        for i in range(length):
            freq[i, codes[g, i]] += 1
    score = np.empty(nh, np.int64)
    for j in range(nh):
        g = gid[H[j]]
        c = 0
        for i in range(length):
            c += freq[i, codes[g, i]]
        score[j] = -c
    perm = np.argsort(score, kind="mergesort")  # stable: ties keep H's order
    for j in range(nh):
        out[j] = H[perm[j]]
    return out[:nh]


@njit(inline="always", **JIT)
def _clear_block(blk, mt, H, T, t0, nb, run, n):
    """Zero the tallies of the block of guesses T[t0 : t0 + nb] that its first n answers touched
    (``run``: the block's guesses are consecutive ids)."""
    g0 = T[t0]
    for j in range(n):
        if run:
            row = mt[H[j], g0 : g0 + SCAN_BLOCK]
            for b in range(SCAN_BLOCK):
                blk[b, row[b]] = 0
        else:
            h = H[j]
            for b in range(nb):
                blk[b, mt[h, T[t0 + b]]] = 0


@wrapping
@njit(**JIT)
def _scan_weighted(S, X, H, T, d, W):
    """``_scan_general`` with weights, SCAN_BLOCK guesses at once (as ``_scan_uniform``): for
    each answer the block's patterns are read from one run of its matrix row, and the block's
    tallies (counts, masses, largest weights) are separate, so the increments of its guesses do
    not wait on each other; each guess lists its patterns as they first appear, and its parts
    are summarised from that list (not by a second pass over the answers).  Every sum is taken
    in the order ``_scan_general`` takes it (a part's mass over the node's answers in order, the
    parts in the order of their first answer), so the values are the same to the last bit.  A
    weighted mid-game search spends most of its time in scans (the nyt set: 14,855 guesses at
    every node).  The counts use X.block (all zero between calls, left so)."""
    mt, w = S.mt, S.w
    green = S.ip[IP_GREEN]
    lbg, key, sig, useful, hitw = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.hitw[d]
    blk = X.block
    npat = blk.shape[1]
    bmass = np.zeros((SCAN_BLOCK, npat), np.float64)
    bmx = np.zeros((SCAN_BLOCK, npat), np.float64)
    seen = np.empty((SCAN_BLOCK, npat), np.int32)  # each guess's patterns in order of first answer
    nseen = np.zeros(SCAN_BLOCK, np.int64)
    greenw = np.zeros(SCAN_BLOCK, np.float64)
    cols = np.empty(SCAN_BLOCK, np.int64)
    nh = H.shape[0]
    nt = T.shape[0]
    min_lb = INF
    perfect = INF
    perfect_g = -1
    for t0 in range(0, nt, SCAN_BLOCK):
        nb = min(SCAN_BLOCK, nt - t0)
        for b in range(nb):
            cols[b] = T[t0 + b]
            nseen[b] = 0
            greenw[b] = -1.0
        for j in range(nh):
            h = H[j]
            wh = w[h]
            for b in range(nb):
                p = np.int64(mt[h, cols[b]])
                c = blk[b, p]
                if c == 0:
                    seen[b, nseen[b]] = p
                    nseen[b] += 1
                    if p == green:
                        greenw[b] = wh
                blk[b, p] = c + 1
                bmass[b, p] += wh
                if wh > bmx[b, p]:
                    bmx[b, p] = wh
        for b in range(nb):
            acc = 0.0
            s2 = 0.0
            parts = nseen[b]
            for i in range(parts):
                p = seen[b, i]
                if p != green:
                    m = bmass[b, p]
                    acc += 2.0 * m - bmx[b, p]
                    s2 += m * m
                blk[b, p] = 0
                bmass[b, p] = 0.0
                bmx[b, p] = 0.0
            t = t0 + b
            is_cand = greenw[b] >= 0.0
            lb = W + acc
            lbg[t] = lb
            sig[t] = 0
            hitw[t] = greenw[b]
            ok = parts > 1 or is_cand
            useful[t] = 1 if ok else 0
            key[t] = nh * (lb / W + 2.0 * s2 / (W * W))
            if ok and lb < min_lb:
                min_lb = lb
            if parts == nh:
                v = 2.0 * W - (greenw[b] if is_cand else 0.0)
                if v < perfect:
                    perfect = v
                    perfect_g = cols[b]
    return Scan(np.float64(min_lb), np.float64(perfect), np.int64(perfect_g))


@wrapping
@njit(**JIT)
def _scan_general(S, X, H, T, d, W, signed=True):
    """``_scan`` one guess at a time (any weights, either matrix layout): a pass counts its
    parts in a small per-pattern array, a second pass summarises each part on its first visit
    and clears it.  Consecutive guesses read the same cache lines of the transposed matrix (one
    line holds 64 guesses of an answer), so the node's answers stay in cache across the scan.

    Below SCAN_SIG_MAX answers, when ``signed`` (the node is to be ordered), it also writes
    each guess's partition signature (the value ``_signature`` computes: a sum of per-part
    hashes of sums, the same in any order), which the ordering of a small node needs for nearly
    every guess (see SCAN_SIG_MAX).
    """
    mt, w = S.mt, S.w
    ip = S.ip
    green = ip[IP_GREEN]
    uniform = ip[IP_UNIFORM] != 0
    lbg, key, sig, useful, hitw = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.hitw[d]
    cnt, mass, mx = X.cnt, X.mass, X.mx
    zob, zs = S.zob, X.zs
    sigs = signed and H.shape[0] < SCAN_SIG_MAX
    nh = H.shape[0]
    nt = T.shape[0]
    min_lb = INF
    perfect = INF
    perfect_g = -1
    for t in range(nt):
        g = T[t]
        if uniform:
            for j in range(nh):
                cnt[mt[H[j], g]] += 1
        else:
            for j in range(nh):
                h = H[j]
                p = mt[h, g]
                wh = w[h]
                cnt[p] += 1
                mass[p] += wh
                if wh > mx[p]:
                    mx[p] = wh
        if sigs:
            for j in range(nh):
                h = H[j]
                zs[np.int64(mt[h, g])] += zob[h]
        hsig = np.uint64(0)
        acc = 0.0
        s2 = 0.0
        parts = 0
        greenw = -1.0
        for j in range(nh):
            h = H[j]
            p = np.int64(mt[h, g])
            c = cnt[p]
            if c == 0:
                continue  # part already summarised
            parts += 1
            cnt[p] = 0
            if sigs:
                z = zs[p]
                if z != 0:
                    hsig += _mix(z ^ _GREEN_SALT) if p == green else _mix(z)
                zs[p] = 0
            if p == green:
                greenw = w[h]
            elif uniform:
                acc += 2.0 * c - 1.0
                s2 += 1.0 * c * c
            else:
                acc += 2.0 * mass[p] - mx[p]
                s2 += mass[p] * mass[p]
            if not uniform:
                mass[p] = 0.0
                mx[p] = 0.0
        is_cand = greenw >= 0.0
        lb = W + acc
        lbg[t] = lb
        sig[t] = (hsig | np.uint64(1)) if sigs else np.uint64(0)
        hitw[t] = greenw
        ok = parts > 1 or is_cand
        useful[t] = 1 if ok else 0
        # key: lower bound plus twice the expected part size, in node-size units (weighted: the
        # expected part mass, as an effective count, so a swarm of unlikely words counts little)
        key[t] = (nh * (lb / W + 2.0 * s2 / (W * W))) if not uniform else (nh * lb + 2.0 * s2)
        if ok and lb < min_lb:
            min_lb = lb
        if parts == nh:
            v = 2.0 * W - (greenw if is_cand else 0.0)
            if v < perfect:
                perfect = v
                perfect_g = g
    return Scan(np.float64(min_lb), np.float64(perfect), np.int64(perfect_g))


class Signatures(NamedTuple):
    """What a partition signature reads (see _signature): the depth's signature row, the matrix,
    the answers' hashes, the per-pattern hash sums, the green pattern, the node's answers and
    its guess list."""

    sig: np.ndarray
    mt: np.ndarray
    zob: np.ndarray
    zs: np.ndarray
    green: int
    H: np.ndarray
    T: np.ndarray


@njit(inline="always", **JIT)
def _signatures(S, X, H, T, d):
    return Signatures(X.sig[d], S.mt, S.zob, X.zs, S.ip[IP_GREEN], H, T)


@njit(inline="always", **JIT)
def _signature(sg, t):
    """Partition signature of guess T[t] over H, computed once and kept in sig[t]: a hash of
    the grouping of H (not of the colours), marking the part the guess itself wins.  Two
    guesses with the same signature leave the same parts, so in normal mode they are worth
    the same and only the first needs searching.

    Inlined, with the few arrays it reads in a small tuple: a kernel called with the Static and
    Scratch tuples pays a reference count on each of their ~30 arrays, on the way in and out
    (~0.4 us): in the loops over every guess that made a near-optimal search's ordering of a
    small node (thousands of equal keys) cost 20 ms instead of a tenth of one."""
    sig = sg.sig
    if sig[t] == 0:
        sig[t] = _hash_partition(sg.mt, sg.zob, sg.zs, sg.green, sg.H, sg.T[t])
    return sig[t]


@wrapping
@njit(**JIT)
def _hash_partition(mt, zob, zs, green, H, g):
    for j in range(H.shape[0]):
        h = H[j]
        zs[np.int64(mt[h, g])] += zob[h]
    out = np.uint64(0)
    for j in range(H.shape[0]):
        p = np.int64(mt[H[j], g])
        z = zs[p]
        if z != 0:
            out += _mix(z ^ _GREEN_SALT) if p == green else _mix(z)
            zs[p] = 0
    return out | np.uint64(1)


# ---------------------------------------------------------------------------------------------
# Choosing which guesses to try


@wrapping
@njit(**JIT)
def _trial_order(S, X, H, T, d, bound):
    """Fill X.order[d] with the guesses to try (indices into T), best first; return how many.

    Exact search: every useful guess whose lower bound is below ``bound``, sorted by key.
    Near-optimal search: the k best useful guesses by key plus the kc best that can be the
    answer, chosen without regard to ``bound`` so that a node always gets the same candidates
    (its value must not depend on the bound it was searched with); the bound only skips them
    later.  Both drop a guess whose partition equals an earlier one's in normal mode (same
    value), keeping the first in list order.
    """
    ip = S.ip
    k = ip[IP_K]
    if k <= 0:
        return _trial_order_all(S, X, H, T, d, bound)
    kc = ip[IP_KC]
    dedup = ip[IP_DEDUP] != 0
    aog = S.aog
    key, useful, order = X.key[d], X.useful[d], X.order[d]
    sg = _signatures(S, X, H, T, d)
    nt = T.shape[0]
    # Two small sorted buffers filled by insertion: the k best overall, and the k + kc best
    # possible answers (the extras are those not already among the k best).
    m = k + kc
    top = np.empty(k, np.int64)
    cand = np.empty(m, np.int64)
    ntop = 0
    ncand = 0
    # small weighted nodes: the scan wrote the signatures (see SCAN_SIG_MAX), read them as they are
    pre = S.ip[IP_UNIFORM] == 0 and H.shape[0] < SCAN_SIG_MAX and S.mt.strides[1] == 1
    sigrow = X.sig[d]
    for t in range(nt):
        if useful[t] == 0:
            continue
        kt = key[t]
        if pre:
            to_top = ntop < k or kt < key[top[ntop - 1]]
            to_cand = aog[T[t]] >= 0 and (ncand < m or kt < key[cand[ncand - 1]])
            if dedup and (to_top or to_cand) and sigrow[t] == 0:  # a scan that did not sign
                sigrow[t] = _hash_partition(S.mt, S.zob, X.zs, S.ip[IP_GREEN], H, T[t])
            if to_top:
                ntop = _insert_signed(top, ntop, k, t, key, dedup, sigrow)
            if to_cand:
                ncand = _insert_signed(cand, ncand, m, t, key, dedup, sigrow)
            continue
        if ntop < k or kt < key[top[ntop - 1]]:
            ntop = _insert(top, ntop, k, t, key, dedup, sg)
        if aog[T[t]] >= 0 and (ncand < m or kt < key[cand[ncand - 1]]):
            ncand = _insert(cand, ncand, m, t, key, dedup, sg)
    n = 0
    for i in range(ntop):
        order[n] = top[i]
        n += 1
    extra = 0
    for i in range(ncand):
        if extra >= kc:
            break
        t = cand[i]
        dup = False
        for q in range(ntop):
            if top[q] == t or (dedup and key[top[q]] == key[t] and _signature(sg, top[q]) == _signature(sg, t)):
                dup = True
                break
        if not dup:
            order[n] = t
            n += 1
            extra += 1
    # best first over the union (stable: ties keep list order)
    for i in range(1, n):
        t = order[i]
        q = i - 1
        while q >= 0 and (key[order[q]] > key[t] or (key[order[q]] == key[t] and order[q] > t)):
            order[q + 1] = order[q]
            q -= 1
        order[q + 1] = t
    return n


@njit(inline="always", **JIT)
def _place(buf, n, cap, t, key, kt):
    """Put index t (key kt) into the buffer buf[:n] of capacity cap, sorted by ``key``, after
    equal keys (list order breaks ties); the new count (a full buffer drops its last)."""
    pos = n
    while pos > 0 and key[buf[pos - 1]] > kt:
        pos -= 1
    if pos >= cap:
        return n
    last = n if n < cap else cap - 1
    for q in range(last, pos, -1):
        buf[q] = buf[q - 1]
    buf[pos] = t
    return n + 1 if n < cap else cap


@njit(inline="always", **JIT)
def _insert(buf, n, cap, t, key, dedup, sg):
    """Insert index t into the buffer buf[:n] of capacity cap, sorted by ``key``, after equal
    keys (list order breaks ties); with ``dedup`` a partition already in the buffer is not added
    twice (equal partitions have equal keys, so signatures are only computed on a key tie)."""
    kt = key[t]
    if dedup:
        for q in range(n):
            if key[buf[q]] == kt and _signature(sg, buf[q]) == _signature(sg, t):
                return n
    return _place(buf, n, cap, t, key, kt)


@njit(inline="always", **JIT)
def _insert_signed(buf, n, cap, t, key, dedup, sig):
    """``_insert`` reading the signatures from the depth's row ``sig`` (written by the scan, or
    just before): a small weighted node, whose ordering compares nearly every guess's signature
    with the ones kept.
    Through ``_insert`` and its signature tuple that took 1.5-3 ms a node of 3-8 answers on the
    nyt set (the scan itself 0.2-0.7 ms)."""
    kt = key[t]
    if dedup:
        st = sig[t]
        for q in range(n):
            if key[buf[q]] == kt and sig[buf[q]] == st:
                return n
    return _place(buf, n, cap, t, key, kt)


@njit(**JIT)
def _trial_order_all(S, X, H, T, d, bound):
    ip = S.ip
    dedup = ip[IP_DEDUP] != 0
    lbg, key, sig, useful, order = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.order[d]
    nt = T.shape[0]
    ns = 0
    for t in range(nt):
        if useful[t] != 0 and lbg[t] < bound:
            order[ns] = t
            ns += 1
    if ns == 0:
        return 0
    keys = np.empty(ns, np.float64)
    for i in range(ns):
        keys[i] = key[order[i]]
    perm = np.argsort(keys, kind="mergesort")  # stable: equal keys keep the list order
    tmp = order[:ns].copy()
    for i in range(ns):
        order[i] = tmp[perm[i]]
    if not dedup:
        return ns
    # Equal partitions have equal keys: compare signatures only within runs of equal keys.
    sg = _signatures(S, X, H, T, d)
    n = 0
    i = 0
    while i < ns:
        j = i + 1
        while j < ns and key[order[j]] == key[order[i]]:
            j += 1
        if j == i + 1:
            order[n] = order[i]
            n += 1
        else:
            first = n
            for q in range(i, j):
                t = order[q]
                st = _signature(sg, t)
                dup = False
                for r in range(first, n):
                    if sig[order[r]] == st:
                        dup = True
                        break
                if not dup:
                    order[n] = t
                    n += 1
        i = j
    return n


@njit(inline="always", **JIT)
def _before(key, a, b):
    """Trial order: lower key first, then list order (the stable sort of _trial_order_all)."""
    return key[a] < key[b] or (key[a] == key[b] and a < b)


@njit(**JIT)
def _sift_down(heap, n, i, key):
    t = heap[i]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _before(key, heap[c + 1], heap[c]):
            c += 1
        if not _before(key, heap[c], t):
            break
        heap[i] = heap[c]
        i = c
    heap[i] = t


@njit(**JIT)
def _heap_of_trials(X, T, d, bound):
    """The exact search's guesses to try at depth d (useful, lower bound below ``bound``) as a
    binary heap in X.order[d], in the order of _trial_order_all; returns how many.

    A node usually settles after one or two guesses (a cut-off, or the best meeting the
    node's lower bound): heaping the candidates and taking them out best first costs a
    fraction of sorting them all (12,972 keys at every node of a classic search)."""
    lbg, useful, key, heap = X.lbg[d], X.useful[d], X.key[d], X.order[d]
    n = 0
    rest = INF  # the least bound of the others: what the node is worth if every heaped one fails
    for t in range(T.shape[0]):
        if useful[t] != 0:
            if lbg[t] < bound:
                heap[n] = t
                n += 1
            elif lbg[t] < rest:
                rest = lbg[t]
    X.rest[d] = rest
    _heapify(heap, n, key)
    return n


@njit(**JIT)
def _heapify(heap, n, key):
    for i in range(n // 2 - 1, -1, -1):
        _sift_down(heap, n, i, key)


@njit(**JIT)
def _prune_trials(X, d, n, bound):
    """Drop the heap's guesses whose lower bound reaches ``bound`` (a better incumbent was
    found), so that the rest come out without stepping over them; returns the new size."""
    lbg, heap = X.lbg[d], X.order[d]
    m = 0
    for i in range(n):
        if lbg[heap[i]] < bound:
            heap[m] = heap[i]
            m += 1
    _heapify(heap, m, X.key[d])
    return m


@njit(**JIT)
def _next_trial(S, X, H, T, d, n, bound, nrun):
    """Take the next guess to try out of the heap (see _heap_of_trials): a ``Trial``, its index
    into T (-1 when none is left), the heap's new size and the length of the current run of
    equal keys (``nrun`` before it).
    Skips guesses whose lower bound reaches ``bound`` and, in normal mode, a guess whose
    partition equals one already taken (equal partitions have equal keys: signatures are
    compared within a run of equal keys only), as _trial_order_all does."""
    heap, key, lbg, run = X.order[d], X.key[d], X.lbg[d], X.run[d]
    dedup = S.ip[IP_DEDUP] != 0
    while n > 0:
        t = heap[0]
        n -= 1
        heap[0] = heap[n]
        _sift_down(heap, n, np.int64(0), key)  # the heap's root, typed (see DEPTH0)
        if lbg[t] >= bound:
            continue
        if dedup:
            if nrun > 0 and key[run[0]] == key[t]:
                sg = _signatures(S, X, H, T, d)
                st = _signature(sg, t)
                dup = False
                for r in range(nrun):
                    if _signature(sg, run[r]) == st:
                        dup = True
                        break
                if dup:
                    continue
                run[nrun] = t
                nrun += 1
            else:
                run[0] = t
                nrun = 1
        return Trial(np.int64(t), np.int64(n), np.int64(nrun))
    return Trial(np.int64(-1), np.int64(0), np.int64(nrun))


@njit(**JIT)
def _two_left(X, T, d, W, fail, best_v, best_g):
    """Soft cap, two guesses left: guess t then the heaviest of each part; the value is
    W + (W - hit) + fail * (lbg - 2W + hit), where hit is the weight t wins outright.  The
    ``Found`` best of those and (best_v, best_g)."""
    lbg, useful, hitw = X.lbg[d], X.useful[d], X.hitw[d]
    for t in range(T.shape[0]):
        if useful[t] == 0:
            continue
        hit = hitw[t] if hitw[t] > 0.0 else 0.0
        excess = lbg[t] - 2.0 * W + hit
        v = W + (W - hit) + (fail * excess if excess > 0.0 else 0.0)
        if v < best_v:
            best_v = v
            best_g = T[t]
    return Found(np.float64(best_v), np.int64(best_g))


@njit(**JIT)
def _part_bound(S, X, TT, H, d, rem, allowed, W, cut):
    """A lower bound on a part's value: the table's, or the best one-guess bound of a scan
    (remembered in the table).  Uses the scratch rows of depth d, free at this point.  With
    IP_SCAN_CUT bit 2 the scan stops counting guesses whose bound reaches ``cut`` (the value
    that refutes the guess being tightened): the bound is then exact below ``cut``, at least
    ``cut`` otherwise."""
    ip = S.ip
    dl = ip[IP_DEPTH]
    if dl > 0:
        return 0.0  # depth-limited values are estimates, not bounds
    T, hsig = allowed.guesses, allowed.hsig
    hsum = np.uint64(0)
    for j in range(H.shape[0]):
        hsum += S.zob[H[j]]
    key = _tt_key(hsum, rem, hsig)
    e = _tt_find(TT, key, H, rem, hsig)
    if e.slot >= 0:
        return e.lo
    if _trapped(S, X, TT, H, rem, T, key, hsig, True):
        return INF
    T2 = T
    if ip[IP_CANDONLY] != 0:
        cands = X.tbuf[d]
        for j in range(H.shape[0]):
            cands[j] = S.gid[H[j]]
        T2 = cands[: H.shape[0]]
    if ip[IP_K] > 0 and d > 0 and rem > 2:
        lb = _near_part_bound(S, X, TT, H, d, rem, T2, hsig, W)
    else:
        TT.meta[M_SCANS] += 1
        _charge(S, TT.meta, (H.shape[0] + S.ip[IP_GUESS_COST]) * T2.shape[0])
        if TT.meta[M_ABORT] != 0:
            return 0.0
        if ip[IP_SCAN_CUT] & 2 == 0:
            cut = INF
        sc = _scan(S, X, H, T2, d, W, UNSIGNED, cut)  # a bound: no ordering, no signatures
        lb = min(sc.min_lb, sc.perfect)
        if rem == 2 and S.fp[FP_FAIL] >= INF and ip[IP_SCAN_CUT] & 32 != 0:
            # two guesses left under a hard cap: only a split into singletons wins (see
            # _scan_node), so the scan gives the part's value itself, INF when no guess splits it
            lb = sc.perfect
    if TT.meta[M_ABORT] == 0:
        _tt_store(TT, key, H, rem, hsig, lb, INF, NO_GUESS)
    return lb


@njit(inline="always", **JIT)
def _near_part_bound(S, X, TT, H, d, rem, T, hsig, W):
    """_part_bound in the near-optimal search: the part's scan as its own search will do it (its
    list cut to its letter classes, every guess counted to the end), its candidates chosen and
    kept (see _order_find), so that the search of the part, if it comes, reads them instead of
    scanning again.  Uses the scratch rows of depth d, free at this point."""
    meta = TT.meta
    if d > 0 and _by_classes(S, H):
        T = _class_list(S, X, meta, H, d, T)
    k1, k2 = _order_keys(S, H, T, rem, hsig)
    slot, hit = _order_find(X, k1, k2)
    _charge(S, meta, (H.shape[0] + S.ip[IP_GUESS_COST]) * T.shape[0])  # found or not (see _scan_node)
    if meta[M_ABORT] != 0:
        return 0.0
    if hit:
        return min(X.oscan[slot, 0], X.oscan[slot, 1])
    meta[M_SCANS] += 1
    sc = _scan(S, X, H, T, d, W, SIGNED, INF)
    n = _trial_order(S, X, H, T, d, INF)
    _order_store(X, slot, k1, k2, sc, n, d)
    return min(sc.min_lb, sc.perfect)


class PartRules(NamedTuple):
    """The search's scalars that ``_partition`` bounds parts with (decoded from S.ip/S.fp once
    per node)."""

    fail: float  # the cost per unit weight of an answer not found (INF: a hard cap)
    uniform: bool  # unit weights
    npat: int  # patterns (3**length)
    green: int  # the all-green pattern


@njit(inline="always", **JIT)
def _part_rules(S):
    return PartRules(S.fp[FP_FAIL], S.ip[IP_UNIFORM] != 0, S.ip[IP_NPAT], S.ip[IP_GREEN])


@njit(inline="always", **JIT)
def _parts_at(X, d):
    return Parts(X.elems[d], X.offs[d], X.pw[d], X.plb[d], X.plist[d])


@njit(**JIT)
def _partition(mt, w, H, g, rem, W, rules, parts):
    """Group H (weight W) by the pattern of guess g, and bound each part from below.

    Fills ``parts`` (one depth's rows): ``elems`` the answers grouped by pattern (a counting
    sort: stable, so every part stays sorted), ``offs`` where each pattern's run starts, ``pw``
    the weight of each part, ``plb`` a lower bound on its value with rem - 1 guesses left (exact
    for parts of one or two answers and at the guess cap), ``plist`` the non-empty patterns and
    after them the parts that need a search.  Returns a ``Split``: the parts, the parts to
    search, and W plus the bounds, summed in that order: cheap parts alone can settle a guess
    before any recursion.

    The matrix and weights are passed alone, not in S: a call with the Static tuple pays a
    reference count on each of its arrays (see _signature), and this runs once per guess tried."""
    fail, uniform, npat, green = rules.fail, rules.uniform, rules.npat, rules.green
    elems, offs, pw, plb, plist = parts.elems, parts.offs, parts.pw, parts.plb, parts.plist
    nh = H.shape[0]
    for p in range(npat + 1):
        offs[p] = 0
    for j in range(nh):
        offs[np.int64(mt[H[j], g]) + 1] += 1
    nparts = 0
    for p in range(npat):
        if offs[p + 1] > 0:
            plist[nparts] = p
            nparts += 1
        offs[p + 1] += offs[p]
    fill = offs[:npat].copy()
    for j in range(nh):
        p = np.int64(mt[H[j], g])
        elems[fill[p]] = H[j]
        fill[p] += 1
    tot = W
    nbig = 0
    for i in range(nparts):
        p = plist[i]
        if p == green:
            plb[p] = 0.0
            continue
        a = offs[p]
        c = offs[p + 1] - a
        sw = 0.0
        smax = 0.0
        for q in range(a, a + c):
            x = w[elems[q]]
            sw += x
            if x > smax:
                smax = x
        pw[p] = sw
        if rem - 1 < 1:
            v = _failed(sw, fail)
        elif c == 1:
            v = sw
        elif rem - 1 < 2:
            v = _last_guess(sw, smax, fail)
        elif c == 2:
            v = 2.0 * sw - smax
        else:
            v = 2.0 * sw - smax
            if uniform and c > npat:
                v += c - npat  # at most npat of them can finish within two more guesses
            plist[nparts + nbig] = p
            nbig += 1
        plb[p] = v
        tot += v
    return Split(np.int64(nparts), np.int64(nbig), np.float64(tot))


class CandidateSplits(NamedTuple):
    """See _candidate_splits."""

    singletons: int  # the first possible answer that splits the node into singletons (-1: none)
    one_pair: int  # the first that leaves one pair and singletons (-1: none)


@njit(**JIT)
def _candidate_splits(mt, gid, H, seen):
    """The first possible answer of H (in list order) that splits H into singletons, and the
    first that leaves one pair and singletons; -1 for none.  ``seen`` is a zeroed per-pattern
    count array, left zeroed."""
    nh = H.shape[0]
    one_pair = -1
    for j in range(nh):
        g = gid[H[j]]
        row_bad = 0
        for q in range(nh):
            p = mt[H[q], g]
            seen[p] += 1
            if seen[p] >= 2:
                row_bad += 1
                if row_bad > 1:
                    break
        for q in range(nh):
            seen[mt[H[q], g]] = 0
        if row_bad == 0:
            return CandidateSplits(np.int64(g), np.int64(one_pair))
        if row_bad == 1 and one_pair < 0:
            one_pair = g
    return CandidateSplits(np.int64(-1), np.int64(one_pair))


@njit(**JIT)
def _perfect_split(mt, H, T, seen):
    """The first guess of T (its index; -1: none) that splits H into singletons.  A guess is
    dropped at its first repeated pattern, usually within a few answers: a fraction of a scan's
    work, which reads every answer for every guess.  ``seen`` is a zeroed per-pattern array,
    left zeroed."""
    nh = H.shape[0]
    for t in range(T.shape[0]):
        g = T[t]
        q = 0
        while q < nh:
            p = mt[H[q], g]
            if seen[p] != 0:
                break
            seen[p] = 1
            q += 1
        for r in range(q):
            seen[mt[H[r], g]] = 0
        if q == nh:
            return t
    return -1


@njit(**JIT)
def _estimate(w, fp, H, W, wmax):
    """A node's value past the depth limit: a + b ln(n) per unit weight, n the effective number
    of answers (a and b: FP_EST_A, FP_EST_B); small nodes get the lower bound."""
    sq = 0.0
    for j in range(H.shape[0]):
        sq += w[H[j]] * w[H[j]]
    n_eff = W * W / sq  # effective number of answers (all equal weights: nh)
    return W * (fp[FP_EST_A] + fp[FP_EST_B] * np.log(n_eff)) if n_eff > 2.0 else 2.0 * W - wmax


# ---------------------------------------------------------------------------------------------
# The recursion


class Pick(NamedTuple):
    """The guess a node tries next (-1: none left) and the state of its loop after it: the
    guesses taken (``it``), the trials left (the exact search's heap size; the near-optimal
    search's list length) and the run of equal keys taken (see _next_trial)."""

    guess: int
    it: int
    left: int
    run: int


@njit(inline="always", **JIT)
def _settled(value, guess, cap, T, tag):
    """An ``Opened`` for a node settled at ``value`` (best guess ``guess``)."""
    return Opened(
        True, np.float64(value), np.int64(guess), 0.0, np.float64(cap), INF, np.int64(-1), np.int64(0), T, tag
    )


@njit(inline="always", **JIT)
def _ready(alpha, cap, best_value, best_guess, trials, T, tag):
    """An ``Opened`` for a node whose guesses are to be tried."""
    return Opened(
        False,
        INF,
        np.int64(-1),
        np.float64(alpha),
        np.float64(cap),
        np.float64(best_value),
        np.int64(best_guess),
        np.int64(trials),
        T,
        tag,
    )


@njit(inline="always", **JIT)
def _closed_forms(S, H, d, rem, beta, T, forced, W, wmax, imax):
    """The node's value when it has a closed form: no guess left, one answer, a lower bound
    already at beta, one guess left, two answers, past the depth limit (an estimate, never below
    the lower bound).  Otherwise the node is open, its lower bound 2W - (heaviest weight), or
    with a forced guess W (the guess's own answers), and nothing is settled but the guess cap."""
    w, gid = S.w, S.gid
    fail = S.fp[FP_FAIL]
    nh = H.shape[0]
    tag = TableTag(np.uint64(0), np.int64(rem), False)
    if rem <= 0:
        return _settled(_failed(W, fail), -1, INF, T, tag)
    if forced >= 0:
        return _ready(W, INF, INF, -1, 0, T, tag)
    if nh == 1:
        return _settled(W, gid[H[0]], INF, T, tag)
    lb0 = 2.0 * W - wmax
    if lb0 >= beta:
        return _settled(lb0, -1, INF, T, tag)
    if rem == 1:
        v1 = _last_guess(W, wmax, fail)
        return _settled(v1, (gid[H[imax]] if v1 < INF else -1), INF, T, tag)
    if nh == 2:
        a = H[imax]
        b = H[1 - imax]
        return _settled(w[a] + 2.0 * w[b], gid[a], INF, T, tag)
    dl = S.ip[IP_DEPTH]
    if dl > 0 and d >= dl:
        return _settled(max(_estimate(w, S.fp, H, W, wmax), lb0), -1, INF, T, tag)
    return _ready(lb0, INF, INF, -1, 0, T, tag)


@njit(**JIT)
def _family_cut(S, X, H, rem, T):
    """Whether the node (H, its allowed guesses T, ``rem`` guesses left) is proven unwinnable
    under a hard cap by its largest answer family: the m answers of H that differ in one
    position only (S.fam: families of four or more in the answer list, e.g. FIGHT LIGHT MIGHT
    NIGHT ...).  A guess t splits such a family into n_t classes of which all but one are
    single answers (two members differ in one letter: a guess tells them apart only by naming
    that letter, at the position or elsewhere, each named letter its own pattern), so when the
    answer is kept in the largest class each guess removes at most n_t - 1 members.  With rem
    guesses the last must be the answer: the node cannot be won when m - 1 exceeds the sum of
    the rem - 1 largest n_t - 1 over T (a subset of the family splits no finer, and in hard mode
    later lists are subsets of T).  Hard mode's traps: the greens kept leave guesses that name
    one or two of the family's letters at a time.  Sound for any T holding every guess the node
    may play, or one of each class of guesses with equal partitions of H."""
    fam, cnt, mem = S.fam, X.fcnt, X.fmem
    L = fam.shape[1]
    nh = H.shape[0]
    best = -1
    m = 0
    for j in range(nh):
        h = H[j]
        for i in range(L):
            f = fam[h, i]
            if f >= 0:
                c = cnt[f] + 1
                cnt[f] = c
                if c > m:
                    m = c
                    best = f
    for j in range(nh):
        h = H[j]
        for i in range(L):
            f = fam[h, i]
            if f >= 0:
                cnt[f] = 0
    r = rem - 1
    if m - 1 <= r:
        return False  # (a guess naming one letter each time would leave at most one)
    k = 0
    for j in range(nh):
        h = H[j]
        for i in range(L):
            if fam[h, i] == best:
                mem[k] = h
                k += 1
    # hist[c]: the guesses that remove c members; stop once r of them remove thr or more
    thr = (m - 1 + r - 1) // r
    hist, seen = X.fhist, X.fseen
    hist[:] = 0
    enough = 0
    mt = S.mt
    for t in range(T.shape[0]):
        g = T[t]
        n = 0
        for a in range(k):
            q = np.int64(mt[mem[a], g])
            new = True
            for b in range(n):
                if seen[b] == q:
                    new = False
                    break
            if new:
                if n == seen.shape[0]:
                    return False  # (never: a family splits into at most L + 1 classes)
                seen[n] = q
                n += 1
        hist[n - 1] += 1
        if n - 1 >= thr:
            enough += 1
            if enough >= r:
                return False
    total = 0
    left = r
    for c in range(L + 1, 0, -1):
        use = min(left, hist[c])
        total += use * c
        left -= use
        if left == 0:
            break
    return m - 1 > total


@njit(inline="always", **JIT)
def _trapped(S, X, TT, H, rem, T, key, hsig, store):
    """Whether the family bound proves the node unwinnable (see _family_cut, _family_applies):
    counted, and kept in the table under ``key`` with ``store``."""
    if not (_family_applies(S, rem) and _family_cut(S, X, H, rem, T)):
        return False
    TT.meta[M_FAMILY] += 1
    if store:
        _tt_store(TT, key, H, rem, hsig, INF, INF, NO_GUESS)
    return True


# A node's unwinnable cores: at most this many kept (in room for CORE_ROOM times the answers),
# from nodes of at least CORE_NODE_MIN answers.  One thread, CPU time, NYT-3158 hard
# RULES' part of 207 answers (cannot be won) / ERICA's of 238 (862): 16 kept 38.5 / 187.8 s, 64
# (room for 2x the answers) 29.4 / 136.5 s, 256 29.3 / 109.3 s, 1,024 28.8 / 106.3 s.
CORE_MAX = 1024
CORE_ROOM = 16  # a depth's room for its cores' members, in lists of all the answers (Scratch.cores)
CORE_NODE_MIN = 8


@njit(inline="always", **JIT)
def _cores_apply(S, nh):
    """Whether a node of ``nh`` answers keeps and reads unwinnable cores (see _core_refutes):
    the exact search under a hard cap, no depth limit, the node's guesses not its candidates
    (which a bigger set would have more of), IP_SCAN_CUT bit 256."""
    ip = S.ip
    return (
        nh >= CORE_NODE_MIN
        and ip[IP_K] <= 0
        and ip[IP_SCAN_CUT] & 256 != 0
        and S.fp[FP_FAIL] >= INF
        and ip[IP_DEPTH] <= 0
        and ip[IP_CANDONLY] == 0
    )


@njit(inline="always", **JIT)
def _cores_open(S, X, H, d, rem, hsig, forced):
    """Row d's cores made the node's: emptied, but for a forced guess (a big part's guesses tried
    a batch at a time, see _try_guesses) kept when the row holds this node's (H, rem, hsig)."""
    key = np.uint64(0)
    if forced >= 0:
        key = _node_key(S, H, np.int64(rem), hsig)
        if X.corekey[d] == key:
            return
    X.corekey[d] = key
    X.coren[d, 0] = 0
    X.coren[d, 1] = 0


@njit(**JIT)
def _core_refutes(S, X, d, g):
    """Whether guess g leaves one of the node's unwinnable cores whole in one of its parts.

    A core is a part of an earlier guess at this node proven unable to win within the guesses
    left, whose hints add nothing to the node's (in hard mode: no new green, no letter's count
    raised; see _quiet).  Winning is monotone: a strategy for a set of answers is one for each
    subset, and hints only narrow the guesses allowed after them, so a part of g holding a
    core whole (every member gets the same pattern from g) cannot be won either, whatever its
    other answers and g's hints, and g's total is INF.  Hard mode's traps: NYT-3158 hard RULES
    leaves 207 answers (E fourth, no R, U, L or S) that cannot be won with five guesses left;
    each of its 1,847 guesses' answers with no letter of it (but E) cannot be won with four, and
    1,491 of those sets hold an earlier guess's whole."""
    n = X.coren[d, 0]
    off = X.coreoff[d]
    mem = X.cores[d]
    mt = S.mt
    for c in range(n):
        a = off[2 * c]
        b = off[2 * c + 1]
        q = mt[mem[a], g]
        whole = True
        for j in range(a + 1, b):
            if mt[mem[j], g] != q:
                whole = False
                break
        if whole:
            return True
    return False


@njit(inline="always", **JIT)
def _quiet(S, allowed, g, p):
    """Whether the row (g, p) adds nothing to the node's hints (``allowed``'s greens and minimum
    counts): its part's guesses are the node's.  Always outside hard mode."""
    if S.ip[IP_HARD] == 0:
        return True
    codes = S.codes
    length = codes.shape[1]
    q = p
    shown = 0  # bit i: tile i is green or yellow
    for i in range(length):
        c = q % 3
        q //= 3
        if c == 2 and allowed.greens[i] != codes[g, i]:
            return False
        if c != 0:
            shown |= 1 << i
    for i in range(length):
        x = codes[g, i]
        k = 0
        for j in range(length):
            if codes[g, j] == x and shown & (1 << j) != 0:
                k += 1
        if k > allowed.mins[x]:
            return False
    return True


@njit(inline="always", **JIT)
def _core_keep(S, X, d, allowed, g, p, part):
    """Keep ``part`` (guess g's part of pattern p, proven unable to win) as a core of the node
    at row d, when its hints are the node's (see _core_refutes): the CORE_MAX smallest are kept
    (a small core is whole in more guesses' parts)."""
    m = part.shape[0]
    # (one answer is won by guessing it, but with no guess left, where a node of two or more is
    # lost anyway: as a core it would refute its own word, whose green part it is)
    if m < 2 or not _quiet(S, allowed, g, p):
        return
    n, top = X.coren[d, 0], X.coren[d, 1]
    off = X.coreoff[d]
    a = top
    if n < CORE_MAX and top + m <= X.cores.shape[1]:
        X.coren[d, 0] = n + 1
        X.coren[d, 1] = top + m
        c = n
    else:  # in place of the largest, if bigger
        c = -1
        most = m
        for i in range(n):
            if off[2 * i + 1] - off[2 * i] > most:
                most = off[2 * i + 1] - off[2 * i]
                c = i
        if c < 0:
            return
        a = off[2 * c]
    for j in range(m):
        X.cores[d, a + j] = part[j]
    off[2 * c] = a
    off[2 * c + 1] = a + m


# _dominated's table: a depth's row of DOM_SLOTS words (a power of two), each a node's stamp
# (high 32 bits) over a partition key (30 bits: 5 a letter); a node stores at most half as
# many, up to 32 a guess (its coarsenings).  A big node evaluates thousands of guesses: the
# top-100 proof's sample (see SearchTuning.coarser_skip) 351,851 scans with 16,384 slots,
# 333,447 with 65,536 (512 KB a depth, touched only where written).
DOM_SLOTS = 65536
# Scratch.domn's columns, per depth: the node's stamp, its letters as bits, the keys stored, then
# per position the letter every answer of the node has there (-1: none).
DOM_STAMP, DOM_LETTERS, DOM_KEYS, DOM_GREENS = 0, 1, 2, 3


@njit(inline="always", **JIT)
def _dom_open(S, X, H, d):
    """Start row d's table of coarsenings (see _dominated): a new stamp, the node's letters, and
    per position the letter every answer has there (-1: none)."""
    codes, gid = S.codes, S.gid
    length = codes.shape[1]
    bits = np.int64(0)
    for i in range(length):
        X.domn[d, DOM_GREENS + i] = codes[gid[H[0]], i]
    for j in range(H.shape[0]):
        g = gid[H[j]]
        for i in range(length):
            c = codes[g, i]
            bits |= np.int64(1) << c
            if X.domn[d, DOM_GREENS + i] != c:
                X.domn[d, DOM_GREENS + i] = -1
    stamp = (X.domn[d, DOM_STAMP] + 1) & 0x7FFFFFFF
    if stamp == 0:
        X.domtab[d, :] = 0
        stamp = 1
    X.domn[d, DOM_STAMP] = stamp
    X.domn[d, DOM_LETTERS] = bits
    X.domn[d, DOM_KEYS] = 0


@njit(inline="always", **JIT)
def _dom_key(S, X, d, g, drop):
    """Guess g's partition key at row d's node: per position the letter + 1, or 0 where its tile
    is one colour for every answer: grey (a letter none of the answers holds, or one in ``drop``,
    bits of letters), or green (the letter every answer has there, once in the guess: its other
    copies in an answer colour no other tile)."""
    codes, lcount = S.codes, S.lcount
    letters = X.domn[d, DOM_LETTERS] & ~drop
    k = np.int64(0)
    for i in range(codes.shape[1]):
        c = codes[g, i]
        told = (letters >> c) & 1 != 0 and not (X.domn[d, DOM_GREENS + i] == c and lcount[g, c] == 1)
        k = (k << 5) | ((c + 1) if told else 0)
    return k


@wrapping
@njit(inline="always", **JIT)
def _dom_slot(X, d, k):
    """The slot of key k in row d's table, or of the empty slot where it would go."""
    mask = np.int64(X.domtab.shape[1] - 1)
    e = (X.domn[d, DOM_STAMP] << 32) | k
    i = np.int64((np.uint64(k) * _GREEN_SALT) >> np.uint64(40)) & mask
    row = X.domtab[d]
    while row[i] >> 32 == X.domn[d, DOM_STAMP] and row[i] != e:
        i = (i + 1) & mask
    return i


@wrapping
@njit(inline="always", **JIT)
def _dom_keep(S, X, d, g):
    """Note guess g, just evaluated at row d's node: every partition it refines (g with some of
    its letters of the node's answers, each wherever it is, made grey) goes in the table."""
    if 2 * X.domn[d, DOM_KEYS] >= X.domtab.shape[1]:
        return  # full: later guesses go unnoted (and are searched: never skipped wrongly)
    codes = S.codes
    mine = np.int64(0)
    for i in range(codes.shape[1]):
        mine |= np.int64(1) << codes[g, i]
    mine &= X.domn[d, DOM_LETTERS]
    stamp = X.domn[d, DOM_STAMP]
    drop = mine
    while True:  # every subset of g's letters of the node's answers, made grey
        k = _dom_key(S, X, d, g, drop)
        i = _dom_slot(X, d, k)
        if X.domtab[d, i] >> 32 != stamp:
            X.domtab[d, i] = (stamp << 32) | k
            X.domn[d, DOM_KEYS] += 1
        if drop == 0:
            break
        drop = (drop - 1) & mine


@wrapping
@njit(inline="always", **JIT)
def _dominated(S, X, H, d, g):
    """Whether guess g's partition of the node is a coarsening of (or equal to) that of a guess
    the node evaluated before: then g is worth no less, and cannot beat the bound that guess
    left (normal mode, exact search: see _node).  So when g differs from that guess h only where
    g's tile is one colour for every answer of the node (a letter none of them holds, or the
    green they all have there, once in g: see _dom_key) and h shows one of their letters,
    provided that letter of h is nowhere in g: each letter g shows of theirs sits where h has it
    and nowhere else, and a tile's colour depends only on its letter's places in the guess and
    the answer, so g's colours are a function of h's.  Unless g is itself an answer of the node
    (it wins that one in a guess, where h may not), it is worth no less.  The table holds every
    such partition key of the guesses evaluated (see _dom_keep), so the test is one look-up; a
    full table only lets guesses through.

    The strategy after h that plays what the strategy after g would play takes every answer
    the same number of guesses: the argument holds for any cost a guess count gives an answer
    (weights, the failure charge), not in hard mode (h's hints allow fewer guesses after it)
    nor past a depth limit (estimates, not strategies).  Selby's solver draws the same inference
    through its table in normal mode (on a cut-off, the union of the parts that differ only in
    one tile's colour is stored as worth their sum: the part a guess with a letter no answer
    holds in that place would leave); here it is drawn at the node, before any scan."""
    k = _dom_key(S, X, d, g, np.int64(0))
    i = _dom_slot(X, d, k)
    if X.domtab[d, i] != (X.domn[d, DOM_STAMP] << 32) | k:
        return False
    a = S.aog[g]  # an answer of the node wins itself: not coarser, whatever its colours
    for j in range(H.shape[0] if a >= 0 else 0):  # (read on a hit only: rare)
        if H[j] == a:
            return False
    return True


@njit(inline="always", **JIT)
def _family_applies(S, rem):
    """Whether _family_cut is tried at a node with ``rem`` guesses left: hard mode (in normal
    mode a guess names five letters, and two guesses left are settled by the scan anyway), a hard
    cap, no depth limit, IP_SCAN_CUT bit 64."""
    ip = S.ip
    return rem >= 3 and ip[IP_HARD] != 0 and ip[IP_SCAN_CUT] & 64 != 0 and S.fp[FP_FAIL] >= INF and ip[IP_DEPTH] <= 0


@njit(inline="always", **JIT)
def _probe_table(S, TT, H, d, rem, beta, hsig, forced, op):
    """The table's bounds on an open node (unless a guess is forced, or the node is too small to
    be stored): an exact entry, or a lower bound at beta, settles it; else its lower bound is
    raised to the entry's and its cap is the entry's upper bound plus the margin.  The node's
    ``TableTag``: with a depth limit its value also depends on the levels left, so they are part
    of the guesses left it is stored under."""
    ip = S.ip
    dl = ip[IP_DEPTH]
    nh = H.shape[0]
    T = op.guesses
    use = forced < 0 and nh >= ip[IP_TT_MIN]
    trem = np.int64(rem + (16 * (dl - d) if dl > 0 else 0))
    if not use:
        return _ready(op.alpha, INF, INF, -1, 0, T, TableTag(np.uint64(0), trem, False))
    key = _node_key(S, H, trem, hsig)
    tag = TableTag(key, trem, True)
    lb0 = op.alpha
    cap = INF
    e = _tt_find(TT, key, H, trem, hsig)
    if e.slot >= 0:
        TT.meta[M_HITS] += 1
        if e.lo == e.hi:
            return _settled(e.lo, e.best, cap, T, tag)
        if e.lo >= beta:
            return _settled(e.lo, -1, cap, T, tag)
        if e.hi < INF and FEAS <= beta < INF:
            return _settled(e.hi, e.best, cap, T, tag)  # asked whether it can be won: it can
        if e.lo > lb0:
            lb0 = e.lo
        if e.hi < INF:
            cap = e.hi + S.fp[FP_MARGIN]
    return _ready(lb0, cap, INF, -1, 0, T, tag)


@njit(inline="always", **JIT)
def _shortcuts(S, X, TT, H, rem, beta, hsig, W, op):
    """Unit weights, a node of at most as many answers as patterns: a possible answer that splits
    it into singletons settles it at 2W - 1, one that leaves a single pair (with a guess to spare)
    at 2W.  Otherwise the node is worth at least 2W (every guess then leaves a pair or cannot
    win): in the exact search with a hard cap (IP_SCAN_CUT bit 4) that settles it when beta is
    no more, without the scan, and is its lower bound otherwise."""
    ip = S.ip
    if ip[IP_UNIFORM] == 0 or H.shape[0] > ip[IP_NPAT]:
        return op
    cs = _candidate_splits(S.mt, S.gid, H, X.cnt)
    if cs.singletons >= 0:
        return _settled(2.0 * W - 1.0, cs.singletons, op.cap, op.guesses, op.tag)
    if cs.one_pair >= 0 and rem >= 3:
        tag = op.tag
        if tag.use:
            _tt_store(TT, tag.key, H, tag.rem, hsig, 2.0 * W, 2.0 * W, cs.one_pair)
        return _settled(2.0 * W, cs.one_pair, op.cap, op.guesses, tag)
    if ip[IP_SCAN_CUT] & 4 != 0 and ip[IP_K] <= 0 and S.fp[FP_FAIL] >= INF:
        lo = 2.0 * W
        if lo >= beta:
            tag = op.tag
            if tag.use:
                _tt_store(TT, tag.key, H, tag.rem, hsig, lo, INF, NO_GUESS)
            return _settled(lo, -1, op.cap, op.guesses, tag)
        if lo > op.alpha:
            return _ready(lo, op.cap, op.best_value, op.best_guess, op.trials, op.guesses, op.tag)
    return op


@njit(inline="always", **JIT)
def _by_classes(S, H):
    """Whether a node searched below its query node scans its guess list cut to letter classes
    (see _letter_classes): with IP_CLASSES, in both modes, words of up to 6 letters (their keys
    fill 30 bits of the table's entries).  Not the query node itself (the caller's test: its
    caller may read the scan's rows by its own list), nor the candidates-only guess space (its
    list is the node's candidates).  Nodes of every size: a big node's list loses less (75-80 %
    of the guesses are distinct from 21 answers up) but its scan costs far more a guess than
    the cut, and its parts then start from the shorter list."""
    ip = S.ip
    return H.shape[0] >= 2 and ip[IP_CLASSES] != 0 and ip[IP_CANDONLY] == 0 and S.codes.shape[1] <= 6


@njit(inline="always", **JIT)
def _class_list(S, X, meta, H, d, T):
    """The list a node at depth d scans when ``_by_classes``: T cut to H's letter classes (in
    row d of X.classes), the reduction charged.  One place for the node's own scan and the scan
    of a part for its bound in the near-optimal search, which must cut it alike (the candidates
    it keeps index this list)."""
    _charge(S, meta, CLASS_COST * T.shape[0])
    return _letter_classes(S, X, H, T, X.classes[d])


@wrapping
@njit(**JIT)
def _letter_classes(S, X, H, T, out):
    """``T`` cut to the first guess of each letter class (in T's order, in ``out``).  A letter no
    answer of H holds is grey in every tile that shows it, whatever the answer, so two guesses
    that differ only in such letters (where each has one) colour every answer of H alike: the
    same parts, the same subtree, the same value.  In hard mode too: their hints (the greens
    and the least count of each letter shown yellow or green) are the same, as only letters of
    H are ever green or yellow, so their parts allow the same guesses; and a hint already given
    is a letter of every answer of H, so both guesses meet the node's hints or neither does.
    The first of them is the one the search keeps of equal values anyway (see _trial_order,
    _next_trial: list order decides ties), so the search's choices and ties are as with the
    whole list.

    A node's answers are a subset of its parent's, and so are their letters: a class of the
    child is a union of the parent's, so reducing the parent's list keeps the child what the
    whole list would.  Most guesses of a small node fall in a few classes (classic SALET's
    parts: 15 % of the guesses are distinct at 3-5 answers, 30 % at 6-10, 54 % at 11-20, 75 % at
    21-50), and the scan is most of a small node's time.  The set of classes seen is a
    direct-mapped table: a class whose slot another took since keeps a second guess, which the
    search then drops as an equal partition; a guess is never dropped wrongly.  A function of
    H and T alone: deterministic."""
    codes, gid = S.codes, S.gid
    length = codes.shape[1]
    digit = np.zeros(32, np.int64)  # a letter's digit in the class key: 0 for one H lacks
    for j in range(H.shape[0]):
        g = gid[H[j]]
        for i in range(length):
            c = codes[g, i]
            digit[c] = c + 1
    # The table's entries: the call's number (32 bits) over the class key (5 bits a letter, 30
    # at most): one 8-byte word a slot, so the table (256 KB) stays in cache beside the matrix
    # (nyt-2309 TARSE against no classes: x0.77 with a key and a number in two words a slot,
    # x0.70 so).  Entry 0 counts the calls; when the count wraps, the table is emptied, so a
    # slot written by an earlier call never matches.
    table = X.ctab
    stamp = (table[0] + 1) & 0xFFFFFFFF
    if stamp == 0:
        table[:] = 0
        stamp = 1
    table[0] = stamp
    mask = np.uint64(table.shape[0] - 2)  # slots 1 … 2**m
    kt = X.ckeys
    # the keys first, then the table: one loop doing both took a third longer (classic SALET,
    # 14.2 M guesses reduced: 0.109 -> 0.083 s)
    for t in range(T.shape[0]):
        g = T[t]
        k = np.int64(0)
        for i in range(length):
            k = (k << 5) | digit[codes[g, i]]
        kt[t] = k
    n = 0
    for t in range(T.shape[0]):
        e = (stamp << 32) | kt[t]
        h = np.int64(((np.uint64(kt[t]) * _GREEN_SALT) >> np.uint64(32)) & mask) + 1
        seen = table[h] == e
        table[h] = e
        out[n] = T[t]
        n += 0 if seen else 1
    return out[:n]


# ---------------------------------------------------------------------------------------------
# The near-optimal search's candidates, kept per node


_ORDER_SALT = np.uint64(0xD1B54A32D192ED03)


@njit(inline="always", **JIT)
def _order_keys(S, H, T, rem, hsig):
    """Two independent 64-bit hashes of a near-optimal node below its query node: its answers,
    guesses left and hints (``hsig``, which also names a restricted guess pool), and the length of
    its guess list.  Its list itself is a function of these there (the allowed guesses cut to
    H's letter classes: see _letter_classes), as are its scan and its candidates (chosen without
    regard to any bound: see _trial_order) for a given search's lists, weights and k, kc."""
    a = np.uint64(0)
    b = np.uint64(0)
    for j in range(H.shape[0]):
        z = S.zob[H[j]]
        a += z
        b += _mix(z ^ _ORDER_SALT)
    k1 = _mix(a ^ hsig ^ (np.uint64(rem) << np.uint64(56))) | np.uint64(1)
    k2 = _mix(b + np.uint64(T.shape[0]) * _GREEN_SALT + np.uint64(H.shape[0]))
    return k1, k2


@njit(inline="always", **JIT)
def _order_find(X, k1, k2):
    """The slot of the node hashed (k1, k2) among the near-optimal candidates kept, and whether
    it holds them.

    The near-optimal search scans a node's every guess to choose its k + kc candidates, and the
    scan is most of its time.  With its guesses' parts tightened first (see _tighten), each part
    is scanned for its bound and then, when the guess is searched, scanned again as a node: its
    candidates (up to k + kc indices and bounds) and scan summary are kept here by the first,
    so the second reads them back instead (a direct-mapped cache, one per worker; a slot holds
    the last node hashed to it).  Two 64-bit hashes name a node (a wrong match needs both to
    collide: about 2**-128 a probe)."""
    slot = np.int64(k1 & np.uint64(X.okeys.shape[0] - 1))
    return slot, X.okeys[slot, 0] == k1 and X.okeys[slot, 1] == k2


@njit(inline="always", **JIT)
def _order_load(X, slot, d):
    """The node's kept candidates into row d (``order`` and their ``lbg``), and its ``Scan``."""
    n = X.otrials[slot]
    order, lbg = X.order[d], X.lbg[d]
    for i in range(n):
        t = X.ot[slot, i]
        order[i] = t
        lbg[t] = X.olb[slot, i]
    v = X.oscan[slot]
    return Scan(v[0], v[1], np.int64(v[2])), n


@njit(inline="always", **JIT)
def _order_store(X, slot, k1, k2, sc, n, d):
    """Keep the node's candidates (row d's first n of ``order``, with their bounds) and scan."""
    if n > X.ot.shape[1]:
        return
    order, lbg = X.order[d], X.lbg[d]
    for i in range(n):
        t = order[i]
        X.ot[slot, i] = t
        X.olb[slot, i] = lbg[t]
    X.oscan[slot, 0] = sc.min_lb
    X.oscan[slot, 1] = sc.perfect
    X.oscan[slot, 2] = np.float64(sc.perfect_guess)
    X.otrials[slot] = n
    X.okeys[slot, 0] = k1
    X.okeys[slot, 1] = k2


@njit(inline="always", **JIT)
def _scan_node(S, X, TT, H, d, rem, beta, hsig, W, op):
    """Scan the node's guesses (in the candidates-only guess space, its candidates: then they
    are the list the trials index), and settle it by the scan's closed forms: two guesses left,
    a split into singletons that meets the lower bound, a lower bound at beta.  Otherwise ready
    the guesses to try at depth d, under the least of beta, the cap and a perfect split's value
    (the incumbent)."""
    ip = S.ip
    meta = TT.meta
    tag = op.tag
    cap = op.cap
    T = op.guesses
    nh = H.shape[0]
    if ip[IP_CANDONLY] != 0:
        cands = X.tbuf[d]
        for j in range(nh):
            cands[j] = S.gid[H[j]]
        T = cands[:nh]
    elif d > 0 and _by_classes(S, H):
        T = _class_list(S, X, meta, H, d, T)  # the trials index it, the node's parts are given it (see _node)
    if (
        ip[IP_PERFECT_COST] > 0
        and ip[IP_UNIFORM] != 0
        and ip[IP_CANDONLY] == 0
        and S.fp[FP_FAIL] >= INF
        and nh <= min(ip[IP_PERFECT_MAX], ip[IP_NPAT])
    ):
        # _shortcuts found no possible answer that splits the node into singletons or leaves
        # one pair, so it is worth at least 2W (see _scan_uniform's bounds), which a split into
        # singletons by any other guess achieves: the scan would settle the node with the
        # first such guess, found here without it.
        _charge(S, meta, ip[IP_PERFECT_COST] * T.shape[0])
        t = _perfect_split(S.mt, H, T, X.cnt)
        if t >= 0:
            meta[M_PERFECT] += 1
            if tag.use:
                _tt_store(TT, tag.key, H, tag.rem, hsig, 2.0 * W, 2.0 * W, np.int64(T[t]))
            return _settled(2.0 * W, T[t], cap, T, tag)
    # near-optimal, below the query node (whose depth-0 rows ``rank`` reads back): the node's
    # candidates may be kept from a scan for its bound (see _order_find)
    kept = ip[IP_K] > 0 and d > 0 and rem > 2
    k1 = np.uint64(0)
    k2 = np.uint64(0)
    slot = np.int64(0)
    hit = False
    ntrial = np.int64(0)
    if kept:
        k1, k2 = _order_keys(S, H, T, rem, hsig)
        slot, hit = _order_find(X, k1, k2)
    # a scan read back is charged as the scan itself: the work a search is charged (what its
    # budget buys) must not depend on what an earlier call, or another thread, left in the cache
    _charge(S, meta, (nh + ip[IP_GUESS_COST]) * T.shape[0])
    if meta[M_ABORT] != 0:
        return _settled(INF, -1, cap, T, tag)
    if hit:
        sc, ntrial = _order_load(X, slot, d)
    else:
        meta[M_SCANS] += 1
        # The exact search tries no guess whose bound reaches min(beta, cap): the scan may stop
        # counting one there (a cut guess's bound, at least the cut, still counts towards the
        # node's least bound ``min_lb`` and the fail-soft ``rest``: both stay lower bounds).
        cut = INF
        if rem > 2 and ip[IP_K] <= 0 and ip[IP_SCAN_CUT] & 1 != 0:
            cut = min(beta, cap)
        sc = _scan(S, X, H, T, d, W, rem > 2, cut)  # with two guesses left the node is settled unordered
    fail = S.fp[FP_FAIL]
    if rem == 2:
        # Two guesses left: only a split into singletons finds everything; with a soft cap
        # the others cost their unfound answers (closed form from the scan's tallies).
        f = Found(sc.perfect, sc.perfect_guess)
        if fail < INF:
            f = _two_left(X, T, d, W, fail, f.value, f.guess)
        if tag.use:
            _tt_store(TT, tag.key, H, tag.rem, hsig, f.value, f.value, f.guess)
        return _settled(f.value, f.guess, cap, T, tag)
    alpha = op.alpha
    if sc.min_lb > alpha:
        alpha = sc.min_lb
    if sc.perfect <= alpha:
        if tag.use:
            _tt_store(TT, tag.key, H, tag.rem, hsig, sc.perfect, sc.perfect, sc.perfect_guess)
        return _settled(sc.perfect, sc.perfect_guess, cap, T, tag)
    if alpha >= beta:
        if tag.use:
            _tt_store(TT, tag.key, H, tag.rem, hsig, alpha, INF, NO_GUESS)
        return _settled(alpha, -1, cap, T, tag)
    # a split into singletons is a finished strategy: the incumbent to beat (INF, -1: none)
    bestv = sc.perfect
    bestg = sc.perfect_guess if sc.perfect < INF else -1
    if ip[IP_K] <= 0:
        ntrial = _heap_of_trials(X, T, d, min(beta, cap, bestv))
    elif not hit:
        ntrial = _trial_order(S, X, H, T, d, min(beta, cap, bestv))
        if kept:
            _order_store(X, slot, k1, k2, sc, ntrial, d)
    return _ready(alpha, cap, bestv, bestg, ntrial, T, tag)


@njit(inline="always", **JIT)
def _open_node(S, X, TT, H, d, rem, beta, allowed, forced):
    """Everything _node does before it tries guesses, step by step, each of which may settle
    the node: the closed forms (``_closed_forms``), the table (``_probe_table``), the
    candidate-split shortcuts (``_shortcuts``) and, unless a guess is forced, the scan with its
    closed forms (``_scan_node``), which readies the guesses to try.  Returns an ``Opened``."""
    meta = TT.meta
    meta[M_NODES] += 1
    T = allowed.guesses
    if meta[M_ABORT] != 0:
        return _settled(INF, -1, INF, T, TableTag(np.uint64(0), np.int64(rem), False))
    _charge(S, meta, S.ip[IP_NODE_COST])
    w = S.w
    W = 0.0
    wmax = -1.0
    imax = 0
    for j in range(H.shape[0]):
        x = w[H[j]]
        W += x
        if x > wmax:
            wmax = x
            imax = j
    op = _closed_forms(S, H, d, rem, beta, T, forced, W, wmax, imax)
    if op.done:
        return op
    op = _probe_table(S, TT, H, d, rem, beta, allowed.hsig, forced, op)
    if op.done:
        return op
    if forced >= 0:
        return _ready(op.alpha, op.cap, INF, -1, 1, T, op.tag)  # one trial: the guess
    if _trapped(S, X, TT, H, op.tag.rem, T, op.tag.key, allowed.hsig, op.tag.use):
        return _settled(INF, -1, op.cap, T, op.tag)
    op = _shortcuts(S, X, TT, H, rem, beta, allowed.hsig, W, op)
    if op.done:
        return op
    return _scan_node(S, X, TT, H, d, rem, beta, allowed.hsig, W, op)


@njit(inline="always", **JIT)
def _pick(S, X, H, T, d, forced, bound, state):
    """The next guess to try (``Pick``; ``state`` the one before): the forced guess once, else
    in the exact search the heap's next (``_next_trial``), in the near-optimal one the list's
    next whose lower bound is below ``bound``."""
    it, left, nrun = state.it, state.left, state.run
    if forced >= 0:
        return Pick(np.int64(forced if it == 0 else -1), np.int64(it + 1), np.int64(left), np.int64(nrun))
    if S.ip[IP_K] <= 0:
        tr = _next_trial(S, X, H, T, d, left, bound, nrun)
        return Pick(np.int64(T[tr.t] if tr.t >= 0 else -1), np.int64(it + 1), tr.left, tr.run)
    order, lbg = X.order[d], X.lbg[d]
    while it < left:
        t = order[it]
        it += 1
        if lbg[t] < bound:
            return Pick(np.int64(T[t]), np.int64(it), np.int64(left), np.int64(nrun))
    return Pick(np.int64(-1), np.int64(it), np.int64(left), np.int64(nrun))


@njit(inline="always", **JIT)
def _tighten(S, X, TT, d, rem, here, g, sp, parts, bound, forced):
    """The bounds of guess g's big parts (``sp``, ``parts``) tightened by a scan each (or the
    table's better bound), before any recursion; returns the guess's new total of bounds,
    stopping once it reaches ``bound``.  Parts of at least IP_PASS2_MIN_ALONE answers for a
    forced guess (but a big node's guesses the threads share in normal mode), else
    IP_PASS2_MIN_HARD in hard mode and IP_PASS2_MIN_BIG in normal mode (its big nodes'); in the
    exact search the largest first (each scan is cut at what is left to reach ``bound``: the
    dearest part's bound gains most and leaves the others less to find).

    When one given guess is evaluated against a bound (a first word in an opener sweep, a root
    guess shared between threads), the sum of its parts' one-guess bounds often exceeds the bound
    and settles the guess without recursion: most first words are refuted in a tenth of a second
    instead of seconds.  Inside the search the same step pays in hard mode only (see
    SearchTuning.pass2_min_hard), presumably because a part's guesses are only those its hints
    allow there, so its one-guess bound lies further above the 2n - 1 it is given without a
    scan."""
    ip = S.ip
    hard = ip[IP_HARD] != 0
    # A guess the threads share at a big node in normal mode (forced, IP_PASS2 off: see
    # _try_guesses) is one of the node's guesses, tightened as the serial loop tightens them:
    # NYT-3158 on 2 threads (2026-11-28, three and two runs each, alternated sets), TARSE
    # 26.8-30.7 -> 21.4-24.2 s, CRANE 53.5-59.1 -> 47.1-53.4 s (parts of 8 got a scan before).
    # The near-optimal search's parts are scanned to the end (their candidates are kept, see
    # _near_part_bound), a lone guess's too: classic k=12 kc=6 on 2 threads, whose root guesses
    # are each evaluated alone, 0.70 -> 0.65 s with parts of 30 rather than 8 (medians of 3).
    alone = forced >= 0 and (ip[IP_PASS2] != 0 or hard)
    if ip[IP_K] > 0:
        pmin = ip[IP_NEAR_PART_MIN]
    elif alone:
        pmin = ip[IP_PASS2_MIN_ALONE]
    elif hard:
        pmin = ip[IP_PASS2_MIN_HARD]
    else:
        pmin = ip[IP_PASS2_MIN_BIG]
    offs, plb = parts.offs, parts.plb
    tot = sp.total
    # the exact search's parts largest first (SearchTuning.largest_first); sorting the list
    # here leaves the loop's own sort (_smallest_first, stable) with nothing to change
    down = ip[IP_SCAN_CUT] & 16 != 0 and ip[IP_K] <= 0
    if down:
        _smallest_first(parts, sp)
    for i in range(sp.big):
        p = parts.plist[sp.parts + (sp.big - 1 - i if down else i)]
        a = offs[p]
        c = offs[p + 1] - a
        if c < pmin:
            continue
        Hc = parts.elems[a : a + c]
        child = _hard_child(S, here, g, p, X.tbuf[d + 1]) if hard else here
        better = _part_bound(S, X, TT, Hc, d + 1, rem - 1, child, parts.pw[p], bound - tot + plb[p])
        if TT.meta[M_ABORT] != 0:
            return tot
        if better > plb[p]:
            tot += better - plb[p]
            plb[p] = better
            if tot >= bound:
                break
    return tot


@njit(inline="always", **JIT)
def _core_of_bounds(S, X, d, here, g, sp, parts):
    """Keep the first of guess g's big parts whose bound is INF (a part proven unable to win,
    by the table or the family bound, see _tighten) as a core of the node (see _core_keep)."""
    offs, plb = parts.offs, parts.plb
    for i in range(sp.big):
        p = parts.plist[sp.parts + i]
        if plb[p] >= INF:
            _core_keep(S, X, d, here, g, p, parts.elems[offs[p] : offs[p + 1]])
            return


@njit(inline="always", **JIT)
def _smallest_first(parts, sp):
    """The big parts of ``sp`` (in ``parts.plist``), sorted in place by size, smallest first."""
    offs = parts.offs
    big = parts.plist[sp.parts : sp.parts + sp.big]
    for i in range(1, sp.big):
        p = big[i]
        c = offs[p + 1] - offs[p]
        k = i - 1
        while k >= 0 and offs[big[k] + 1] - offs[big[k]] > c:
            big[k + 1] = big[k]
            k -= 1
        big[k + 1] = p
    return big


@njit(inline="always", **JIT)
def _refuted_by_a_part(S, X, TT, d, rem, here, g, sp, parts, big, cores):
    """Whether one of guess g's big parts (``big``, smallest first) cannot be won: each is asked
    only that (beta FEAS, see _node), which stops at the first strategy found.  What a part
    proves stays in the table: an upper bound from a strategy found, INF from a refutation (and
    with ``cores`` the part is kept as one of the node's, see _core_keep)."""
    offs = parts.offs
    hard = S.ip[IP_HARD] != 0
    for i in range(sp.big):
        p = big[i]
        a = offs[p]
        child = _hard_child(S, here, g, p, X.tbuf[d + 1]) if hard else here
        f = _node(S, X, TT, parts.elems[a : offs[p + 1]], d + 1, rem - 1, np.float64(FEAS), child, NO_GUESS)
        if TT.meta[M_ABORT] != 0:
            return True
        if f.value >= FEAS:
            if cores:
                _core_keep(S, X, d, here, g, p, parts.elems[a : offs[p + 1]])
            return True
    return False


@njit(inline="always", **JIT)
def _close_node(S, TT, H, beta, forced, op, hsig, best, soft, rest):
    """The node's ``Found`` once its guesses are tried (``best``: the best found, if any), the
    table told what was proven.

    Nothing below beta: the node is worth at least beta (or at least alpha), and, where every
    guess was either tried or turned down by its scan bound (the exact search without a depth
    limit), at least the least bound of its guesses: those turned down (``soft``), those never
    tried (``rest``: their scan bounds reach the bound; useless guesses are worth more than the
    node itself), and the incumbent's value (a real strategy's).  So a parent's sum, a staged
    refutation and the table's entry get all that was proven, not only what was asked."""
    sound = S.ip[IP_K] <= 0 and S.ip[IP_DEPTH] <= 0
    tag = op.tag
    if forced >= 0:
        if best.guess >= 0:
            return best
        lo = max(beta, op.alpha)
        return Found(np.float64(max(lo, soft) if sound else lo), best.guess)
    asked = FEAS <= beta < INF  # only whether it can be won (see _node)
    if best.guess >= 0 and best.value < beta:
        if tag.use:
            _tt_store(TT, tag.key, H, tag.rem, hsig, op.alpha if asked else best.value, best.value, best.guess)
        return best
    lo = beta if beta > op.alpha else op.alpha
    if sound:
        lo = max(lo, min(soft, rest, best.value))
    if asked:
        lo = INF  # no guess's total below FEAS: none is finite
    if tag.use:
        _tt_store(TT, tag.key, H, tag.rem, hsig, lo, INF, NO_GUESS)
    return Found(np.float64(lo), np.int64(-1))


@wrapping
@njit(**JIT)
def _node(S, X, TT, H, d, rem, beta, allowed, forced):
    """The ``Found`` value of the node (H, allowed, rem) if below ``beta``, else a number >= beta,
    and its best guess (-1 when none was proven).  ``forced`` >= 0 evaluates that guess only.

    ``_open_node`` settles the node or readies the guesses to try; the loop evaluates them best
    first with branch and bound: ``_partition`` bounds a guess's parts (a forced guess's, and in
    the exact search every guess's in hard mode or at a node of IP_PASS2_NODE_MIN answers or
    more, are tightened by ``_tighten``), the big ones are
    searched by recursion, smallest first; ``_close_node`` tells the table what was proven."""
    op = _open_node(S, X, TT, H, d, rem, beta, allowed, forced)
    if op.done:
        return Found(op.value, op.guess)
    ip = S.ip
    meta = TT.meta
    exact = ip[IP_K] <= 0
    hard = ip[IP_HARD] != 0
    node_min = ip[IP_PASS2_NODE_MIN]  # (not ``big``: the loop below names its big parts so)
    near_min = ip[IP_NEAR_NODE_MIN]
    pass2 = (
        (hard and exact)
        or (forced >= 0 and ip[IP_PASS2] != 0)
        or (exact and 0 < node_min <= H.shape[0])
        or (not exact and 0 < near_min <= H.shape[0])
    )
    # the list the trials index (the candidates in that guess space) with the node's hints
    here = Allowed(op.guesses, allowed.hsig, allowed.greens, allowed.mins)
    rules = _part_rules(S)
    parts = _parts_at(X, d)
    offs, plb = parts.offs, parts.plb
    nh = H.shape[0]
    W = 0.0
    for j in range(nh):
        W += S.w[H[j]]
    cap = op.cap
    best = Found(op.best_value, op.best_guess)
    state = Pick(np.int64(-1), np.int64(0), op.trials, np.int64(0))
    # Fail-soft: the least lower bound proven of the guesses turned down (see _close_node).
    soft = INF
    # Asked only whether the node can be won (beta FEAS): the first guess that wins settles it,
    # at its total (an upper bound).  Where the node's value is wanted but no bound is in sight
    # (beta INF, no incumbent) under a hard cap, a guess's parts are first asked so (``probe``):
    # a part that cannot be won refutes the guess before its other parts are solved exactly
    # (smallest first, each exactly, they would all be solved before the one that fails).
    asked = FEAS <= beta < INF
    lost = 0  # guesses found unable to win at bound INF: then the node may well be unable too
    probe = (
        exact
        and not asked
        and ip[IP_SCAN_CUT] & 128 != 0
        and S.fp[FP_FAIL] >= INF
        and ip[IP_DEPTH] <= 0
        and rem - 1 >= 3
    )
    # Below IP_PASS2_NODE_MIN the exact search tightens a node's guesses only once the node has
    # shown itself dear: the guesses refuted only by searching their parts cost IP_PASS2_LATE_AFTER
    # scans of the node (see SearchTuning.pass2_late_min).
    late = exact and not pass2 and 0 < ip[IP_PASS2_LATE_MIN] <= nh  # (rem: see the tightening's own test)
    in_vain = np.int64(0)
    dear = ip[IP_PASS2_LATE_AFTER] * nh * here.guesses.shape[0]
    # The node's unwinnable cores (see _core_refutes): kept, and read before each guess's parts.
    cores = _cores_apply(S, nh)
    if cores:
        _cores_open(S, X, H, d, rem, allowed.hsig, forced)
    # Guesses coarser than one evaluated here are skipped before any search (see _dominated).
    dom = (
        exact
        and forced < 0
        and ip[IP_DEDUP] != 0
        and ip[IP_DEPTH] <= 0
        and ip[IP_SCAN_CUT] & 512 != 0
        and S.codes.shape[1] <= 6  # (the keys: 5 bits a letter, 30 at most)
    )
    if dom:
        _dom_open(S, X, H, d)
    while True:
        bound = min(beta, best.value, cap)
        state = _pick(S, X, H, here.guesses, d, forced, bound, state)
        g = state.guess
        if g < 0:
            break
        meta[M_EVALS] += 1
        if cores and X.coren[d, 0] > 0 and _core_refutes(S, X, d, g):
            meta[M_CORE] += 1
            lost += 1
            continue
        _charge(S, meta, ip[IP_EVAL_COST] * nh)
        if meta[M_ABORT] != 0:
            return Found(INF, NO_GUESS)
        sp = _partition(S.mt, S.w, H, g, rem, W, rules, parts)
        tot = sp.total
        if late and in_vain >= dear:
            pass2 = True
            late = False
        if dom:
            if tot < bound and _dominated(S, X, H, d, g):
                meta[M_DOMINATED] += 1
                continue
            _dom_keep(S, X, d, g)  # refuted by its parts' bounds, or searched from here on
        if tot < bound and pass2 and sp.big > 1 and rem - 1 >= 2:
            tot = _tighten(S, X, TT, d, rem, here, g, sp, parts, bound, forced)
            if meta[M_ABORT] != 0:
                return Found(INF, NO_GUESS)
        if tot >= bound:
            soft = min(soft, tot)
            lost += tot >= INF
            if cores and tot >= INF:
                _core_of_bounds(S, X, d, here, g, sp, parts)
            continue
        big = _smallest_first(parts, sp)
        risky = lost > 0 or (forced >= 0 and ip[IP_PROBE_FORCED] != 0)
        if probe and bound >= INF and risky and _refuted_by_a_part(S, X, TT, d, rem, here, g, sp, parts, big, cores):
            continue
        if meta[M_ABORT] != 0:
            return Found(INF, NO_GUESS)
        work = meta[M_WORK]
        for i in range(sp.big):
            p = big[i]
            a = offs[p]
            tot -= plb[p]
            child = _hard_child(S, here, g, p, X.tbuf[d + 1]) if hard else here
            f = _node(S, X, TT, parts.elems[a : offs[p + 1]], d + 1, rem - 1, bound - tot, child, NO_GUESS)
            if meta[M_ABORT] != 0:
                return Found(INF, NO_GUESS)
            if cores and f.value >= INF:
                _core_keep(S, X, d, here, g, p, parts.elems[a : offs[p + 1]])
            tot += f.value
            if tot >= bound:
                break
        if tot < bound:
            best = Found(tot, g)
            if tot <= op.alpha or asked:
                break
            if exact and state.left > ip[IP_PRUNE_MIN]:
                state = Pick(g, state.it, np.int64(_prune_trials(X, d, state.left, min(beta, cap, tot))), state.run)
        else:
            soft = min(soft, tot)
            lost += tot >= INF
            in_vain += meta[M_WORK] - work
    return _close_node(S, TT, H, beta, forced, op, allowed.hsig, best, soft, X.rest[d])


# ---------------------------------------------------------------------------------------------
# Helpers for the Python side


@wrapping
@njit(**JIT)
def _part_list(S, X, parent, g, p, H, out, kept, classes_min):
    """The list a hard-mode part that Python hands to a thread is searched with
    (TreeSearch._part_list): the part H after the row (g, p) of a node whose list is
    ``parent``: the parent's list cut to the row's hints, as the search derives a child's
    (``_hard_child``, in ``out``); then, for ``classes_min`` answers or more, cut to H's letter
    classes (in ``kept``).  One call and one pass over the parent's list where Python made a
    pass over every guess (the hints' mask, its indices and their hash) and a second call for
    the classes.  (Outside hard mode a part's list is every guess: Python does not call it.)"""
    child = _hard_child(S, parent, g, p, out)
    if H.shape[0] < classes_min or not _by_classes(S, H):
        return child
    return Allowed(_letter_classes(S, X, H, child.guesses, kept), child.hsig, child.greens, child.mins)


@wrapping
@njit(**JIT)
def _scan_share(S, X, H, T, by_answer):
    """The root scan of the guesses ``T`` (a share of a node's guesses) into this worker's
    level-0 arrays: threads scan shares of a big node's guesses at once and the shares are then
    joined in one worker (``_order_scanned``).  A guess's entries depend on it and the node
    alone, so the joined arrays equal one scan of every guess.

    ``by_answer`` is the pattern matrix indexed [answer, guess] as the scan reads it: S.mt
    itself, or the guesses x answers matrix seen through its transpose (a Fortran-ordered view,
    compiled as a type of its own).  For a weighted node holding a good share of the answers the
    view reads each guess's patterns as one contiguous run: the nyt root's scan ran 6.5x faster so
    than down the columns of S.mt, one guess at a time (with unit weights the scan by answer counts
    SCAN_BLOCK guesses at once and is the faster at every size: see
    SearchTuning.row_scan_density).  Same values either way: same arithmetic in the same order."""
    W = 0.0
    for j in range(H.shape[0]):
        W += S.w[H[j]]
    by = Static(by_answer, S.w, S.gid, S.aog, S.zob, S.codes, S.lcount, S.allg, S.fam, S.ip, S.fp)
    _scan(by, X, H, T, DEPTH0, W, SIGNED, INF)


@wrapping
@njit(**JIT)
def _order_scanned(S, X, H, T, out):
    """``_node_trials`` after the scan: the guesses to try, best first, as guess ids in ``out``."""
    n = _trial_order(S, X, H, T, DEPTH0, INF)
    order = X.order[0]
    for i in range(n):
        out[i] = T[order[i]]
    return n


@wrapping
@njit(**JIT)
def _node_plan(S, X, TT, H, rem, allowed, out):
    """``_node``'s first step for a node whose guesses the caller shares out to threads (a big
    part of a first guess, see TreeSearch._split_parts).  Returns a ``Plan``: when not settled,
    ``out`` (a ``PlanOut``) holds the ``count`` guesses the loop of _node may try, with their
    ordering keys, places in the guess list (or, near-optimal, in the trial order) and lower
    bounds: the caller orders them by key, then place, as _next_trial does.  A guess whose
    partition repeats an earlier one's is kept: it ties, and a tie never replaces."""
    op = _open_node(S, X, TT, H, DEPTH0, rem, INF, allowed, NO_GUESS)
    if op.done:
        return Plan(True, op.value, op.guess, op.alpha, op.cap, op.best_value, op.best_guess, np.int64(0))
    bound = min(op.cap, op.best_value)
    exact = S.ip[IP_K] <= 0
    T = op.guesses
    order, lbg = X.order[0], X.lbg[0]  # exact: every candidate, as a heap
    n = 0
    for i in range(op.trials):
        t = order[i]
        if lbg[t] < bound:
            out.guesses[n] = T[t]
            out.keys[n] = X.key[0][t] if exact else 0.0
            out.places[n] = t if exact else i
            out.lbs[n] = lbg[t]
            n += 1
    return Plan(False, op.value, op.guess, op.alpha, op.cap, op.best_value, op.best_guess, np.int64(n))


@wrapping
@njit(**JIT)
def _try_guesses(S, X, TT, H, rem, allowed, batch, race):
    """Evaluate each guess of ``batch`` (with its lower bound and place in the node's trial
    order) at the node H, as the loop of _node does: a big part's guesses after its first, see
    TreeSearch._split_parts.  ``race.best`` holds each thread's best so far as one int64, value
    and place packed (see BEST_SHIFT; one store, so another thread never reads a value with the
    wrong place): this thread writes entry ``race.me``, reads all (a stale read only loosens a
    bound).  ``batch.values[i]`` is the guess's value, or INF when it did not beat its bound.
    Unit weights and a hard cap only: the values are integers.

    The node's guess is the first in trial order with the least value, so a guess must beat a
    value found earlier in the order, and only tie one found later (the margin): then every
    guess that can be chosen is found exactly, whichever thread got where first.  Nothing
    beats the node's lower bound ``race.alpha``: once a guess meets it, the guesses after it are
    skipped (those before it can still tie it: the serial loop would have met them first).
    The parts' extra scans of a lone guess (IP_PASS2) are off here, as in the loop of _node
    (but for the exact search in hard mode, which has them everywhere, and at big nodes: see
    _tighten and IP_PASS2_NODE_MIN)."""
    margin = S.fp[FP_MARGIN]
    pass2 = S.ip[IP_PASS2]
    S.ip[IP_PASS2] = 0  # this worker's own copy of the parameters
    # A guess tried at bound INF comes after the node's first guess, which could not win: the
    # node may well be unable to, and its guesses' parts are asked that first (see _node).
    S.ip[IP_PROBE_FORCED] = 1
    low = (np.int64(1) << BEST_SHIFT) - 1
    best, pos = race.best, batch.places
    for i in range(batch.guesses.shape[0]):
        bound = race.cap
        settled = False
        for j in range(best.shape[0]):
            code = best[j]
            if code == BEST_NONE:
                continue
            b = np.float64(code >> BEST_SHIFT)
            at = code & low
            if b <= race.alpha and at < pos[i]:
                settled = True
            if at > pos[i]:
                b += margin
            if b < bound:
                bound = b
        batch.values[i] = INF
        batch.floors[i] = -INF
        if settled or batch.lbs[i] >= bound:
            continue
        # typed arguments, as Python passes them: a literal would compile _node a second time
        # (see DEPTH0)
        f = _node(S, X, TT, H, DEPTH0, np.int64(rem), np.float64(bound), allowed, np.int64(batch.guesses[i]))
        if TT.meta[M_ABORT] != 0:
            break
        batch.floors[i] = f.value
        if f.value < bound:
            batch.values[i] = f.value
            code = (np.int64(f.value) << BEST_SHIFT) | pos[i]
            if code < best[race.me]:  # a lower value, or the same value earlier in the order
                best[race.me] = code
    S.ip[IP_PASS2] = pass2
    S.ip[IP_PROBE_FORCED] = 0


@wrapping
@njit(**JIT)
def _node_trials(S, X, TT, H, rem, allowed, out):
    """The guesses the search would try at this node, best first, as guess ids in ``out``
    (the top-k and kc of the near-optimal search, or every useful guess of the exact one);
    returns how many.  Used to rank alternatives for display and to share a big root's
    guesses between threads."""
    ip = S.ip
    gid = S.gid
    nh = H.shape[0]
    T = allowed.guesses
    if ip[IP_CANDONLY] != 0:
        cands = X.tbuf[0]
        for j in range(nh):
            cands[j] = gid[H[j]]
        T = cands[:nh]
    W = 0.0
    for j in range(nh):
        W += S.w[H[j]]
    _scan(S, X, H, T, DEPTH0, W, SIGNED, INF)
    n = _trial_order(S, X, H, T, DEPTH0, INF)
    order = X.order[0]
    for i in range(n):
        out[i] = T[order[i]]
    return n
