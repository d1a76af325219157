"""One representation per value at the edges (issue 40): the CLI's --json and the web API give a
suggestion, an analysis and a refused history in the same words, from one library call each;
errors carry where they are (``.row``, ``.board``, an HTTP ``.status``), so no shell reads their
text to decide what happened."""

from __future__ import annotations

import datetime as dt
import json
import math
import warnings

import pytest
import web_helpers
from click.testing import CliRunner
from web_helpers import ANSWERS, WORDS, digits

from wordlebot.cli import cli
from wordlebot.core import data
from wordlebot.core.errors import (
    HttpError,
    InconsistentFeedbackError,
    InvalidFeedbackError,
    InvalidWordError,
    WordlebotError,
)
from wordlebot.core.feedback import feedback, feedback_unchecked
from wordlebot.core.game import Row, parse_history
from wordlebot.core.words import Lexicon
from wordlebot.multi import MultiGame
from wordlebot.multi.policy import MultiSuggestion
from wordlebot.policy.strategies import Ranked
from wordlebot.web.app import create_app
from wordlebot.web.service import Engine

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

lists, env, lex = web_helpers.lists, web_helpers.offline_env, web_helpers.small_lex


@pytest.fixture(scope="module")
def client(lex):
    return TestClient(create_app(Engine({"small": lex}, "small", ready_wait=120.0)))


def cli_json(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def cli_error(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 1 and "Traceback" not in r.output
    return " ".join(r.output.split()).removeprefix("Error: ")


# --- the same JSON from both shells -------------------------------------------------------------


def test_a_suggestion_is_the_same_in_the_cli_json_and_the_web_api(client, lists):
    hist = f"{WORDS[0]}:{digits(WORDS[0], ANSWERS[27])}"  # 10 answers left
    on_cli = cli_json(["suggest", "--history", hist, "--json", "--top", "5", *lists])
    on_web = client.post("/api/suggest", json={"history": hist, "top": 5}).json()
    assert on_cli["suggestions"] == on_web["suggestions"] and len(on_cli["suggestions"]) == 5
    assert set(on_cli["suggestions"][0]) >= {"word", "expected", "lose", "bits", "can_be_answer"}


def test_an_analysis_is_the_same_in_the_cli_json_and_the_web_api(client, lists):
    answer = ANSWERS[3]
    hist = f"{WORDS[0]}:{digits(WORDS[0], answer)},{answer}:{digits(answer, answer)}"
    on_cli = cli_json(["analyze", "--history", hist, "--json", *lists])
    on_web = client.post("/api/analyze", json={"history": hist}).json()
    keys = ("summary", "skill", "luck", "solved", "lost", "answer", "goal", "rows")
    assert {k: on_cli[k] for k in keys} == {k: on_web[k] for k in keys}
    # the row's colours under one name, as digits, with its place (once "pattern" on the CLI)
    first = on_cli["rows"][0]
    assert first["index"] == 1 and first["feedback"] == digits(WORDS[0], answer) and "pattern" not in first
    assert on_cli["solved"] is True and on_cli["answer"] == answer


def test_json_has_no_infinity_a_value_never_reached_is_null():
    row = Ranked("crane", math.inf, 1.5, 2.0, 3, 4, 0.1, True, True, expected=1e18, lose=0.25)
    doc = row.to_dict()
    assert doc["score"] is None and doc["expected"] is None and doc["lose"] == 0.25 and doc["bits"] == 1.5
    json.dumps(doc, allow_nan=False)  # strict JSON
    multi = MultiSuggestion("crane", math.inf, (1, 3), "why", searched=True).to_dict()
    assert multi == {"word": "crane", "cost": None, "solves": [1, 3], "why": "why", "searched": True}


# --- one history parser -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "history",
    [
        "{w}",  # no colours
        "{w}:0x1q0",  # not a colour
        "{w}:2012",  # a tile short
        "ab1de:00000",  # not a word
        "{w}:00000,{w}",  # the second row
    ],
)
def test_a_bad_history_gets_the_same_message_from_the_cli_and_the_web(client, lists, history):
    history = history.format(w=WORDS[0])
    on_cli = cli_error(["suggest", "--history", history, *lists])
    r = client.post("/api/suggest", json={"history": history})
    assert r.status_code == 400
    assert on_cli == r.json()["detail"]
    assert on_cli.startswith(f"row {history.count(',') + 1}: ")


def test_a_word_the_list_lacks_is_named_with_its_row_by_both_shells(client, lists):
    history = f"{WORDS[0]}:00000,zzzzz:00000"
    on_cli = cli_error(["suggest", "--history", history, *lists])
    on_web = client.post("/api/suggest", json={"history": history}).json()["detail"]
    # the same words but the set's name: the CLI's lists are files, the server's a named set
    assert on_cli.startswith("row 2: 'zzzzz' is not in the ") and on_web.startswith("row 2: 'zzzzz' is not in the ")


def test_the_parser_names_the_row_as_a_value_too():
    with pytest.raises(InvalidFeedbackError) as caught:
        parse_history("salet:20110,crony:2012")
    assert caught.value.row == 2 and str(caught.value) == "row 2: 'crony' has 5 letters but its feedback has 4 tiles"
    with pytest.raises(InvalidWordError) as caught:
        parse_history([("salet", "20110"), ("cron", "0000")], length=5)
    assert caught.value.row == 2 and "this game uses 5-letter words" in str(caught.value)
    assert parse_history("salet:20110; crony:..y.g\n") == [
        Row.from_str("salet:20110"),
        Row("crony", 1 * 9 + 2 * 81),
    ]  # ..y.g: 00102


# --- structured errors --------------------------------------------------------------------------


def test_an_error_said_of_a_row_keeps_its_type_and_attributes():
    err = InconsistentFeedbackError("leaves no possible word", board=2).at(row=3)
    assert isinstance(err, InconsistentFeedbackError) and (err.row, err.board) == (3, 2)
    assert str(err) == "row 3: leaves no possible word"
    # an error that names its row already is not named twice
    named = InconsistentFeedbackError("row 3 (CRONY 00000) leaves no possible word", row=3)
    assert str(named.at(row=3)) == str(named)
    assert str(WordlebotError("x").at(row=1, board=2)) == "row 1: board 2: x"


def test_a_multi_board_refusal_says_its_row_and_board_as_values():
    lex = Lexicon.from_lists(WORDS, ANSWERS, name="small")
    game = MultiGame(lex, 2)
    a, b = ANSWERS[0], ANSWERS[1]
    first = WORDS[5]
    ok = [digits(first, a), digits(first, b)]
    impossible = "22221"  # four greens and a gray: no word of the list is that close to the guess and not it
    with pytest.raises(InconsistentFeedbackError) as caught:
        game.replay([(first, ok), (WORDS[6], [digits(WORDS[6], a), impossible])])
    assert caught.value.board == 2 and caught.value.row == 2
    assert str(caught.value).startswith("board 2: row 2 (")  # as the README shows it, the row named once
    assert len(game.rows) == 1  # the row before it stays played


def test_an_http_error_carries_its_status(tmp_path, fake_host):
    fake_host.routes["/2021-06-22.json"] = (503, b"busy", {})
    with pytest.raises(HttpError) as caught:
        data.nyt_solution(fake_host.url, dt.date(2021, 6, 22), timeout=5)
    assert caught.value.status == 503
    assert data.nyt_solution(fake_host.url, dt.date(2021, 6, 23), timeout=5) is None  # 404: not out yet


def test_an_update_says_why_it_stopped_as_a_value(tmp_path, fake_host):
    entries = [data.HistoryEntry(data.FIRST_DAY + dt.timedelta(d), w) for d, w in enumerate(["cigar", "rebut"])]
    data.atomic_write(tmp_path / data.HISTORY_FILE, data.format_history_csv(entries))
    day = data.FIRST_DAY + dt.timedelta(2)
    rep = data.update_history(tmp_path, base=fake_host.url, until=day, delay=0)
    assert (rep.reason, rep.ok) == ("not published", True)
    fake_host.routes[f"/{day}.json"] = (500, b"down", {})
    rep = data.update_history(tmp_path, base=fake_host.url, until=day, delay=0)
    assert (rep.reason, rep.ok) == ("failed", False) and "HTTP 500" in rep.stopped


# --- the unchecked fast path, public ------------------------------------------------------------


def test_feedback_unchecked_is_feedback_without_the_checks():
    for g in WORDS[:20]:
        for a in ANSWERS[:20]:
            assert feedback_unchecked(g, a) == feedback(g, a)
    assert feedback_unchecked("error", "elder") == 2 + 2 * 81  # 20002


def test_the_web_answer_of_a_refused_row_says_which_row(client):
    r = client.post("/api/suggest", json={"history": f"{WORDS[0]}:00000,{WORDS[1]}:2012"})
    assert r.status_code == 400 and r.json()["row"] == 2 and "board" not in r.json()
    assert client.post("/api/suggest", json={"words": "nope"}).status_code == 404  # UnknownWordSet.http_status


def test_an_error_whose_init_passes_nothing_on_still_has_no_place():
    from wordlebot.core.extras import MissingExtraError

    err = MissingExtraError("web", "the web app", "fastapi")
    assert (err.row, err.board) == (None, None)


def test_an_error_of_another_signature_can_be_said_of_a_row():
    from wordlebot.core.extras import MissingExtraError

    err = HttpError("https://x: HTTP 503 busy", status=503).at(row=4)
    assert (type(err), err.status, err.row, str(err)) == (HttpError, 503, 4, "row 4: https://x: HTTP 503 busy")
    other = MissingExtraError("web", "the web app", "fastapi").at(board=1)
    assert other.extra == "web" and str(other).startswith("board 1: the web app needs the 'web' extra")
