"""Tree search against brute force, parallel against serial, trees against replay, and the
published optimal totals (the fast ones; the rest are in bench/bench_search.py)."""

import dataclasses
import itertools
import math

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code, hard_mode_legal, optimal_total
from naive import partition as naive_partition

from wordlebot.app.wordsets import reference_lexicon
from wordlebot.core.errors import UnsolvableError
from wordlebot.core.game import HardConstraints
from wordlebot.core.words import Lexicon
from wordlebot.search import tree as tr
from wordlebot.search.kernels import Allowed
from wordlebot.search.published import OPTIMAL_TOTALS, SLOW_SETS
from wordlebot.search.tree_search import INF, SearchTuning, TreeSearch


def small_case(seed, n=30, alphabet="abcd", length=4):
    words = random_words(n, length=length, alphabet=alphabet, seed=seed)
    return Lexicon.from_lists(words, words, name=f"s{seed}"), words


# A trap like the _ILL family: answers that differ in one letter, and a few helper guesses
# that test several of those letters at once.  Guess caps bind here: 4 guesses suffice, 3 do not.
FAMILY = [x + "ill" for x in "bcdfghkmps"]
HELPERS = ["bcdf", "ghkm"]


def same(a, b):
    return (a >= INF and b == math.inf) or abs(a - b) < 1e-9


CASES = [
    (seed, n, alphabet, length) for seed in range(3) for (n, alphabet, length) in [(24, "abc", 4), (26, "ab", 5)]
] + [(0, 30, "abcd", 4), (-1, 0, "", 0)]


@pytest.mark.parametrize("seed,n,alphabet,length", CASES)
def test_exact_search_equals_brute_force(seed, n, alphabet, length):
    if seed < 0:
        guesses = sorted(FAMILY + HELPERS)
        lex, words = Lexicon.from_lists(guesses, FAMILY, name="family"), FAMILY
        guess_words = guesses
    else:
        lex, words = small_case(seed, n, alphabet, length)
        guess_words = words
    rng = np.random.default_rng(max(seed, 0))
    weights = rng.uniform(0.5, 3.0, lex.n_answers)
    wmap = dict(zip(words, weights / weights.sum()))
    caps = (4, 3, 2) if seed < 0 else (6, 3, 2)  # the family: 4 is enough, 3 is not
    for hard in (False, True):
        for cap in caps:
            for weighted in (False, True):
                for fail in (None, 3.0):
                    want = optimal_total(guess_words, words, cap, hard, wmap if weighted else None, fail)
                    ts = TreeSearch(
                        lex,
                        k=None,
                        hard=hard,
                        max_guesses=cap,
                        threads=1,
                        memory_mb=64,
                        weights=weights if weighted else None,
                        fail_cost=fail,
                    )
                    if want == math.inf:  # no strategy finishes: the checked call says so
                        with pytest.raises(UnsolvableError, match="within"):
                            ts.best()
                        assert ts.best_unchecked(np.arange(lex.n_answers, dtype=np.int32)) == (-1, INF)
                        continue
                    g, v = ts.best()
                    assert same(v, want), (hard, cap, weighted, fail, v, want)
                    if v < INF:
                        # the chosen first guess achieves the value
                        cons = HardConstraints.none(lex.length) if hard else None
                        assert abs(ts.value_of_guess(g, constraints=cons) - v) < 1e-9


def test_brute_force_cases_are_not_trivial():
    """The cases above include caps that make the game impossible, failures that cost, and
    weights that change the best first guess."""
    guesses = sorted(FAMILY + HELPERS)
    assert optimal_total(guesses, FAMILY, 4) < math.inf
    assert optimal_total(guesses, FAMILY, 3) == math.inf
    soft = [optimal_total(guesses, FAMILY, c, fail_cost=3.0) for c in (4, 3, 2)]
    assert soft[0] < soft[1] < soft[2] < math.inf
    lex = Lexicon.from_lists(guesses, FAMILY)
    uniform = TreeSearch(lex, k=None, threads=1, memory_mb=64).best()[0]
    skewed = np.ones(len(FAMILY))
    skewed[5] = 50.0  # one answer far likelier: guess it first
    assert TreeSearch(lex, k=None, threads=1, memory_mb=64, weights=skewed).best()[0] == lex.id(FAMILY[5]) != uniform


@pytest.mark.parametrize("seed", range(3))
def test_near_optimal_never_beats_exact_and_matches_with_large_k(seed):
    lex, words = small_case(seed, 60, "abcde", 5)
    exact = TreeSearch(lex, k=None, threads=1, memory_mb=64).best()[1]
    for k in (1, 3):
        assert TreeSearch(lex, k=k, kc=1, threads=1, memory_mb=64).best()[1] >= exact
    assert TreeSearch(lex, k=lex.n_guesses, threads=1, memory_mb=64).best()[1] == exact


_BIG = {}


def _bigger_case():
    """Real English words (offline, from wordfreq): the 400 commonest five-letter words may be
    the answer, the 1,500 commonest may be guessed.  Big enough for the parallel root search
    (more answers than patterns) and hard enough that the search really searches."""
    if "lex" not in _BIG:
        from wordfreq import get_frequency_dict

        from wordlebot.app.wordsets import wordfreq_lexicon

        freq = get_frequency_dict("en", wordlist="large")
        ranked = sorted(wordfreq_lexicon(5).guesses, key=lambda w: (-freq[w], w))
        _BIG["lex"] = Lexicon.from_lists(sorted(ranked[:1500]), sorted(ranked[:400]), name="big")
    return _BIG["lex"]


def test_perfect_split_finds_the_first_guess_that_splits_into_singletons():
    """kernels._perfect_split against brute force: for small sets and guess lists in list
    order, scattered and reversed, the first guess whose patterns over the set are all
    different (or none), and its tally array left zeroed."""
    from wordlebot.search import kernels as sk

    words = random_words(300, alphabet="abcdeorst", seed=11)
    lex = Lexicon.from_lists(words, words, name="perfect")
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=64)
    seen = np.zeros(3**5, np.int32)
    rng = np.random.default_rng(2)
    found = 0
    for trial in range(60):
        n = int(rng.integers(2, 15))
        if trial % 2:  # a word and its nearest: hard to split
            c = words[int(rng.integers(lex.n_answers))]
            near = sorted(range(lex.n_answers), key=lambda i: sum(x != y for x, y in zip(words[i], c)))
            H = np.sort(near[:n]).astype(np.int32)
        else:
            H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
        T = np.arange(lex.n_guesses, dtype=np.int32)
        if trial % 3 == 1:
            T = np.sort(rng.choice(lex.n_guesses, 25, replace=False)).astype(np.int32)
        elif trial % 3 == 2:
            T = T[::-1].copy()
        want = next(
            (i for i, g in enumerate(T) if len({feedback_code(words[g], words[h]) for h in H}) == n),
            -1,
        )
        assert sk._perfect_split(ts.mt, H, T, seen) == want
        assert not seen.any()
        found += want >= 0
    assert 0 < found < 60  # both outcomes were checked


def test_perfect_split_check_gives_the_same_trees():
    """Nodes settled by a split into singletons found before their scan get the guess and value
    the scan would give them: the same trees with the check on every small node and without."""
    lex = _bigger_case()
    for hard in (False, True):
        cons = HardConstraints.none(5) if hard else None
        trees = []
        for tuning in (SearchTuning(perfect_cost=0), SearchTuning(perfect_cost=4, perfect_max=243)):
            ts = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=128, tuning=tuning)
            trees.append(tr.paths_of(lex, ts.tree(lex.id("stare"), constraints=cons)))
            checked = ts.stats.perfect_splits
        assert checked > 0  # the check settled nodes
        assert trees[0] == trees[1]


def test_a_scan_with_a_cut_is_exact_below_it_and_a_lower_bound_above():
    """The exact search's scans stop counting a block of guesses once their collisions take
    every bound to the cut (sk._scan_uniform).  Against partitions counted by brute force: a
    guess whose bound is below the cut gets its exact bound, key and usefulness; one at or
    above gets a bound between the cut and its own; the least bound is exact below the cut and
    a lower bound above; the split into singletons is always found; blocks were cut; the
    tallies are left zeroed.  Runs and scattered lists (hard mode), blocks cut short; and with
    no cut, every guess exact, counted as it goes and (40 and 90 answers) tallied first."""
    from naive import partition

    from wordlebot.search import kernels as sk

    words = random_words(700, alphabet="abcdeorst", seed=5)
    lex = Lexicon.from_lists(words, words[::2], name="scan")
    rng = np.random.default_rng(4)
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=64)
    wk = ts._workers[0]
    green = feedback_code(words[0], words[0])
    lists = {
        "run": np.arange(5, lex.n_guesses - 3).astype(np.int32),
        "scattered": np.sort(rng.choice(lex.n_guesses, 333, replace=False)).astype(np.int32),
    }
    cut_guesses = 0
    for n, kind in ((3, "run"), (9, "run"), (14, "scattered"), (40, "run"), (90, "scattered")):
        H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
        T = lists[kind]
        want = []
        for g in T.tolist():
            parts = partition(lex.guesses[g], [lex.answers[h] for h in H.tolist()])
            lb = n + sum(2 * len(ws) - 1 for p, ws in parts.items() if p != green)
            s2 = sum(len(ws) ** 2 for p, ws in parts.items() if p != green)
            want.append((lb, n * lb + 2 * s2, len(parts) > 1 or green in parts, len(parts) == n, green in parts))
        best = min(lb for lb, _, useful, _, _ in want if useful)
        # the first guess of the best split into singletons: 2n, less one if it can win
        perfect = min(((2 * n - hit, t) for t, (_, _, _, split, hit) in enumerate(want) if split), default=(INF, -1))
        # (INF: no cut, the near-optimal search's scan; from scan_tally_uncut answers, 16, it
        # tallies first and sums the tallies: here at 40 and 90 answers)
        for cut in (float(n + n - 1), best, best + 1.0, best + 3.0, best + 40.0, INF):
            min_lb, perf, perf_g = sk._scan(wk.S, wk.X, H, T, 2, float(n), True, cut)
            assert not wk.X.block.any()
            for t, (lb, key, useful, _, _) in enumerate(want):
                got = wk.X.lbg[2][t]
                if lb < cut:
                    assert got == lb and wk.X.key[2][t] == key and wk.X.useful[2][t] == useful, (n, cut, t)
                else:
                    assert cut <= got <= lb, (n, cut, t)
                    cut_guesses += got < lb
            assert min_lb == best if best < cut else cut <= min_lb <= best
            assert perf == perfect[0] and perf_g == (T[perfect[1]] if perfect[1] >= 0 else -1), (n, cut)
    assert cut_guesses > 1000  # blocks were cut


def test_a_cut_scan_reads_the_answers_most_alike_first():
    """sk._collisions_first: the node's answers, each once, ordered by how many letters in place
    they share with the node's answers (itself included), most first, ties in the node's order;
    counted here letter by letter.  A cut scan reads them so (the scan test above checks its
    bounds with it on)."""
    from wordlebot.search import kernels as sk

    words = random_words(300, alphabet="abcdeorst", seed=11)
    lex = Lexicon.from_lists(words, words[::2], name="alike")
    wk = TreeSearch(lex, k=None, threads=1, memory_mb=64)._workers[0]
    rng = np.random.default_rng(12)
    for n in (1, 2, 7, 40, 150):
        H = rng.permutation(lex.n_answers)[:n].astype(np.int32)
        alike = {h: sum(a == b for o in H.tolist() for a, b in zip(lex.answers[h], lex.answers[o])) for h in H.tolist()}
        want = sorted(H.tolist(), key=lambda h: (-alike[h], H.tolist().index(h)))
        assert sk._collisions_first(wk.S, H, wk.X.hscan[1]).tolist() == want


# every shortcut of the exact search's scans off, and no big node's parts tightened: the
# baseline they must equal
UNCUT = SearchTuning(
    scan_cut=False,
    part_cut=False,
    pair_bound=False,
    collisions_first=False,
    pass2_node_min=0,
    pass2_late_min=0,
    letter_classes=False,
    coarser_skip=False,
)


def _columns(lex, H, T):
    """Each guess of T's colours against every answer of H, by the naive rule."""
    return [tuple(feedback_code(lex.guesses[g], lex.answers[h]) for h in H.tolist()) for g in T.tolist()]


@pytest.mark.parametrize("seed", range(4))
def test_letter_classes_keep_the_first_guess_of_every_partition(seed):
    """A node's guess list cut to one guess per letter class (kernels._letter_classes), against
    the colours counted by the naive rule: the kept guesses are T's in T's order; every guess
    colours H as a kept guess at or before it does (so nothing the search could play is lost);
    the first guess of T to colour H a given way is always kept (the one the search keeps of
    equal partitions, so its choices and ties stay as they were).  The same holds for a child
    node reducing its parent's reduced list, and for a list out of guess order."""
    from wordlebot.search import kernels as sk

    rng = np.random.default_rng(seed)
    words = random_words(600, length=5, alphabet="abcdefghijklmnopqrst", seed=seed)
    lex = Lexicon.from_lists(words, words[::3], name=f"classes{seed}")
    wk = TreeSearch(lex, k=None, threads=1, memory_mb=16)._workers[0]
    full = np.arange(lex.n_guesses, dtype=np.int32)
    shuffled = rng.permutation(full).astype(np.int32)
    for T in (full, shuffled):
        for size in (2, 4, 9, 25):
            parent = np.sort(rng.choice(lex.n_answers, size, replace=False)).astype(np.int32)
            child = parent[: max(2, size // 2)]
            kept = sk._letter_classes(wk.S, wk.X, parent, T, wk.X.classes[1]).copy()
            again = sk._letter_classes(wk.S, wk.X, child, kept, wk.X.classes[2]).copy()
            for H, given, out in ((parent, T, kept), (child, kept, again)):
                places = {g: i for i, g in enumerate(given.tolist())}
                assert all(g in places for g in out.tolist())
                assert [places[g] for g in out.tolist()] == sorted(places[g] for g in out.tolist())
                cols = _columns(lex, H, T)
                col_of = dict(zip(T.tolist(), cols))
                kept_cols = {}
                for g in out.tolist():
                    kept_cols.setdefault(col_of[g], g)
                order = {g: i for i, g in enumerate(T.tolist())}
                seen = set()
                for g, col in zip(T.tolist(), cols):
                    assert col in kept_cols and order[kept_cols[col]] <= order[g], (size, lex.guesses[g])
                    if col not in seen:
                        seen.add(col)
                        assert g in set(out.tolist()), (size, lex.guesses[g])
            if size <= 4:  # 4 answers hold at most 20 letters, and here fewer: some guesses merge
                assert kept.size < T.size, (size, kept.size)
    # The table marks its entries with the call's number (32 bits): when the count wraps, the
    # entries of the call numbered 1 before must not count as seen by the new call 1.
    H = np.arange(3, dtype=np.int32)
    wk.X.ctab[0] = 0
    first = sk._letter_classes(wk.S, wk.X, H, full, wk.X.classes[1]).copy()  # call 1
    wk.X.ctab[0] = 0xFFFFFFFF
    assert sk._letter_classes(wk.S, wk.X, H, full, wk.X.classes[1]).tolist() == first.tolist()  # call 1 again


@pytest.mark.parametrize(
    "k,weighted,hard", [(None, False, False), (4, False, False), (4, True, False), (None, False, True)]
)
def test_letter_classes_give_the_same_trees(k, weighted, hard):
    """Exact, near-optimal, weighted and hard-mode searches: the same value and every answer's
    path with the guess lists cut to letter classes below the query node as without."""
    lex = _bigger_case()
    cons = HardConstraints.none(5) if hard else None
    runs = []
    for tuning in (SearchTuning(letter_classes=False), SearchTuning()):
        ts = TreeSearch(
            lex, k=k, hard=hard, threads=1, memory_mb=128, tuning=tuning, weights="prior" if weighted else None
        )
        node = ts.tree(lex.id("stare"), constraints=cons)
        runs.append((node.value, tr.paths_of(lex, node)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("seed", range(3))
def test_a_guess_is_skipped_only_where_an_earlier_ones_colours_tell_its_own(seed):
    """kernels._dominated against the naive rule: after some guesses of a node are noted
    (_dom_keep), a guess reported coarser colours the node's answers as a function of one noted
    guess's colours (every two answers that guess leaves together, it leaves together too) and
    is no answer of the node; and the test does fire (on guesses that differ from a noted one
    where their tile is grey, or green, for every answer).  A new node (its stamp) forgets them."""
    from wordlebot.search import kernels as sk

    rng = np.random.default_rng(seed)
    words = random_words(1200, length=5, alphabet="abcdefghij", seed=40 + seed)
    lex = Lexicon.from_lists(words, words[::4], name=f"coarser{seed}")
    wk = TreeSearch(lex, k=None, threads=1, memory_mb=16)._workers[0]
    skipped = green = answers_let_through = 0
    for size in (1, 2, 3, 5, 8, 13, 30):
        for trial in range(16):
            # half the nodes random, half answers that share two places' letters (greens for all)
            pivot, places = lex.answers[rng.integers(lex.n_answers)], rng.choice(5, 2, replace=False)
            near = [h for h, a in enumerate(lex.answers) if all(a[i] == pivot[i] for i in places)]
            pool = near if trial % 2 and len(near) >= size else range(lex.n_answers)
            H = np.sort(rng.choice(pool, size, replace=False)).astype(np.int32)
            answers = {lex.answers[h] for h in H.tolist()}
            sk._dom_open(wk.S, wk.X, H, np.int64(2))
            noted = rng.choice(lex.n_guesses, 200, replace=False).tolist()
            for h in noted:
                sk._dom_keep(wk.S, wk.X, np.int64(2), np.int64(h))
            cols = dict(zip(range(lex.n_guesses), _columns(lex, H, np.arange(lex.n_guesses))))
            stamp = int(wk.X.domn[2, sk.DOM_STAMP])
            for g in sorted(set(range(lex.n_guesses)) - set(noted)):  # (a node tries each guess once)
                if not sk._dominated(wk.S, wk.X, H, np.int64(2), np.int64(g)):
                    # an answer of the node whose colours are coarser still wins itself: let through
                    key = int(sk._dom_key(wk.S, wk.X, np.int64(2), np.int64(g), np.int64(0)))
                    slot = sk._dom_slot(wk.X, np.int64(2), np.int64(key))
                    if int(wk.X.domtab[2, slot]) == (stamp << 32) | key:
                        assert lex.guesses[g] in answers, lex.guesses[g]
                        answers_let_through += 1
                    continue
                skipped += 1
                assert lex.guesses[g] not in answers
                green += set(lex.guesses[g]) <= set("".join(answers))  # (no letter grey for all)
                finer = any(
                    all(cols[h][i] != cols[h][j] or cols[g][i] == cols[g][j] for i in range(size) for j in range(i))
                    for h in noted
                )
                assert finer, (lex.guesses[g], sorted(answers))
            sk._dom_open(wk.S, wk.X, H, np.int64(2))  # the same answers, a new node: nothing noted
            assert not any(sk._dominated(wk.S, wk.X, H, np.int64(2), np.int64(h)) for h in noted)
    assert skipped >= 1000 and green >= 5 and answers_let_through >= 5, (skipped, green, answers_let_through)


@pytest.mark.parametrize("weighted", [False, True])
def test_skipping_coarser_guesses_gives_the_same_trees_with_fewer_nodes(official, weighted):
    """The exact search in normal mode skips a guess coarser than one its node evaluated
    (kernels._dominated): it could never be taken, so on the classic lists (where nodes lack
    letters, as real words do: made-up lists over a few letters seldom leave one out) the same
    value and every answer's path of the SALET tree as without, the published total (unit
    weights), fewer nodes, and skips counted only where it is on."""
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("classic", data_dir=official)
    runs = []
    for on in (False, True):
        ts = TreeSearch(
            lex, k=None, threads=1, tuning=SearchTuning(coarser_skip=on), weights="prior" if weighted else None
        )
        node = ts.tree(lex.id("salet"))
        runs.append((node.value, tr.paths_of(lex, node), ts.stats.nodes, ts.stats.dominated))
    assert runs[0][:2] == runs[1][:2]
    published = {(ws, first, h, cap): total for ws, first, h, cap, total in OPTIMAL_TOTALS}
    assert weighted or runs[1][0] == published[("classic", "salet", False, 6)]
    assert runs[0][3] == 0 and runs[1][3] > 0, (runs[0][3], runs[1][3])
    assert runs[1][2] < runs[0][2], (runs[0][2], runs[1][2])


def test_tightening_a_big_nodes_parts_gives_the_same_trees():
    """Every guess at a node of at least ``pass2_node_min`` answers gets its big parts' bounds
    tightened by a scan each before any recursion, in normal mode too: only bounds change, so
    the same trees and values, but fewer nodes (the guesses refuted by the tighter bounds are
    not searched); at 0 no node is tightened in normal mode (the baseline)."""
    lex = _bigger_case()
    runs = []
    for node_min in (0, 20):
        ts = TreeSearch(lex, k=None, threads=1, memory_mb=128, tuning=SearchTuning(pass2_node_min=node_min))
        first, total = ts.best()  # the root (400 answers) and its parts are big nodes
        nodes = ts.stats.nodes
        node = ts.tree(first)
        runs.append((first, total, node.value, tr.paths_of(lex, node), nodes))
    assert runs[0][:4] == runs[1][:4]
    assert runs[0][1] == runs[0][2]
    assert runs[1][4] < runs[0][4], (runs[0][4], runs[1][4])


def test_a_dear_node_tightens_its_later_guesses_parts_and_keeps_its_trees():
    """Below ``pass2_node_min`` a node of ``pass2_late_min`` answers or more tightens the rest of
    its guesses' big parts once searching the parts of guesses refuted so has cost
    ``pass2_late_after`` scans of the node: only bounds change, so the same best guess, value
    and every answer's path as with no such node (``pass2_late_min=0``, the baseline), with
    fewer nodes when the bar is low; with a bar no node reaches, exactly the baseline's work."""
    lex = _bigger_case()

    def run(**tune):
        ts = TreeSearch(lex, k=None, threads=1, memory_mb=128, tuning=SearchTuning(pass2_node_min=0, **tune))
        first, total = ts.best()  # the root holds 400 answers, its parts up to ~100
        nodes, scans = ts.stats.nodes, ts.stats.scans
        node = ts.tree(first)
        assert node.value == total
        return (first, total, tr.paths_of(lex, node)), (nodes, scans)

    base, base_work = run(pass2_late_min=0)
    low, low_work = run(pass2_late_min=20, pass2_late_after=1)
    never, never_work = run(pass2_late_min=20, pass2_late_after=1 << 30)
    assert low == base and never == base
    assert low_work[0] < base_work[0], (low_work, base_work)
    assert never_work == base_work


def test_hard_and_normal_modes_tighten_parts_from_their_own_sizes():
    """Hard mode tightens every guess's parts from ``pass2_min_hard`` answers, normal mode's big
    nodes from ``pass2_min_big``: each threshold moves only its own mode's work (the nodes
    searched), never a value or a tree, and tightening more parts (a lower threshold) refutes
    more guesses before any recursion, so fewer nodes."""
    lex = _bigger_case()

    def run(hard, **tune):
        ts = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=128, tuning=SearchTuning(**tune))
        first, total = ts.best()
        node = ts.tree(first)
        assert node.value == total
        return (first, total, tr.paths_of(lex, node)), ts.stats.nodes

    hard_low, hard_low_nodes = run(True, pass2_min_hard=8)
    hard_high, hard_high_nodes = run(True, pass2_min_hard=400)
    assert hard_low == hard_high
    assert hard_low_nodes < hard_high_nodes, (hard_low_nodes, hard_high_nodes)
    assert run(True, pass2_min_hard=8, pass2_min_big=400)[1] == hard_low_nodes  # normal mode's, not hard's

    big = {"pass2_node_min": 20}
    normal_low, normal_low_nodes = run(False, pass2_min_big=8, **big)
    normal_high, normal_high_nodes = run(False, pass2_min_big=400, **big)
    assert normal_low == normal_high
    assert normal_low_nodes < normal_high_nodes, (normal_low_nodes, normal_high_nodes)
    assert run(False, pass2_min_big=8, pass2_min_hard=400, **big)[1] == normal_low_nodes  # hard mode's only


@pytest.mark.parametrize("weighted,hard", [(False, False), (True, False), (False, True)])
def test_near_optimal_tightening_and_kept_candidates_give_the_same_trees(weighted, hard, monkeypatch):
    """The near-optimal search tightens a big node's guesses' big parts with a scan each, whose
    candidates it keeps for the part's own search (sk._order_find): only bounds change and a
    scan is read back instead of done again, so the same best guess, value and every answer's
    path as with neither (near_node_min=0, the baseline), with fewer nodes; with the kept
    candidates' cache cut to one slot (each node's evicts the last), the same again, but with
    more scans: the cache is what saves them, and what it serves is what a scan would give."""
    from wordlebot.search import tree_search as tsm

    lex = _bigger_case()
    cons = HardConstraints.none(5) if hard else None
    runs = []
    for tuning, slots in (
        (SearchTuning(near_node_min=0), tsm.ORDER_SLOTS),
        (SearchTuning(near_node_min=10, near_part_min=4), tsm.ORDER_SLOTS),
        (SearchTuning(near_node_min=10, near_part_min=4), 1),
    ):
        monkeypatch.setattr(tsm, "ORDER_SLOTS", slots)
        ts = TreeSearch(
            lex, k=4, kc=2, hard=hard, threads=1, memory_mb=128, tuning=tuning, weights="prior" if weighted else None
        )
        first, total = ts.best(constraints=cons)
        nodes, scans = ts.stats.nodes, ts.stats.scans
        node = ts.tree(first, constraints=cons)
        runs.append((first, total, node.value, tr.paths_of(lex, node), nodes, scans))
    assert runs[0][:4] == runs[1][:4] == runs[2][:4]
    assert runs[1][4] < runs[0][4], (runs[0][4], runs[1][4])
    assert runs[1][5] < runs[2][5], (runs[1][5], runs[2][5])


def test_the_scan_cut_gives_the_same_trees():
    """Guesses a scan stops counting at the node's bound are never tried, and their bounds
    stay lower bounds (so do the part bounds cut at the bound that refutes a guess, which hard
    mode computes), and so is the bound 2W of a node no possible answer splits well: the same
    trees and values with the cuts and that bound and without, normal and hard."""
    lex = _bigger_case()
    for hard in (False, True):
        cons = HardConstraints.none(5) if hard else None
        trees = []
        for tuning in (UNCUT, SearchTuning()):
            ts = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=128, tuning=tuning)
            node = ts.tree(lex.id("stare"), constraints=cons)
            trees.append((node.value, tr.paths_of(lex, node)))
        assert trees[0] == trees[1]


def test_the_bound_2w_is_a_bound_not_a_value():
    """BILL, CILL, DILL, FILL: no answer tells them apart, the guess BCDF does (B green, C, D
    or F yellow), so the node is worth exactly 2W = 8.  Asked under beta 8.5 (or 9) the search
    must find that 8, not stop at its bound 2W: a bound taken for more than it is would report
    the node as worth at least beta.  Under beta 8 the bound alone settles it (at least 8)."""
    answers = ["bill", "cill", "dill", "fill"]
    lex = Lexicon.from_lists(sorted(answers + ["bcdf"]), answers, name="ills")
    H = np.arange(4, dtype=np.int32)
    for tuning in (UNCUT, SearchTuning()):
        ts = TreeSearch(lex, k=None, threads=1, memory_mb=64, tuning=tuning)
        worker = ts._workers[0]
        for beta in (8.5, 9.0, INF):
            worker.clear()  # a fresh table each time: the search, not a stored value
            assert ts._run(worker, H, 6, beta, ts.allowed(), -1) == (8.0, lex.id("bcdf")), beta
        assert ts._run(worker, H, 6, 8.0, ts.allowed(), -1)[0] >= 8.0


@pytest.mark.parametrize("hard", [False, True])
def test_the_cuts_give_the_published_trees_with_fewer_scans(official, hard):
    """On the classic lists, where the search really searches (1,500-7,000 scans): the cuts and
    the bound 2W leave the published total and every path of the SALET tree as they are without
    them, and the bound 2W settles nodes the search without it scans.  Hard mode's parts are
    tightened from 30 answers in both (the default 8 adds tightening scans, which no cut
    removes, to both sides: 5,129 against 4,937; tightening is tested on its own above)."""
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("classic", data_dir=official)
    runs = []
    for tuning in (UNCUT, SearchTuning()):
        tuning = dataclasses.replace(tuning, pass2_min_hard=30)
        ts = TreeSearch(lex, k=None, hard=hard, threads=1, tuning=tuning)
        node = ts.tree(lex.id("salet"))
        runs.append((node.value, tr.paths_of(lex, node), ts.stats.scans))
    published = {(ws, first, h, cap): total for ws, first, h, cap, total in OPTIMAL_TOTALS}
    assert runs[0][0] == runs[1][0] == published[("classic", "salet", hard, 6)]
    assert runs[0][1] == runs[1][1]
    assert runs[1][2] < runs[0][2] * 0.9, (runs[0][2], runs[1][2])


@pytest.mark.parametrize("weighted", [False, True])
def test_scan_tallies_every_guess_like_brute_force(weighted):
    """The scan behind every node's ordering and bounds, against partitions counted by brute
    force: small and big sets (the two ways a unit-weight scan counts), guess lists in one run,
    scattered (hard mode) and out of order (the candidates of a list not in guess order),
    blocks cut short at the end of the list."""
    from naive import partition

    from wordlebot.search import kernels as sk

    words = random_words(700, alphabet="abcdeorst", seed=5)
    answers = words[::2]
    lex = Lexicon.from_lists(words, answers, name="scan")
    rng = np.random.default_rng(3)
    weights = rng.uniform(0.5, 2.0, lex.n_answers) if weighted else None
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=64, weights=weights)
    wk = ts._workers[0]
    green = feedback_code(words[0], words[0])
    shuffled = np.arange(16, 80)
    shuffled[[1, 2]] = shuffled[[2, 1]]  # a block of consecutive ids out of order (its ends 15 apart)
    lists = {
        "run": np.arange(5, lex.n_guesses - 3),
        "scattered": np.sort(rng.choice(lex.n_guesses, 333, replace=False)),
        "shuffled": shuffled,
    }
    for n, kind in (
        (3, "run"),
        (150, "run"),
        (40, "scattered"),
        (300, "scattered"),
        (7, "run"),
        (20, "shuffled"),
        (200, "shuffled"),
        (lex.n_answers, "run"),
    ):
        H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
        T = lists[kind].astype(np.int32)
        w = ts.w[H]
        W = float(w.sum())
        min_lb, perfect, perfect_g = sk._scan(wk.S, wk.X, H, T, 2, W, True, INF)
        want_min, want_perfect = INF, (INF, -1)
        for t, g in enumerate(T.tolist()):
            parts = partition(lex.guesses[g], [lex.answers[h] for h in H.tolist()])
            weight = dict(zip((lex.answers[h] for h in H.tolist()), w))
            masses = {p: sum(weight[a] for a in ws) for p, ws in parts.items()}
            lb = W + sum(2 * masses[p] - max(weight[a] for a in ws) for p, ws in parts.items() if p != green)
            s2 = sum(masses[p] ** 2 for p in parts if p != green)
            hit = masses.get(green, -1.0)
            useful = len(parts) > 1 or green in parts
            assert math.isclose(wk.X.lbg[2][t], lb, rel_tol=1e-12), (n, g)
            want_key = n * (lb / W + 2 * s2 / W**2) if weighted else n * lb + 2 * s2
            assert math.isclose(wk.X.key[2][t], want_key, rel_tol=1e-12), (n, g)
            assert wk.X.useful[2][t] == useful and math.isclose(wk.X.hitw[2][t], hit)
            if useful:
                want_min = min(want_min, lb)
            if len(parts) == n and 2 * W - max(hit, 0.0) < want_perfect[0] - 1e-12:
                want_perfect = (2 * W - max(hit, 0.0), g)
        assert math.isclose(min_lb, want_min, rel_tol=1e-12)
        assert math.isclose(perfect, want_perfect[0], rel_tol=1e-12) and perfect_g == want_perfect[1]


def test_the_blocked_weighted_scan_equals_one_guess_at_a_time_to_the_bit():
    """The weighted scan of SCAN_BLOCK guesses at once (sk._scan_weighted) takes every sum in the
    order of the one-guess-at-a-time scan, so a weighted search's values (and with them its
    choices and its ties) do not change with the scan: every row the scan writes, and what it
    returns, equal bit for bit, on runs, scattered and shuffled guess lists, blocks cut short;
    and the tallies it borrows are left zeroed."""
    from wordlebot.search import kernels as sk

    words = random_words(700, alphabet="abcdeorst", seed=7)
    lex = Lexicon.from_lists(words, words[::2], name="scan")
    rng = np.random.default_rng(8)
    ts = TreeSearch(lex, k=12, threads=1, memory_mb=64, weights=rng.uniform(0.01, 3.0, lex.n_answers))
    wk = ts._workers[0]
    shuffled = rng.permutation(np.arange(30, 260))
    for n, T in (
        (16, np.arange(lex.n_guesses)),
        (57, np.sort(rng.choice(lex.n_guesses, 333, replace=False))),
        (200, shuffled),
        (lex.n_answers, np.arange(3, lex.n_guesses - 5)),
    ):
        H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
        T = T.astype(np.int32)
        W = float(ts.w[H].sum())
        got = sk._scan_weighted(wk.S, wk.X, H, T, 1, W)
        rows = [getattr(wk.X, f)[1][: T.size].copy() for f in ("lbg", "key", "useful", "hitw")]
        want = sk._scan_general(wk.S, wk.X, H, T, 1, W)
        assert tuple(got) == tuple(want), n
        for row, f in zip(rows, ("lbg", "key", "useful", "hitw")):
            assert np.array_equal(row, getattr(wk.X, f)[1][: T.size]), (n, f)
        assert not wk.X.block.any()


def test_a_small_weighted_scan_writes_the_signatures_the_ordering_would_compute():
    """Below SCAN_SIG_MAX answers the weighted scan writes each guess's partition signature (the
    ordering of a small node compares nearly all of them): each equals, bit for bit, the one
    ``_hash_partition`` computes on its own, so the guesses kept as distinct are the same; the
    hash sums it borrows are left zeroed, and the near-optimal ordering equals the one made
    with signatures computed one at a time."""
    from wordlebot.search import kernels as sk

    words = random_words(700, alphabet="abcdeorst", seed=7)
    lex = Lexicon.from_lists(words, words[::2], name="scan")
    rng = np.random.default_rng(10)
    ts = TreeSearch(lex, k=12, threads=1, memory_mb=64, weights=rng.uniform(0.01, 3.0, lex.n_answers))
    wk = ts._workers[0]
    green = int(wk.S.ip[sk.IP_GREEN])
    T = np.arange(lex.n_guesses, dtype=np.int32)
    for n in (3, 5, 9, sk.SCAN_SIG_MAX - 1):
        H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
        W = float(ts.w[H].sum())
        sk._scan(wk.S, wk.X, H, T, 1, W, True, INF)
        sig = wk.X.sig[1][: T.size].copy()
        want = [sk._hash_partition(wk.S.mt, wk.S.zob, wk.X.zs, green, H, g) for g in T.tolist()]
        assert sig.tolist() == want, n
        assert not wk.X.zs.any()
        n1 = sk._trial_order(wk.S, wk.X, H, T, 1, INF)
        signed = wk.X.order[1][:n1].copy()
        wk.X.sig[1][: T.size] = 0  # the ordering computes each signature as it needs it
        lazy = wk.S._replace(mt=np.asfortranarray(wk.S.mt))  # a layout the scan never signs
        n2 = sk._trial_order(lazy, wk.X, H, T, 1, INF)
        assert n1 == n2 and np.array_equal(signed, wk.X.order[1][:n2]), n


def _naive_candidates(lex, H, key, k, kc):
    """The near-optimal search's candidates at a node, from scratch: every useful guess (it splits
    the node or can be its answer) in (key, list order); the first guess of each partition (its
    parts, and the part it wins) among the first k such partitions; then the first k + kc
    partitions among the guesses that can be an answer, those not already kept adding up to kc
    more; all of them in (key, list order)."""
    answers = [lex.answers[int(h)] for h in H]

    def shape(g):
        parts = naive_partition(lex.guesses[g], answers)
        won = frozenset(parts.get(feedback_code(lex.guesses[g], lex.guesses[g]), []))
        return frozenset(frozenset(p) for p in parts.values()), won

    useful = [
        g
        for g in range(lex.n_guesses)
        if len(naive_partition(lex.guesses[g], answers)) > 1 or lex.guesses[g] in answers
    ]
    ranked = sorted(useful, key=lambda g: (key[g], g))

    def first_of_each(gs, cap):
        kept, seen = [], set()
        for g in gs:
            if shape(g) not in seen and len(kept) < cap:
                seen.add(shape(g))
                kept.append(g)
        return kept

    top = first_of_each(ranked, k)
    answer_words = set(lex.answers)
    cand = first_of_each([g for g in ranked if lex.guesses[g] in answer_words], k + kc)
    top_shapes = {shape(g) for g in top}
    extra = [g for g in cand if shape(g) not in top_shapes][:kc]
    return sorted(top + extra, key=lambda g: (key[g], g))


def test_the_near_optimal_candidates_are_the_best_distinct_partitions():
    """The near-optimal search's candidates at a node (sk._trial_order, which drops a repeated
    partition as it fills its buffers) equal the naive choice from every guess's partition, on
    nodes of a 9-letter alphabet where many guesses leave the same partition, k from 1 to 12."""
    from wordlebot.search import kernels as sk

    words = random_words(700, alphabet="abcdeorst", seed=7)
    lex = Lexicon.from_lists(words, words[::3], name="cands")
    rng = np.random.default_rng(12)
    T = np.arange(lex.n_guesses, dtype=np.int32)
    for k, kc in ((1, 0), (1, 2), (2, 1), (4, 3), (12, 6)):
        ts = TreeSearch(lex, k=k, kc=kc, threads=1, memory_mb=64, tuning=SearchTuning())
        wk = ts._workers[0]
        for n in (3, 8, 20, 60):
            H = np.sort(rng.choice(lex.n_answers, n, replace=False)).astype(np.int32)
            sk._scan(wk.S, wk.X, H, T, 1, float(n), True, INF)
            key = wk.X.key[1][: T.size].copy()
            got = sk._trial_order(wk.S, wk.X, H, T, 1, INF)
            assert wk.X.order[1][:got].tolist() == _naive_candidates(lex, H, key, k, kc), (k, kc, n)


def test_hard_mode_children_allow_what_the_rule_allows():
    """The search's hard-mode filter (applied row after row, each time to the list the row
    before left) against the textbook rule, over random games with repeated letters."""
    from wordlebot.search import kernels as sk

    words = random_words(400, alphabet="abcdeor", seed=11)
    lex = Lexicon.from_lists(words, words, name="hard")
    ts = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=32)
    rng = np.random.default_rng(4)
    for _ in range(40):
        answer = words[int(rng.integers(len(words)))]
        cons = HardConstraints.none(5)
        allowed = ts.allowed(cons)
        rows = []
        for _ in range(4):
            T = allowed.guesses
            guess = lex.guesses[int(T[rng.integers(T.size)])]
            p = feedback_code(guess, answer)
            rows.append((guess, p))
            out = np.empty(lex.n_guesses, np.int32)
            allowed = sk._hard_child(ts.S, allowed, lex.id(guess), p, out)
            # as Python holds it (compiled code hands the hash back as a Python int)
            allowed = allowed._replace(guesses=allowed.guesses.copy(), hsig=np.uint64(allowed.hsig))
            assert [lex.guesses[g] for g in allowed.guesses.tolist()] == [w for w in words if hard_mode_legal(w, rows)]
            # the child's hints (and so its hash) are the game's after the rows played
            cons = cons.add(guess, p)
            want = ts.allowed(cons)
            assert np.array_equal(allowed.greens, want.greens) and np.array_equal(allowed.mins, want.mins)
            assert allowed.hsig == want.hsig and np.array_equal(allowed.guesses, want.guesses)


def test_hard_mode_value_of_a_guess_on_threads():
    """A first guess's value in hard mode, its parts solved on two threads and no constraints
    given: hard mode still applies below it (it once did not: the parts were searched in normal
    mode, a lower total)."""
    lex = _bigger_case()
    g = lex.id("stare")
    serial = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=128)
    want = serial.value_of_guess(g, constraints=HardConstraints.none(5))
    assert want > TreeSearch(lex, k=None, threads=1, memory_mb=128).value_of_guess(g)  # hard mode costs here
    two = TreeSearch(lex, k=None, hard=True, threads=2, memory_mb=128)
    assert two.value_of_guess(g, parallel=True) == serial.value_of_guess(g) == want


@pytest.mark.parametrize("exact", [False, True])
def test_parallel_equals_serial(exact):
    lex = _bigger_case()
    k = None if exact else 8
    serial = TreeSearch(lex, k=k, threads=1, memory_mb=128)
    parallel = TreeSearch(lex, k=k, threads=2, memory_mb=128)
    g1, v1 = serial.best(parallel=False)
    g2, v2 = parallel.best()
    assert (g1, v1) == (g2, v2)
    t1 = tr.paths_of(lex, serial.tree(g1))
    t2 = tr.paths_of(lex, parallel.tree())
    assert t1 == t2


def test_anagram_runs_group_the_root_guesses_by_their_letters():
    """TreeSearch._anagram_runs, hand-checked: places of the same letters in one run, in order;
    the runs by their first place."""
    lex = Lexicon.from_lists(["crate", "trace", "salet", "slate", "react", "aaaaa", "stale"], ["crate"], name="ana")
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=16)
    order = np.array([lex.id(w) for w in ["salet", "crate", "aaaaa", "slate", "trace", "react", "stale"]])
    assert ts._anagram_runs(order) == [[0, 3, 6], [1, 4, 5], [2]]


@pytest.mark.parametrize("k", [8, None])
def test_anagram_runs_keep_the_serial_choice_and_values(k):
    """The root guesses handed to the threads in runs of anagrams (SearchTuning.anagram_runs)
    or one at a time: the same best guess and value as the serial search, and the same ranking;
    the case's root order holds anagrams, so the runs are not all single guesses."""
    lex = _bigger_case()
    g1, v1 = TreeSearch(lex, k=k, threads=1, memory_mb=128).best(parallel=False)
    ranked = {}
    for runs in (True, False):
        ts = TreeSearch(lex, k=k, threads=2, memory_mb=128, tuning=SearchTuning(anagram_runs=runs))
        H = np.arange(lex.n_answers, dtype=np.int32)
        order = ts.root_order(H, ts.max_guesses, ts.allowed())
        if runs:
            assert any(len(r) > 1 for r in ts._anagram_runs(order))
        assert ts.best() == (g1, v1)
        fresh = TreeSearch(lex, k=k, threads=2, memory_mb=128, tuning=SearchTuning(anagram_runs=runs))
        ranked[runs] = fresh.rank(top=4)
    assert ranked[True] == ranked[False] and ranked[True][0] == (g1, v1)


@pytest.mark.parametrize("k,hard,cap", [(None, False, 6), (None, True, 6), (8, False, 6), (None, True, 4)])
def test_big_parts_shared_out_give_the_serial_tree(monkeypatch, k, hard, cap):
    """A first guess's big parts searched by both threads at once (their first guess's parts,
    then their other guesses against the best so far, one table for both threads) give the
    serial values and trees, node for node.  The threshold is lowered so that most parts are
    shared out; with a cap of 4 in hard mode some first guesses of parts cannot finish."""
    shared_out = []
    split = TreeSearch._split_parts
    monkeypatch.setattr(TreeSearch, "_split_parts", lambda self, *a: shared_out.append(a[1]) or split(self, *a))
    lex = _bigger_case()
    cons = HardConstraints.none(5) if hard else None
    g = lex.id("stare")
    serial = TreeSearch(lex, k=k, hard=hard, max_guesses=cap, threads=1, memory_mb=128)
    parallel = TreeSearch(
        lex, k=k, hard=hard, max_guesses=cap, threads=2, memory_mb=128, tuning=SearchTuning(split_part_min=6)
    )
    v1 = serial.value_of_guess(g, constraints=cons)
    assert parallel.value_of_guess(g, parallel=True) == v1 < INF
    t1 = tr.paths_of(lex, serial.tree(g, constraints=cons))
    t2 = tr.paths_of(lex, parallel.tree(g))
    assert t1 == t2
    assert len(shared_out) == 2 and all(len(big) > 3 for big in shared_out)  # value, then tree


def _counting_rounds(monkeypatch) -> list[tuple[float, float]]:
    """Each round a doomed part's refutations go on to (_SharedParts._next_round): the
    aspiration that failed and the next one (INF: the search without one)."""
    from wordlebot.search.tree_search import _SharedParts

    rounds: list[tuple[float, float]] = []
    nxt = _SharedParts._next_round

    def counted(self, p):
        failed = self.plans[p].aspiration
        out = nxt(self, p)
        rounds.append((failed, self.plans[p].aspiration))
        return out

    monkeypatch.setattr(_SharedParts, "_next_round", counted)
    return rounds


@pytest.mark.parametrize("climb", [10.0**9, 0.0], ids=["climbs-to-the-value", "then-no-bound"])
def test_doomed_parts_refuted_in_rounds_give_the_serial_value_and_tree(monkeypatch, climb):
    """Hard mode, cap 4: big parts whose first guess cannot win are refuted in rounds against
    a rising aspiration (SearchTuning.aspiration_*, begun at once here, in small steps): the
    value and the tree are the serial search's, node for node, whether the rounds climb until
    a guess beats one or give way after the first to the search without a bound."""
    rounds = _counting_rounds(monkeypatch)
    # 400 random words over 18 letters, the first guess the first word: a case whose doomed parts
    # are worth more than their bounds, so that the rounds climb (found by trying seeds)
    words = random_words(400, alphabet="abcdefghilmnoprstu", seed=3)
    lex = Lexicon.from_lists(words, words, name="doomed")
    cons = HardConstraints.none(5)
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    # (aspiration_lost 0: a dear round ends the climb whatever it proved; see the next test)
    tuning = SearchTuning(
        split_part_min=6, aspiration_after=0.0, aspiration_step=0.002, aspiration_seconds=climb, aspiration_lost=0.0
    )
    two = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=2, memory_mb=64, tuning=tuning)
    v1 = serial.value_of_guess(0, constraints=cons)
    assert two.value_of_guess(0, parallel=True) == v1 < INF
    assert rounds  # the rounds ran (what they search again: see the tests below)
    if climb == 0.0:
        assert all(after >= INF for _, after in rounds)
    else:
        assert any(after < INF for _, after in rounds)
    assert tr.paths_of(lex, two.tree(0)) == tr.paths_of(lex, serial.tree(0, constraints=cons))


def _counting_shares(monkeypatch) -> list[tuple[int, int, float, bool, float]]:
    """Each doomed part's round as it ends (_SharedParts._next_round): how many guesses it
    refuted at its aspiration, how many of those it proved unable to win, the threads' seconds
    in it, whether the next step reaches the most the cap allows, and the aspiration it went on
    to (INF: the search without one)."""
    from wordlebot.search.tree_search import _SharedParts

    rounds: list[tuple[int, int, float, bool, float]] = []
    nxt = _SharedParts._next_round

    def counted(self, p):
        plan = self.plans[p]
        # (the first aspiration it tries next, at or past the most the cap allows: the end)
        capped = plan.aspiration + 1.5 * plan.step >= plan.H.size * self.rem
        seen = (plan.refuted, plan.lost, plan.spent, capped)
        out = nxt(self, p)
        rounds.append((*seen, plan.aspiration))
        return out

    monkeypatch.setattr(_SharedParts, "_next_round", counted)
    return rounds


@pytest.mark.parametrize("share", [0.0, 0.5, 1.01], ids=["any", "half", "never"])
def test_a_dear_round_ends_the_climb_only_if_it_proved_enough_guesses_unable_to_win(monkeypatch, share):
    """SearchTuning.aspiration_lost: every round dear here (aspiration_seconds 0), a round
    ends the climb exactly when at least that share of the guesses it refuted were proven
    unable to win, and climbs on otherwise (until the most the cap allows).  STYLE's doomed
    parts (hard mode, cap 4, the 1,500-word case) have rounds of both kinds at 0.5 (13 that
    climb, 1 that ends; a first guess that can be won: no part stops the others, so every round
    is met whatever the threads' timing).  The value and the tree are the serial search's."""
    rounds = _counting_shares(monkeypatch)
    lex, cons, _, _ = _unwinnable_case()
    style = lex.id("style")
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    tuning = SearchTuning(
        split_part_min=6, aspiration_after=0.0, aspiration_step=0.002, aspiration_seconds=0.0, aspiration_lost=share
    )
    two = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=2, memory_mb=64, tuning=tuning)
    assert two.value_of_guess(style, parallel=True) == serial.value_of_guess(style, constraints=cons) < INF
    judged = [(r, lo, after) for r, lo, spent, capped, after in rounds if r > 0 and spent > 0 and not capped]
    assert judged
    for refuted, lost, after in judged:
        assert 0 <= lost <= refuted
        assert (after >= INF) == (lost >= share * refuted), (refuted, lost, after)
    if share == 0.5:  # both kinds met
        assert {after >= INF for _, _, after in judged} == {True, False}
    assert tr.paths_of(lex, two.tree(style)) == tr.paths_of(lex, serial.tree(style, constraints=cons))


def test_a_batch_says_what_its_search_proved_of_each_guess():
    """sk._try_guesses' floors, which a doomed part's rounds count: for each guess searched,
    its value if it beat the bound, else a lower bound at least the bound and never above the
    guess's value (the serial search's, guess by guess), INF only for a guess that truly
    cannot win; -INF for one not searched (its bound at the race's)."""
    from wordlebot.search import kernels as sk

    lex, cons, pizza, stare = _unwinnable_case()
    truth = {}
    for g in [*range(0, lex.n_guesses, 15), pizza, stare]:  # every 15th guess (100), PIZZA, STARE
        truth[g] = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64).value_of_guess(
            g, constraints=cons
        )
    assert truth[pizza] >= INF > truth[stare]
    finite = sorted(v for v in truth.values() if v < INF)
    bound = finite[-1] + 0.5  # every guess that can win beats it, unless one before it did better
    search = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    wk = search._active[0]
    H = np.arange(lex.n_answers, dtype=np.int32)
    # those that cannot win first, searched against the bound itself
    guesses = np.array(sorted(truth, key=lambda g: (truth[g] < INF, g)), dtype=np.int32)
    lbs = np.full(guesses.size, -INF)
    lbs[0] = bound  # one not searched: its bound reaches the race's
    places = np.arange(guesses.size, dtype=np.int64)
    batch = sk.Batch(guesses, lbs, places, np.full(guesses.size, INF), np.full(guesses.size, 7.0))
    race = sk.Race(-INF, bound, np.full(1, sk.BEST_NONE, np.int64), 0)
    search._accounted(wk, sk._try_guesses, wk.S, wk.X, wk.TT, H, 4, search.allowed(cons), batch, race)
    assert batch.floors[0] == -INF and batch.values[0] >= INF
    won = lost = 0
    best = bound  # each guess must beat the best value before it in the batch (one thread)
    for i in range(1, guesses.size):
        v, floor, value = truth[int(guesses[i])], batch.floors[i], batch.values[i]
        assert floor <= v
        if value < INF:
            won += 1
            assert floor == value == v < best
            best = v
        else:
            assert best <= floor
            lost += floor >= INF
    assert won > 0 and lost > 0


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "not-kept"])
def test_a_guess_a_round_proved_unable_to_win_is_not_searched_again(monkeypatch, keep):
    """SearchTuning.keep_floors: a doomed part's guess whose search proved it cannot win (its
    floor INF) keeps that as its lower bound, and no later batch of the part searches it again,
    at any aspiration or without one; without it, later rounds search such guesses again.
    STYLE's doomed parts (hard, cap 4, the 1,500-word case), every round dear and none ending
    the climb (share 1.01): rounds follow rounds.  The value and the tree are the serial
    search's either way."""
    from wordlebot.search import kernels as sk

    calls: list[tuple[bytes, int, np.ndarray, np.ndarray]] = []  # part, call's end, places, floors
    starts: list[tuple[bytes, int, np.ndarray]] = []  # part, call's start, places
    clock = itertools.count()
    try_guesses = sk._try_guesses

    def recorded(S, X, TT, H, rem, allowed, batch, race):
        starts.append((H.tobytes(), next(clock), batch.places.copy()))
        out = try_guesses(S, X, TT, H, rem, allowed, batch, race)
        calls.append((H.tobytes(), next(clock), batch.places.copy(), batch.floors.copy()))
        return out

    monkeypatch.setattr(sk, "_try_guesses", recorded)
    lex, cons, _, _ = _unwinnable_case()
    style = lex.id("style")
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    tuning = SearchTuning(
        split_part_min=6,
        aspiration_after=0.0,
        aspiration_step=0.002,
        aspiration_seconds=0.0,
        aspiration_lost=1.01,
        keep_floors=keep,
    )
    two = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=2, memory_mb=64, tuning=tuning)
    assert two.value_of_guess(style, parallel=True) == serial.value_of_guess(style, constraints=cons) < INF
    monkeypatch.setattr(sk, "_try_guesses", try_guesses)  # one search's batches (the tree's plans are new)
    assert tr.paths_of(lex, two.tree(style)) == tr.paths_of(lex, serial.tree(style, constraints=cons))
    proven = [(part, end, int(place)) for part, end, places, floors in calls for place in places[floors >= INF]]
    later = [(part, end, place) for part, end, place in proven if any(p == part and t > end for p, t, _ in starts)]
    assert later  # guesses proven unwinnable in batches that other batches of their part followed
    again = [
        (place, end, t)
        for part, end, place in later
        for p, t, places in starts
        if p == part and t > end and place in places
    ]
    assert (again == []) == keep, again[:5]


def test_doomed_parts_that_cannot_be_won_end_the_rounds(monkeypatch):
    """A first guess that leaves a part no strategy finishes within the cap (PIZZA): its doomed
    parts' rounds climb to the most the cap allows and then give way (one part's at least: the
    first to be proven unwinnable stops the others, wherever their rounds are), and the total is
    INF, as the serial search says."""
    rounds = _counting_rounds(monkeypatch)
    lex, cons, pizza, _ = _unwinnable_case()
    tuning = SearchTuning(split_part_min=6, aspiration_after=0.0, aspiration_step=0.05, aspiration_seconds=10.0**9)
    two = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=2, memory_mb=64, tuning=tuning)
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    assert serial.value_of_guess(pizza, constraints=cons, parallel=False) >= INF
    assert two.value_of_guess(pizza, parallel=True) >= INF
    assert any(after >= INF for _, after in rounds)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("classes_min", [0, 10**6], ids=["every-part-cut", "no-part-cut"])
def test_shared_out_parts_give_the_serial_tree_cut_to_letter_classes_or_not(hard, classes_min):
    """The parts the threads solve on their own are cut to one guess per letter class from
    SearchTuning.classes_part_min answers (8 by default, which the test above runs): cut at
    every size, or at none, the values and trees are the serial search's."""
    lex = _bigger_case()
    cons = HardConstraints.none(5) if hard else None
    g = lex.id("stare")
    serial = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=128)
    tuning = SearchTuning(split_part_min=6, classes_part_min=classes_min)
    parallel = TreeSearch(lex, k=None, hard=hard, threads=2, memory_mb=128, tuning=tuning)
    v1 = serial.value_of_guess(g, constraints=cons)
    assert parallel.value_of_guess(g, parallel=True) == v1 < INF
    assert tr.paths_of(lex, parallel.tree(g)) == tr.paths_of(lex, serial.tree(g, constraints=cons))


def test_a_part_of_one_or_two_answers_needs_no_list_of_legal_guesses():
    """Hard mode: the threads' parts and the tree's walk search a node of one or two answers
    with every guess in place of its legal ones (TreeSearch._node_list): its value and guess
    have a closed form (the likelier answer, then the other) that reads no list.  Against the
    legal list, for every such part under every first guess of a list, with 1 to 3 guesses left:
    the same value and guess, and the guess legal by the textbook rule (tests/naive.py)."""
    words = random_words(60, alphabet="abcdeilmnorst", seed=11)
    lex = Lexicon.from_lists(words, words[:40], name="tiny-parts")
    ts = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=16)
    wk = ts._workers[0]
    checked = 0
    for word in lex.guesses:
        pats = np.array([feedback_code(word, a) for a in lex.answers])
        won = feedback_code(word, word)
        for p in set(pats.tolist()) - {won}:
            H = np.flatnonzero(pats == p).astype(np.int32)
            if H.size > 2:
                continue
            cons = HardConstraints.none(5).add(word, p)
            every = ts._node_list(H, cons)
            assert every.guesses.size == lex.n_guesses  # every guess, not the legal ones
            for rem in (1, 2, 3):
                found = ts._run(wk, H, rem, INF, every, -1)
                assert found == ts._run(wk, H, rem, INF, ts.allowed(cons), -1)
                if found[0] < INF:
                    assert hard_mode_legal(lex.guesses[found[1]], [(word, p)])
                checked += 1
    assert checked > 300


def test_a_parts_list_cut_from_its_nodes_is_its_legal_list():
    """Hard mode: the list a part handed to a thread is searched with (TreeSearch._part_list) is
    cut from its node's list by the row's hints, in one kernel call.  For every part of three
    answers or more under 25 first guesses, and under a second guess of each: the guesses legal
    after the rows by the textbook rule (tests/naive.py), in list order, with the hints' hash
    that ``allowed`` gives them; cut to the letter classes, the list ``_by_classes`` makes."""
    words = random_words(300, alphabet="abcdeilmnorst", seed=5)
    lex = Lexicon.from_lists(words, words[::2], name="part-lists")
    ts = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=16)
    wk = ts._workers[0]
    none = HardConstraints.none(5)
    root = ts.allowed(none)
    answers = np.arange(lex.n_answers, dtype=np.int32)

    def parts(word: str, H: np.ndarray) -> list[tuple[int, np.ndarray]]:
        pats = np.array([feedback_code(word, lex.answers[a]) for a in H])
        return [(p, H[pats == p]) for p in sorted(set(pats.tolist()) - {feedback_code(word, word)})]

    checked = 0
    for word in lex.guesses[::12]:
        for p, H in parts(word, answers):
            if H.size <= 2:
                continue
            cons = none.add(word, p)
            legal = [g for g in range(lex.n_guesses) if hard_mode_legal(lex.guesses[g], [(word, p)])]
            cut = ts._part_list(wk, H, cons, (root, lex.id(word)), p, classes=False)
            assert cut.guesses.tolist() == legal
            assert (cut.hsig, cut.greens.tolist(), cut.mins.tolist()) == (
                ts.allowed(cons).hsig,
                cons.green_at.tolist(),
                cons.min_count.tolist(),
            )
            node = Allowed(cut.guesses.copy(), cut.hsig, cut.greens.copy(), cut.mins.copy())
            classes = ts._part_list(wk, H, cons, (root, lex.id(word)), p).guesses.copy()
            assert classes.tolist() == ts._by_classes(wk, H, ts.allowed(cons)).guesses.tolist()
            # a second row, from the part's own list (a big part's first guess's parts)
            second = lex.guesses[int(legal[len(legal) // 2])]
            for q, Hq in parts(second, H):
                if Hq.size <= 2:
                    continue
                rows = [(word, p), (second, q)]
                after = ts._part_list(wk, Hq, None, (node, lex.id(second)), q, classes=False)
                assert after.guesses.tolist() == [g for g in legal if hard_mode_legal(lex.guesses[g], rows)]
                assert after.hsig == ts.allowed(cons.add(second, q)).hsig
                checked += 1
    assert checked > 50


def _unwinnable_case():
    """Hard mode, 4 guesses: PIZZA leaves a part no strategy finishes (STARE does not)."""
    lex = _bigger_case()
    return lex, HardConstraints.none(5), lex.id("pizza"), lex.id("stare")


def test_parts_stop_at_the_first_one_that_cannot_be_won():
    """A first guess's parts solved one after another (biggest first) stop at the first that
    cannot be won within the cap: the total is INF, as the kernel's own search of the guess
    says, and the work is that of the parts up to that one, searched alone, no more."""
    lex, cons, pizza, _ = _unwinnable_case()
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    assert serial.value_of_guess(pizza, constraints=cons, parallel=False) >= INF
    halted = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    H = np.arange(lex.n_answers, dtype=np.int32)
    total, _ = halted.subtrees(pizza, H, 0, cons)
    assert total >= INF
    # the same parts by hand, in the same order, each searched to the end
    pats = np.array([feedback_code("pizza", a) for a in lex.answers])
    green = feedback_code("pizza", "pizza")
    keys = sorted((p for p in set(pats.tolist()) if p != green), key=lambda p: -(pats == p).sum())
    by_hand = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    for i, p in enumerate(keys):
        part = H[pats == p]
        if by_hand.node_value(part, rows=1, constraints=cons.add("pizza", p)) >= INF:
            break
    assert i < len(keys) - 1  # parts were left: the stop saved work
    assert halted.stats.nodes == by_hand.stats.nodes


def test_shared_out_parts_stop_when_one_cannot_be_won(monkeypatch):
    """On two threads, with big parts shared out: an unwinnable part stops the others (the
    search is told to halt), the total is INF, and the same search then values another first
    guess exactly as a serial search does (what was stopped left the table valid and the
    threads free)."""
    halts = []
    halt = TreeSearch._halt
    monkeypatch.setattr(TreeSearch, "_halt", lambda self: halts.append(1) or halt(self))
    lex, cons, pizza, stare = _unwinnable_case()
    serial = TreeSearch(lex, k=None, hard=True, max_guesses=4, threads=1, memory_mb=64)
    two = TreeSearch(
        lex, k=None, hard=True, max_guesses=4, threads=2, memory_mb=64, tuning=SearchTuning(split_part_min=6)
    )
    for _ in range(2):
        assert two.value_of_guess(pizza, constraints=cons, parallel=True) >= INF
        assert halts
        want = serial.value_of_guess(stare, constraints=cons, parallel=False)
        assert two.value_of_guess(stare, constraints=cons, parallel=True) == want < INF
        assert not any(wk.halted for wk in two._workers)


@pytest.mark.parametrize(
    "weighted,k,hard",
    [(False, None, False), (True, None, False), (False, 12, False), (True, 12, False), (False, 12, True)],
)
def test_shared_scan_orders_like_one_scan(weighted, k, hard):
    """A big node's scan shared out to the threads (each a share of the guesses, joined after),
    reading the patterns guess by guess or answer by answer, gives the same guesses in the same
    order as one scan of them all."""
    lex = _bigger_case()
    if weighted:
        rng = np.random.default_rng(5)
        lex = Lexicon.from_lists(lex.guesses, lex.answers, rng.random(lex.n_answers) + 0.01, name="w")
    H = np.arange(lex.n_answers, dtype=np.int32)
    cons = None
    if hard:  # a node after one row: the hard-mode guesses are the ones that keep its hints
        first = lex.guesses[0]
        codes = np.array([feedback_code(first, a) for a in lex.answers])
        pattern = int(np.bincount(codes).argmax())
        H = np.flatnonzero(codes == pattern).astype(np.int32)
        cons = HardConstraints.none(lex.length).add(first, pattern)
    orders = []
    # never shared; shared, read guess by guess (guesses x answers); shared, read answer by answer
    for pairs, density in ((1 << 62, 0), (0, 1 << 30), (0, 0)):
        tuning = SearchTuning(shared_scan_pairs=pairs, row_scan_density=density, row_scan_density_weighted=density)
        ts = TreeSearch(lex, k=k, hard=hard, threads=2, memory_mb=64, tuning=tuning)
        orders.append(ts.root_order(H, 5 if hard else 6, ts.allowed(cons)))
    assert orders[0].size > 10
    assert np.array_equal(orders[0], orders[1]) and np.array_equal(orders[0], orders[2])


@pytest.mark.parametrize("weighted", [False, True])
def test_rank_orders_its_node_from_the_scan_the_search_just_made(weighted, monkeypatch):
    """rank() searches the best guess, then orders the node's other guesses: that ordering reuses
    the node's scan from the search (rows of depth 0) instead of scanning again, and gives the
    order a fresh scan gives, at every node of a small game tree's second level."""
    from wordlebot.search import kernels as sk

    lex = _bigger_case()
    if weighted:
        rng = np.random.default_rng(9)
        lex = Lexicon.from_lists(lex.guesses, lex.answers, rng.random(lex.n_answers) + 0.01, name="w")
    reused = []
    order_scanned = sk._order_scanned

    def spy(*args):
        reused.append(1)
        return order_scanned(*args)

    monkeypatch.setattr(sk, "_order_scanned", spy)
    first = lex.id("raise") if "raise" in lex.guesses else 0
    codes = np.array([feedback_code(lex.guesses[first], a) for a in lex.answers])
    checked = 0
    for pattern in np.unique(codes)[:12].tolist():
        H = np.flatnonzero(codes == pattern).astype(np.int32)
        if H.size < 3:
            continue
        weights = "prior" if weighted else None
        ts = TreeSearch(lex, k=12, threads=1, memory_mb=64, weights=weights)
        before = len(reused)
        ts.rank(H, rows=1, top=5)
        fresh = TreeSearch(lex, k=12, threads=1, memory_mb=64, weights=weights).root_order(H, 5, ts.allowed())
        # reused whenever the search scanned the node (a node settled without a scan, by a
        # split into singletons among its answers, is scanned afresh)
        assert len(reused) - before in (0, 1) and np.array_equal(ts._last_order[1], fresh), pattern
        checked += len(reused) - before
    assert checked >= 4


def test_tiny_table_gives_the_same_answers():
    """A table far too small for the search is cleared over and over: slower, never different."""
    lex = _bigger_case()
    roomy = TreeSearch(lex, k=None, threads=1, memory_mb=128)
    tiny = TreeSearch(lex, k=None, threads=1, memory_mb=0.02)
    assert roomy.best() == tiny.best()
    assert tiny.stats.table_clears > 0


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # hashes wrap (as plain Python too)
def test_growing_table_keeps_its_entries():
    """The table starts small and doubles as it fills (entries moved to their new slots):
    every entry stored is found again with its own bounds (or missed, never another's),
    nearly all are kept, only the slots in use are touched, and emptying it starts it small."""
    import wordlebot.search.kernels as sk
    import wordlebot.search.tree_search as search_mod

    TT = search_mod._Worker.table(entries=1 << 12, pool=1 << 16, start_slots=16)
    assert TT.alloc[sk.A_MASK] + 1 == 16
    rng = np.random.default_rng(3)
    stored = {}
    while len(stored) < 1000:  # distinct answer sets, bounds that name them
        H = np.unique(rng.integers(0, 5000, int(rng.integers(1, 6)))).astype(np.int32)
        if tuple(H) not in stored:
            stored[tuple(H)] = float(len(stored))
    zob = rng.integers(1, 2**63, 5000, dtype=np.uint64)
    hsig, rem = np.uint64(7), np.int64(4)

    def key_of(H):
        return np.uint64(sk._tt_key(np.uint64(zob[H].sum(dtype=np.uint64)), rem, hsig))

    for H, lo in stored.items():
        H = np.array(H, np.int32)
        sk._tt_store(TT, key_of(H), H, rem, hsig, lo, lo + 0.5, np.int64(len(H)))
    size = TT.alloc[sk.A_MASK] + 1
    assert 4 * 1000 <= size < 8 * 1000 and TT.alloc[sk.A_HIGH] == size - 1
    assert not TT.ent[size:, sk.E_KEY].any()  # nothing written past the slots in use
    found = 0
    for H, lo in stored.items():
        H = np.array(H, np.int32)
        slot, got_lo, got_hi, g = sk._tt_find(TT, key_of(H), H, rem, hsig)
        if slot >= 0:
            assert (got_lo, got_hi, g) == (lo, lo + 0.5, len(H))
            found += 1
    assert found >= 990
    sk._tt_clear(TT)
    assert TT.alloc[sk.A_MASK] + 1 == 16 and not TT.ent[:, sk.E_KEY].any()
    H = np.array(next(iter(stored)), np.int32)
    assert sk._tt_find(TT, key_of(H), H, rem, hsig)[0] == -1


@pytest.mark.parametrize("hard", [False, True])
def test_table_growing_under_two_threads_gives_the_serial_tree(hard):
    """Both threads store while the shared table doubles under them, many times from 2
    slots: the values and trees are the serial search's."""
    import wordlebot.search.kernels as sk

    lex = _bigger_case()
    g = lex.id("stare")
    serial = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=128)
    v1 = serial.value_of_guess(g, constraints=HardConstraints.none(5) if hard else None)
    t1 = tr.paths_of(lex, serial.tree(g, constraints=HardConstraints.none(5) if hard else None))
    parallel = TreeSearch(
        lex, k=None, hard=hard, threads=2, memory_mb=128, tuning=SearchTuning(split_part_min=6, table_start_slots=2)
    )
    assert parallel.value_of_guess(g, parallel=True) == v1 < INF
    assert tr.paths_of(lex, parallel.tree(g)) == t1
    assert parallel._workers[0].TT.alloc[sk.A_HIGH] + 1 >= 2 * 2**4  # it grew, four times or more


@pytest.mark.parametrize("hard", [False, True])
def test_tree_replays_and_verifies(hard):
    lex = _bigger_case()
    ts = TreeSearch(lex, k=6, hard=hard, threads=2, memory_mb=128)
    node = ts.tree()
    paths = tr.paths_of(lex, node)
    assert sorted(paths) == sorted(lex.answers)
    summary = tr.TreeSummary.of(paths)
    assert summary.total == node.value
    for ans, path in paths.items():  # independent replay
        rows = []
        for g in path:
            if hard:
                assert hard_mode_legal(g, rows)
            rows.append((g, feedback_code(g, ans)))
        assert path[-1] == ans and len(path) <= 6
    meta = tr.header(lex, summary, words="big", hard=hard, max_guesses=6, search="k=6", first=path[0])
    rep = tr.verify_paths(lex, meta, [(i, p) for i, p in enumerate(paths.values())])
    assert rep.ok, rep.problems
    doc = tr.tree_json(lex, node)
    assert doc["guess"] == lex.guesses[node.guess] and doc["answers"] == lex.n_answers


def _verify(lex, paths, meta, **kw):
    return tr.verify_paths(lex, meta, [(i + 1, p) for i, p in enumerate(paths)], **kw)


def test_verify_catches_broken_trees(tmp_path):
    lex = _bigger_case()
    ts = TreeSearch(lex, k=4, threads=1, memory_mb=64)
    paths = tr.paths_of(lex, ts.tree())
    summary = tr.TreeSummary.of(paths)
    meta = tr.header(lex, summary, words="big", hard=False, max_guesses=6, search="k=4", first="x")
    good = [paths[a] for a in sorted(paths)]
    assert _verify(lex, good, meta).ok

    missing = good[1:]
    assert "have no path" in " ".join(_verify(lex, missing, meta).problems)

    # a different second guess for one answer: the strategy is no longer a function of history
    i = next(i for i, p in enumerate(good) if len(p) >= 3)
    other = next(w for w in lex.guesses if w not in good[i])
    broken = list(good)
    broken[i] = [good[i][0], other] + good[i][1:]
    assert "inconsistent strategy" in " ".join(_verify(lex, broken, meta).problems)

    bad_total = dict(meta, total=str(summary.total - 1))
    assert "header says total" in " ".join(_verify(lex, good, bad_total).problems)

    not_a_word = list(good)
    not_a_word[0] = ["zzzzz"] + good[0]
    assert "not an allowed guess" in " ".join(_verify(lex, not_a_word, meta).problems)

    too_long = list(good)
    too_long[0] = good[0] + [good[0][-1]]
    assert "the path goes on" in " ".join(_verify(lex, too_long, meta).problems)

    capped = _verify(lex, good, meta, max_guesses=2)
    assert any("over the cap" in p for p in capped.problems)

    other_lists = dict(meta, answers="3 sha256 0000")
    assert "sha256 mismatch" in " ".join(_verify(lex, good, other_lists).problems)


def test_verify_catches_hard_mode_violations():
    lex = _bigger_case()
    paths = tr.paths_of(lex, TreeSearch(lex, k=4, threads=1, memory_mb=64).tree())
    rows = [(i + 1, paths[a]) for i, a in enumerate(sorted(paths))]
    rep = tr.verify_paths(lex, {"mode": "hard"}, rows)
    normal_only = any(
        not hard_mode_legal(p[j], [(g, feedback_code(g, a)) for g in p[:j]])
        for a, p in paths.items()
        for j in range(len(p))
    )
    assert normal_only  # this normal-mode tree does break hard mode somewhere ...
    assert any("breaks hard mode" in p for p in rep.problems)  # ... and verify says so


def test_read_paths_reports_bad_lines(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("# total: 3\nabc DEF\n")
    with pytest.raises(tr.TreeFileError, match="line 2"):
        tr.read_paths(f)
    f.write_text("# only metadata\n")
    with pytest.raises(tr.TreeFileError, match="no paths"):
        tr.read_paths(f)


def test_rank_lists_alternatives_with_exact_values():
    lex = _bigger_case()
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=128)
    rows = ts.rank(top=4)
    assert rows[0] == ts.best()
    values = [v for _, v in rows]
    assert values == sorted(values)
    for g, v in rows:
        assert ts.value_of_guess(g) == v


def test_weighted_search_is_expected_guesses():
    lex, words = small_case(1, 30, "abcd", 4)
    w = np.linspace(1, 5, lex.n_answers)
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=64, weights=w)
    node = ts.tree()
    paths = tr.paths_of(lex, node)
    p = w / w.sum()
    expected = sum(p[lex.answers.index(a)] * len(path) for a, path in paths.items())
    assert abs(node.value - expected) < 1e-9


def test_depth_limited_search_estimates_and_still_plays():
    lex = _bigger_case()
    full = TreeSearch(lex, k=6, threads=1, memory_mb=64)
    limited = TreeSearch(lex, k=6, threads=1, memory_mb=64, depth=1)
    g, v = limited.best()
    assert g >= 0 and v > 0
    # with a depth limit, the chosen guess is still a sensible one: within 2 % of the full search
    assert full.value_of_guess(g) <= 1.02 * full.best()[1]
    with pytest.raises(ValueError, match="no depth limit"):
        TreeSearch(lex, k=None, depth=2)


# --- published optimal results (official lists) ---------------------------------------------


# every published optimum but nyt-3158 (100 s: benchmark only)
GOLDEN_FAST = [g for g in OPTIMAL_TOTALS if g[0] not in SLOW_SETS]


@pytest.mark.parametrize("words,first,hard,cap,total", GOLDEN_FAST)
def test_published_optimal_totals(official, words, first, hard, cap, total):
    lex = reference_lexicon(words, official)
    ts = TreeSearch(lex, k=None, hard=hard, max_guesses=cap, threads=2)
    node = ts.tree(lex.id(first))
    assert node.value == total
    paths = tr.paths_of(lex, node)
    summary = tr.TreeSummary.of(paths)
    meta = tr.header(lex, summary, words=words, hard=hard, max_guesses=cap, search="exact", first=first)
    rep = tr.verify_paths(lex, meta, [(i, paths[a]) for i, a in enumerate(sorted(paths))])
    assert rep.ok, rep.problems
    assert rep.summary.total == total and rep.summary.max <= cap


def test_near_optimal_finds_salet_on_its_own(official):
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("classic", data_dir=official)
    g, v = TreeSearch(lex, k=12, threads=2).best()
    assert v <= 7925 and lex.guesses[g] == "salet"


# ---------------------------------------------------------------------------------------------
# The checked entry points


def test_checked_entry_points_refuse_bad_ids_with_clear_errors():
    from wordlebot.core.errors import HardModeError, InvalidIdError, WordlebotError

    words = ["abcd", "abdc", "bacd", "cabd", "dcba", "adcb"]
    lex = Lexicon.from_lists(words + ["aaaa"], words, name="six")
    ts = TreeSearch(lex, k=None, threads=1, memory_mb=64)
    with pytest.raises(InvalidIdError, match="answer id 7 is out of range.*6 answers"):
        ts.best([0, 1, 7])
    with pytest.raises(InvalidIdError, match="answer id -1"):
        ts.rank([-1, 2])
    with pytest.raises(InvalidIdError, match="guess id 99 is out of range.*7 guesses"):
        ts.value_of_guess(99)
    with pytest.raises(InvalidIdError, match="integer"):
        ts.value_of_guess("abcd")
    with pytest.raises(InvalidIdError, match="no candidates"):
        ts.best([])
    with pytest.raises(InvalidIdError, match="rows played"):
        ts.best(rows=6)
    with pytest.raises(InvalidIdError, match="guess id 7"):
        ts.tree(first=7)
    assert issubclass(InvalidIdError, WordlebotError)
    # unsorted or repeated ids are fine: the same node
    assert ts.best([2, 0, 0, 1]) == ts.best([0, 1, 2])
    hard = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=64)
    cons = HardConstraints.none(4).add("abcd", feedback_code("abcd", "abdc"))  # A, B green; C, D yellow
    with pytest.raises(HardModeError, match="must"):
        hard.value_of_guess(lex.id("aaaa"), [1], rows=1, constraints=cons)


# ---------------------------------------------------------------------------------------------
# Warming up (prepare --kernels)


@pytest.mark.parametrize("hard", [False, True])
def test_warm_up_takes_the_paths_only_big_nodes_take_and_changes_no_answer(monkeypatch, hard):
    """``warm_up`` runs the kernels a small made-up lexicon never reaches (a big part shared out:
    its plan and refutations; a big node's scan shared out, read both ways), and what the search
    answers afterwards is what a fresh search answers."""
    import wordlebot.search.kernels as sk

    words = random_words(120, alphabet="aeorst", seed=7)
    lex = Lexicon.from_lists(words, words[::3], name="warm")
    calls = {}
    for name in ("_node_plan", "_try_guesses", "_scan_share", "_order_scanned"):
        kernel = getattr(sk, name)
        monkeypatch.setattr(sk, name, lambda *a, _k=kernel, _n=name: calls.update({_n: calls.get(_n, 0) + 1}) or _k(*a))
    warmed = TreeSearch(lex, k=None, hard=hard, threads=2, memory_mb=16)
    warmed.warm_up()
    assert calls.get("_node_plan", 0) >= 1 and calls.get("_try_guesses", 0) >= 1, calls
    assert calls.get("_scan_share", 0) >= 4 and calls.get("_order_scanned", 0) >= 1, calls  # 2 shares + 2 layouts
    fresh = TreeSearch(lex, k=None, hard=hard, threads=2, memory_mb=16)
    cons = HardConstraints.none(5) if hard else None
    assert warmed.best(constraints=cons) == fresh.best(constraints=cons)
    assert tr.paths_of(lex, warmed.tree(constraints=cons)) == tr.paths_of(lex, fresh.tree(constraints=cons))


def test_warm_up_refuses_a_real_sized_lexicon():
    """Sharing out a part of every answer of a real list would be a whole exact search."""
    words = random_words(1100, alphabet="abcdeorst", seed=9)
    lex = Lexicon.from_lists(words, words, name="big")
    with pytest.raises(ValueError, match="small made-up lexicon"):
        TreeSearch(lex, k=None, threads=2, memory_mb=16).warm_up()
    TreeSearch(lex, k=None, threads=2, memory_mb=16).warm_up(shared_parts=False)  # the scans alone are cheap
