"""The answer model: filters, Spy-EM on a problem where the truth is known, the prior's
guarantees (every word reachable, repeats penalised not banned), storage, and the commands."""

import datetime as dt

import numpy as np
import pytest
from click.testing import CliRunner

from wordlebot.answers import filters as flt
from wordlebot.answers.features import feature_matrix, morphology
from wordlebot.answers.model import TrainingData, day_prior, repeat_rate, train
from wordlebot.answers.pu import spy_em
from wordlebot.cli import cli
from wordlebot.core import clock, data
from wordlebot.core.data import HistoryEntry

# --- filters ----------------------------------------------------------------------------------


WORDS = ["cats", "cat", "boxes", "box", "flies", "fly", "baked", "bake", "hopped", "hop", "glass", "moss"]


def test_suffix_filter_drops_plurals_and_pasts_of_valid_words():
    f = flt.SuffixFilter(frozenset(WORDS))
    kept = [w for w, k in zip(WORDS, f.apply(WORDS).keep) if k]
    assert kept == ["cat", "box", "fly", "bake", "hop", "glass", "moss"]


def test_inflection_filter_uses_part_of_speech():
    words = ["crane", "walked", "cranes", "happier", "using", "badly"]
    r = flt.InflectionFilter().apply(words)
    assert dict(zip(words, r.keep.tolist())) == {
        "crane": True,
        "walked": False,
        "cranes": False,
        "happier": False,
        "using": False,
        "badly": True,
    }
    assert "NNS" in morphology("cranes")["tags"] and "VBD" in morphology("walked")["tags"]


def test_frequency_filter_and_lists():
    words = ["about", "crane", "zymic"]
    assert flt.FrequencyFilter(3.0).apply(words).keep.tolist() == [True, True, False]
    assert flt.ListFilter(frozenset({"crane"})).apply(words).keep.tolist() == [False, True, False]
    ban = flt.BlacklistFilter(frozenset({"zymic"})).apply(words)
    assert ban.keep.tolist() == [True, True, False] and ban.factor is None
    soft = flt.BlacklistFilter(frozenset({"zymic"}), penalty=0.1).apply(words)
    assert soft.keep.all() and soft.factor.tolist() == [1.0, 1.0, 0.1]


def test_chain_reports_each_step():
    history = [HistoryEntry(data.FIRST_DAY, "crane")]
    words = ["about", "crane", "cranes", "zymic", "their"]
    keep, factor, report = flt.chain(
        [flt.FrequencyFilter(2.5), flt.InflectionFilter(), flt.PastAnswersFilter(history, penalty=0.1)], words
    )
    assert [n for _, n in report] == [4, 3, 3]
    assert keep.tolist() == [True, True, False, False, True]
    assert factor.tolist() == [1.0, 0.1, 1.0, 1.0, 1.0]
    keep2, _, _ = flt.chain([flt.PastAnswersFilter(history)], words)
    assert keep2.tolist() == [True, False, True, True, True]


def test_default_blacklist_ships_with_the_package():
    bl = flt.default_blacklist()
    assert "slave" in bl and all(len(w) == 5 for w in bl)


# --- Spy-EM -----------------------------------------------------------------------------------


def test_spy_em_recovers_hidden_positives_on_a_synthetic_problem():
    """Two Gaussian classes; only 30 % of the positives are labeled.  Spy-EM must rank the
    hidden positives above the negatives, estimate their number, and converge."""
    rng = np.random.default_rng(0)
    n_pos, n_neg = 600, 1400
    X = np.vstack([rng.normal(1.0, 1.0, (n_pos, 5)), rng.normal(-1.0, 1.0, (n_neg, 5))])
    truth = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    labeled = truth & (rng.random(truth.size) < 0.3)
    res = spy_em(X, labeled, seed=1, C=1.0)
    assert res.converged and res.fits_converged and res.iterations < 50
    hidden = truth & ~labeled
    from sklearn.metrics import roc_auc_score

    unl = ~labeled
    assert roc_auc_score(truth[unl], res.probability[unl]) > 0.95
    # the spies estimate how many positives hide among the unlabeled (true: ~420)
    assert 0.6 * hidden.sum() < res.positives_in_unlabeled < 1.5 * hidden.sum()
    # hidden positives get high weights, negatives low ones
    assert res.probability[hidden].mean() > 0.7 > 0.2 > res.probability[~truth].mean()


def test_spy_em_is_reproducible_and_checks_its_input():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    pos = X[:, 0] > 0.5
    a, b = spy_em(X, pos, seed=7), spy_em(X, pos, seed=7)
    assert np.array_equal(a.probability, b.probability)
    with pytest.raises(ValueError, match="at least 5 positives"):
        spy_em(X, np.zeros(200, bool))


# --- the prior --------------------------------------------------------------------------------


def _history(words, start=data.FIRST_DAY):
    return [HistoryEntry(start + dt.timedelta(days=i), w) for i, w in enumerate(words)]


def test_day_prior_never_loses_a_word_and_penalises_repeats():
    words = ["alpha", "bravo", "charl", "delta", "echos", "foxes"]
    pool = np.array([1.0, 1.0, 1.0, 0.5, 0.2, 0.0])
    listed = np.array([True, True, True, False, False, False])
    hist = _history(["alpha", "bravo"])
    on = hist[-1].date + dt.timedelta(days=1)
    p = day_prior(pool, listed, 0.01, words, hist, on, kappa=0.0)
    assert np.all(p > 0) and abs(p.sum() - 1) < 1e-12  # every word reachable, pool 0 included
    assert p[2] > p[0]  # a fresh listed word beats a past answer
    assert p[3] > p[4] > p[5]  # unlisted words by pool probability
    assert p[0] > 0  # a past answer is penalised, not banned
    # outside mass is the calibrated share
    assert abs(p[3:].sum() / (1 - p[:2].sum()) - 0.01) < 1e-9


def test_repeat_rate_follows_the_recent_past():
    hist = _history(["a" * 5, "b" * 5, "c" * 5] * 30)  # from the 4th day on, every day repeats
    on = hist[-1].date + dt.timedelta(days=1)
    # shrunk toward the 1 % floor by 30 pseudo-days, but far above it
    assert 0.6 < repeat_rate(hist, on) < 1.0
    # the same repeats seen from much later weigh less (half-life 60 days)
    assert repeat_rate(hist, on + dt.timedelta(days=120)) < repeat_rate(hist, on)
    fresh = _history([chr(97 + i % 26) * 4 + chr(97 + i // 26) for i in range(90)])
    assert repeat_rate(fresh, fresh[-1].date + dt.timedelta(days=1)) < 0.02


def _synthetic_data():
    """Real five-letter words (offline, wordfreq): a 'list' of common ones, a history drawn from
    it with a few repeats at the end."""
    from wordlebot.app.wordsets import wordfreq_lexicon

    lex = wordfreq_lexicon(5)
    words = list(lex.guesses[:2500])
    rng = np.random.default_rng(5)
    answers = sorted(rng.choice([w for w in lex.answers if w in set(words)], 600, replace=False).tolist())
    order = rng.permutation(answers).tolist()
    hist_words = order[:400] + [order[3], order[10]] + order[400:420]
    return TrainingData(words, _history(hist_words, dt.date(2023, 6, 1)), {"list": answers})


def test_train_and_prior():
    d = _synthetic_data()
    m = train(d)
    assert m.meta["spy_em"]["converged"] and m.meta["spy_em"]["fits_converged"]
    p = m.prior(d.history)
    assert np.all(p > 0) and abs(p.sum() - 1) < 1e-9
    index = {w: i for i, w in enumerate(d.words)}
    fresh_listed = [w for w in d.lists["list"] if w not in {e.word for e in d.history}]
    # the listed words not yet used carry most of the mass
    assert p[[index[w] for w in fresh_listed]].sum() > 0.9


def test_training_is_reproducible():
    d = _synthetic_data()
    assert np.array_equal(train(d).pool, train(d).pool)


def test_features_have_stable_shape():
    dense, sp = feature_matrix(["crane", "cranes"[:5], "zymic"])
    assert dense.shape[0] == 3 and sp.shape == (3, 26 * 5 + 4096)


# --- official data ----------------------------------------------------------------------------


def test_backtest_on_the_official_history(official):
    """The published backtest's ranking part (2026-02-01 … 05-31, each day scored with the
    history before it): the editor model at or under 7.0 nats, ahead of the four-number mixture,
    itself ahead of the previous model (whose 7.645 the README has reported since it shipped);
    every answer reachable; each prior's group masses add up to the days."""
    from wordlebot.answers import backtest, store
    from wordlebot.core.words import read_word_file

    words = read_word_file(official / "nyt/guesses.txt")
    d = store.training_data(official, words)
    history = [e for e in d.history if e.date <= dt.date(2026, 5, 31)]  # the README's window, whatever the file adds
    d = store.TrainingData(d.words, history, d.lists)
    reports, priors = backtest.ranking_backtest(d, window=120)
    by = {r.method: r for r in reports}
    assert by["editor"].window == (dt.date(2026, 2, 1), dt.date(2026, 5, 31)) and by["editor"].days == 120
    assert by["editor"].log_loss <= 7.0 < by["mixture"].log_loss < by["spy-em"].log_loss
    assert by["spy-em"].log_loss == pytest.approx(7.645, abs=5e-4)
    for r in reports:
        assert r.reachable == 1.0 and r.recall[3158] == 1.0
        assert sum(c.observed for c in r.calibration) == 120
        assert sum(c.predicted for c in r.calibration) == pytest.approx(120)
    # the answers came from the groups the history says: 98 NYT-list, 9 WordleBot-only, 13 repeats
    assert [c.observed for c in by["editor"].calibration] == [98, 9, 0, 10, 3]
    assert by["editor"].mean_rank < by["mixture"].mean_rank


def test_answers_commands(official, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "cache"))
    r = CliRunner().invoke(cli, ["answers", "list", "--date", "2026-02-30"])
    assert r.exit_code == 2 and "'2026-02-30' is not a day; give it as YYYY-MM-DD" in r.output
    r = CliRunner().invoke(cli, ["answers", "build", "--until", "2026-01-31"])
    assert r.exit_code == 0, r.output
    assert "fitted on the history to 2026-01-31" in r.output and "converged" in r.output and "saved to" in r.output
    # the model of 2026-02-01 was kept by 'build': the same model serves the day
    r = CliRunner().invoke(cli, ["answers", "show", "cigar", "tares", "zzzzz", "crnae", "--date", "2026-02-01"])
    assert r.exit_code == 0 and "CIGAR" in r.output and "TARES" in r.output and "ZZZZZ: not a valid guess\n" in r.output
    assert "CRNAE: not a valid guess; did you mean CRANE" in r.output  # a swap of N and A: offered first
    assert "P(answer on 2026-02-01)" in r.output
    assert "answer model fitted on the history to 2026-01-31, prior for 2026-02-01" in r.output
    # CIGAR was the first answer: a past answer on that day, a repeat not yet seen (1 % of days)
    assert "last an answer on 2021-06-19" in r.output
    assert "past answer (a repeat): 1.0 % of days repeat one of these 1,688 past answers" in r.output
    assert "TARES's chance among them" in r.output
    r = CliRunner().invoke(cli, ["answers", "list", "--threshold", "1e-4", "--top", "3"])
    assert r.exit_code == 0 and "words with P >= 0.0001" in r.output
    assert f"prior for {clock.today()}" in r.output and "unused word of the NYT answer list: " in r.output


def test_no_answer_is_ever_lost_in_play():
    """With the model's prior as weights every valid word stays a candidate: the assistant
    finds even the least likely answers, and never runs out of candidates on a consistent game."""
    from wordlebot.core.feedback import feedback_unchecked
    from wordlebot.core.words import Lexicon
    from wordlebot.policy.advisor import Advisor

    d = _synthetic_data()
    m = train(d)
    p = m.prior(d.history)
    lex = Lexicon.from_lists(d.words, d.words, p, name="nyt-like")
    adv = Advisor(lex, use_book=False)
    for i in np.argsort(p)[:3].tolist():  # the three least likely words
        target = d.words[i]
        game = adv.new_game(max_guesses=12)
        while not game.solved and len(game.rows) < 12:
            assert target in game.candidate_words
            w = adv.best(game)
            game.guess(w, feedback_unchecked(w, target))
        assert game.solved, target


def test_nyt_set_survives_an_unreadable_history(tmp_path, caplog):
    """A damaged history file must not stop play: the nyt set falls back to the prior that
    ignores the history, says so, and keeps every word possible."""
    from wordlebot.app.wordsets import load_lexicon

    words = ["crane", "slate", "trace", "adieu", "pious"]
    (tmp_path / "nyt").mkdir()
    (tmp_path / "nyt/guesses.txt").write_text("\n".join(words) + "\n")
    (tmp_path / "history").mkdir()
    (tmp_path / "history/answers.csv").write_bytes("date,number,word\n2026-01-01,1,caf\u00e9\n".encode())
    with caplog.at_level("WARNING"):
        lex = load_lexicon("nyt", data_dir=tmp_path)
    assert lex.weighted and list(lex.answers) == words
    assert np.all(lex.prior > 0)
    assert "the prior ignores the history" in caplog.text


# ---------------------------------------------------------------------------------------------
# The play backtest on small synthetic data


def test_play_backtest_on_a_small_synthetic_history():
    """30 days over a 240-word list: the last 10 are played.  Two of them are words outside
    both answer lists (hand-placed), so the uniform methods cannot reach them, while the editor
    model's prior keeps every word possible; every reachable answer is found within six guesses,
    and the report is the same when run again."""
    import datetime as dt

    from conftest import random_words

    from wordlebot.answers.backtest import day_priors, play_backtest
    from wordlebot.answers.model import TrainingData
    from wordlebot.core.data import HistoryEntry

    words = random_words(240, length=5, alphabet="abcdeilnorst", seed=5)
    classic, wb = words[:120], words[:160]
    outside = [words[200], words[210]]
    played = [words[3 * i] for i in range(28)] + outside  # the last two days: outside both lists
    start = dt.date(2026, 1, 1)
    history = [HistoryEntry(start + dt.timedelta(days=i), w) for i, w in enumerate(played)]
    data = TrainingData(words, history, {"classic": classic, "wordlebot-3158": wb})
    priors = {"editor": day_priors(data, "editor", window=10)}

    def run():
        return {
            r.name: r
            for r in play_backtest(data, priors, window=10, methods=("editor", "uniform-2315", "uniform-3158"))
        }

    reports = run()
    for name in ("uniform-2315", "uniform-3158"):
        assert reports[name].unreachable == outside
        assert reports[name].failures == 2 and len(reports[name].solved) == 8
    model_rep = reports["editor"]
    assert model_rep.unreachable == [] and model_rep.failures == 0 and model_rep.games == 10
    assert all(1 <= g <= 6 for g in model_rep.guesses)
    assert sum(model_rep.distribution().values()) == 10
    assert model_rep.average == pytest.approx(np.mean(model_rep.guesses))
    again = run()
    assert {n: r.guesses for n, r in again.items()} == {n: r.guesses for n, r in reports.items()}


def test_a_days_prior_ignores_that_day_and_later_in_the_history():
    """The model's prior for day D uses only the history before D: a history that goes on past
    D (a morning update) gives the same prior for D."""
    import datetime as dt

    from conftest import random_words

    from wordlebot.answers.model import AnswerModel
    from wordlebot.core.data import HistoryEntry

    words = random_words(60, length=5, alphabet="abcdeor", seed=9)
    listed = np.zeros(60, bool)
    listed[:40] = True
    model = AnswerModel(words, np.linspace(0.1, 0.9, 60), listed, 0.05, 1.0, dt.date(2026, 1, 9))
    start = dt.date(2026, 1, 1)
    history = [HistoryEntry(start + dt.timedelta(days=i), words[i]) for i in range(12)]
    day = start + dt.timedelta(days=10)
    before = model.prior(history[:10], on=day)
    assert np.array_equal(model.prior(history, on=day), before)
    assert before[words.index(words[10])] > 0  # the day's own answer is not treated as used
    assert not np.array_equal(model.prior(history, on=day + dt.timedelta(days=1)), before)
