"""Post-game analysis: share grids both ways, skill and luck ratings, the analyze command."""

import json

import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import digits, feedback_code

from wordlebot.cli import cli
from wordlebot.core.errors import InvalidFeedbackError, InvalidWordError
from wordlebot.core.game import Row
from wordlebot.core.share import share_grid
from wordlebot.core.words import Lexicon
from wordlebot.policy import analysis as an
from wordlebot.policy.advisor import Advisor

WORDS = random_words(150, length=5, alphabet="abcdeorst", seed=41)
ANSWERS = WORDS[::3]


def lex():
    return Lexicon.from_lists(WORDS, ANSWERS, name="mini")


patterns = st.lists(st.integers(0, 241), min_size=1, max_size=5)


@settings(max_examples=100, deadline=None)
@given(patterns, st.sampled_from(["dark", "light", "contrast"]), st.booleans(), st.integers(0, 99999))
def test_share_grids_parse_back_in_every_style(rows_codes, style, hard, puzzle):
    rows = [Row("abcde", c) for c in rows_codes] + [Row("abcde", 242)]
    text = share_grid(rows, solved=True, hard=hard, puzzle=puzzle, style=style)
    g = an.parse_share_grid(text)
    assert g.patterns == [r.pattern for r in rows]
    assert g.solved and g.score == len(rows) and g.hard == hard and g.puzzle == puzzle


def test_lost_game_grid():
    rows = [Row("abcde", 5)] * 6
    g = an.parse_share_grid(share_grid(rows, solved=False))
    assert not g.solved and g.score is None and len(g.patterns) == 6


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        ("hello\n🟩🟩🟩🟩🟩", "not a share-grid header"),
        ("Wordle 1,234 3/6\n⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩", "header says 3 guesses"),
        ("Wordle 1,234 2/6\n⬛⬛⬛⬛\n🟩🟩🟩🟩🟩", "has 5 tiles, the others 4"),
        ("Wordle 1,234 2/6\n⬛⬛⬛⬛⬛\n🟩🟩🟨🟩🟩", "last row of a solved game"),
        ("Wordle 12 X/6\n⬛⬛⬛⬛⬛", "a lost game has 6 rows"),
        ("Wordle 1,234 2/6\n⬛⬛🟥⬛⬛\n🟩🟩🟩🟩🟩", "is not a colour"),
    ],
)
def test_bad_grids_are_explained(text, fragment):
    with pytest.raises(InvalidFeedbackError, match=fragment):
        an.parse_share_grid(text)


def test_real_share_grid_with_decorations():
    text = "Wordle 1,692 4/6*\n\n⬛🟨⬛⬛⬛\n🟨⬛🟨⬛⬛\n⬛🟩🟩🟩⬛\n🟩🟩🟩🟩🟩\n"
    g = an.parse_share_grid(text)
    assert g.puzzle == 1692 and g.hard and g.score == 4


def test_following_the_bot_scores_99_and_luck_is_bounded():
    adv = Advisor(lex())
    target = ANSWERS[4]
    game = adv.new_game()
    while not game.solved:
        w = adv.best(game)
        game.guess(w, feedback_code(w, target))
    rep = an.analyze_game(adv, game.rows, answer=target)
    assert all(r.skill == 99 for r in rep.rows) and rep.skill == 99
    assert all(0 <= r.luck <= 99 for r in rep.rows)
    assert rep.rows[-1].solved and rep.solved
    assert rep.rows[0].candidates_before == len(ANSWERS)
    assert [r.candidates_after for r in rep.rows][:-1] == [r.candidates_before for r in rep.rows][1:]


def test_a_deliberately_bad_guess_rates_low():
    adv = Advisor(lex())
    target = ANSWERS[4]
    # a guess that cannot split the answers at all: no letter of the alphabet the words use
    bad_words = [w for w in WORDS if len(set(w)) == 1]
    bad = bad_words[0] if bad_words else WORDS[-1]
    best = adv.best(adv.new_game())
    rows = [Row(bad, feedback_code(bad, target))]
    rep = an.analyze_game(adv, rows)
    good = an.analyze_game(adv, [Row(best, feedback_code(best, target))])
    assert rep.rows[0].skill < 60 < good.rows[0].skill == 99
    assert rep.rows[0].player_expected > rep.rows[0].best_expected


def test_luck_ranks_the_outcome():
    adv = Advisor(lex())
    best = adv.best(adv.new_game())
    # the luckiest outcome: the guess is the answer; an outcome leaving the most words: unlucky
    pats = {}
    for a in ANSWERS:
        pats.setdefault(feedback_code(best, a), []).append(a)
    biggest = max(pats.values(), key=len)[0]
    unlucky = an.analyze_game(adv, [Row(best, feedback_code(best, biggest))]).rows[0].luck
    solved_first = [a for a in ANSWERS if a == best]
    if solved_first:
        assert an.analyze_game(adv, [Row(best, 242)]).rows[0].luck > 90
    assert unlucky < 50


def test_wrong_answer_for_the_colours_is_refused():
    adv = Advisor(lex())
    rows = [Row(WORDS[0], feedback_code(WORDS[0], ANSWERS[1]))]
    other = next(a for a in ANSWERS if feedback_code(WORDS[0], a) != rows[0].pattern)
    with pytest.raises(InvalidFeedbackError, match="check the answer or the colours"):
        an.analyze_game(adv, rows, answer=other)


def test_an_answer_the_game_would_not_accept_is_refused():
    # "zzzzz" fits an all-grey row of any guess without a Z, so only the word check can catch it:
    # a Wordle answer is always a word the game accepts
    adv = Advisor(lex())
    guess = next(w for w in WORDS if "z" not in w)
    with pytest.raises(InvalidWordError, match="'zzzzz' is not in the .* guess list"):
        an.analyze_game(adv, [Row(guess, 0)], answer="zzzzz")


# --- the command ------------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    return write_lists(tmp_path, WORDS, ANSWERS)


def test_analyze_history_and_grid(files):
    target = ANSWERS[6]
    played = [WORDS[2], target]
    hist = ",".join(f"{g}:{digits(g, target)}" for g in played)
    r = CliRunner().invoke(cli, ["analyze", "--history", hist, "--answer", target, "--json"] + files)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert [x["guess"] for x in doc["rows"]] == played and doc["solved"]
    assert doc["rows"][-1]["candidates_after"] == 1 and "Wordle 2/6" in doc["share"]["dark"]
    grid = doc["share"]["dark"]
    r = CliRunner().invoke(cli, ["analyze", "--grid", grid, "--played", ",".join(played), "--style", "all"] + files)
    assert r.exit_code == 0 and "Skill" in r.output
    assert "🟩" in r.output and "🟧" in r.output  # dark and high-contrast grids (light adds ⬜ on gray tiles)
    r = CliRunner().invoke(cli, ["analyze", "--grid", grid, "--answer", target] + files)
    assert r.exit_code == 0 and "allowed words give these colours" in r.output and "the bot:" in r.output


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["analyze"], "give --history"),
        (["analyze", "--grid", "Wordle 1/6\n🟩🟩🟩🟩🟩"], "give --played"),  # no number: no answer to look up
        (["analyze", "--grid", "nonsense"], "not a share-grid header"),
        (["analyze", "--history", "zzzzz:00000"], "not in the g guess list"),
    ],
)
def test_analyze_bad_input(files, args, fragment):
    r = CliRunner().invoke(cli, args + files)
    assert r.exit_code in (1, 2) and fragment in r.output and "Traceback" not in r.output


def test_a_share_grid_on_one_line_reads_like_the_pasted_one():
    from wordlebot.policy.analysis import parse_share_grid

    pasted = parse_share_grid("Wordle 1,796 3/6\n\n⬛⬛🟨⬛🟨\n🟨🟩⬛⬛⬛\n🟩🟩🟩🟩🟩")
    one_line = parse_share_grid("Wordle 1,796 3/6 ⬛⬛🟨⬛🟨 🟨🟩⬛⬛⬛ 🟩🟩🟩🟩🟩")
    assert one_line == pasted
    assert one_line.puzzle == 1796 and one_line.patterns == [9 * 1 + 81 * 1, 1 + 3 * 2, 242]


def test_an_answer_outside_the_answer_list_leaves_later_rows_unrated(tmp_path):
    """Hand-made lists: GUANO may be guessed but is not a listed answer.  SALET against GUANO
    shows 01000 (only the A, yellow); of the listed answers only BRAVO shows that too (CAROM
    02000, PANTS 12001).  GUANO against BRAVO would show 00202, so after row 2 no listed word
    fits: row 2 is where the list ran out."""
    guesses = ["salet", "guano", "bravo", "pants", "carom"]
    answers = ["bravo", "pants", "carom"]
    lex = Lexicon.from_lists(guesses, answers, name="hand")
    rows = [Row("salet", feedback_code("salet", "guano")), Row("guano", 242)]
    assert rows[0].feedback_digits() == "01000" and feedback_code("salet", "bravo") == rows[0].pattern
    report = an.analyze_game(Advisor(lex, strategy="entropy"), rows, answer="guano")
    assert [r.guess for r in report.rows] == ["salet"] and report.rows[0].candidates_after == 1
    assert report.unrated == [rows[1]] and report.solved and report.answer == "guano"
    assert "the answer is not in the hand answer list: no bot comparison from row 2" in report.summary()
    assert "solved in 2" in report.summary()
    # through the command line, the same
    files = write_lists(tmp_path, guesses, answers)
    r = CliRunner().invoke(cli, ["analyze", "--history", "salet:01000,guano:22222", "--answer", "guano"] + files)
    assert r.exit_code == 0, r.output
    assert "no bot comparison from row 2" in r.output


@pytest.mark.official
def test_the_guano_day_is_analysed_on_classic(official):
    r = CliRunner().invoke(
        cli,
        [
            "--data-dir",
            str(official),
            "analyze",
            "--words",
            "classic",
            "--history",
            "salet:01000,guano:22222",
            "--answer",
            "guano",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "no bot comparison from row 2" in r.output and "off list" in r.output
