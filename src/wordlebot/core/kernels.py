"""The package's generic Numba kernels, and the compile options every kernel uses.

Here: feedback and the pattern matrix, the partition statistics of the greedy rankers, hard-mode
masks, the integrity checksum, and the multi-board kernels (board costs, deadlocks, the endgame
split).  Not here: the tree search's kernels (its table, scan, trial order and recursion), which
live in ``search/kernels.py`` with their own named tuples and import ``JIT`` from this module;
the answer model's few kernels live beside it in ``answers/``.

Kernels are private (leading underscore), take contiguous numpy arrays, plain scalars or named
tuples of them (``EndgameBoards``...), and do no validation; each has a public plain-Python twin
elsewhere (``matrix.py``, ``strategies.py``, ``game.py``, ``multi/``) that checks its input.  Parallel kernels split their range into chunks, give each
chunk its own scratch space and write disjoint output slots, so results never depend on the
thread count.  Every kernel is tested against a slow textbook version in ``tests/naive.py``;
``NUMBA_DISABLE_JIT=1`` runs them as plain Python for coverage.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from . import kernel_cache

# every cached kernel takes its options from here, so this runs before any is compiled or loaded:
# two processes compiling at once (prepare's two halves, the suite's workers) keep apart on disk
kernel_cache.install()

# cache=True: compiled code is kept on disk, so only the very first run pays for compilation.
# nogil=True: a UI or web worker thread can run a kernel without blocking the others.
JIT = dict(cache=True, nogil=True)
JIT_PARALLEL = dict(cache=True, nogil=True, parallel=True)

ALPHABET = 26


def compiled() -> bool:
    """Whether kernels run compiled (not ``NUMBA_DISABLE_JIT=1``)."""
    return not numba.config.DISABLE_JIT


def parallel_threadsafe() -> bool:
    """Whether parallel kernels may run from two Python threads at once.  Numba's OpenMP and TBB
    threading layers allow it; its fallback "workqueue" layer ends the process when it sees it.
    The layer is chosen when the first parallel kernel starts: this starts it (25 ms, what that
    first kernel would spend) so that it can be named."""
    if numba.config.DISABLE_JIT:
        return False  # plain Python: a background thread would only hold the GIL
    try:
        from numba.np.ufunc.parallel import _launch_threads

        _launch_threads()
    except Exception:  # numba moved it: a tiny parallel kernel starts the layer as well
        _checksum64(np.zeros(8, np.uint64), 1, np.zeros(1, np.uint64))
    try:
        return numba.threading_layer() in ("omp", "tbb")
    except ValueError:  # no layer started
        return False


def wrapping(kernel):
    """Mark a kernel whose uint64 arithmetic wraps on purpose (hash sums, multiplicative mixing).

    Compiled, machine integers wrap silently and the kernel is returned untouched.  As plain
    Python (``NUMBA_DISABLE_JIT=1``) numpy scalars wrap to the same values but warn on every
    overflow, so there the kernel runs under ``np.errstate(over="ignore")`` (which Numba cannot
    compile, hence a wrapper outside the kernel rather than a line inside it).  Only the kernels
    Python calls need it: the kernels they call run inside the same errstate.
    """
    if not numba.config.DISABLE_JIT:
        return kernel

    @functools.wraps(kernel)
    def quiet(*args):
        with np.errstate(over="ignore"):
            return kernel(*args)

    return quiet


if numba.config.DISABLE_JIT:

    def f64_bits(x):
        """The bits of a float64 as a uint64 (a free bit cast when compiled)."""
        return np.array([x], np.float64).view(np.uint64)[0]

    def bits_f64(u):
        """The float64 whose bits are ``u`` (a free bit cast when compiled)."""
        return np.array([u], np.uint64).view(np.float64)[0]
else:
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def _f64_bits(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.IntType(64))

        return types.uint64(types.float64), codegen

    @intrinsic
    def _bits_f64(typingctx, u):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.DoubleType())

        return types.float64(types.uint64), codegen

    @njit(inline="always", **JIT)
    def f64_bits(x):
        """The bits of a float64 as a uint64 (a free bit cast when compiled)."""
        return _f64_bits(np.float64(x))

    @njit(inline="always", **JIT)
    def bits_f64(u):
        """The float64 whose bits are ``u`` (a free bit cast when compiled)."""
        return _bits_f64(np.uint64(u))


def _chunks(n: int) -> int:
    """How many chunks a parallel loop over ``n`` items uses: a few per thread, for balance."""
    return max(1, min(n, numba.get_num_threads() * 8))


# ---------------------------------------------------------------------------------------------
# Feedback and the pattern matrix


@njit(**JIT_PARALLEL)
def _pattern_matrix(guesses, answers_t, out):
    """Fill ``out[g, a]`` with the pattern of guess ``g`` (row of ``guesses``, shape n_g x L)
    against answer ``a`` (column of ``answers_t``, shape L x n_a: letters stored position-major).

    For one guess, every step is a branch-free pass over all answers, which LLVM vectorises;
    this is ~20x faster than scoring one pair at a time.  Tile i is yellow when it is not green
    and the answer's unmatched copies of the letter (U) outnumber the earlier non-green tiles of
    the guess with that letter (E): exactly the NYT rule, since those earlier tiles took copies
    first.
    """
    ng, length = guesses.shape
    na = answers_t.shape[1]
    nchunks = min(ng, 64)
    for c in prange(nchunks):
        notgreen = np.empty((length, na), np.uint8)
        spare = np.empty(na, np.int16)
        lo = c * ng // nchunks
        hi = (c + 1) * ng // nchunks
        for g in range(lo, hi):
            row = out[g]
            for a in range(na):
                row[a] = 0
            # int64, as Numba types the literal anyway: as plain Python a Python-int weight times a
            # uint8 flag would be computed in uint8 (numpy 2 promotion) and overflow from 3**6.
            weight = np.int64(1)
            for i in range(length):
                gi = guesses[g, i]
                ai = answers_t[i]
                ngi = notgreen[i]
                for a in range(na):
                    eq = ai[a] == gi
                    ngi[a] = 1 - eq
                    row[a] += 2 * weight * eq
                weight *= 3
            weight = np.int64(1)
            for i in range(length):
                gi = guesses[g, i]
                for a in range(na):
                    spare[a] = 0
                for k in range(length):
                    ak = answers_t[k]
                    ngk = notgreen[k]
                    for a in range(na):
                        spare[a] += ngk[a] & (ak[a] == gi)
                for j in range(i):
                    if guesses[g, j] == gi:
                        ngj = notgreen[j]
                        for a in range(na):
                            spare[a] -= ngj[a]
                ngi = notgreen[i]
                for a in range(na):
                    row[a] += weight * (ngi[a] & (spare[a] > 0))
                weight *= 3


# ---------------------------------------------------------------------------------------------
# Partitions: what a guess does to a set of candidates


@njit(**JIT_PARALLEL)
def _partition_stats(matrix, guess_ids, cand_ids, weights, weighted, n_patterns, solved, nchunks, out_f, out_i):
    """For each guess, the partition of the candidates by pattern, summarised.

    ``weights`` holds one weight per candidate (summing to 1); with ``weighted`` False they are
    taken as uniform and only counts are kept, which halves the memory traffic of the hot loop.
    Writes, per guess: out_f[:, 0] entropy in bits, out_f[:, 1] expected number of candidates
    left, out_f[:, 2] probability that the guess is the answer (mass of the all-green part),
    out_i[:, 0] number of parts, out_i[:, 1] largest part, out_i[:, 2] smallest part.

    Short words (few patterns) scan every pattern after counting; long words (up to 3**11
    patterns) track the patterns touched instead, so the reset stays proportional to the
    candidates.
    """
    ng = guess_ids.shape[0]
    nc = cand_ids.shape[0]
    dense = n_patterns <= 1024 and n_patterns <= 2 * nc
    inv_n = 1.0 / nc
    log_n = np.log2(nc)
    for c in prange(nchunks):
        mass = np.zeros(n_patterns if weighted else 1, np.float64)
        count = np.zeros(n_patterns, np.int32)
        touched = np.empty(1 if dense else nc, np.int64)
        lo = c * ng // nchunks
        hi = (c + 1) * ng // nchunks
        for k in range(lo, hi):
            row = matrix[guess_ids[k]]
            nt = 0
            if dense:
                if weighted:
                    for j in range(nc):
                        p = row[cand_ids[j]]
                        count[p] += 1
                        mass[p] += weights[j]
                else:
                    for j in range(nc):
                        count[row[cand_ids[j]]] += 1
                n_scan = n_patterns
            else:
                for j in range(nc):
                    p = row[cand_ids[j]]
                    if count[p] == 0:
                        touched[nt] = p
                        nt += 1
                    count[p] += 1
                    if weighted:
                        mass[p] += weights[j]
                n_scan = nt
            ent = 0.0
            exp_left = 0.0
            parts = 0
            largest = 0
            smallest = nc
            for t in range(n_scan):
                p = t if dense else touched[t]
                # Widened as Numba widens every int32 operand anyway (same machine code); as plain
                # Python, n * n would stay int32 and overflow past 46,340 candidates.
                n = np.int64(count[p])
                if n == 0:
                    continue
                parts += 1
                if n > largest:
                    largest = n
                if n < smallest:
                    smallest = n
                if weighted:
                    m = mass[p]
                    if m > 0.0:
                        ent -= m * np.log2(m)
                    exp_left += m * n
                else:
                    ent += n * np.log2(n)
                    exp_left += n * n
            if weighted:
                out_f[k, 0] = ent
                out_f[k, 1] = exp_left
                out_f[k, 2] = mass[solved]
            else:
                out_f[k, 0] = log_n - ent * inv_n
                out_f[k, 1] = exp_left * inv_n
                out_f[k, 2] = count[solved] * inv_n
            out_i[k, 0] = parts
            out_i[k, 1] = largest
            out_i[k, 2] = smallest
            for t in range(n_scan):
                p = t if dense else touched[t]
                count[p] = 0
                if weighted:
                    mass[p] = 0.0


@njit(**JIT)
def _letter_tables(cand_codes, weights, length):
    """Weighted letter statistics of the candidates: ``at[i, x]`` mass with letter x at position
    i, ``has[x]`` mass of words containing x at least once."""
    at = np.zeros((length, ALPHABET), np.float64)
    has = np.zeros(ALPHABET, np.float64)
    seen = np.zeros(ALPHABET, np.int64)
    for j in range(cand_codes.shape[0]):
        w = weights[j]
        for i in range(length):
            x = cand_codes[j, i]
            at[i, x] += w
            if seen[x] != j + 1:
                seen[x] = j + 1
                has[x] += w
    return at, has


@njit(**JIT_PARALLEL)
def _letter_scores(guess_codes, at, has, out_freq, out_approx):
    """Two cheap scores per guess from the letter tables.

    out_freq: mass of candidates containing each distinct guess letter, plus the mass sharing its
    position (a classic letter-frequency heuristic).
    out_approx: sum over positions of the entropy of that tile's colour taken alone (green when the
    candidate has the letter there, yellow when it has it elsewhere, gray otherwise).
    """
    ng = guess_codes.shape[0]
    length = guess_codes.shape[1]
    for g in prange(ng):
        freq = 0.0
        approx = 0.0
        for i in range(length):
            x = guess_codes[g, i]
            first = True
            for k in range(i):
                if guess_codes[g, k] == x:
                    first = False
            green = at[i, x]
            if first:
                freq += has[x]
            freq += green
            yellow = has[x] - green
            if yellow < 0.0:
                yellow = 0.0
            gray = 1.0 - has[x]
            if gray < 0.0:
                gray = 0.0
            for q in (green, yellow, gray):
                if q > 0.0:
                    approx -= q * np.log2(q)
        out_freq[g] = freq
        out_approx[g] = approx


# ---------------------------------------------------------------------------------------------
# Hard mode


@njit(**JIT)
def _needed_letters(min_count, letters):
    """Write the letters with ``min_count[x] > 0`` into ``letters``; return how many."""
    n = 0
    for x in range(ALPHABET):
        if min_count[x] > 0:
            letters[n] = x
            n += 1
    return n


@njit(inline="always", **JIT)  # (inlined: as a call it was 25 % slower in a hot loop)
def _keeps_hints(code, green_at, min_count, letters, n_letters):
    """Whether the word ``code`` keeps every green (``green_at[i]`` >= 0) in place and uses each
    of the ``n_letters`` letters of ``letters`` at least ``min_count[x]`` times (the hard-mode
    rule; ``letters`` lists every letter with a positive count)."""
    length = code.shape[0]
    for i in range(length):
        if green_at[i] >= 0 and code[i] != green_at[i]:
            return False
    for j in range(n_letters):
        x = letters[j]
        have = 0
        for i in range(length):
            if code[i] == x:
                have += 1
        if have < min_count[x]:
            return False
    return True


@njit(**JIT_PARALLEL)
def _hard_mode_mask(guess_codes, green_at, min_count, out):
    """out[g] = True when guess g keeps every known green (``green_at[i]`` >= 0) in place and
    uses each letter at least ``min_count[x]`` times."""
    letters = np.empty(ALPHABET, np.int64)
    n_letters = _needed_letters(min_count, letters)
    for g in prange(guess_codes.shape[0]):
        out[g] = _keeps_hints(guess_codes[g], green_at, min_count, letters, n_letters)


@njit(**JIT_PARALLEL)
def _transpose(m, out):
    """out = m.T, in cache-sized tiles, in parallel."""
    n0, n1 = m.shape
    tile = 64
    nt0 = (n0 + tile - 1) // tile
    for b0 in prange(nt0):
        i0 = b0 * tile
        i1 = min(n0, i0 + tile)
        for j0 in range(0, n1, tile):
            j1 = min(n1, j0 + tile)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    out[j, i] = m[i, j]


# ---------------------------------------------------------------------------------------------
# Integrity


@wrapping
@njit(**JIT_PARALLEL)
def _checksum64(words, nchunks, out):
    """A 64-bit checksum of a uint64 array: per-chunk polynomial hashes, combined in order.

    Not cryptographic: it guards a cache file against truncation and bit rot, and reads memory
    at bandwidth (a 220 MB matrix in tens of milliseconds) where sha256 would take ten times longer.
    """
    n = words.shape[0]
    for c in prange(nchunks):
        lo = c * n // nchunks
        hi = (c + 1) * n // nchunks
        h = np.uint64(1469598103934665603) ^ np.uint64(c)
        prime = np.uint64(1099511628211)
        for k in range(lo, hi):
            h = (h ^ words[k]) * prime
            h ^= h >> np.uint64(29)
        out[c] = h


# ---------------------------------------------------------------------------------------------
# Multi-board


@njit(**JIT_PARALLEL)
def _board_costs(matrix, guess_ids, cand_ids, weights, green, n_patterns, solve_time, out):
    """For each guess, its expected cost on one board (multi/policy.py): the guess itself (1),
    plus ``solve_time[n]`` times the probability of each part of n candidates it leaves when it
    is not the answer.  ``weights``: the candidates' probabilities (summing to 1); ``out[k]``
    gets the cost of ``guess_ids[k]``.  Per guess, the candidates are counted by pattern, then
    read back once each (touched patterns only, so the tallies stay clean for the next guess)."""
    ng = guess_ids.shape[0]
    nc = cand_ids.shape[0]
    nchunks = min(ng, 64)
    for c in prange(nchunks):
        count = np.zeros(n_patterns, np.int64)
        mass = np.zeros(n_patterns, np.float64)
        for k in range(c * ng // nchunks, (c + 1) * ng // nchunks):
            row = matrix[guess_ids[k]]
            for j in range(nc):
                p = row[cand_ids[j]]
                count[p] += 1
                mass[p] += weights[j]
            cost = 1.0
            for j in range(nc):
                p = row[cand_ids[j]]
                if count[p] > 0:
                    if p != green:
                        cost += mass[p] * solve_time[count[p]]
                    count[p] = 0
                    mass[p] = 0.0
            out[k] = cost


@njit(**JIT)
def _most_parts(matrix, guess_ids, cand_ids, n_patterns):
    """The most parts one guess of ``guess_ids`` makes of the candidates ``cand_ids``: the
    patterns each guess shows, counted where they are first seen (a table of ``n_patterns``
    stamps, stamped with the guess's turn, so nothing is cleared between guesses: work in
    proportion to guesses times candidates).  Stops early once a guess parts every candidate."""
    seen = np.zeros(n_patterns, np.int64)
    n = cand_ids.shape[0]
    most = 0
    for k in range(guess_ids.shape[0]):
        row = matrix[guess_ids[k]]
        stamp = k + 1
        parts = 0
        for j in range(n):
            p = row[cand_ids[j]]
            if seen[p] != stamp:
                seen[p] = stamp
                parts += 1
        if parts > most:
            most = parts
            if most == n:
                break
    return most


@njit(**JIT)
def _merge_hints(board_green, board_need, skip, at, need):
    """Merge the hints of every board but those marked in ``skip`` into ``at`` (-1 free) and
    ``need``; True when two of them fix different letters in one place."""
    at[:] = -1
    need[:] = 0
    conflict = False
    for b in range(board_green.shape[0]):
        if skip[b]:
            continue
        for i in range(at.shape[0]):
            x = board_green[b, i]
            if x >= 0:
                if at[i] >= 0 and at[i] != x:
                    conflict = True
                at[i] = x
        for x in range(ALPHABET):
            if board_need[b, x] > need[x]:
                need[x] = board_need[b, x]
    return conflict


@njit(**JIT)
def _row_hints(code, pattern, distinct, n_distinct, shown_out):
    """What one row (``code`` shown ``pattern``) asks of every later hard-mode guess: returns the
    places it fixes as a bit mask (bit i: the guess's letter in place i, green), and writes how
    many times each of the guess's ``n_distinct`` letters ``distinct`` is shown (``shown_out``:
    needed at least that often)."""
    length = code.shape[0]
    for j in range(n_distinct):
        shown_out[j] = 0
    mask = 0
    q = pattern
    for i in range(length):
        colour = q % 3
        q //= 3
        if colour == 2:
            mask |= 1 << i
        if colour != 0:
            for j in range(n_distinct):
                if distinct[j] == code[i]:
                    shown_out[j] += 1
    return mask


@njit(**JIT_PARALLEL)
def _doomed_share(
    matrix, guess_ids, guess_codes, answer_codes, answer_counts, board_green, board_need, samples, stop_at, green, out
):
    """For each guess, the share of the answer tuples ``samples`` (rows: one answer id per open
    board) after which a hard-mode multi-board game is lost (multi/deadlock.py): no open board's
    answer keeps the joint hints of the boards left open, so none can ever be solved (a board's
    hints go only when it is solved; they only grow until then).

    The open boards' hints so far: ``board_green`` (boards x length, -1 free), ``board_need``
    (boards x 26, least count of each letter).  A board the guess solves drops out, hints and
    all; a tuple the guess solves entirely is not lost.  A tuple adds the guess's row on each
    board (greens stay; a letter shown n times in a row is needed n times) and checks each open
    board's answer against the letters needed (its letter counts ``answer_counts``, answers x 26).
    What a row asks (``_row_hints``) is worked out once per guess and pattern, when it first comes up.

    Most tuples solve no board, and take a short path: the hints so far are the same for all of
    them, so each answer is checked against them once (``kept``); the rows add only greens in the
    guess's own places, as a bit mask, and counts of the guess's own letters.  A place fixed to
    one letter and now green with another (``clash``) loses the game; an answer keeps the new
    greens when their union lies within its own row's greens (a green is where the answer has
    the guess's letter), and the counts when it has each letter of the guess as often as any
    row shows it.  A tuple that solves a board merges the others' hints afresh, the long way.

    A guess's tuples are counted until ``stop_at[k]`` of them are lost (pass more than the
    samples to count them all): past that the guess cannot matter to its caller, and its share
    is then a lower bound, at least ``stop_at[k]`` / samples."""
    ng = guess_ids.shape[0]
    n_boards = samples.shape[1]
    n_samples = samples.shape[0]
    length = guess_codes.shape[1]
    n_patterns = green + 1
    at0 = np.empty(length, np.int64)
    need0 = np.empty(ALPHABET, np.int64)
    conflict0 = _merge_hints(board_green, board_need, np.zeros(n_boards, np.bool_), at0, need0)
    letters0 = np.empty(ALPHABET, np.int64)
    n_letters0 = _needed_letters(need0, letters0)
    total0 = 0
    for x in range(ALPHABET):
        total0 += need0[x]
    kept = np.empty(answer_codes.shape[0], np.bool_)
    for a in range(answer_codes.shape[0]):
        kept[a] = _keeps_hints(answer_codes[a], at0, need0, letters0, n_letters0)
    nchunks = min(ng, 64)
    for c in prange(nchunks):
        at = np.empty(length, np.int64)
        need = np.empty(ALPHABET, np.int64)
        solved = np.zeros(n_boards, np.bool_)
        letters = np.empty(ALPHABET, np.int64)
        pats = np.empty(n_boards, np.int64)
        distinct = np.empty(length, np.int64)
        most = np.empty(length, np.int64)  # most[j]: the most times a row shows distinct[j]
        row_mask = np.empty(n_patterns, np.int64)
        row_shown = np.empty((n_patterns, length), np.int64)
        known = np.zeros(n_patterns, np.int64)  # known[p] == k + 1: pattern p's row worked out for guess k
        for k in range(c * ng // nchunks, (c + 1) * ng // nchunks):
            g = guess_ids[k]
            mrow = matrix[g]
            code = guess_codes[g]
            n_distinct = 0
            for i in range(length):
                new = True
                for j in range(n_distinct):
                    if distinct[j] == code[i]:
                        new = False
                if new:
                    distinct[n_distinct] = code[i]
                    n_distinct += 1
            clash = 0
            for i in range(length):
                if at0[i] >= 0 and at0[i] != code[i]:
                    clash |= 1 << i
            other = total0  # the letters needed so far, but the guess's own
            for j in range(n_distinct):
                other -= need0[distinct[j]]
            doomed = 0
            for s in range(n_samples):
                if doomed >= stop_at[k]:
                    break
                any_solved = False
                left = 0
                for b in range(n_boards):
                    pats[b] = mrow[samples[s, b]]
                    solved[b] = pats[b] == green
                    any_solved |= solved[b]
                    left += not solved[b]
                    if known[pats[b]] != k + 1:
                        row_mask[pats[b]] = _row_hints(code, pats[b], distinct, n_distinct, row_shown[pats[b]])
                        known[pats[b]] = k + 1
                if left == 0:
                    continue
                lost = False
                if not any_solved:  # the short path
                    union = 0
                    for j in range(n_distinct):
                        most[j] = 0
                    for b in range(n_boards):
                        p = pats[b]
                        union |= row_mask[p]
                        for j in range(n_distinct):
                            if row_shown[p, j] > most[j]:
                                most[j] = row_shown[p, j]
                    lost = conflict0 or (union & clash) != 0
                    if not lost:
                        total = other
                        for j in range(n_distinct):
                            total += max(need0[distinct[j]], most[j])
                        lost = total > length
                    if not lost:
                        lost = True
                        for b in range(n_boards):
                            a = samples[s, b]
                            if not kept[a] or (union & ~row_mask[pats[b]]) != 0:
                                continue
                            enough = True
                            for j in range(n_distinct):
                                if answer_counts[a, distinct[j]] < most[j]:
                                    enough = False
                                    break
                            if enough:
                                lost = False
                                break
                else:  # (rare) a solved board's hints drop: merge the others afresh
                    conflict = _merge_hints(board_green, board_need, solved, at, need)
                    n_letters = _needed_letters(need, letters)
                    for b in range(n_boards):
                        if solved[b]:
                            continue
                        p = pats[b]
                        for i in range(length):
                            if row_mask[p] >> i & 1:
                                if at[i] >= 0 and at[i] != code[i]:
                                    conflict = True
                                at[i] = code[i]
                        for j in range(n_distinct):
                            x = distinct[j]
                            if row_shown[p, j] > need[x]:
                                if need[x] == 0:
                                    letters[n_letters] = x
                                    n_letters += 1
                                need[x] = row_shown[p, j]
                    total = 0
                    for j in range(n_letters):
                        total += need[letters[j]]
                    lost = conflict or total > length  # two greens in one place, or too many letters
                    if not lost:
                        lost = True
                        for b in range(n_boards):
                            if not solved[b] and _keeps_hints(
                                answer_codes[samples[s, b]], at, need, letters, n_letters
                            ):
                                lost = False
                                break
                if lost:
                    doomed += 1
            out[k] = doomed / n_samples


class EndgameBoards(NamedTuple):
    """What the multi-board endgame search (multi/endgame.py) prices every state with."""

    colours: np.ndarray  # colours[k, row, board]: what pool word k shows on a board for a tuple row
    weights: np.ndarray  # the probability of each tuple row
    tuples: np.ndarray  # tuples[row, board]: the answer id on each board
    answer_of_word: np.ndarray  # the answer id each pool word is (-1: none)
    green: int  # the all-green pattern
    base: int  # the number of patterns (a part's key is its colours in this base)
    n_answers: int  # answer ids are below this
    by_guesses: bool  # the objective counts guesses (a turn's cost once) rather than the score


class EndgameState(NamedTuple):
    """One state of the endgame search and the costs of what follows it."""

    ids: np.ndarray  # its tuple rows
    open_boards: np.ndarray  # its open boards (columns)
    now_turn: float  # the cost of a board solved by this turn's guess
    floors: np.ndarray  # floors[left]: the least cost of ``left`` open boards from the next guess on ...
    later: np.ndarray  # ... and from the guess after it
    next_guess: bool  # a guess follows this one


class EndgameSplit(NamedTuple):
    """What ``_endgame_split`` writes: per pool word k its parts (``first[k]``, ``count[k]`` of
    them), part p holding ``order[k, lo[p]:hi[p]]`` (indices into the state's ids), and its
    lower bound ``lower[k]``."""

    order: np.ndarray
    first: np.ndarray
    count: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    mass: np.ndarray  # each part's probability
    floor: np.ndarray  # its floor (see _endgame_split)
    now: np.ndarray  # the turn cost of the boards the word solves there
    left: np.ndarray  # its open boards after the word
    solved: np.ndarray  # the open board (index into open_boards) the word solves there, -1: none
    settled: np.ndarray  # the floor is the part's value
    lower: np.ndarray

    @classmethod
    def empty(cls, n_words: int, n: int) -> EndgameSplit:
        """Room for ``n_words`` words over ``n`` tuple rows (at most n parts each)."""
        size = n_words * n
        return cls(
            np.empty((n_words, n), np.int64),
            np.empty(n_words, np.int64),
            np.empty(n_words, np.int64),
            np.empty(size, np.int64),
            np.empty(size, np.int64),
            np.empty(size),
            np.empty(size),
            np.empty(size),
            np.empty(size, np.int64),
            np.empty(size, np.int64),
            np.empty(size, np.bool_),
            np.empty(n_words),
        )


@njit(**JIT)
def _endgame_split(boards, state, out):
    """One state of the multi-board endgame search (multi/endgame.py), every pool word at once:
    the parts its colours split the state's answer tuples into, and a lower bound of its value,
    written to ``out`` (an ``EndgameSplit``).

    ``state``: tuple rows ``ids`` (of ``boards.tuples``, answer ids per board), boards
    ``open_boards`` (columns); probabilities ``boards.weights`` (per tuple row).  Word ``k``
    shows ``colours[k, row, board]``.  A part's floor is the turn cost ``now`` of the boards the
    word solves there (``now_turn`` each, or once the last one for ``by_guesses``) plus, for its
    ``left`` open boards, ``floors[left]`` if the next guess (when ``next_guess``) solves one,
    else ``later[left]``, weighed by the best chance a word has to be an answer there;
    ``settled``: the floor is the part's value (nothing open, one tuple, no guess left).
    ``lower[k]``: the word's floor over the parts (inf: it learns and solves nothing)."""
    colours, weights, tuples, answer_of_word = boards.colours, boards.weights, boards.tuples, boards.answer_of_word
    green, base, n_answers, by_guesses = boards.green, boards.base, boards.n_answers, boards.by_guesses
    ids, open_boards, now_turn = state.ids, state.open_boards, state.now_turn
    floors, later, next_guess = state.floors, state.later, state.next_guess
    order, part_first, part_count, part_lo, part_hi = out.order, out.first, out.count, out.lo, out.hi
    part_mass, part_floor, part_now, part_left, part_solved = out.mass, out.floor, out.now, out.left, out.solved
    settled, lower = out.settled, out.lower
    n_words = colours.shape[0]
    n = ids.shape[0]
    n_open = open_boards.shape[0]
    keys = np.empty(n, np.uint64)
    chance = np.zeros(n_answers, np.float64)
    total = 0.0
    for i in range(n):
        total += weights[ids[i]]
    p = 0
    for k in range(n_words):
        for i in range(n):
            key = np.uint64(0)
            for j in range(n_open):
                key = key * np.uint64(base) + np.uint64(colours[k, ids[i], open_boards[j]])
            keys[i] = key
        idx = np.argsort(keys, kind="mergesort")
        for i in range(n):
            order[k, i] = idx[i]
        part_first[k] = p
        acc = 0.0
        a = 0
        while a < n:
            b = a + 1
            while b < n and keys[idx[b]] == keys[idx[a]]:
                b += 1
            mass = 0.0
            for i in range(a, b):
                mass += weights[ids[idx[i]]]
            lead = ids[idx[a]]
            solved = -1
            n_solved = 0
            for j in range(n_open):
                if colours[k, lead, open_boards[j]] == green:
                    solved = j
                    n_solved += 1
            left = n_open - n_solved
            if by_guesses:
                now = now_turn if left == 0 else 0.0
            else:
                now = now_turn * n_solved
            floor = now
            if left > 0:
                if next_guess and b - a > 1:
                    best = 0.0
                    for i in range(a, b):
                        row = ids[idx[i]]
                        for j in range(n_open):
                            ans = tuples[row, open_boards[j]]
                            if ans != answer_of_word[k]:
                                chance[ans] += weights[row]
                                if chance[ans] > best:
                                    best = chance[ans]
                    for i in range(a, b):
                        row = ids[idx[i]]
                        for j in range(n_open):
                            chance[tuples[row, open_boards[j]]] = 0.0
                    lucky = min(best / mass, 1.0)
                    floor += lucky * floors[left] + (1.0 - lucky) * later[left]
                else:
                    floor += floors[left]
            part_lo[p] = a
            part_hi[p] = b
            part_mass[p] = mass
            part_floor[p] = floor
            part_now[p] = now
            part_left[p] = left
            part_solved[p] = solved
            settled[p] = left == 0 or b - a == 1 or not next_guess
            acc += mass * floor
            p += 1
            a = b
        part_count[k] = p - part_first[k]
        if part_count[k] == 1 and part_solved[p - 1] < 0:
            lower[k] = np.inf
        else:
            lower[k] = acc / total
