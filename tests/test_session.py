"""The session behind the terminal UI, without a screen: keys, pastes, held keys, corrections,
settings (the file and a change mid-game), and the explanations it shows.  Expectations are
hand-checked or computed with tests/naive.py."""

import json
import os

import numpy as np
import pytest
from naive import digits, feedback_code, partition

from wordlebot.app.session import Session, Settings
from wordlebot.core import clipboard
from wordlebot.core.errors import HardModeError, InvalidWordError
from wordlebot.core.game import Game
from wordlebot.core.words import Lexicon
from wordlebot.policy import explain
from wordlebot.policy.explain import candidates_line

HAND = ["crane", "stare", "moist", "pious", "shore", "slate", "store", "spare"]


def hand(answers=("stare", "store", "shore", "spare")):
    return Lexicon.from_lists(HAND, list(answers), name="hand")


def session(mode="assist", **kw):
    return Session(
        hand(), Settings(words="hand", mode=mode, strategy="entropy", **kw), secret="stare" if mode == "play" else None
    )


def press(s, *keys):
    return [s.press(k) for k in keys]


# --- keys ------------------------------------------------------------------------------------


@pytest.mark.parametrize("colours", ["01202", "bygbg", "BYGXG", ".yg-g", "b12.g", "⬛🟨🟩⬛🟩", "⬜🟦🟧⬜🟧"])
def test_colours_in_any_form_after_the_word(colours):
    s = session()
    press(s, *"crane", *colours)
    assert s.colours == [0, 1, 2, 0, 2]
    out = s.press("enter")
    assert not out.error and out.played and [str(r) for r in s.game.rows] == ["crane:01202"]


def test_colour_keys_need_the_whole_word_and_stop_at_its_end():
    s = session()
    out = press(s, *"cra", "1")
    assert out[-1].error and "type the whole word first" in out[-1].message and s.colours == [0, 0, 0]
    press(s, "n", "e", *"01202")
    out = s.press("2")
    assert out.error and "colours are set" in out.message and s.colours == [0, 1, 2, 0, 2]
    out = s.press("x")  # b/x/y/g are colours once the row is full; other letters are refused
    assert out.error
    out = s.press("q")
    assert out.error and "has its 5 letters" in out.message
    out = s.press("7")
    assert out.error and "0 gray, 1 yellow, 2 green" in out.message


def test_backspace_clears_colours_before_letters():
    s = session()
    press(s, *"crane", "2", "1", "backspace")
    assert s.letters == "crane" and s.colours == [2, 0, 0, 0, 0] and s.pos == 1
    press(s, "backspace", "backspace")
    assert s.letters == "cran" and s.colours == [0, 0, 0, 0]


def test_cursor_moves_and_space_cycles_the_tile_under_it():
    s = session()
    press(s, *"crane", "right", "right", "space", "left", "space", "space")
    assert s.colours == [0, 2, 1, 0, 0]
    press(s, "left", "left")  # wraps from the 1st tile to the last
    assert s.pos == 4


def test_play_mode_refuses_colours_and_colours_itself():
    s = session(mode="play")
    assert "game colours the tiles" in press(s, *"crane", "1")[-1].message
    out = s.press("enter")
    assert out.played and [r.pattern for r in s.game.rows] == [feedback_code("crane", "stare")]


def test_paste_plays_rows_in_order():
    s = session()
    outs = s.paste("crane 01202\r\nmoist:00011,\n")
    assert [str(r) for r in s.game.rows] == ["crane:01202", "moist:00011"]
    assert sum(o.played for o in outs) == 2 and not any(o.error for o in outs)


def test_tab_waits_for_the_suggestions_of_its_position():
    s = session(mode="play", hints="shown")
    s.offer(s.advisor.suggest(s.game, 8), s.version)  # the first position's suggestions
    press(s, *"crane", "enter")
    v = s.version
    held = press(s, "tab", "enter")
    assert all(o.held for o in held) and s.held == ["tab", "enter"] and s.letters == ""
    rows = s.advisor.suggest(s.game, 8)  # what the search finds for the new position
    assert s.offer(rows, v - 1) == []  # stale: ignored, the keys still wait
    outs = s.offer(rows, v)
    assert s.held == [] and len(outs) == 2 and outs[1].played
    assert [r.guess for r in s.game.rows] == ["crane", rows[0].word]  # the suggestion for this position
    assert s.game.rows[1].pattern == feedback_code(rows[0].word, "stare")


def test_a_held_enter_that_plays_a_row_makes_the_next_tab_wait_again():
    s = session()
    s.offer(s.advisor.suggest(s.game, 8), s.version)
    press(s, *"crane01202")
    v = s.version
    press(s, "enter")  # played: a new search is due
    press(s, "tab", "tab")
    assert s.held == ["tab", "tab"]
    s.offer(s.advisor.suggest(s.game, 8), s.version)
    assert s.held == [] and s.version == v + 1
    assert s.press("escape").message == ""  # nothing held: Esc does nothing


def test_escape_drops_held_keys():
    s = session()
    press(s, *"crane01202", "enter", "tab", "a")
    out = s.press("escape")
    assert s.held == [] and "dropped 2 keys" in out.message


def test_correcting_an_earlier_row_by_keys():
    s = session()
    press(s, *"crane01202", "enter", *"moist00011", "enter")
    out = press(s, "up", "up")[-1]
    assert s.editing == 0 and "correcting row 1 (CRANE)" in out.message
    # 01200 would leave no word that also fits MOIST 00011: refused, still editing
    press(s, *"01200")
    out = s.press("enter")
    assert out.error and s.editing == 0 and [str(r) for r in s.game.rows] == ["crane:01202", "moist:00011"]
    press(s, "backspace", "backspace", "0", "2")
    assert s.edit_colours == [0, 1, 2, 0, 2]
    assert s.press("enter").message == "row 1 unchanged" and s.editing is None
    press(s, "up", "down")
    assert s.editing is None  # down from the last row: back to the new row
    assert "keeps its word" in press(s, "up", "q")[-1].message
    assert "cancelled" in s.press("escape").message


def test_undo_and_new_game_keys():
    s = session()
    press(s, *"crane01202", "enter", *"mo")
    assert s.press("ctrl+z").message == "row cleared" and s.letters == ""
    out = s.press("ctrl+z")
    assert out.played and out.message == "took back CRANE" and s.game.rows == []
    assert s.press("ctrl+z").error
    press(s, *"crane01202", "enter")
    out = s.press("ctrl+n")
    assert out.played and s.game.rows == []


def test_board_and_keyboard():
    s = session()
    press(s, *"crane01202", "enter", *"moi", "space")
    rows = s.board()
    assert len(rows) == 6 and [r.kind for r in rows] == ["played", "typing", "empty", "empty", "empty", "empty"]
    assert [c.state for c in rows[0].cells] == ["gray", "yellow", "green", "gray", "green"]
    assert [(c.letter, c.state, c.cursor) for c in rows[1].cells] == [
        ("m", "gray", False),
        ("o", "gray", False),
        ("i", "yellow", True),
        ("", "current", False),
        ("", "empty", False),
    ]
    # SPEED/ERASE 10110 (the NYT rule): E gray and yellow in one row is yellow on the keyboard
    lex = Lexicon.from_lists(["speed", "erase", "abide"], ["erase", "abide"], name="e")
    s2 = Session(lex, Settings(words="e", strategy="entropy"))
    press(s2, *"speed", *digits("speed", "erase"), "enter")
    assert s2.keyboard() == {"s": 1, "p": 0, "e": 1, "d": 0}


def test_click_on_tiles():
    s = session()
    press(s, *"crane01202", "enter", *"moist")
    assert not s.click(1, 3).error and s.colours == [0, 0, 0, 1, 0] and s.pos == 3
    out = s.click(0, 0)  # CRANE 11202: no answer has C and A both... refused with the reason
    assert out.error and [str(r) for r in s.game.rows] == ["crane:01202"]


def test_colours_that_stop_short_are_refused_not_padded_with_gray():
    """Issue 39: 'raver' '0202' Enter played 02020.  Typed colours must cover the row; the message
    says which tile is missing, and nothing is lost (hand-checked: CRANE/STARE is 01202)."""
    s = session()
    out = press(s, *"crane", *"0120", "enter")[-1]
    assert out.error and not out.played and s.game.rows == []
    assert (
        out.message
        == "CRANE has 4 of its 5 colours: type the colour of tile 5 too (0 gray, 1 yellow, 2 green), then Enter"
    )
    assert [c.state for c in s.board()[0].cells] == ["gray", "yellow", "green", "gray", "typed"]  # the 5th: none
    out = press(s, "2", "enter")[-1]
    assert out.played and [str(r) for r in s.game.rows] == ["crane:01202"]
    out = press(s, *"moist", "enter")[-1]
    assert (
        out.message
        == ("MOIST has no colours yet: type them, 0 gray, 1 yellow, 2 green (00000 when all are gray), then Enter")
        and len(s.game.rows) == 1
    )
    press(s, *"001", "backspace", "backspace")  # Backspace takes a colour back: tiles 2 and 3 have none again
    assert s.press("enter").message.startswith("MOIST has 1 of its 5 colours: type the colour of tiles 2, 3, 4, 5 too")
    s.undo()  # clears the row being typed
    outs = s.paste("moist 0001\n")
    assert outs[-1].error and "tile 5" in outs[-1].message and len(s.game.rows) == 1


def test_a_row_coloured_with_clicks_has_its_other_tiles_gray():
    """With the mouse (or Space) a player colours only the tiles that are not gray: those left
    alone are gray, as the board shows them."""
    s = session()
    press(s, *"crane")
    assert [c.state for c in s.board()[0].cells] == ["typed"] * 5
    for col, clicks in ((1, 1), (2, 2), (4, 2)):
        for _ in range(clicks):
            assert not s.click(0, col).error
    assert [c.state for c in s.board()[0].cells] == ["gray", "yellow", "green", "gray", "green"]
    assert s.press("enter").played and [str(r) for r in s.game.rows] == ["crane:01202"]


def test_a_word_hard_mode_forbids_is_refused_once_typed():
    """Issue 39: the hard-mode violation was said only after the colours.  The last letter of a
    word the game cannot take (hard mode, not in the list) says why at once; the word stays."""
    s = session(hard=True)
    press(s, *"crane01202", "enter")
    outs = press(s, *"moist")
    assert not any(o.error for o in outs[:-1])
    assert outs[-1].error and outs[-1].message == "MOIST is not allowed: hard mode: the 3rd letter must be A"
    assert s.letters == "moist"
    press(s, *["backspace"] * 5)
    outs = press(s, *"stare")  # keeps R, the A 3rd and the E 5th
    assert not any(o.error for o in outs)
    t = session()  # a word not in the list, in normal mode too
    outs = press(t, *"cranx")
    assert outs[-1].error and outs[-1].message.startswith("'cranx' is not in the hand guess list (8 words)")


# --- settings: the file ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content,fragment,kept",
    [
        ('{"strategy": "nope", "hard": true}', 'strategy "nope" is not one of search', {"hard": True}),
        ('{"length": "abc", "max_guesses": 5}', 'length "abc" is not a whole number 4-11', {"max_guesses": 5}),
        ("[1, 2]", "it holds list, not an object of settings", {}),
        ('{"hard": "no", "mode": "play"}', 'hard "no" is not true or false', {"mode": "play"}),
        ('{"max_guesses": 0}', "max_guesses 0 is out of range 2-10", {}),
        ('{"max_guesses": 100}', "max_guesses 100 is out of range 2-10", {}),
        ('{"max_guesses": true}', "max_guesses true is not a whole number 2-10", {}),
        ('{"words": "bogus"}', 'words "bogus" is not one of classic', {}),
        ("{not json", "it is not valid JSON", {}),
        ("null", "it holds null", {}),
    ],
)
def test_a_bad_settings_file_is_reported_kept_aside_and_cleaned(tmp_path, content, fragment, kept):
    path = tmp_path / "tui.json"
    path.write_text(content)
    s, notes = Settings.read(path)
    expected = Settings(**kept)
    assert s == expected
    assert len(notes) == 1 and fragment in notes[0] and "kept as" in notes[0]
    assert (tmp_path / "tui.json.bad").read_text() == content  # the file, untouched, aside
    assert json.loads(path.read_text()) == json.loads(json.dumps(expected.__dict__))  # usable values back
    assert Settings.read(path) == (expected, [])  # and the next start is quiet


def test_a_settings_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "tui.json"
    path.write_bytes(b'{"hard": \xff}')
    s, notes = Settings.read(path)
    assert s == Settings() and "not valid JSON" in notes[0]


def test_missing_settings_file_means_defaults_quietly(tmp_path):
    assert Settings.read(tmp_path / "none.json") == (Settings(), [])


def test_unknown_keys_are_ignored(tmp_path):
    path = tmp_path / "tui.json"
    path.write_text('{"theme": "dark", "hard": true}')
    assert Settings.read(path) == (Settings(hard=True), [])


def test_remember_saves_only_what_the_dialog_changed(tmp_path):
    path = tmp_path / "tui.json"
    Settings(words="classic", strategy="entropy").save(path)
    saved = Settings.read(path)[0]
    run = saved.changed(mode="play", hard=True, words=None)  # this run's flags: --play --hard
    assert run == Settings(words="classic", strategy="entropy", mode="play", hard=True)
    after = Settings(**{**run.__dict__, "strategy": "minimax"})  # the user changes the strategy
    assert Settings.remember(run, after, path) is None
    assert Settings.read(path)[0] == Settings(words="classic", strategy="minimax")  # no play, no hard


def test_settings_save_failure_is_a_note(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    note = Settings().save(blocker / "tui.json")  # a folder that is a file
    assert note and note.startswith("the settings were not saved")


# --- settings: a change mid-game -------------------------------------------------------------


def test_plan_keeps_the_rows_when_they_fit():
    s = session()
    press(s, *"crane01202", "enter")
    plan = s.plan(Settings(words="hand", strategy="minimax", hard=True, max_guesses=4))
    assert plan.reason is None and not plan.loses_rows
    assert [str(r) for r in plan.game.rows] == ["crane:01202"] and plan.game.hard and plan.game.max_guesses == 4
    assert plan.advisor is not s.advisor and plan.advisor.matrix is s.advisor.matrix
    s.adopt(plan)
    assert s.game is plan.game and s.settings.strategy == "minimax"


def test_plan_names_the_row_that_breaks_hard_mode():
    s = session()
    press(s, *"crane01202", "enter", *"moist00011", "enter")
    plan = s.plan(Settings(words="hand", strategy="entropy", hard=True))
    assert plan.loses_rows and plan.reason == (
        "the rows played do not fit: row 2: MOIST is not allowed: hard mode: the 3rd letter must be A"
    )
    assert not s.game.hard and len(s.game.rows) == 2  # nothing changed until adopted
    s.adopt(plan)
    assert s.game.rows == [] and s.game.hard


def test_plan_refuses_a_cap_that_would_end_the_game():
    s = session()
    press(s, *"crane01202", "enter", *"moist00011", "enter")
    plan = s.plan(Settings(words="hand", strategy="entropy", max_guesses=2))
    assert (
        plan.loses_rows
        and plan.reason == "a cap of 2 guesses would end the game now, with 2 rows played and not solved"
    )
    assert not s.plan(Settings(words="hand", strategy="entropy", max_guesses=3)).loses_rows


def test_plan_assist_to_play_needs_a_new_game_and_play_to_assist_keeps_the_rows():
    s = session()
    press(s, *"crane01202", "enter")
    plan = s.plan(Settings(words="hand", strategy="entropy", mode="play"))
    assert plan.loses_rows and "play mode hides a new word" in plan.reason
    p = session(mode="play")
    press(p, *"crane", "enter")
    plan = p.plan(Settings(words="hand", strategy="entropy", mode="assist"))
    assert plan.reason is None and [str(r) for r in plan.game.rows] == ["crane:01202"] and plan.game.answer is None
    p.adopt(plan)
    assert p.secret is None and p.mode == "assist"


def test_plan_with_other_lists_replays_the_rows():
    s = session()
    press(s, *"crane01202", "enter")
    other = Lexicon.from_lists(HAND, ["spare", "stare"], name="other")
    plan = s.plan(Settings(words="other", guesses_file="g.txt", strategy="entropy"), load=lambda _: other)
    assert plan.reason is None and sorted(plan.game.candidate_words) == ["spare", "stare"]
    missing = Lexicon.from_lists(["stare", "spare", "moist"], ["stare"], name="small")
    plan = s.plan(Settings(words="small", guesses_file="x.txt", strategy="entropy"), load=lambda _: missing)
    assert plan.loses_rows and "row 1" in plan.reason and "not in the small guess list" in plan.reason


def test_game_replay_keeps_refusals_in_order_and_checks_the_cap():
    lex = hand()
    g = Game(lex)
    g.guess("crane", "01202")
    g.refuse("store")
    g.guess("moist", "00011")
    r = g.replay(max_guesses=2)
    assert [str(x) for x in r.rows] == ["crane:01202", "moist:00011"] and r.refused == g.refused
    assert r.undo().guess == "moist" and r.undo().word == "store"
    with pytest.raises(InvalidWordError, match="the game has 2 rows, more than a cap of 1 guess$"):
        g.replay(max_guesses=1)
    with pytest.raises(HardModeError, match="^row 2: MOIST is not allowed"):
        g.replay(hard=True)


# --- what the panels say -----------------------------------------------------------------------


def test_candidates_line_says_how_many_are_likely():
    # four candidates, one with nearly all the weight: about 1 likely; the perplexity by hand
    w = np.array([0.97, 0.01, 0.01, 0.01])
    lex = Lexicon.from_lists(HAND, ["stare", "store", "shore", "spare"], w, name="w")
    g = Game(lex)
    ppl = 2 ** -(w * np.log2(w)).sum()
    assert candidates_line(g) == f"4 candidates left · {explain.about(ppl)} likely"
    assert explain.about(ppl) == "about 1"
    assert candidates_line(Game(hand())) == "4 candidates left"  # unweighted: the count says it all


def test_tie_ranks_against_a_sort_by_hand():
    p = np.array([0.2, 0.1, 0.2, 0.05, 0.2, 0.1, 0.15])
    first, last = explain.tie_ranks(p)
    # sorted: .2 .2 .2 | .15 | .1 .1 | .05  -> ranks 1-3, 4, 5-6, 7
    assert first.tolist() == [1, 5, 1, 7, 1, 5, 4] and last.tolist() == [3, 6, 3, 7, 3, 6, 4]
    assert explain.rank_text(1, 859, 14855) == "rank ≈430 of 14,855: 859 words tie at ranks 1-859"
    assert explain.rank_text(4, 4, 7) == "rank 4 of 7"


TRAP = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]


def test_hard_mode_trap_is_named():
    lex = Lexicon.from_lists(TRAP + ["crane"], TRAP, name="trap")
    g = Game(lex, hard=True)
    g.guess("latch", digits("latch", "watch"))  # 02222: six words fit, five guesses left
    assert explain.hard_mode_trap(g) == (
        "hard-mode trap: _ATCH: 6 words fit and 5 guesses remain, and each guess can rule out only one"
    )
    g.set_hard(False)
    assert explain.hard_mode_trap(g) is None  # normal mode: CRANE-like guesses split them
    g2 = Game(lex, hard=True, max_guesses=8)
    g2.guess("latch", "02222")
    assert explain.hard_mode_trap(g2) is None  # six words, seven guesses: no trap


def test_verdict_on_a_wasted_guess_names_a_candidate_that_splits_as_well():
    lex = Lexicon.from_lists(TRAP + ["crane", "chomp"], TRAP, name="trap")
    g = Game(lex)
    g.guess("latch", digits("latch", "watch"))
    cands = g.candidate_words
    groups = len(partition("crane", cands))
    better = [
        w
        for w in cands
        if len(partition(w, cands)) >= groups
        and max(map(len, partition(w, cands).values())) <= max(map(len, partition("crane", cands).values()))
    ]
    text = explain.verdict(g, "crane", "chomp", 0.5)
    bot = partition("chomp", cands)
    assert text == (
        f"a wasted guess: it could not be the answer and split the {len(cands)} candidates no better "
        f"than {better[0].upper()}, which could have won; the bot's CHOMP was 0.50 guesses better on "
        f"average: CHOMP makes {len(bot)} groups (the largest {max(map(len, bot.values()))})."
    )
    assert explain.verdict(g, "chomp", "chomp", 0.0).startswith("the bot's choice: it could not be the answer")


def test_review_rows_list_the_words_still_possible():
    from wordlebot.policy.advisor import Advisor
    from wordlebot.policy.analysis import analyze_game

    lex = Lexicon.from_lists(TRAP + ["crane"], TRAP, name="trap")
    adv = Advisor(lex, strategy="entropy")
    g = Game(lex, answer="watch", matrix=adv.matrix)
    g.guess("crane")
    g.guess("watch")
    report = analyze_game(adv, g.rows, answer="watch")
    lines = explain.review_rows(adv, g, report)
    fit = [w for w in TRAP if feedback_code("crane", w) == feedback_code("crane", "watch")]
    assert lines[0].startswith("1. CRANE: ") and lines[0].endswith(
        f"Still possible ({len(fit)}): {', '.join(w.upper() for w in fit)}."
    )
    assert lines[1].startswith("2. WATCH: ")


# --- clipboard ---------------------------------------------------------------------------------


def test_clipboard_says_what_it_did(tmp_path, monkeypatch):
    got = tmp_path / "clip.txt"
    tool = tmp_path / "fakecopy"
    tool.write_text(f"#!/bin/sh\ncat > {got}\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    r = clipboard.copy("Wordle 3/6", "share grid", tools=(("fakecopy", (), None),))
    assert r.copied and got.read_text() == "Wordle 3/6" and "copied to the clipboard (fakecopy)" in r.message
    sent = []
    r = clipboard.copy("grid", "share grid", osc52=sent.append, tools=(("no-such-tool", (), None),))
    assert not r.copied and sent == ["grid"] and "not every terminal accepts it" in r.message
    assert "copied" not in r.message.split("(")[0]


def test_an_estimate_in_hard_mode_says_it_is_optimistic():
    """Past the look-ahead the estimate does not count hard mode's limits (item 13: on the
    weighted nyt set the first-row figures of both modes are the same estimate)."""
    from wordlebot.policy.strategies import Ranked
    from wordlebot.term.render import value_basis

    row = Ranked("sater", 0, 5.7, 366.4, 1022, 190, 0.0, True, True, 3.381, 1, "estimate")
    assert "ignores hard mode" not in value_basis(row)
    assert value_basis(row, hard=True).endswith("past it the estimate ignores hard mode's limits, so it is optimistic")
    exact = Ranked("salet", 0, 5.8, 71.3, 221, 148, 0.0, False, True, 3.5119, 0, "searched")
    assert "ignores" not in value_basis(exact, hard=True)
