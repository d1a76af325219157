"""The Textual UI, driven headless with Pilot, and snapshots of its main screens."""

import asyncio
import datetime as dt
from contextlib import asynccontextmanager

from conftest import random_words
from naive import feedback_code
from wordlebot.feedback import pattern_to_colours
from wordlebot.session import Session, Settings
from wordlebot.tui import WordlebotApp
from wordlebot.tui.screens import AnalysisScreen, SettingsScreen
from wordlebot.words import Lexicon

WORDS = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = WORDS[::3]


def lexicon():
    return Lexicon.from_lists(WORDS, ANSWERS, name="mini")


def app_for(mode="assist", secret=None, strategy="search"):
    s = Session(lexicon(), Settings(words="mini", mode=mode, strategy=strategy), secret=secret)
    return WordlebotApp(s, persist=False)


async def settle(app, pilot):
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


@asynccontextmanager
async def running(app):
    """The app headless at 80x24, its first suggestions shown."""
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        yield pilot


async def set_colours(app, pilot, target):
    """Cycle each tile of the typed row to the colour the game would show for ``target``."""
    s = app.session
    for i, c in enumerate(pattern_to_colours(feedback_code(s.letters, target), 5)):
        app.cursor = i
        for _ in range(c):
            await pilot.press("space")


def run(coro):
    return asyncio.run(coro)


def test_typing_backspace_and_colour_cycling():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("c", "r", "a", "n", "e", "s")  # the sixth letter is ignored
            assert app.session.letters == "crane"
            await pilot.press("backspace")
            assert app.session.letters == "cran"
            app.cursor = 1
            await pilot.press("space")
            await pilot.press("space")
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
                await set_colours(app, pilot, target)
                await pilot.press("enter")
            await settle(app, pilot)
            assert app.session.game.solved and app.session.game.rows[-1].guess == target
            assert isinstance(app.screen, AnalysisScreen)
            await settle(app, pilot)
            summary = str(app.screen.query_one("#summary").render())
            assert summary.startswith("Skill 99")  # it followed the bot's own choices

    run(go())


def test_undo_and_correcting_an_earlier_row():
    async def go():
        app = app_for()
        target = ANSWERS[7]
        async with running(app) as pilot:
            await pilot.press("tab")
            await set_colours(app, pilot, target)
            await pilot.press("enter")
            await settle(app, pilot)
            assert len(app.session.game.rows) == 1
            await pilot.press("ctrl+z")
            await settle(app, pilot)
            assert app.session.game.rows == []
            await pilot.press("tab")
            word = app.session.letters
            await set_colours(app, pilot, target)
            await pilot.press("enter")
            await settle(app, pilot)
            original = app.session.game.rows[0].pattern
            # a click on a played tile cycles its colour: accepted if some word still fits, else
            # refused with the reason and nothing changed; three clicks come back to the start
            for _ in range(3):
                await pilot.click("Tile", offset=(1, 0))
                await settle(app, pilot)
                p = app.session.game.rows[0].pattern
                status = str(app.query_one("#status").render())
                assert p != original and "corrected" in status or p == original and ("no" in status or "corrected" in status)
            assert app.session.game.rows[0].pattern == original and app.session.game.rows[0].guess == word
            assert target in app.session.game.candidate_words

    run(go())


def test_impossible_colours_are_refused_with_the_reason():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("tab")
            for i in range(4):  # four greens and a yellow cannot happen
                app.cursor = i
                await pilot.press("space", "space")
            app.cursor = 4
            await pilot.press("space")
            await pilot.press("enter")
            await settle(app, pilot)
            status = str(app.query_one("#status").render())
            assert "leaves no possible word" in status
            assert app.session.game.rows == [] and len(app.session.letters) == 5  # nothing lost

    run(go())


def test_unknown_word_is_refused():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press(*"zzzzz", "enter")
            assert "not in the mini guess list" in str(app.query_one("#status").render())
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


def test_settings_dialog_changes_the_rules():
    async def go():
        app = app_for()
        async with running(app) as pilot:
            await pilot.press("f2")
            assert isinstance(app.screen, SettingsScreen)
            app.screen.query_one("#hard").value = True
            app.screen.query_one("#strategy").value = "entropy"
            await pilot.click("#apply")
            await settle(app, pilot)
            assert app.session.settings.hard and app.session.game.hard
            assert app.session.settings.strategy == "entropy"
            assert "hard" in app.sub_title

    run(go())


def test_settings_are_remembered(tmp_path):
    s = Settings(words="classic", strategy="entropy", hard=True, max_guesses=5, mode="play")
    s.save()
    assert Settings.load() == s
    Settings.path().write_text("{not json")
    assert Settings.load() == Settings()  # a damaged file falls back to the defaults


# --- snapshots --------------------------------------------------------------------------------


def _settled(press=()):
    async def before(pilot):
        await settle(pilot.app, pilot)
        for key in press:
            await pilot.press(key)
        await settle(pilot.app, pilot)

    return before


def test_snapshot_main_screen(snap_compare):
    assert snap_compare(app_for(), run_before=_settled(("tab",)), terminal_size=(80, 24))


def test_snapshot_analysis_screen(snap_compare):
    target = ANSWERS[2]
    assert snap_compare(app_for(mode="play", secret=target),
                        run_before=_settled((*WORDS[0], "enter", *target, "enter")), terminal_size=(80, 24))


def test_snapshot_settings_screen(snap_compare):
    assert snap_compare(app_for(), run_before=_settled(("f2",)), terminal_size=(80, 24))


# --- play mode: an answer outside the answer list -----------------------------------------------
# Hand-made lists: GUANO is a guess but not an answer.  SLATE/GUANO 00200 leaves only the answer
# PIANO; PIANO/GUANO 00222 leaves none (PIANO/PIANO is 22222).


def _text(app, selector):
    return str(app.query_one(selector).render())


async def _type_row(app, pilot, word):
    await pilot.press(*word, "enter")
    await settle(app, pilot)


def test_play_mode_is_winnable_when_the_answer_is_not_in_the_answer_list():
    async def go():
        lex = Lexicon.from_lists(["crane", "guano", "organ", "piano", "slate"], ["piano", "organ", "crane"],
                                 name="hand")
        app = WordlebotApp(Session(lex, Settings(words="hand", mode="play"), secret="guano"), persist=False)
        async with running(app) as pilot:
            await _type_row(app, pilot, "slate")
            assert _text(app, "#cand-title") == "1 candidate left" and "PIANO" in _text(app, "#candidates")
            await _type_row(app, pilot, "piano")
            game = app.session.game
            assert [r.feedback_digits() for r in game.rows] == ["00200", "00222"] and not game.over
            note = "the answer is not in the hand answer list"
            assert _text(app, "#cand-title") == note and _text(app, "#candidates") == ""
            assert _text(app, "#sugg-title") == f"no suggestions: {note}" and app.current == []
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
    from wordlebot.advisor import Advisor
    from wordlebot.interactive import pick_answer

    async def go():
        secret, puzzle = pick_answer(classic, day=dt.date(2023, 3, 27), data_dir=official)
        assert (secret, puzzle) == ("guano", 646)
        advisor = Advisor(classic, strategy="entropy", matrix=classic_matrix, use_book=False)
        session = Session(classic, Settings(words="classic", mode="play", strategy="entropy"), secret=secret,
                          puzzle=puzzle, advisor=advisor)
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
    import wordlebot.session as session_mod

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
            await pilot.press("f2")
            app.screen.query_one("#words").value = "classic"
            await pilot.click("#apply")
            await settle(app, pilot)
            assert app.session.lexicon.name == "classic" and app.session.day == day

    run(go())
    assert asked == [day]
