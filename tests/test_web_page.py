"""The web page in headless Chromium, as people use it: on a phone (390×844, touch) and on a
desktop (1280×800, mouse and keyboard).  Every expected value comes from the library (Advisor,
Game, explain, share_grid), never from the page: whole games by tapping and by keyboard alone,
errors that keep the game, no horizontal overflow, one phone screen holding the board, the top
suggestion and the keyboard, tap targets, candidates by likelihood, the race between answers,
a word set being prepared (503 with progress) or a busy server, and the themes."""

from __future__ import annotations

import re

import pytest
import web_helpers
from conftest import random_words
from web_helpers import ANSWERS, WORDS, LiveServer, digits, expect, no_overflow, ready

from wordlebot.core.game import Game
from wordlebot.core.share import share_grid
from wordlebot.core.words import Lexicon
from wordlebot.policy.advisor import Advisor
from wordlebot.policy.explain import about, by_likelihood, explain, likely_count
from wordlebot.web.app import create_app
from wordlebot.web.service import Engine

# the shared fixtures (attributes, not unused imports)
chromium, env, lex, browser = (
    web_helpers.chromium,
    web_helpers.offline_env,
    web_helpers.small_lex,
    web_helpers.browser_fixture,
)

PHONE = (390, 844)
DESKTOP = (1280, 800)
SIZES = [(360, 740), PHONE, (768, 1024), DESKTOP]
STATES = ("absent", "present", "correct")

# A second set with other words and unequal weights: its suggestions differ from the small
# set's (the race), and its candidates have probabilities (the likelihood list).
OTHER_WORDS = random_words(300, alphabet="aeilnrst", seed=5)
OTHER_ANSWERS = OTHER_WORDS[::3]
OTHER_WEIGHTS = [1.0 / (1 + i % 37) ** 1.5 for i in range(len(OTHER_ANSWERS))]


@pytest.fixture(scope="module")
def other(env):
    w = sum(OTHER_WEIGHTS)
    return Lexicon.from_lists(OTHER_WORDS, OTHER_ANSWERS, [x / w for x in OTHER_WEIGHTS], name="other")


@pytest.fixture(scope="module")
def advisor(lex):
    return Advisor(lex)


@pytest.fixture(scope="module")
def live(lex, other):
    server = LiveServer(create_app(Engine({"small": lex, "other": other}, "small")))
    yield server
    server.close()


@pytest.fixture
def open_page(browser, live):
    """``open_page(size, touch=..., scheme=..., before=...)``: a page in a new context, loaded
    (``before(page)`` runs first, to install routes); page errors and requests are recorded."""
    contexts = []

    def make(size=PHONE, *, touch=None, scheme="light", before=None, go=True):
        touch = size[0] < 900 if touch is None else touch
        ctx = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=touch, color_scheme=scheme
        )
        contexts.append(ctx)
        page = ctx.new_page()
        seen = {"requests": [], "errors": []}
        page.on("request", lambda req: seen["requests"].append(req.url))
        page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
        # Answers of 4xx/5xx are logged as "Failed to load resource": expected in some tests.
        page.on(
            "console",
            lambda msg: (
                seen["errors"].append(msg.text)
                if msg.type == "error" and not msg.text.startswith("Failed to load resource")
                else None
            ),
        )
        page.seen = seen
        if before:
            before(page)
        if go:
            page.goto(live.url + "/")
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def tile(page, row, col):
    return page.locator(f'#board .tile[data-row="{row}"][data-col="{col}"]')


def row_states(page, row):
    return [tile(page, row, c).get_attribute("data-state") for c in range(5)]


def until(page, cond, timeout=10.0):
    """Wait for a condition on the test's side (route handlers run while Playwright waits)."""
    for _ in range(int(timeout / 0.05)):
        if cond():
            return
        page.wait_for_timeout(50)
    assert cond()


def short_pct(p):
    """A probability as explain.py and the page write it."""
    if p >= 0.995:
        return "100%" if p >= 1 - 1e-12 else ">99%"
    if p >= 0.1:
        return f"{100 * p:.0f}%"
    return f"{100 * p:.1f}%" if p >= 0.001 else "<0.1%"


def key_states(game) -> dict[str, str]:
    """The state each letter's key should show: the best it has had (correct > present > absent)."""
    best: dict[str, int] = {}
    for r in game.rows:
        for ch, d in zip(r.guess, r.feedback_digits()):
            best[ch] = max(best.get(ch, -1), int(d))
    return {ch: STATES[d] for ch, d in best.items()}


def check_keys(page, game):
    want = key_states(game)
    shown = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#keyboard .key')]"
        ".filter(k => k.dataset.key.length === 1)"
        ".map(k => [k.dataset.key, k.dataset.state || '']))"
    )
    assert {k: v for k, v in shown.items() if v} == want


def check_advice(page, game, advisor):
    """The top suggestion, its average and the count left, as the library has them."""
    top = advisor.suggest(game, 1)[0]
    expect(page.locator("#pick-word")).to_have_text(top.word)
    expect(page.locator("#pick-avg")).to_contain_text(f"{top.expected:.2f} guesses")
    expect(page.locator("#left")).to_have_text(f"{game.candidates.size} left")
    return top


def finish_checks(page, game, style):
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#message")).to_contain_text(f"Solved in {len(game.rows)}!")
    expect(page.locator("#share-text")).to_have_value(share_grid(game.rows, solved=True, style=style))
    expect(page.locator("#analysis-rows tbody tr")).to_have_count(len(game.rows))
    assert page.inner_text("#summary").startswith("Skill ")
    expect(page.locator("#pick")).to_be_disabled()
    page.click("#share")  # copied, or selected for the player to copy: news either way, not an error
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    expect(page.locator("#message")).to_contain_text(re.compile("Copied|Select"))
    assert page.seen["errors"] == []
    base = page.url.rstrip("/")
    assert page.seen["requests"] and all(u.startswith(base) or u.startswith("data:") for u in page.seen["requests"])


# ---------------------------------------------------------------------------------------------
# Layout


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_horizontal_overflow(open_page, size):
    """At the start, with the settings open, mid-game and after the analysis."""
    page = open_page(size)
    ready(page)
    no_overflow(page)
    toggle = page.locator("#settings-toggle")
    if toggle.is_visible():
        toggle.click()
        expect(page.locator("#words")).to_be_visible()
        no_overflow(page)
        page.keyboard.press("Escape")
        expect(page.locator("#words")).to_be_hidden()
    answer = ANSWERS[40]
    for row in range(6):
        word = page.locator("#pick-word").text_content()
        page.keyboard.type(word + digits(word, answer))
        page.keyboard.press("Enter")
        ready(page)
        no_overflow(page)
        if word == answer:
            break
    expect(page.locator("#analysis")).to_be_visible()
    no_overflow(page)


def test_one_phone_screen_and_tap_targets(open_page):
    page = open_page(PHONE)
    ready(page)
    w, h = PHONE
    for sel in ("#board", "#pick", "#keyboard", '[data-key="Enter"]', '[data-key="Backspace"]', "#undo"):
        box = page.locator(sel).bounding_box()
        assert box, sel
        inside = box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h
        assert inside, (sel, box)
    assert page.evaluate("[scrollX, scrollY]") == [0, 0]
    assert page.locator("#board .tile").count() == 30 and page.locator("#keyboard .key").count() == 28
    # Every tap target a finger meets on the first screen and in the settings: 44 px at least.
    # Letter keys are as wide as ten in a row allow (as on any phone keyboard), 44 px tall.
    page.click("#settings-toggle")
    sizes = page.evaluate("""[...document.querySelectorAll('button, select, summary, #settings label')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.id || e.dataset.key || e.className || e.tagName, r.width, r.height,
                            e.classList.contains('key') && !e.classList.contains('wide')]; })""")
    assert len(sizes) > 40
    for name, width, height, letter_key in sizes:
        assert height >= 44 and width >= (30 if letter_key else 44), (name, width, height)


# ---------------------------------------------------------------------------------------------
# Whole games


def test_a_whole_game_by_tapping(open_page, lex, advisor, tmp_path):
    """Phone, touch only: the top suggestion tapped (first row) or typed on the on-screen
    keyboard, colours set by tapping tiles, Enter tapped; Undo tapped once."""
    page = open_page(PHONE)
    ready(page)
    answer = ANSWERS[12]
    game = Game(lex)
    expect(page.locator("#cand-count")).to_have_text(f"({len(ANSWERS)} left)")
    undone = False
    while not game.solved:
        row = len(game.rows)
        top = check_advice(page, game, advisor)
        word, colours = top.word, digits(top.word, answer)
        if row == 0:
            page.tap("#pick")
        else:
            for ch in word[:3] + "z":  # a wrong letter, taken back
                page.tap(f'#keyboard [data-key="{ch}"]')
            page.tap('#keyboard [data-key="Backspace"]')
            for ch in word[3:]:
                page.tap(f'#keyboard [data-key="{ch}"]')
        assert [tile(page, row, c).text_content() for c in range(5)] == list(word.upper())
        for col, d in enumerate(colours):
            for _ in range(int(d)):
                tile(page, row, col).tap()
        assert row_states(page, row) == [STATES[int(d)] for d in colours]
        page.tap('#keyboard [data-key="Enter"]')
        game.guess(word, colours)
        ready(page)
        assert row_states(page, row) == [STATES[int(d)] for d in colours]
        check_keys(page, game)
        if not game.solved and not undone:
            # Undo: the row comes back to be entered, with its colours; Enter sends it again.
            undone = True
            page.tap("#undo")
            ready(page)
            expect(page.locator("#left")).to_have_text(f"{len(ANSWERS)} left")
            assert row_states(page, row) == [STATES[int(d)] for d in colours]
            expect(page.locator("#board .row.current")).to_have_attribute("aria-label", f"Row {row + 1}")
            page.tap('#keyboard [data-key="Enter"]')
            ready(page)
            expect(page.locator("#left")).to_have_text(f"{game.candidates.size} left")
    finish_checks(page, game, "light")
    shot = tmp_path / "phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    # After the win no row is being entered: letters are ignored.
    page.tap('#keyboard [data-key="a"]')
    assert page.locator("#board .tile", has_text="A").count() == sum(r.guess.count("a") for r in game.rows)


def test_a_whole_game_by_keyboard_alone(open_page, lex, advisor):
    """Desktop, no mouse: letters, Backspace, digits 0/1/2 for the colours (arrow keys to mend
    one), Enter; Tab to Undo shows a visible focus, Enter on it undoes, Esc gives the row back."""
    page = open_page(DESKTOP, touch=False)
    ready(page)
    answer = ANSWERS[57]
    game = Game(lex)
    while not game.solved:
        row = len(game.rows)
        word = check_advice(page, game, advisor).word
        colours = digits(word, answer)
        page.keyboard.type(word[:4] + "z")
        page.keyboard.press("Backspace")
        page.keyboard.type(word[4])
        page.keyboard.type(word)  # a full row takes no more letters
        assert "".join(tile(page, row, c).text_content() for c in range(5)) == word.upper()
        wrong = "".join("2" if d == "0" else "0" for d in colours[:2])
        page.keyboard.type(wrong + colours[2:])  # the cursor wraps to the first tile
        page.keyboard.press("ArrowRight")  # on the second tile
        page.keyboard.press("ArrowLeft")  # back on the first
        page.keyboard.type(colours[:2])
        assert row_states(page, row) == [STATES[int(d)] for d in colours]
        page.keyboard.press("Enter")
        game.guess(word, colours)
        ready(page)
        assert row_states(page, row) == [STATES[int(d)] for d in colours]
        if row == 0 and not game.solved:
            for _ in range(30):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.id") == "undo":
                    break
            outline = page.evaluate(
                "(() => { const s = getComputedStyle(document.activeElement);"
                " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
            )
            assert outline[0] != "none" and outline[1] >= 2, outline
            page.keyboard.press("Enter")
            ready(page)
            expect(page.locator("#left")).to_have_text(f"{len(ANSWERS)} left")
            page.keyboard.press("Escape")
            assert page.evaluate("document.activeElement.id") == "board"
            page.keyboard.press("Enter")
            ready(page)
            expect(page.locator("#left")).to_have_text(f"{game.candidates.size} left")
    check_keys(page, game)
    finish_checks(page, game, "light")


def test_errors_keep_the_game(open_page, lex):
    page = open_page(DESKTOP, touch=False)
    ready(page)
    page.keyboard.type("zzzzz")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_contain_text("'zzzzz' is not in the small guess list")
    expect(page.locator("#cand-count")).to_have_text(f"({len(ANSWERS)} left)")
    assert tile(page, 0, 0).text_content() == "Z"  # back in the row, to be mended
    for _ in range(5):
        page.keyboard.press("Backspace")
    answer, w = ANSWERS[30], WORDS[3]
    page.keyboard.type(w + digits(w, answer))
    page.keyboard.press("Enter")
    game = Game.from_history(lex, f"{w}:{digits(w, answer)}")
    expect(page.locator("#cand-count")).to_have_text(f"({game.candidates.size} left)")
    # Hard mode on: hard-mode words only (the server's own check, shown on wide screens).
    page.check("#hard")
    ready(page)
    assert set(page.locator("#suggestions tbody tr td:last-child").all_inner_texts()) == {"yes"}
    # A tile of the played row clicked to a colour no answer fits: refused, the row is unchanged.
    base = digits(w, answer)
    impossible = next(
        c
        for c in range(5)
        if not any(digits(w, a) == base[:c] + str((int(base[c]) + 1) % 3) + base[c + 1 :] for a in ANSWERS)
    )
    before = tile(page, 0, impossible).get_attribute("data-state")
    tile(page, 0, impossible).click()
    expect(page.locator("#message")).to_contain_text("row 1")
    ready(page)
    expect(tile(page, 0, impossible)).to_have_attribute("data-state", before)
    assert page.seen["errors"] == []


# ---------------------------------------------------------------------------------------------
# What the advice says


def test_why_and_candidates_by_likelihood(open_page, other):
    page = open_page(PHONE)
    ready(page)
    page.click("#settings-toggle")
    page.select_option("#words", "other")
    ready(page)
    game = Game(other)
    top = Advisor(other).suggest(game, 1)[0]
    expect(page.locator("#pick-word")).to_have_text(top.word)
    likely = about(likely_count(game.posterior))
    assert likely.startswith("about ")
    expect(page.locator("#left")).to_have_text(f"{game.candidates.size} left · {likely} likely")
    ranked = by_likelihood(game)
    assert page.locator("#candidates .cw").all_text_contents() == [w for w, _ in ranked[:20]]
    assert page.locator("#candidates .cp").all_text_contents() == [short_pct(p) for _, p in ranked[:20]]
    expect(page.locator("#cand-more summary")).to_have_text(f"… {game.candidates.size - 20} more, less likely")
    page.click("#cand-more summary")
    expect(page.locator("#cand-tail .cw")).to_have_count(game.candidates.size - 20)
    # Why the top suggestion: the library's sentences, and its likeliest colour groups.
    e = explain(game, top.word)
    expect(page.locator("#why-word")).to_have_text(top.word)
    expect(page.locator("#why-text")).to_have_text(" ".join(e.sentences()))
    groups = page.locator("#why-groups li:not(.more)")
    expect(groups).to_have_count(min(6, len(e.groups)))
    g0 = e.groups[0]
    assert [t.get_attribute("data-d") for t in groups.first.locator(".mini span").all()] == list(g0.digits)
    expect(groups.first).to_contain_text(f"{g0.size} word")
    no_overflow(page)


# ---------------------------------------------------------------------------------------------
# Requests: only the latest counts; a set being prepared; a busy server


def test_a_stale_answer_is_dropped(open_page, other):
    """The first answer (small set) is held back; the player picks the other set meanwhile; the
    held answer arrives last and must not replace the other set's board."""
    held = []

    def hold(route):
        held.append(route)

    page = open_page(DESKTOP, touch=False, before=lambda p: p.route("**/api/suggest", hold))
    until(page, lambda: len(held) == 1)
    page.select_option("#words", "other")
    until(page, lambda: len(held) == 2)
    # Meanwhile nothing is offered: the settings say "other", no answer for it has come yet.
    expect(page.locator("#pick")).to_be_disabled()
    expect(page.locator("#pick-word")).to_have_text("·····")
    held[1].continue_()
    ready(page)
    top = Advisor(other).suggest(Game(other), 1)[0].word
    expect(page.locator("#pick-word")).to_have_text(top)
    try:  # aborted by the page already, most likely; if not, it must be dropped
        held[0].continue_()
    except Exception:
        pass
    page.wait_for_timeout(700)
    expect(page.locator("#pick-word")).to_have_text(top)
    expect(page.locator("#words")).to_have_value("other")
    expect(page.locator("#set-info")).to_contain_text("other:")
    assert page.locator("#suggestions tbody button.use").first.text_content() == top
    # A row sent while its answer is slow, then hard mode switched on: the last request wins,
    # rows and settings together.
    page.unroute("**/api/suggest")
    page.route("**/api/suggest", hold)
    answer = OTHER_ANSWERS[7]
    page.keyboard.type(top + digits(top, answer))
    page.keyboard.press("Enter")
    until(page, lambda: len(held) == 3)
    page.check("#hard")
    until(page, lambda: len(held) == 4)
    held[3].continue_()
    ready(page)
    try:
        held[2].continue_()
    except Exception:
        pass
    page.wait_for_timeout(500)
    game = Game(other, hard=True)
    game.guess(top, digits(top, answer))
    if not game.solved:
        expect(page.locator("#pick-word")).to_have_text(Advisor(other).suggest(game, 1)[0].word)
        assert set(page.locator("#suggestions tbody tr td:last-child").all_inner_texts()) == {"yes"}
    expect(page.locator("#hard")).to_be_checked()
    assert row_states(page, 0) == [STATES[int(d)] for d in digits(top, answer)]


def test_a_set_being_prepared_shows_progress_then_plays(open_page, advisor, lex):
    calls = {"suggest": 0, "health": 0}
    preparing = {"words": "small", "day": None, "step": "building the answer model", "seconds": 12.3}

    def suggest(route):
        calls["suggest"] += 1
        if calls["suggest"] <= 2:  # a long wait first: the page asks /api/health meanwhile
            route.fulfill(
                status=503,
                headers={"retry-after": "3" if calls["suggest"] == 1 else "1"},
                json={"detail": "the word set small is being prepared", "preparing": preparing},
            )
            return
        # The first real answer carries a note about the build; later answers must not keep it.
        response = route.fetch()
        doc = response.json()
        if calls["suggest"] == 3:
            doc["notes"] = ["Building the answer model…"]
        route.fulfill(response=response, json=doc)

    def health(route):
        calls["health"] += 1
        route.fulfill(
            json={
                "ok": True,
                "version": "test",
                "ready": False,
                "sets": {
                    "small": {"state": "preparing", "step": "building the answer model", "seconds": 13.0, "error": None}
                },
            }
        )

    def before(page):
        page.route("**/api/suggest", suggest)
        page.route("**/api/health", health)

    page = open_page(PHONE, before=before)
    expect(page.locator("#status")).to_have_text(
        re.compile(r"Preparing small: building the answer model \(1[2-9] s\)…"), timeout=5_000
    )
    ready(page)
    assert calls["suggest"] == 3 and calls["health"] >= 1
    check_advice(page, Game(lex), advisor)
    expect(page.locator("#status")).to_have_text("")
    expect(page.locator("#set-info")).to_contain_text("Building the answer model")
    answer = ANSWERS[3]
    word = page.locator("#pick-word").text_content()
    page.keyboard.type(word + digits(word, answer))
    page.keyboard.press("Enter")
    ready(page)
    expect(page.locator("#set-info")).not_to_contain_text("Building")

    # A busy server (503 without "preparing"): a few retries, then a message with a button.
    page.unroute("**/api/suggest")
    busy = {"n": 0}

    def full(route):
        busy["n"] += 1
        route.fulfill(
            status=503, headers={"retry-after": "0"}, json={"detail": "the server is busy; try again in a moment"}
        )

    page.route("**/api/suggest", full)
    page.tap("#undo")
    expect(page.locator("#retry")).to_be_visible(timeout=10_000)
    expect(page.locator("#message")).to_contain_text("busy")
    assert busy["n"] == 4  # the request and three retries
    assert row_states(page, 0) == [STATES[int(d)] for d in digits(word, answer)]  # the game as it was
    expect(page.locator("#board .row.current")).to_have_attribute("aria-label", "Row 2")
    page.unroute("**/api/suggest")
    page.tap("#retry")
    ready(page)
    expect(page.locator("#left")).to_have_text(f"{len(ANSWERS)} left")
    expect(page.locator("#message")).to_have_text("")

    # A set whose preparation failed: said at once, not waited for.
    page.route(
        "**/api/suggest",
        lambda route: route.fulfill(
            status=503,
            headers={"retry-after": "2"},
            json={"detail": "failed", "preparing": dict(preparing, state="failed", error="the list is corrupt")},
        ),
    )
    page.tap("#new")  # in the bar, not only in the settings (issue 39)
    expect(page.locator("#message")).to_have_text("The word set small could not be prepared: the list is corrupt.")
    ready(page)


# ---------------------------------------------------------------------------------------------
# Themes


def _contrast(a, b):
    def lum(rgb):
        def f(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b_ = rgb
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b_)

    hi, lo = sorted([lum(a), lum(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _colours(page):
    """The theme's colours as RGB triples, read back from the browser."""
    names = [
        "bg",
        "ink",
        "muted",
        "panel",
        "soft",
        "absent",
        "present",
        "correct",
        "on-absent",
        "on-present",
        "on-correct",
        "key",
        "on-key",
        "error",
        "info",
        "focus",
    ]
    got = page.evaluate(
        """names => { const c = document.createElement('canvas').getContext('2d');
        const s = getComputedStyle(document.documentElement);
        return Object.fromEntries(names.map(n => {
            c.fillStyle = '#000'; c.fillStyle = s.getPropertyValue('--' + n).trim();  // normalised to #rrggbb
            const h = c.fillStyle; return [n, [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16))]; })); }""",
        names,
    )
    return got


def check_contrast(page):
    """WCAG AA: 4.5:1 for text; 3:1 for the tiles' and keys' large bold letters."""
    c = _colours(page)
    for fg, bg in [
        ("ink", "bg"),
        ("muted", "bg"),
        ("ink", "panel"),
        ("muted", "panel"),
        ("ink", "soft"),
        ("on-key", "key"),
        ("error", "bg"),
        ("info", "bg"),
    ]:
        assert _contrast(c[fg], c[bg]) >= 4.5, (fg, bg, _contrast(c[fg], c[bg]))
    for st in ("absent", "present", "correct"):
        assert _contrast(c[f"on-{st}"], c[st]) >= 3, (st, _contrast(c[f"on-{st}"], c[st]))
    assert _contrast(c["focus"], c["bg"]) >= 4.5  # the focus ring, and the colour of links
    # ... and those letters are large text: at least 18.66 px and bold
    for sel in ("#board .tile", "#keyboard .key:not(.wide)"):
        size, weight = page.evaluate(
            f"(() => {{ const s = getComputedStyle(document.querySelector('{sel}'));"
            " return [parseFloat(s.fontSize), Number(s.fontWeight)]; })()"
        )
        assert size >= 18.66 and weight >= 700, (sel, size, weight)
    return c


def test_themes_switch_persist_and_are_readable(open_page, browser):
    page = open_page(PHONE)
    ready(page)
    expect(page.locator("#theme")).to_have_value("light")
    assert check_contrast(page)["bg"] == [255, 255, 255]
    # Play a row with all three colours somewhere, to see the tiles in each theme.
    answer = next(a for a in ANSWERS if set(digits(page.locator("#pick-word").text_content(), a)) >= {"1", "2"})
    word = page.locator("#pick-word").text_content()
    page.keyboard.type(word + digits(word, answer))
    page.keyboard.press("Enter")
    ready(page)
    col = {d: digits(word, answer).index(d) for d in "12"}
    page.click("#settings-toggle")
    page.select_option("#theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert check_contrast(page)["bg"] == [18, 18, 19]
    page.reload()
    ready(page)
    expect(page.locator("#theme")).to_have_value("dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgba(0, 0, 0, 0)", "rgb(18, 18, 19)")
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(18, 18, 19)"
    page.click("#settings-toggle")
    page.select_option("#theme", "contrast")
    check_contrast(page)
    page.keyboard.press("Escape")  # out of the settings, back to the board
    expect(page.locator("#theme")).to_be_hidden()
    page.keyboard.type(word + digits(word, answer))
    page.keyboard.press("Enter")
    ready(page)
    bg = lambda c: tile(page, 0, c).evaluate("t => getComputedStyle(t).backgroundColor")  # noqa: E731
    assert bg(col["2"]) == "rgb(245, 121, 58)" and bg(col["1"]) == "rgb(133, 192, 249)"
    page.reload()
    ready(page)
    expect(page.locator("#theme")).to_have_value("contrast")
    # A new visitor whose system is dark: dark, without anything stored.
    dark = open_page(PHONE, scheme="dark")
    ready(dark)
    expect(dark.locator("#theme")).to_have_value("dark")
    assert dark.evaluate("document.documentElement.dataset.theme") is None
    assert check_contrast(dark)["bg"] == [18, 18, 19]
    assert page.seen["errors"] == [] and dark.seen["errors"] == []


def test_the_candidates_say_where_the_days_answer_comes_from(open_page):
    """On a set whose prior has groups (the nyt set's answer model), the list names each word's
    group and a fold gives each group's share of the day; the answers here get made-up groups."""
    import json

    def grouped(route):
        answer = route.fetch()
        doc = answer.json()
        if "candidate_words" not in doc:  # the set not ready yet: as it is
            route.fulfill(response=answer)
            return
        for i, c in enumerate(doc["candidate_words"]):
            c["group"] = "NYT list" if i % 2 == 0 else "past answer"
        doc["prior_groups"] = [
            {
                "label": "unused word of the NYT answer list",
                "short": "NYT list",
                "text": "80 % of days draw one of these 554 words",
                "share": 0.8,
                "words": 554,
            },
            {
                "label": "past answer (a repeat)",
                "short": "past answer",
                "text": "12 % of days repeat one of these 1,795 past answers",
                "share": 0.12,
                "words": 1795,
            },
            {
                "label": "one of the words the NYT removed",
                "short": "removed word",
                "text": "tiny",
                "share": 1e-4,
                "words": 6,
            },
        ]
        route.fulfill(json=doc)

    page = open_page(PHONE, before=lambda p: p.route("**/api/suggest", grouped))
    expect(page.locator("#candidates li").first).to_contain_text("NYT list")
    expect(page.locator("#candidates li").nth(1)).to_contain_text("past answer")
    page.click("#cand-groups summary")
    items = page.locator("#cand-groups li")
    expect(items).to_have_count(2)  # a group under 0.1 % of the day is left out
    expect(items.first).to_have_text("Unused word of the NYT answer list: 80 % of days draw one of these 554 words.")
    no_overflow(page)
    assert not page.seen["errors"], json.dumps(page.seen["errors"])
