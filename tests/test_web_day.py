"""The day on the web (issue 39): the API's ``date`` / ``puzzle`` (checked: not published yet, two
days that differ), the day of every answer, the replay rule, 'possible answers only', each row of
an analysis in words, a pasted share grid (its day, its answer from the history, the board's
words), and the multi-board page's share text and cost in words.

A made-up ``nyt`` folder (the small lists, a history ending yesterday) served with a fixed clock:
the prior of a day is built from the history before it, so a past day's answer is likelier on
its own day than today.  Expected values come from the library and tests/naive.py."""

from __future__ import annotations

import datetime as dt
import warnings

import pytest
import web_helpers
from naive import digits
from web_helpers import ANSWERS, WORDS

from wordlebot.core import data
from wordlebot.core.game import Game, parse_history
from wordlebot.policy.advisor import Advisor
from wordlebot.policy.analysis import analyze_game
from wordlebot.policy.explain import review_rows
from wordlebot.web.app import create_app
from wordlebot.web.service import Engine

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

env, lex = web_helpers.offline_env, web_helpers.small_lex
WAIT = 120.0
TODAY = dt.date(2024, 3, 21)
PAST = TODAY - dt.timedelta(days=3)
HISTORY = ANSWERS[:12]  # the answers of the 12 days before TODAY, in order
PAST_ANSWER = HISTORY[-3]  # the answer of PAST


def puzzle(day: dt.date) -> int:
    return (day - dt.date(2021, 6, 19)).days


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    f = tmp_path_factory.mktemp("nyt")
    (f / "nyt").mkdir()
    (f / "nyt/guesses.txt").write_text("\n".join(WORDS) + "\n")
    (f / "nyt/wordlebot-3158.txt").write_text("\n".join(ANSWERS) + "\n")
    entries = [data.HistoryEntry(TODAY - dt.timedelta(days=len(HISTORY) - k), w) for k, w in enumerate(HISTORY)]
    data.atomic_write(f / data.HISTORY_FILE, data.format_history_csv(entries))
    assert data.read_history(f)[-3] == data.HistoryEntry(PAST, PAST_ANSWER)
    return f


@pytest.fixture(scope="module")
def engine(env, folder, lex):
    from wordlebot.cli.web import named_sources

    return Engine(
        {"nyt": named_sources(folder, build_model=False)["nyt"], "small": lex},
        "nyt",
        clock=lambda: TODAY,
        ready_wait=WAIT,
        history=lambda: data.read_history(folder),
    )


@pytest.fixture(scope="module")
def client(engine):
    return TestClient(create_app(engine))


def post(client, path, body):
    return client.post(path, json=body)


def p_of(doc, word):
    return next(c["p"] for c in doc["candidate_words"] if c["word"] == word)


# --- the day of a suggestion ------------------------------------------------------------------------


def test_every_answer_says_its_day_and_a_past_day_is_asked_by_date_or_puzzle(client):
    body = {"strategy": "entropy", "top": 3, "candidates": 1000}
    today = post(client, "/api/suggest", body).json()
    assert (today["day"], today["puzzle"], today["day_source"]) == ("2024-03-21", puzzle(TODAY), "today")
    assert today["day_text"] == f"today's prior, 2024-03-21 (#{puzzle(TODAY):,})"
    past = post(client, "/api/suggest", dict(body, date="2024-03-18")).json()
    assert (past["day"], past["puzzle"], past["day_source"]) == ("2024-03-18", puzzle(PAST), "date")
    assert past["day_text"] == f"prior of 2024-03-18 (#{puzzle(PAST):,})"
    assert p_of(past, PAST_ANSWER) > 5 * p_of(today, PAST_ANSWER)  # its own day: not yet a past answer
    by_number = post(client, "/api/suggest", dict(body, puzzle=puzzle(PAST))).json()
    assert by_number["day"] == "2024-03-18" and by_number["candidate_words"] == past["candidate_words"]
    assert post(client, "/api/suggest", dict(body, date=str(puzzle(PAST)))).json()["day"] == "2024-03-18"
    # a word set whose prior is no day's: no day (the puzzle number still goes with the share text)
    small = post(client, "/api/suggest", dict(body, words="small")).json()
    assert small["day"] is None and small["day_text"] is None


@pytest.mark.parametrize(
    "extra,fragment",
    [
        ({"date": "2024-03-24"}, "2024-03-24 (puzzle #1,009) is not published yet: today is 2024-03-21"),
        ({"date": "2021-06-01"}, "2021-06-01 is before the first Wordle"),
        ({"date": "next week"}, "'next week' is neither a day"),
        ({"date": "2024-02-30"}, "not a day of the calendar"),
        ({"date": "2024-03-18", "puzzle": 1000}, "are different days"),
    ],
)
def test_a_day_that_cannot_be_played_is_a_clear_400(client, extra, fragment):
    r = post(client, "/api/suggest", {"strategy": "entropy", **extra})
    assert r.status_code == 400 and fragment in r.json()["detail"], r.text


def test_a_solved_game_whose_answer_was_another_days_says_how_to_replay_it(client):
    r = post(client, "/api/suggest", {"strategy": "entropy", "history": f"{PAST_ANSWER}:22222"}).json()
    assert r["solved"] and r["day_note"] == (
        f"{PAST_ANSWER.upper()} was the answer of 2024-03-18 (#{puzzle(PAST):,}), not of the day assumed, "
        f"2024-03-21 (#{puzzle(TODAY):,}): to replay that day with its prior, set the day to 2024-03-18"
    )
    same = post(
        client, "/api/suggest", {"strategy": "entropy", "history": f"{PAST_ANSWER}:22222", "date": "2024-03-18"}
    ).json()
    assert same["day_note"] is None
    fresh = next(w for w in ANSWERS if w not in HISTORY)
    assert post(client, "/api/suggest", {"strategy": "entropy", "history": f"{fresh}:22222"}).json()["day_note"] is None


def test_possible_answers_only(client):
    opening = WORDS[5]
    target = ANSWERS[40]
    hist = f"{opening}:{digits(opening, target)}"
    doc = post(
        client, "/api/suggest", {"words": "small", "history": hist, "guess_space": "candidates", "candidates": 1000}
    ).json()
    cands = {c["word"] for c in doc["candidate_words"]}
    assert doc["guess_space"] == "candidates" and doc["suggestions"]
    assert all(s["word"] in cands and s["can_be_answer"] for s in doc["suggestions"])
    every = post(client, "/api/suggest", {"words": "small", "history": hist, "candidates": 1000}).json()
    assert every["guess_space"] == "all"
    r = post(client, "/api/suggest", {"guess_space": "some"})
    assert r.status_code == 422 and "guess_space" in r.json()["detail"]


def test_the_analysis_says_each_row_in_words_as_the_terminal_does(client, lex):
    """The page's per-row explanation is the library's (explain.review_rows), not a second one."""
    target = ANSWERS[7]
    played = [WORDS[3], WORDS[90], target]
    hist = ",".join(f"{g}:{digits(g, target)}" for g in played)
    doc = post(client, "/api/analyze", {"words": "small", "history": hist}).json()
    adv = Advisor(lex)
    rows = parse_history(hist)
    report = analyze_game(adv, rows)
    game = Game.from_history(lex, hist)
    assert doc["review"] == review_rows(adv, game, report) and len(doc["review"]) == 3
    assert doc["review"][2].startswith(f"3. {target.upper()}:")


# --- a pasted share grid ------------------------------------------------------------------------------


def grid_text(rows: list[str], answer: str, number: int | None, solved: bool = True) -> str:
    emoji = "⬛🟨🟩"
    lines = ["".join(emoji[int(d)] for d in digits(g, answer)) for g in rows]
    head = f"Wordle {number:,} {len(rows) if solved else 'X'}/6" if number is not None else f"Wordle {len(rows)}/6"
    return head + "\n\n" + "\n".join(lines)


def test_a_grid_alone_is_read_with_its_days_prior_and_answer(client, engine):
    played = [WORDS[1], WORDS[2], PAST_ANSWER]
    r = post(client, "/api/grid", {"grid": grid_text(played, PAST_ANSWER, puzzle(PAST))})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert (doc["day"], doc["puzzle"], doc["day_source"], doc["answer"]) == (
        "2024-03-18",
        puzzle(PAST),
        "grid",
        PAST_ANSWER,
    )
    assert not doc["rated"] and "the words played are not known" in doc["headline"]
    for row, g in zip(doc["rows"], played):
        assert row["fitting"] == sum(digits(w, PAST_ANSWER) == digits(g, PAST_ANSWER) for w in WORDS)
    lex = engine.lexicon("nyt", PAST)  # the bot's game is the one of that day's prior
    adv = Advisor(lex)
    game = Game(lex, answer=PAST_ANSWER)
    while not game.over:
        game.guess(adv.suggest(game, 1)[0].word)
    assert doc["bot"] == [row.guess for row in game.rows]


def test_a_grid_with_the_words_or_the_board_is_rated(client):
    played = [WORDS[1], WORDS[2], PAST_ANSWER]
    grid = grid_text(played, PAST_ANSWER, puzzle(PAST))
    board = [{"guess": g, "feedback": digits(g, PAST_ANSWER)} for g in played]
    by_words = post(client, "/api/grid", {"grid": grid, "played": ", ".join(played)}).json()
    by_board = post(client, "/api/grid", {"grid": grid, "history": board}).json()
    assert by_words["rated"] and by_board["rated"]
    assert by_words["analysis"]["rows"] == by_board["analysis"]["rows"]
    assert [r["guess"] for r in by_words["analysis"]["rows"]] == played and by_words["answer"] == PAST_ANSWER
    assert len(by_words["analysis"]["review"]) == 3
    # a board that is another game: only the grid is read
    other = [{"guess": WORDS[9], "feedback": digits(WORDS[9], PAST_ANSWER)}]
    assert not post(client, "/api/grid", {"grid": grid, "history": other}).json()["rated"]


@pytest.mark.parametrize(
    "case,fragment",
    [
        ("today", "is not in the server's history (today's is never told), so only the words played can be rated"),
        ("no number", "has no puzzle number"),
        ("disagree", "are different days"),
        ("future", "is not published yet"),
        ("nonsense", "not a share-grid header"),
        ("wrong words", "against " + PAST_ANSWER.upper()),
    ],
)
def test_a_grid_that_cannot_be_read_says_why(client, case, fragment):
    played = [WORDS[1], PAST_ANSWER]
    body = {
        "today": {"grid": grid_text(played, PAST_ANSWER, puzzle(TODAY))},
        "no number": {"grid": grid_text(played, PAST_ANSWER, None)},
        "disagree": {"grid": grid_text(played, PAST_ANSWER, puzzle(PAST)), "date": "2024-03-19"},
        "future": {"grid": grid_text(played, PAST_ANSWER, puzzle(TODAY) + 5)},
        "nonsense": {"grid": "hello"},
        "wrong words": {"grid": grid_text(played, PAST_ANSWER, puzzle(PAST)), "played": [WORDS[3], PAST_ANSWER]},
    }[case]
    r = post(client, "/api/grid", body)
    assert r.status_code == 400 and fragment in r.json()["detail"], r.text


# --- multi-board: the share text and the cost in words ---------------------------------------------


def test_a_finished_multi_board_game_has_its_share_text_and_the_cost_is_explained(client, lex):
    from wordlebot.multi import MultiGame, suggest

    answers = [ANSWERS[3], ANSWERS[17]]
    game = MultiGame(lex, 2, answers=answers)
    while not game.over:
        game.guess(suggest(game, 1)[0].word)
    rows = [
        {"guess": r.guess, "feedback": [None if p is None else digits(r.guess, a) for p, a in zip(r.patterns, answers)]}
        for r in game.rows
    ]
    doc = post(client, "/api/multi/suggest", {"boards": 2, "words": "small", "history": rows}).json()
    marks = " ".join(str(t) for t in game.solved_at)
    assert doc["over"] and doc["share"].startswith(f"Dordle · score {game.score():g} ({marks} of 7)")
    emoji = "⬛🟨🟩"
    first = "".join(emoji[int(d)] for d in digits(game.rows[0].guess, answers[0]))
    assert first in doc["share"]
    assert "added up over the open boards" in doc["cost_text"]
    start = post(client, "/api/multi/suggest", {"boards": 2, "words": "small"}).json()
    assert start["share"] is None and start["cost_text"] == doc["cost_text"]


# --- the page, in Chromium ----------------------------------------------------------------------

from web_helpers import LiveServer, expect, no_overflow, ready  # noqa: E402

chromium, browser = web_helpers.chromium, web_helpers.browser_fixture
PHONE, DESKTOP = (390, 844), (1280, 800)


@pytest.fixture(scope="module")
def live(engine):
    server = LiveServer(create_app(engine))
    yield server
    server.close()


@pytest.fixture
def open_page(browser, live):
    contexts = []

    def make(size=PHONE, path="/"):
        touch = size[0] < 900
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=touch)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.goto(live.url + path)
        ready(page)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def enter_row(page, word, answer):
    page.keyboard.type(word + digits(word, answer))
    page.keyboard.press("Enter")
    ready(page)


def test_the_page_says_its_day_and_takes_another_by_date_puzzle_or_address(open_page, engine):
    page = open_page(PHONE)
    expect(page.locator("#day-text")).to_have_text(f"today · #{puzzle(TODAY):,}")
    expect(page.locator("#status")).to_contain_text("Today's prior, 2024-03-21")
    expect(page.locator("#status")).to_contain_text("Replaying an earlier day? Tap the day above")
    page.tap("#day-chip")
    expect(page.locator("#day")).to_be_focused()
    page.fill("#day", "2024-03-24")
    page.keyboard.press("Enter")
    ready(page)
    expect(page.locator("#day-error")).to_contain_text("is not published yet: today is 2024-03-21")
    expect(page.locator("#day-text")).to_have_text(f"today · #{puzzle(TODAY):,}")  # nothing changed
    page.fill("#day", str(puzzle(PAST)))  # a puzzle number
    page.keyboard.press("Enter")
    ready(page)
    expect(page.locator("#day-text")).to_have_text(
        f"03-18 · #{puzzle(PAST):,}", use_inner_text=True
    )  # no year on a phone
    expect(page.locator("#day-error")).to_have_text("")
    assert page.url.endswith(f"/?puzzle={puzzle(PAST)}")
    lex = engine.lexicon("nyt", PAST)  # the advice is the one of that day's prior
    top = Advisor(lex).suggest(Game(lex), 1)[0]
    expect(page.locator("#pick-word")).to_have_text(top.word)
    no_overflow(page)
    # the address alone sets it; on a desktop the year shows
    page = open_page(DESKTOP, "/?date=2024-03-18")
    expect(page.locator("#day-text")).to_have_text(f"2024-03-18 · #{puzzle(PAST):,}")
    expect(page.locator("#day")).to_have_value("2024-03-18")
    page.click("#day-today")
    ready(page)
    expect(page.locator("#day-text")).to_have_text(f"today · #{puzzle(TODAY):,}")
    assert "date=" not in page.url and page.errors == []
    # a day in the address that cannot be played: said, and today's advice instead
    page = open_page(PHONE, "/?date=2024-03-30")
    expect(page.locator("#message")).to_contain_text("2024-03-30 (puzzle #1,015) is not published yet")
    expect(page.locator("#message")).to_contain_text("today's advice instead")
    expect(page.locator("#day-text")).to_have_text(f"today · #{puzzle(TODAY):,}")
    assert "date=" not in page.url


# The width of a text in an element's own font, next to the room its box leaves for text.
PLACEHOLDER_FITS = """el => {
  const cs = getComputedStyle(el);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [ctx.measureText(el.placeholder).width, room];
}"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_day_field_shows_todays_date_whole(open_page, size):
    """The day field's hint names today's date ("today (2024-03-21)"): the day a prior belongs to
    must be readable, and on the desktop it had been cut to "today (2024-03-2"."""
    page = open_page(size)
    if size == PHONE:
        page.tap("#day-chip")  # on a phone the field is in the settings the chip opens
    field = page.locator("#day")
    expect(field).to_have_attribute("placeholder", "today (2024-03-21)")
    text, room = field.evaluate(PLACEHOLDER_FITS)
    assert 0 < text <= room, f"the hint needs {text:.0f} px, the field leaves {room:.0f}"


def test_a_lost_replay_offers_its_day_and_the_page_ends_cleanly(open_page):
    """Defect 3 on the web and item 8: the game ends on a word that was another day's answer;
    the page says so and offers to replay that day; the bar, the typing help and the empty
    suggestions say the game is over; New is on the page, not only in the settings."""
    from naive import consistent, feedback_code

    page = open_page(PHONE)
    answer = PAST_ANSWER
    # six rows that are not the answer and narrow the words left most (the answer stays among them)
    played, left = [], list(WORDS)
    for _ in range(6):
        best = min(
            (w for w in WORDS if w != answer and w not in played),
            key=lambda w: sum(feedback_code(w, x) == feedback_code(w, answer) for x in left),
        )
        played.append(best)
        left = [x for x in left if consistent(x, [(g, feedback_code(g, answer)) for g in played])]
    assert answer in left and len(left) <= 12
    for w in played:
        enter_row(page, w, answer)
    expect(page.locator("#message")).to_contain_text("Out of rows.")
    expect(page.locator("#message")).to_contain_text(
        f"{answer.upper()}{', still possible,' if len(left) > 1 else ''} was the answer of 2024-03-18"
    )
    expect(page.locator("#pick .pick-label")).to_have_text("Lost")
    expect(page.locator("#pick-word")).to_have_text("X/6")
    expect(page.locator("#typing-help")).to_be_hidden()
    expect(page.locator("#advice")).to_be_hidden()
    expect(page.locator("#replay")).to_have_text("Replay 2024-03-18")
    page.tap("#replay")
    ready(page)
    expect(page.locator("#day-text")).to_have_text(f"03-18 · #{puzzle(PAST):,}", use_inner_text=True)
    expect(page.locator("#board .row.current")).to_have_attribute("aria-label", "Row 1")
    expect(page.locator("#new")).to_be_visible()
    page.tap("#new")
    ready(page)
    expect(page.locator("#pick .pick-label")).to_have_text("Play")
    expect(page.locator("#typing-help")).to_be_visible()


def test_the_hints_wait_to_be_asked_for_at_each_row(open_page):
    page = open_page(PHONE)
    page.tap("#settings-toggle")
    page.tap("#hide-hints")
    page.keyboard.press("Escape")
    expect(page.locator("#advice")).to_be_hidden()
    expect(page.locator("#pick-word")).to_have_text("show")
    expect(page.locator("#left")).to_have_text("")
    page.tap("#pick")
    expect(page.locator("#advice")).to_be_visible()
    expect(page.locator("#left")).to_contain_text("left")
    word = page.locator("#pick-word").inner_text()
    assert len(word) == 5 and word != "show"
    enter_row(page, WORDS[8], ANSWERS[30])
    expect(page.locator("#advice")).to_be_hidden()  # a new row: hidden again
    expect(page.locator("#pick-word")).to_have_text("show")
    page.reload()
    ready(page)
    expect(page.locator("#pick-word")).to_have_text("show")  # remembered
    page.tap("#settings-toggle")
    page.tap("#hide-hints")
    page.keyboard.press("Escape")
    expect(page.locator("#advice")).to_be_visible()


def test_possible_answers_only_is_a_setting_of_the_page(open_page):
    page = open_page(DESKTOP, "/")
    page.select_option("#words", "small")
    ready(page)
    enter_row(page, WORDS[5], ANSWERS[40])
    page.check("#answers-only")
    ready(page)
    rows = page.locator("#suggestions tbody tr")
    assert rows.count() > 0
    for i in range(rows.count()):
        assert "answer" in (rows.nth(i).get_attribute("class") or "")  # every one can be the answer


def test_a_pasted_share_grid_sets_the_day_and_is_analysed(open_page):
    played = [WORDS[1], WORDS[2], PAST_ANSWER]
    page = open_page(PHONE)
    page.tap("#grid-paste summary")
    page.fill("#grid-text", grid_text(played, PAST_ANSWER, puzzle(PAST)))
    page.tap("#grid-go")
    ready(page)
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#day-text")).to_have_text(f"03-18 · #{puzzle(PAST):,}", use_inner_text=True)
    expect(page.locator("#summary")).to_contain_text(f"Wordle #{puzzle(PAST):,} of 2024-03-18, solved in 3")
    fit = sum(digits(w, PAST_ANSWER) == digits(played[0], PAST_ANSWER) for w in WORDS)
    expect(page.locator("#grid-lines li").first).to_contain_text(f"{fit:,} allowed word")
    expect(page.locator("#grid-lines")).to_contain_text("the bot:")
    # the same game played on the board: its rows are used, each guess rated and said in words
    page.keyboard.press("Escape")  # out of the grid's text box: typing goes to the board
    for w in played:
        enter_row(page, w, PAST_ANSWER)
    page.tap("#grid-go")
    ready(page)
    expect(page.locator("#analysis-rows tbody tr")).to_have_count(3)
    expect(page.locator("#review li")).to_have_count(3)
    expect(page.locator("#review li").nth(2)).to_contain_text(f"{PAST_ANSWER.upper()}:")
    no_overflow(page)


def test_a_finished_game_says_each_guess_in_words(open_page, lex):
    """Item 8: the analysis of the page has the library's sentences (review_rows), row by row."""
    page = open_page(DESKTOP, "/")
    page.select_option("#words", "small")
    ready(page)
    target = ANSWERS[7]
    played = [WORDS[3], WORDS[90], target]
    for w in played:
        enter_row(page, w, target)
    expect(page.locator("#analysis")).to_be_visible()
    hist = ",".join(f"{g}:{digits(g, target)}" for g in played)
    adv = Advisor(lex)
    want = review_rows(adv, Game.from_history(lex, hist), analyze_game(adv, parse_history(hist)))
    items = page.locator("#review li")
    expect(items).to_have_count(3)
    for i, line in enumerate(want):
        assert items.nth(i).inner_text() == line.split(". ", 1)[1]


def test_the_multi_board_page_keeps_its_bar_in_sight_shares_and_says_what_cost_is(open_page, lex):
    from wordlebot.multi import MultiGame, suggest

    page = open_page(PHONE, "/multi?boards=8")
    page.tap("#settings-toggle")
    page.select_option("#words", "small")
    page.keyboard.press("Escape")
    ready(page)
    expect(page.locator("#cost-text")).to_contain_text("added up over the open boards")
    answers = ANSWERS[:8]
    game = MultiGame(lex, 8, answers=answers)
    while not game.over:
        word = suggest(game, 1)[0].word
        page.keyboard.type(word)
        for b in game.active:
            page.keyboard.type(digits(word, answers[b]))
        page.keyboard.press("Enter")
        ready(page)
        game.guess(word)
        if len(game.rows) == 4:  # the boards are taller than the phone: the bar stays at the top
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            page.wait_for_timeout(100)
            box = page.locator("#bar").bounding_box()
            assert 0 <= box["y"] <= 2, box
    expect(page.locator("#result")).to_be_visible()
    share = page.locator("#share-text").input_value()
    assert share.startswith("Octordle · score")
    assert " ".join("X" if t is None else str(t) for t in game.solved_at) in share.splitlines()[0]
    expect(page.locator("#typing-help")).to_be_hidden()
