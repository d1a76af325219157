"""The multi-board web page and its API (/api/multi/suggest): every expected value comes from the
library (``MultiGame``, ``multi.suggest``, ``by_likelihood``), never from the page or the server;
bad input gets a clear 4xx naming the row and board; and a whole Quordle is played in headless
Chromium on a phone by tapping, an Octordle on a desktop by keyboard alone."""

from __future__ import annotations

import re
import warnings

import pytest
import web_helpers
from web_helpers import ANSWERS, LiveServer, digits, expect, no_overflow, ready

from wordlebot.multi import MultiGame, suggest
from wordlebot.policy.explain import by_likelihood
from wordlebot.web.app import create_app
from wordlebot.web.service import Engine

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

chromium, env, lex, browser = (
    web_helpers.chromium,
    web_helpers.offline_env,
    web_helpers.small_lex,
    web_helpers.browser_fixture,
)

PHONE = (390, 844)
DESKTOP = (1280, 800)
QUORDLE = [ANSWERS[i] for i in (3, 17, 40, 71)]
OCTORDLE = [ANSWERS[i] for i in (2, 11, 23, 35, 48, 59, 77, 90)]
STATES = ("absent", "present", "correct")


@pytest.fixture(scope="module")
def client(lex):
    return TestClient(create_app(Engine({"small": lex}, "small", ready_wait=120.0)))


def post(client, body):
    return client.post("/api/multi/suggest", json=body)


def colours(word, answers, game):
    """The colours ``word`` gets on each board still open in ``game`` (None on solved ones)."""
    return [digits(word, a) if b in game.active else None for b, a in enumerate(answers)]


# ---------------------------------------------------------------------------------------------
# API


def test_a_quordle_through_the_api_follows_the_library(client, lex):
    """Each answer, from the first move to the end, equals the library's on the same rows; the
    rows are sent as the API's list one turn and as text the next."""
    game = MultiGame(lex, 4)
    rows = []
    while not game.over:
        body = {
            "boards": 4,
            "history": rows if len(rows) % 2 == 0 else ",".join(str(r) for r in game.rows),
            "top": 3,
            "candidates": 5,
        }
        doc = post(client, body).json()
        want = suggest(game, 3)
        assert [s["word"] for s in doc["suggestions"]] == [s.word for s in want]
        assert [s["solves"] for s in doc["suggestions"]] == [list(s.solves) for s in want]
        assert doc["suggestions"][0]["why"] == want[0].why
        assert doc["guesses_left"] == game.guesses_left and doc["over"] is False
        for b, state in enumerate(doc["board_states"]):
            if b in game.active:
                assert state["candidates"] == game.candidates(b).size
                assert [c["word"] for c in state["candidate_words"]] == [w for w, _ in by_likelihood(game.boards[b], 5)]
            else:
                assert state["solved_at"] == game.solved_at[b] and state["candidates"] == 0
        word = want[0].word
        fb = colours(word, QUORDLE, game)
        game.guess(word, fb)
        rows.append({"guess": word, "feedback": fb})
    doc = post(client, {"boards": 4, "history": rows}).json()
    assert doc["over"] and doc["solved"] == game.solved and doc["suggestions"] == []
    assert doc["score"] == game.score() and [b["solved_at"] for b in doc["board_states"]] == game.solved_at
    assert doc["history"] == ",".join(str(r) for r in game.rows)


def test_the_fewest_guesses_are_played_for_when_asked(client, lex):
    """``objective: guesses`` through the API: every turn the library's suggestions for that
    objective, the endgame search's among them, and the guesses to finish at the end."""
    game = MultiGame(lex, 4)
    rows, searched = [], 0
    while not game.over:
        doc = post(client, {"boards": 4, "history": rows, "objective": "guesses", "top": 3}).json()
        want = suggest(game, 3, objective="guesses")
        assert doc["objective"] == "guesses"
        assert [(s["word"], s["searched"]) for s in doc["suggestions"]] == [(s.word, s.searched) for s in want]
        searched += want[0].searched
        word = want[0].word
        fb = colours(word, QUORDLE, game)
        game.guess(word, fb)
        rows.append({"guess": word, "feedback": fb})
    assert searched  # the last turns were searched
    doc = post(client, {"boards": 4, "history": rows, "objective": "guesses"}).json()
    assert doc["guesses_to_finish"] == game.guesses_to_finish() and doc["score"] == game.score()


def test_hard_mode_is_applied_on_every_board(client, lex):
    game = MultiGame(lex, 2, hard=True)
    first = suggest(game, 1)[0].word
    game.guess(first, colours(first, QUORDLE[:2], game))
    rows = [{"guess": first, "feedback": colours(first, QUORDLE[:2], MultiGame(lex, 2))}]
    doc = post(client, {"boards": 2, "hard": True, "history": rows, "top": 5}).json()
    assert [s["word"] for s in doc["suggestions"]] == [s.word for s in suggest(game, 5)]
    # a word the first board with hints bars (and every board before it allows): the error names it
    legal = [game.boards[b].legal_mask() for b in (0, 1)]
    board, illegal = next(
        (b, w)
        for w in lex.guesses
        for b in (0, 1)
        if not legal[b][lex.id(w)] and all(legal[a][lex.id(w)] for a in range(b))
    )
    r = post(
        client, {"boards": 2, "hard": True, "history": rows + [{"guess": illegal, "feedback": ["00000", "00000"]}]}
    )
    assert r.status_code == 400 and r.json()["detail"].startswith(f"row 2: board {board + 1}: ")


def test_a_hard_mode_game_stuck_for_good_is_said_by_the_api(client, lex):
    """A hard-mode Dordle where no board can be solved any more (MultiGame.stuck, hand-checked in
    test_multi.py): the API suggests nothing and says why in ``game_note``; elsewhere the note
    is null."""
    import itertools

    found = None
    for a, b in itertools.permutations(ANSWERS[:12], 2):
        for first in lex.guesses[:60]:
            game = MultiGame(lex, 2, hard=True, answers=[a, b])
            game.guess(first)
            if not game.over and game.stuck:
                found = game
                break
        if found:
            break
    assert found is not None  # (the rule makes such states common: see the README)
    row = found.rows[0]
    body = {
        "boards": 2,
        "hard": True,
        "history": [{"guess": row.guess, "feedback": [digits(row.guess, found.boards[k].answer) for k in (0, 1)]}],
    }
    doc = post(client, body).json()
    assert doc["suggestions"] == [] and doc["game_note"] == found.off_list_note()
    assert "no board can be solved any more" in doc["game_note"]
    assert post(client, {"boards": 2}).json()["game_note"] is None


@pytest.mark.parametrize(
    "body, status, fragment",
    [
        (
            {"boards": 4, "history": "zzzzz:00000/00000/00000/00000"},
            400,
            "row 1: 'zzzzz' is not in the small guess list",
        ),
        (
            {"boards": 2, "history": [{"guess": ANSWERS[0], "feedback": ["22222", "22222"]}]},
            400,
            "is all green on boards 1, 2",
        ),
        ({"boards": 2, "history": [{"guess": ANSWERS[0], "feedback": ["00000"]}]}, 400, "1 colour rows for 2 boards"),
        ({"boards": 2, "history": [{"guess": ANSWERS[0], "feedback": ["00000", "00009"]}]}, 400, "row 1: board 2: "),
        ({"boards": 2, "history": "salet"}, 400, "row 1: 'salet' is not GUESS:COLOURS"),
        ({"boards": 4, "max_guesses": 3}, 400, "4 boards cannot all be solved in 3 guesses"),
        ({"boards": 9}, 422, "boards"),
        ({"boards": 1}, 422, "boards"),
        ({"boards": 2, "top": 1000}, 422, "top"),
        ({"boards": 2, "objective": "fewest"}, 422, "objective"),
        ({"boards": 2, "words": "nope"}, 404, "unknown word set 'nope'"),
        ({"boards": 2, "history": [{"guess": ANSWERS[0], "feedback": ["00000"] * 9}]}, 422, "feedback"),
    ],
)
def test_bad_input_is_a_clear_4xx(client, body, status, fragment):
    r = post(client, body)
    assert r.status_code == status, r.text
    assert fragment in r.json()["detail"]


def test_a_finished_game_takes_no_more_rows(client, lex):
    a, b = QUORDLE[:2]
    rows = [{"guess": a, "feedback": ["22222", digits(a, b)]}, {"guess": b, "feedback": [None, "22222"]}]
    doc = post(client, {"boards": 2, "history": rows}).json()
    assert doc["solved"] and doc["score"] == 3
    r = post(client, {"boards": 2, "history": rows + [{"guess": a, "feedback": [None, None]}]})
    assert r.status_code == 400 and "row 3: the game was over after row 2" in r.json()["detail"]


def test_the_same_state_gets_the_same_answer(client):
    """Asked twice (the second from the cache) and from a fresh server: the same suggestions."""
    body = {"boards": 4, "history": [{"guess": ANSWERS[5], "feedback": [digits(ANSWERS[5], a) for a in QUORDLE]}]}
    first = post(client, body).json()
    again = post(client, body).json()
    fresh = post(
        TestClient(create_app(Engine({"small": web_helpers.small_lexicon()}, "small", ready_wait=120.0))), body
    ).json()
    assert again["cached"] and not first["cached"]
    for doc in (again, fresh):
        assert doc["suggestions"] == first["suggestions"] and doc["board_states"] == first["board_states"]


def test_the_page_is_served_and_linked(client):
    r = client.get("/multi")
    assert r.status_code == 200 and "/static/multi.js" in r.text and "/static/common.js" in r.text
    assert 'href="/multi"' in client.get("/").text
    for asset in ("multi.js", "multi.css", "common.js"):
        assert client.get(f"/static/{asset}").status_code == 200


# ---------------------------------------------------------------------------------------------
# The page in Chromium


@pytest.fixture(scope="module")
def live(lex):
    server = LiveServer(create_app(Engine({"small": lex}, "small")))
    yield server
    server.close()


def open_multi(browser, live, size, boards):
    touch = size[0] < 900
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=touch)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{live.url}/multi?boards={boards}")
    ready(page)
    return ctx, page


def new_row_tile(page, b, i):
    return page.locator(f'.mboard .row.current .tile[data-board="{b}"][data-pos="{i}"]')


def check_turn(page, game):
    top = suggest(game, 1)[0]
    expect(page.locator("#pick-word")).to_have_text(top.word)
    expect(page.locator("#pick-avg")).to_have_text(f"cost {top.cost:.2f}")
    for b in range(game.n_boards):
        title = page.locator(f'.mboard[data-board="{b + 1}"] h2')
        if b in game.active:
            expect(title).to_have_text(f"{b + 1} · {game.candidates(b).size} left")
        else:
            expect(title).to_have_text(f"{b + 1} · solved in {game.solved_at[b]}")
    return top


def test_a_whole_quordle_by_tapping_on_a_phone(browser, live, lex, tmp_path):
    """Touch only: Play tapped, each board's new row tapped to its colours, Enter tapped; a wrong
    colour is refused naming the board and keeps the entry; Undo brings a row back to correct."""
    ctx, page = open_multi(browser, live, PHONE, 4)
    game = MultiGame(lex, 4)
    tried_wrong = undone = False
    while not game.over:
        top = check_turn(page, game)
        page.tap("#pick")
        fb = colours(top.word, QUORDLE, game)
        if not tried_wrong:
            # all green on boards 1 and 2 cannot be (distinct answers): refused, the entry kept
            tried_wrong = True
            for b in (0, 1):
                for i in range(5):
                    for _ in range(2):
                        new_row_tile(page, b, i).tap()
            page.tap('#keyboard [data-key="Enter"]')
            ready(page)
            expect(page.locator("#message")).to_contain_text(re.compile(r"row 1 .*board 1|all green on boards 1, 2"))
            assert [new_row_tile(page, 1, i).get_attribute("data-state") for i in range(5)] == ["correct"] * 5
            expect(page.locator(".mboard h2").first).to_have_text(f"1 · {len(lex.answers)} left")
            for b in (0, 1):  # back to gray
                for i in range(5):
                    new_row_tile(page, b, i).tap()
        for b in game.active:
            for i, d in enumerate(fb[b]):
                for _ in range(int(d)):
                    new_row_tile(page, b, i).tap()
            assert [new_row_tile(page, b, i).get_attribute("data-state") for i in range(5)] == [
                STATES[int(d)] for d in fb[b]
            ]
        page.tap('#keyboard [data-key="Enter"]')
        game.guess(top.word, fb)
        ready(page)
        no_overflow(page)
        if not undone and not game.over:
            undone = True
            page.tap("#undo")
            ready(page)
            # the row is back in the entry with its colours; Enter sends it again
            b = game.active[0]
            assert [new_row_tile(page, b, i).get_attribute("data-state") for i in range(5)] == [
                STATES[int(d)] for d in fb[b]
            ]
            page.tap('#keyboard [data-key="Enter"]')
            ready(page)
    assert tried_wrong and undone
    kind = "info" if game.solved else "error"
    expect(page.locator("#message")).to_have_attribute("data-kind", kind)
    expect(page.locator("#message")).to_contain_text(f"score {game.score():g}")
    shot = tmp_path / "quordle-phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000 and page.errors == []
    ctx.close()


def test_an_octordle_by_keyboard_alone_on_a_desktop(browser, live, lex):
    """The word typed, then every open board's colours as digits, board by board, then Enter."""
    ctx, page = open_multi(browser, live, DESKTOP, 8)
    expect(page.locator("#variant")).to_have_text("Octordle")
    game = MultiGame(lex, 8)
    while not game.over:
        top = check_turn(page, game)
        fb = colours(top.word, OCTORDLE, game)
        page.keyboard.type(top.word + "".join(fb[b] for b in game.active))
        page.keyboard.press("Enter")
        game.guess(top.word, fb)
        ready(page)
        no_overflow(page)
    expect(page.locator("#message")).to_contain_text(f"score {game.score():g}")
    assert page.errors == []
    ctx.close()


def test_typing_after_ticking_hard_mode_reaches_the_board(browser, live, lex):
    """Desktop: tick Hard mode (the checkbox keeps the focus), then type a row and Enter, as a
    person would: the row is played in hard mode (the keys once went to the checkbox, unheard)."""
    ctx, page = open_multi(browser, live, DESKTOP, 2)
    page.check("#hard")
    ready(page)
    expect(page.locator("#hard")).to_be_focused()
    game = MultiGame(lex, 2, hard=True)
    top = check_turn(page, game)
    fb = colours(top.word, QUORDLE[:2], game)
    page.keyboard.type(top.word + "".join(fb))
    page.keyboard.press("Enter")
    game.guess(top.word, fb)
    ready(page)
    assert page.evaluate("state.doc.rows.length") == 1 and page.evaluate("state.doc.hard") is True
    if not game.over:
        check_turn(page, game)
    assert page.errors == []
    ctx.close()


def test_the_readme_example_answers_as_it_says(official):
    """The README's body for /api/multi/suggest, as written there, on the classic lists."""
    from pathlib import Path

    from wordlebot.app.wordsets import load_lexicon

    body = (
        '{"boards": 4, "words": "classic", "history": [{"guess": "roate", "feedback": '
        '["10100", "20011", "00000", "00000"]}]}'
    )
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert f"`{body}`" in readme
    classic = load_lexicon("classic", data_dir=official)
    engine = Engine({"classic": classic}, "classic", ready_wait=300.0)
    c = TestClient(create_app(engine))
    try:
        doc = c.post("/api/multi/suggest", content=body, headers={"content-type": "application/json"}).json()
        hard = c.post(
            "/api/multi/suggest",
            content=body.replace('"boards": 4,', '"boards": 4, "hard": true,'),
            headers={"content-type": "application/json"},
        ).json()
    finally:
        # its books go on being prepared in the background: stopped, or they would land in a
        # later test's cache folder (test_prepare's, run after this one, found two books)
        engine.close(timeout=600)  # the book being computed is finished first
    assert not engine._preparer.is_alive()
    top = doc["suggestions"][0]
    assert (top["word"], f"{top['cost']:.2f}", top["why"]) == (
        "music",
        "9.95",
        "could be the answer on boards 3, 4; narrows the others",
    )
    assert [b["candidates"] for b in doc["board_states"]] == [35, 8, 195, 195]
    assert 'first `music`, cost 9.95, "could be the answer on boards 3, 4")' in readme
    assert "(35, 8, 195, 195)" in readme.replace("\n", " ")
    # the same colours in hard mode: stuck for good, as the README says
    assert hard["hard"] is True and hard["suggestions"] == []
    assert "no board can be solved any more" in hard["game_note"]
    assert 'no suggestions, and `"game_note"` says so' in readme.replace("\n", " ")
