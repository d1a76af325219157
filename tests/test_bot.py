"""The browser bot against the local replica page in headless Chromium: a game solved end to
end through the command, a word the page refuses, running out of rows, pages with a missing
hook; then the result file, `wordlebot last`, notifications and the systemd units."""

from __future__ import annotations

import configparser
import datetime as dt
import json
import re
import shlex
from pathlib import Path

import pytest
import web_helpers
from click.testing import CliRunner
from web_helpers import ANSWERS, WORDS, digits, small_lexicon

from wordlebot.bot import player
from wordlebot.bot.replica import ReplicaServer, page_file
from wordlebot.cli import cli
from wordlebot.core import clock
from wordlebot.core.game import Game
from wordlebot.policy.advisor import Advisor

# The fixtures shared with the other browser tests (a module attribute, not an import that
# pyflakes would call unused).
chromium, lists = web_helpers.chromium, web_helpers.lists

ROOT = Path(__file__).resolve().parent.parent
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", re.M)


@pytest.fixture
def opener():
    adv = Advisor(small_lexicon())
    return adv.best(adv.new_game())


def run(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def check_result(result: player.BotResult, answer: str) -> None:
    assert result.solved and result.answer == answer and result.guesses[-1] == answer
    assert result.turns == len(result.guesses) == len(result.patterns) <= 6
    assert result.patterns == [digits(g, answer) for g in result.guesses]
    assert result.date == clock.today().isoformat() and result.seconds > 0


# ---------------------------------------------------------------------------------------------
# In Chromium


def test_bot_solves_the_replica_through_the_command(chromium, lists, tmp_path, opener):
    answer = next(a for a in ANSWERS[40:] if a != opener)
    out = tmp_path / "result.json"
    shot = tmp_path / "end.png"
    with ReplicaServer(WORDS) as replica:
        url = replica.url(answer, delay=30)
        r = run(
            [
                "bot",
                "--url",
                url,
                "--headless",
                "--verbose",
                "--result-path",
                str(out),
                "--browser",
                str(chromium),
                "--screenshot",
                str(shot),
            ]
            + lists
        )
        assert r.exit_code == 0, r.output
        served = set(replica.requests)
    result = player.load_result(out)
    check_result(result, answer)
    assert result.guesses[0] == opener and result.refused == [] and result.url == url
    assert f"solved in {result.turns}: {answer.upper()}" in r.stdout
    # --verbose: a timestamped line per step, the dialogs it closed among them.
    log = r.stderr
    assert len(STAMP.findall(log)) >= 2 + 2 * result.turns
    assert 'dismissed a dialog (button[data-testid="Play"])' in log and 'button[aria-label="Close"]' in log
    assert served <= {"/index.html", "/game.js", "/style.css", "/words.txt"}
    assert shot.read_bytes()[:4] == b"\x89PNG"
    shown = run(["last", "--result-path", str(out)])
    assert shown.exit_code == 0 and f"solved in {result.turns}: {answer.upper()}" in shown.output
    assert json.loads(run(["last", "--result-path", str(out), "--json"]).output) == json.loads(out.read_text())


def test_a_refused_word_is_cleared_and_the_next_suggestion_played(chromium, lists, tmp_path, opener):
    lex = small_lexicon()
    answer = next(a for a in ANSWERS[10:] if a != opener)
    adv = Advisor(lex)
    adv.reject(opener)
    second_choice = adv.best(adv.new_game())
    out = tmp_path / "result.json"
    with ReplicaServer([w for w in WORDS if w != opener]) as replica:  # the page does not know the opener
        r = run(
            [
                "bot",
                "--url",
                replica.url(answer, delay=20),
                "--headless",
                "--verbose",
                "--result-path",
                str(out),
                "--browser",
                str(chromium),
            ]
            + lists
        )
    assert r.exit_code == 0, r.output
    result = player.load_result(out)
    check_result(result, answer)
    assert result.refused == [opener] and opener not in result.guesses
    assert result.guesses[0] == second_choice
    assert f"refused by the page: {opener.upper()}" in r.stdout
    assert "the page says 'Not in word list'" in r.stderr


def test_out_of_rows_reads_the_answer_from_the_page(chromium, tmp_path):
    lex = small_lexicon()
    adv = Advisor(lex)
    opener = adv.best(adv.new_game(max_guesses=1))  # with one row the bot plays its likeliest answer
    answer = next(a for a in ANSWERS if a != opener)
    with ReplicaServer(WORDS) as replica:
        result = player.run(replica.url(answer, delay=10, rows=1), lex, browser=str(chromium), timeout=10)
    assert not result.solved and result.turns == 1 and result.guesses == [opener]
    assert result.patterns == [digits(opener, answer)] and result.answer == answer


def test_demo_in_hard_mode_with_a_chosen_first_word(chromium, lists, tmp_path):
    """--demo serves the replica itself; --hard keeps every hint; --first opens."""
    lex = small_lexicon()
    first, answer = WORDS[5], ANSWERS[50]
    out = tmp_path / "r.json"
    r = run(
        [
            "bot",
            "--demo",
            "--answer",
            answer.upper(),
            "--first",
            first,
            "--hard",
            "--headless",
            "--result-path",
            str(out),
            "--browser",
            str(chromium),
        ]
        + lists
    )
    assert r.exit_code == 0, r.output
    result = player.load_result(out)
    check_result(result, answer)
    assert result.guesses[0] == first and result.hard and result.url.startswith("http://127.0.0.1:")
    game = Game(lex, hard=True)
    for g, p in zip(result.guesses, result.patterns):
        assert game.hard_violation(g) is None, (g, result.guesses)
        game.guess(g, p)


BROKEN = {
    "tiles": (
        'tile.setAttribute("data-testid", "tile");',
        'tile.setAttribute("data-testid", "cell");',
        'found 6 rows ([role="group"]) but no tiles in them ([data-testid="tile"])',
    ),
    "keys": ("b.dataset.key = k;", "b.dataset.k = k;", 'could not find the enter key: no button[data-key="↵"]'),
}


@pytest.mark.parametrize("hook", sorted(BROKEN))
def test_a_page_without_a_hook_fails_with_a_clear_message(chromium, lists, tmp_path, hook):
    old, new, message = BROKEN[hook]
    script = page_file("game.js").decode()
    assert old in script  # the replica still has the hook this test removes
    html = page_file("index.html").decode().replace('src="game.js"', 'src="broken.js"')
    extra = {"/broken.html": html.encode(), "/broken.js": script.replace(old, new).encode()}
    with ReplicaServer(WORDS, extra=extra) as replica:
        r = run(
            [
                "bot",
                "--url",
                replica.url(ANSWERS[1], page="broken.html"),
                "--headless",
                "--timeout",
                "2",
                "--result-path",
                str(tmp_path / "r.json"),
                "--browser",
                str(chromium),
            ]
            + lists
        )
    assert r.exit_code == 1
    assert message in r.output and "Traceback" not in r.output
    assert not (tmp_path / "r.json").exists()


# ---------------------------------------------------------------------------------------------
# Without a browser


def test_bot_refuses_bad_options_before_starting_a_browser(lists, tmp_path):
    r = run(["bot", "--first", "zzzzz", "--headless", "--browser", "/bin/true"] + lists)
    assert r.exit_code == 1 and "'zzzzz' is not in the g guess list" in r.output
    r = run(["bot", "--demo", "--url", "http://127.0.0.1:9/"] + lists)
    assert r.exit_code == 2 and "do not give --url" in r.output
    r = run(["bot", "--headless", "--browser", str(tmp_path / "nothing"), "--url", "http://127.0.0.1:9/"] + lists)
    assert r.exit_code == 1 and "is not an executable browser (--browser)" in r.output


def test_last_without_or_with_a_bad_result(tmp_path):
    r = run(["last", "--result-path", str(tmp_path / "none.json")])
    assert r.exit_code == 1 and "no saved result" in r.output and "Traceback" not in r.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"date": 1')
    r = run(["last", "--result-path", str(bad)])
    assert r.exit_code == 1 and "is not a bot result" in r.output


def test_result_round_trip_and_default_place(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLEBOT_DATA", str(tmp_path / "data"))
    res = player.BotResult(
        date="2026-01-02",
        url="u",
        answer="crane",
        guesses=["salet", "crane"],
        patterns=["01000", "22222"],
        solved=True,
        turns=2,
        seconds=3.5,
        refused=["xxxxx"],
    )
    path = player.default_result_path()
    assert path == tmp_path / "data" / "bot" / "last.json"
    player.save_result(res, path)
    assert player.load_result(path) == res
    assert [p.name for p in path.parent.iterdir()] == ["last.json"]  # no temporary file left
    r = run(["last"])
    assert r.exit_code == 0 and "Wordle 2026-01-02 solved in 2: CRANE" in r.output and "🟩🟩🟩🟩🟩  CRANE" in r.output


def test_notify_uses_notify_send_when_present(tmp_path, monkeypatch):
    calls = tmp_path / "calls.txt"
    fake = tmp_path / "bin" / "notify-send"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {shlex.quote(str(calls))}\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    assert player.notify("wordlebot", "solved in 3") is True
    assert calls.read_text().splitlines() == ["--app-name=wordlebot", "wordlebot", "solved in 3"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert player.notify("wordlebot", "x") is False


def test_systemd_units_play_once_a_day(tmp_path):
    service = configparser.ConfigParser(interpolation=None, strict=False)
    service.optionxform = str
    service.read(ROOT / "contrib" / "wordlebot-bot.service")
    timer = configparser.ConfigParser(interpolation=None)
    timer.optionxform = str
    timer.read(ROOT / "contrib" / "wordlebot-bot.timer")
    assert timer["Timer"]["Persistent"] == "true" and timer["Timer"]["OnCalendar"]
    assert timer["Install"]["WantedBy"] == "timers.target"
    assert service["Service"]["Type"] == "oneshot"
    argv = shlex.split(service["Service"]["ExecStart"])
    assert Path(argv[0]).name == "wordlebot" and argv[1] == "bot"
    assert "--headless" in argv and "--notify" in argv
    # The options in the unit are ones the command accepts.
    bot = cli.commands["bot"]
    ctx = bot.make_context("bot", argv[2:])
    assert ctx.params["headless"] and ctx.params["notify_flag"]


# ---------------------------------------------------------------------------------------------
# The history first


def _fake_game(calls):
    def run_game(url, lexicon, **kwargs):
        calls.append(lexicon)
        return player.BotResult(
            date=clock.today().isoformat(),
            url=url,
            answer=ANSWERS[0],
            guesses=[ANSWERS[0]],
            patterns=["22222"],
            solved=True,
            turns=1,
            seconds=0.5,
        )

    return run_game


def test_bot_brings_the_history_up_to_yesterday_before_loading_the_prior(lists, tmp_path, fake_host, monkeypatch):
    from wordlebot.cli import common as cli_mod  # the word-set options load through cli_common.load_lexicon
    from wordlebot.core import data

    today = clock.today()
    folder = tmp_path / "d"
    start = [data.HistoryEntry(today - dt.timedelta(days=4 - k), w) for k, w in enumerate(["cigar", "rebut"])]
    data.atomic_write(folder / data.HISTORY_FILE, data.format_history_csv(start))
    for k, word in ((2, "sissy"), (1, "humph"), (0, "awake")):
        day = today - dt.timedelta(days=k)
        fake_host.routes[f"/{day}.json"] = (
            200,
            json.dumps({"solution": word, "print_date": day.isoformat()}).encode(),
            {},
        )
    monkeypatch.delenv("WORDLEBOT_OFFLINE")
    monkeypatch.setenv("WORDLEBOT_NYT_URL", fake_host.url)
    history_at_load = []
    real = cli_mod.load_lexicon

    def loading(*args, **kwargs):
        history_at_load.append(data.read_history(folder)[-1].date)
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_mod, "load_lexicon", loading)
    games = []
    monkeypatch.setattr(player, "run", _fake_game(games))
    args = ["--data-dir", str(folder), "bot", "--headless", "--result-path", str(tmp_path / "r.json")] + lists
    r = run(args)
    assert r.exit_code == 0, r.output
    assert history_at_load == [today - dt.timedelta(days=1)] and len(games) == 1
    assert fake_host.requests == [f"/{today - dt.timedelta(days=k)}.json" for k in (2, 1)]  # never today's
    assert "answer history up to date (2 days added" in r.stderr and "AWAKE" not in r.output.upper()
    # the endpoint unreachable: a note, and the game is played with the history as it is
    monkeypatch.setenv("WORDLEBOT_NYT_URL", "http://127.0.0.1:9")
    data.atomic_write(folder / data.HISTORY_FILE, data.format_history_csv(start))
    r = run(args)
    assert r.exit_code == 0, r.output
    assert "note: the answer history could not be updated" in r.stderr and "cannot connect" in r.stderr
    assert history_at_load[-1] == start[-1].date and len(games) == 2
