"""Refuting first words in stages (the opener sweep's hard words), against the naive recursion."""

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code, hard_mode_legal, optimal_total, partition

from wordlebot.core.game import HardConstraints
from wordlebot.core.words import Lexicon
from wordlebot.search import kernels as sk
from wordlebot.search import refutation
from wordlebot.search.tree_search import INF, BudgetExceeded, SearchTuning, TreeSearch

GUESSES = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = GUESSES[::3]
LEX = Lexicon.from_lists(GUESSES, ANSWERS, name="small")


def naive_first_word_total(word):
    green = 3 ** len(word) - 1
    return len(ANSWERS) + sum(
        optimal_total(GUESSES, part, 5) for code, part in partition(word, ANSWERS).items() if code != green
    )


# Every word goes through the stages: the kernel gets no work of its own first.
STAGED_ALWAYS = SearchTuning(refute_quick_units=1)


@pytest.fixture(scope="module")
def classic_600(official):
    """The classic guesses against 600 of its answers: the one-scan bounds of the parts are loose
    there, as on the full lists (on made-up lists they are tight, and the stages never matter)."""
    from wordlebot.app.wordsets import load_lexicon

    full = load_lexicon("classic", data_dir=official, auto_fetch=False, notify=lambda m: None)
    return Lexicon.from_lists(full.guesses, full.answers[::3][:600], name="classic-600"), list(full.answers[:40])


def _truths(lex, words, hard):
    """Each first word's exact total by the kernel's own unbounded search (checked against the naive
    recursion and the published optima in test_search), on a search of its own."""
    cons = HardConstraints.none(5) if hard else None
    ref = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256)
    return {w: ref.value_of_guess(lex.id(w), constraints=cons, parallel=False) for w in words}, cons


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("rank", [0, 8])
def test_words_refuted_in_stages_are_bounded_truly_and_the_others_exact(classic_600, hard, rank):
    """A word below the bound gets its exact total, every other one a number at least the bound
    and at most its total.  Poor estimates (a near-optimal search of two guesses a node) leave
    some words short of the bound after the stages: the kernel then finishes them.  In hard mode
    the estimates come from a search with a failure cost, as the sweep makes them."""
    lex, words = classic_600
    truth, cons = _truths(lex, words, hard)
    bound = sorted(truth.values())[rank] + 0.5
    search = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256, tuning=STAGED_ALWAYS)
    near = TreeSearch(lex, k=2, kc=0, hard=hard, threads=1, memory_mb=64, fail_cost=8.0 if hard else None)
    short = 0
    with search.lane(), near.lane():
        for w in words:
            short += refutation.staged_bound(search, near, lex.id(w), bound, cons) < min(bound, truth[w])
        for w in words:
            v = refutation.value_against(search, near, lex.id(w), bound, cons)
            assert (v == truth[w]) if truth[w] < bound else (bound <= v <= truth[w]), w
    assert short > 0  # the kernel's part of the work was exercised


@pytest.mark.parametrize(
    "hard,big_from", [(False, None), (True, None), (True, 40)], ids=["normal", "hard", "hard-cheap-parts-first"]
)
def test_staged_bounds_are_lower_bounds_whatever_the_bound(classic_600, hard, big_from):
    """The stages alone, asked for less, as much and more than a word can give: what they return
    is at most the word's total (a part found exact below its target counts as exact).  With
    hard mode's threshold of dear parts lowered to 40 answers, these 600 answers leave both kinds
    (at the default, every part here is a cheap one)."""
    lex, words = classic_600
    tuning = SearchTuning() if big_from is None else SearchTuning(stage_big_hard=big_from)
    if big_from is not None:
        sizes = [len(p) for w in words[:20] for p in partition(w, list(lex.answers)).values()]
        assert any(s >= big_from for s in sizes) and any(tuning.stage_min <= s < big_from for s in sizes)
    truth, cons = _truths(lex, words[:20], hard)
    search = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256, tuning=tuning)
    near = TreeSearch(lex, k=2, kc=0, hard=hard, threads=1, memory_mb=64, fail_cost=8.0 if hard else None)
    with search.lane(), near.lane():
        for w, t in truth.items():
            for bound in (t - 20, t + 0.5, t + 60):
                assert refutation.staged_bound(search, near, lex.id(w), bound, cons) <= t, (w, bound)


def test_normal_mode_has_its_own_rounds_and_each_bounds_truly(classic_600):
    """SearchTuning.stage_rounds_normal caps normal mode's rounds, stage_rounds hard mode's: for
    each cap asked of the parts first (half their gap, 0.7 of it, all of it at once) the stages
    return at most each word's total, against a bound the word meets and one it cannot, and the
    caps change what is proven; hard mode reads stage_rounds, not them."""
    lex, words = classic_600
    truth, _ = _truths(lex, words[:12], False)
    proven = {}
    for rounds in ((0.5, 1.0), (0.7, 1.0), (1.0,)):
        search = TreeSearch(lex, k=None, threads=1, memory_mb=256, tuning=SearchTuning(stage_rounds_normal=rounds))
        near = TreeSearch(lex, k=2, kc=0, threads=1, memory_mb=64)
        got = []
        with search.lane(), near.lane():
            for w, t in truth.items():
                for bound in (t - 20, t + 0.5):
                    v = refutation.staged_bound(search, near, lex.id(w), bound)
                    assert v <= t, (rounds, w, bound)
                    got.append(v)
        proven[rounds] = got
    assert len({tuple(v) for v in proven.values()}) > 1  # the normal-mode caps are read
    cons = HardConstraints.none(5)
    hard = []
    for tuning in (SearchTuning(), SearchTuning(stage_rounds_normal=(1.0,)), SearchTuning(stage_rounds=(0.2,))):
        search = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=256, tuning=tuning)
        near = TreeSearch(lex, k=2, kc=0, hard=True, threads=1, memory_mb=64, fail_cost=8.0)
        with search.lane(), near.lane():
            hard.append([refutation.staged_bound(search, near, lex.id(w), 1e6, cons) for w in words[:6]])
    assert hard[0] == hard[1] != hard[2]  # hard mode's own caps are read, normal mode's are not


def test_an_allowance_stops_only_its_own_lane():
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    truth = naive_first_word_total(GUESSES[0])
    with pytest.raises(RuntimeError, match="needs a lane"):
        with search.allowance(1):
            pass
    with search.lane():
        with pytest.raises(BudgetExceeded):
            with search.allowance(1):
                search.value_of_guess(LEX.id(GUESSES[0]), parallel=False)
        # the allowance ends with its block
        assert search.value_of_guess(LEX.id(GUESSES[0]), parallel=False) == truth


def test_node_value_and_node_bound_against_the_naive_recursion():
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    parts = [p for p in partition(GUESSES[5], ANSWERS).values() if len(p) >= 3]
    assert parts
    for part in parts:
        H = np.array(sorted(LEX.answers.index(a) for a in part), np.int32)
        truth = optimal_total(GUESSES, part, 5)
        assert search.node_bound(H, rows=1) <= truth
        assert search.node_value(H, rows=1) == truth
        below = search.node_value(H, rows=1, beta=truth - 0.5)
        assert truth - 0.5 <= below <= truth


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_bounded_answers_are_lower_bounds_and_give_what_was_proven(classic_600, hard):
    """A search that fails low returns the least bound it proved of its guesses (fail-soft),
    not just the bound it was asked for: at least the bound, at most the truth, and more than the
    bound where the guesses' bounds say so.  Parts of first words, asked for targets from far
    below their value to just below it, each on a fresh search and again on the shared table
    (whose entries then hold what earlier calls proved)."""
    lex, words = classic_600
    cons0 = HardConstraints.none(5) if hard else None
    ref = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256)
    shared = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256)
    answers = list(lex.answers)
    above = 0
    asked = 0
    soft = 0  # proven more than asked where the node's own scan bound was short of the target
    for w in words[:6]:
        for code, part in partition(w, answers).items():
            if len(part) < 8 or code == 3**5 - 1:
                continue
            H = np.array(sorted(answers.index(a) for a in part), np.int32)
            cons = cons0.add(w, code) if hard else None
            truth = ref.node_value(H, rows=1, constraints=cons)
            scan = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=64).node_bound(H, rows=1, constraints=cons)
            for beta in (len(part) + 0.5, truth - 6, truth - 1, truth - 0.5):
                for fresh, search in (
                    (True, TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=64)),
                    (False, shared),
                ):
                    v = search.node_value(H, rows=1, constraints=cons, beta=beta)
                    assert beta <= v <= truth, (w, code, beta)
                    above += v > beta
                    asked += 1
                    soft += fresh and scan < beta and v > beta
            # and asked for more than it is worth: the truth itself
            assert shared.node_value(H, rows=1, constraints=cons, beta=truth + 3) == truth
    assert asked > 20 and soft > 0, (asked, above, soft)  # the soft bounds were exercised


@pytest.mark.parametrize("largest_first", [True, False], ids=["largest-first", "pattern-order"])
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_first_words_bounded_by_the_kernel_are_lower_bounds(classic_600, hard, largest_first):
    """value_of_guess against a bound: the exact total below it, else a number between the
    bound and the total (the forced guess's own proven bound), whichever order the guess's parts
    are tightened in (their scans are cut at what is left to refute it, so the order changes the
    bounds found, never their validity)."""
    lex, words = classic_600
    truth, cons = _truths(lex, words[:12], hard)
    tuning = SearchTuning(largest_first=largest_first)
    search = TreeSearch(lex, k=None, hard=hard, threads=1, memory_mb=256, tuning=tuning)
    best = min(truth.values())
    for w, t in truth.items():
        for bound in (best + 0.5, t - 3, t + 0.5):
            v = search.value_of_guess(lex.id(w), constraints=cons, beta=bound, parallel=False)
            assert (v == t) if t < bound else (bound <= v <= t), (w, bound)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_with_two_guesses_left_a_parts_bound_is_its_value(hard):
    """Two guesses left under a hard cap win only by a split into singletons, so the one-scan
    bound of such a part (what a guess's parts are tightened with before any recursion) is the
    part's value itself, INF where no allowed guess splits it (``two_left_exact``); without it
    the bound is the scan's least one-guess bound, below the value where no guess splits the
    part.  Against the naive recursion over the guesses the rules allow after the node's rows."""
    green = 3**5 - 1
    # the parts of a few first words (after their row: hard mode's rules), and runs of answers
    # too many for most guesses to split (no row)
    nodes = [(part, [(w, code)]) for w in GUESSES[:12] for code, part in partition(w, ANSWERS).items() if code != green]
    nodes += [(ANSWERS[i : i + n], []) for n in (12, 20, 28, 34) for i in range(0, 7, 2)]
    exact = below = unwinnable = 0
    for part, rows in nodes:
        if len(part) < 3:
            continue
        legal = [g for g in GUESSES if not hard or hard_mode_legal(g, rows)]
        truth = min(optimal_total(legal, sorted(part), 2), INF)  # the search's INF for inf
        H = np.array(sorted(LEX.answers.index(a) for a in part), np.int32)
        cons = HardConstraints.none(5)
        for w, code in rows:
            cons = cons.add(w, code)
        cons = cons if hard else None
        bound = TreeSearch(LEX, k=None, hard=hard, threads=1, memory_mb=64).node_bound(H, rows=4, constraints=cons)
        assert bound == truth, (rows, part, bound, truth)
        old = TreeSearch(
            LEX, k=None, hard=hard, threads=1, memory_mb=64, tuning=SearchTuning(two_left_exact=False)
        ).node_bound(H, rows=4, constraints=cons)
        assert old <= truth
        exact += 1
        below += old < truth
        unwinnable += truth == INF
    assert exact >= 10 and below >= 3 and unwinnable >= 3, (exact, below, unwinnable)


# Answers in families (equal but in one position: hard mode's traps) beside other words, and
# guesses that name several of a family's letters at once or none.
FAMILY_ANSWERS = sorted(
    [x + "ight" for x in "flmnrstw"]
    + ["ba" + x + "ed" for x in "ekrst"]
    + ["mat" + x + "s" for x in "ceh"]
    + ["crane", "doubt", "plumb", "sworn", "vexed"]
)
FAMILY_GUESSES = sorted(set(FAMILY_ANSWERS) | {"flint", "smart", "trawl", "newts", "baker", "chomp", "ghost", "kebab"})
FAMILY_LEX = Lexicon.from_lists(FAMILY_GUESSES, FAMILY_ANSWERS, name="families")


def _family_nodes(least):
    """The family case's nodes of ``least`` answers or more after one guess (but its answer), and
    the whole list: (answers, rows, the guesses the rules allow, answer ids, HardConstraints)."""
    green = 3**5 - 1
    nodes = [(part, [(w, code)]) for w in FAMILY_GUESSES for code, part in partition(w, FAMILY_ANSWERS).items()]
    nodes = [(part, rows) for part, rows in nodes if rows[0][1] != green and len(part) >= least]
    for part, rows in [*nodes, (FAMILY_ANSWERS, [])]:
        legal = [g for g in FAMILY_GUESSES if hard_mode_legal(g, rows)]
        H = np.array(sorted(FAMILY_LEX.answers.index(a) for a in part), np.int32)
        cons = HardConstraints.none(5)
        for w, code in rows:
            cons = cons.add(w, code)
        yield part, rows, legal, H, cons


def test_the_family_bound_proves_unwinnable_nodes_and_nothing_else():
    """Hard mode's traps: a family of m answers equal but in one position, against guesses that
    each name at most a few of its letters (the greens kept), cannot be won with fewer guesses
    than that allows.  The family bound (``family_cut``) settles such nodes and parts INF before
    any search; every value with it equals the naive recursion over the guesses the rules allow,
    including the nodes one guess short of the bound's reach (a family of four with four guesses
    left is won one letter at a time), and it fires on some nodes."""
    cut = unwinnable = winnable = 0
    for part, rows, legal, H, cons in _family_nodes(3):
        for left in (3, 4):
            truth = min(optimal_total(legal, sorted(part), left, hard=True), INF)
            search = TreeSearch(FAMILY_LEX, k=None, hard=True, threads=1, memory_mb=64)
            value = search.node_value(H, rows=6 - left, constraints=cons)
            assert value == truth, (rows, part, left, value, truth)
            assert search.node_bound(H, rows=6 - left, constraints=cons) == truth
            cut += search.stats.family_cuts > 0
            unwinnable += truth == INF
            winnable += truth < INF
    assert cut >= 5 and unwinnable >= 5 and winnable >= 5, (cut, unwinnable, winnable)


def test_unwinnable_cores_refute_guesses_and_nothing_else():
    """A node's part proven unable to win, whose hints add nothing to the node's (its "core"),
    refutes each later guess of the node that leaves it whole in one part: that part holds
    more answers under at least the node's hints, so it cannot be won either (winning is
    monotone).  Every value with the cores equals the naive recursion over the guesses the rules
    allow and the search's own without them, the nodes settled both ways, and the cores do
    refute guesses here (the family bound off, which would settle these traps first)."""
    refuted = unwinnable = winnable = 0
    for part, rows, legal, H, cons in _family_nodes(8):  # (cores are kept at nodes of 8 or more)
        for left in (3,):  # (with four left or more every node here can be won)
            truth = min(optimal_total(legal, sorted(part), left, hard=True), INF)
            values = []
            for on in (True, False):
                tuning = SearchTuning(family_cut=False, unwinnable_cores=on)
                search = TreeSearch(FAMILY_LEX, k=None, hard=True, threads=1, memory_mb=64, tuning=tuning)
                values.append(search.node_value(H, rows=6 - left, constraints=cons))
                refuted += search.stats.core_cuts if on else 0
                assert on or search.stats.core_cuts == 0
            assert values == [truth, truth], (rows, part, left, values, truth)
            unwinnable += truth == INF
            winnable += truth < INF
    assert refuted >= 20 and unwinnable >= 5 and winnable >= 3, (refuted, unwinnable, winnable)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_row_is_quiet_exactly_when_its_hints_add_nothing(seed):
    """``kernels._quiet`` (a part whose guesses are the node's, so it can hold a core) against
    HardConstraints.add: the row's hints leave the greens and every letter's count as they were."""
    words = random_words(60, alphabet="abcdeor", seed=seed)
    lex = Lexicon.from_lists(words, words, name="quiet")
    search = TreeSearch(lex, k=None, hard=True, threads=1, memory_mb=16)
    rng = np.random.default_rng(seed)
    quiet = loud = 0
    for _ in range(40):
        answer = words[rng.integers(len(words))]
        cons = HardConstraints.none(5)
        for w in rng.choice(words, size=int(rng.integers(0, 3)), replace=False):
            if cons.violation(w) is None:
                cons = cons.add(w, feedback_code(w, answer))
        allowed = search.allowed(cons)
        for g in allowed.guesses[:: max(1, allowed.guesses.size // 15)]:
            for other in rng.choice(words, size=5):
                p = feedback_code(words[g], other)
                after = cons.add(words[g], p)
                same = np.array_equal(after.green_at, cons.green_at) and np.array_equal(after.min_count, cons.min_count)
                assert bool(sk._quiet(search.S, allowed, np.int64(g), np.int64(p))) == same, (cons, words[g], p)
                quiet += same
                loud += not same
    assert quiet >= 20 and loud >= 20, (quiet, loud)
