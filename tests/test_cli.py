import datetime as dt
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists
from naive import digits
from rich.console import Console

from wordlebot.cli import cli
from wordlebot.core import clock, data
from wordlebot.core.words import Lexicon
from wordlebot.term.interactive import ASSIST_HELP, AssistSession

WORDS = random_words(200, alphabet="abcdeorst", seed=4)
ANSWERS = WORDS[::4]


@pytest.fixture
def files(tmp_path):
    return write_lists(tmp_path, WORDS, ANSWERS)


def run(args, input=None):
    r = CliRunner().invoke(cli, args, input=input, catch_exceptions=False)
    return r


def _all_commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield prefix + (name,), cmd
        if isinstance(cmd, click.Group):
            yield from _all_commands(cmd, prefix + (name,))


def test_the_option_defaults_given_as_text_are_the_library_ones():
    """cli_common names the default word set and strategy without importing their modules (start-up)."""
    from wordlebot.app.wordsets import NAMES
    from wordlebot.cli import common as cli_common
    from wordlebot.policy.advisor import ALL_STRATEGIES, DEFAULT_STRATEGY

    assert cli_common.DEFAULT_STRATEGY == DEFAULT_STRATEGY and cli_common.DEFAULT_WORDS in NAMES
    assert cli_common.STRATEGIES.choices == ALL_STRATEGIES and cli_common.WORD_SETS.choices == NAMES
    r = run(["suggest", "--strategy", "nope"])
    assert r.exit_code == 2 and "'nope' is not one of 'search', 'exact'" in r.output


@pytest.mark.parametrize(
    "path,cmd", list(_all_commands(cli)), ids=lambda x: " ".join(x) if isinstance(x, tuple) else ""
)
def test_every_command_has_help(path, cmd):
    assert cmd.help and len(cmd.help.strip()) > 20, f"{' '.join(path)} has no help text"
    r = run(list(path) + ["--help"])
    assert r.exit_code == 0 and "Usage:" in r.output
    for p in cmd.params:
        if isinstance(p, click.Option):
            assert p.help, f"option {p.name} of {' '.join(path)} has no help"


def test_feedback_command():
    r = run(["feedback", "speed", "erase"])
    assert r.exit_code == 0
    assert r.output.split()[:3] == ["10110", "Y.YY.", "🟨⬛🟨🟨⬛"]


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["feedback", "speed", "eras"], "has 4 letters"),
        (["feedback", "sp3ed", "erase"], "is not a word"),
    ],
)
def test_feedback_command_errors(args, fragment):
    r = run(args)
    assert r.exit_code == 1 and fragment in r.output and "Traceback" not in r.output


def test_suggest_table_and_json(files):
    target = ANSWERS[7]
    hist = f"{WORDS[0]}:{digits(WORDS[0], target)}"
    r = run(["suggest", "--history", hist, "--top", "3"] + files)
    assert r.exit_code == 0, r.output
    assert "candidate" in r.output and "bits" in r.output
    r = run(["suggest", "--history", hist, "--top", "3", "--json", "--strategy", "entropy"] + files)
    doc = json.loads(r.output)
    assert len(doc["suggestions"]) == 3 and target in doc["candidate_words"]
    # the default tree search lists its candidate guesses with the average guesses to finish
    r = run(["suggest", "--history", hist, "--top", "3", "--json"] + files)
    doc = json.loads(r.output)
    n = doc["candidates"]
    assert 1 <= len(doc["suggestions"]) <= 3 and all(s["expected"] >= 1 for s in doc["suggestions"])
    if n == 1:
        assert doc["suggestions"][0]["word"] == target
    assert {"word", "bits", "expected_left", "largest", "parts", "p_answer", "can_be_answer", "hard_legal"} <= set(
        doc["suggestions"][0]
    )


@pytest.mark.parametrize(
    "hist,fragment",
    [
        ("zzzzz:00000", "not in the g guess list"),
        ("aaaaa", "GUESS:FEEDBACK"),
        ("aaaaa:2012", "has 4 tiles"),
        ("aaaaa:22221", "leaves no"),
    ],
)
def test_suggest_bad_history_is_a_clean_error(files, hist, fragment):
    word = WORDS[0]
    r = run(["suggest", "--history", hist.replace("aaaaa", word)] + files)
    assert r.exit_code == 1
    assert fragment in r.output and "Error:" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("rows", [7, 10_000])
def test_suggest_refuses_more_rows_than_guesses_like_the_api(files, rows):
    """Issue 41: 7 rows (or 10,000) printed an empty table and exit 0; the web API said 400."""
    row = f"{WORDS[0]}:{digits(WORDS[0], ANSWERS[7])}"
    r = run(["suggest", "--history", ",".join([row] * rows)] + files)
    assert r.exit_code == 1, r.output
    assert f"the history has {rows} rows; the game allows 6 guesses" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize(
    "hist,fragment",
    [
        ("salet:00300", "'3' is not a colour"),
        ("salet:2012", "has 4 tiles"),
        ("salet", "GUESS:FEEDBACK"),
    ],
)
def test_suggest_bad_colours_are_reported_before_the_lists_load(monkeypatch, hist, fragment):
    """No word list is loaded (on a first run that trains the day's answer model: seconds) for a
    history whose colours cannot be read."""
    from wordlebot.cli import common as cli_common

    def never(*args, **kwargs):
        raise AssertionError("the lists were loaded")

    monkeypatch.setattr(cli_common, "load_lexicon", never)
    r = run(["suggest", "--history", hist])
    assert r.exit_code == 1 and fragment in r.output and "Traceback" not in r.output


def test_bad_word_list_file_is_a_clean_error(tmp_path):
    g = tmp_path / "g.txt"
    g.write_text("crane\nslate\nCRANE\n")
    r = run(["suggest", "--guesses", str(g)])
    assert r.exit_code == 1 and "g.txt, line 3" in r.output


def test_no_data_falls_back_to_wordfreq_and_says_so(tmp_path):
    r = run(
        ["--data-dir", str(tmp_path / "empty"), "suggest", "--words", "classic", "--top", "2", "--strategy", "entropy"]
    )
    assert r.exit_code == 0
    assert "NOT the official classic lists" in r.output and "wordlebot data fetch" in r.output


def test_other_word_lengths():
    r = run(["suggest", "-k", "7", "--top", "2", "--json", "--strategy", "entropy"])
    doc = json.loads(r.output[r.output.index("{") :])
    assert all(len(s["word"]) == 7 for s in doc["suggestions"])


# --- assist -----------------------------------------------------------------------------------


class Driver:
    """Answers the assistant's prompts like a player whose game hides ``target``."""

    def __init__(self, target, script=()):
        self.target = target
        self.script = list(script)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if self.script:
            return self.script.pop(0)
        m = re.match(r"colours for (\w+)", prompt)
        if m:
            return digits(m.group(1).lower(), self.target)
        if prompt.startswith("Enter = new game"):
            raise EOFError
        return ""  # accept the suggestion


def _session(driver, **kw):
    lex = Lexicon.from_lists(WORDS, ANSWERS, name="mini")
    buf = io.StringIO()
    s = AssistSession(lex, Console(file=buf, width=100), ask=driver, **kw)
    return s, buf


def test_assist_solves_by_accepting_suggestions():
    for target in ANSWERS[:10]:
        s, buf = _session(Driver(target))
        s.run()
        assert s.game.solved and s.game.rows[-1].guess == target
        assert "Solved in" in buf.getvalue()


def test_assist_handles_mistakes_and_commands():
    target = ANSWERS[3]
    first = WORDS[5]
    script = [
        "help",
        "top 3",
        "top x",
        "list",
        "hard maybe",
        "zzzzz",
        first,
        "2012",
        "22221",
        digits(first, target),
        "undo",
        "hard on",
        first,
        digits(first, target),
        "bogus command here",
    ]
    s, buf = _session(Driver(target, script))
    s.run()
    out = buf.getvalue()
    assert "Commands (at either prompt):" in out  # help
    assert "usage: top N" in out and "usage: hard on|off" in out
    assert "'zzzzz' is not in the mini guess list" in out
    assert "has 4 tiles" in out  # malformed colours, asked again
    assert "leaves no possible word" in out  # impossible colours, asked again
    assert "took back" in out and "hard mode on" in out
    assert "unknown command" in out
    assert s.game.solved and s.game.hard


def test_assist_refused_means_refused_word_and_an_empty_line_only_asks():
    """Issue 39: a stray empty Enter at the colours prompt marked the word as refused by the game.
    Now it refuses nothing and asks; 'refused' says the game did not take the word."""
    target = ANSWERS[0]
    driver = Driver(target, ["", "", "refused"])  # accept the suggestion, a stray Enter, then 'refused'
    s, buf = _session(driver)
    s.run()
    first_suggestion = re.search(r"\[(\w+)\]", driver.prompts[0]).group(1).lower()
    out = buf.getvalue()
    W = first_suggestion.upper()
    assert driver.prompts[1] == driver.prompts[2] == f"colours for {W} ('refused' if the game did not take it): "
    assert (
        out.count(
            f"no colours: type the colours the game showed for {W} (e.g. 20110), 'refused' if the game "
            "did not take the word, or undo to drop it"
        )
        == 1
    )
    assert out.count("refused by the game") == 1 and out.index("no colours") < out.index("refused by the game")
    assert s.game.rows[0].guess != first_suggestion
    assert s.lexicon.id(first_suggestion) in s.game.refused


def test_assist_edit_works_at_the_colours_prompt_after_impossible_colours():
    """Issue 39: after "row 2 … leaves no possible word", 'edit 1 …' was read as colours ("'e' is
    not a colour") and only an undo the help did not mention got out.  Hand-made lists (colours by
    hand): the player slipped on row 1, CRANE 00220 (PIANO's colours) for ORGAN's 02110; ORGAN
    22222 then leaves nothing.  The message says how out; edit corrects row 1 in either form and
    ORGAN's colours are asked again, not lost."""
    lex = Lexicon.from_lists(HAND_GUESSES, HAND_ANSWERS, [5, 3, 2], name="hand")
    script = ["crane", "00220", "organ", "22222", "edit 1 crane 02100", "edit 1 crane:02110", "22222"]
    buf = io.StringIO()
    driver = Driver("organ", script)
    s = AssistSession(lex, Console(file=buf, width=200), ask=driver)
    s.run()
    out = buf.getvalue()
    assert "row 2 (ORGAN 22222) leaves no possible word: check the colours of this row and the ones before it" in out
    assert (
        "type ORGAN's colours again, correct an earlier row with edit N word:colours (row 1 is crane:00220 now), "
        "or undo to drop ORGAN"
    ) in out
    assert "is not a colour" not in out
    assert "row 1 (CRANE 02100) leaves no possible word" in out  # the first edit was wrong: said, nothing lost
    assert driver.prompts[3:7] == ["colours for ORGAN ('refused' if the game did not take it): "] * 4
    assert s.game.solved and [str(r) for r in s.game.rows] == ["crane:02110", "organ:22222"]
    assert "at the colours prompt:\n                  drop the word typed" in ASSIST_HELP
    assert "edit 1 salet:20110 or edit 1 salet 20110" in ASSIST_HELP
    assert "type this row's colours again, correct an earlier row with edit, or undo" in " ".join(ASSIST_HELP.split())


def test_assist_hard_mode_refusal_with_reason():
    lex = Lexicon.from_lists(
        ["brace", "cater", "cross", "react", "trace"], ["brace", "cater", "cross", "react", "trace"]
    )
    buf = io.StringIO()
    script = ["trace", digits("trace", "brace"), "cross", "q"]
    driver = Driver("brace", script)
    s = AssistSession(lex, Console(file=buf, width=100), hard=True, ask=driver)
    s.run()
    assert "CROSS is not allowed: hard mode: the 3rd letter must be A" in buf.getvalue()
    # said as soon as the word is typed: its colours are never asked for
    assert not any(p.startswith("colours for CROSS") for p in driver.prompts)
    assert driver.prompts[3].startswith("guess 2")


def test_assist_command_line_session(files):
    target = ANSWERS[2]
    g1 = WORDS[1]
    lines = [g1, "nonsense!", digits(g1, target), "undo", "quit"]
    r = run(["assist"] + files, input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.output
    assert "is not a colour" in r.output and "took back" in r.output and "bye" in r.output


def test_assist_ends_cleanly_at_end_of_input(files):
    r = run(["assist"] + files, input="")
    assert r.exit_code == 0 and "bye" in r.output


# --- play -------------------------------------------------------------------------------------


def test_play_against_a_given_answer(files):
    target = ANSWERS[5]
    r = run(["play", "--answer", target] + files, input=f"zzzzz\n{WORDS[0]}\n{target}\n")
    assert r.exit_code == 0
    assert "not in the g guess list" in r.output
    assert "Solved in 2/6" in r.output and "Wordle 2/6" in r.output


def test_play_lost_game_shows_answer(files):
    target = ANSWERS[5]
    others = [w for w in WORDS if w != target][:6]
    r = run(["play", "--answer", target] + files, input="\n".join(others) + "\n")
    assert f"The word was {target.upper()}" in r.output and "Wordle X/6" in r.output


def test_play_by_date_uses_the_history(tmp_path, files):
    entries = [data.HistoryEntry(data.FIRST_DAY + dt.timedelta(d), w) for d, w in enumerate(ANSWERS[:3])]
    data.atomic_write(tmp_path / "d" / data.HISTORY_FILE, data.format_history_csv(entries))
    r = run(["--data-dir", str(tmp_path / "d"), "play", "--date", "2021-06-21"] + files, input=ANSWERS[2] + "\n")
    assert "Solved in 1/6" in r.output and "Wordle 2 1/6" in r.output
    r = run(["--data-dir", str(tmp_path / "d"), "play", "--date", "2022-01-01"] + files)
    assert r.exit_code == 1 and "no answer for 2022-01-01" in r.output and "data update" in r.output
    # a day not yet published: updating the history cannot help, so it does not say to
    ahead = (clock.today() + dt.timedelta(days=2)).isoformat()
    r = run(["--data-dir", str(tmp_path / "d"), "play", "--date", ahead] + files)
    assert r.exit_code == 1 and f"no answer for {ahead}: that puzzle has not been published yet" in r.output
    assert "Traceback" not in r.output and "data update' (or data fetch)" not in r.output


def test_play_random_is_seeded(files):
    a = run(["play", "--seed", "3"] + files, input="quit\n").output
    b = run(["play", "--seed", "3"] + files, input="quit\n").output
    assert re.search(r"The word was (\w+)", a).group(1) == re.search(r"The word was (\w+)", b).group(1)


# --- simulate ---------------------------------------------------------------------------------


def test_simulate_command(files, tmp_path):
    r = run(
        ["simulate", "--strategy", "minimax", "--plot", str(tmp_path / "p.png"), "--json", str(tmp_path / "s.json")]
        + files
    )
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["games"] == len(ANSWERS) and doc["strategy"] == "minimax"
    assert f"total {doc['total']:,}" in r.output and "ms per game" in r.output
    assert (tmp_path / "p.png").stat().st_size > 1000
    r = run(["simulate", "--first", "zzzzz"] + files)
    assert r.exit_code == 1 and "not in the g guess list" in r.output


# --- data -------------------------------------------------------------------------------------


def test_data_commands_against_a_fake_host(tmp_path, fake_host):
    folder = tmp_path / "d"
    r = run(["--data-dir", str(folder), "data", "status"])
    assert r.exit_code == 0 and "missing" in r.output
    r = run(["--data-dir", str(folder), "data", "fetch", "--source", fake_host.url, "--timeout", "2"])
    assert r.exit_code == 1 and "HTTP 404" in r.output and "could not be fetched" in r.output
    entries = [data.HistoryEntry(data.FIRST_DAY, "cigar")]
    data.atomic_write(folder / data.HISTORY_FILE, data.format_history_csv(entries))
    fake_host.routes["/2021-06-20.json"] = (
        200,
        json.dumps({"solution": "rebut", "print_date": "2021-06-20"}).encode(),
        {},
    )
    r = run(
        [
            "--data-dir",
            str(folder),
            "data",
            "update",
            "--endpoint",
            fake_host.url,
            "--until",
            "2021-06-21",
            "--delay",
            "0",
        ]
    )
    assert r.exit_code == 0, r.output
    assert "REBUT" in r.output and "added 1 day" in r.output and "not published yet" in r.output
    assert [e.word for e in data.read_history(folder)] == ["cigar", "rebut"]


def test_python_dash_m_entry_point():
    r = subprocess.run(
        [sys.executable, "-m", "wordlebot", "feedback", "error", "elder"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0 and r.stdout.startswith("20002")


# --- one game model for play; refusals in assist ------------------------------------------------
# Hand-made lists: GUANO is a guess but not an answer.  Colours worked out by hand:
# SLATE/GUANO 00200, PIANO/GUANO 00222; after SLATE 00200 only the answer PIANO fits, and after
# PIANO 00222 no answer does.
HAND_GUESSES = ["crane", "guano", "organ", "piano", "slate"]
HAND_ANSWERS = ["piano", "organ", "crane"]


def test_play_an_answer_outside_the_answer_list(tmp_path):
    files = write_lists(tmp_path, HAND_GUESSES, HAND_ANSWERS)
    r = run(["play", "--answer", "guano"] + files, input="slate\npiano\nguano\n")
    assert r.exit_code == 0, r.output
    assert "Solved in 3/6!" in r.output
    assert "Wordle 3/6\n\n⬛⬛🟩⬛⬛\n⬛⬛🟩🟩🟩\n🟩🟩🟩🟩🟩" in r.output


def test_play_hard_mode_goes_through_the_game(tmp_path):
    files = write_lists(tmp_path, HAND_GUESSES, HAND_ANSWERS)
    r = run(["play", "--answer", "guano", "--hard"] + files, input="slate\norgan\nguano\n")
    assert r.exit_code == 0, r.output
    assert "ORGAN is not allowed: hard mode: the 3rd letter must be A" in r.output
    assert "Solved in 2/6!" in r.output and "Wordle 2/6*\n\n⬛⬛🟩⬛⬛\n🟩🟩🟩🟩🟩" in r.output


def test_a_typo_is_answered_with_the_words_one_slip_away_as_the_readme_says(official):
    # The README's sentence, on the classic lists: SLATE (an answer) and SALET swap two
    # neighbouring letters of SALTE, SALTY changes one (hand-checked against the lists)
    r = run(["--data-dir", str(official), "suggest", "--words", "classic", "--history", "salte:20010"])
    assert r.exit_code == 1
    message = "'salte' is not in the classic guess list (12,972 words); did you mean SLATE, SALET or SALTY?"
    assert message in r.output.replace("\n", " ")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert f"`{message}`" in " ".join(readme.split())


def test_play_classic_on_the_guano_day(official):
    # 2023-03-27, puzzle 646: GUANO, not among the 2,315 classic answers.  SALET/GUANO = 01000.
    r = run(["--data-dir", str(official), "play", "--words", "classic", "--date", "2023-03-27"], input="salet\nguano\n")
    assert r.exit_code == 0, r.output
    assert "Solved in 2/6!" in r.output and "Wordle 646 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩" in r.output


def test_assist_refusal_leaves_the_candidates_and_undo_takes_it_back():
    lex = Lexicon.from_lists(HAND_GUESSES, HAND_ANSWERS, [5, 3, 2], name="hand")
    script = ["piano", "refused", "list", "piano", "undo", "list", "piano", "refused", "new", "list", "q"]
    buf = io.StringIO()
    s = AssistSession(lex, Console(file=buf, width=200), ask=Driver("organ", script))
    s.run()
    out = buf.getvalue()
    # refused: PIANO is not the answer (prior 5:3:2, so ORGAN 3/5 and CRANE 2/5 are left)
    assert "OK, PIANO was refused by the game, so it is not the answer" in out
    assert "2 possible: ORGAN 60.0%, CRANE 40.0%" in out
    assert "PIANO was refused by the game (it is not in the game's word list); undo takes the refusal back" in out
    # undo takes the refusal back; a new game starts with none
    assert "took back the refusal of PIANO" in out
    assert out.count("3 possible: PIANO 50.0%, ORGAN 30.0%, CRANE 20.0%") == 2
    assert s.game.refused == frozenset() and s.game.rows == []


def test_assist_never_suggests_a_refused_word_again_in_that_game():
    # accept the suggestion, refuse it; accept the next one, go back from its colours; undo
    driver = Driver(ANSWERS[0], ["", "refused", "", "back", "undo", "q"])
    s, buf = _session(driver)
    s.run()
    first = re.search(r"\[(\w+)\]", driver.prompts[0]).group(1)
    second = re.search(r"\[(\w+)\]", driver.prompts[2]).group(1)
    assert driver.prompts[1].startswith(f"colours for {first}") and second != first
    out = buf.getvalue()
    refused_at = out.index(f"OK, {first} was refused")
    after = out[refused_at : out.index("took back")]
    assert first not in after.replace(f"OK, {first} was refused", "")  # in no table or list
    # the refusal was the last action: undo takes it back and the first suggestion is back
    assert f"took back the refusal of {first}" in out
    assert re.search(r"\[(\w+)\]", driver.prompts[-1]).group(1) == first


# --- the terminal UI's command, settings, cache, analysis width, answers ---------------------


def _no_tui(monkeypatch):
    """The tui command up to the app, which is kept instead of run."""
    from wordlebot.app.session import Settings
    from wordlebot.tui import WordlebotApp

    started = []
    monkeypatch.setattr(WordlebotApp, "run", lambda self: started.append(self))
    lex = Lexicon.from_lists(WORDS, ANSWERS, name="mini")
    monkeypatch.setattr(Settings, "lexicon", lambda self, *a, **k: lex)
    return started


def test_tui_flags_of_one_run_are_not_saved(monkeypatch):
    from wordlebot.app.session import Settings

    started = _no_tui(monkeypatch)
    Settings(words="classic", strategy="entropy").save()
    before = Settings.path().read_text()
    r = run(["tui", "--play", "--hard", "--max-guesses", "5"])
    assert r.exit_code == 0, r.output
    s = started[0].session
    assert (s.mode, s.game.hard, s.game.max_guesses, s.settings.strategy) == ("play", True, 5, "entropy")
    assert Settings.path().read_text() == before  # the next plain run starts as saved


def test_tui_with_a_broken_settings_file_starts_with_a_note(monkeypatch):
    from wordlebot.app.session import Settings

    started = _no_tui(monkeypatch)
    Settings.path().parent.mkdir(parents=True, exist_ok=True)
    Settings.path().write_text("[1, 2]")
    r = run(["tui"])
    assert r.exit_code == 0 and "Traceback" not in r.output
    assert "it holds list, not an object of settings" in r.output and "tui.json.bad" in r.output
    assert started[0].session.settings == Settings() and any("tui.json.bad" in n for n in started[0].notes)


def test_an_unwritable_cache_folder_is_one_note_with_the_right_fix(files, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(blocker / "cache"))
    r = run(["suggest", "--history", f"{WORDS[0]}:{digits(WORDS[0], ANSWERS[3])}", "--top", "2"] + files)
    assert r.exit_code == 0, r.output
    assert "the cache folder cannot be written" in r.output and "set WORDLEBOT_CACHE to a writable folder" in r.output
    assert "--data-dir" not in r.output and "cannot write the matrix cache" not in r.output


def test_analyze_table_fits_80_columns(files):
    target = ANSWERS[5]
    rows = ",".join(f"{w}:{digits(w, target)}" for w in (WORDS[1], WORDS[60], target))
    r = run(["analyze", "--history", rows, "--answer", target] + files)
    assert r.exit_code == 0, r.output
    table = [line for line in r.output.splitlines() if line.strip()]
    assert max(len(line) for line in table) <= 80 and "…" not in r.output
    bot_col = [line for line in table if line.strip().startswith("1 ")][0]
    assert WORDS[1].upper() in bot_col and "luck" in r.output


@pytest.mark.parametrize("answer", ["...", "ab", "toolong"])
def test_analyze_with_a_bad_answer_is_a_clean_error(files, answer):
    r = run(["analyze", "--history", f"{WORDS[1]}:00000", "--answer", answer] + files)
    assert r.exit_code == 1 and "Error:" in r.output and "Traceback" not in r.output


def test_openers_workers_are_started_with_ctrl_c_ignored():
    """Ctrl+C reaches every process of the job: the sweep's workers must leave it to this one."""
    import signal

    from wordlebot.app.opener_sweep import _local_cluster

    seen = []

    def fake_cluster(**kwargs):
        seen.append(signal.getsignal(signal.SIGINT))
        return "cluster"

    before = signal.getsignal(signal.SIGINT)
    assert _local_cluster(fake_cluster, 2) == "cluster"
    assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) is before


def test_answers_list_shows_ties_as_ties(official):
    from wordlebot.answers.daily import prior_for_day
    from wordlebot.core.words import read_word_file

    day = dt.date(2026, 5, 20)
    r = run(["answers", "list", "--top", "50", "--date", str(day)])
    assert r.exit_code == 0, r.output
    p = prior_for_day(official, read_word_file(official / "nyt/guesses.txt"), day, build=True).weights
    # the blocks of equal probability among the 50 likeliest, counted here
    top = np.sort(p)[::-1][:50]
    blocks = []
    for v in np.unique(top):
        same = np.isclose(p, v, rtol=1e-9, atol=0)
        if same.sum() > 1:
            first = int((p[~same] > v).sum()) + 1
            blocks.append((first, first + int(same.sum()) - 1))
    assert blocks  # not vacuous: words of equal frequency in one list tie
    for a, b in blocks:
        assert f"ranks {a:,}-{b:,}: {b - a + 1:,} words tie" in r.output
        assert r.output.count(f"\n{a:,}-{b:,} ") + r.output.count(f" {a:,}-{b:,}  ") >= min(b, 50) - a + 1
    # WRECK's fair rank: the middle of the ranks its probability shares, counted here
    pw = p[read_word_file(official / "nyt/guesses.txt").index("wreck")]
    same = np.isclose(p, pw, rtol=1e-9, atol=0)
    first = int((p[~same] > pw).sum()) + 1
    last = first + int(same.sum()) - 1
    r = run(["answers", "show", "wreck", "--date", str(day)])
    text = (
        f"rank ≈{(first + last) / 2:,.0f} of {p.size:,}: {last - first + 1:,} words tie at ranks {first:,}-{last:,}"
        if last > first
        else f"rank {first:,} of {p.size:,}"
    )
    assert text in r.output


def _live_bars():
    import threading

    # a stopped bar's refresh thread is told to end (done) and does so at its next tick
    return [t for t in threading.enumerate() if type(t).__name__ == "_RefreshThread" and not t.done.is_set()]


def test_a_failed_download_leaves_no_live_progress_bar(tmp_path, fake_host):
    """A truncated download never reaches its total: its bar must still be stopped, or it is
    redrawn over the terminal UI and left on the terminal after it."""
    path = "/" + data.OFFICIAL[0].source
    fake_host.routes[path] = (200, b"cigar\nrebut\n", {"length": 100000})  # says more than it sends
    r = run(["--data-dir", str(tmp_path / "d"), "data", "fetch", "--source", fake_host.url, "--timeout", "2"])
    assert r.exit_code == 1 and "truncated download" in r.output
    assert _live_bars() == []


def test_download_bars_stop_on_close():
    from wordlebot.term.render import DownloadBars

    with DownloadBars(Console(file=io.StringIO())) as bars:
        update = bars("x.txt")
        update(10, None)  # no size announced: it never completes by itself
        assert len(_live_bars()) == 1
    assert _live_bars() == []


def test_multi_board_tui_play_mode_wants_one_hidden_word_per_board():
    # play mode itself starts the UI (tests/test_tui.py drives it); here only the refusal
    r = run(["tui", "--boards", "4", "--play", "--answer", "cigar"])
    assert r.exit_code == 2 and "give 4 words separated by commas" in r.output


def test_data_update_without_a_history_says_to_fetch_it_first(tmp_path, fake_host):
    """Issue 39: offline, 'data update' printed 'history ends None' and set out to ask for every
    day since 2021-06-19.  With no history it asks for nothing, writes nothing and says what to do."""
    r = run(["--data-dir", str(tmp_path), "data", "update", "--endpoint", fake_host.url, "--delay", "0"])
    assert r.exit_code == 1
    assert r.output == (
        f"Error: there is no answer history in {tmp_path} yet: run 'wordlebot data fetch' first "
        "(one download), then 'wordlebot data update' adds the days since\n"
    )
    assert fake_host.requests == [] and list(tmp_path.iterdir()) == []
