"""The prior of a day (answers/daily.py): built from the history before that day only, whatever
the history file holds; the model fitted on the days before it (cached under that history,
bounded); every shell given the day.  The
2026-05-20 case on the official data: WRECK was the answer, and a prior built with the days
after it (WRECK already used) put it behind DRECK."""

from __future__ import annotations

import datetime as dt
import json
import os

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import random_words

from wordlebot.answers import daily, store
from wordlebot.app.wordsets import load_lexicon
from wordlebot.cli import cli
from wordlebot.cli import common as cli_mod  # the word-set options load through it
from wordlebot.core import clock, data
from wordlebot.core.data import HistoryEntry

# --- a small nyt-like data folder ---------------------------------------------------------------

WORDS = random_words(300, alphabet="abcdeorst", seed=23)
LISTED = WORDS[::2]  # the "WordleBot list" of the folder
DAY = dt.timedelta(days=1)


def nyt_folder(folder, answers: list[str], last: dt.date):
    """A data folder with the small lists and a history of ``answers`` ending on ``last``."""
    (folder / "nyt").mkdir(parents=True, exist_ok=True)
    (folder / "nyt/guesses.txt").write_text("\n".join(WORDS) + "\n")
    (folder / "nyt/wordlebot-3158.txt").write_text("\n".join(LISTED) + "\n")
    write_history(folder, answers, last)
    return folder


def write_history(folder, answers: list[str], last: dt.date) -> list[HistoryEntry]:
    start = last - (len(answers) - 1) * DAY
    entries = [HistoryEntry(start + k * DAY, w) for k, w in enumerate(answers)]
    data.atomic_write(folder / data.HISTORY_FILE, data.format_history_csv(entries))
    return entries


class CountingFit:
    """The real fit, counting its calls (which days' models were fitted, by their last day)."""

    def __init__(self) -> None:
        self.calls: list[dt.date] = []

    def __call__(self, facts, before):
        from wordlebot.answers.editor import fit

        self.calls.append(before[-1].date)
        return fit(facts, before)


def test_todays_prior_ignores_todays_answer_stored_in_the_morning(tmp_path, monkeypatch):
    """A morning 'data update' that stores today's answer must not move today's prior (to
    tomorrow's, where today's answer is a past one): with the baseline prior and with a model."""
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "cache"))
    today = clock.today()
    shuffled = [str(w) for w in np.random.default_rng(3).permutation(LISTED)]  # not in alphabetical order
    past = shuffled[:40]
    folder = nyt_folder(tmp_path / "d", past, today - DAY)
    answer = shuffled[60]  # today's answer: a listed word not used before
    i = WORDS.index(answer)
    for with_model in (False, True):
        write_history(folder, past, today - DAY)
        before = load_lexicon("nyt", data_dir=folder, build_model=with_model)
        write_history(folder, past + [answer], today)  # the morning update
        after = load_lexicon("nyt", data_dir=folder, build_model=with_model)
        assert before.day == after.day == today
        assert np.array_equal(before.prior, after.prior), with_model
        assert f"prior for {today}" in after.describe() and f"prior for {today}" in after.note
        assert (f"answer model fitted on the history to {today - DAY}" in after.note) == with_model
        # not vacuous: on the next day the answer is a past one, and weighs less
        tomorrow = load_lexicon("nyt", data_dir=folder, day=today + DAY, build_model=with_model)
        assert tomorrow.prior[i] < after.prior[i] / 5


def test_a_days_model_is_fitted_on_the_history_before_it_and_kept(tmp_path):
    folder = nyt_folder(tmp_path / "d", LISTED[:30], dt.date(2024, 3, 30))  # 2024-03-01 … 2024-03-30
    cache = tmp_path / "cache"
    fitting = CountingFit()

    def prior(day, build=True):
        return daily.prior_for_day(folder, list(WORDS), day, build=build, folder=cache, trainer=fitting)

    p = prior(dt.date(2024, 3, 21))
    assert p.trained_until == dt.date(2024, 3, 20) and fitting.calls == [dt.date(2024, 3, 20)]
    assert p.description == "answer model fitted on the history to 2024-03-20, prior for 2024-03-21"
    assert p.history[-1].date == dt.date(2024, 3, 20) and len(p.history) == 20
    again = prior(dt.date(2024, 3, 21))  # from the per-day cache, the same numbers
    assert fitting.calls == [dt.date(2024, 3, 20)] and np.array_equal(again.weights, p.weights)
    # the history file loses its later days: the same history before the day, the same model
    write_history(folder, LISTED[:20], dt.date(2024, 3, 20))
    assert np.array_equal(prior(dt.date(2024, 3, 21)).weights, p.weights) and len(fitting.calls) == 1
    # a history that differs before the day is another model
    write_history(folder, LISTED[1:21], dt.date(2024, 3, 20))
    assert not np.array_equal(prior(dt.date(2024, 3, 21)).weights, p.weights) and len(fitting.calls) == 2
    # nothing cached and not allowed to fit: the baseline prior of that day, saying so
    p = prior(dt.date(2024, 3, 10), build=False)
    assert p.model is None and "simple prior for 2024-03-10" in p.description and len(fitting.calls) == 2
    assert np.all(p.weights > 0) and abs(p.weights.sum() - 1) < 1e-9
    # before the first day of the history there is nothing to fit on
    p = prior(dt.date(2024, 3, 1))
    assert p.model is None and p.history == () and "no answer history before that day" in p.description


def test_per_day_models_are_bounded_least_recently_used_first(tmp_path):
    folder = nyt_folder(tmp_path / "d", LISTED[:30], dt.date(2024, 3, 30))
    cache = tmp_path / "cache"
    fitting = CountingFit()
    history = data.read_history(folder)
    lists = store.answer_lists(folder)

    def model(day):
        return daily.model_for_day(folder, list(WORDS), history, day, build=True, folder=cache, trainer=fitting, keep=2)

    d = [dt.date(2024, 3, k) for k in (10, 11, 12)]
    model(d[0]), model(d[1])
    paths = [daily.day_model_path(list(WORDS), lists, daily.history_before(history, x), cache) for x in d]
    os.utime(paths[0], (1_000_000, 1_000_000))
    os.utime(paths[1], (1_000_100, 1_000_100))
    assert model(d[0]).trained_until == d[0] - DAY and len(fitting.calls) == 2  # loaded: now the most recent
    model(d[2])
    assert [p.is_file() for p in paths] == [True, False, True]
    assert sorted(p.name for p in paths[0].parent.iterdir()) == sorted([paths[0].name, paths[2].name])


def test_a_damaged_day_model_is_fitted_again(tmp_path, caplog):
    folder = nyt_folder(tmp_path / "d", LISTED[:10], dt.date(2024, 3, 10))
    cache = tmp_path / "cache"
    history = data.read_history(folder)
    path = daily.day_model_path(list(WORDS), store.answer_lists(folder), history, cache)
    path.parent.mkdir(parents=True)
    fitting = CountingFit()
    for damage in ("{broken", "[]", '{"version": 3, "kind": "editor"}'):
        path.write_text(damage)
        p = daily.prior_for_day(folder, list(WORDS), dt.date(2024, 3, 11), build=True, folder=cache, trainer=fitting)
        assert p.trained_until == dt.date(2024, 3, 10) and p.model is not None
        assert json.loads(path.read_text())["kind"] == "editor"  # replaced by the good one
    assert len(fitting.calls) == 3 and "is unusable" in caplog.text


def test_an_edited_or_foreign_day_model_is_not_trusted(tmp_path, caplog):
    """Issue 41: a model carried no checksum: an edit that kept it valid JSON (a coefficient
    changed) or another day's model copied under this day's name changed the prior silently."""
    folder = nyt_folder(tmp_path / "d", LISTED[:12], dt.date(2024, 3, 12))
    cache = tmp_path / "cache"
    fitting = CountingFit()

    def prior(day):
        return daily.prior_for_day(folder, list(WORDS), day, build=True, folder=cache, trainer=fitting)

    mine, other = prior(dt.date(2024, 3, 11)), prior(dt.date(2024, 3, 13))
    assert not np.array_equal(mine.weights, other.weights) and len(fitting.calls) == 2
    history, lists = data.read_history(folder), store.answer_lists(folder)
    path = daily.day_model_path(list(WORDS), lists, daily.history_before(history, dt.date(2024, 3, 11)), cache)
    other_path = daily.day_model_path(list(WORDS), lists, daily.history_before(history, dt.date(2024, 3, 13)), cache)
    good = path.read_text()
    doc = json.loads(good)
    edited = dict(doc, repeat={k: v + 1.0 for k, v in doc["repeat"].items()})
    for label, text in (("edited", json.dumps(edited)), ("another day's", other_path.read_text())):
        path.write_text(text)
        caplog.clear()
        again = prior(dt.date(2024, 3, 11))
        assert np.array_equal(again.weights, mine.weights), label
        assert "answer model" in caplog.text and "is unusable" in caplog.text, label
    assert len(fitting.calls) == 4  # each fitted again


# --- the shells take the day --------------------------------------------------------------------


def test_date_option_errors_are_clear():
    r = CliRunner().invoke(cli, ["suggest", "--date", "2026-5-40"])
    assert (
        r.exit_code == 2 and "Invalid value for '--date': '2026-5-40' is not a day; give it as YYYY-MM-DD" in r.output
    )
    r = CliRunner().invoke(cli, ["play", "--date", "2020-12-31"])
    assert r.exit_code == 2 and "2020-12-31 is before the first Wordle (2021-06-19)" in r.output


def test_every_word_set_command_takes_the_day(tmp_path, monkeypatch):
    """play --date D: D's answer and D's prior from one option; suggest/analyze pass it on."""
    folder = nyt_folder(tmp_path / "d", LISTED[:5], dt.date(2021, 6, 23))  # 2021-06-19 … 2021-06-23
    seen = []
    real = cli_mod.load_lexicon

    def recording(*args, **kwargs):
        seen.append(kwargs.get("day"))
        kwargs["build_model"] = False  # no training on made-up words
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_mod, "load_lexicon", recording)
    base = ["--data-dir", str(folder)]
    r = CliRunner().invoke(cli, base + ["play", "--date", "2021-06-21"], input=LISTED[2] + "\n")
    assert r.exit_code == 0, r.output
    assert "Solved in 1/6" in r.output and "Wordle 2 1/6" in r.output and seen == [dt.date(2021, 6, 21)]
    r = CliRunner().invoke(cli, base + ["suggest", "--strategy", "entropy", "--json", "--date", "2021-06-22"])
    assert r.exit_code == 0, r.output
    assert seen[-1] == dt.date(2021, 6, 22) and json.loads(r.stdout)["candidates"] == len(WORDS)
    r = CliRunner().invoke(cli, base + ["suggest", "--strategy", "entropy"])
    assert r.exit_code == 0 and seen[-1] is None  # load_lexicon's default: today


# --- the official data: 2026-05-20 (WRECK) --------------------------------------------------------

MAY20 = dt.date(2026, 5, 20)
GRID = "Wordle 1,796 3/6\n⬛⬛🟨⬛🟨\n🟨🟩⬛⬛⬛\n🟩🟩🟩🟩🟩"  # TARSE, CRONY, WRECK


@pytest.fixture(scope="module")
def may20(official, session_cache):
    """The nyt set for 2026-05-20, its model trained on the history up to 2026-05-19 (once per
    session: the per-day model is kept in the session cache, where the CLI test finds it)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORDLEBOT_OFFLINE", "1")
        mp.setenv("WORDLEBOT_CACHE", str(session_cache))
        yield load_lexicon("nyt", data_dir=official, day=MAY20, build_model=True)


def test_the_prior_of_may_20_does_not_know_wreck_was_its_answer(may20):
    from wordlebot.core.game import Game

    assert may20.day == MAY20 and "answer model fitted on the history to 2026-05-19, prior for 2026-05-20" in may20.note
    p = may20.prior
    wreck, dreck = may20.answer_of_guess[may20.id("wreck")], may20.answer_of_guess[may20.id("dreck")]
    assert p[wreck] > 100 * p[dreck]
    # after a typical opening WRECK is among the likeliest candidates
    game = Game.from_history(may20, "salet:00010")
    post = dict(zip(game.candidate_words, game.posterior.tolist()))
    assert post["wreck"] >= 0.5 * max(post.values()) and post["wreck"] > 100 * post["dreck"]
    game = Game.from_history(may20, "tarse:00101,crony:12000")
    post = dict(zip(game.candidate_words, game.posterior.tolist()))
    assert sorted(post) == ["dreck", "erick", "ureic", "wreck"] and post["wreck"] > 0.9


def test_solving_may_20_with_wreck_rates_high(may20):
    from wordlebot.core.game import parse_history
    from wordlebot.policy.advisor import Advisor
    from wordlebot.policy.analysis import analyze_game

    rows = parse_history("tarse:00101,crony:12000,wreck:22222")
    report = analyze_game(Advisor(may20, use_book=False), rows, answer="wreck")
    last = report.rows[-1]
    assert last.candidates_before == 4 and last.best == "wreck" and last.skill >= 90


def test_analyze_a_share_grid_uses_its_puzzles_day(may20, official):
    """Through the command: the grid's number 1,796 is 2026-05-20; --date says the same."""
    r = CliRunner().invoke(
        cli, ["--data-dir", str(official), "analyze", "--grid", GRID, "--played", "tarse,crony,wreck", "--json"]
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["day"] == "2026-05-20" and doc["rows"][-1]["skill"] >= 90 and doc["rows"][-1]["best"] == "wreck"
    r = CliRunner().invoke(
        cli,
        [
            "--data-dir",
            str(official),
            "analyze",
            "--history",
            "tarse:00101,crony:12000,wreck:22222",
            "--date",
            "2026-05-20",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "prior for 2026-05-20" in r.stdout and "Wordle 1,796 3/6" in r.stdout
    assert "Training" not in r.output  # the model of the day came from the cache
