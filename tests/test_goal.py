"""The play goal (advisor.GOALS): streak-safe by default, the pure average as an option, and
every figure shown as what it is (the chance to lose, the guesses when solved), never a
penalty in disguise.

The hand-made position: four answers ending in -AVER and a splitter, BEECH, that tells all four
apart (checked below with tests/naive.py), two guesses left.  HAVER can win at once but, when it
misses, one guess is left for three words: the lightest two are lost.  BEECH wins for certain in
two.  The weights are chosen so that the pure average (a loss counted as ten more guesses)
prefers the gamble: 1 + 0.5 + 10 x 0.045 = 1.95 < 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from naive import feedback_code, least_loss_then_guesses, optimal_total, partition

from wordlebot.cli import cli
from wordlebot.core.words import Lexicon
from wordlebot.policy.advisor import FAIL_COSTS, Advisor

AVER = ["haver", "caver", "eaver", "waver"]
WEIGHTS = {"haver": 0.5, "caver": 0.455, "eaver": 0.03, "waver": 0.015}
GUESSES = AVER + ["beech", "abbey", "trout"]


def lexicon(weights=WEIGHTS) -> Lexicon:
    return Lexicon.from_lists(GUESSES, AVER, [weights[a] for a in AVER], name="aver")


def test_the_command_line_names_the_library_goals():
    """cli_common names them as text (the advisor loads numpy and Numba)."""
    from wordlebot.cli import common as cli_common
    from wordlebot.policy import advisor

    assert cli_common.GOALS == advisor.GOALS and cli_common.DEFAULT_GOAL == advisor.DEFAULT_GOAL


def test_the_hand_made_position_is_the_trap():
    assert len(partition("beech", AVER)) == 4  # BEECH tells the four apart
    assert len(partition("haver", AVER)) == 2  # HAVER: the win, or the other three together


@pytest.mark.parametrize("goal", ["streak", "average"])
def test_the_goal_decides_between_the_certain_win_and_the_gamble(goal):
    adv = Advisor(lexicon(), goal=goal, use_book=False)
    game = adv.new_game(max_guesses=2)
    rows = {r.word: r for r in adv.suggest(game, 7)}
    # by hand: BEECH solves all in two; HAVER solves HAVER in one and CAVER in two, loses the rest
    assert rows["beech"].lose == 0 and rows["beech"].expected == pytest.approx(2.0)
    assert rows["haver"].lose == pytest.approx(0.045)
    assert rows["haver"].expected == pytest.approx((0.5 * 1 + 0.455 * 2) / 0.955)
    best = adv.suggest(game, 1)[0]
    assert best.word == ("beech" if goal == "streak" else "haver")


def test_the_default_takes_the_certain_win():
    """Without a goal given the assistant plays for the streak (before: HAVER, the gamble)."""
    adv = Advisor(lexicon(), use_book=False)
    assert adv.suggest(adv.new_game(max_guesses=2), 1)[0].word == "beech"


def test_the_streak_goal_is_the_lexicographic_optimum():
    """The suggested guess's figures are the exhaustive optimum of (loss, then guesses), and no
    first guess has a smaller loss (tests/naive.py)."""
    adv = Advisor(lexicon(), use_book=False)
    game = adv.new_game(max_guesses=2)
    top = adv.suggest(game, 1)[0]
    loss, total = least_loss_then_guesses(GUESSES, AVER, WEIGHTS, 2)
    assert top.lose == pytest.approx(loss) and loss == 0
    assert top.expected == pytest.approx(total)
    for g in GUESSES:
        first_loss, _ = least_loss_then_guesses(GUESSES, AVER, WEIGHTS, 2, first=g)
        assert first_loss >= loss
    # and the average goal's top guess is the optimum of the guesses plus ten per loss
    avg = Advisor(lexicon(), goal="average", use_book=False).suggest(game, 1)[0]
    value = avg.expected * (1 - avg.lose) + 2 * avg.lose + FAIL_COSTS["average"] * avg.lose
    assert value == pytest.approx(optimal_total(GUESSES, AVER, 2, weights=WEIGHTS, fail_cost=10.0))


def test_with_one_guess_left_no_figure_reads_above_one_guess():
    """The failure cost never shows as guesses: with one guess left a guess that can win needs
    exactly one when it does (before: the avg column showed 10.057 and 11.000)."""
    for goal in ("streak", "average"):
        adv = Advisor(lexicon(), goal=goal, use_book=False)
        game = adv.new_game(max_guesses=2)
        game.guess("haver", feedback_code("haver", "waver"))
        rows = adv.suggest(game, 7)
        assert rows[0].word == "caver"  # the likeliest of the three
        assert rows[0].lose == pytest.approx(0.045 / 0.5)
        for r in rows:
            assert r.expected is None or r.expected == pytest.approx(1.0)
            if r.word not in AVER:  # cannot win with the last guess
                assert r.expected is None and r.lose == pytest.approx(1.0)


def test_suggest_json_and_table_say_the_goal_and_the_chance(tmp_path):
    (tmp_path / "g.txt").write_text("\n".join(GUESSES) + "\n")
    (tmp_path / "a.txt").write_text("\n".join(AVER) + "\n")
    runner = CliRunner()
    files = ["--guesses", str(tmp_path / "g.txt"), "--answers", str(tmp_path / "a.txt")]
    # unit weights, after HAVER missed: CAVER EAVER WAVER, five guesses left
    history = f"haver:{''.join(str(feedback_code('haver', 'caver') // 3**i % 3) for i in range(5))}"
    r = runner.invoke(cli, ["suggest", "--history", history, "--json"] + files)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["goal"] == "streak"
    assert all({"expected", "lose"} <= set(s) for s in doc["suggestions"])
    assert all(s["lose"] == 0 and s["expected"] <= 5 for s in doc["suggestions"])
    r = runner.invoke(cli, ["suggest", "--history", history, "--goal", "average"] + files)
    assert r.exit_code == 0 and "goal: average" in r.output, r.output
    r = runner.invoke(cli, ["suggest", "--history", history, "--goal", "streek"] + files)
    assert r.exit_code == 2 and "'streek' is not one of 'streak', 'average'" in r.output


def test_the_table_shows_the_chance_to_solve_where_below_certain():
    from rich.console import Console

    from wordlebot.term.render import suggestion_table

    adv = Advisor(lexicon(), goal="average", use_book=False)
    game = adv.new_game(max_guesses=2)
    rows = adv.suggest(game, 3)
    console = Console(width=80, record=True)
    console.print(suggestion_table(rows, "search", 4, hard=False, goal="average"))
    text = console.export_text()
    assert "solve" in text and "95.5%" in text  # HAVER: 1 - 0.045
    assert "goal: average" in text
    line = next(x for x in text.splitlines() if "BEECH" in x)
    assert "2.000" in line and "%" not in line.split("BEECH")[1].split()[1]  # certain: no chance shown


def test_each_goal_has_its_own_book():
    """A book is kept per goal: one computed under the other goal is never read (it would rank
    the first moves for the other objective)."""
    from conftest import random_words

    words = random_words(120, alphabet="abcdeorst", seed=3)
    lex = Lexicon.from_lists(words, words[::3], name="books")
    streak, average = Advisor(lex), Advisor(lex, goal="average")
    assert streak.book_file() != average.book_file()
    streak.book()
    assert streak.book_file().exists() and not average.book_file().exists()
    assert average.book(build=False) is None


# ---------------------------------------------------------------------------------------------
# The analysis a player believes: lost, won and off-list games


def rows_for(words, answer):
    from wordlebot.core.game import Row

    return [Row(w, feedback_code(w, answer)) for w in words]


def test_a_won_long_shot_is_rated_by_its_chance_and_never_zero():
    """HAVER (the gamble) then WAVER, the lightest of the three left with one guess, which won.
    By hand: HAVER keeps 0.955 of BEECH's certain win (skill round(99 x 0.955) = 95); WAVER
    keeps 0.015 / 0.455 of CAVER's chance (round(99 x 0.033) = 3), never 0 for a guess that
    won; and no figure is above the guesses left (before: 'yours 10.96')."""
    from wordlebot.policy.analysis import analyze_game

    adv = Advisor(lexicon(), use_book=False)
    report = analyze_game(adv, rows_for(["haver", "waver"], "waver"), answer="waver", max_guesses=2)
    first, last = report.rows
    assert first.best == "beech" and first.best_lose == 0 and first.best_expected == pytest.approx(2.0)
    assert first.player_lose == pytest.approx(0.045) and first.skill == 95
    assert last.best == "caver" and last.best_lose == pytest.approx(0.045 / 0.5)
    assert last.player_lose == pytest.approx(1 - 0.015 / 0.5) and last.skill == 3
    assert last.best_expected == last.player_expected == pytest.approx(1.0)
    assert last.luck >= 98  # the luckiest outcome there was
    assert report.solved and report.skill == 49 and "solved in 2" in report.summary()


def test_a_lost_game_is_never_rated_99():
    """Unit weights: HAVER then CAVER against EAVER.  CAVER was as good as any word with one
    guess left (each of the three is a third), so it rates 99, HAVER does not (it kept 1/2 of
    BEECH's certain win: 50), and the game is no 99.  Then a lost game whose every guess was as
    good as the bot's: it is shown as 98, and the summary says the bot loses it too."""
    from wordlebot.policy.analysis import LOST_GAME_SKILL, analyze_game

    uniform = lexicon({a: 1.0 for a in AVER})
    adv = Advisor(uniform, use_book=False)
    report = analyze_game(adv, rows_for(["haver", "caver"], "eaver"), answer="eaver", max_guesses=2)
    assert [r.skill for r in report.rows] == [50, 99]
    assert report.lost and report.skill == round((50 + 99) / 2) and "not solved" in report.summary()
    # Only the -AVER words as guesses: no splitter, every guess a gamble the bot takes too.
    words = Lexicon.from_lists(AVER, AVER, name="aver-only")
    bot = Advisor(words, use_book=False)
    game = bot.new_game(max_guesses=2)
    first = bot.best(game)
    game.guess(first, "02222")  # any other -AVER word: only the first letter differs
    second = bot.best(game)
    answer = next(a for a in AVER if a not in (first, second))
    report = analyze_game(bot, rows_for([first, second], answer), answer=answer, max_guesses=2)
    assert all(r.skill == 99 for r in report.rows)
    assert report.skill == LOST_GAME_SKILL == 98 and report.bot_loses_too
    assert "loses this game too" in report.summary()


def test_an_unfinished_game_is_not_a_loss():
    from wordlebot.policy.analysis import analyze_game

    adv = Advisor(lexicon(), use_book=False)
    report = analyze_game(adv, rows_for(["beech"], "caver"), max_guesses=2)
    assert not report.solved and not report.lost and report.skill == 99


def test_off_list_rows_stay_unrated_and_the_rated_ones_show_no_penalty():
    """An answer the lists allow as a guess but not as an answer (TROUT): the row that shows it
    is off the list and unrated; the rows before are rated with figures within the guesses left."""
    from wordlebot.policy.analysis import analyze_game

    adv = Advisor(lexicon(), use_book=False)
    report = analyze_game(adv, rows_for(["haver", "beech", "trout"], "trout"), answer="trout", max_guesses=6)
    assert report.unrated and report.solved
    for k, r in enumerate(report.rows):
        for x in (r.best_expected, r.player_expected):
            assert x is None or 1.0 <= x <= 6 - k
        assert 0 <= r.best_lose <= 1 and 0 <= r.player_lose <= 1


def test_analyze_cli_json_has_the_chance_and_the_guesses_apart(tmp_path):
    from conftest import write_lists

    files = write_lists(tmp_path, GUESSES, AVER)
    history = ",".join(
        f"{w}:{''.join(str(feedback_code(w, 'eaver') // 3**i % 3) for i in range(5))}"
        for w in ("abbey", "trout", "haver", "caver", "waver", "beech")
    )
    r = CliRunner().invoke(cli, ["analyze", "--history", history, "--answer", "eaver", "--json"] + files)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["goal"] == "streak" and not doc["solved"] and doc["skill"] <= 98
    for k, row in enumerate(doc["rows"]):
        left = 6 - k
        for f in ("best_expected", "player_expected"):
            assert row[f] is None or row[f] <= left
        assert {"best_lose", "player_lose"} <= set(row)


# ---------------------------------------------------------------------------------------------
# The web API


@pytest.fixture(scope="module")
def aver_client():
    import warnings

    from wordlebot.web.app import create_app
    from wordlebot.web.service import Engine

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    engine = Engine({"aver": lexicon()}, "aver", ready_wait=120)
    yield TestClient(create_app(engine))
    engine.close()


@pytest.mark.parametrize("goal,first", [(None, "beech"), ("streak", "beech"), ("average", "haver")])
def test_api_suggest_says_the_goal_and_the_chance(aver_client, goal, first):
    body = {"max_guesses": 2, "top": 7} | ({"goal": goal} if goal else {})
    doc = aver_client.post("/api/suggest", json=body).json()
    assert doc["goal"] == (goal or "streak") and doc["suggestions"][0]["word"] == first
    rows = {s["word"]: s for s in doc["suggestions"]}
    assert rows["haver"]["lose"] == pytest.approx(0.045) and rows["beech"]["lose"] == 0
    assert rows["haver"]["expected"] == pytest.approx((0.5 * 1 + 0.455 * 2) / 0.955)


def test_api_refuses_an_unknown_goal(aver_client):
    r = aver_client.post("/api/suggest", json={"goal": "streek"})
    assert r.status_code == 422 and "goal" in r.json()["detail"]


def test_api_analyze_of_a_won_long_shot_and_a_lost_game(aver_client):
    won = [
        {"guess": w, "feedback": "".join(str(feedback_code(w, "waver") // 3**i % 3) for i in range(5))}
        for w in ("haver", "waver")
    ]
    doc = aver_client.post("/api/analyze", json={"history": won, "max_guesses": 2}).json()
    assert doc["goal"] == "streak" and doc["solved"] and not doc["lost"]
    assert [r["skill"] for r in doc["rows"]] == [95, 3]
    assert doc["rows"][1]["player_expected"] == pytest.approx(1.0)
    assert doc["rows"][1]["player_lose"] == pytest.approx(0.97)
    lost = [
        {"guess": w, "feedback": "".join(str(feedback_code(w, "eaver") // 3**i % 3) for i in range(5))}
        for w in ("haver", "caver")
    ]
    doc = aver_client.post("/api/analyze", json={"history": lost, "max_guesses": 2, "answer": "eaver"}).json()
    assert doc["lost"] and not doc["solved"] and doc["skill"] < 99 and "Skill 99" not in doc["summary"]
    assert all(r["best_expected"] is None or r["best_expected"] <= 2 - k for k, r in enumerate(doc["rows"]))


# ---------------------------------------------------------------------------------------------
# The official lists (WORDLEBOT_DATA): the position a player found, and simulate's defaults

HAVER_HISTORY = "sater:02022,pigly:00000,bifid:00000,raver:02222"
HAVER_DAY = "2026-05-31"  # a fixed prior (the answer model fitted on the history to 2026-05-30)


def test_the_haver_position_takes_the_certain_win(official):
    """SATER PIGLY BIFID RAVER leaves HAVER, CAVER, EAVER, WAVER with two guesses: the default
    plays BEECH, which tells the four apart, a certain win.  (Under the answer model fitted on
    the editor's choices WAVER, a past answer, weighs most and HAVER is no gamble worth taking
    even on average; the PARRY position below is today's trap.)"""
    run = CliRunner()
    base = ["--data-dir", str(official), "suggest", "--date", HAVER_DAY, "--history", HAVER_HISTORY, "--json"]
    doc = json.loads(run.invoke(cli, base, catch_exceptions=False).stdout)
    top = doc["suggestions"][0]
    assert doc["goal"] == "streak" and top["word"] == "beech" and top["lose"] == 0
    assert top["expected"] == pytest.approx(2.0)


PARRY_HISTORY = "sater:02001,hydro:01020,fairy:02022,marry:02222"


def test_the_parry_position_gambles_only_when_asked(official):
    """After SATER HYDRO FAIRY MARRY, PARRY, CARRY and BARRY are left with two guesses.  PARRY
    wins at once most of the time but, when it misses, one guess is left for two words; ABACA
    tells the three apart.  The default plays ABACA, the pure average PARRY, whose figures are
    the game's own posterior, by hand: when solved, (P(parry) + 2 P(carry)) / (P(parry) +
    P(carry)) guesses; lost, P(barry)."""
    from wordlebot.app.wordsets import load_lexicon
    from wordlebot.core.game import Game, parse_history

    run = CliRunner()
    base = ["--data-dir", str(official), "suggest", "--date", HAVER_DAY, "--history", PARRY_HISTORY, "--json"]
    doc = json.loads(run.invoke(cli, base, catch_exceptions=False).stdout)
    top = doc["suggestions"][0]
    assert doc["goal"] == "streak" and top["lose"] == 0 and top["expected"] == pytest.approx(2.0)
    avg = json.loads(run.invoke(cli, base + ["--goal", "average"], catch_exceptions=False).stdout)
    parry = avg["suggestions"][0]
    assert parry["word"] == "parry"
    lex = load_lexicon("nyt", data_dir=official, day=__import__("datetime").date.fromisoformat(HAVER_DAY))
    game = Game.from_history(lex, parse_history(PARRY_HISTORY))
    post = dict(zip(game.candidate_words, game.posterior.tolist()))
    assert sorted(post) == ["barry", "carry", "parry"] and post["parry"] > post["carry"] > post["barry"]
    assert parry["lose"] == pytest.approx(post["barry"], rel=1e-6) and parry["lose"] > 0.01
    assert parry["expected"] == pytest.approx((post["parry"] + 2 * post["carry"]) / (post["parry"] + post["carry"]))
    assert parry["expected"] < top["expected"]  # the gamble saves guesses on average


@pytest.mark.parametrize(
    "words,extra",
    [
        ("nyt", ["--limit", "400", "--date", "2026-05-20"]),
        ("nyt-3158", ["--limit", "300"]),
        ("classic", ["--limit", "300"]),
        ("nyt-2309", ["--limit", "300"]),
        ("wordfreq", ["--limit", "300"]),
    ],
)
def test_simulate_completes_with_the_defaults(official, words, extra, tmp_path):
    """Before: the nyt set stopped after ~2 s with 'rows played must be 0 to 5, not 6'."""
    out = tmp_path / "sim.json"
    r = CliRunner().invoke(cli, ["--data-dir", str(official), "simulate", "--words", words, "--json", str(out)] + extra)
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["goal"] == "streak" and doc["games"] == int(extra[extra.index("--limit") + 1])
    assert all(len(g["guesses"]) <= 6 for g in doc["games_detail"])
    assert doc["lost"] == sum(not g["solved"] for g in doc["games_detail"])
    assert doc["average"] is None or 1 <= doc["average"] <= 6
    # the day its prior belongs to, said for the one set whose prior has a day (2026-05-20 is #1,796)
    assert ("prior of 2026-05-20 (#1,796)" in r.output) == (words == "nyt"), r.output


# ---------------------------------------------------------------------------------------------
# The terminal UI: the goal in the settings (saved) and in the suggestions' title


def test_the_settings_file_keeps_the_goal_and_names_a_bad_one(tmp_path):
    from wordlebot.app.settings import Settings

    path = tmp_path / "tui.json"
    assert Settings().goal == "streak"
    assert Settings(goal="average").save(path) is None
    assert Settings.read(path) == (Settings(goal="average"), [])
    path.write_text(json.dumps({"goal": "streek", "hard": True}))
    s, notes = Settings.read(path)
    assert s.goal == "streak" and s.hard and 'goal "streek" is not one of streak, average' in notes[0]


def test_the_tui_says_the_goal_and_changes_it_in_the_settings():
    import asyncio

    from test_tui import _apply, _text, running, settle
    from wordlebot.app.session import Session
    from wordlebot.app.settings import Settings
    from wordlebot.tui import WordlebotApp

    async def go():
        app = WordlebotApp(Session(lexicon(), Settings(words="aver", max_guesses=2)), persist=False)
        async with running(app) as pilot:
            assert _text(app, "#sugg-title").startswith("streak · Tab plays BEECH")
            await pilot.press(*"haver", *"02222", "enter")  # missed: CAVER EAVER WAVER, one guess
            await settle(app, pilot)
            await _apply(app, pilot, goal="average")
            s = app.session
            assert s.settings.goal == "average" and s.advisor.goal == "average"
            assert [r.guess for r in s.game.rows] == ["haver"]  # the game goes on
            assert _text(app, "#sugg-title").startswith("average · Tab plays CAVER")
            # one guess left: avg 1.000 (never the failure cost), and the chance to solve beside it
            table = app.screen.query_one("#suggestions")
            labels = [str(c.label) for c in table.ordered_columns]
            assert labels[:3] == ["guess", "avg", "solve"]
            assert [str(x) for x in table.get_row_at(0)[:3]] == ["CAVER", "1.000", "91.0%"]

    asyncio.run(go())


@pytest.mark.parametrize("answer,last", [("waver", "waver"), ("eaver", "caver")])
def test_the_tui_analysis_of_a_won_long_shot_and_a_lost_game(answer, last):
    """The analysis screen shows each guess's guesses when solved and chance to solve (never a
    penalty as guesses), the skills by the rule, the goal on its border, and a review that says
    HAVER risked the game."""
    import asyncio

    from test_tui import _text, running, settle
    from wordlebot.app.session import Session
    from wordlebot.app.settings import Settings
    from wordlebot.tui import WordlebotApp
    from wordlebot.tui.screens import AnalysisScreen

    async def go():
        app = WordlebotApp(Session(lexicon(), Settings(words="aver", max_guesses=2)), persist=False)
        async with running(app) as pilot:
            for row in rows_for(["haver", last], answer):
                digits = "".join(str(row.pattern // 3**i % 3) for i in range(5))
                await pilot.press(*row.guess, *digits, "enter")
                await settle(app, pilot)
            assert isinstance(app.screen, AnalysisScreen)
            await settle(app, pilot)
            table = app.screen.query_one("#rows")
            cells = [[str(x) for x in table.get_row_at(i)] for i in range(table.row_count)]
            assert cells[0][3:7] == ["BEECH", "2.00", "1.48 95.5%", "95"]
            assert cells[1][3:5] == ["CAVER", "1.00 91.0%"]
            assert cells[1][5:7] == (["1.00 3.0%", "3"] if last == "waver" else ["1.00 91.0%", "99"])
            summary = _text(app.screen, "#summary")
            assert not summary.startswith("Skill 99")
            assert ("solved in 2" in summary) == (answer == "waver")
            assert app.screen.query_one("#analysis").border_title.endswith("plays for the streak")
            assert "HAVER: It risked the game: 4.5 % more chance to lose than with BEECH" in _text(
                app.screen, "#review"
            )

    asyncio.run(go())
