"""The web app: the JSON API through a test client (answers checked against the library, every
kind of bad input), the `web` command as a new user starts it, and the page in headless
Chromium (a whole game by clicking tiles, undo, errors, analysis, share, a screenshot)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import web_helpers
from click.testing import CliRunner
from web_helpers import ANSWERS, WORDS, LiveServer, digits, small_lexicon

from wordlebot.cli import cli
from wordlebot.core.feedback import Feedback
from wordlebot.core.game import Game
from wordlebot.core.share import share_grid
from wordlebot.core.words import Lexicon
from wordlebot.policy.advisor import Advisor
from wordlebot.policy.analysis import analyze_game
from wordlebot.web.app import STATIC, create_app
from wordlebot.web.service import Engine

with warnings.catch_warnings():  # starlette's note about httpx versions is not ours to fix
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

# Requests wait this long for a word set being prepared (a loaded machine may take seconds): the
# tests of answers are not about readiness, which has tests of its own (ready_wait=0).
WAIT = 120.0

# The fixtures shared with the other web tests (a module attribute, not an import that
# pyflakes would call unused).
chromium, lists = web_helpers.chromium, web_helpers.lists
env, lex = web_helpers.offline_env, web_helpers.small_lex


@pytest.fixture(scope="module")
def engine(lex):
    return Engine({"small": lex, "other": small_lexicon("other")}, "small", ready_wait=WAIT)


@pytest.fixture(scope="module")
def client(engine):
    return TestClient(create_app(engine))


@pytest.fixture(scope="module")
def advisor(lex):
    return Advisor(lex)


def post(client, path, body):
    return client.post(path, json=body)


def until(condition, seconds: float = 60.0) -> None:
    """Wait for ``condition`` (threads started by the test); fail, not hang, when it never holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)


# ---------------------------------------------------------------------------------------------
# API: answers


def test_suggest_opening_matches_the_library(client, advisor, lex):
    r = post(client, "/api/suggest", {"top": 5})
    assert r.status_code == 200, r.text
    doc = r.json()
    expected = advisor.suggest(advisor.new_game(), 5)
    assert [s["word"] for s in doc["suggestions"]] == [x.word for x in expected]
    assert [s["expected"] for s in doc["suggestions"]] == pytest.approx([x.expected for x in expected])
    # each row says how its value was found (the page marks estimates)
    assert [(s["lookahead"], s["basis"]) for s in doc["suggestions"]] == [(x.lookahead, x.basis) for x in expected]
    assert {s["basis"] for s in doc["suggestions"]} <= {"searched", "estimate", "optimal"}
    assert doc["candidates"] == len(ANSWERS) and doc["words"] == "small" and doc["length"] == 5
    assert [c["word"] for c in doc["candidate_words"]] == ANSWERS[:100]


def test_suggest_mid_game_list_and_text_forms_agree(client, advisor, lex):
    answer = ANSWERS[17]
    game = advisor.new_game()
    rows = []
    for _ in range(2):
        w = advisor.best(game)
        game.guess(w, digits(w, answer))
        rows.append({"guess": w, "feedback": digits(w, answer)})
    if game.solved:
        pytest.skip("solved too early for a mid-game test")
    as_list = post(client, "/api/suggest", {"history": rows, "top": 3}).json()
    text = ",".join(f"{r['guess'].upper()}:{r['feedback']}" for r in rows)
    as_text = post(client, "/api/suggest", {"history": text, "top": 3}).json()
    assert as_list["suggestions"] == as_text["suggestions"]
    assert as_list["candidates"] == int(game.candidates.size)
    assert sorted(c["word"] for c in as_list["candidate_words"]) == sorted(game.candidate_words)
    assert as_list["suggestions"][0]["word"] == advisor.best(game)
    assert as_list["history"] == game.history()


def test_suggest_emoji_and_letters_feedback(client):
    w, answer = WORDS[1], ANSWERS[6]
    fb = Feedback.of(w, answer)
    code, emoji, letters = fb.digits(), fb.emoji(), fb.letters()
    a = post(client, "/api/suggest", {"history": [{"guess": w, "feedback": emoji}]})
    b = post(client, "/api/suggest", {"history": [{"guess": w.upper(), "feedback": letters}]})
    assert a.status_code == b.status_code == 200
    assert a.json()["rows"] == b.json()["rows"] == [{"guess": w, "feedback": code}]


def test_solved_and_lost_games(client):
    answer = ANSWERS[3]
    r = post(client, "/api/suggest", {"history": [{"guess": answer, "feedback": "22222"}]}).json()
    assert r["solved"] and r["over"] and r["suggestions"] == [] and r["candidates"] == 1
    wrong = [w for w in ANSWERS if w != answer][:2]
    rows = [{"guess": w, "feedback": digits(w, answer)} for w in wrong]
    r = post(client, "/api/suggest", {"history": rows, "max_guesses": 2}).json()
    assert r["over"] and not r["solved"] and r["suggestions"] == []


def test_hard_mode_is_applied_and_checked(client, lex):
    answer = ANSWERS[5]
    first = WORDS[0]
    row = {"guess": first, "feedback": digits(first, answer)}
    doc = post(client, "/api/suggest", {"history": [row], "hard": True, "top": 10}).json()
    game = Game.from_history(lex, f"{first}:{row['feedback']}", hard=True)
    assert all(s["hard_legal"] for s in doc["suggestions"])
    assert all(game.hard_violation(s["word"]) is None for s in doc["suggestions"])
    illegal = next(w for w in WORDS if game.hard_violation(w))
    r = post(client, "/api/suggest", {"history": [row, {"guess": illegal, "feedback": "00000"}], "hard": True})
    assert r.status_code == 400 and r.json()["detail"].startswith("row 2:") and "hard mode" in r.json()["detail"]


def test_analyze_and_share_match_the_library(client, advisor, lex):
    answer = ANSWERS[9]
    game = advisor.new_game()
    while not game.solved:
        w = advisor.best(game)
        game.guess(w, digits(w, answer))
    rows = [{"guess": r.guess, "feedback": r.feedback_digits()} for r in game.rows]
    r = post(client, "/api/analyze", {"history": rows, "puzzle": 1234})
    assert r.status_code == 200, r.text
    doc = r.json()
    report = analyze_game(advisor, game.rows)
    assert doc["skill"] == report.skill and doc["luck"] == report.luck and doc["summary"] == report.summary()
    assert [x["best"] for x in doc["rows"]] == [x.best for x in report.rows]
    assert [x["candidates_after"] for x in doc["rows"]] == [x.candidates_after for x in report.rows]
    assert doc["share"] == share_grid(game.rows, solved=True, puzzle=1234)
    assert doc["share"].startswith(f"Wordle 1,234 {len(rows)}/6")
    shared = post(client, "/api/share", {"history": rows, "style": "contrast"}).json()["text"]
    assert shared == share_grid(game.rows, solved=True, style="contrast")


def test_feedback_endpoint_follows_the_duplicate_letter_rule(client):
    doc = post(client, "/api/feedback", {"guess": "error", "answer": "elder"}).json()
    assert doc["digits"] == "20002" and doc["letters"] == "G...G" and not doc["solved"]
    assert post(client, "/api/feedback", {"guess": "speed", "answer": "erase"}).json()["emoji"] == "🟨⬛🟨🟨⬛"


def test_cached_answer_is_the_same(client, engine):
    body = {"history": [{"guess": WORDS[1], "feedback": digits(WORDS[1], ANSWERS[1])}], "top": 4}
    first = post(client, "/api/suggest", body).json()
    hits = engine.cache_hits
    again = post(client, "/api/suggest", body).json()
    assert engine.cache_hits == hits + 1 and again["cached"] is True
    for k in ("suggestions", "candidates", "candidate_words", "rows"):
        assert again[k] == first[k]


def test_the_answer_cache_is_bounded_in_bytes(lex):
    """Issue 41: the cache counted entries, and an answer listing 1,000 candidates is large:
    4,600 of them took the server from 2.2 to 3.1 GB.  Here 40 distinct large answers against a
    bound of 20,000 bytes: the bytes kept stay under it, the last answer is kept, and what a hit
    returns is the answer computed."""
    engine = Engine({"small": lex}, cache_bytes=20_000, ready_wait=WAIT)
    client = TestClient(create_app(engine))
    sizes, last = [], None
    for k in range(40):
        body = {"history": [{"guess": WORDS[k], "feedback": digits(WORDS[k], ANSWERS[3])}], "candidates": 1000}
        last = (body, post(client, "/api/suggest", body).json())
        sizes.append(len(json.dumps(last[1])))
        assert engine.cache_used <= 20_000
    assert sum(sizes) > 2 * 20_000  # (the answers would not all fit: the bound is what held)
    again = post(client, "/api/suggest", last[0]).json()
    assert again["cached"] is True and dict(again, cached=False) == last[1]
    engine.close()


def test_concurrent_requests_get_the_serial_answers(lex, advisor):
    """Many threads on one Advisor (the lock) give exactly what one thread gets."""
    histories = []
    for a in ANSWERS[20:44]:
        w = advisor.best(advisor.new_game())
        histories.append([{"guess": w, "feedback": digits(w, a)}, {"guess": WORDS[7], "feedback": digits(WORDS[7], a)}])
    serial = TestClient(create_app(Engine({"small": lex}, cache_size=0, ready_wait=WAIT)))
    expected = [post(serial, "/api/suggest", {"history": h}).json()["suggestions"] for h in histories]
    parallel = TestClient(create_app(Engine({"small": lex}, cache_size=0, ready_wait=WAIT)))
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda h: post(parallel, "/api/suggest", {"history": h}).json()["suggestions"], histories))
    assert got == expected


def test_a_word_set_is_loaded_once_under_concurrent_first_requests(env, lex):
    calls = []

    def loader(notes, day):
        calls.append(day)
        notes.append("built for the test")
        return lex

    engine = Engine({"lazy": loader}, ready_wait=WAIT)
    barrier = threading.Barrier(4)

    def get(_):
        barrier.wait()
        return engine.lexicon("lazy")

    with ThreadPoolExecutor(4) as pool:
        assert all(x is lex for x in pool.map(get, range(4)))
    assert len(calls) == 1 and engine.notes("lazy") == ["built for the test"]


# ---------------------------------------------------------------------------------------------
# API: bad input


BAD = [
    ({"history": "zzzzz:00000"}, 400, "row 1: 'zzzzz' is not in the small guess list"),
    ({"history": [{"guess": "ab1de", "feedback": "00000"}]}, 400, "row 1: 'ab1de' is not a word"),
    ({"history": [{"guess": WORDS[0], "feedback": "0100"}]}, 400, "has 5 letters but its feedback has 4 tiles"),
    ({"history": [{"guess": WORDS[0], "feedback": "0x1q0"}]}, 400, "'q' is not a colour; accepted: digits"),
    ({"history": [{"guess": WORDS[0][:4], "feedback": "0000"}]}, 400, "has 4 letters; this game uses 5-letter words"),
    ({"history": f"{WORDS[0]}"}, 400, "is not GUESS:FEEDBACK"),
    ({"history": [{"guess": WORDS[0], "feedback": "00000"}] * 7}, 400, "the history has 7 rows; the game allows 6"),
    ({"history": [{"guess": WORDS[0], "feedback": "00000"}] * 11}, 422, "history: List should have at most 10 items"),
    ({"history": [{"guess": "a" * 40, "feedback": "0"}]}, 422, "history[0].guess: String should have at most"),
    ({"history": [{"guess": WORDS[0]}]}, 422, "history[0].feedback: Field required"),
    ({"history": 5}, 422, 'history: expected a list of {"guess", "feedback"} rows'),
    ({"hard": "maybe"}, 422, "hard: Input should be a valid boolean"),
    ({"top": 500}, 422, "top: Input should be less than or equal to 50"),
    ({"max_guesses": 0}, 422, "max_guesses: Input should be greater than or equal to 1"),
    ({"hardmode": True}, 422, "hardmode: Extra inputs are not permitted"),
    ({"words": "nope"}, 404, "unknown word set 'nope'; this server offers small, other"),
    ({"words": "../etc"}, 422, "words: String should match pattern"),
    ({"strategy": "exact"}, 400, "unknown strategy 'exact'; choose one of search, entropy"),
]


@pytest.mark.parametrize("body,status,fragment", BAD, ids=[f"{i}" for i in range(len(BAD))])
def test_bad_input_is_a_clear_4xx(client, body, status, fragment):
    r = post(client, "/api/suggest", body)
    assert r.status_code == status, r.text
    assert fragment in r.json()["detail"]
    assert "Traceback" not in r.text


def test_inconsistent_rows_name_the_row(client):
    answer = ANSWERS[2]
    g1, g2 = WORDS[0], WORDS[1]
    rows = [{"guess": g1, "feedback": digits(g1, answer)}, {"guess": g2, "feedback": digits(g2, answer)}]
    # The second row against a different answer that the first row rules out.
    other = next(
        a
        for a in ANSWERS
        if digits(g1, a) != rows[0]["feedback"]
        and digits(g2, a) != rows[1]["feedback"]
        and not any(digits(g1, b) == rows[0]["feedback"] and digits(g2, b) == digits(g2, a) for b in ANSWERS)
    )
    rows[1]["feedback"] = digits(g2, other)
    r = post(client, "/api/suggest", {"history": rows})
    assert r.status_code == 400 and "row 2" in r.json()["detail"]


@pytest.mark.parametrize(
    "path,body,fragment",
    [
        ("/api/analyze", {"history": []}, "nothing to analyse"),
        ("/api/analyze", {"history": "salet:20110", "words": "small"}, "not in the small guess list"),
        (
            "/api/share",
            {"history": [{"guess": WORDS[0], "feedback": "22222"}, {"guess": WORDS[1], "feedback": "22222"}]},
            "row 1 is all green",
        ),
        ("/api/feedback", {"guess": "speed", "answer": "eras"}, "has 4 letters"),
    ],
)
def test_other_endpoints_refuse_bad_input(client, path, body, fragment):
    r = post(client, path, body)
    assert r.status_code == 400 and fragment in r.json()["detail"], r.text


def test_analyze_checks_the_answer_against_the_rows(client):
    w, answer = WORDS[0], ANSWERS[4]
    other = next(a for a in ANSWERS if digits(w, a) != digits(w, answer))
    r = post(client, "/api/analyze", {"history": [{"guess": w, "feedback": digits(w, answer)}], "answer": other})
    assert r.status_code == 400 and "check the answer or the colours" in r.json()["detail"]


def test_oversized_and_malformed_bodies(client):
    r = client.post("/api/suggest", content=b"{" + b" " * 20000 + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 16,384 bytes" in r.json()["detail"]

    def chunks():  # no Content-Length: the limit must hold while the body is read
        for _ in range(40):
            yield b" " * 1000

    r = client.post("/api/suggest", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/suggest", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "body: not valid JSON"
    r = client.post("/api/suggest", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "expected a JSON object" in r.json()["detail"]


# ---------------------------------------------------------------------------------------------
# OpenAPI, page assets, headers


def test_openapi_describes_the_api(client):
    doc = client.get("/api/openapi.json").json()
    for path in ("/api/suggest", "/api/analyze", "/api/share", "/api/feedback", "/api/config", "/api/health"):
        assert path in doc["paths"]
    body = doc["components"]["schemas"]["SuggestIn"]["properties"]
    assert {"history", "words", "hard", "max_guesses", "strategy", "top"} <= set(body)
    assert "400" in doc["paths"]["/api/suggest"]["post"]["responses"]
    assert client.get("/docs").status_code == 404  # its page would load scripts from a CDN


@pytest.mark.parametrize("page", ["/", "/multi"])
def test_page_assets_are_shipped_and_local(client, page):
    r = client.get(page)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    assert r.headers["x-content-type-options"] == "nosniff"
    refs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert refs and all(u.startswith(("/static/", "/api/", "data:")) or u in ("/", "/multi") for u in refs), refs
    for u in refs:
        if not u.startswith("data:"):
            assert client.get(u).status_code == 200, u
    for f in STATIC.iterdir():
        assert not re.search(r"https?://", f.read_text()), f"{f.name} refers to another host"
    cfg = client.get("/api/config").json()
    assert (
        cfg["default_words"] == "small" and cfg["word_sets"] == ["small", "other"] and "exact" not in cfg["strategies"]
    )


# ---------------------------------------------------------------------------------------------
# The command, as a new user starts it


def test_web_command_serves_on_loopback(lists, tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "wordlebot", "web", "--port", "0", *lists],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        m = re.search(r"serving (http://127\.0\.0\.1:\d+/)", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        base = m.group(1)
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get("/api/health").json()["ok"] is True
            assert "<title>wordlebot</title>" in http.get("/").text
            # the starting set is prepared after the server listens (a busy machine takes seconds)
            for _ in range(600):
                if http.get("/api/health").json()["ready"]:
                    break
                time.sleep(0.1)
            doc = http.post("/api/suggest", json={"history": f"{WORDS[1]}:{digits(WORDS[1], ANSWERS[5])}"}).json()
            assert doc["words"] == "g" and doc["suggestions"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_web_command_says_when_the_port_is_taken(lists):
    from wordlebot.cli.web import listen

    busy = listen("127.0.0.1", 0)
    try:
        port = busy.getsockname()[1]
        r = CliRunner().invoke(cli, ["web", "--port", str(port), *lists])
        assert r.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in r.output and "Traceback" not in r.output
    finally:
        busy.close()


# ---------------------------------------------------------------------------------------------
# The day


def test_the_prior_follows_the_servers_clock(env, tmp_path):
    """A long-running server: the nyt prior is the one of the clock's day, loaded again when the
    day changes (every table keyed by the day), whatever the history file already holds; an
    analysed puzzle is judged with the prior of its own day."""
    import datetime as dt

    from wordlebot.cli.web import named_sources
    from wordlebot.core import data

    d1 = dt.date(2024, 3, 20)
    d2 = d1 + dt.timedelta(days=1)
    answer = ANSWERS[50]  # d1's answer, stored by a morning update on d1
    past = [w for w in ANSWERS[:12] if w != answer]
    (tmp_path / "nyt").mkdir()
    (tmp_path / "nyt/guesses.txt").write_text("\n".join(WORDS) + "\n")
    (tmp_path / "nyt/wordlebot-3158.txt").write_text("\n".join(ANSWERS) + "\n")
    days = past + [answer]
    entries = [data.HistoryEntry(d1 - dt.timedelta(days=len(days) - 1 - k), w) for k, w in enumerate(days)]
    data.atomic_write(tmp_path / data.HISTORY_FILE, data.format_history_csv(entries))
    clock = [d1]
    engine = Engine({"nyt": named_sources(tmp_path, build_model=False)["nyt"]}, clock=lambda: clock[0], ready_wait=WAIT)
    client = TestClient(create_app(engine))
    body = {"strategy": "entropy", "top": 1, "candidates": 1000}

    def p_of(doc, word):
        return next(c["p"] for c in doc["candidate_words"] if c["word"] == word)

    a = post(client, "/api/suggest", body).json()
    assert a["day"] == "2024-03-20" and "prior for 2024-03-20" in a["description"] and not a["cached"]
    assert client.get("/api/config").json()["today"] == "2024-03-20"
    assert post(client, "/api/suggest", body).json()["cached"]
    clock[0] = d2  # midnight
    b = post(client, "/api/suggest", body).json()
    assert b["day"] == "2024-03-21" and "prior for 2024-03-21" in b["description"] and not b["cached"]
    assert p_of(b, answer) < p_of(a, answer) / 5  # d1's answer is a past one now
    cfg = client.get("/api/config").json()
    assert cfg["today"] == "2024-03-21" and cfg["today_puzzle"] == (d2 - data.FIRST_DAY).days
    # yesterday's puzzle, analysed today: yesterday's prior
    r = post(client, "/api/analyze", {"history": f"{answer}:22222", "puzzle": (d1 - data.FIRST_DAY).days})
    assert r.status_code == 200 and r.json()["day"] == "2024-03-20", r.text
    # two days ahead: not published anywhere yet (tomorrow is: where that day has begun)
    r = post(client, "/api/analyze", {"history": f"{answer}:22222", "puzzle": (d2 - data.FIRST_DAY).days + 2})
    assert (
        r.status_code == 400
        and "2024-03-23 (puzzle #1,008) is not published yet: today is 2024-03-21" in r.json()["detail"]
    )


# ---------------------------------------------------------------------------------------------
# Likelihood and the explanation of the top suggestion


def test_candidates_by_likelihood_and_why_the_top_guess(client, lex):
    """Checked against the naive partition (tests/naive.py) of the same candidates."""
    import naive

    w = WORDS[1]
    answer = ANSWERS[5]
    doc = post(client, "/api/suggest", {"history": [{"guess": w, "feedback": digits(w, answer)}], "top": 3}).json()
    cands = [a for a in ANSWERS if digits(w, a) == digits(w, answer)]
    assert doc["candidates"] == len(cands)
    # a uniform set: every candidate equally likely, listed in list order, "about N" is N
    assert [c["word"] for c in doc["candidate_words"]] == cands[:100]
    assert all(c["p"] == pytest.approx(1 / len(cands)) for c in doc["candidate_words"])
    assert doc["likely"] == pytest.approx(len(cands)) and doc["likely_text"] == f"{len(cands):,}"
    why = doc["why"]
    top = doc["suggestions"][0]["word"]
    parts = naive.partition(top, cands)
    assert why["word"] == top and why["groups"] == len(parts)
    sizes = sorted((len(v) for v in parts.values()), reverse=True)
    assert [g["size"] for g in why["top_groups"]] == sizes[: len(why["top_groups"])]
    assert why["largest"]["size"] == sizes[0]
    singles = sum(1 for k, v in parts.items() if len(v) == 1 and v != [top])
    assert why["p_known"] == pytest.approx(singles / len(cands))
    assert why["p_answer"] == pytest.approx(1 / len(cands) if top in cands else 0)
    assert any(f"into {len(parts)} groups" in t for t in why["text"])


# ---------------------------------------------------------------------------------------------
# Readiness: a set being prepared is answered at once, with its progress


def test_a_set_being_prepared_says_so_at_once_then_answers(env, lex):
    gate = threading.Event()
    training = threading.Event()

    def loader(notes, day):
        notes.append("Training the answer model on the history (a few seconds)…")  # progress, not a note
        training.set()
        gate.wait(60)
        notes.append("a note that stays")
        return lex

    engine = Engine({"slow": loader}, ready_wait=0)
    client = TestClient(create_app(engine))
    engine.start()
    # the loader under way (on a loaded machine the first request came before the preparing
    # thread had taken the set: state "waiting", no step yet), then every request at once
    assert training.wait(WAIT)
    health = client.get("/api/health").json()
    assert health["ok"] is True and health["ready"] is False
    assert health["sets"]["slow"]["state"] == "preparing"
    r = post(client, "/api/suggest", {})
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    body = r.json()
    assert body["preparing"]["state"] == "preparing" and body["preparing"]["words"] == "slow"
    assert "training the answer model" in body["preparing"]["step"]
    assert "is being prepared" in body["detail"]
    assert client.get("/").status_code == 200  # the page and the cheap endpoints do not wait
    assert post(client, "/api/feedback", {"guess": "error", "answer": "elder"}).status_code == 200
    gate.set()
    engine.wait_ready("slow", timeout=WAIT)
    assert client.get("/api/health").json()["ready"] is True
    doc = post(client, "/api/suggest", {}).json()
    assert doc["suggestions"] and doc["notes"] == ["a note that stays"]


def test_a_set_that_cannot_be_loaded_says_why(env):
    from wordlebot.core.errors import WordListError

    def loader(notes, day):
        raise WordListError("the list file /nowhere/g.txt is missing: run 'wordlebot data fetch'")

    engine = Engine({"broken": loader}, ready_wait=5)
    client = TestClient(create_app(engine))
    r = post(client, "/api/suggest", {})
    # the server's data, not the request, is at fault: 503, to try again later or another set
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    assert "run 'wordlebot data fetch'" in r.json()["detail"] and "try another word set" in r.json()["detail"]
    assert client.get("/api/health").json()["sets"]["broken"]["state"] == "failed"


def test_preparation_survives_a_log_that_cannot_be_written(env, lex):
    engine = Engine({"a": lex, "b": small_lexicon("b")}, ready_wait=WAIT)

    def broken(line):
        raise BrokenPipeError("stderr is closed")

    engine.log = broken
    engine.start()
    assert engine.wait_ready("a", timeout=WAIT).ready and engine.wait_ready("b", timeout=WAIT).ready


def test_a_set_the_same_every_day_is_loaded_once_whatever_the_days_asked(env, lex):
    import datetime as dt

    calls = []
    gate = threading.Event()

    def loader(notes, day):
        calls.append(day)
        gate.wait(60)
        return lex  # no day: the same prior every day

    today = dt.date(2025, 6, 1)
    engine = Engine({"fixed": loader}, ready_wait=WAIT, clock=lambda: today)
    first = engine._entry("fixed", today)
    again = engine._entry("fixed", today - dt.timedelta(days=3))  # asked while the first load runs
    gate.set()
    assert engine.wait_ready("fixed", today - dt.timedelta(days=3), timeout=WAIT) is first is again
    assert engine.wait_ready("fixed", today - dt.timedelta(days=9), timeout=WAIT) is first
    assert calls == [today]


def test_analyses_of_past_days_never_unload_today(env):
    """Days kept per set: past puzzles' days come and go; today's stays ready for the players."""
    import datetime as dt

    from wordlebot.core import data

    calls = []

    def loader(notes, day):
        calls.append(day)
        return Lexicon.from_lists(WORDS, ANSWERS, name="daily", day=day)

    today = dt.date(2025, 6, 1)
    engine = Engine({"daily": loader}, days_kept=2, ready_wait=WAIT, clock=lambda: today)
    client = TestClient(create_app(engine))
    assert post(client, "/api/suggest", {}).status_code == 200
    for back in (1, 2, 3, 4):
        puzzle = (today - dt.timedelta(days=back) - data.FIRST_DAY).days
        r = post(client, "/api/analyze", {"history": f"{ANSWERS[back]}:22222", "puzzle": puzzle})
        assert r.status_code == 200 and r.json()["day"] == str(today - dt.timedelta(days=back)), r.text
    engine.ready_wait = 0  # today's set must still be there: answered at once, not prepared again
    r = post(client, "/api/suggest", {"history": f"{WORDS[2]}:{digits(WORDS[2], ANSWERS[9])}"})
    assert r.status_code == 200 and r.json()["day"] == str(today)
    assert calls.count(today) == 1


# ---------------------------------------------------------------------------------------------
# No stall: searches on a fair queue, cheap endpoints never wait, a full queue refused at once


def test_fair_queue_serves_clients_in_turn():
    from wordlebot.web.fairqueue import FairQueue

    q = FairQueue(1, per_client=10, total=20)
    gate = threading.Event()
    order = []
    blocker = q.submit("a", gate.wait, 30)
    until(lambda: q.running == 1)  # a has had its turn: the blocker
    futs = [q.submit("a", order.append, f"a{i}") for i in range(5)]
    futs.append(q.submit("b", order.append, "b0"))
    futs.append(q.submit("c", order.append, "c0"))
    gate.set()
    for f in [blocker, *futs]:
        f.result(30)
    # a's burst does not hold b and c back: the lines take turns
    assert order == ["a0", "b0", "c0", "a1", "a2", "a3", "a4"]
    q.close()


def test_fair_queue_refuses_at_once_when_full():
    from wordlebot.web.fairqueue import FairQueue, QueueFull

    q = FairQueue(1, per_client=2, total=3)
    gate = threading.Event()
    running = q.submit("a", gate.wait, 30)
    until(lambda: q.running == 1)
    q.submit("a", int)
    q.submit("a", int)
    with pytest.raises(QueueFull) as e:  # a's line is full
        q.submit("a", int)
    assert e.value.retry_after >= 1
    called = []
    gone = q.submit("b", called.append, "b")  # another client still gets in
    with pytest.raises(QueueFull):  # the whole queue is full
        q.submit("c", int)
    assert gone.cancel()  # its client went away: the job is skipped, not run
    gate.set()
    running.result(30)
    q.close()
    assert called == [] and q.waiting == 0


def test_retry_after_is_not_dragged_by_a_few_slow_jobs():
    """Issue 41: after two searches of minutes a running mean told every refused client to come
    back in 5 minutes.  Job times on a fake clock: ten of 0.5 s, then two of 300 s."""
    from wordlebot.web.fairqueue import FairQueue, QueueFull

    now = [0.0]

    def job(seconds):
        now[0] += seconds

    q = FairQueue(1, per_client=3, total=10, clock=lambda: now[0])
    for seconds in [0.5] * 10 + [300.0] * 2:
        q.submit("a", job, seconds).result(30)
    gate = threading.Event()
    running = q.submit("a", gate.wait, 30)
    until(lambda: q.running == 1)
    for _ in range(3):
        q.submit("a", int)
    with pytest.raises(QueueFull) as e:
        q.submit("a", int)
    # 3 waiting and 1 running, on one worker, at the median 0.5 s: 2 s
    assert e.value.retry_after == 2
    gate.set()
    running.result(30)
    q.close()


def test_health_and_page_answer_while_every_worker_is_busy(env, lex):
    """The event loop never waits for a search: with both workers held, the health check, the
    config and the page answer; a search request waits in its line and is answered after."""
    engine = Engine({"small": lex}, ready_wait=WAIT, workers=2)
    engine.wait_ready("small")
    server = LiveServer(create_app(engine))
    gate = threading.Event()
    try:
        held = [engine.queue.submit(f"other{i}", gate.wait, 60) for i in range(2)]
        with httpx.Client(base_url=server.url, timeout=30) as http:
            until(lambda: engine.queue.running == 2)
            pending = ThreadPoolExecutor(1).submit(
                http.post, "/api/suggest", json={"history": f"{WORDS[2]}:{digits(WORDS[2], ANSWERS[9])}"}
            )
            assert http.get("/api/health").json()["queue"]["running"] == 2
            assert http.get("/api/config").status_code == 200
            assert http.get("/").status_code == 200
            assert not pending.done()  # the search is waiting for a worker, not refused
            gate.set()
            assert pending.result(60).status_code == 200
        for f in held:
            f.result(30)
    finally:
        gate.set()
        server.close()


def test_a_full_queue_is_refused_at_once_with_retry_after(env, lex):
    engine = Engine({"small": lex}, ready_wait=WAIT, workers=1, per_client=1, queue_total=1)
    engine.wait_ready("small")
    client = TestClient(create_app(engine))
    gate = threading.Event()
    held = engine.queue.submit("someone", gate.wait, 60)
    until(lambda: engine.queue.running == 1)
    engine.queue.submit("someone else", int)  # the queue's one place
    try:
        r = post(client, "/api/suggest", {"history": f"{WORDS[3]}:{digits(WORDS[3], ANSWERS[2])}"})
        assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1 and "busy" in r.json()["detail"]
    finally:
        gate.set()
        held.result(30)


def test_rules_without_a_book_are_searched_in_the_budget(client, advisor):
    """Six guesses (normal or hard) have an opening book; other caps are searched like any node,
    and the server answers what the library answers."""
    assert advisor.has_book(6) and not advisor.has_book(5) and not advisor.has_book(7)
    doc = post(client, "/api/suggest", {"max_guesses": 5, "top": 3}).json()
    expected = advisor.suggest(advisor.new_game(max_guesses=5), 3)
    assert [s["word"] for s in doc["suggestions"]] == [x.word for x in expected]
    assert expected[0].basis and not any(k == (False, 5) for k in advisor.books())


# ---------------------------------------------------------------------------------------------
# Hostile input on the wire


def read_answer(sock) -> bytes:
    """One whole HTTP answer from ``sock`` (by its Content-Length), or what came before it closed."""
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
            head, sep, body = out.partition(b"\r\n\r\n")
            m = re.search(rb"content-length: *(\d+)", head.lower())
            if sep and m and len(body) >= int(m.group(1)):
                break
    except (TimeoutError, ConnectionResetError):  # a reset is a close too
        pass
    return out


def raw(url: str, data: bytes, *, wait: float = 10.0) -> bytes:
    """Send raw bytes to the live server; its answer."""
    import socket

    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        return read_answer(sock)


@pytest.fixture(scope="module")
def hardened(engine):
    from wordlebot.web.app import loopback_hosts

    server = LiveServer(create_app(engine, hosts=loopback_hosts("127.0.0.1"), body_seconds=1.0))
    yield server
    server.close()


def test_both_length_headers_are_refused_before_the_body_is_read(hardened):
    chunk = b"x" * 50_000
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"
    out = raw(
        hardened.url,
        b"POST /api/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n" + body,
    )
    assert out.startswith(b"HTTP/1.1 400") and b"both Content-Length and Transfer-Encoding" in out


def test_a_chunked_body_over_the_limit_is_refused(hardened):
    chunk = b" " * 4000
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(25)) + b"0\r\n\r\n"
    out = raw(
        hardened.url,
        b"POST /api/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + body,
    )
    assert out.startswith(b"HTTP/1.1 413") and b"larger than 16,384 bytes" in out


@pytest.mark.parametrize(
    "host, ok",
    [
        ("127.0.0.1:8000", True),
        ("localhost", True),
        ("[::1]:8000", True),
        ("evil.example", False),
        ("evil.example:8000", False),
        ("", False),
        ("127.0.0.1:8787@evil.com", False),
        ("[::1]evil.com", False),
    ],
)
def test_a_loopback_server_answers_loopback_names_only(hardened, host, ok):
    """DNS rebinding: a hostile page's requests carry its own host name."""
    out = raw(hardened.url, b"GET /api/health HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host.encode())
    assert out.startswith(b"HTTP/1.1 200" if ok else b"HTTP/1.1 400"), out[:200]
    if not ok:
        assert b"open it as %s/" % hardened.url.encode() in out


@pytest.mark.parametrize(
    "header, name",
    [
        (b"127.0.0.1:8000", "127.0.0.1"),
        (b"LocalHost", "localhost"),
        (b"[::1]:8000", "::1"),
        (b"[::1]", "::1"),
        (b"example.org", "example.org"),
        # issue 41: a lax parse took the part before the last colon or after the bracket
        (b"127.0.0.1:8787@evil.com", ""),
        (b"[::1]evil.com", ""),
        (b"127.0.0.1:80:80", ""),
        (b"127.0.0.1:", ""),
        (b"127.0.0.1 evil.com", ""),
        (b"", ""),
    ],
)
def test_the_host_header_is_parsed_strictly(header, name):
    from wordlebot.web.app import _host_name

    assert _host_name(header) == name


def test_loopback_addresses():
    from wordlebot.web.app import loopback_hosts

    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert loopback_hosts(host) and "localhost" in loopback_hosts(host), host
    for host in ("0.0.0.0", "192.168.1.5", "::", "example.org"):
        assert loopback_hosts(host) is None, host


def test_a_slow_body_is_cut_off(hardened):
    out = raw(
        hardened.url,
        b"POST /api/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"hist',
        wait=20,
    )
    assert out.startswith(b"HTTP/1.1 408") and b"did not arrive within" in out


def test_slow_headers_and_silent_connections_are_closed(hardened, monkeypatch):
    import socket

    from wordlebot.web.server import GuardedH11

    monkeypatch.setattr(GuardedH11, "header_seconds", 0.5)
    monkeypatch.setattr(GuardedH11, "first_byte_seconds", 0.5)
    port = int(hardened.url.rsplit(":", 1)[1])
    for first in (b"GET /api/health HTTP/1.1\r\nHo", b""):
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(first)
            assert sock.recv(100) == b""  # closed by the server, long before the 20 s
    # a normal request on a kept-alive connection still works after the deadline has passed
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        for _ in range(2):
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_answer(sock).startswith(b"HTTP/1.1 200")
            threading.Event().wait(0.7)


def test_one_address_cannot_take_every_connection(hardened, monkeypatch):
    import socket

    from wordlebot.web.server import GuardedH11

    monkeypatch.setattr(GuardedH11, "per_peer", 3)
    port = int(hardened.url.rsplit(":", 1)[1])
    held = [socket.create_connection(("127.0.0.1", port), timeout=20) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as extra:
            try:
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            except OSError:
                pass  # closed before the request got there
            assert read_answer(extra) == b""  # closed: this address holds its share already
    finally:
        for sock in held:
            sock.close()
    until(lambda: raw(hardened.url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(b"HTTP/1.1 200"))


def test_candidates_say_their_group_when_the_prior_has_groups(lex):
    """A set whose prior says where it comes from (the nyt set's answer model) names each
    candidate's group and the groups' shares; the groups here are made up by hand."""
    import numpy as np

    from wordlebot.core.words import AnswerGroups

    weights = np.where(np.arange(len(ANSWERS)) % 2 == 0, 3.0, 1.0)  # group 0 holds 3/4 of the mass
    groups = AnswerGroups(
        ("first group", "second group"),
        ("first", "second"),
        ("3/4", "1/4"),
        (0.75, 0.25),
        (50, 50),
        np.arange(len(ANSWERS)) % 2,
    )
    grouped = Lexicon.from_lists(WORDS, ANSWERS, weights, name="grouped", groups=groups)
    client = TestClient(create_app(Engine({"grouped": grouped}, ready_wait=WAIT)))
    doc = post(client, "/api/suggest", {"history": "", "candidates": 4}).json()
    assert doc["prior_groups"] == [
        {"label": "first group", "short": "first", "text": "3/4", "share": 0.75, "words": 50},
        {"label": "second group", "short": "second", "text": "1/4", "share": 0.25, "words": 50},
    ]
    for c in doc["candidate_words"]:
        assert c["group"] == ("first" if ANSWERS.index(c["word"]) % 2 == 0 else "second")
    assert [c["group"] for c in doc["candidate_words"]] == ["first"] * 4  # the likeliest first
    plain = post(
        TestClient(create_app(Engine({"small": lex}, ready_wait=WAIT))), "/api/suggest", {"history": ""}
    ).json()
    assert plain["prior_groups"] is None and "group" not in plain["candidate_words"][0]


@pytest.mark.parametrize(
    "address, key",
    [
        ("203.0.113.9", "203.0.113.9"),
        ("127.0.0.1", "127.0.0.1"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("fe80::1%eth0", "fe80::/64"),
        (None, "unknown"),
    ],
)
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(address, key):
    from wordlebot.web.clients import client_key

    assert client_key(address) == key


def test_the_connection_cap_counts_clients_as_the_queue_does(hardened, monkeypatch):
    """Issue 41: the queue grouped IPv6 by /64, the connection cap counted exact addresses.
    Loopback has one IPv6 address, so the /64s are played by IPv4 addresses the key maps to one
    client here: four addresses of one "household", the cap 3."""
    import socket

    from wordlebot.web import server
    from wordlebot.web.server import GuardedH11

    monkeypatch.setattr(GuardedH11, "per_peer", 3)
    monkeypatch.setattr(server, "client_key", lambda a: "household" if a and a.startswith("127.0.1.") else a)
    port = int(hardened.url.rsplit(":", 1)[1])
    held = []
    try:
        for k in range(3):
            s = socket.socket()
            s.bind((f"127.0.1.{k + 1}", 0))
            s.connect(("127.0.0.1", port))
            held.append(s)
        with socket.socket() as extra:
            extra.bind(("127.0.1.9", 0))
            extra.settimeout(20)
            extra.connect(("127.0.0.1", port))
            try:
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            except OSError:
                pass
            assert read_answer(extra) == b""  # closed: the household holds its share already
        # another client is not counted with it
        out = raw(hardened.url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert out.startswith(b"HTTP/1.1 200")
    finally:
        for s in held:
            s.close()


def test_silent_sockets_of_many_clients_leave_a_slot_for_the_health_check(hardened, monkeypatch):
    """Issue 41: 1,100 silent sockets from varied loopback addresses filled uvicorn's cap and
    45 of 50 health checks got 503.  Here the cap is 12: 20 silent sockets from 20 addresses."""
    import socket

    from wordlebot.web.server import GuardedH11

    monkeypatch.setattr(GuardedH11, "reserved", 4)
    monkeypatch.setattr(hardened.server.config, "limit_concurrency", 12)
    port = int(hardened.url.rsplit(":", 1)[1])
    held = []
    try:
        for k in range(20):
            s = socket.socket()
            s.bind((f"127.0.0.{10 + k}", 0))
            s.connect(("127.0.0.1", port))
            held.append(s)
        threading.Event().wait(0.3)  # (the server has taken them all in)
        for _ in range(3):
            out = raw(hardened.url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert out.startswith(b"HTTP/1.1 200"), out[:100]
    finally:
        for s in held:
            s.close()


def test_a_search_whose_client_left_is_not_run(hardened, engine, monkeypatch):
    """Issue 41: a search went on after its client left.  With every worker held, a client
    posts a search and closes the connection: its job is dropped from its line, never run."""
    import socket

    ran = []
    compute = engine._suggest_now
    monkeypatch.setattr(engine, "_suggest_now", lambda r: ran.append(r) or compute(r))
    gate = threading.Event()
    held = [engine.queue.submit(("holder", k), gate.wait, 30) for k in range(engine.queue.workers)]
    try:
        until(lambda: engine.queue.running == engine.queue.workers)
        word = WORDS[11]
        body = json.dumps({"history": [{"guess": word, "feedback": digits(word, ANSWERS[5])}], "top": 7}).encode()
        port = int(hardened.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(
                b"POST /api/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            until(lambda: engine.queue.waiting == 1)  # in its line, behind the held workers
        # the server sees the close and cancels the job in its line
        until(lambda: all(fut.cancelled() for line in engine.queue._lines.values() for fut, _, _ in line))
    finally:
        gate.set()
        for f in held:
            f.result(30)
    until(lambda: engine.queue.waiting == 0 and engine.queue.running == 0)
    assert ran == []
