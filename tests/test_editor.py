"""The editor model (answers/editor.py, answers/clogit.py): its likelihood against the textbook
conditional logit, its fit against parameters it simulated, the prior's guarantees (a function
of the history before the day, bit for bit; every word above the floor; the same in another
process and thread), the four-number baseline by hand, and on the official history: the
2026-06-01 example and the group shares against counts taken from the history by hand."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import threading

import naive
import numpy as np
import pytest
from conftest import random_words

from wordlebot.answers import clogit, editor
from wordlebot.answers.editor import EditorModel, WordFacts, fit
from wordlebot.answers.mixture import mixture_prior
from wordlebot.core.data import HistoryEntry

DAY = dt.timedelta(days=1)


# --- the likelihood against the textbook ---------------------------------------------------------


def _random_fresh_days(seed: int, words: int = 70, days: int = 45, groups: int = 4, k: int = 2) -> clogit.FreshDays:
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, words)
    first = rng.integers(0, 4, words)  # few letters: many days share one with the day before
    last = rng.integers(0, 4, words)
    # a history that repeats some words; the fresh days from the 8th on are scored
    day_word = rng.integers(0, words, days)
    seen: set[int] = set()
    fresh = np.zeros(days, bool)
    for t, w in enumerate(day_word.tolist()):
        fresh[t] = w not in seen
        seen.add(w)
    train = fresh & (np.arange(days) >= 8)
    prev_first = np.where(np.arange(days) > 0, np.roll(first[day_word], 1), -1)
    prev_last = np.where(np.arange(days) > 0, np.roll(last[day_word], 1), -1)
    prev_first[5] = prev_last[5] = -1  # a day whose day before is unknown
    return clogit.FreshDays(
        rng.normal(size=(words, 3)),
        group,
        first,
        last,
        day_word,
        fresh,
        train,
        prev_first,
        prev_last,
        rng.normal(size=(days, groups, k)),
        groups,
    )


def _textbook_days(d: clogit.FreshDays) -> list[tuple[np.ndarray, int]]:
    """Each scored day as (phi of the day's unused words, the chosen row), built word by word."""
    out = []
    used: set[int] = set()
    for t in range(d.day_word.size):
        if d.train[t]:
            cands = [w for w in range(d.features.shape[0]) if w not in used]
            rows = []
            for w in cands:
                known = d.prev_first[t] >= 0
                rows.append(
                    np.r_[
                        d.features[w],
                        d.day_features[t, d.group[w]],
                        float(known and d.first[w] == d.prev_first[t]),
                        float(known and d.last[w] == d.prev_last[t]),
                    ]
                )
            out.append((np.array(rows), cands.index(int(d.day_word[t]))))
        if d.day_fresh[t]:
            used.add(int(d.day_word[t]))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_fresh_likelihood_is_the_textbook_conditional_logit(seed):
    d = _random_fresh_days(seed)
    theta = np.random.default_rng(seed + 10).normal(scale=0.7, size=3 + 2 + 2)
    f, g, h = clogit._fresh_objective(theta, d, True)
    nf, ng, nh = naive.conditional_logit(theta, _textbook_days(d))
    assert f == pytest.approx(nf, rel=1e-10)
    np.testing.assert_allclose(g, ng, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(h, nh, rtol=1e-8, atol=1e-9)
    f_only = clogit._fresh_objective(theta, d, False)[0]
    assert f_only == f


def test_the_choice_likelihood_is_the_textbook_conditional_logit():
    rng = np.random.default_rng(4)
    sizes = [5, 1, 9, 3]
    blocks = [rng.normal(size=(n, 3)) for n in sizes]
    chosen = [int(rng.integers(0, n)) for n in sizes]
    start = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    theta = rng.normal(size=3)
    f, g, h = clogit._choice_objective(theta, np.vstack(blocks), start, start[:-1] + np.array(chosen), True)
    nf, ng, nh = naive.conditional_logit(theta, list(zip(blocks, chosen)))
    assert f == pytest.approx(nf, rel=1e-12)
    np.testing.assert_allclose(g, ng, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h, nh, rtol=1e-10, atol=1e-12)


def test_newton_recovers_the_parameters_it_simulated():
    """Choices drawn from a known conditional logit over a shrinking pool: the fit lands within
    four standard errors of every true coefficient (its curvature gives the errors)."""
    rng = np.random.default_rng(7)
    words, days, groups = 3000, 900, 3
    x = rng.normal(size=(words, 2))
    group = rng.integers(0, groups, words)
    first = rng.integers(0, 26, words)
    last = rng.integers(0, 26, words)
    # static: [x1, x2, group 1, group 2]; day: [a trend on group 1]; letters: same first, same last
    X = np.column_stack([x, group == 1, group == 2]).astype(np.float64)
    trend = np.linspace(-1, 1, days)
    U = np.zeros((days, groups, 1))
    U[:, 1, 0] = trend
    truth = np.array([0.8, -0.5, 1.0, -0.7, 0.9, -0.6, -0.4])
    used = np.zeros(words, bool)
    chosen = np.zeros(days, np.int64)
    for t in range(days):
        s = X @ truth[:4] + truth[4] * U[t, group, 0]
        if t > 0:
            p = chosen[t - 1]
            s = s + truth[5] * (first == first[p]) + truth[6] * (last == last[p])
        s[used] = -np.inf
        prob = np.exp(s - s.max())
        chosen[t] = rng.choice(words, p=prob / prob.sum())
        used[chosen[t]] = True
    prev_first = np.r_[-1, first[chosen[:-1]]]
    prev_last = np.r_[-1, last[chosen[:-1]]]
    d = clogit.FreshDays(
        X, group, first, last, chosen, np.ones(days, bool), np.ones(days, bool), prev_first, prev_last, U, groups
    )
    res = clogit.fit_fresh(d, np.full(7, 1e-9))
    assert res.converged
    _, _, h = clogit._fresh_objective(res.theta, d, True)
    se = np.sqrt(np.diag(np.linalg.inv(h)))
    assert np.all(np.abs(res.theta - truth) < 4 * se), (res.theta, truth, se)
    assert np.all(se < 0.25)  # not vacuous: the data pins every coefficient down


# --- the prior's guarantees on a small made-up folder ----------------------------------------------

WORDS = random_words(260, alphabet="abcdeilnorst", seed=31)
NYT, BOT = WORDS[:90], WORDS[:90] + WORDS[90:130]
LISTS = {"nyt-2309": NYT, "wordlebot-3158": BOT, "classic": NYT + WORDS[130:132]}


def _history(start: dt.date = dt.date(2026, 1, 1), seed: int = 5) -> list[HistoryEntry]:
    """80 days: 70 fresh words (64 of the NYT list, 6 WordleBot-only ones on every tenth day),
    then repeats of the first three answers, then 7 more fresh NYT-list words."""
    rng = np.random.default_rng(seed)
    nyt = [str(w) for w in rng.permutation(NYT)[:71]]
    bot = [str(w) for w in rng.permutation(WORDS[90:130])[:6]]
    fresh = []
    for k in range(70):
        fresh.append(bot.pop() if k % 10 == 5 and bot else nyt.pop())
    words = fresh + fresh[:3] + nyt[:7]
    return [HistoryEntry(start + k * DAY, w) for k, w in enumerate(words)]


@pytest.fixture(scope="module")
def facts():
    return WordFacts.build(WORDS, LISTS)


def test_a_days_prior_is_a_function_of_the_history_before_it_bit_for_bit(facts):
    history = _history()
    day = history[60].date
    before = history[:60]
    model = fit(facts, before)
    p = model.prior(before, on=day)
    assert np.array_equal(model.prior(history, on=day), p)  # the file also holds the day and after
    assert np.array_equal(fit(facts, [e for e in history if e.date < day]).prior(history, on=day), p)
    i = WORDS.index(history[60].word)
    assert p[i] > editor.FLOOR  # the day's own answer is not treated as used
    assert not np.array_equal(model.prior(history[:61], on=day + DAY), p)  # not vacuous


def test_every_word_keeps_the_floor_and_the_prior_sums_to_one(facts):
    history = _history()
    model = fit(facts, history)
    p = model.prior(history, on=history[-1].date + DAY)
    assert abs(p.sum() - 1) < 1e-12 and p.min() >= editor.FLOOR
    parts = model.parts(history, history[-1].date + DAY)
    used = {e.word for e in history}
    assert parts.used.sum() == len(used) and np.all(parts.fresh[parts.used] == 0)
    assert np.all(parts.repeat[~parts.used] == 0) and abs(parts.repeat.sum() - 1) < 1e-12
    # the repeat share by hand: 3 repeats in the 10 days since the first (days 71-80): (3 + 1) / (10 + 2)
    assert len(history) == 80 and parts.rho == pytest.approx(4 / 12)


def test_a_fit_is_the_same_in_another_thread_and_another_process(facts):
    history = _history()
    mine = fit(facts, history)
    results = []
    threads = [threading.Thread(target=lambda: results.append(fit(facts, history))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for other in results:
        assert other.fresh == mine.fresh and other.repeat == mine.repeat
    code = (
        "import json, sys, datetime as dt\n"
        "from wordlebot.answers.editor import WordFacts, fit\n"
        "from wordlebot.core.data import HistoryEntry\n"
        "doc = json.load(sys.stdin)\n"
        "facts = WordFacts.build(doc['words'], doc['lists'])\n"
        "h = [HistoryEntry(dt.date.fromisoformat(d), w) for d, w in doc['history']]\n"
        "m = fit(facts, h)\n"
        "print(json.dumps({'fresh': {k: v.hex() for k, v in m.fresh.items()},"
        " 'repeat': {k: v.hex() for k, v in m.repeat.items()}}))\n"
    )
    doc = {"words": WORDS, "lists": LISTS, "history": [[e.date.isoformat(), e.word] for e in history]}
    out = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(doc), capture_output=True, text=True, check=True
    ).stdout
    theirs = json.loads(out)
    assert theirs == {
        "fresh": {k: v.hex() for k, v in mine.fresh.items()},
        "repeat": {k: v.hex() for k, v in mine.repeat.items()},
    }


def test_a_stored_model_gives_the_same_prior_and_a_damaged_one_is_refused(facts, tmp_path):
    from wordlebot.core.errors import DataError

    history = _history()
    model = fit(facts, history)
    path = tmp_path / "m.json"
    model.save(path)
    back = EditorModel.load(path, WORDS)
    on = history[-1].date + DAY
    assert np.array_equal(back.prior(history, on), model.prior(history, on))
    for damage in (
        "{",
        "[]",
        json.dumps({**model.to_json(), "fresh": {"nyt_list": "x"}}),
        json.dumps({**model.to_json(), "repeat": {k: float("nan") for k in editor.REPEAT_FEATURES}}),
        json.dumps({**model.to_json(), "facts": {**model.facts.to_json(), "group": [9] * len(WORDS)}}),
        json.dumps({**model.to_json(), "version": 2}),
    ):
        path.write_text(damage)
        with pytest.raises(DataError):
            EditorModel.load(path, WORDS)
    path.write_text(json.dumps(model.to_json()))
    with pytest.raises(DataError, match="another word list"):
        EditorModel.load(path, WORDS[:-1])


# --- the four-number mixture, by hand ------------------------------------------------------------


def test_the_mixture_by_hand():
    """Six words: A, B in the NYT list, C WordleBot-only, D, E, F in no list.  History: 2021-06-19
    A, 2021-06-20 C, 2026-02-01 A again.  On 2026-02-02, days since the first repeat: 1, repeats
    1: rho = 2/3.  Fresh answers in the last 365 days: none, so the shares are (0+1/2) each of
    NYT, WordleBot-only, other: 1/3 each, spread over the unused B; over no unused WordleBot-only
    word (C is used: its share goes to the others, 1/2 each); over D, E, F (1/6 each).  Past
    answers A, C, both 2021: 1/2 each of rho."""
    words = ["aaaaa", "bbbbb", "ccccc", "ddddd", "eeeee", "fffff"]
    facts = WordFacts.build(words, {"nyt-2309": words[:2], "wordlebot-3158": words[:3]})
    history = [
        HistoryEntry(dt.date(2021, 6, 19), "aaaaa"),
        HistoryEntry(dt.date(2021, 6, 20), "ccccc"),
        HistoryEntry(dt.date(2026, 2, 1), "aaaaa"),
    ]
    p = mixture_prior(facts, history, dt.date(2026, 2, 2))
    rho = 2 / 3
    want = [rho / 2, (1 - rho) / 2, rho / 2, (1 - rho) / 6, (1 - rho) / 6, (1 - rho) / 6]
    np.testing.assert_allclose(p, want, rtol=1e-12)


# --- the official history ------------------------------------------------------------------------

JUNE1 = dt.date(2026, 6, 1)


@pytest.fixture(scope="module")
def june1(official, session_cache):
    from wordlebot.answers.daily import prior_for_day
    from wordlebot.core.words import read_word_file

    words = read_word_file(official / "nyt/guesses.txt")
    return prior_for_day(official, words, JUNE1, build=True, folder=session_cache)


def test_june_1_no_longer_ties_the_nyt_list_with_the_wordlebot_only_words(june1):
    p = dict(zip(june1.model.words, june1.weights))
    # before: CHEWY, WADER, BATED, FIXED, SPUNK, TAKER, SCALP all 0.000784 (850 words tied)
    for nyt in ("spunk", "taker", "scalp"):
        for bot in ("chewy", "wader", "bated", "fixed"):
            assert p[nyt] > 5 * p[bot], (nyt, bot)
    listed = (june1.model.facts.group <= editor.BOT_ONLY) & ~june1.parts.used
    ties = np.unique(june1.weights[listed], return_counts=True)[1]
    assert listed.sum() == 554 + 818 and ties.max() < 30  # no block of hundreds of listed words at one value


def test_june_1_group_shares_against_counts_taken_by_hand(june1):
    """The counts, read off the history file by hand (grep and wc on history/answers.csv):
    on 2026-05-31 after ETUDE, 554 NYT-list words and 818 WordleBot-only words are unused; 13
    of the 119 days 2026-02-02 … 05-31 repeated an answer; of the 352 fresh answers of
    2025-06-01 … 2026-05-31, 328 came from the NYT list, 22 from the WordleBot list only, 2
    from no list (LORIS, KEFIR)."""
    from wordlebot.answers.odds import PAST, groups

    g = groups(june1.model, june1.parts)
    assert g[editor.NYT_LIST].words == 554 and g[editor.BOT_ONLY].words == 818
    assert june1.parts.rho == pytest.approx((13 + 1) / (119 + 2))
    fresh = 1 - june1.parts.rho
    # the model's own shares are fitted over all the editor's days, with a trend: near the
    # year's counts, not equal to them
    assert g[editor.NYT_LIST].share == pytest.approx(fresh * 328 / 352, abs=0.04)
    assert fresh * 22 / 352 < g[editor.BOT_ONLY].share < fresh * 0.12  # rising: 2025 4.7 %, 2026 8 % of fresh days
    assert g[editor.OTHER].share < 0.01
    assert g[PAST].share == pytest.approx(june1.parts.rho, abs=1e-3)
    # per unused word, the NYT list against the WordleBot-only words: the "about 17x"
    ratio = (g[editor.NYT_LIST].share / 554) / (g[editor.BOT_ONLY].share / 818)
    assert 10 < ratio < 25


def test_the_nyt_set_carries_the_days_groups_for_every_shell(official, session_cache, monkeypatch):
    from wordlebot.app.wordsets import load_lexicon

    monkeypatch.setenv("WORDLEBOT_CACHE", str(session_cache))
    lex = load_lexicon("nyt", data_dir=official, day=JUNE1, build_model=True)
    g = lex.groups
    assert g is not None and g.size[editor.NYT_LIST] == 554 and g.size[editor.BOT_ONLY] == 818
    assert sum(g.size) == lex.n_answers and sum(g.share) == pytest.approx(1.0)
    # a group's share is the prior's mass on its words
    for k in range(len(g.size)):
        assert lex.prior[g.of_answer == k].sum() == pytest.approx(g.share[k], rel=1e-9)
    assert g.short[g.of_answer[lex.answer_of_guess[lex.id("spunk")]]] == "NYT list"
    assert g.short[g.of_answer[lex.answer_of_guess[lex.id("cigar")]]] == "past answer"
    assert g.texts[editor.NYT_LIST].endswith("of days draw one of these 554 words")


def test_the_readmes_answers_show_example_is_what_the_command_prints(official, session_cache, monkeypatch):
    import re
    from pathlib import Path

    from click.testing import CliRunner

    from wordlebot.cli import cli

    monkeypatch.setenv("WORDLEBOT_CACHE", str(session_cache))
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = re.search(r"answers\nshow spunk chewy --date 2026-06-01`\).*?```text\n(.*?)```", readme, re.S).group(1)
    r = CliRunner().invoke(
        cli, ["--data-dir", str(official), "answers", "show", "spunk", "chewy", "--date", "2026-06-01"]
    )
    assert r.exit_code == 0, r.output
    printed = [line.rstrip() for line in r.stdout.splitlines()]
    for line in block.splitlines():
        assert line in printed, line


def test_a_fit_at_the_optimum_to_rounding_stops_there(official, monkeypatch):
    """The history before 2026-02-06 leaves the fresh fit's gradient at 7e-6 where no step can
    lower f (its tolerance is 1.2e-6): Newton once ran its 60 iterations there, halving each step
    ~25 times (1,721 evaluations, 15 s; a healthy day takes 22).  Stopped at the optimum to
    rounding it takes a few dozen, says it converged, and fits the same twice."""
    from wordlebot.answers import store
    from wordlebot.answers.backtest import facts_of
    from wordlebot.core.words import read_word_file

    data = store.training_data(official, read_word_file(official / "nyt/guesses.txt"))
    day = dt.date(2026, 2, 6)
    before = [e for e in data.history if e.date < day]
    facts = facts_of(data)
    calls = 0
    kernel = clogit._fresh_objective

    def counted(theta, days, derivatives):
        nonlocal calls
        calls += 1
        return kernel(theta, days, derivatives)

    monkeypatch.setattr(clogit, "_fresh_objective", counted)
    model = fit(facts, before)
    assert model.meta["converged"]
    assert 22 <= calls <= 100, calls
    assert np.array_equal(fit(facts, before).parts(before, day).weights, model.parts(before, day).weights)
