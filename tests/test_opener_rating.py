"""One first word's exact value (app/opener_rating.py): the totals against the naive search and the
published optima, the rank among the words rated so far against hand-made stores, the store's
seal, and ``openers --exact --word`` as a player types it."""

import json
import re
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists
from naive import optimal_total

from wordlebot.app import opener_rating
from wordlebot.app.opener_journal import Journal
from wordlebot.app.opener_rating import (
    OpenerStore,
    RatingError,
    rate_first_word,
    rate_first_words,
)
from wordlebot.app.opener_sweep import SweepSpec
from wordlebot.cli import cli
from wordlebot.core import cache_store
from wordlebot.core.errors import InvalidWordError
from wordlebot.core.words import Lexicon, list_fingerprint
from wordlebot.search.kernels import INF

GUESSES = random_words(90, length=5, alphabet="abcdeorst", seed=7)
ANSWERS = GUESSES[::3]
NOT_ANSWER = GUESSES[1]  # a legal first guess that is not an answer
# an answer and a typo of it (its first two letters swapped) that is no word of the list
TYPED, TYPO = next((w, w[1] + w[0] + w[2:]) for w in ANSWERS if w[1] + w[0] + w[2:] not in GUESSES)


@pytest.fixture
def lex():
    return Lexicon.from_lists(GUESSES, ANSWERS, name="tiny")


@pytest.mark.parametrize("serial_units", [0, opener_rating.SERIAL_UNITS], ids=["on-threads", "serial-first"])
def test_totals_equal_the_naive_search(lex, tmp_path, monkeypatch, serial_units):
    """Each first word's exact total is the naive exhaustive search's optimum after that word,
    answers and mere guesses alike, normal and hard mode; the same whether the serial attempt
    finishes it or the search on threads does."""
    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", serial_units)
    words = [ANSWERS[0], ANSWERS[5], NOT_ANSWER, GUESSES[-1]]
    assert NOT_ANSWER not in ANSWERS
    for hard in (False, True):
        got = rate_first_words(SweepSpec(hard=hard), words, lexicon=lex, folder=tmp_path / str(hard))
        assert [r.word for r in got] == words
        for r in got:
            assert r.total == optimal_total(GUESSES, ANSWERS, 6, hard=hard, first=r.word)
            assert r.answers == len(ANSWERS) and r.mean == pytest.approx(r.total / len(ANSWERS))
            assert not r.cached and r.seconds >= 0


TIGHT = random_words(30, length=5, alphabet="abcdeor", seed=1)  # in hard mode within 2 guesses, some words cannot win


@pytest.mark.parametrize(
    "guesses, answers, hard, cap",
    [(GUESSES, ANSWERS, False, 6), (GUESSES, ANSWERS, True, 6), (GUESSES, ANSWERS, False, 3),
     (TIGHT, TIGHT[::2], True, 2)],
    ids=["normal", "hard", "cap-3", "hard-cap-2"],
)  # fmt: skip
def test_bounds_bracket_the_naive_optimum(tmp_path, monkeypatch, guesses, answers, hard, cap):
    """A word that takes a while is told at once: a proven floor at or below the naive search's
    optimum after it, and a near-optimal strategy's total at or above it (none where no
    strategy can win).  Told only for the words whose search did not finish within the serial
    allowance: on these tiny lists none at the default, every one at 0."""
    lex = Lexicon.from_lists(guesses, answers, name="tiny")
    words = guesses[::6][: 3 if hard else 5]  # answers and mere guesses (the naive hard search is slow)
    if cap == 2:  # words unable to win and words able to, both
        words = guesses[:8]
    truth = {w: optimal_total(guesses, answers, cap, hard=hard, first=w) for w in words}
    spec = SweepSpec(hard=hard, max_guesses=cap)
    told = []
    rate_first_words(spec, words, lexicon=lex, folder=tmp_path / "a", on_bounds=told.append)
    assert told == []
    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", 0)
    got = rate_first_words(spec, words, lexicon=lex, folder=tmp_path / "b", on_bounds=told.append)
    assert [b.word for b in told] == words
    for b, r in zip(told, got):
        best = truth[b.word]
        assert b.answers == len(answers) and 1 <= b.biggest < len(answers) and b.seconds >= 0
        lost = best == float("inf")
        assert r.total == (None if lost else best)  # the exact total is still the optimum
        assert b.lower is None or b.lower <= best
        if b.lower is None:
            assert lost  # proven unable to win
        if lost:
            assert b.upper is None  # no strategy wins: no strategy's total
        if b.upper is not None:
            assert best <= b.upper and b.upper_mean == pytest.approx(b.upper / len(answers))
    if cap == 2:  # both kinds are among the words
        assert {truth[w] == float("inf") for w in words} == {True, False}


def test_bounds_are_the_same_whatever_was_searched_before():
    """A word's bounds are a function of the lists, rules and word: the same on a fresh search
    and on one whose table holds the word's whole exact search (which would make the floor
    the exact total itself if the bounds read the table)."""
    from wordlebot.search.tree_search import TreeSearch

    words = random_words(3000, length=5, alphabet="abcdeilnorst", seed=3)  # floors below the totals
    lex = Lexicon.from_lists(words, words[::2], name="dense")
    near = opener_rating._near_search(SweepSpec(), lex, threads=1)
    below = 0
    for g in range(0, lex.n_guesses, 300):
        fresh = opener_rating.first_word_bounds(TreeSearch(lex, k=None, threads=1), near, g, None)
        search = TreeSearch(lex, k=None, threads=1)
        exact = search.value_of_guess(g)
        after = opener_rating.first_word_bounds(search, near, g, None)
        below += fresh.lower < exact  # (the floor below the total: the table would raise it)
        assert (after.lower, after.upper, after.biggest) == (fresh.lower, fresh.upper, fresh.biggest)
    assert below >= 2


@pytest.mark.parametrize("serial_units", [0, opener_rating.SERIAL_UNITS], ids=["on-threads", "serial-first"])
def test_a_word_that_cannot_win_has_no_total_and_no_rank(tmp_path, monkeypatch, serial_units):
    """Hard mode with a tight cap: some first words cannot find every answer; they are rated
    (and kept) as such, never given a number of guesses."""
    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", serial_units)
    guesses = random_words(30, length=5, alphabet="abcdeor", seed=1)
    answers = guesses[::2]
    lex = Lexicon.from_lists(guesses, answers, name="tight")
    truth = {w: optimal_total(guesses, answers, 2, hard=True, first=w) for w in guesses}
    losing = [w for w, t in truth.items() if t == float("inf")]
    winning = [w for w, t in truth.items() if t < float("inf")]
    assert losing and winning  # the lists are chosen so that both exist
    got = rate_first_words(SweepSpec(hard=True, max_guesses=2), [losing[0], winning[0]], lexicon=lex, folder=tmp_path)
    assert (got[0].total, got[0].rank, got[0].mean) == (None, None, None)
    assert got[1].total == truth[winning[0]] and got[1].rank == 1 and got[1].known == 2
    again = rate_first_word(SweepSpec(hard=True, max_guesses=2), losing[0], lexicon=lex, folder=tmp_path)
    assert again.cached and again.total is None


def test_known_totals_are_read_not_searched_again(lex, tmp_path):
    first = rate_first_word(SweepSpec(), ANSWERS[0], lexicon=lex, folder=tmp_path)
    again = rate_first_word(SweepSpec(), ANSWERS[0].upper(), lexicon=lex, folder=tmp_path)
    assert again.cached and again.seconds == 0 and again.total == first.total and again.word == ANSWERS[0]


def test_an_unknown_word_is_refused_before_any_search_with_near_words(lex, tmp_path):
    with pytest.raises(InvalidWordError, match=f"is not in the tiny guess list .*did you mean .*{TYPED.upper()}"):
        rate_first_words(SweepSpec(), [ANSWERS[1], TYPO], lexicon=lex, folder=tmp_path)
    assert not list(tmp_path.iterdir())  # nothing searched, nothing kept


def test_a_weighted_set_has_no_ratings(lex, tmp_path):
    weighted = Lexicon.from_lists(GUESSES, ANSWERS, weights=[1.0 + i for i in range(len(ANSWERS))], name="w")
    with pytest.raises(RatingError, match="weighted"):
        rate_first_word(SweepSpec(), ANSWERS[0], lexicon=weighted, folder=tmp_path)


# --- rank and gap against hand-made stores ----------------------------------------------------


def _store(lex, folder, **totals):
    store = OpenerStore.open(lex, False, 6, folder)
    store.record(totals)
    return OpenerStore.open(lex, False, 6, folder)  # read back from the file


def test_rank_counts_only_lower_totals_among_those_rated(lex, tmp_path):
    a, b, c, d, e = GUESSES[:5]
    store = _store(lex, tmp_path, **{a: 100, b: 97, c: 100, d: 103, e: None})
    r = store.rating(c)
    # b is lower; a ties (shares the rank); e cannot win: rated, below every total
    assert (r.rank, r.known, r.best, r.gap) == (2, 5, (b, 97), 3)
    assert not r.best_proven and not r.place_proven
    assert store.rating(a).rank == 2 and store.rating(d).rank == 4 and store.rating(b).gap == 0
    assert store.rating(e).rank is None and store.rating(e).gap is None


def test_a_finished_sweep_proves_the_best_and_the_places_below_its_bounds(lex, tmp_path):
    """A sweep over every first word that finished: its lowest bound says every word below it is
    known, so ranks below it are places among all first words; above it, only ranks among the
    rated.  A stopped sweep (or one over some words only) proves nothing of the others."""
    values = {w: (120.0 + i, False) for i, w in enumerate(GUESSES)}  # bounded, lowest 120
    values[GUESSES[7]] = (110.0, True)
    values[GUESSES[8]] = (118.0, True)
    values[GUESSES[9]] = (125.0, True)  # above the lowest bound: words bounded at 120 may beat it
    values[GUESSES[10]] = (INF, False)  # cannot win
    partial = OpenerStore.open(lex, False, 6, tmp_path / "partial")
    partial.record_sweep(values, complete=False)
    assert partial.complete_below is None
    r = partial.rating(GUESSES[8])
    assert (r.rank, r.known, r.best_proven, r.place_proven) == (2, 4, False, False)

    store = OpenerStore.open(lex, False, 6, tmp_path / "full")
    store.record_sweep(values, complete=True)
    store = OpenerStore.open(lex, False, 6, tmp_path / "full")
    assert store.complete_below == 120.0
    best, second, third = (store.rating(GUESSES[i]) for i in (7, 8, 9))
    assert best.best_proven and best.place_proven and best.rank == 1 and best.best == (GUESSES[7], 110)
    assert second.place_proven and second.rank == 2 and second.gap == 8
    assert third.best_proven and not third.place_proven and third.rank == 3 and third.known == 4

    some = OpenerStore.open(lex, False, 6, tmp_path / "some")
    some.record_sweep(dict(list(values.items())[:20]), complete=True)  # --candidates: not every word
    assert some.complete_below is None


def test_a_journal_feeds_the_store(lex, tmp_path):
    """An openers journal of the same lists and rules gives its exact totals (and, complete, its
    bounds); another sweep's journal is refused."""
    sweep = {
        "guesses": list_fingerprint(lex.guesses)[:16],
        "answers": list_fingerprint(lex.answers)[:16],
        "hard": False,
        "max_guesses": 6,
        "search": "exact",
        "keep": 1,
        "margin": 0.5,
    }
    j = Journal.start(tmp_path / "j.csv", sweep, resume=False)
    j.add([(GUESSES[0], 50.0, True, 0.1), (GUESSES[1], 52.5, False, 0.1)])
    store = OpenerStore.open(lex, False, 6, tmp_path / "s")
    store.record_journal(Journal.read(tmp_path / "j.csv"))
    assert store.totals == {GUESSES[0]: 50} and store.complete_below is None
    other = Journal.start(tmp_path / "k.csv", dict(sweep, hard=True), resume=False)
    with pytest.raises(RatingError, match="another sweep"):
        store.record_journal(other)


def test_two_writers_merge(lex, tmp_path):
    one = OpenerStore.open(lex, False, 6, tmp_path)
    two = OpenerStore.open(lex, False, 6, tmp_path)
    one.record({GUESSES[0]: 40})
    two.record({GUESSES[1]: 41})  # read before one wrote: still keeps one's total
    assert OpenerStore.open(lex, False, 6, tmp_path).totals == {GUESSES[0]: 40, GUESSES[1]: 41}


def test_the_store_is_per_lists_rules_and_cap(lex, tmp_path):
    OpenerStore.open(lex, False, 6, tmp_path).record({GUESSES[0]: 40})
    assert OpenerStore.open(lex, True, 6, tmp_path).totals == {}
    assert OpenerStore.open(lex, False, 5, tmp_path).totals == {}
    other = Lexicon.from_lists(GUESSES, ANSWERS[1:], name="tiny")
    assert OpenerStore.open(other, False, 6, tmp_path).totals == {}


# --- a damaged store -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    ["garbage", "cut", "edited", "other key", "not a word", "folder"],
)
def test_a_damaged_store_is_set_aside_and_rebuilt(lex, tmp_path, caplog, damage):
    store = OpenerStore.open(lex, False, 6, tmp_path)
    store.record({ANSWERS[0]: 1000, ANSWERS[1]: 1001})
    path = store.path
    text = path.read_text()
    if damage == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif damage == "cut":
        path.write_text(text[: len(text) // 2])
    elif damage == "edited":
        path.write_text(text.replace("1001", "999"))  # checksum no longer holds
    elif damage == "other key":
        other = OpenerStore.open(lex, True, 6, tmp_path)
        other.record({ANSWERS[0]: 5})
        path.write_text(other.path.read_text())  # another store's file under this name
    elif damage == "not a word":
        doc = json.loads(text)
        doc["totals"]["zzzzz"] = 3
        from wordlebot.core.cache_seal import seal

        path.write_text(json.dumps(seal({k: v for k, v in doc.items() if k not in ("key", "checksum")}, store.key)))
    else:
        path.unlink()
        path.mkdir()
    fresh = OpenerStore.open(lex, False, 6, tmp_path)
    assert fresh.totals == {}
    assert "store of exact first-word totals" in caplog.text and "it is made again" in caplog.text
    if damage != "folder":
        assert not path.exists() and (tmp_path / f".{path.name}.bad.part").exists()
    # and a rating goes on: its total is searched again and kept
    r = rate_first_word(SweepSpec(), ANSWERS[0], lexicon=lex, folder=tmp_path)
    assert r.total == optimal_total(GUESSES, ANSWERS, 6, first=ANSWERS[0]) and not r.cached


def test_the_cache_listing_knows_the_store(lex, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    OpenerStore.open(lex, False, 6).record({GUESSES[0]: 40})
    files = cache_store.scan(tmp_path)
    assert [(f.kind, f.words, f.current) for f in files] == [("rating", "tiny", True)]
    assert cache_store.clear(kind="rating", folder=tmp_path) and not cache_store.scan(tmp_path)


# --- determinism -----------------------------------------------------------------------------


def test_the_same_total_in_another_process_and_on_one_thread(lex, tmp_path):
    files = write_lists(tmp_path, GUESSES, ANSWERS)
    word = ANSWERS[3]
    here = rate_first_word(SweepSpec(), word, lexicon=lex, folder=tmp_path / "a", threads=2).total
    one = rate_first_word(SweepSpec(), word, lexicon=lex, folder=tmp_path / "b", threads=1).total
    code = textwrap.dedent(
        f"""
        from wordlebot.app.opener_rating import rate_first_word
        from wordlebot.app.opener_sweep import SweepSpec
        spec = SweepSpec(guesses={files[1]!r}, answers={files[3]!r})
        print(rate_first_word(spec, {word!r}, folder={str(tmp_path / "c")!r}).total)
        """
    )
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert here == one == int(there[-1]) == optimal_total(GUESSES, ANSWERS, 6, first=word)


# --- the published optima --------------------------------------------------------------------


@pytest.mark.parametrize("hard,total", [(False, 7920), (True, 8122)])
def test_salet_on_classic_is_the_published_optimum(official, tmp_path, hard, total):
    r = rate_first_word(SweepSpec(words="classic", data_dir=str(official), hard=hard), "salet", folder=tmp_path)
    assert r.total == total and r.answers == 2315


def test_slate_on_classic_ranks_second_to_salet(official, tmp_path):
    """SLATE's exact total on classic, 7,928, as Alex Selby's solver gives it (``-w slate``, run
    side by side on 2026-11-28), ranked behind SALET's published 7,920."""
    spec = SweepSpec(words="classic", data_dir=str(official))
    salet, slate = rate_first_words(spec, ["salet", "slate"], folder=tmp_path)
    assert (salet.total, slate.total) == (7920, 7928)
    assert (slate.rank, slate.known, slate.best, slate.gap) == (2, 2, ("salet", 7920), 8)
    assert salet.rank == 1 and not slate.best_proven


# --- the command line ------------------------------------------------------------------------


def run(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "cache"))  # a store of this test alone
    return write_lists(tmp_path, GUESSES, ANSWERS)


def test_cli_rates_ranks_and_remembers(files):
    truth = {w: optimal_total(GUESSES, ANSWERS, 6, first=w) for w in (ANSWERS[0], NOT_ANSWER)}
    better, worse = sorted(truth, key=lambda w: (truth[w], w))
    assert truth[better] < truth[worse]  # (the lists are chosen so)
    r = run(["openers", "--exact", "--word", ANSWERS[0], "--word", NOT_ANSWER.upper()] + files)
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert f"{better.upper()} {int(truth[better]):,} guesses in all" in said
    gap = int(truth[worse] - truth[better])
    assert (
        f"rank 2 of the 2 first words rated so far; {gap} guesses more than the best rated so far, "
        f"{better.upper()} {int(truth[better])}" in said
    )
    assert "the best is not proven" in said
    r = run(["openers", "--exact", "--word", ANSWERS[0]] + files)
    assert "known from an earlier run" in r.output


def test_cli_after_a_finished_sweep_says_proven(files):
    truth = {w: optimal_total(GUESSES, ANSWERS, 6, first=w) for w in GUESSES}
    best = min(truth.values())
    assert run(["openers", "--exact"] + files).exit_code == 0
    word = max(ANSWERS, key=lambda w: (truth[w], w))
    r = run(["openers", "--exact", "--word", word] + files)
    said = " ".join(r.output.split())
    assert r.exit_code == 0, r.output
    assert f"{int(truth[word] - best)} guesses more than the proven best" in said
    assert "not proven" not in said


def test_cli_tells_the_bounds_of_a_word_that_takes_a_while(files, monkeypatch):
    """A word whose search goes past the serial allowance (forced here: 0) is given its bounds
    before its exact total, each in figures that bracket the naive optimum."""
    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", 0)
    word = NOT_ANSWER
    best = int(optimal_total(GUESSES, ANSWERS, 6, first=word))
    r = run(["openers", "--exact", "--word", word] + files)
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    most, least = re.search(
        rf"{word.upper()} at most ([\d,]+) guesses in all .* at least ([\d,]+) \(proven\)", said
    ).groups()
    assert int(least.replace(",", "")) <= best <= int(most.replace(",", ""))
    assert "its biggest part holds" in said and f"of the {len(ANSWERS)} answers" in said
    assert said.index(" at most ") < said.index(f"{word.upper()} {best:,} guesses in all")  # bounds first


def test_cli_bounds_of_a_word_that_cannot_win(tmp_path, monkeypatch):
    """Hard mode, 2 guesses: a word that cannot win is never given an "at most" (no strategy
    has a total); its line says the floor, or that the parts' bounds prove it."""
    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", 0)
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "cache"))
    files = write_lists(tmp_path, TIGHT, TIGHT[::2])
    losing = [w for w in TIGHT[:8] if optimal_total(TIGHT, TIGHT[::2], 2, hard=True, first=w) == float("inf")]
    assert losing
    for w in losing:
        r = run(["openers", "--exact", "--hard", "--max-guesses", "2", "--word", w] + files)
        said = " ".join(r.output.split())
        assert r.exit_code == 0 and f"{w.upper()} cannot find every answer within 2 guesses" in said, said
        assert said.count(" at most ") == 1  # the header's "at most 2 guesses" alone
        assert (
            f"{w.upper()}: the near-optimal search finds no way to win within 2 guesses after it; if there is "
            "one, it takes at least"
            in said
            or "(proven by its parts' bounds)" in said
        )


def test_cli_stopped_rating_says_what_it_knew(files, monkeypatch):
    """Ctrl+C while a word is searched after its bounds: the bounds are said again, no total,
    exit 130, no traceback; a word finished before the stop keeps its total."""
    from wordlebot.search.tree_search import TreeSearch

    monkeypatch.setattr(opener_rating, "SERIAL_UNITS", 0)
    plain = TreeSearch.value_of_guess

    def stop_on_the_second(self, guess, *a, **kw):
        if self.k is None and kw.get("parallel") is None and self.lexicon.guesses[guess] == NOT_ANSWER:
            raise KeyboardInterrupt  # the exact search on threads of the second word
        return plain(self, guess, *a, **kw)

    monkeypatch.setattr(TreeSearch, "value_of_guess", stop_on_the_second)
    r = CliRunner().invoke(cli, ["openers", "--exact", "--word", ANSWERS[0], "--word", NOT_ANSWER] + files)
    assert r.exit_code == 130 and "Traceback" not in r.output
    said = " ".join(r.output.split())
    assert re.search(rf"stopped: {NOT_ANSWER.upper()} at most [\d,]+ guesses in all .* no exact total", said)
    assert "interrupted" in said and f"stopped: {ANSWERS[0].upper()}" not in said  # that one finished
    monkeypatch.setattr(TreeSearch, "value_of_guess", plain)
    r = run(["openers", "--exact", "--word", ANSWERS[0]] + files)
    assert "known from an earlier run" in r.output


def test_cli_typo_and_misuse(files):
    word = ANSWERS[0]
    r = run(["openers", "--exact", "--word", TYPO] + files)
    assert r.exit_code == 1 and "is not in the" in r.output and f"did you mean {TYPED.upper()}" in r.output
    assert "Traceback" not in r.output and "guesses in all" not in r.output
    r = run(["openers", "--exact", "--word", "ab"] + files)
    assert r.exit_code == 1 and "Traceback" not in r.output
    r = run(["openers", "--word", word] + files)
    assert r.exit_code == 2 and "add --exact" in r.output
    r = run(["openers", "--exact", "--word", word, "--keep", "3"] + files)
    assert r.exit_code == 2 and "--keep is for a sweep of all first words" in r.output


def test_a_stopped_sweep_keeps_its_exact_totals(files, monkeypatch):
    """Ctrl+C in an openers --exact sweep: the totals found so far are in the store (a rating
    reads them), its bounds are not (the words it had not reached may be better)."""
    from wordlebot.app import opener_sweep

    truth = {w: optimal_total(GUESSES, ANSWERS, 6, first=w) for w in GUESSES[:2]}

    def stopped(spec, words, *, on_result=None, **kw):
        on_result(GUESSES[0], truth[GUESSES[0]], True)
        on_result(GUESSES[1], truth[GUESSES[1]] + 0.5, False)  # a bound only
        raise KeyboardInterrupt

    monkeypatch.setattr(opener_sweep, "sweep", stopped)
    r = CliRunner().invoke(cli, ["openers", "--exact"] + files)
    assert r.exit_code == 130
    r = run(["openers", "--exact", "--word", GUESSES[0]] + files)
    assert "known from an earlier run" in r.output and "the only first word rated so far" in r.output
    assert "not proven" in r.output


def test_cli_rating_needs_no_dask(files, monkeypatch):
    """--word searches on this machine: without the dask extra it works; a sweep still says
    which extra it needs."""
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    r = run(["openers", "--exact", "--word", ANSWERS[0]] + files)
    assert r.exit_code == 0 and "guesses in all" in r.output, r.output
    r = CliRunner().invoke(cli, ["openers", "--exact"] + files)
    assert r.exit_code == 1 and "needs the 'dask' extra" in r.output


# --- stopping a search from another thread (a Ctrl+C while a kernel runs) ---------------------

SLOW = random_words(6000, length=5, alphabet="abcdeilnorstu", seed=3)  # its first word's search: many seconds


def test_stop_ends_a_search_under_way_and_every_call_after():
    """(The search's side of a rating's Ctrl+C; not in the kernels' plain-Python run, where
    this lexicon's matrix alone would take minutes.)  ``stop`` from another thread: the search under way raises SearchStopped instead of
    returning (its first word needs many seconds, far beyond the moment of the stop), and so
    does every later call on the same search."""
    import threading
    import time

    from wordlebot.search.tree_search import SearchStopped, TreeSearch

    lex = Lexicon.from_lists(SLOW, SLOW[::2], name="slow")
    search = TreeSearch(lex, k=None, threads=1)
    got = {}

    def run():
        try:
            got["value"] = search.value_of_guess(0, parallel=False)
        except BaseException as exc:
            got["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(1.0)
    assert thread.is_alive()  # still searching
    search.stop()
    thread.join(60)
    assert not thread.is_alive() and isinstance(got.get("error"), SearchStopped), got
    with pytest.raises(SearchStopped):
        search.value_of_guess(1, parallel=False)


def test_ctrl_c_stops_a_rating_on_one_thread_at_once(tmp_path):
    """A real SIGINT to ``openers --exact --word W --workers 1`` once W's bounds are out: the
    search (one kernel call on the one thread, far longer than the test: its biggest part holds
    4,006 of the 6,000 answers; over 200 s when tried) is stopped at once, the bounds said
    again, exit 130.  Without the rating's own thread the interrupt would wait for the kernel
    to return: the wait below would run out.  The child gets Ctrl+C's default handling, as a
    command typed at a terminal has it, however the suite was started (a suite run in the
    background by a script inherits SIGINT ignored, as the shell sets it so, and so would the
    child: see test_search_cli.py for that case)."""
    import os
    import signal
    import time

    words = random_words(12000, length=5, alphabet="abcdeilnorstu", seed=3)
    files = write_lists(tmp_path, words, words[::2])
    env = {**os.environ, "WORDLEBOT_CACHE": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "wordlebot", "openers", "--exact", "--word", words[0], "--workers", "1", *files]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        seen = []
        for line in proc.stderr:  # (the bounds are said on stderr, as the search goes on)
            seen.append(line)
            if " at least " in line:
                break
        time.sleep(2)  # the search under way (a stop right after the line can land before it starts)
        proc.send_signal(signal.SIGINT)
        out, rest = proc.communicate(timeout=60)
    finally:
        proc.kill()
    said = " ".join(("".join(seen) + rest + out).split())
    assert proc.returncode == 130, said
    assert f"stopped: {words[0].upper()} at most" in said and "no exact total" in said
    assert "guesses in all, average" not in said and "Traceback" not in said
