"""Numba kernels of the tree search (see ``search.py`` for the public twins and the method).

A node is a set H of answers (sorted answer ids), the guesses still allowed (all of them, or in
hard mode those meeting the constraints so far) and the number of guesses left.  Its value is the
least total, over H, of the guesses still needed (weighted by the answer weights; with unit
weights, the number of guesses), or INF when no strategy finishes within the guesses left.

``_node`` returns the exact value when it is below ``beta``; otherwise some number >= beta (a
proof that the node cannot beat beta).  Everything the recursion needs travels in three named
tuples (numba compiles attribute access to a field load, so naming costs nothing):

``Static``  (S, shared by the threads): the pattern matrix transposed (answers x guesses), answer
            weights, ids, hashes, letter tables and the parameters (``ip``/``fp``, see IP_*/FP_*).
``Scratch`` (X, one per thread): per-depth rows, so a node's buffers survive while its children
            run, and the scan's small tallies.
``Table``   (TT, one per thread): a bounded transposition table of (lower, upper, best guess) per
            node, keyed by the set, the guesses left and the hard-mode constraints; every hit is
            verified against the stored answer set (collision-checked).  ``meta`` holds counters.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..core.kernels import JIT, bits_f64, f64_bits, wrapping

INF = 1e30

Static = namedtuple("Static", [
    "mt",  # pattern matrix transposed: answers x guesses (uint8)
    "w",  # answer weights (unit weights: totals are exact integers in float64)
    "gid",  # guess id of each answer
    "aog",  # answer id of each guess, or -1
    "zob",  # a random 64-bit number per answer (the hash of a set is the sum of its members')
    "codes",  # guess letters (n_guesses x L)
    "lcount",  # letter counts per guess (n_guesses x 26)
    "allg",  # 0 ... n_guesses-1: the allowed list when hard mode is off
    "ip",  # int64 parameters, see IP_* (each worker has its own copy: it holds the work budget)
    "fp",  # float64 parameters, see FP_*
])
Scratch = namedtuple("Scratch", [
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
    "run",  # exact search: the guesses taken so far with the current key (see _next_trial)
    "rest",  # exact search: the least lower bound of the useful guesses not heaped (see _heap_of_trials)
    # the scan's tallies (reused by every node):
    "block",  # per-pattern counts of SCAN_BLOCK guesses at once (uniform scans)
    "cnt",  # per-pattern counts (weighted scans, the candidate-split shortcut)
    "mass",  # per-pattern weight
    "mx",  # per-pattern largest weight
    "zs",  # per-pattern hash sums (signatures)
])
Table = namedtuple("Table", [
    # shared by a search's threads (see _tt_check):
    "ent",  # entries x E_WORDS uint64, one entry a cache line (see E_*)
    "pool",  # answer sets
    "alloc",  # the shared counts, see A_*
    # the worker's own:
    "meta",  # counters, see M_*
])

# Table.alloc: the counts the threads share (written without locks: a lost increment only
# delays a growth).
A_POOL = 0  # pool entries in use
A_STORED = 1  # entries stored since the table was emptied
A_MASK = 2  # the slots in use are 0 … mask (see _tt_grow)
A_HIGH = 3  # the most slots ever in use since the table was made (what _tt_clear empties)
A_GROWING = 4  # a thread is moving entries (see _tt_grow)
A_START = 5  # the slots in use when the table is empty
N_ALLOC = 6
# A table starts with this many slots in use (2 MB) and doubles them whenever a quarter are
# taken (at half, 4-slot probe runs overflowed: 3 % of entries lost instead of 0.3 %), up to
# its size: a search touches only the pages it fills.  Hashing over all of a 2 GB table from
# the start touched a new page for nearly every probe: classic SALET hard faulted 29,000 pages,
# 7 % of its time on one thread and 17 % on two (the threads fault in turn).
TT_START_SLOTS = 1 << 15

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
IP_RESERVED = 6  # (free slot)
IP_DEDUP = 7  # skip guesses whose partition equals an earlier one (normal mode only)
IP_TT_MIN = 8  # smallest node stored in the table
IP_DEPTH = 9  # levels searched below the query node before estimating (0: all the way)
IP_CANDONLY = 10  # guess space: only words that can still be the answer
IP_PASS2 = 11  # a guess evaluated alone tightens its parts' bounds with a scan each first
IP_WORK_BUDGET = 12  # stop (abort) after this much work, in scan units (see M_WORK; 0: no limit)
N_IP = 13
# Estimated value per unit weight of a node of n answers (n >= 3) when the depth limit stops
# the search: a + b ln(n), fitted to the nodes of optimal trees (nyt-3158 from TARSE, 2,000 nodes;
# 1.74 at n=3, 2.3 at n=20, 3.0 at n=250).
EST_A = 1.454
EST_B = 0.283

# A uniform scan counts the parts of this many guesses at once, reading each answer's patterns
# for them as one run of the matrix row (see _scan_uniform).
SCAN_BLOCK = 16
SCAN_TALLY_MIN = 128
# The exact search drops the candidates a new incumbent rules out when more than this many remain.
PRUNE_MIN = 32
# A guess's parts of at least this many answers get a scan each for a tighter bound before any
# recursion (see _node): a lone guess's (a first word of an opener sweep) in both modes, with
# PASS2_MIN_ALONE; in the exact search in hard mode every guess's, with PASS2_MIN_HARD (and
# PASS2_MIN_ALONE for the root guesses the threads share).  The near-optimal search was not
# measured with it: left as it was.  Hard mode, NYT-3158 TARSE's exact total, one thread, a
# quiet machine, beside the C++ (bench_peer): 26.1 s -> 9.95 s (C++ 41.4 s); on a busy machine
# 38.2 s -> 17.1 s (18.5 s with parts of 8 inside the search, 33.3 s with 100); the refutation
# of 21 of the hard opener proof's remaining first words 223 CPU-s -> 87; classic SALET hard
# unchanged (0.7-0.9 s).  Normal mode inside the search: twice as slow (classic SALET 0.64 s ->
# 1.45 s, NYT-2309 TARSE 2.76 s -> 5.43 s), so it is not done there.
PASS2_MIN_ALONE = 8
PASS2_MIN_HARD = 30
# A thread's best value so far and the place of its guess in trial order, packed in one int64
# (value << BEST_SHIFT | place) for the threads sharing a node's guesses (see _try_guesses).
BEST_SHIFT = 24
BEST_NONE = np.int64(1) << 62  # from this many answers, count first and summarise each tally once

# float parameters (S.fp)
FP_MARGIN = 0  # ties: a bound of (best + margin) lets an equal value be found exactly
FP_FAIL = 1  # cost per unit weight of an answer not found within the cap (INF: a hard cap)
N_FP = 2

# meta counters (TT.meta)
M_STORED, M_CLEARS, M_HITS, M_NODES, M_SCANS, M_EVALS = 1, 2, 3, 4, 5, 6  # (0: free)
M_WORK = 7  # work done in this call, in scan units (one answer against one guess, ~3-5 ns)
NODE_COST = 200  # a node visit, in scan units
EVAL_COST = 4  # per answer partitioned when a guess is evaluated, in scan units
GUESS_COST = 40  # per guess scanned, whatever the node's size (bookkeeping, cache lines)
WEIGHTED_COST = 5  # weighted work costs WEIGHTED_COST / 2 times as much
M_ABORT = 8  # set when the work budget ran out: the call's result is void, nothing more is stored
N_META = 10

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
    return (np.uint64(np.int64(g) & 0xFFFFFFFF) | (np.uint64(nh) << np.uint64(PACK_NN_SHIFT))
            | (np.uint64(rem) << np.uint64(PACK_RR_SHIFT)))


@njit(inline="always", **JIT)
def _tt_best(pack):
    b = np.int64(pack & np.uint64(0xFFFFFFFF))
    return np.int32(b - (1 << 32) if b >= (1 << 31) else b)


@njit(inline="always", **JIT)
def _tt_find(TT, key, H, rem, hsig):
    """The entry of (H, rem, hsig): (slot, lower, upper, best guess), slot -1 when absent.  Each
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
                    return i, bits_f64(lo), bits_f64(hi), _tt_best(pack)
        i = (i + 1) & mask
    return -1, 0.0, 0.0, -1


@njit(**JIT)
def _tt_clear(TT):
    """Empty the table (only the slots ever used are touched), back to its first size."""
    alloc = TT.alloc
    TT.ent[:alloc[A_HIGH] + 1, E_KEY] = 0
    alloc[A_POOL] = 0
    alloc[A_STORED] = 0
    alloc[A_MASK] = alloc[A_START] - 1
    TT.meta[M_CLEARS] += 1


@njit(**JIT)
def _tt_grow(TT):
    """Double the slots in use (see TT_START_SLOTS).  An entry's slot is its key's low bits
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
    i, lo_i, hi_i, b_i = _tt_find(TT, key, H, rem, hsig)
    nh = H.shape[0]
    if i >= 0:
        lo_n, hi_n, b_n = lo_i, hi_i, b_i
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
        units = units * WEIGHTED_COST // 2
    meta[M_WORK] += units
    budget = S.ip[IP_WORK_BUDGET]
    if budget > 0 and meta[M_WORK] > budget:
        meta[M_ABORT] = 1


# ---------------------------------------------------------------------------------------------
# Hard mode


@njit(**JIT)
def _hard_child(S, T, g, p, greens, mincnt, out):
    """Filter the allowed guesses T (which meet the constraints ``greens``/``mincnt``) by the
    row (g, p): write them to ``out``; return (count, child greens, child minimum counts, child
    constraint hash)."""
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
    return n, g2, m2, _constraint_hash(g2, m2)


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


@njit(**JIT)
def _scan(S, X, H, T, d, W):
    """Per guess t of T: lower bound ``lbg`` on the node value if t is played now, an ordering
    ``key`` (lower is better), the weight of the answer it hits (``hitw``, -1 if none) and
    whether t is useful (splits H or can win); ``sig`` is cleared (partition signatures are
    computed later, only for the few guesses that need one).  Returns (min lbg over useful
    guesses, best perfect-split value, its guess).

    Unit weights with the matrix in rows (answers x guesses, as S.mt is): ``_scan_uniform``,
    SCAN_BLOCK guesses at a time.  Otherwise (weights, or the root's share read through the
    guesses x answers matrix) ``_scan_general``, one guess at a time.  Same values either way.
    """
    if S.ip[IP_UNIFORM] != 0 and S.mt.strides[1] == 1:
        return _scan_uniform(S, X, H, T, d, W)
    return _scan_general(S, X, H, T, d, W)


@njit(**JIT)
def _scan_uniform(S, X, H, T, d, W):
    """``_scan`` with unit weights, SCAN_BLOCK guesses at once.  For each answer the patterns of
    the block's guesses are one run of its matrix row (one cache line; the guesses of T are
    consecutive ids outside hard mode), counted into SCAN_BLOCK separate tallies: independent
    increments the processor overlaps, where one guess at a time chains every increment to the
    previous one and reads one cache line per answer.  2.4-3x faster per (answer, guess) pair.

    A small node counts parts and squares as it goes (and clears the tallies it touched); a
    big one only counts, then reads each tally once (fewer operations per answer).  The
    tallies are all zero between calls."""
    mt = S.mt
    green = S.ip[IP_GREEN]
    lbg, key, sig, useful, hitw = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.hitw[d]
    blk = X.block
    npat = blk.shape[1]
    nh = H.shape[0]
    nt = T.shape[0]
    parts = np.zeros(SCAN_BLOCK, np.int64)
    s2 = np.zeros(SCAN_BLOCK, np.int64)
    tally = nh >= SCAN_TALLY_MIN
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
                    row = mt[H[j], g0:g0 + SCAN_BLOCK]
                    for b in range(SCAN_BLOCK):
                        blk[b, row[b]] += 1
                else:
                    h = H[j]
                    for b in range(nb):
                        blk[b, mt[h, T[t0 + b]]] += 1
            for b in range(nb):
                pb = 0
                sb = 0
                for p in range(npat):
                    c = np.int64(blk[b, p])
                    pb += c > 0
                    sb += c * c
                parts[b] = pb
                s2[b] = sb
        else:
            for b in range(nb):
                parts[b] = 0
                s2[b] = 0
            for j in range(nh):
                if run:
                    row = mt[H[j], g0:g0 + SCAN_BLOCK]
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
        for b in range(nb):
            t = t0 + b
            cand = blk[b, green] > 0
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
        if tally:
            blk[:, :] = 0
        else:
            for j in range(nh):  # clear what was touched
                if run:
                    row = mt[H[j], g0:g0 + SCAN_BLOCK]
                    for b in range(SCAN_BLOCK):
                        blk[b, row[b]] = 0
                else:
                    h = H[j]
                    for b in range(nb):
                        blk[b, mt[h, T[t0 + b]]] = 0
    return min_lb, perfect, perfect_g


@njit(**JIT)
def _scan_general(S, X, H, T, d, W):
    """``_scan`` one guess at a time (any weights, either matrix layout): a pass counts its
    parts in a small per-pattern array, a second pass summarises each part on its first visit
    and clears it.  Consecutive guesses read the same cache lines of the transposed matrix (one
    line holds 64 guesses of an answer), so the node's answers stay in cache across the scan.
    """
    mt, w = S.mt, S.w
    ip = S.ip
    green = ip[IP_GREEN]
    uniform = ip[IP_UNIFORM] != 0
    lbg, key, sig, useful, hitw = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.hitw[d]
    cnt, mass, mx = X.cnt, X.mass, X.mx
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
        sig[t] = 0
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
    return min_lb, perfect, perfect_g


@njit(inline="always", **JIT)
def _signature(sig, t, mt, zob, zs, green, H, T):
    """Partition signature of guess T[t] over H, computed once and kept in sig[t]: a hash of
    the grouping of H (not of the colours), marking the part the guess itself wins.  Two
    guesses with the same signature leave the same parts, so in normal mode they are worth
    the same and only the first needs searching.

    Inlined, with the arrays it reads as arguments: a kernel called with the Static and
    Scratch tuples pays a reference count on each of their ~30 arrays, on the way in and out
    (~0.4 us): in the loops over every guess that made a near-optimal search's ordering of a
    small node (thousands of equal keys) cost 20 ms instead of a tenth of one."""
    if sig[t] == 0:
        sig[t] = _hash_partition(mt, zob, zs, green, H, T[t])
    return sig[t]


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
    key, sig, useful, order = X.key[d], X.sig[d], X.useful[d], X.order[d]
    mt, zob, zs, green = S.mt, S.zob, X.zs, ip[IP_GREEN]  # for signatures
    nt = T.shape[0]
    # Two small sorted buffers filled by insertion: the k best overall, and the k + kc best
    # possible answers (the extras are those not already among the k best).
    m = k + kc
    top = np.empty(k, np.int64)
    cand = np.empty(m, np.int64)
    ntop = 0
    ncand = 0
    for t in range(nt):
        if useful[t] == 0:
            continue
        kt = key[t]
        if ntop < k or kt < key[top[ntop - 1]]:
            ntop = _insert(top, ntop, k, t, kt, key, sig, dedup, mt, zob, zs, green, H, T)
        if aog[T[t]] >= 0 and (ncand < m or kt < key[cand[ncand - 1]]):
            ncand = _insert(cand, ncand, m, t, kt, key, sig, dedup, mt, zob, zs, green, H, T)
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
            if top[q] == t or (dedup and key[top[q]] == key[t]
                               and _signature(sig, top[q], mt, zob, zs, green, H, T)
                               == _signature(sig, t, mt, zob, zs, green, H, T)):
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
def _insert(buf, n, cap, t, kt, key, sig, dedup, mt, zob, zs, green, H, T):
    """Insert index t (key kt) into the sorted buffer buf[:n] of capacity cap, after equal keys
    (list order breaks ties); a partition already in the buffer is not added twice (equal
    partitions have equal keys, so signatures are only computed on a key tie)."""
    if dedup:
        for q in range(n):
            if key[buf[q]] == kt and (_signature(sig, buf[q], mt, zob, zs, green, H, T)
                                      == _signature(sig, t, mt, zob, zs, green, H, T)):
                return n
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


@njit(**JIT)
def _trial_order_all(S, X, H, T, d, bound):
    ip = S.ip
    dedup = ip[IP_DEDUP] != 0
    lbg, key, sig, useful, order = X.lbg[d], X.key[d], X.sig[d], X.useful[d], X.order[d]
    mt, zob, zs, green = S.mt, S.zob, X.zs, ip[IP_GREEN]  # for signatures
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
                st = _signature(sig, t, mt, zob, zs, green, H, T)
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
    """Take the next guess to try out of the heap (see _heap_of_trials): its index into T, the
    heap's new size and the length of the current run of equal keys, or -1 when none is left.
    Skips guesses whose lower bound reaches ``bound`` and, in normal mode, a guess whose
    partition equals one already taken (equal partitions have equal keys: signatures are
    compared within a run of equal keys only), as _trial_order_all does."""
    heap, key, lbg, sig, run = X.order[d], X.key[d], X.lbg[d], X.sig[d], X.run[d]
    mt, zob, zs, green = S.mt, S.zob, X.zs, S.ip[IP_GREEN]  # for signatures
    dedup = S.ip[IP_DEDUP] != 0
    while n > 0:
        t = heap[0]
        n -= 1
        heap[0] = heap[n]
        _sift_down(heap, n, 0, key)
        if lbg[t] >= bound:
            continue
        if dedup:
            if nrun > 0 and key[run[0]] == key[t]:
                st = _signature(sig, t, mt, zob, zs, green, H, T)
                dup = False
                for r in range(nrun):
                    if _signature(sig, run[r], mt, zob, zs, green, H, T) == st:
                        dup = True
                        break
                if dup:
                    continue
                run[nrun] = t
                nrun += 1
            else:
                run[0] = t
                nrun = 1
        return t, n, nrun
    return -1, 0, nrun


@njit(**JIT)
def _two_left(X, T, d, W, fail, best_v, best_g):
    """Soft cap, two guesses left: guess t then the heaviest of each part; the value is
    W + (W - hit) + fail * (lbg - 2W + hit), where hit is the weight t wins outright."""
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
    return best_v, best_g


@njit(**JIT)
def _part_bound(S, X, TT, H, d, rem, T, hsig, W):
    """A lower bound on a part's value: the table's, or the best one-guess bound of a scan
    (remembered in the table).  Uses the scratch rows of depth d, free at this point."""
    ip = S.ip
    dl = ip[IP_DEPTH]
    if dl > 0:
        return 0.0  # depth-limited values are estimates, not bounds
    hsum = np.uint64(0)
    for j in range(H.shape[0]):
        hsum += S.zob[H[j]]
    key = _tt_key(hsum, rem, hsig)
    slot, lo_t, _, _ = _tt_find(TT, key, H, rem, hsig)
    if slot >= 0:
        return lo_t
    T2 = T
    if ip[IP_CANDONLY] != 0:
        cands = X.tbuf[d]
        for j in range(H.shape[0]):
            cands[j] = S.gid[H[j]]
        T2 = cands[:H.shape[0]]
    TT.meta[M_SCANS] += 1
    _charge(S, TT.meta, (H.shape[0] + GUESS_COST) * T2.shape[0])
    if TT.meta[M_ABORT] != 0:
        return 0.0
    min_lb, perfect, perfect_g = _scan(S, X, H, T2, d, W)
    lb = min_lb if perfect >= INF else min(min_lb, perfect)
    _tt_store(TT, key, H, rem, hsig, lb, INF, -1)
    return lb


@njit(**JIT)
def _partition(mt, w, H, g, rem, fail, uniform, npat, green, elems, offs, pw, plb, plist, W):
    """Group H by the pattern of guess g, and bound each part from below.

    Fills (one depth's rows): ``elems`` the answers grouped by pattern (a counting sort:
    stable, so every part stays sorted), ``offs`` where each pattern's run starts, ``pw`` the
    weight of each part, ``plb`` a lower bound on its value with rem - 1 guesses left (exact for
    parts of one or two answers and at the guess cap), ``plist`` the non-empty patterns and
    after them the parts that need a search.  Returns (parts, parts to search, W plus the
    bounds, summed in that order): cheap parts alone can settle a guess before any recursion."""
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
    return nparts, nbig, tot


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
            return g, one_pair
        if row_bad == 1 and one_pair < 0:
            one_pair = g
    return -1, one_pair


@njit(**JIT)
def _estimate(w, H, W, wmax):
    """A node's value past the depth limit: a + b ln(n) per unit weight, n the effective number
    of answers (see EST_A); small nodes get the lower bound."""
    sq = 0.0
    for j in range(H.shape[0]):
        sq += w[H[j]] * w[H[j]]
    n_eff = W * W / sq  # effective number of answers (all equal weights: nh)
    return W * (EST_A + EST_B * np.log(n_eff)) if n_eff > 2.0 else 2.0 * W - wmax


# ---------------------------------------------------------------------------------------------
# The recursion


@njit(inline="always", **JIT)
def _open_node(S, X, TT, H, d, rem, beta, T, hsig, forced):
    """Everything _node does before it tries guesses: trivial sets, the depth limit, the table,
    the candidate-split shortcuts and (unless a guess is forced) the scan with its closed forms.

    Returns (done, value, guess, alpha, cap, incumbent value, incumbent guess, trials, T, key,
    trem, use_tt): ``done`` when the node is settled (value, guess); otherwise the guesses to
    try are ready at depth d (a heap in the exact search, a sorted list in the near-optimal one,
    ``trials`` of them), ``alpha`` is the node's lower bound, ``cap`` the table's upper bound,
    and a perfect split, if any, is the incumbent.  ``T`` is the guess list the trials index
    (the candidates themselves in the candidates-only guess space)."""
    mt, w, gid = S.mt, S.w, S.gid
    ip, fp = S.ip, S.fp
    meta = TT.meta
    uniform = ip[IP_UNIFORM] != 0
    margin = fp[FP_MARGIN]
    fail = fp[FP_FAIL]
    nh = H.shape[0]
    meta[M_NODES] += 1
    key = np.uint64(0)
    trem = rem
    use_tt = False
    cap = INF
    if meta[M_ABORT] != 0:
        return True, INF, -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
    _charge(S, meta, NODE_COST)
    W = 0.0
    wmax = -1.0
    imax = 0
    for j in range(nh):
        x = w[H[j]]
        W += x
        if x > wmax:
            wmax = x
            imax = j
    if rem <= 0:
        return True, _failed(W, fail), -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
    if forced < 0:
        if nh == 1:
            return True, W, gid[H[0]], 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        lb0 = 2.0 * W - wmax
        if lb0 >= beta:
            return True, lb0, -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if rem == 1:
            v1 = _last_guess(W, wmax, fail)
            return True, v1, (gid[H[imax]] if v1 < INF else -1), 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if nh == 2:
            a = H[imax]
            b = H[1 - imax]
            return True, w[a] + 2.0 * w[b], gid[a], 0.0, cap, INF, -1, 0, T, key, trem, use_tt
    else:
        lb0 = W
    # --- depth limit: past it, estimate (never below the lower bound)
    dl = ip[IP_DEPTH]
    if forced < 0 and dl > 0 and d >= dl:
        return True, max(_estimate(w, H, W, wmax), lb0), -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
    # --- transposition table (with a depth limit a value also depends on the levels left)
    hsum = np.uint64(0)
    zob = S.zob
    for j in range(nh):
        hsum += zob[H[j]]
    use_tt = forced < 0 and nh >= ip[IP_TT_MIN]
    trem = rem + (16 * (dl - d) if dl > 0 else 0)  # table tag: guesses left (and levels left)
    if use_tt:
        key = _tt_key(hsum, trem, hsig)
        slot, lo_t, hi_t, best_t = _tt_find(TT, key, H, trem, hsig)
        if slot >= 0:
            meta[M_HITS] += 1
            if lo_t == hi_t:
                return True, lo_t, best_t, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
            if lo_t >= beta:
                return True, lo_t, -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
            if lo_t > lb0:
                lb0 = lo_t
            if hi_t < INF:
                cap = hi_t + margin
    # --- shortcuts: a possible answer that splits H into singletons (or all but one pair)
    npat = ip[IP_NPAT]
    if forced < 0 and uniform and nh <= npat:
        split, one_pair = _candidate_splits(mt, gid, H, X.cnt)
        if split >= 0:
            return True, 2.0 * W - 1.0, split, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if one_pair >= 0 and rem >= 3:
            if use_tt:
                _tt_store(TT, key, H, trem, hsig, 2.0 * W, 2.0 * W, one_pair)
            return True, 2.0 * W, one_pair, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
    # --- choose the guesses to try
    exact = ip[IP_K] <= 0
    bestv = INF
    bestg = -1
    ntrial = 0
    alpha = lb0
    if forced >= 0:
        ntrial = 1
    else:
        if ip[IP_CANDONLY] != 0:
            cands = X.tbuf[d]
            for j in range(nh):
                cands[j] = gid[H[j]]
            T = cands[:nh]
        meta[M_SCANS] += 1
        _charge(S, meta, (nh + GUESS_COST) * T.shape[0])
        if meta[M_ABORT] != 0:
            return True, INF, -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        min_lb, perfect, perfect_g = _scan(S, X, H, T, d, W)
        if rem == 2:
            # Two guesses left: only a split into singletons finds everything; with a soft cap
            # the others cost their unfound answers (closed form from the scan's tallies).
            v2, g2 = perfect, perfect_g
            if fail < INF:
                v2, g2 = _two_left(X, T, d, W, fail, v2, g2)
            if use_tt:
                _tt_store(TT, key, H, trem, hsig, v2, v2, g2)
            return True, v2, g2, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if min_lb > alpha:
            alpha = min_lb
        if perfect <= alpha:
            if use_tt:
                _tt_store(TT, key, H, trem, hsig, perfect, perfect, perfect_g)
            return True, perfect, perfect_g, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if alpha >= beta:
            if use_tt:
                _tt_store(TT, key, H, trem, hsig, alpha, INF, -1)
            return True, alpha, -1, 0.0, cap, INF, -1, 0, T, key, trem, use_tt
        if perfect < INF:
            # a split into singletons is a finished strategy: the incumbent to beat
            bestv = perfect
            bestg = perfect_g
        if exact:
            ntrial = _heap_of_trials(X, T, d, min(beta, cap, bestv))
        else:
            ntrial = _trial_order(S, X, H, T, d, min(beta, cap, bestv))
    return False, INF, -1, alpha, cap, bestv, bestg, ntrial, T, key, trem, use_tt


@wrapping
@njit(**JIT)
def _node(S, X, TT, H, d, rem, beta, T, hsig, greens, mincnt, forced):
    """Value of the node (H, T, rem) if below ``beta``, else a number >= beta; and its best guess
    (-1 when none was proven).  ``forced`` >= 0 evaluates that guess only.

    Two steps: ``_open_node`` settles the node or readies the guesses to try; the loop below
    evaluates them best first with branch and bound (``_partition`` bounds each guess's parts,
    the big ones are searched by recursion, smallest first)."""
    done, v0, g0, alpha, cap, bestv, bestg, ntrial, T, key, trem, use_tt = _open_node(
        S, X, TT, H, d, rem, beta, T, hsig, forced)
    if done:
        return v0, g0
    mt, w = S.mt, S.w
    ip, fp = S.ip, S.fp
    meta = TT.meta
    uniform = ip[IP_UNIFORM] != 0
    fail = fp[FP_FAIL]
    npat = ip[IP_NPAT]
    exact = ip[IP_K] <= 0
    nh = H.shape[0]
    W = 0.0
    for j in range(nh):
        W += w[H[j]]
    lb0 = alpha  # forced: the guess's own answers (W)
    order = X.order[d]
    # --- evaluate the candidates, best first, with branch and bound
    lbg = X.lbg[d]
    elems = X.elems[d]
    offs = X.offs[d]
    pw = X.pw[d]
    plb = X.plb[d]
    plist = X.plist[d]
    tbuf = X.tbuf
    npat_green = ip[IP_GREEN]
    hard = ip[IP_HARD] != 0
    # A typed variable, not the literal -1: a literal argument gives the recursive call its own
    # specialisation, and a cached recursive function with two specialisations crashes on
    # reload (numba issue 6713).  Python calls _node directly for the same reason.
    no_guess = np.int64(-1)
    it = 0
    nrun = 0
    # Fail-soft: the least lower bound proven of the guesses turned down.  When every guess
    # fails, the node is worth at least that (not just beta): a parent's sum, a staged
    # refutation and the table's entry get all that was proven, not only what was asked.
    soft = INF
    while True:
        bound = beta
        if bestv < bound:
            bound = bestv
        if cap < bound:
            bound = cap
        if forced >= 0:
            if it > 0:
                break
            g = forced
        elif exact:
            t, ntrial, nrun = _next_trial(S, X, H, T, d, ntrial, bound, nrun)
            if t < 0:
                break
            g = T[t]
        else:
            if it >= ntrial:
                break
            if lbg[order[it]] >= bound:
                it += 1
                continue
            g = T[order[it]]
        it += 1
        meta[M_EVALS] += 1
        _charge(S, meta, EVAL_COST * nh)
        if meta[M_ABORT] != 0:
            return INF, -1
        nparts, nbig, tot = _partition(mt, w, H, g, rem, fail, uniform, npat, npat_green,
                                       elems, offs, pw, plb, plist, W)
        if tot >= bound:
            soft = min(soft, tot)
            continue
        # When one given guess is evaluated against a bound (a first word in an opener sweep, a
        # root guess shared between threads), tighten its big parts' bounds before any deep
        # search: one scan each gives the best one-guess lower bound of the part (or the table
        # has a better one).  Their sum often exceeds the bound and settles the guess without
        # recursion: most first words are refuted in a tenth of a second instead of seconds.
        # Inside the search the same step pays in hard mode only (measured: see PASS2_MIN_HARD),
        # presumably because a part's guesses are only those its hints allow there, so its
        # one-guess bound lies further above the 2n - 1 it is given without a scan.
        if ((hard and exact) or (forced >= 0 and ip[IP_PASS2] != 0)) and nbig > 1 and rem - 1 >= 2:
            pmin = PASS2_MIN_ALONE if forced >= 0 else PASS2_MIN_HARD
            for i in range(nbig):
                p = plist[nparts + i]
                a = offs[p]
                c = offs[p + 1] - a
                if c < pmin:
                    continue
                Hc = elems[a: a + c]
                if hard:
                    nT, g2, m2, hs2 = _hard_child(S, T, g, p, greens, mincnt, tbuf[d + 1])
                    better = _part_bound(S, X, TT, Hc, d + 1, rem - 1, tbuf[d + 1][:nT], hs2, pw[p])
                else:
                    better = _part_bound(S, X, TT, Hc, d + 1, rem - 1, T, hsig, pw[p])
                if meta[M_ABORT] != 0:
                    return INF, -1
                if better > plb[p]:
                    tot += better - plb[p]
                    plb[p] = better
                    if tot >= bound:
                        break
            if tot >= bound:
                soft = min(soft, tot)
                continue
        # recurse into the big parts, smallest first
        big = plist[nparts: nparts + nbig]
        for i in range(1, nbig):
            p = big[i]
            c = offs[p + 1] - offs[p]
            k = i - 1
            while k >= 0 and offs[big[k] + 1] - offs[big[k]] > c:
                big[k + 1] = big[k]
                k -= 1
            big[k + 1] = p
        for i in range(nbig):
            p = big[i]
            a = offs[p]
            c = offs[p + 1] - a
            tot -= plb[p]
            child_bound = bound - tot
            Hc = elems[a: a + c]
            if hard:
                nT, g2, m2, hs2 = _hard_child(S, T, g, p, greens, mincnt, tbuf[d + 1])
                v, _ = _node(S, X, TT, Hc, d + 1, rem - 1, child_bound, tbuf[d + 1][:nT], hs2, g2, m2, no_guess)
            else:
                v, _ = _node(S, X, TT, Hc, d + 1, rem - 1, child_bound, T, hsig, greens, mincnt, no_guess)
            if meta[M_ABORT] != 0:
                return INF, -1
            tot += v
            if tot >= bound:
                break
        if tot < bound:
            bestv = tot
            bestg = g
            if bestv <= alpha:
                break
            if exact and ntrial > PRUNE_MIN:
                ntrial = _prune_trials(X, d, ntrial, min(beta, cap, bestv))
        else:
            soft = min(soft, tot)
    # Soft bounds are bounds only where every guess was either tried or turned down by its
    # scan bound: the exact search without a depth limit.
    sound = exact and ip[IP_DEPTH] <= 0
    if forced >= 0:
        if bestg >= 0:
            return bestv, bestg
        lo = max(beta, lb0)
        return (max(lo, soft) if sound else lo), bestg
    if bestg >= 0 and bestv < beta:
        if use_tt:
            _tt_store(TT, key, H, trem, hsig, bestv, bestv, bestg)
        return bestv, bestg
    # nothing below beta: the node is worth at least beta (or at least alpha), and at least
    # the least bound of its guesses: those turned down (soft), those never tried (their scan
    # bounds reach the bound; useless guesses are worth more than the node itself), and the
    # incumbent's value (a real strategy's).
    lo = beta if beta > alpha else alpha
    if sound:
        lo = max(lo, min(soft, X.rest[d], bestv))
    if use_tt:
        _tt_store(TT, key, H, trem, hsig, lo, INF, -1)
    return lo, -1


# ---------------------------------------------------------------------------------------------
# Helpers for the Python side


@wrapping
@njit(**JIT)
def _scan_share(S, X, H, T, by_answer):
    """The root scan of the guesses ``T`` (a share of a node's guesses) into this worker's
    level-0 arrays: threads scan shares of a big node's guesses at once and the shares are then
    joined in one worker (``_order_scanned``).  A guess's entries depend on it and the node
    alone, so the joined arrays equal one scan of every guess.

    ``by_answer`` is the pattern matrix indexed [answer, guess] as the scan reads it: S.mt
    itself, or the guesses x answers matrix seen through its transpose (a Fortran-ordered view,
    compiled as a type of its own).  For a node holding a good share of the answers the view
    reads each guess's patterns as one contiguous run: the nyt root's scan ran 6.5x faster so
    than down the columns of S.mt.  Same values either way: same arithmetic in the same order."""
    W = 0.0
    for j in range(H.shape[0]):
        W += S.w[H[j]]
    _scan(Static(by_answer, S.w, S.gid, S.aog, S.zob, S.codes, S.lcount, S.allg, S.ip, S.fp), X, H, T, 0, W)


@wrapping
@njit(**JIT)
def _order_scanned(S, X, H, T, out):
    """``_node_trials`` after the scan: the guesses to try, best first, as guess ids in ``out``."""
    n = _trial_order(S, X, H, T, 0, INF)
    order = X.order[0]
    for i in range(n):
        out[i] = T[order[i]]
    return n


@wrapping
@njit(**JIT)
def _node_plan(S, X, TT, H, rem, T, hsig, out, out_key, out_pos, out_lb):
    """``_node``'s first step for a node whose guesses the caller shares out to threads (a big
    part of a first guess, see TreeSearch._split_parts).  Returns (settled, value, guess,
    alpha, cap, incumbent value, incumbent guess, n): when not settled, ``out`` holds the n
    guesses the loop of _node may try, with their ordering keys, places in the guess list (or,
    near-optimal, in the trial order) and lower bounds: the caller orders them by key, then
    place, as _next_trial does.  A guess whose partition repeats an earlier one's is kept: it
    ties, and a tie never replaces."""
    no_guess = np.int64(-1)
    done, v, g, alpha, cap, bestv, bestg, ntrial, T2, key, trem, use_tt = _open_node(
        S, X, TT, H, 0, rem, INF, T, hsig, no_guess)
    if done:
        return True, v, g, alpha, cap, bestv, bestg, 0
    bound = min(cap, bestv)
    exact = S.ip[IP_K] <= 0
    order, lbg = X.order[0], X.lbg[0]  # exact: every candidate, as a heap
    n = 0
    for i in range(ntrial):
        t = order[i]
        if lbg[t] < bound:
            out[n] = T2[t]
            out_key[n] = X.key[0][t] if exact else 0.0
            out_pos[n] = t if exact else i
            out_lb[n] = lbg[t]
            n += 1
    return False, v, g, alpha, cap, bestv, bestg, n


@wrapping
@njit(**JIT)
def _try_guesses(S, X, TT, H, rem, T, hsig, greens, mincnt, guesses, lbs, pos, alpha, cap, best, me, values):
    """Evaluate each of ``guesses`` (lower bounds ``lbs``, places ``pos`` in the node's trial
    order) at the node H, as the loop of _node does: a big part's guesses after its first, see
    TreeSearch._split_parts.  ``best`` holds each thread's best so far as one int64, value and
    place packed (see BEST_SHIFT; one store, so another thread never reads a value with the
    wrong place): this thread writes entry ``me``, reads all (a stale read only loosens a
    bound).  values[i] is the guess's value, or INF when it did not beat its bound.  Unit
    weights and a hard cap only: the values are integers.

    The node's guess is the first in trial order with the least value, so a guess must beat a
    value found earlier in the order, and only tie one found later (the margin): then every
    guess that can be chosen is found exactly, whichever thread got where first.  Nothing
    beats the node's lower bound ``alpha``: once a guess meets it, the guesses after it are
    skipped (those before it can still tie it: the serial loop would have met them first).
    The parts' extra scans of a lone guess (IP_PASS2) are off here, as in the loop of _node
    (but for the exact search in hard mode, which has them everywhere: see PASS2_MIN_HARD)."""
    margin = S.fp[FP_MARGIN]
    pass2 = S.ip[IP_PASS2]
    S.ip[IP_PASS2] = 0  # this worker's own copy of the parameters
    low = (np.int64(1) << BEST_SHIFT) - 1
    for i in range(guesses.shape[0]):
        bound = cap
        settled = False
        for j in range(best.shape[0]):
            code = best[j]
            if code == BEST_NONE:
                continue
            b = np.float64(code >> BEST_SHIFT)
            at = code & low
            if b <= alpha and at < pos[i]:
                settled = True
            if at > pos[i]:
                b += margin
            if b < bound:
                bound = b
        values[i] = INF
        if settled or lbs[i] >= bound:
            continue
        # typed arguments, as Python passes them: a literal would compile _node a second time
        # (see the note in _node)
        v, _ = _node(S, X, TT, H, np.int64(0), np.int64(rem), np.float64(bound), T, hsig, greens, mincnt,
                     np.int64(guesses[i]))
        if TT.meta[M_ABORT] != 0:
            break
        if v < bound:
            values[i] = v
            code = (np.int64(v) << BEST_SHIFT) | pos[i]
            if code < best[me]:  # a lower value, or the same value earlier in the order
                best[me] = code
    S.ip[IP_PASS2] = pass2


@wrapping
@njit(**JIT)
def _node_trials(S, X, TT, H, rem, T, hsig, out):
    """The guesses the search would try at this node, best first, as guess ids in ``out``
    (the top-k and kc of the near-optimal search, or every useful guess of the exact one);
    returns how many.  Used to rank alternatives for display and to share a big root's
    guesses between threads."""
    ip = S.ip
    gid = S.gid
    nh = H.shape[0]
    if ip[IP_CANDONLY] != 0:
        cands = X.tbuf[0]
        for j in range(nh):
            cands[j] = gid[H[j]]
        T = cands[:nh]
    W = 0.0
    for j in range(nh):
        W += S.w[H[j]]
    _scan(S, X, H, T, 0, W)
    n = _trial_order(S, X, H, T, 0, INF)
    order = X.order[0]
    for i in range(n):
        out[i] = T[order[i]]
    return n
