"""The play goal on the web page, in headless Chromium: the pick and the suggestions follow the
goal chosen in the settings, the chance to solve is shown where below 100 %, and the analysis of
a lost game and of a won long shot reads as tests/test_goal.py rates them (the library's figures,
never a penalty shown as guesses, never Skill 99 for a loss).

The word set is test_goal's: four -AVER answers (HAVER 0.5, CAVER 0.455, EAVER 0.03, WAVER
0.015) and three other words; the page plays six guesses, so four rows of ABBEY and TROUT (which
rule nothing out) leave the -AVER trap with two guesses."""

from __future__ import annotations

import pytest
import web_helpers
from web_helpers import LiveServer, expect, ready

from test_goal import lexicon, rows_for
from test_web_page import DESKTOP, PHONE, browser, open_page  # noqa: F401  (fixtures)
from wordlebot.core.feedback import format_digits
from wordlebot.policy.advisor import Advisor
from wordlebot.policy.analysis import analyze_game
from wordlebot.web.app import create_app
from wordlebot.web.service import Engine

chromium, env = web_helpers.chromium, web_helpers.offline_env

WASTED = ["abbey", "trout", "abbey", "trout"]


@pytest.fixture(scope="module")
def live(env):
    server = LiveServer(create_app(Engine({"aver": lexicon()}, "aver")))
    yield server
    server.close()


def type_rows(page, words, answer):
    for row in rows_for(words, answer):
        page.keyboard.type(row.guess)
        page.keyboard.type(format_digits(row.pattern, 5))
        page.keyboard.press("Enter")
        ready(page)


def analysis_cells(page):
    return [[td.inner_text() for td in tr.locator("td").all()] for tr in page.locator("#analysis-rows tbody tr").all()]


def test_the_page_follows_the_goal_and_shows_the_chance_to_solve(open_page):
    page = open_page(DESKTOP)
    ready(page)
    type_rows(page, WASTED, "haver")
    expect(page.locator("#pick-word")).to_have_text("beech")
    expect(page.locator("#suggestions-caption")).to_contain_text("playing for the streak")
    haver = page.locator("#suggestions tbody tr", has=page.locator("button.use", has_text="haver"))
    expect(haver.locator("td").nth(2)).to_have_text("1.476 95.5%")  # (0.5 + 2 x 0.455) / 0.955
    page.select_option("#goal", "average")
    ready(page)
    expect(page.locator("#pick-word")).to_have_text("haver")
    expect(page.locator("#pick-avg")).to_contain_text("1.48 guesses to go · 95.5% solve")
    expect(page.locator("#suggestions-caption")).to_contain_text("playing for the average")
    assert page.seen["errors"] == []


@pytest.mark.parametrize("answer,last", [("eaver", "caver"), ("waver", "waver")])
def test_the_page_rates_a_lost_game_and_a_won_long_shot(open_page, answer, last):
    words = WASTED + ["haver", last]
    page = open_page(DESKTOP)
    ready(page)
    type_rows(page, words, answer)
    expect(page.locator("#analysis")).to_be_visible()
    report = analyze_game(Advisor(lexicon()), rows_for(words, answer), answer=answer)  # as the server
    summary = page.inner_text("#summary")
    assert summary == report.summary()
    assert ("not solved" in summary) == (answer == "eaver") and not summary.startswith("Skill 99")
    cells = analysis_cells(page)
    five, six = cells[4], cells[5]
    assert five[3] == "BEECH" and five[4] == "2.00" and five[5] == "1.48 95.5%"
    assert six[3] == "CAVER" and six[4] == "1.00 91.0%"
    assert six[5] == ("1.00 91.0%" if last == "caver" else "1.00 3.0%")
    assert [int(c[6]) for c in cells] == [r.skill for r in report.rows]
    assert int(six[6]) == (99 if last == "caver" else 3)  # the winning long shot: low, never 0
    expect(page.locator("#analysis-caption")).to_contain_text("the chance to solve the game")
    assert page.seen["errors"] == []
