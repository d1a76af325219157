"""Numba kernels of the tree search (see ``search.py`` for the public twins and the method).

A node is a set H of answers (sorted answer ids), the guesses still allowed (all of them, or in
hard mode those meeting the constraints so far) and the number of guesses left.  Its value is the
least total, over H, of the guesses still needed (weighted by the answer weights; with unit
weights, the number of guesses), or INF when no strategy finishes within the guesses left.

``_node`` returns the exact value when it is below ``beta``; otherwise some number >= beta (a
proof that the node cannot beat beta).  Everything the recursion needs travels in three tuples:

S (static):   mt      pattern matrix transposed, answers x guesses (uint8)
              w       answer weights (unit weights: totals are exact integers in float64)
              gid     guess id of each answer;  aog  answer id of each guess, or -1
              zob     a random 64-bit number per answer (hash of a set = sum of its members')
              codes   guess letters (n_g x L);  lcount  letter counts per guess (n_g x 26)
              allg    0 … n_g-1 (the allowed list when hard mode is off)
              ip      int64 parameters, see IP_*;  fp  float64 parameters, see FP_*
X (scratch):  per-depth rows, so a node's buffers survive while its children run
TT (table):   a bounded transposition table of (lower, upper, best guess) per node, keyed by the
              set, the guesses left and the hard-mode constraints; every hit is verified against
              the stored answer set (collision-checked).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernels import JIT

INF = 1e30

# int parameters (S.ip)
IP_K = 0  # guesses tried per node: <= 0 means every allowed guess (exact search)
IP_KC = 1  # extra: best possible answers tried per node (near-optimal search)
IP_HARD = 2
IP_UNIFORM = 3  # unit weights: enables the integer closed forms and shortcuts
IP_NPAT = 4
IP_GREEN = 5
IP_BLOCK = 6  # guesses per block in the scan
IP_DEDUP = 7  # skip guesses whose partition equals an earlier one (normal mode only)
IP_TT_MIN = 8  # smallest node stored in the table
N_IP = 9
# float parameters (S.fp)
FP_MARGIN = 0  # ties: a bound of (best + margin) lets an equal value be found exactly
N_FP = 1

# meta counters (TT[9])
M_POOL_USED, M_STORED, M_CLEARS, M_HITS, M_NODES, M_SCANS, M_EVALS = 0, 1, 2, 3, 4, 5, 6
N_META = 8

_GREEN_SALT = np.uint64(0x9E3779B97F4A7C15)


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


@njit(**JIT)
def _tt_find(TT, key, H, rem, hsig):
    keys, hsigs, lo, hi, best, off, nn, rr, pool, meta = TT
    mask = keys.shape[0] - 1
    nh = H.shape[0]
    i = np.int64(key & np.uint64(mask))
    for _ in range(4):
        if keys[i] == key and nn[i] == nh and rr[i] == rem and hsigs[i] == hsig:
            o = off[i]
            same = True
            for j in range(nh):
                if pool[o + j] != H[j]:
                    same = False
                    break
            if same:
                return i
        if keys[i] == 0:
            return -1
        i = (i + 1) & mask
    return -1


@njit(**JIT)
def _tt_clear(TT):
    keys, hsigs, lo, hi, best, off, nn, rr, pool, meta = TT
    keys[:] = 0
    meta[M_POOL_USED] = 0
    meta[M_CLEARS] += 1


@njit(**JIT)
def _tt_store(TT, key, H, rem, hsig, vlo, vhi, g):
    keys, hsigs, lo, hi, best, off, nn, rr, pool, meta = TT
    i = _tt_find(TT, key, H, rem, hsig)
    if i >= 0:
        if vlo > lo[i]:
            lo[i] = vlo
        if vhi < hi[i]:
            hi[i] = vhi
            best[i] = g
        if vlo == vhi:
            best[i] = g
        return
    nh = H.shape[0]
    if meta[M_POOL_USED] + nh > pool.shape[0]:
        _tt_clear(TT)  # full: start afresh (bounded memory; cheap compared to a search)
    mask = keys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    slot = i
    for _ in range(4):
        if keys[i] == 0:
            slot = i
            break
        i = (i + 1) & mask
    o = meta[M_POOL_USED]
    for j in range(nh):
        pool[o + j] = H[j]
    meta[M_POOL_USED] = o + nh
    keys[slot] = key
    hsigs[slot] = hsig
    lo[slot] = vlo
    hi[slot] = vhi
    best[slot] = g
    off[slot] = o
    nn[slot] = nh
    rr[slot] = rem
    meta[M_STORED] += 1


# ---------------------------------------------------------------------------------------------
# Hard mode


@njit(**JIT)
def _hard_child(S, T, g, p, greens, mincnt, out):
    """Filter the allowed guesses T by the row (g, p): write them to ``out``; return
    (count, child greens, child minimum counts, child constraint hash)."""
    codes = S[5]
    lcount = S[6]
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
    n = 0
    for t in range(T.shape[0]):
        w = T[t]
        ok = True
        for i in range(length):
            if g2[i] >= 0 and codes[w, i] != g2[i]:
                ok = False
                break
        if ok:
            for x in range(26):
                if m2[x] > 0 and lcount[w, x] < m2[x]:
                    ok = False
                    break
        if ok:
            out[n] = w
            n += 1
    return n, g2, m2, _constraint_hash(g2, m2)


@njit(**JIT)
def _constraint_hash(greens, mincnt):
    """Names a hard-mode state: the allowed guesses are a function of it."""
    h = np.uint64(0x51ED27)
    for i in range(greens.shape[0]):
        h = _mix(h ^ np.uint64(greens[i] + 1 + 64 * i))
    for x in range(26):
        if mincnt[x] > 0:
            h = _mix(h ^ np.uint64(1000 + 32 * x + mincnt[x]))
    return h


# ---------------------------------------------------------------------------------------------
# The scan: every allowed guess against a node's answers


@njit(**JIT)
def _scan(S, X, H, T, d, W):
    """Per guess t of T: lower bound ``lbg`` on the node value if t is played now, an ordering
    ``key`` (lower is better), a partition signature ``sig`` and whether t is useful (splits H or
    can win).  Returns (min lbg over useful guesses, best perfect split value, its guess).

    Guesses are taken in blocks; for each answer the block's patterns are one contiguous read of
    the transposed matrix, and per-(guess, pattern) tallies live in small arrays that stay in
    cache (a row gather of the untransposed matrix would miss cache at every answer).
    """
    mt, w, gid, aog, zob = S[0], S[1], S[2], S[3], S[4]
    ip = S[8]
    npat = ip[IP_NPAT]
    green = ip[IP_GREEN]
    B = ip[IP_BLOCK]
    uniform = ip[IP_UNIFORM] != 0
    lbg, key, sig, useful = X[0][d], X[1][d], X[2][d], X[3][d]
    cnt, zs, mass, mx = X[6], X[7], X[8], X[9]
    nh = H.shape[0]
    nt = T.shape[0]
    min_lb = INF
    perfect = INF
    perfect_g = -1
    acc = np.zeros(B, np.float64)
    s2 = np.zeros(B, np.float64)
    parts = np.zeros(B, np.int64)
    sg = np.zeros(B, np.uint64)
    greenw = np.zeros(B, np.float64)
    gl = np.zeros(B, np.int64)
    for t0 in range(0, nt, B):
        nb = min(B, nt - t0)
        for b in range(nb):
            acc[b] = 0.0
            s2[b] = 0.0
            parts[b] = 0
            sg[b] = 0
            greenw[b] = -1.0
            gl[b] = T[t0 + b]
        for j in range(nh):
            h = H[j]
            row = mt[h]
            wh = w[h]
            zh = zob[h]
            for b in range(nb):
                p = np.int64(row[gl[b]])
                idx = b * npat + p
                c = cnt[idx]
                cnt[idx] = c + 1
                if c == 0:
                    parts[b] += 1
                if p == green:
                    greenw[b] = wh
                    sg[b] += _mix(zh ^ _GREEN_SALT)
                    continue
                if uniform:
                    acc[b] += 1.0 if c == 0 else 2.0
                    s2[b] += 2.0 * c + 1.0
                else:
                    m_old = mass[idx]
                    x_old = mx[idx]
                    acc[b] += 2.0 * wh - (wh - x_old if wh > x_old else 0.0)
                    s2[b] += m_old + wh * c + wh
                    mass[idx] = m_old + wh
                    if wh > x_old:
                        mx[idx] = wh
                z_old = zs[idx]
                z_new = z_old + zh
                zs[idx] = z_new
                sg[b] += _mix(z_new) - _mix(z_old)
        for j in range(nh):
            row = mt[H[j]]
            for b in range(nb):
                idx = b * npat + np.int64(row[gl[b]])
                cnt[idx] = 0
                zs[idx] = 0
                if not uniform:
                    mass[idx] = 0.0
                    mx[idx] = 0.0
        for b in range(nb):
            t = t0 + b
            is_cand = greenw[b] >= 0.0
            lb = W + acc[b]
            lbg[t] = lb
            sig[t] = sg[b]
            ok = parts[b] > 1 or is_cand
            useful[t] = 1 if ok else 0
            # key: lower bound plus twice the expected part size (both in node-size units)
            key[t] = (lb + 2.0 * s2[b] / W) if not uniform else (nh * lb + 2.0 * s2[b])
            if ok and lb < min_lb:
                min_lb = lb
            if parts[b] == nh:
                v = 2.0 * W - (greenw[b] if is_cand else 0.0)
                if v < perfect:
                    perfect = v
                    perfect_g = gl[b]
    return min_lb, perfect, perfect_g


# ---------------------------------------------------------------------------------------------
# Choosing which guesses to try


@njit(**JIT)
def _trial_order(S, X, T, d, bound):
    """Fill X[4][d] with the guesses to try (indices into T), best first; return how many.

    Exact search: every useful guess whose lower bound is below ``bound``.  Near-optimal search:
    the k best useful guesses by key plus the kc best that can be the answer, chosen without
    regard to ``bound`` so that a node always gets the same candidates (its value must not
    depend on the bound it was searched with); the bound only skips them later.
    In normal mode a guess whose partition equals an earlier one's is dropped (same value).
    """
    ip = S[8]
    k = ip[IP_K]
    kc = ip[IP_KC]
    dedup = ip[IP_DEDUP] != 0
    aog = S[3]
    lbg, key, sig, useful, order = X[0][d], X[1][d], X[2][d], X[3][d], X[4][d]
    nt = T.shape[0]
    exhaustive = k <= 0
    nu = 0
    for t in range(nt):
        if useful[t] != 0:
            nu += 1
    size = 16
    while size < 2 * nu:
        size *= 2
    hset = np.zeros(size if dedup else 1, np.uint64)
    hmask = size - 1
    ns = 0
    for t in range(nt):
        if useful[t] == 0 or (exhaustive and lbg[t] >= bound):
            continue
        if dedup:
            s = sig[t] | np.uint64(1)
            i = np.int64(s & np.uint64(hmask))
            dup = False
            while hset[i] != 0:
                if hset[i] == s:
                    dup = True
                    break
                i = (i + 1) & hmask
            if dup:
                continue
            hset[i] = s
        order[ns] = t
        ns += 1
    if ns == 0:
        return 0
    keys = np.empty(ns, np.float64)
    for i in range(ns):
        keys[i] = key[order[i]]
    perm = np.argsort(keys, kind="mergesort")  # stable: equal keys keep the list order
    sorted_t = np.empty(ns, np.int32)
    for i in range(ns):
        sorted_t[i] = order[perm[i]]
    if exhaustive or ns <= k:
        for i in range(ns):
            order[i] = sorted_t[i]
        return ns
    n = 0
    for i in range(k):
        order[n] = sorted_t[i]
        n += 1
    extra = 0
    for i in range(k, ns):
        if extra >= kc:
            break
        if aog[T[sorted_t[i]]] >= 0:
            order[n] = sorted_t[i]
            n += 1
            extra += 1
    return n


# ---------------------------------------------------------------------------------------------
# The recursion


@njit(**JIT)
def _node(S, X, TT, H, d, rem, beta, T, hsig, greens, mincnt, forced):
    """Value of the node (H, T, rem) if below ``beta``, else a number >= beta; and its best guess
    (-1 when none was proven).  ``forced`` >= 0 evaluates that guess only."""
    mt, w, gid = S[0], S[1], S[2]
    ip, fp = S[8], S[9]
    meta = TT[9]
    uniform = ip[IP_UNIFORM] != 0
    margin = fp[FP_MARGIN]
    nh = H.shape[0]
    meta[M_NODES] += 1
    if rem <= 0:
        return INF, -1
    W = 0.0
    wmax = -1.0
    imax = 0
    for j in range(nh):
        x = w[H[j]]
        W += x
        if x > wmax:
            wmax = x
            imax = j
    if forced < 0:
        if nh == 1:
            return W, gid[H[0]]
        lb0 = 2.0 * W - wmax
        if lb0 >= beta:
            return lb0, -1
        if rem == 1:
            return INF, -1
        if nh == 2:
            a = H[imax]
            b = H[1 - imax]
            return w[a] + 2.0 * w[b], gid[a]
    else:
        lb0 = W
    # --- transposition table
    hsum = np.uint64(0)
    zob = S[4]
    for j in range(nh):
        hsum += zob[H[j]]
    use_tt = forced < 0 and nh >= ip[IP_TT_MIN]
    cap = INF
    if use_tt:
        key = _tt_key(hsum, rem, hsig)
        slot = _tt_find(TT, key, H, rem, hsig)
        if slot >= 0:
            meta[M_HITS] += 1
            lo_t = TT[2][slot]
            hi_t = TT[3][slot]
            if lo_t == hi_t:
                return lo_t, TT[4][slot]
            if lo_t >= beta:
                return lo_t, -1
            if lo_t > lb0:
                lb0 = lo_t
            if hi_t < INF:
                cap = hi_t + margin
    # --- shortcuts: a possible answer that splits H into singletons (or all but one pair)
    npat = ip[IP_NPAT]
    if forced < 0 and uniform and nh <= npat:
        seen = np.zeros(npat, np.int32)
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
                return 2.0 * W - 1.0, g
            if row_bad == 1 and one_pair < 0:
                one_pair = g
        if one_pair >= 0 and rem >= 3:
            if use_tt:
                _tt_store(TT, key, H, rem, hsig, 2.0 * W, 2.0 * W, one_pair)
            return 2.0 * W, one_pair
    # --- choose the guesses to try
    bestv = INF
    bestg = -1
    ntrial = 0
    alpha = lb0
    order = X[4][d]
    if forced >= 0:
        ntrial = 1
    else:
        meta[M_SCANS] += 1
        min_lb, perfect, perfect_g = _scan(S, X, H, T, d, W)
        if rem == 2:
            # with two guesses left only a split into singletons can finish
            if use_tt:
                _tt_store(TT, key, H, rem, hsig, perfect, perfect, perfect_g)
            return perfect, perfect_g
        if min_lb > alpha:
            alpha = min_lb
        if perfect <= alpha:
            if use_tt:
                _tt_store(TT, key, H, rem, hsig, perfect, perfect, perfect_g)
            return perfect, perfect_g
        if alpha >= beta:
            if use_tt:
                _tt_store(TT, key, H, rem, hsig, alpha, INF, -1)
            return alpha, -1
        if perfect < INF:
            # a split into singletons is a finished strategy: the incumbent to beat
            bestv = perfect
            bestg = perfect_g
        ntrial = _trial_order(S, X, T, d, min(beta, cap, bestv))
    # --- evaluate the candidates, best first, with branch and bound
    lbg = X[0][d]
    elems = X[10][d]
    offs = X[11][d]
    pw = X[12][d]
    plb = X[13][d]
    plist = X[14][d]
    tbuf = X[15]
    npat_green = ip[IP_GREEN]
    hard = ip[IP_HARD] != 0
    # A typed variable, not the literal -1: a literal argument gives the recursive call its own
    # specialisation, and a cached recursive function with two specialisations crashes on
    # reload (numba issue 6713).  Python calls _node directly for the same reason.
    no_guess = np.int64(-1)
    for it in range(ntrial):
        if forced >= 0:
            g = forced
        else:
            g = T[order[it]]
        bound = beta
        if bestv < bound:
            bound = bestv
        if cap < bound:
            bound = cap
        if forced < 0 and lbg[order[it]] >= bound:
            continue
        meta[M_EVALS] += 1
        # partition H by the pattern of g (counting sort: stable, so parts stay sorted)
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
        # closed forms and lower bounds for every part first: cheap parts can exceed the bound
        tot = W
        nbig = 0
        for i in range(nparts):
            p = plist[i]
            if p == npat_green:
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
                v = INF
            elif c == 1:
                v = sw
            elif rem - 1 < 2:
                v = INF
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
        if tot >= bound:
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
            tot += v
            if tot >= bound:
                break
        if tot < bound:
            bestv = tot
            bestg = g
            if bestv <= alpha:
                break
    if forced >= 0:
        return bestv if bestg >= 0 else max(beta, lb0), bestg
    if bestg >= 0 and bestv < beta:
        if use_tt:
            _tt_store(TT, key, H, rem, hsig, bestv, bestv, bestg)
        return bestv, bestg
    # nothing below beta: the node is worth at least beta (or at least alpha)
    lo = beta if beta > alpha else alpha
    if use_tt:
        _tt_store(TT, key, H, rem, hsig, lo, INF, -1)
    return lo, -1


# ---------------------------------------------------------------------------------------------
# Helpers for the Python side


@njit(**JIT)
def _root_trials(S, X, TT, H, rem, T, hsig, greens, mincnt, out):
    """The guesses a big root would try, best first, written to ``out`` as guess ids; 0 when the
    root is small or decided without trying guesses (then the serial search is immediate)."""
    ip = S[8]
    nh = H.shape[0]
    if nh <= ip[IP_NPAT] or rem <= 2:
        return 0
    hsum = np.uint64(0)
    for j in range(nh):
        hsum += S[4][H[j]]
    slot = _tt_find(TT, _tt_key(hsum, rem, hsig), H, rem, hsig)
    if slot >= 0 and TT[2][slot] == TT[3][slot]:
        return 0
    W = 0.0
    for j in range(nh):
        W += S[1][H[j]]
    min_lb, perfect, perfect_g = _scan(S, X, H, T, 0, W)
    if perfect < INF:
        return 0
    n = _trial_order(S, X, T, 0, INF)
    order = X[4][0]
    for i in range(n):
        out[i] = T[order[i]]
    return n


@njit(**JIT)
def _partition(mt, H, g, npat):
    """Pattern of guess g for each answer of H (one column of the transposed matrix)."""
    out = np.empty(H.shape[0], np.int64)
    for j in range(H.shape[0]):
        out[j] = mt[H[j], g]
    return out
