"""The Textual UI, driven headless with Pilot, and snapshots of its main screens at 80x24."""

import asyncio
import datetime as dt
import threading
from contextlib import asynccontextmanager, suppress

from conftest import random_words
from naive import digits, feedback_code
from textual import events
from textual.widgets import Button, DataTable, Select
from textual.widgets._footer import FooterKey
from textual.worker import WorkerCancelled

from wordlebot.app.session import Session, Settings
from wordlebot.core import clock
from wordlebot.core.game import Game
from wordlebot.core.words import Lexicon
from wordlebot.policy.advisor import Advisor
from wordlebot.tui import WordlebotApp
from wordlebot.tui.app import SuggestionTable
from wordlebot.tui.screens import AnalysisScreen, SettingsScreen

WORDS = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = WORDS[::3]
SIZE = (80, 24)


def lexicon():
    return Lexicon.from_lists(WORDS, ANSWERS, name="mini")


def app_for(mode="assist", secret=None, strategy="search", hard=False, lex=None, hints="auto"):
    s = Session(
        lex or lexicon(), Settings(words="mini", mode=mode, strategy=strategy, hard=hard, hints=hints), secret=secret
    )
    return WordlebotApp(s, persist=False)


async def workers_done(app):
    """Wait for the app's workers.  A suggestion search is an exclusive worker: one started while
    another runs cancels it, and a cancelled one raises here if it was among those awaited (a
    burst of keys on a loaded machine: one run in six of the suite on three processes, 2026-12-02).
    It is replaced, not lost: the caller's loop waits for its successor."""
    with suppress(WorkerCancelled):
        await app.workers.wait_for_complete()


async def settle(app, pilot):
    """Until no search runs and no key waits for one."""
    for _ in range(50):
        await pilot.pause()
        await workers_done(app)
        await pilot.pause()
        if not app.session.held and not any(w.is_running for w in app.workers):
            return


@asynccontextmanager
async def running(app, size=SIZE):
    """The app headless (80x24 unless told), its first suggestions shown."""
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        yield pilot


NAMED = {"enter": "\r", "tab": "\t", "space": " ", "backspace": "\x7f"}


async def burst(app, pilot, keys):
    """Post every key at once, as a paste or very fast typing delivers them, then settle."""
    for k in keys:
        app.post_message(events.Key(k, k if len(k) == 1 else NAMED.get(k)))
    await settle(app, pilot)


async def slowly(app, pilot, keys):
    for k in keys:
        await pilot.press(k)
        await settle(app, pilot)


def _text(app, selector):
    return str(app.query_one(selector).render())


def run(coro):
    return asyncio.run(coro)


def test_typing_backspace_and_colour_cycling():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("c", "r", "a", "n", "e", "s")  # the sixth letter is refused, with the reason
            assert app.session.letters == "crane"
            assert "has its 5 letters" in _text(app, "#status")
            await pilot.press("backspace")
            assert app.session.letters == "cran"
            await pilot.press("left", "left")  # from the last letter to the 2nd
            await pilot.press("space", "space")
            assert app.session.colours == [0, 2, 0, 0]  # gray -> yellow -> green
            await pilot.press("space")
            assert app.session.colours == [0, 0, 0, 0]  # and back to gray
            # a click on a tile cycles it too
            await pilot.click("Tile", offset=(1, 0))
            assert app.session.colours[0] == 1

    run(go())


def test_a_full_solved_game_with_suggestions_then_the_analysis():
    async def go():
        app = app_for()
        target = ANSWERS[5]
        async with running(app) as pilot:
            for _ in range(8):
                await settle(app, pilot)
                if app.session.over:
                    break
                await pilot.press("tab")  # the top suggestion
                assert len(app.session.letters) == 5
                await pilot.press(*digits(app.session.letters, target), "enter")  # its colours, by digits
            await settle(app, pilot)
            assert app.session.game.solved and app.session.game.rows[-1].guess == target
            assert isinstance(app.screen, AnalysisScreen)
            await settle(app, pilot)
            summary = _text(app.screen, "#summary")
            assert summary.startswith("Skill 99")  # it followed the bot's own choices
            review = _text(app.screen, "#review")
            assert review.startswith(f"1. {app.session.game.rows[0].guess.upper()}: The bot's choice")

    run(go())


def test_undo_and_correcting_an_earlier_row_with_the_mouse():
    async def go():
        app = app_for()
        target = ANSWERS[7]
        async with running(app) as pilot:
            await pilot.press("tab")
            await pilot.press(*digits(app.session.letters, target), "enter")
            await settle(app, pilot)
            assert len(app.session.game.rows) == 1
            await pilot.press("ctrl+z")
            await settle(app, pilot)
            assert app.session.game.rows == []
            await pilot.press("tab")
            word = app.session.letters
            await pilot.press(*digits(word, target), "enter")
            await settle(app, pilot)
            original = app.session.game.rows[0].pattern
            # a click on a played tile cycles its colour: accepted if some word still fits, else
            # refused with the reason and nothing changed; three clicks come back to the start
            for _ in range(3):
                await pilot.click("Tile", offset=(1, 0))
                await settle(app, pilot)
                p = app.session.game.rows[0].pattern
                status = _text(app, "#status")
                assert (
                    p != original
                    and "corrected" in status
                    or p == original
                    and ("no" in status or "corrected" in status)
                )
            assert app.session.game.rows[0].pattern == original and app.session.game.rows[0].guess == word
            assert target in app.session.game.candidate_words

    run(go())


def test_impossible_colours_are_refused_with_the_reason():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("tab", *"22221", "enter")  # four greens and a yellow cannot happen
            await settle(app, pilot)
            assert "leaves no possible word" in _text(app, "#status")
            assert app.session.game.rows == [] and len(app.session.letters) == 5  # nothing lost
            assert app.session.colours == [2, 2, 2, 2, 1]

    run(go())


def test_unknown_word_is_refused():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press(*"zzzzz", "enter")
            assert "not in the mini guess list" in _text(app, "#status")
            assert app.session.letters == "zzzzz"

    run(go())


def test_play_mode_colours_the_guesses_itself():
    async def go():
        target = ANSWERS[2]
        app = app_for(mode="play", secret=target)
        async with running(app) as pilot:
            await pilot.press(*WORDS[0], "enter")
            await settle(app, pilot)
            assert app.session.game.rows[0].pattern == feedback_code(WORDS[0], target)
            await pilot.press(*target, "enter")
            await settle(app, pilot)
            assert app.session.game.solved and isinstance(app.screen, AnalysisScreen)
            assert "Wordle 2/6" in app.screen.share

    run(go())


# --- item 4: keys in a burst are handled in order, as if typed slowly ----------------------------


def test_a_burst_word_and_enter_plays_the_word():
    """'crane'+Enter pasted used to say 'type 5 letters first (0 so far)': Enter ran first."""

    async def go():
        target = ANSWERS[2]
        app = app_for(mode="play", secret=target)
        async with running(app) as pilot:
            await burst(app, pilot, [*WORDS[0], "enter"])
            assert [r.guess for r in app.session.game.rows] == [WORDS[0]]
            assert app.session.game.rows[0].pattern == feedback_code(WORDS[0], target)

    run(go())


def test_a_burst_of_moves_and_colours_lands_where_typed():
    """→ then Space in one burst colours the tile the cursor moved to."""

    async def go():
        app = app_for()
        async with running(app) as pilot:
            await burst(app, pilot, [*WORDS[1], "right", "right", "space", "right", "space", "space"])
            assert app.session.colours == [0, 0, 1, 2, 0]

    run(go())


def test_a_paste_of_word_colours_and_new_line_plays_the_row():
    async def go():
        target = ANSWERS[4]
        app = app_for()
        async with running(app) as pilot:
            app.post_message(events.Paste(f"{WORDS[3]} {digits(WORDS[3], target)}\n"))
            await settle(app, pilot)
            assert [str(r) for r in app.session.game.rows] == [f"{WORDS[3]}:{digits(WORDS[3], target)}"]

    run(go())


def test_play_mode_tab_in_a_burst_waits_for_the_next_suggestion():
    """Tab right after Enter plays the suggestion for the new position (computed here with the
    library, independently of the UI), not the one still on screen."""
    lex = lexicon()
    first = WORDS[0]
    advisor = Advisor(lex)
    for target in ANSWERS:  # the first answer the bot needs three rows or more for
        expected = Game(lex, answer=target, matrix=advisor.matrix)
        expected.guess(first)
        while not expected.over:
            expected.guess(advisor.suggest(expected, 8)[0].word)
        if len(expected.rows) >= 3:
            break
    keys = [*first, "enter"] + ["tab", "enter"] * (len(expected.rows) - 1)  # none after the game ends

    async def go(deliver):
        app = app_for(mode="play", secret=target, hints="shown")  # Tab is a hint: shown here
        async with running(app) as pilot:
            await deliver(app, pilot, keys)
            return [str(r) for r in app.session.game.rows]

    assert run(go(burst)) == [str(r) for r in expected.rows]
    assert run(go(slowly)) == [str(r) for r in expected.rows]


def test_assist_keys_give_the_same_game_at_any_speed():
    target = ANSWERS[11]
    w1, w2 = WORDS[5], WORDS[40]
    keys = [
        *w1,
        *digits(w1, target),
        "enter",
        *w2,
        "2",
        "2",
        "backspace",
        "backspace",
        *digits(w2, target),
        "enter",
        "up",
        "up",
        "space",
        "escape",  # start correcting row 1, then cancel
        "tab",
        "backspace",
        "ctrl+z",
        "tab",
    ]

    async def go(deliver):
        app = app_for()
        async with running(app) as pilot:
            await deliver(app, pilot, keys)
            s = app.session
            return [str(r) for r in s.game.rows], s.letters, list(s.colours), s.editing

    slow, fast = run(go(slowly)), run(go(burst))
    assert slow == fast
    assert slow[0] == [f"{w1}:{digits(w1, target)}", f"{w2}:{digits(w2, target)}"] and slow[2:] == ([0] * 5, None)


# --- item 5: Tab never plays a stale suggestion ------------------------------------------------


def test_tab_during_a_search_waits_for_it_and_the_title_says_searching():
    async def go():
        app = app_for()
        gate = threading.Event()
        real = app.session.suggestions

        def slow(top, game):
            gate.wait(10)
            return real(top, game)

        async with running(app) as pilot:
            before = app.session.offered[0].word
            app.session.suggestions = slow
            target = ANSWERS[3]
            await pilot.press(*before, *digits(before, target), "enter")
            await pilot.pause()
            assert _text(app, "#sugg-title") == "suggestions: searching…"
            assert app.query_one(DataTable).row_count == 0  # the old rows are gone
            await pilot.press("tab")
            await pilot.pause()
            assert app.session.letters == "" and app.session.held == ["tab"]
            assert "waiting for the search" in _text(app, "#status")
            gate.set()
            await settle(app, pilot)
            new_best = real(8, app.session.game)[0].word
            assert app.session.letters == new_best
            assert _text(app, "#sugg-title").startswith(f"streak · Tab plays {new_best.upper()}")

    run(go())


# --- item 7: colours by keyboard, corrections by keyboard, the on-screen keyboard ----------------


def test_colours_by_digits_letters_and_a_whole_pattern():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press(*WORDS[2], *"g1.y0")  # mixed forms: green, yellow, gray, yellow, gray
            assert app.session.colours == [2, 1, 0, 1, 0]
            await pilot.press("backspace", "backspace", "2", "g")  # Backspace clears colours first
            assert app.session.colours == [2, 1, 0, 2, 2]
            await pilot.press("1")
            assert "colours are set" in _text(app, "#status") and app.session.colours == [2, 1, 0, 2, 2]

    run(go())


def test_correcting_an_earlier_row_by_keyboard():
    async def go():
        target = ANSWERS[6]
        app = app_for()
        async with running(app) as pilot:
            w1, w2 = WORDS[7], WORDS[70]
            # a typo in the colours that another answer would explain, so the game takes it
            wrong = next(digits(w1, a) for a in ANSWERS if digits(w1, a) != digits(w1, target))
            await pilot.press(*w1, *wrong, "enter")
            await settle(app, pilot)
            assert [str(r) for r in app.session.game.rows] == [f"{w1}:{wrong}"]
            await pilot.press("up")
            assert app.session.editing == 0 and "correcting row 1" in _text(app, "#status")
            await pilot.press(*digits(w1, target), "enter")
            await settle(app, pilot)
            assert "row 1 corrected" in _text(app, "#status")
            await pilot.press(*w2, *digits(w2, target), "enter")
            await settle(app, pilot)
            assert [str(r) for r in app.session.game.rows] == [
                f"{w1}:{digits(w1, target)}",
                f"{w2}:{digits(w2, target)}",
            ]
            assert target in app.session.game.candidate_words

    run(go())


def test_the_on_screen_keyboard_shows_the_letter_states():
    from wordlebot.tui.app import KEY_STYLES, keyboard_text

    async def go():
        lex = Lexicon.from_lists(["crane", "stare", "moist", "pious", "spore"], ["stare", "spore"], name="hand")
        app = app_for(lex=lex)
        async with running(app) as pilot:
            # CRANE/STARE 01202: R yellow, A and E green, C and N gray
            await pilot.press(*"crane01202", "enter")
            await settle(app, pilot)
            assert app.session.keyboard() == {"c": 0, "r": 1, "a": 2, "n": 0, "e": 2}
            text = keyboard_text(app.session.keyboard())
            assert text.plain.split("\n") == ["Q W E R T Y U I O P", " A S D F G H J K L", "  Z X C V B N M"]
            styles = {text.plain[s.start : s.end]: str(s.style) for s in text.spans}
            assert styles["R"] == KEY_STYLES[1] and styles["A"] == styles["E"] == KEY_STYLES[2]
            assert styles["C"] == styles["N"] == KEY_STYLES[0] and styles["Q"] == KEY_STYLES[-1]

    run(go())


def test_the_cursor_tile_shows_its_letter_between_brackets():
    """The cursor is drawn around the letter, so the colour just set stays visible."""
    from wordlebot.tui.app import Tile

    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press(*WORDS[2], "2")
            tiles = [t for t in app.query(Tile) if t.row == 0]
            w = WORDS[2].upper()
            assert [str(t.render()) for t in tiles] == [f" {w[0]} ", f"[{w[1]}]", f" {w[2]} ", f" {w[3]} ", f" {w[4]} "]
            # the tiles after it have no colour yet, and show none (not gray: Enter would refuse them)
            assert tiles[0].has_class("green") and tiles[1].has_class("cursor") and tiles[1].has_class("typed")

    run(go())


# --- item 1: a settings change keeps the game --------------------------------------------------

HAND = ["crane", "stare", "moist", "pious", "shore", "slate", "store"]


def _hand_app():
    lex = Lexicon.from_lists(HAND, ["stare", "store", "shore"], name="hand")
    s = Session(lex, Settings(words="hand", strategy="entropy"))
    return WordlebotApp(s, persist=False)


async def _apply(app, pilot, **fields):
    await pilot.press("f2")
    assert isinstance(app.screen, SettingsScreen)
    for k, v in fields.items():
        app.screen.query_one(f"#{k}").value = v
    await pilot.click("#apply")
    await settle(app, pilot)
    # A refused dialog stays: wait until it shows the verdict (it comes back through
    # call_from_thread) and its button can be pressed again (Textual ignores a press within 0.2 s
    # of the last, while the button shows "-active": a second click sooner was lost, one run in three).
    for _ in range(500):
        if not isinstance(app.screen, SettingsScreen):
            break
        button = app.screen.query_one("#apply", Button)
        if not button.disabled and not button.has_class("-active"):
            break
        await pilot.pause(0.01)


def test_settings_change_keeps_the_rows_when_they_fit():
    async def go():
        app = _hand_app()
        async with running(app) as pilot:
            # CRANE/STARE 01202 (hand-checked): hard mode, another strategy and cap keep it
            await pilot.press(*"crane01202", "enter")
            await settle(app, pilot)
            await _apply(app, pilot, strategy="minimax", hard=True, cap="5")
            s = app.session
            assert [str(r) for r in s.game.rows] == ["crane:01202"] and s.game.hard and s.game.max_guesses == 5
            assert s.settings.strategy == "minimax" and s.advisor.strategy == "minimax"
            assert "the game goes on (1 row kept)" in _text(app, "#status")
            assert "hard" in app.sub_title and not isinstance(app.screen, SettingsScreen)

    run(go())


def test_settings_change_refused_with_the_reason_when_the_rows_break_hard_mode():
    async def go():
        app = _hand_app()
        async with running(app) as pilot:
            # MOIST after CRANE 01202 breaks hard mode: the 3rd letter must stay A (hand-checked)
            await pilot.press(*"crane01202", "enter")
            await settle(app, pilot)
            await pilot.press(*"moist", *digits("moist", "stare"), "enter")
            await settle(app, pilot)
            rows = [str(r) for r in app.session.game.rows]
            assert rows == ["crane:01202", "moist:00011"]
            await _apply(app, pilot, hard=True)
            assert isinstance(app.screen, SettingsScreen)  # the dialog stays, with the reason
            reason = _text(app.screen, "#settings-error")
            assert "row 2: MOIST is not allowed: hard mode: the 3rd letter must be A" in reason
            assert str(app.screen.query_one("#apply", Button).label) == "New game"
            assert [str(r) for r in app.session.game.rows] == rows and not app.session.game.hard
            await pilot.click("#cancel")  # keep playing: nothing changed
            await settle(app, pilot)
            assert [str(r) for r in app.session.game.rows] == rows and not app.session.settings.hard
            # asked twice, it starts a new game with the new rules
            await _apply(app, pilot, hard=True)
            await pilot.click("#apply")
            await settle(app, pilot)
            assert app.session.game.rows == [] and app.session.game.hard

    run(go())


def test_settings_cap_below_the_rows_played_is_refused():
    async def go():
        app = _hand_app()
        async with running(app) as pilot:
            for w in ("crane", "moist", "pious"):
                await pilot.press(*w, *digits(w, "stare"), "enter")
                await settle(app, pilot)
            await _apply(app, pilot, cap="2")
            assert "the game has 3 rows, more than a cap of 2 guesses" in _text(app.screen, "#settings-error")
            assert len(app.session.game.rows) == 3 and app.session.game.max_guesses == 6

    run(go())


def test_settings_dialog_new_word_set_replays_the_rows(tmp_path):
    async def go():
        app = _hand_app()
        g = tmp_path / "g.txt"
        g.write_text("\n".join(HAND + ["spare"]) + "\n")
        async with running(app) as pilot:
            await pilot.press(*"crane01202", "enter")
            await settle(app, pilot)
            await _apply(app, pilot, guesses=str(g))
            s = app.session
            assert s.lexicon.name == "g" and [str(r) for r in s.game.rows] == ["crane:01202"]
            assert sorted(s.game.candidate_words) == ["spare", "stare"]  # what fits in the new list

    run(go())


def test_a_short_colour_row_and_a_hard_mode_slip_are_said_at_once():
    """Issue 39: 'raver 0202' + Enter played 02020, and a hard-mode violation was said only after
    the colours.  Now the short row is refused with the tile it lacks, and the word hard mode
    forbids is refused as its last letter is typed (hand-checked: CRANE/STARE 01202, then the
    3rd letter must be A)."""

    async def go():
        app = _hand_app()
        app.session.settings.hard = True
        app.session.new_game()
        async with running(app) as pilot:
            await slowly(app, pilot, [*"crane", *"0120", "enter"])
            assert app.session.game.rows == [] and app.error
            assert _text(app, "#status") == (
                "CRANE has 4 of its 5 colours: type the colour of tile 5 too (0 gray, 1 yellow, 2 green), then Enter"
            )
            await slowly(app, pilot, ["2", "enter"])
            assert [str(r) for r in app.session.game.rows] == ["crane:01202"] and not app.error
            await slowly(app, pilot, [*"mois"])
            assert not app.error
            await slowly(app, pilot, ["t"])
            assert app.error and _text(app, "#status") == "MOIST is not allowed: hard mode: the 3rd letter must be A"

    run(go())


def test_the_estimate_note_is_in_a_players_words():
    """Issue 39: "≈ est., not hard-aware" was jargon.  Past the look-ahead an estimate ignores
    hard mode's limits, so it can only be low: the title says so in plain words, in the width
    of the panel at 80 columns."""
    words = random_words(400, length=5, alphabet="abcdeorstlin", seed=31)
    lex = Lexicon.from_lists(words, words[::2], name="mini", official=False)  # its first move is estimated

    async def go(hard):
        app = app_for(hard=hard, lex=lex)
        async with running(app):
            assert app.session.offered[0].basis == "estimate"
            title = app.query_one("#sugg-title")
            best = app.session.offered[0].word.upper()
            assert title.region.width >= len(_text(app, "#sugg-title"))
            return _text(app, "#sugg-title"), best

    title, best = run(go(True))
    assert title == f"streak · Tab plays {best}; ≈ may be low in hard mode"
    title, best = run(go(False))
    assert title == f"streak · Tab plays {best}; avg ≈ estimated"


def test_a_reason_that_ends_with_a_question_gets_no_second_full_stop(tmp_path):
    """Issue 39: "…or EATER?. Press New game".  The reason the rows cannot be kept ends with the
    words one slip away, a question; the dialog's next sentence follows it without a full stop."""

    async def go():
        app = _hand_app()
        g = tmp_path / "g.txt"
        g.write_text("\n".join(["crate", "stare", "store"]) + "\n")  # no CRANE; CRATE is one slip away
        async with running(app) as pilot:
            await pilot.press(*"crane01202", "enter")
            await settle(app, pilot)
            await _apply(app, pilot, guesses=str(g))
            said = _text(app.screen, "#settings-error")
            assert "did you mean CRATE? Press New game to start one with them" in said and "?." not in said

    run(go())


# --- item 2 and 6: the settings file ---------------------------------------------------------


def test_settings_are_remembered(tmp_path):
    s = Settings(words="classic", strategy="entropy", hard=True, max_guesses=5, mode="play")
    assert s.save() is None
    assert Settings.load() == s


def test_a_bad_settings_file_is_reported_in_the_ui_never_a_crash(monkeypatch):
    """The tui command with a settings file of bad values starts, with the defaults for them,
    and the notice is shown inside the UI (not hidden behind it)."""
    from click.testing import CliRunner

    from wordlebot import cli as cli_mod

    Settings.path().parent.mkdir(parents=True, exist_ok=True)
    Settings.path().write_text('{"strategy": "nope", "max_guesses": 100, "hard": true}')
    started = []
    monkeypatch.setattr(WordlebotApp, "run", lambda self: started.append(self))
    monkeypatch.setattr(Settings, "lexicon", lambda self, *a, **k: lexicon())
    r = CliRunner().invoke(cli_mod.cli, ["tui"], catch_exceptions=False)
    assert r.exit_code == 0 and "Traceback" not in r.output
    app = started[0]
    s = app.session.settings
    assert (s.strategy, s.max_guesses, s.hard) == ("search", 6, True)  # bad ones defaulted, good one kept
    assert any('strategy "nope"' in n and "max_guesses 100 is out of range 2-10" in n for n in app.notes)

    async def go():
        async with running(app):
            shown = [n.message for n in app._notifications]
            assert any("max_guesses 100" in m for m in shown)

    run(go())


# --- item 8: everything fits 80x24 -------------------------------------------------------------


def _fits(widget):
    """No column of the table is cut: its content is as wide as its region, or narrower."""
    return widget.virtual_size.width <= widget.scrollable_content_region.width


def test_main_screen_fits_80x24_with_the_footer_and_the_hard_column():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("tab")
            table = app.query_one("#suggestions", DataTable)
            assert table.row_count == 8 and _fits(table)
            assert str(table.ordered_columns[-1].label) == "hard"
            keys = {k.key: k for k in app.screen.query(FooterKey)}
            for key in ("f2", "tab", "enter", "ctrl+q"):
                assert keys[key].region.right <= 80 and keys[key].region.width > 0, key
            assert app.query_one("#status").region.bottom <= 23

    run(go())


def test_analysis_dialog_fits_80x24():
    async def go():
        target = ANSWERS[2]
        app = app_for(mode="play", secret=target)
        async with running(app) as pilot:
            for w in WORDS[:5]:
                if w != target:
                    await pilot.press(*w, "enter")
                    await settle(app, pilot)
            await pilot.press(*target, "enter")
            await settle(app, pilot)
            assert isinstance(app.screen, AnalysisScreen)
            rows = app.screen.query_one("#rows", DataTable)
            assert rows.row_count == 6 and _fits(rows)
            assert str(rows.ordered_columns[-1].label) == "luck"
            box = app.screen.query_one("#analysis")
            assert box.region.bottom <= 24 and box.region.right <= 80
            for b in app.screen.query(Button):
                assert b.region.bottom <= 23 and b.region.width > 0

    run(go())


def test_settings_dialog_fits_80x24():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            for b in app.screen.query(Button):
                assert b.region.bottom <= 23 and b.region.width > 0
            assert app.screen.query_one("#hard", Select).region.width > 0

    run(go())


# --- snapshots --------------------------------------------------------------------------------


def _settled(press=()):
    async def before(pilot):
        await settle(pilot.app, pilot)
        for key in press:
            await pilot.press(key)
        await settle(pilot.app, pilot)

    return before


def test_snapshot_main_screen(snap_compare):
    target = ANSWERS[2]
    keys = (*WORDS[0], *digits(WORDS[0], target), "enter", "tab", "2", "1")
    assert snap_compare(app_for(), run_before=_settled(keys), terminal_size=SIZE)


def test_snapshot_analysis_screen(snap_compare):
    target = ANSWERS[2]
    assert snap_compare(
        app_for(mode="play", secret=target),
        run_before=_settled((*WORDS[0], "enter", *target, "enter")),
        terminal_size=SIZE,
    )


def test_snapshot_settings_screen(snap_compare):
    """The day field's placeholder names today: the suite's pinned day (conftest.PINNED_TODAY)."""
    assert snap_compare(app_for(), run_before=_settled(("f2",)), terminal_size=SIZE)


# --- play mode: an answer outside the answer list -----------------------------------------------
# Hand-made lists: GUANO is a guess but not an answer.  SLATE/GUANO 00200 leaves only the answer
# PIANO; PIANO/GUANO 00222 leaves none (PIANO/PIANO is 22222).


async def _type_row(app, pilot, word):
    await pilot.press(*word, "enter")
    await settle(app, pilot)


def test_play_mode_is_winnable_when_the_answer_is_not_in_the_answer_list():
    async def go():
        lex = Lexicon.from_lists(
            ["crane", "guano", "organ", "piano", "slate"], ["piano", "organ", "crane"], name="hand"
        )
        app = WordlebotApp(
            Session(lex, Settings(words="hand", mode="play", hints="shown"), secret="guano"), persist=False
        )
        async with running(app) as pilot:
            await _type_row(app, pilot, "slate")
            assert _text(app, "#cand-title") == "1 candidate left" and "PIANO" in _text(app, "#candidates")
            await _type_row(app, pilot, "piano")
            game = app.session.game
            assert [r.feedback_digits() for r in game.rows] == ["00200", "00222"] and not game.over
            note = "the answer is not in the hand answer list"
            assert _text(app, "#cand-title") == note and _text(app, "#candidates") == ""
            assert _text(app, "#sugg-title") == f"no suggestions: {note}" and app.session.offered == []
            assert _text(app, "#status") == note
            await _type_row(app, pilot, "guano")
            assert game.solved and isinstance(app.screen, AnalysisScreen)
            assert app.screen.share == "Wordle 3/6\n\n⬛⬛🟩⬛⬛\n⬛⬛🟩🟩🟩\n🟩🟩🟩🟩🟩"
            await settle(app, pilot)
            summary = _text(app.screen, "#summary")
            assert "solved in 3" in summary and f"{note}: no bot comparison from row 2" in summary
            assert app.screen.query_one("#rows").row_count == 3

    run(go())


def test_play_mode_classic_on_the_guano_day(classic, classic_matrix, official):
    from wordlebot.core.days import pick_answer

    async def go():
        secret, puzzle = pick_answer(classic, day=dt.date(2023, 3, 27), data_dir=official)
        assert (secret, puzzle) == ("guano", 646)
        advisor = Advisor(classic, strategy="entropy", matrix=classic_matrix, use_book=False)
        session = Session(
            classic,
            Settings(words="classic", mode="play", strategy="entropy"),
            secret=secret,
            puzzle=puzzle,
            advisor=advisor,
        )
        app = WordlebotApp(session, persist=False)
        async with running(app) as pilot:
            await _type_row(app, pilot, "salet")  # SALET/GUANO 01000: many classic answers fit
            assert app.session.game.candidates.size > 0 and not app.session.game.off_list
            await _type_row(app, pilot, "guano")  # all green: no classic answer is GUANO
            assert app.session.game.solved and app.session.game.off_list_row == 2
            assert isinstance(app.screen, AnalysisScreen)
            assert app.screen.share == "Wordle 646 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩"
            await settle(app, pilot)
            summary = _text(app.screen, "#summary")
            assert "over the first 1 row" in summary and "solved in 2" in summary
            assert "the answer is not in the classic answer list: no bot comparison from row 2" in summary

    run(go())


def test_settings_dialog_keeps_the_day_of_a_replayed_game(official, monkeypatch):
    """A game of a past day keeps that day's prior when the settings load another word set."""
    import wordlebot.app.session as session_mod

    monkeypatch.setenv("WORDLEBOT_DATA", str(official))
    asked = []
    real = session_mod.Settings.lexicon

    def spy(self, data_dir=None, **options):
        asked.append(options.get("day"))
        return real(self, data_dir, **options)

    monkeypatch.setattr(session_mod.Settings, "lexicon", spy)
    day = dt.date(2026, 5, 20)

    async def go():
        s = Session(lexicon(), Settings(words="mini", strategy="entropy"), day=day)
        app = WordlebotApp(s, persist=False)
        async with running(app) as pilot:
            await _apply(app, pilot, words="classic")
            assert app.session.lexicon.name == "classic" and app.session.day == day

    run(go())
    assert asked == [day]


def test_the_keys_screen_fits_80x24_without_wrapping():
    from wordlebot.app.session import KEYS_HELP
    from wordlebot.tui.screens import HelpScreen

    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = app.screen.query_one("#help Static")
            assert text.region.height == len(KEYS_HELP.splitlines())  # no line wrapped
            assert app.screen.query_one("#help").region.bottom <= 24
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)

    run(go())


def test_settings_with_another_length_and_cap_reshape_the_board(tmp_path):
    from wordlebot.tui.app import Board, Tile

    four = sorted({w[:4] for w in WORDS})
    g = tmp_path / "four.txt"
    g.write_text("\n".join(four) + "\n")

    async def go():
        app = app_for()
        async with running(app) as pilot:
            await _apply(app, pilot, guesses=str(g), length="4", cap="9")
            await settle(app, pilot)
            board = app.query_one(Board)
            assert (board.n_rows, board.length) == (9, 4) and len(app.query(Tile)) == 36
            assert board.region.bottom <= 22  # nine rows fit above the status line at 80x24
            await pilot.press(*four[0])
            assert app.session.letters == four[0] and len(app.session.board()[0].cells) == 4

    run(go())


def test_start_up_progress_lines_are_not_shown_as_news():
    """A loader's progress ("Training the answer model…") is over once the UI starts: only real
    notices become toasts and the status line, and they do not stay for a minute."""
    from wordlebot.tui.app import NOTICE_SECONDS

    s = Session(lexicon(), Settings(words="mini"))
    app = WordlebotApp(
        s,
        persist=False,
        notes=[
            "Training the answer model on the history (a few seconds)…",
            "The answer history ends 2026-05-31: run 'wordlebot data update'",
        ],
    )

    async def go():
        async with running(app):
            shown = [(n.message, n.timeout) for n in app._notifications]
            assert shown == [("The answer history ends 2026-05-31: run 'wordlebot data update'", NOTICE_SECONDS)]
            assert NOTICE_SECONDS <= 15
            assert "data update" in app.message

    asyncio.run(go())


def test_an_offline_first_run_says_so_in_a_line_kept_for_the_session(tmp_path, monkeypatch):
    """Issue 39: offline, the reason came in stacked 12 s toasts cut off at 80x24, and the status
    line then said "…fetching them now (one time)" for the whole session.  Now one line above the
    status says which list is in use, why and the command that fixes it, and stays."""
    from wordlebot.app.wordsets import load_lexicon

    monkeypatch.delenv("WORDLEBOT_OFFLINE")  # the fixture's download host, 127.0.0.1:9, refuses
    notes = []
    lex = load_lexicon("nyt", data_dir=tmp_path / "none", notify=notes.append)
    app = WordlebotApp(Session(lex, Settings()), persist=False, notes=notes)
    line = "wordfreq list, not the official one (offline): run wordlebot data fetch"

    async def go():
        async with running(app) as pilot:
            notice = app.query_one("#notice")
            assert _text(app, "#notice") == line and notice.display
            assert notice.region.right <= 80 and notice.region.height == 1 and notice.region.bottom <= 22
            assert [n.message for n in app._notifications] == [] and "fetching" not in _text(app, "#status")
            assert _text(app, "#status") == app.session.hint()
            await slowly(app, pilot, [*"tears", *"00000", "enter"])
            assert len(app.session.game.rows) == 1 and _text(app, "#notice") == line

    run(go())
    # the official lists (here a list given in files) have no such line
    app = app_for()

    async def official():
        async with running(app):
            assert not app.query_one("#notice").display

    run(official())


def test_a_terminal_that_hung_up_is_told_from_a_live_one(monkeypatch):
    """The TUI quits when its terminal has gone (see WordlebotApp._leave_if_terminal_gone): a
    pseudo-terminal is alive until its other end closes; a pipe is no terminal at all."""
    import os
    import sys

    from wordlebot.tui import app as tui_app

    class Stdin:
        def __init__(self, fd):
            self.fd = fd

        def fileno(self):
            return self.fd

    master, slave = os.openpty()
    try:
        monkeypatch.setattr(sys, "__stdin__", Stdin(slave))
        assert tui_app._tty_alive()
        os.close(master)
        assert not tui_app._tty_alive()
    finally:
        os.close(slave)
    r, w = os.pipe()
    try:
        monkeypatch.setattr(sys, "__stdin__", Stdin(r))
        assert not tui_app._tty_alive()
    finally:
        os.close(r)
        os.close(w)


def test_suggestion_columns_are_as_wide_as_their_widest_text():
    """Every cell shows in full (a cold start once kept the headers' widths: ≈3.367 showed as
    ≈3.), and after another row the widths follow the new texts."""

    async def go():
        app = app_for()
        async with running(app) as pilot:
            table = app.query_one("#suggestions", DataTable)

            def check():
                assert table.row_count > 0
                for j, col in enumerate(table.ordered_columns):
                    cells = [str(table.get_row_at(i)[j]) for i in range(table.row_count)]
                    assert col.width == max(len(str(col.label)), *map(len, cells)), str(col.label)
                    assert not col.auto_width

            check()
            first = str(table.get_row_at(0)[0]).lower()
            await slowly(app, pilot, [*first, "enter"])
            check()

    run(go())


# --- multi-board ---------------------------------------------------------------------------------


async def settle_multi(app, pilot):
    """Until the suggestion search is done and shown."""
    for _ in range(50):
        await pilot.pause()
        await workers_done(app)
        await pilot.pause()
        if not any(w.is_running for w in app.workers):
            return


def test_a_whole_quordle_played_in_the_multi_board_ui():
    """As a person would: Tab puts the top suggestion in the line, the colours of the open boards
    are typed after it, Enter plays it; a bad line is refused with the reason; the boards fill
    in and the game ends solved, with its score."""
    from textual.widgets import Input

    from wordlebot.tui.multi import MultiBoardApp

    lex = lexicon()
    answers = [ANSWERS[i] for i in (1, 6, 11, 20)]

    async def go():
        app = MultiBoardApp(lex, 4)
        async with app.run_test(size=SIZE) as pilot:
            await settle_multi(app, pilot)
            line = app.query_one(Input)
            await pilot.press("tab")
            word = line.value.strip()
            assert word == app.rows[0].word
            line.value = f"{word} 22221"  # one row of colours for four open boards
            await pilot.press("enter")
            assert "1 colour row" in _text(app, "#status") and app.game.guesses_used == 0
            for _ in range(app.game.max_guesses):
                if app.game.over:
                    break
                await settle_multi(app, pilot)
                await pilot.press("tab")
                word = line.value.strip()
                line.value = word + " " + " ".join(digits(word, answers[b]) for b in app.game.active)
                await pilot.press("enter")
            await settle_multi(app, pilot)
            assert app.game.solved, [str(r) for r in app.game.rows]
            assert f"score {app.game.score():g}" in _text(app, "#suggestions")
            for b in range(4):
                assert _text(app, f"#title-{b}").startswith(f"{b + 1}: in ")
            await pilot.press("ctrl+z")  # undo the last guess: that board open again
            await settle_multi(app, pilot)
            assert not app.game.solved and "left" in " ".join(_text(app, f"#title-{b}") for b in range(4))

    run(go())


def test_the_multi_board_status_says_each_row_in_words():
    """Issue 39: the status showed the raw row, "jawed:-/-/-/22222".  It now says which boards the
    word solved and how many are left (the boards show the colours)."""
    from textual.widgets import Input

    from wordlebot.tui.multi import MultiBoardApp

    answers = [ANSWERS[i] for i in (2, 9, 14, 27)]
    other = next(w for w in WORDS if w not in answers)

    async def go():
        app = MultiBoardApp(lexicon(), 4, answers=answers)
        async with app.run_test(size=SIZE) as pilot:
            await settle_multi(app, pilot)
            said = []
            for word in (other, answers[3], answers[0], answers[2], answers[1]):
                app.query_one(Input).value = word
                await pilot.press("enter")
                await settle_multi(app, pilot)
                said.append(_text(app, "#status"))
            assert said == [
                f"{other.upper()}: no board solved; 4 boards to go",
                f"{answers[3].upper()}: board 4 solved; 3 boards to go",
                f"{answers[0].upper()}: board 1 solved; 2 boards to go",
                f"{answers[2].upper()}: board 3 solved; 1 board to go",
                f"{answers[1].upper()}: board 2 solved; every board solved",
            ]
            await pilot.press("ctrl+z")
            assert _text(app, "#status") == f"took back {answers[1].upper()}"

    run(go())


def test_the_multi_board_ui_fits_80x24():
    """Boards, the line typed in and its status all on screen at 80x24; in hard mode too, where
    each suggestion's why (its deadlock share) wraps to two lines and five of them pushed the
    line off the bottom of the screen."""
    from wordlebot.tui.multi import MultiBoardApp

    for boards, hard in ((2, False), (4, False), (8, False), (2, True), (4, True), (8, True)):

        async def go():
            app = MultiBoardApp(lexicon(), boards, hard=hard)
            async with app.run_test(size=SIZE) as pilot:
                await settle_multi(app, pilot)
                for b in range(boards):
                    r = app.query_one(f"#board-{b}").region
                    assert r.right <= 80 and r.bottom <= 24 and r.width > 0, (boards, b, r)
                line = app.query_one("#line").region
                assert line.width > 40 and line.height >= 3 and line.bottom <= 23, (boards, hard, line)
                assert app.query_one("#status").region.bottom <= 23, (boards, hard)
                assert "1. " in str(app.query_one("#suggestions").render()), (boards, hard)

        run(go())


def test_a_quordle_played_against_hidden_words_in_the_multi_board_ui():
    """Play mode: the line is just the word (colours typed after it are refused), the game's own
    colours fill the boards, and a lost game shows the hidden words."""
    from textual.widgets import Input

    from wordlebot.multi import MultiGame
    from wordlebot.tui.multi import MultiBoardApp

    lex = lexicon()
    answers = [ANSWERS[i] for i in (2, 9, 14, 27)]

    async def go():
        app = MultiBoardApp(lex, 4, answers=answers)
        twin = MultiGame(lex, 4, answers=answers)  # the same moves on the library's own game
        async with app.run_test(size=SIZE) as pilot:
            await settle_multi(app, pilot)
            line = app.query_one(Input)
            line.value = f"{app.rows[0].word} 00000 00000 00000 00000"
            await pilot.press("enter")
            assert "type just the word" in _text(app, "#status") and app.game.guesses_used == 0
            while not app.game.over:
                await pilot.press("tab")
                assert line.value == app.rows[0].word
                twin.guess(line.value)
                await pilot.press("enter")
                await settle_multi(app, pilot)
            assert [str(r) for r in app.game.rows] == [str(r) for r in twin.rows]
            assert f"score {twin.score():g}" in _text(app, "#suggestions")
            await pilot.press("ctrl+n")  # the same hidden words again (they were given)
            await settle_multi(app, pilot)
            assert app.game.guesses_used == 0 and [g.answer for g in app.game.boards] == answers
        app = MultiBoardApp(lex, 2, answers=answers[:2])
        async with app.run_test(size=SIZE) as pilot:
            await settle_multi(app, pilot)
            for _ in range(app.game.max_guesses):  # never the answers: the game is lost
                word = next(
                    w
                    for w in lex.guesses
                    if w not in answers and lex.id(w) not in {lex.id(r.guess) for r in app.game.rows}
                )
                app.query_one(Input).value = word
                await pilot.press("enter")
            await settle_multi(app, pilot)
            text = _text(app, "#suggestions")
            assert "out of guesses" in text and f"1 {answers[0].upper()}, 2 {answers[1].upper()}" in text

    run(go())


def test_the_tui_command_plays_a_multi_board_game_or_says_what_is_wrong(tmp_path):
    from click.testing import CliRunner

    from wordlebot.cli import cli

    g = tmp_path / "g.txt"
    g.write_text("\n".join(lexicon().guesses) + "\n")
    r = CliRunner().invoke(cli, ["tui", "--guesses", str(g), "--boards", "4", "--play", "--answer", "a,b"])
    assert r.exit_code == 2 and "give 4 words separated by commas" in r.output
    w = ANSWERS[0]
    r = CliRunner().invoke(cli, ["tui", "--guesses", str(g), "--boards", "2", "--play", "--answer", f"{w},{w}"])
    assert r.exit_code != 0 and "distinct" in r.output and "Traceback" not in r.output


def test_the_candidates_fill_their_box_and_say_how_many_more():
    # 600 possible answers never fit: at 80x24 the words shown must leave the "… and N more"
    # line inside the box (60 words at 4 a line overflowed it, the line was cut off), and a
    # bigger terminal shows more of them.
    words = random_words(600, length=5, alphabet="abcdefghiorst", seed=5)
    shown = {}
    for size in [(80, 24), (120, 40)]:

        async def go():
            app = app_for(lex=Lexicon.from_lists(words, words, name="many"))
            async with running(app, size=size):
                box = app.query_one("#candidates")
                lines = _text(app, "#candidates").splitlines()
                assert 1 < len(lines) <= box.size.height
                listed = [w for line in lines[:-1] for w in line.split()]
                assert lines[-1] == f"… and {600 - len(listed):,} more"
                assert all(w.lower() in words for w in listed) and len(set(listed)) == len(listed)
                shown[size] = len(listed)

        run(go())
    assert shown[(120, 40)] > 2 * shown[(80, 24)]


# --- the day, the hints, a pasted share grid (issue 39) -----------------------------------------
# A made-up weighted set whose prior belongs to a day, and a history in which one of its answers
# was the answer of a past day: the replay rule and a share grid's day without the official data.

DAY_TODAY = clock.today()
PAST = DAY_TODAY - dt.timedelta(days=30)


def day_lexicon(day=DAY_TODAY):
    weights = [1.0 + (i % 5) for i in range(len(ANSWERS))]
    return Lexicon.from_lists(WORDS, ANSWERS, [w / sum(weights) for w in weights], name="daily", day=day)


def day_session(mode="assist", day=None, hints="auto", secret=None):
    from wordlebot.core.data import HistoryEntry
    from wordlebot.core.days import GameDay

    history = [HistoryEntry(PAST - dt.timedelta(days=1), ANSWERS[4]), HistoryEntry(PAST, ANSWERS[5])]
    gd = GameDay(day, "date", ANSWERS[5] if day == PAST else None) if day else GameDay(DAY_TODAY)
    lex = day_lexicon(day or DAY_TODAY)
    return Session(
        lex,
        Settings(words="daily", mode=mode, strategy="entropy", hints=hints),
        secret=secret,
        day=day,
        game_day=gd,
        history=history,
    )


def test_the_header_and_the_status_say_which_days_prior_is_used():
    async def go():
        app = WordlebotApp(day_session(), persist=False)
        async with running(app):
            puzzle = (DAY_TODAY - dt.date(2021, 6, 19)).days
            assert f"daily today {DAY_TODAY} #{puzzle:,}" in app.sub_title
            assert _text(app, "#status").startswith(
                f"today's prior, {DAY_TODAY} (#{puzzle:,}); replaying an earlier day? F2 sets the day"
            )
        app = WordlebotApp(day_session(day=PAST), persist=False)
        async with running(app):
            assert f"daily {PAST} #{(PAST - dt.date(2021, 6, 19)).days:,}" in app.sub_title
            assert "today" not in app.sub_title

    run(go())


def test_a_lost_game_whose_word_left_was_a_past_answer_says_how_to_replay_that_day():
    """The replay rule at the end of an assist game: the analysis names the day, and fits 80x24."""
    target = ANSWERS[5]  # the answer of PAST in the history; the game assumes today

    async def go():
        app = WordlebotApp(day_session(), persist=False)
        async with running(app) as pilot:
            game = Game(app.session.lexicon, answer=target)
            for w in (x for x in WORDS if x != target):
                if game.over or len(game.rows) == 5:
                    break
                trial = game.copy()
                trial.guess(w)
                if target in trial.candidate_words and len(trial.candidate_words) <= len(game.candidate_words):
                    game.guess(w)
            # the sixth row: a word that leaves the target possible, not the target
            last = next(w for w in WORDS if w != target and w not in [r.guess for r in game.rows])
            rows = list(game.rows) + [type(game.rows[0])(last, feedback_code(last, target))]
            for r in rows:
                await pilot.press(*r.guess, *r.feedback_digits(), "enter")
                await settle(app, pilot)
            assert app.session.game.over and not app.session.game.solved
            assert isinstance(app.screen, AnalysisScreen)
            note = _text(app.screen, "#day-note")
            puzzle = (PAST - dt.date(2021, 6, 19)).days
            assert f"was the answer of {PAST} (#{puzzle:,}), not of the day assumed" in note
            assert f"F2: day {PAST}" in note
            box = app.screen.query_one("#analysis")
            assert box.region.bottom <= 24
            for b in app.screen.query(Button):
                assert b.region.bottom <= 23 and b.region.width > 0

    run(go())


def test_the_analysis_buttons_stay_on_screen_under_a_long_note(monkeypatch):
    """At 80x24 a long day note (the replay rule wraps to three or four lines on the real lists)
    must not push the buttons off the dialog: they are docked at its bottom."""
    monkeypatch.setattr(Session, "day_note", lambda self: "a note long enough to wrap " * 10)

    async def go():
        target = ANSWERS[2]
        app = app_for(mode="play", secret=target)
        async with running(app) as pilot:
            for w in [x for x in WORDS if x != target][:5] + [target]:
                await pilot.press(*w, "enter")
                await settle(app, pilot)
            assert isinstance(app.screen, AnalysisScreen)
            for b in app.screen.query(Button):
                assert 0 < b.region.bottom <= 23 and b.region.width > 0

    run(go())


def test_play_mode_hides_the_hints_until_asked_and_again_at_the_next_row():
    """Defect 7: play mode showed the suggestions and the words left (a spoiler).  By default
    (hints auto) play mode hides them; F3 shows them for the position; a new row hides them."""
    target = ANSWERS[3]

    async def go():
        app = app_for(mode="play", secret=target)
        async with running(app) as pilot:
            assert app.query_one(SuggestionTable).row_count == 0
            assert "hidden until asked" in _text(app, "#sugg-title") and _text(app, "#candidates") == ""
            assert "candidates hidden" in _text(app, "#cand-title")
            await pilot.press("tab")
            await settle(app, pilot)
            assert "the hints are hidden: F3 shows them" in _text(app, "#status") and app.session.letters == ""
            await pilot.press("f3")
            await settle(app, pilot)
            table = app.query_one(SuggestionTable)
            assert table.row_count > 0 and "Tab plays" in _text(app, "#sugg-title")
            assert "candidates left" in _text(app, "#cand-title") and _text(app, "#candidates") != ""
            first = next(w for w in WORDS if w != target)
            await pilot.press(*first, "enter")
            await settle(app, pilot)
            assert app.query_one(SuggestionTable).row_count == 0 and _text(app, "#candidates") == ""
        # assist mode: shown (the advice is the point); 'hidden' hides them there too
        app = app_for()
        async with running(app) as pilot:
            assert app.query_one(SuggestionTable).row_count > 0
        app = app_for(hints="hidden")
        async with running(app) as pilot:
            assert app.query_one(SuggestionTable).row_count == 0

    run(go())


def test_the_settings_dialog_sets_the_guess_space_and_the_hints_and_saves_them(tmp_path, monkeypatch):
    """'Possible answers only' is a visible setting, saved with the others; so are the hints."""
    from textual.widgets import Input

    monkeypatch.setenv("WORDLEBOT_CONFIG", str(tmp_path))

    async def go():
        app = WordlebotApp(Session(lexicon(), Settings(words="mini", strategy="entropy")), persist=True)
        async with running(app) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            screen = app.screen
            screen.query_one("#guess-space", Select).value = "candidates"
            screen.query_one("#hints", Select).value = "hidden"
            assert screen.query_one("#day", Input).region.width > 0
            await pilot.click("#apply")
            await settle(app, pilot)
            s = app.session
            assert s.settings.guess_space == "candidates" and s.advisor.guess_space == "candidates"
            assert "answers only" in app.sub_title
            await pilot.press("f3")
            await settle(app, pilot)
            cands = set(s.game.candidate_words)
            assert s.offered and all(r.word in cands for r in s.offered)  # every suggestion can win

    run(go())
    saved = Settings.read(tmp_path / "tui.json")[0]
    assert saved.guess_space == "candidates" and saved.hints == "hidden"


def test_the_settings_dialog_sets_the_day_and_refuses_one_not_published(tmp_path, monkeypatch):
    from textual.widgets import Input

    monkeypatch.setenv("WORDLEBOT_CONFIG", str(tmp_path))
    loaded = []

    async def go():
        app = WordlebotApp(day_session(), persist=True)

        def load_for(settings, game_day=None):  # the dialog's loader: the day asked for
            loaded.append(game_day.day if game_day else None)
            return app.session.plan(settings, lambda new: day_lexicon(game_day.day), game_day)

        app._plan = load_for
        async with running(app) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            future = DAY_TODAY + dt.timedelta(days=3)
            app.screen.query_one("#day", Input).value = future.isoformat()
            await pilot.click("#apply")
            await settle(app, pilot)
            assert "is not published yet" in _text(app.screen, "#settings-error")
            app.screen.query_one("#day", Input).value = str((PAST - dt.date(2021, 6, 19)).days)  # a puzzle number
            await pilot.click("#apply")
            await settle(app, pilot)
            s = app.session
            assert s.game_day.day == PAST and s.lexicon.day == PAST and s.day == PAST
            assert s.game_day.answer == ANSWERS[5] and f"daily {PAST}" in app.sub_title
            assert f"prior of {PAST}" in _text(app, "#status")

    run(go())
    assert loaded == [PAST]
    assert "day" not in (tmp_path / "tui.json").read_text()  # a replay is for this run, never saved


def _grid_text(rows, answer, puzzle):
    emoji = "⬛🟨🟩"
    lines = ["".join(emoji[int(d)] for d in digits(g, answer)) for g in rows]
    return f"Wordle {puzzle:,} {len(rows)}/6\n\n" + "\n".join(lines)


def test_a_pasted_share_grid_sets_the_day_and_shows_what_it_says():
    """The grid's number is a day: its prior is loaded, the header says it; the history knows
    that day's answer, so the grid alone is read (how many words fit each row, the bot's game);
    a board whose rows show the grid's colours gets the full analysis with that answer."""
    target = ANSWERS[5]  # the answer of PAST
    puzzle = (PAST - dt.date(2021, 6, 19)).days
    played = [w for w in WORDS if w != target][:2] + [target]

    async def go():
        app = WordlebotApp(day_session(), persist=False)
        app._plan = lambda settings, game_day=None: app.session.plan(
            settings, lambda new: day_lexicon(game_day.day), game_day
        )
        async with running(app) as pilot:
            app.post_message(events.Paste(_grid_text(played, target, puzzle)))
            await settle(app, pilot)
            await settle(app, pilot)
            s = app.session
            assert s.game_day.day == PAST and s.lexicon.day == PAST and s.game_day.source == "grid"
            assert f"daily {PAST}" in app.sub_title
            from wordlebot.tui.screens import GridScreen

            assert isinstance(app.screen, GridScreen)
            text = _text(app.screen, "#grid-text")
            assert f"Wordle #{puzzle:,} of {PAST}, solved in 3" in text and "the bot:" in text
            fit = sum(digits(w, target) == digits(played[0], target) for w in WORDS)
            assert "row 1: " in text and f"{fit:,} allowed word" in text
            await pilot.press("escape")
            for w in played:
                await pilot.press(*w, *digits(w, target), "enter")
                await settle(app, pilot)
            assert isinstance(app.screen, AnalysisScreen)
            await pilot.press("escape")
            app.post_message(events.Paste(_grid_text(played, target, puzzle)))
            await settle(app, pilot)
            await settle(app, pilot)
            assert isinstance(app.screen, AnalysisScreen) and app.screen.answer == target
            assert app.screen.query_one("#rows").row_count == 3
        # a grid of a day not published yet: refused with the reason, nothing changes
        app = WordlebotApp(day_session(), persist=False)
        async with running(app) as pilot:
            far = (DAY_TODAY + dt.timedelta(days=9) - dt.date(2021, 6, 19)).days
            app.post_message(events.Paste(_grid_text(played, target, far)))
            await settle(app, pilot)
            assert "not published yet" in _text(app, "#status") and app.session.game_day.day == DAY_TODAY

    run(go())


def test_the_multi_board_ui_says_the_day_of_its_prior():
    from wordlebot.tui.multi import MultiBoardApp

    async def go():
        app = MultiBoardApp(day_lexicon(PAST), 2)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert f"daily {PAST} #{(PAST - dt.date(2021, 6, 19)).days:,} ·" in app.sub_title
        app = MultiBoardApp(lexicon(), 2)  # a prior of no day: no day said
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.sub_title.startswith("mini · ")

    run(go())
