"""The day of a game (days.py): from a date, a puzzle number or a share grid's number, checked;
its answer from the history once the day is over; the replay rule; and the shells that use it
(``analyze --grid`` alone, ``suggest`` and ``assist`` saying which day's prior they use).

Puzzle numbers here are counted by hand from 2021-06-19 (puzzle 0): 2026-05-14 is #1,790
(1,790 days later: 2021-06-19 + 1,790 days), 2026-05-19 #1,795, 2026-04-27 #1,773."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists
from naive import digits
from rich.console import Console

from wordlebot.cli import cli
from wordlebot.core import clock, days
from wordlebot.core.data import HISTORY_FILE, HistoryEntry, atomic_write, format_history_csv
from wordlebot.core.errors import InvalidDayError

TODAY = dt.date(2026, 11, 27)
MAY14 = dt.date(2026, 5, 14)
HISTORY = [
    HistoryEntry(dt.date(2026, 5, 13), "crane"),
    HistoryEntry(MAY14, "waver"),
    HistoryEntry(dt.date(2026, 5, 15), "haver"),
    HistoryEntry(dt.date(2021, 7, 1), "waver"),
]


def test_a_day_is_read_as_a_date_or_a_puzzle_number():
    assert days.parse_day("2026-05-19") == (dt.date(2026, 5, 19), "date")
    assert days.parse_day(" 2026-5-9 ") == (dt.date(2026, 5, 9), "date")
    for text in ("1795", "#1795", "1,795", "Wordle 1,795", "#1 795"):
        assert days.parse_day(text) == (dt.date(2026, 5, 19), "puzzle"), text
    assert days.parse_day("") is None and days.parse_day(None) is None and days.parse_day("  ") is None
    with pytest.raises(InvalidDayError, match="'2026-02-30' is not a day of the calendar"):
        days.parse_day("2026-02-30")
    with pytest.raises(InvalidDayError, match="'yesterday' is neither a day .* nor a puzzle number"):
        days.parse_day("yesterday")


def test_a_day_not_published_yet_or_before_the_first_wordle_is_refused():
    with pytest.raises(
        InvalidDayError,
        match=r"2026-11-29 \(puzzle #1,989\) is not published yet: today is "
        r"2026-11-27 \(#1,987\)",
    ):
        days.resolve_day(date="2026-11-29", today=TODAY)
    with pytest.raises(InvalidDayError, match="not published yet"):
        days.resolve_day(puzzle=1989, today=TODAY)
    # tomorrow is played already where that day has begun
    assert days.resolve_day(date=TODAY + dt.timedelta(days=1), today=TODAY).puzzle == 1988
    with pytest.raises(InvalidDayError, match=r"2021-06-18 is before the first Wordle \(2021-06-19, puzzle #0\)"):
        days.resolve_day(date="2021-06-18", today=TODAY)
    with pytest.raises(InvalidDayError, match="below 0"):
        days.resolve_day(puzzle=-1, today=TODAY)


def test_the_days_answer_comes_from_the_history_once_the_day_is_over():
    d = days.resolve_day(grid_puzzle=1790, today=TODAY, history=HISTORY)
    assert (d.day, d.source, d.answer, d.puzzle, d.chosen) == (MAY14, "grid", "waver", 1790, True)
    assert d.label() == "2026-05-14 (#1,790)"
    assert d.describe(TODAY) == "prior of 2026-05-14 (#1,790), from the share grid"
    # the day itself: its answer stored by a morning update is not told
    assert days.resolve_day(date=MAY14, today=MAY14, history=HISTORY).answer is None
    none = days.resolve_day(today=TODAY, history=HISTORY)
    assert (none.day, none.source, none.answer, none.chosen) == (TODAY, "today", None, False)
    assert none.describe(TODAY) == "today's prior, 2026-11-27 (#1,987)"
    # a date and a grid that agree; that disagree
    assert days.resolve_day(date="2026-05-14", grid_puzzle=1790, today=TODAY).source == "grid"
    with pytest.raises(
        InvalidDayError,
        match=r"the day 2026-05-15 \(#1,791\) and the share grid's Wordle #1,790 "
        r"\(2026-05-14\) are different days",
    ):
        days.resolve_day(date="2026-05-15", grid_puzzle=1790, today=TODAY)


def test_the_replay_rule():
    today = days.GameDay(TODAY)
    how = "use --date {day}"
    assert days.replay_note(["waver"], today, HISTORY, how, TODAY) == (
        "WAVER was the answer of 2026-05-14 (#1,790), not of the day assumed, 2026-11-27 (#1,987): to replay "
        "that day with its prior, use --date 2026-05-14"
    )
    # its own day: nothing to say; a word that was no day's answer: nothing
    assert days.replay_note(["waver"], days.GameDay(MAY14, "date"), HISTORY, how, TODAY) is None
    assert days.replay_note(["caver"], today, HISTORY, how, TODAY) is None
    # another chosen day: said too
    assert "the day assumed, 2026-05-13 (#1,789)" in days.replay_note(
        ["waver"], days.GameDay(dt.date(2026, 5, 13), "date"), HISTORY, how, TODAY
    )
    # a lost game: of the words left, the latest day's answer
    lost = days.replay_note(["caver", "waver", "haver"], today, HISTORY, how, TODAY)
    assert lost.startswith("HAVER, still possible, was the answer of 2026-05-15 (#1,791), not of the day assumed")
    # too many words left to name one
    assert (
        days.replay_note(["waver"] + [f"w{i:04d}" for i in range(days.LOST_WORDS)], today, HISTORY, how, TODAY) is None
    )
    # a day not over yet is not told
    assert days.replay_note(["haver"], today, HISTORY, how, dt.date(2026, 5, 15)) is None


def test_the_default_day_says_how_to_choose_another():
    assert days.default_day_note(days.GameDay(TODAY), "give --date YYYY-MM-DD", TODAY) == (
        "today's prior, 2026-11-27 (#1,987); replaying an earlier day? give --date YYYY-MM-DD, so its answer "
        "keeps the odds it had"
    )
    assert days.default_day_note(days.GameDay(MAY14, "date"), "x", TODAY) is None


# --- analyze --grid: what the grid and the history know --------------------------------------------

WORDS = random_words(200, alphabet="abcdeorst", seed=77)
ANSWERS = WORDS[::2]


@pytest.fixture
def folder(tmp_path):
    """List files and a data folder whose history names the answer of two past days."""
    options = write_lists(tmp_path, WORDS, ANSWERS)
    data = tmp_path / "data"
    entries = [HistoryEntry(dt.date(2024, 1, 1), ANSWERS[10]), HistoryEntry(dt.date(2024, 1, 2), ANSWERS[20])]
    atomic_write(data / HISTORY_FILE, format_history_csv(entries))
    return ["--data-dir", str(data)], options


def grid_of(played: list[str], answer: str, puzzle: int | None) -> str:
    from naive import feedback_colours

    emoji = {"gray": "⬛", "yellow": "🟨", "green": "🟩"}
    rows = ["".join(emoji[c] for c in feedback_colours(g, answer)) for g in played]
    number = f" {puzzle:,}" if puzzle is not None else ""
    return f"Wordle{number} {len(played)}/6\n\n" + "\n".join(rows)


def test_analyze_a_grid_alone_reads_its_answer_from_the_history(folder):
    """Defect 10: the grid's puzzle number names its answer in the history: no --played or
    --answer needed; every count is the naive feedback's, and one word is 'word', not 'words'."""
    root, options = folder
    answer = ANSWERS[10]
    puzzle = (dt.date(2024, 1, 1) - dt.date(2021, 6, 19)).days
    played = [w for w in WORDS if w != answer][:2] + [answer]
    grid = grid_of(played, answer, puzzle)
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid] + options)
    assert r.exit_code == 0, r.output
    assert f"Wordle #{puzzle:,} of 2024-01-01, solved in 3" in r.output
    for k, g in enumerate(played, start=1):
        fit = sum(digits(w, answer) == digits(g, answer) for w in WORDS)
        if fit == 1:
            assert (
                f"row {k}: " in r.output and f"1 allowed word gives these colours against {answer.upper()}" in r.output
            )
        else:
            assert f"{fit:,} allowed words give these colours against {answer.upper()}" in r.output
    assert "1 allowed words" not in r.output
    assert "the bot:" in r.output
    # the words given: rated, and checked against the history's answer
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid, "--played", ",".join(played), "--json"] + options)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [x["guess"] for x in doc["rows"]] == played and doc["answer"] == answer and doc["puzzle"] == puzzle
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid, "--answer", ANSWERS[11]] + options)
    assert r.exit_code == 1 and f"was {answer.upper()}, not {ANSWERS[11].upper()}" in r.output


def test_a_grid_whose_answer_is_not_known_asks_for_the_words(folder):
    root, options = folder
    answer = ANSWERS[30]
    puzzle = (dt.date(2023, 12, 30) - dt.date(2021, 6, 19)).days  # before the history starts
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid_of([answer], answer, puzzle)] + options)
    assert (
        r.exit_code == 2
        and "give --played (the words) or --answer: the history does not have the answer of "
        f"Wordle #{puzzle:,} (2023-12-30)"
        in r.output
    )
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid_of([answer], answer, None)] + options)
    assert r.exit_code == 2 and "the grid has no puzzle number" in r.output
    far = (clock.today() + dt.timedelta(days=5) - dt.date(2021, 6, 19)).days
    r = CliRunner().invoke(cli, root + ["analyze", "--grid", grid_of([answer], answer, far)] + options)
    assert r.exit_code == 1 and "is not published yet" in r.output and "Traceback" not in r.output


def test_assist_says_its_day_and_the_replay_rule_at_the_end():
    """assist on a weighted set of today's prior: the first lines say the day and how to choose
    another; a game solved on a past day's answer ends with the line that names that day."""
    import io

    from wordlebot.core.words import Lexicon
    from wordlebot.term.interactive import AssistSession

    today = clock.today()
    past = today - dt.timedelta(days=10)
    weights = [1.0 + i % 3 for i in range(len(ANSWERS))]
    lex = Lexicon.from_lists(WORDS, ANSWERS, [w / sum(weights) for w in weights], name="daily", day=today)
    answer = ANSWERS[12]
    history = [HistoryEntry(past, answer)]
    opening = WORDS[0] if WORDS[0] != answer else WORDS[1]
    lines = iter([opening, digits(opening, answer), answer, "22222", "q"])
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)
    AssistSession(
        lex, console, strategy="entropy", ask=lambda prompt: next(lines), game_day=days.GameDay(today), history=history
    ).run()
    text = out.getvalue()
    n = (today - dt.date(2021, 6, 19)).days
    assert f"today's prior, {today} (#{n:,}); replaying an earlier day? give --date YYYY-MM-DD" in text
    assert (
        f"{answer.upper()} was the answer of {past} (#{n - 10:,}), not of the day assumed, {today} (#{n:,}): "
        f"to replay that day with its prior, use --date {past}"
    ) in text
    assert f"Wordle {n:,} 2/6" in text  # the share grid has the day's number


def test_suggest_says_which_days_prior_it_uses(tmp_path, monkeypatch):
    """The one-shot command: a line before the table (JSON: the day, its puzzle and where it
    came from); a day not published yet is refused before anything is loaded."""
    from wordlebot.cli import common as cli_common

    folder = tmp_path / "d"
    (folder / "nyt").mkdir(parents=True)
    (folder / "nyt/guesses.txt").write_text("\n".join(WORDS) + "\n")
    (folder / "nyt/wordlebot-3158.txt").write_text("\n".join(ANSWERS) + "\n")
    today = clock.today()
    entries = [HistoryEntry(today - dt.timedelta(days=5 - k), w) for k, w in enumerate(ANSWERS[:5])]
    atomic_write(folder / HISTORY_FILE, format_history_csv(entries))
    real = cli_common.load_lexicon

    def no_training(*args, **kwargs):
        kwargs["build_model"] = False  # no model trained on made-up words
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_common, "load_lexicon", no_training)
    base = ["--data-dir", str(folder), "suggest", "--strategy", "entropy", "--top", "2"]
    n = (today - dt.date(2021, 6, 19)).days
    r = CliRunner().invoke(cli, base)
    assert r.exit_code == 0, r.output
    assert f"today's prior, {today} (#{n:,}); replaying an earlier day? give --date YYYY-MM-DD" in r.output
    past = today - dt.timedelta(days=3)
    r = CliRunner().invoke(cli, base + ["--date", past.isoformat(), "--json"])
    doc = json.loads(r.stdout)
    assert (doc["day"], doc["puzzle"], doc["day_source"]) == (past.isoformat(), n - 3, "date")
    r = CliRunner().invoke(cli, base + ["--date", past.isoformat()])
    assert f"prior of {past} (#{n - 3:,})" in r.output and "replaying" not in r.output
    # solved on a past day's answer, its day not given: the replay rule
    r = CliRunner().invoke(cli, base + ["--history", f"{ANSWERS[2]}:22222"])
    assert f"{ANSWERS[2].upper()} was the answer of {today - dt.timedelta(days=3)}" in r.output
    r = CliRunner().invoke(cli, base + ["--date", (today + dt.timedelta(days=2)).isoformat()])
    assert r.exit_code == 1 and "is not published yet" in r.output


def test_play_mode_on_a_chosen_day_hides_that_days_answer():
    """The TUI's session: choosing a past day in play mode plays its answer (a replay), under
    that day's number; a new game then draws a word from the day's prior."""
    from wordlebot.app.session import Session, Settings
    from wordlebot.core.words import Lexicon

    today = clock.today()
    past = today - dt.timedelta(days=4)
    weights = [1.0 + i % 3 for i in range(len(ANSWERS))]

    def lex(day):
        return Lexicon.from_lists(WORDS, ANSWERS, [w / sum(weights) for w in weights], name="daily", day=day)

    s = Session(
        lex(today), Settings(words="daily", mode="play", strategy="entropy"), history=[HistoryEntry(past, ANSWERS[9])]
    )
    gd = days.resolve_day(date=past, history=s.history)
    plan = s.plan(s.settings, lambda new: lex(past), gd)
    s.adopt(plan)
    assert s.secret == ANSWERS[9] and s.puzzle == (past - dt.date(2021, 6, 19)).days and s.lexicon.day == past
    s.press("ctrl+n")
    assert s.puzzle is None and s.lexicon.day == past  # a new game: a word of that day's prior
