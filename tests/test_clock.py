"""The one clock every "today" reads (core/clock.py): the machine's date unless pinned, a pin that
a whole run follows, and a bad pin refused in words, never a traceback."""

from __future__ import annotations

import datetime as dt

import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists

from wordlebot.cli import cli
from wordlebot.core import clock
from wordlebot.core.data import puzzle_number
from wordlebot.core.errors import InvalidDayError


def test_unpinned_it_is_the_machines_date(monkeypatch):
    monkeypatch.delenv(clock.TODAY_ENV, raising=False)
    before = dt.date.today()
    got = clock.today()
    assert before <= got <= dt.date.today()  # (a run at midnight may see either day)


@pytest.mark.parametrize("pin", ["2021-06-19", "2026-05-20", " 2030-01-02 "])
def test_a_pin_is_the_day(monkeypatch, pin):
    monkeypatch.setenv(clock.TODAY_ENV, pin)
    assert clock.today() == dt.date.fromisoformat(pin.strip())


@pytest.mark.parametrize("pin", ["tomorrow", "2026-13-01", "20260520x"])
def test_a_bad_pin_says_what_to_give(monkeypatch, pin):
    monkeypatch.setenv(clock.TODAY_ENV, pin)
    with pytest.raises(InvalidDayError, match=r"WORDLEBOT_TODAY=.* is not a date: give YYYY-MM-DD"):
        clock.today()


def test_the_cli_follows_the_pin_and_refuses_a_bad_one(tmp_path, monkeypatch):
    words = random_words(60, alphabet="abcdeorst", seed=8)
    files = write_lists(tmp_path, words, words[::3])
    # a day not published yet is refused against the pinned today: the day after the pin is
    # playable (some time zone has it), two days after is not
    folder = ["--data-dir", str(tmp_path / "no-history")]  # (not WORDLEBOT_DATA's: it has 2026-05-23)
    monkeypatch.setenv(clock.TODAY_ENV, "2026-05-20")
    r = CliRunner().invoke(cli, [*folder, "play", "--date", "2026-05-23", *files], catch_exceptions=False)
    assert r.exit_code == 1 and "has not been published yet" in r.output and "2026-05-20" in r.output
    # 2026-05-20 is #1,796 (hand-counted: 2021-06-19 is #0, 1,796 days before)
    assert puzzle_number(dt.date(2026, 5, 20)) == 1796
    monkeypatch.setenv(clock.TODAY_ENV, "someday")
    r = CliRunner().invoke(cli, [*folder, "play", "--date", "2026-05-19", *files])
    assert r.exit_code != 0 and "WORDLEBOT_TODAY='someday' is not a date" in r.output
    assert "Traceback" not in r.output


def test_no_other_module_reads_the_date():
    """Every "today" is clock.today(): a second reading of the machine's date would let one screen
    show a day the pin (or a run across midnight) does not."""
    import re
    from pathlib import Path

    import wordlebot

    src = Path(wordlebot.__file__).parent
    readers = [
        f"{p.relative_to(src)}:{n}"
        for p in sorted(src.rglob("*.py"))
        if p.name != "clock.py"
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"\bdate\.today\b|datetime\.now\(\)\.date\(\)", line)
    ]
    assert readers == []
