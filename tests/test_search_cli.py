"""The tree-search commands and the search as the default strategy for play."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists
from naive import feedback_code, optimal_total

from wordlebot.cli import cli
from wordlebot.core.words import Lexicon
from wordlebot.policy.advisor import Advisor
from wordlebot.search.openings import load_book

GUESSES = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = GUESSES[::3]


def run(args, input=None):
    return CliRunner().invoke(cli, args, input=input, catch_exceptions=False)


@pytest.fixture
def files(tmp_path):
    return write_lists(tmp_path, GUESSES, ANSWERS)


def test_tree_then_verify(files, tmp_path):
    out = tmp_path / "tree.txt"
    r = run(["tree", "--exact", "--out", str(out), "--json", str(tmp_path / "t.json")] + files)
    assert r.exit_code == 0, r.output
    assert "total" in r.output and "distribution" in r.output
    text = out.read_text()
    assert "# search: exact" in text and "# mode: normal" in text
    total = int(next(line.split(": ")[1] for line in text.splitlines() if line.startswith("# total")))
    assert total == optimal_total(GUESSES, ANSWERS, 6)  # the exported tree is optimal
    r = run(["verify-tree", str(out)] + files)
    assert r.exit_code == 0 and "OK" in r.output
    doc = json.loads((tmp_path / "t.json").read_text())
    assert doc["meta"]["total"] == str(total) and doc["tree"]["answers"] == len(ANSWERS)


def test_verify_tree_rejects_a_tampered_file(files, tmp_path):
    out = tmp_path / "tree.txt"
    run(["tree", "--k", "4", "--out", str(out)] + files)
    lines = out.read_text().splitlines()
    body = [i for i, line in enumerate(lines) if not line.startswith("#")]
    lines[body[0]] = lines[body[0]].split()[-1]  # claim the first answer in one guess
    out.write_text("\n".join(lines) + "\n")
    r = run(["verify-tree", str(out)] + files)
    assert r.exit_code == 1 and "problem:" in r.output and "Traceback" not in r.output
    r = run(["verify-tree", str(tmp_path / "missing.txt")] + files)
    assert r.exit_code == 1 and "no such file" in r.output


def test_tree_hard_mode_and_cap(files, tmp_path):
    out = tmp_path / "hard.txt"
    r = run(["tree", "--exact", "--hard", "--max-guesses", "5", "--out", str(out)] + files)
    assert r.exit_code == 0, r.output
    assert "# mode: hard" in out.read_text()
    assert run(["verify-tree", str(out)] + files).exit_code == 0


def test_tree_impossible_cap_is_a_clean_error(files):
    r = run(["tree", "--exact", "--max-guesses", "2"] + files)
    assert r.exit_code == 1 and "within 2 guesses" in r.output and "--fail-cost" in r.output


def test_tree_first_word_must_be_allowed(files):
    r = run(["tree", "--first", "zzzzz"] + files)
    assert r.exit_code == 1 and "not in the g guess list" in r.output


def test_openers_on_a_local_dask_cluster(files, tmp_path):
    """The sweep runs on Dask (a LocalCluster of 2 processes) and proves the best first word."""
    csv = tmp_path / "openers.csv"
    r = run(["openers", "--exact", "--top", "3", "--out", str(csv)] + files)
    assert r.exit_code == 0, r.output
    assert "proven:" in r.output
    rows = _journal_rows(csv)
    assert len(rows) == len(GUESSES)  # every first word evaluated
    best_word, best_value = rows[0][0], float(rows[0][1])
    assert best_value == optimal_total(GUESSES, ANSWERS, 6)
    exact = {w: float(v) for w, v, e, _ in rows if e == "1"}
    assert exact[best_word] == best_value
    # every other word is either exactly worse-or-equal or proven >= the bound
    assert all(float(v) >= best_value for _, v, _, _ in rows)
    assert csv.read_text().splitlines()[-1].startswith(f"# complete: {len(GUESSES)} first words, best {best_word}")


def test_the_printed_ranking_places_only_what_is_proven(files):
    """openers --exact --top 10 with --keep 2: the words only bounded are not printed as places
    (they were listed as places 3-10, ">= bound", alphabetically); each printed place is the word's
    true place among all first words (the naive search's totals), and the rest are counted."""
    import re

    r = run(["openers", "--exact", "--keep", "2", "--top", "10"] + files)
    assert r.exit_code == 0, r.output
    truth = {w: optimal_total(GUESSES, ANSWERS, 6, first=w) for w in GUESSES}
    placed = re.findall(r"^\s*(\d+)\s+([A-Z]+)\s+(\S+)", r.output, re.M)
    assert placed and ">=" not in "".join(v for *_, v in placed)
    for place, word, total in placed:
        assert float(total) == truth[word.lower()]
        assert int(place) == 1 + sum(t < truth[word.lower()] for t in truth.values())
    bounded = len(GUESSES) - len(re.findall(r"^\s*(?:\d+|\?)\s+[A-Z]+\s+\d", r.output, re.M))
    said = " ".join(r.output.split())
    assert f"not ranked: {bounded} first words have no exact total, only a bound" in said


def test_a_standing_gives_a_place_only_where_no_bound_leaves_room():
    """Hand-checked: a bound b says the total is at least b, so only a bound below an exact total
    can beat it; equal totals share a place."""
    from wordlebot.app.opener_sweep import Place, Standing
    from wordlebot.search.tree_search import INF

    values = {
        "aaaaa": (10.0, True),
        "bbbbb": (12.0, True),
        "ccccc": (11.0, False),  # >= 11: may beat 12, cannot beat 10
        "ddddd": (12.0, True),
        "eeeee": (INF, False),  # cannot win within the cap
        "fffff": (12.0, False),  # >= 12: may tie 12, never beat it
    }
    s = Standing.of(values)
    assert s.places == [
        Place("aaaaa", 10.0, 1, 1),
        Place("bbbbb", 12.0, 2, 3),
        Place("ddddd", 12.0, 2, 3),
    ]
    assert s.places[0].proven and not s.places[1].proven
    assert (s.bounded, s.lowest_bound, s.unwinnable) == (3, 11.0, 1)


def _journal_rows(path):
    return [
        line.split(",")
        for line in path.read_text().splitlines()
        if not line.startswith("#") and line != "word,total,exact,seconds"
    ]


def test_an_opener_proof_stopped_and_resumed_keeps_its_results(files, tmp_path):
    """A sweep cut short (a crash mid-row included) goes on with --resume: the journal's words are
    not evaluated again, and the top totals are exact and every other word's bound holds, checked
    against a sweep that computes every word's exact total."""
    every = tmp_path / "every.csv"
    assert run(["openers", "--exact", "--keep", str(len(GUESSES)), "--out", str(every)] + files).exit_code == 0
    truth = {w: float(v) for w, v, e, _ in _journal_rows(every)}
    assert all(e == "1" for _, _, e, _ in _journal_rows(every)) and len(truth) == len(GUESSES)

    proof = tmp_path / "proof.csv"
    assert run(["openers", "--exact", "--keep", "5", "--out", str(proof)] + files).exit_code == 0
    lines = proof.read_text().splitlines(keepends=True)
    head = [x for x in lines if x.startswith("#") and not x.startswith("# complete")] + ["word,total,exact,seconds\n"]
    body = [x for x in lines if not x.startswith("#") and not x.startswith("word,")]
    cut = body[20:60]  # an interrupted run: some words done, then a row cut short
    proof.write_text("".join(head[:2] + head[-1:] + cut) + body[60][:4])

    r = run(["openers", "--exact", "--keep", "5", "--out", str(proof), "--resume"] + files)
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert "40 from the journal" in said and "proven:" in said
    # where it stood, said before it goes on (a background run's log shows no progress bar)
    kept = [x.split(",") for x in cut]
    assert not any(e == "1" for _, _, e, _ in kept)  # the ranked journal's exact rows were cut off
    assert f"resuming {proof}: 40 first words (0 exact; 40 proven >= a bound)" in said
    rows = _journal_rows(proof)
    assert sorted(w for w, *_ in rows) == sorted(GUESSES)
    best5 = sorted(truth.values())[:5]
    exact = sorted(float(v) for _, v, e, _ in rows if e == "1")
    assert exact[:5] == best5
    for w, v, e, _ in rows:
        assert (float(v) == truth[w]) if e == "1" else (float(v) <= truth[w]), w


def _stop_after_batches(monkeypatch, n, stop):
    """Have the sweep's journal call ``stop`` (a Ctrl+C, a kill) once its n-th batch is written;
    returns the real ``Journal.add`` and the list of the batches' sizes."""
    from wordlebot.app.opener_journal import Journal

    add = Journal.add
    calls = []

    def add_then_stop(self, rows):
        add(self, rows)
        calls.append(len(rows))
        if len(calls) == n:
            stop()

    monkeypatch.setattr(Journal, "add", add_then_stop)
    return add, calls


def test_a_stopped_opener_sweep_says_what_it_kept_and_how_to_go_on(files, tmp_path, monkeypatch):
    """Ctrl+C in the middle of a sweep (here: after its third batch is journaled): the rows are
    kept, the message says how many and how to go on, and --resume finishes with the exact
    totals (checked against the naive search)."""
    from wordlebot.app.opener_journal import Journal

    def ctrl_c():
        raise KeyboardInterrupt

    add, calls = _stop_after_batches(monkeypatch, 3, ctrl_c)
    proof = tmp_path / "proof.csv"
    r = run(["openers", "--exact", "--keep", "3", "--out", str(proof)] + files)
    assert r.exit_code == 130 and "Traceback" not in r.output
    kept = _journal_rows(proof)
    assert len(kept) == sum(calls) > 0
    exact = sorted((float(v), w) for w, v, e, _ in kept if e == "1")
    said = " ".join(r.output.split())
    told = (
        f"stopped: {len(kept)} first words ({len(exact)} exact"
        + (f", best {exact[0][1].upper()} {exact[0][0]:g}" if exact else "")
        + (f"; {len(kept) - len(exact)} proven >= a bound" if len(kept) > len(exact) else "")
        + f") kept in {proof}; the same command with --resume goes on"
    )
    assert told in said and "interrupted" in said
    monkeypatch.setattr(Journal, "add", add)
    r = run(["openers", "--exact", "--keep", "3", "--out", str(proof), "--resume"] + files)
    assert r.exit_code == 0, r.output
    rows = _journal_rows(proof)
    assert len(rows) == len(GUESSES)
    best3 = sorted(optimal_total(GUESSES, ANSWERS, 6, first=w) for w in GUESSES)[:3]
    assert sorted(float(v) for _, v, e, _ in rows if e == "1")[:3] == best3


def test_sigterm_stops_a_sweep_as_ctrl_c_does(files, tmp_path, monkeypatch):
    """A proof run in the background by a script ignores SIGINT (the shell sets it so): ``kill PID``
    (SIGTERM, sent here for real after the second batch is journaled) stops it as Ctrl+C does, with
    the rows kept and the message saying how to go on, instead of ending it without a word; and
    the command puts SIGTERM's handling back as it found it."""
    import os
    import signal

    _, calls = _stop_after_batches(monkeypatch, 2, lambda: os.kill(os.getpid(), signal.SIGTERM))
    outside = []  # the test's own handler: were the command not to take SIGTERM, it would land here

    def before(signum, frame):
        outside.append(signum)

    previous = signal.signal(signal.SIGTERM, before)
    try:
        proof = tmp_path / "proof.csv"
        r = run(["openers", "--exact", "--keep", "3", "--out", str(proof)] + files)
        assert signal.getsignal(signal.SIGTERM) is before
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert outside == [] and r.exit_code == 130 and "Traceback" not in r.output
    assert len(_journal_rows(proof)) == sum(calls) < len(GUESSES)
    said = " ".join(r.output.split())
    assert f"kept in {proof}; the same command with --resume goes on" in said


def test_a_sweep_logged_to_a_file_says_how_far_it_got(files, monkeypatch):
    """Where stderr is not a terminal (a proof run in the background), no progress bar is drawn:
    a line now and then says how far the sweep got (here after every word)."""
    import re

    import wordlebot.cli.solver as solver_commands

    monkeypatch.setattr(solver_commands, "OPENERS_LOG_SECONDS", 0.0)
    r = run(["openers", "--exact", "--keep", "2"] + files)
    assert r.exit_code == 0, r.output
    lines = re.findall(r"^\d\d:\d\d:\d\d (\d+)/(\d+) first words, best (.+)$", r.output, re.M)
    assert [int(n) for n, *_ in lines] == list(range(1, len(GUESSES) + 1))
    assert all(int(t) == len(GUESSES) for _, t, _ in lines)
    best = min(optimal_total(GUESSES, ANSWERS, 6, first=w) for w in GUESSES)
    assert float(lines[-1][2].split()[1]) == best  # the best so far ends at the optimum


def test_a_sweep_stopped_before_its_first_row_says_so(files, tmp_path, monkeypatch):
    from wordlebot.app.opener_journal import Journal

    def stop(self, *args):
        raise KeyboardInterrupt

    monkeypatch.setattr(Journal, "add_seed", stop)  # Ctrl+C as the seed ends: no row written yet
    proof = tmp_path / "proof.csv"
    r = run(["openers", "--exact", "--out", str(proof)] + files)
    said = " ".join(r.output.split())
    assert r.exit_code == 130 and _journal_rows(proof) == []
    assert (
        f"stopped before any first word was journaled in {proof}; the same command with --resume starts it again"
    ) in said


def test_openers_journal_is_never_overwritten_or_mixed(files, tmp_path):
    proof = tmp_path / "proof.csv"
    r = run(["openers", "--exact", "--out", str(proof), "--resume"] + files)
    assert r.exit_code == 1 and "no journal to resume" in r.output
    assert run(["openers", "--exact", "--out", str(proof)] + files).exit_code == 0
    before = proof.read_bytes()
    r = run(["openers", "--exact", "--out", str(proof)] + files)
    assert r.exit_code == 1 and "exists: add --resume" in " ".join(r.output.split()) and proof.read_bytes() == before
    r = run(["openers", "--exact", "--hard", "--out", str(proof), "--resume"] + files)
    assert r.exit_code == 1 and "journal of another sweep (hard False there, True now)" in " ".join(r.output.split())
    assert proof.read_bytes() == before
    other = tmp_path / "other.csv"
    other.write_text("word,total\nsalet,7920\n")
    r = run(["openers", "--exact", "--out", str(other), "--resume"] + files)
    assert r.exit_code == 1 and "is not an openers journal" in r.output


def test_openers_refuses_a_weighted_set(official):
    r = run(["openers", "--words", "nyt"])
    assert r.exit_code == 2 and "openers ranks by total guesses" in r.output


def test_sweep_spec_rebuilds_the_lexicon_in_a_worker():
    from wordlebot.app.opener_sweep import SweepSpec

    lex = SweepSpec(words="wordfreq", length=4).lexicon()
    assert lex.length == 4 and not lex.official


def test_simulate_with_the_search(files, tmp_path):
    r = run(["simulate", "--strategy", "exact", "--json", str(tmp_path / "s.json")] + files)
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["total"] == optimal_total(GUESSES, ANSWERS, 6)
    assert doc["solved_pct"] == 100.0
    # the wait for the first move is announced (it shows no progress), and only when it happens
    assert "proves the first move on all 40 answers" in r.output
    r = run(["simulate", "--strategy", "exact", "--first", doc["first"]] + files)
    assert r.exit_code == 0 and "proves the first move" not in r.output


# --- the Advisor with the search --------------------------------------------------------------


def test_advisor_book_is_built_once_and_reused():
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    game = a.new_game()
    rows = a.suggest(game, 5)
    assert rows[0].expected is not None and rows[0].expected == min(r.expected for r in rows)
    assert a.book_file().exists()
    book = load_book(a.search_for(False, 6), tag=a._policy_tag())
    assert book.first[0][0] == rows[0].word
    # the second move after the book's first guess comes from the book too
    target = ANSWERS[3]
    game.guess(rows[0].word, feedback_code(rows[0].word, target))
    second = a.suggest(game, 3)
    pat = game.rows[0].pattern
    if game.candidates.size > 1:
        assert [r.word for r in second] == [w for w, _ in book.second[pat]][:3]
    # a fresh Advisor reads the book instead of searching
    b = Advisor(lex)
    assert [r.word for r in b.suggest(b.new_game(), 5)] == [r.word for r in rows]


def test_book_replies_are_computed_when_reached_and_kept(monkeypatch, tmp_path):
    """The first suggestion computes the book's first move only; a reply is searched when a game
    reaches it (to the end: its value is the node's optimum), kept in the book file, and read
    back by a fresh Advisor."""
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))  # no book from the other tests
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    first = a.suggest(a.new_game(), 3)[0].word
    assert load_book(a.search_for(False, 6), tag=a._policy_tag()).second == {}
    by_pattern: dict[int, list[str]] = {}
    for ans in ANSWERS:
        by_pattern.setdefault(feedback_code(first, ans), []).append(ans)
    pat, part = max(by_pattern.items(), key=lambda kv: len(kv[1]))
    assert len(part) >= 2  # a node with a choice to make
    game = a.new_game()
    game.guess(first, pat)
    rows = a.suggest(game, 3)
    # searched to the end: the optimum of the node, five guesses left
    assert rows[0].expected * len(part) == pytest.approx(optimal_total(GUESSES, part, 5))
    kept = load_book(a.search_for(False, 6), tag=a._policy_tag())
    assert list(kept.second) == [pat] and kept.second[pat][0][0] == rows[0].word
    b = Advisor(lex)
    bgame = b.new_game()
    bgame.guess(first, pat)
    assert [r.word for r in b.suggest(bgame, 3)] == [r.word for r in rows]


@pytest.mark.parametrize("hard", [False, True])
def test_a_reply_is_the_same_whenever_it_is_computed(monkeypatch, tmp_path, hard):
    """A reply reached after other searches on the same Advisor equals the one a fresh Advisor
    computes with every other reply (a reply is a function of its node, not of the tables)."""
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "all"))
    whole = Advisor(lex)
    whole.complete_book(hard, 6)
    replies = whole.book(hard, 6).second
    first = whole.book(hard, 6).first[0][0]
    assert len(replies) > 3

    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path / "lazy"))
    lazy = Advisor(lex)
    for other in GUESSES[5:9]:  # unrelated positions first: the tables hold their searches
        game = lazy.new_game(hard=hard)
        game.guess(other, feedback_code(other, ANSWERS[7]))
        lazy.suggest(game, 3)
    for pattern in sorted(replies, key=lambda p: -len(replies[p]))[:3]:
        game = lazy.new_game(hard=hard)
        game.guess(first, pattern)
        assert lazy.needs_book(game)
        lazy.prepare_book(game)
        assert not lazy.needs_book(game)
        assert lazy.book(hard, 6).second[pattern] == replies[pattern]


def test_a_weighted_set_after_one_row_builds_no_book(monkeypatch, tmp_path):
    """A weighted set's replies are searched in play, so the move after one row on an empty cache
    does not compute the book's first move first (seconds on nyt), and is what it was with it."""
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    weights = np.linspace(1.0, 3.0, len(ANSWERS))
    lex = Lexicon.from_lists(GUESSES, ANSWERS, weights, name="weighted")
    a = Advisor(lex)
    game = a.new_game()
    game.guess(GUESSES[4], feedback_code(GUESSES[4], ANSWERS[9]))
    assert not a.needs_book(game)
    rows = a.suggest(game, 3)
    assert not list(tmp_path.glob("openings/book-*.json"))
    b = Advisor(lex)
    b.suggest(b.new_game(), 3)  # the book made first
    assert list(tmp_path.glob("openings/book-*.json"))
    again = b.new_game()
    again.guess(GUESSES[4], feedback_code(GUESSES[4], ANSWERS[9]))
    assert [(r.word, r.expected) for r in b.suggest(again, 3)] == [(r.word, r.expected) for r in rows]


def test_a_made_up_list_books_its_first_move_by_a_one_guess_look_ahead(monkeypatch, tmp_path):
    """The wordfreq sets (official=False) rank the first move one guess ahead, as a weighted set
    does (seconds instead of a full search); the official lists search it to the end."""
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    H = np.arange(len(ANSWERS), dtype=np.int32)
    for official, lookahead in ((True, 0), (False, 1)):
        lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini", official=official)
        a = Advisor(lex)
        ranking = a.search_pairs(H, [], None, hard=False, max_guesses=6)
        assert ranking.lookahead == lookahead
        if official:  # searched to the end: the optimum
            assert ranking.pairs[0][1] == pytest.approx(optimal_total(GUESSES, ANSWERS, 6))
    assert len(list((tmp_path / "openings").glob("book-*.json"))) == 2  # one book each


def test_book_is_searched_at_full_width_above_the_pool_threshold(monkeypatch):
    """Big nodes in play are searched over a pool of guesses; the opening book must not be (a
    pooled root once gave a worse first word than the book's replies were built for)."""
    import wordlebot.policy.advisor as advisor

    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    full = Advisor(lex, use_book=False).suggest(Advisor(lex).new_game(), 3)
    Advisor(lex).book_file().unlink(missing_ok=True)
    monkeypatch.setattr(advisor, "POOL_ABOVE", 5)
    monkeypatch.setattr(advisor, "POOL_GUESSES", 2)
    monkeypatch.setattr(advisor, "POOL_CANDIDATES", 1)
    a = Advisor(lex)
    pool = a.guess_pool(a.new_game().candidates)
    assert pool.size <= 3  # the pool really is narrow here
    booked = a.suggest(a.new_game(), 3)
    assert [(r.word, r.expected) for r in booked] == [(r.word, r.expected) for r in full]
    # mid-game (no book), the pool is used: every suggestion comes from it or is a possible answer
    # (the search always tries the answers themselves for a quick finish)
    b = Advisor(lex, use_book=False)
    game = b.new_game()

    def biggest_reply(g):
        pats = [feedback_code(g, t) for t in ANSWERS]
        return max(pats.count(p) for p in pats), max(set(pats), key=pats.count)

    first = max(GUESSES, key=lambda g: biggest_reply(g)[0])  # a poor opener leaves a big node
    game.guess(first, biggest_reply(first)[1])
    assert game.candidates.size > 5
    suggested = {lex.id(r.word) for r in b.suggest(game, 3)}
    allowed = set(b.guess_pool(game.candidates).tolist()) | set(lex.answer_ids[game.candidates].tolist())
    assert suggested <= allowed
    assert len(allowed) < lex.n_guesses / 2


def test_advisor_search_plays_every_answer_to_the_end():
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    for target in ANSWERS:
        game = a.new_game()
        while not game.solved:
            w = a.best(game)
            game.guess(w, feedback_code(w, target))
            assert len(game.rows) <= 6


def test_advisor_rejected_words_are_not_suggested():
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    game = a.new_game()
    first = a.best(game)
    a.reject(first)
    assert a.best(game) != first


def test_advisor_hard_mode_suggestions_are_legal():
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    for target in ANSWERS[:10]:
        game = a.new_game(hard=True)
        while not game.solved:
            rows = a.suggest(game, 3)
            assert all(r.hard_legal for r in rows)
            game.guess(rows[0].word, feedback_code(rows[0].word, target))


def test_weighted_advisor_prefers_likely_answers():
    lex = Lexicon.from_lists(GUESSES, ANSWERS, [50.0] + [1.0] * (len(ANSWERS) - 1), name="w")
    a = Advisor(lex)
    game = a.new_game()
    rows = a.suggest(game, 3)
    assert all(r.expected >= 1 for r in rows)
    # one answer has half the probability: guessing it first is best
    assert rows[0].word == ANSWERS[0]


def test_a_one_guess_game_gets_a_suggestion_and_its_book_has_no_replies():
    """With one guess there is nothing to plan after it: the likeliest (here: first) answer."""
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    game = a.new_game(max_guesses=1)
    assert a.best(game) in ANSWERS
    assert a.book(False, 1).second == {}


def _naive_first_word_total(word):
    """The exact total of ``word`` as the first guess (normal mode), by the naive recursion on
    each part it leaves."""
    from naive import partition

    green = 3 ** len(word) - 1
    return len(ANSWERS) + sum(
        optimal_total(GUESSES, part, 5) for code, part in partition(word, ANSWERS).items() if code != green
    )


def test_lanes_evaluate_first_words_at_once_on_one_table():
    """Two threads evaluate first words at the same time, each on a lane of one search (one
    table, what one proves the other reads): every value is the naive exact total, and a word
    refuted against a bound is at least the bound."""
    import threading

    from wordlebot.search.tree_search import TreeSearch

    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="small")
    search = TreeSearch(lex, k=None, threads=1, memory_mb=64)
    words = GUESSES[:40]
    truth = {w: _naive_first_word_total(w) for w in words}
    bound = sorted(truth.values())[10] + 0.5
    got: dict[str, tuple[float, float]] = {}
    both = threading.Barrier(2)  # both lanes taken before either evaluates: they run at once

    def evaluate(share):
        with search.lane():
            both.wait(timeout=60)
            for w in share:
                got[w] = (
                    search.value_of_guess(lex.id(w), parallel=False),
                    search.value_of_guess(lex.id(w), beta=bound, parallel=False),
                )

    threads = [threading.Thread(target=evaluate, args=(words[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(search._all_lanes) == 2  # each thread had its own scratch space
    for w in words:
        exact, bounded = got[w]
        assert exact == truth[w], w
        assert bounded == truth[w] if truth[w] < bound else bounded >= bound, w


def test_the_seed_bounds_each_first_word_from_above(files):
    """The seed's near-optimal totals are real strategies' totals: never below the exact ones."""
    from wordlebot.app.opener_sweep import SweepSpec, evaluate_uppers

    spec = SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64)
    rows = evaluate_uppers(spec, GUESSES[:30])
    assert [w for w, _, _ in rows] == GUESSES[:30]
    assert all(v >= _naive_first_word_total(w) for w, v, _ in rows)


def test_the_bound_is_the_keep_th_best_of_the_exact_or_the_seeded_totals():
    from wordlebot.app.opener_sweep import _Kept
    from wordlebot.search.tree_search import INF

    kept = _Kept(keep=2, margin=0.5)
    assert not kept.bounded and kept.bound() == INF
    kept.aspiration = 20.5  # provisional: what words go against until the bound is proven ...
    assert kept.bound() == 20.5 and not kept.settled(21.0, False)  # ... final only once it is
    assert kept.settled(7.0, True) and kept.settled(INF, False)
    kept.add_upper(12.0)
    kept.add_upper(INF)  # a word the near-optimal search could not finish: no bound from it
    assert not kept.bounded
    kept.add_upper(11.0)
    kept.add_upper(10.0)
    assert kept.bounded and kept.bound() == 11.5  # two words reach 11: the second best is at most 11
    kept.add_exact(9.0)
    assert kept.bound() == 11.5
    kept.add_exact(10.5)
    assert kept.bound() == 11.0
    assert kept.settled(11.0, False) and kept.settled(21.0, False) and not kept.settled(10.9, False)


def test_the_aspiration_stands_while_fewer_than_keep_exact_totals_are_below_it():
    """Keep exact totals above the aspiration prove a bound, but a looser one: words still go
    against the aspiration, and what was refuted against it is final only once it is proven."""
    from wordlebot.app.opener_sweep import _Kept

    kept = _Kept(keep=2, margin=0.5)
    kept.aspiration = 20.5
    kept.add_exact(9.0)
    kept.add_exact(30.0)  # an exact total found before the aspiration existed (a resumed run)
    assert kept.proven() == 30.5 and kept.bound() == 20.5
    assert not kept.settled(21.0, False) and kept.settled(31.0, False)
    kept.add_exact(18.0)  # two below it: the proven bound is the tighter now
    assert kept.bound() == kept.proven() == 18.5 and kept.settled(21.0, False)


def test_the_seed_grows_with_the_words_kept(files):
    """The keep-th best seeded total is the bound: a sweep that keeps many words seeds more of
    them (seed_per_kept per word kept), and its result is the same exact ranking."""
    import wordlebot.app.opener_sweep as ops
    from wordlebot.search.tree_search import SearchTuning

    tuning = SearchTuning(seed_words=10)
    spec = ops.SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64, tuning=tuning)
    words = ops.first_word_order(spec)[:48]
    seeds, results = {}, {}
    for keep in (1, 5):
        got = []
        results[keep] = ops.sweep(spec, words, workers=1, keep=keep, on_seed=lambda n, cpu: got.append(n))
        seeds[keep] = got
    assert seeds == {1: [10], 5: [5 * tuning.seed_per_kept]}
    for keep, result in results.items():
        exact = [(v, w) for w, (v, e) in result.values.items() if e]
        assert sorted(exact)[:keep] == sorted((_naive_first_word_total(w), w) for w in words)[:keep]


def test_a_hard_sweep_seeds_more_widely(files):
    """Hard mode: the order is a poor guide to the best words, so a sweep that keeps several
    seeds seed_per_kept_hard per word kept (one that keeps one, as in normal mode), and it ends
    with the naive hard totals of the best."""
    from naive import optimal_total

    import wordlebot.app.opener_sweep as ops
    from wordlebot.search.tree_search import SearchTuning

    tuning = SearchTuning(seed_words=6, seed_per_kept_hard=5)
    assert ops.seed_size(1, True, tuning) == ops.seed_size(1, False, tuning) == max(6, tuning.seed_per_kept)
    assert ops.seed_size(4, True, tuning) == 20
    assert ops.seed_size(4, False, tuning) == max(6, 4 * tuning.seed_per_kept)
    spec = ops.SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64, hard=True, tuning=tuning)
    words = ops.first_word_order(spec)[:30]
    got = []
    result = ops.sweep(spec, words, workers=1, keep=4, on_seed=lambda n, cpu: got.append(n))
    assert got == [20]
    truth = sorted((optimal_total(GUESSES, ANSWERS, hard=True, first=w), w) for w in words)
    assert sorted((v, w) for w, (v, e) in result.values.items() if e)[:4] == truth[:4]


@pytest.mark.parametrize("aspiration", ["seeded", "too low", "none"])
def test_a_hard_sweep_keeps_the_exact_best_whatever_its_aspiration(files, monkeypatch, aspiration):
    """Hard mode: the seed's estimates are no bounds, so the keep-th best of them is only a
    provisional bound.  Whether it holds (seeded), is far too low (every word refuted against it
    must be evaluated again) or is missing (the head searched with no bound), the sweep ends
    with the naive exact totals of the keep best words and a true lower bound for every other."""
    from naive import optimal_total

    import wordlebot.app.opener_sweep as ops

    keep = 3
    spec = ops.SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64, hard=True)
    words = ops.first_word_order(spec)[:20]
    if aspiration == "too low":
        monkeypatch.setattr(ops, "aspiration", lambda estimates, keep, margin: 1.5)
    elif aspiration == "none":
        monkeypatch.setattr(ops, "aspiration", lambda estimates, keep, margin: ops.INF)
    rows = []
    result = ops.sweep(spec, words, workers=1, keep=keep, on_batch=rows.extend)
    truth = {w: optimal_total(GUESSES, ANSWERS, hard=True, first=w) for w in words}
    best = sorted((v, w) for w, v in truth.items())[:keep]
    assert sorted((v, w) for w, (v, e) in result.values.items() if e)[:keep] == best
    for w, (v, exact) in result.values.items():
        assert v == truth[w] if exact else best[-1][0] + 0.5 <= v <= truth[w], w
    evaluated_again = len(rows) - len(words)
    assert evaluated_again > 0 if aspiration == "too low" else evaluated_again == 0


def test_a_batch_comes_back_once_it_has_run_its_time(files):
    """A batch stops after the word that uses up its time (the first word at least), so a slow
    word does not hold the finished ones back; what it returns does not depend on where it
    stopped."""
    from wordlebot.app.opener_sweep import SweepSpec, evaluate_batch

    spec = SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64)
    words = GUESSES[:6]
    whole = evaluate_batch(spec, words, 1e9)
    assert [w for w, *_ in whole] == words
    assert [(w, v, e) for w, v, e, _ in whole] == [(w, _naive_first_word_total(w), True) for w in words]
    cut = evaluate_batch(spec, words, 1e9, seconds=0.0)
    assert [(w, v, e) for w, v, e, _ in cut] == [(w, v, e) for w, v, e, _ in whole[:1]]


def test_words_known_to_beat_the_bound_are_searched_at_once_with_the_same_totals(files, monkeypatch):
    """A word named as beating the bound skips the refutation (which could only fail) and gets
    its exact total; a word named so wrongly (its total above the bound) still comes back as a
    bound, not exact; the other words are refuted as before.  Totals from the naive recursion."""
    import wordlebot.search.refutation as refutation
    from wordlebot.app.opener_sweep import SweepSpec, evaluate_batch

    spec = SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64)
    words = GUESSES[:8]
    truth = {w: _naive_first_word_total(w) for w in words}
    bound = sorted(truth.values())[3] + 0.5  # four words beat it, four do not
    refuted: list[int] = []
    real = refutation.value_against

    def counting(search, near, guess, bound, constraints=None):
        refuted.append(guess)
        return real(search, near, guess, bound, constraints)

    monkeypatch.setattr(refutation, "value_against", counting)
    plain = evaluate_batch(spec, words, bound)
    assert len(refuted) == len(words)
    below = [w for w in words if truth[w] < bound]
    above = [w for w in words if truth[w] > bound]
    refuted.clear()
    named = evaluate_batch(spec, words, bound, beating=[*below, above[0]])
    assert len(refuted) == len(words) - len(below) - 1
    for rows in (plain, named):
        for w, v, exact, _ in rows:
            assert exact == (truth[w] < bound), w
            assert v == truth[w] if exact else bound <= v <= truth[w], w


def test_only_a_normal_mode_seed_proves_a_word_beats_the_bound():
    """The seed's totals are real strategies' in normal mode (a word below the bound surely
    beats it), estimates in hard mode (they prove nothing), and a near-optimal sweep refutes
    nothing."""
    from wordlebot.app.opener_sweep import SweepSpec, beating_words

    upper = {"aaaaa": 100.0, "bbbbb": 101.0, "ccccc": 99.0}
    words = ["aaaaa", "bbbbb", "ccccc", "ddddd"]  # ddddd: not seeded
    assert beating_words(SweepSpec(k=None), words, upper, 100.5) == ["aaaaa", "ccccc"]
    assert beating_words(SweepSpec(k=None), words, upper, 100.0) == ["ccccc"]
    assert beating_words(SweepSpec(k=None, hard=True), words, upper, 100.5) == []
    assert beating_words(SweepSpec(k=12), words, upper, 100.5) == []


@pytest.mark.parametrize("hard", [False, True])
def test_a_sweep_sends_again_the_words_a_batch_did_not_reach(files, hard):
    """With no time for more than one word a batch, every batch of four comes back after its
    first word: the other three must go out again, each word is evaluated exactly once, and
    the sweep ends as a sweep of whole batches does (the naive totals of the best words)."""
    from naive import optimal_total

    import wordlebot.app.opener_sweep as ops

    keep = 3
    spec = ops.SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64, hard=hard)
    words = ops.first_word_order(spec)[:24]
    rows = []
    result = ops.sweep(spec, words, workers=1, keep=keep, batch=4, batch_seconds=0.0, on_batch=rows.extend)
    assert sorted(w for w, *_ in rows) == sorted(words)
    truth = {w: optimal_total(GUESSES, ANSWERS, hard=hard, first=w) for w in words}
    best = sorted((v, w) for w, v in truth.items())[:keep]
    assert sorted((v, w) for w, (v, e) in result.values.items() if e)[:keep] == best
    for w, (v, exact) in result.values.items():
        assert v == truth[w] if exact else best[-1][0] + 0.5 <= v <= truth[w], w


def test_a_journal_says_where_its_sweep_stands(tmp_path):
    from wordlebot.app.opener_journal import Journal
    from wordlebot.search.tree_search import INF

    journal = Journal.start(tmp_path / "j.csv", {"keep": 2, "max_guesses": 6}, resume=False)
    assert journal.state().describe() == "0 first words (0 exact)"
    journal.add(
        [
            ("xylyl", INF, False, 0.1),
            ("crane", 7926.0, True, 2.0),
            ("salet", 7920.0, True, 3.0),
            ("fuzzy", 7930.5, False, 0.2),
            ("trace", 7920.0, True, 2.5),
        ]
    )
    again = Journal.start(tmp_path / "j.csv", {"keep": 2, "max_guesses": 6}, resume=True)
    # ties go to the first word in alphabetical order, so the line is the same run after run
    assert again.state().describe() == (
        "5 first words (3 exact, best SALET 7920; 1 proven >= a bound; 1 cannot win within 6 guesses)"
    )


def test_a_word_evaluated_again_keeps_its_last_total_and_all_its_time(tmp_path):
    from wordlebot.app.opener_journal import Journal

    path = tmp_path / "j.csv"
    journal = Journal.start(path, {"keep": 1}, resume=False)
    journal.add([("salet", 7900.5, False, 1.5), ("crane", 7926.0, True, 2.0)])
    journal.add([("salet", 7920.0, True, 3.0)])
    for j in (journal, Journal.read(path)):
        assert j.rows == {"salet": (7920.0, True, 4.5), "crane": (7926.0, True, 2.0)}
    journal.finish("done")
    assert Journal.read(path).rows == {"salet": (7920.0, True, 4.5), "crane": (7926.0, True, 2.0)}


def test_an_opener_proof_journals_its_seed(files, tmp_path):
    """The seed's CPU time is the sweep's: journaled, kept through the final rewrite, counted."""
    from wordlebot.app.opener_journal import Journal

    proof = tmp_path / "proof.csv"
    assert run(["openers", "--exact", "--out", str(proof)] + files).exit_code == 0
    journal = Journal.read(proof)
    assert journal.complete and len(journal.seeds) == 1 and journal.seeds[0][0] == len(GUESSES)
    assert journal.cpu_seconds() == pytest.approx(sum(s for *_, s in journal.rows.values()) + journal.seeds[0][1])
    assert not proof.with_name("proof.csv.seed").exists()  # complete: the seed's totals are gone


def test_the_seeds_totals_are_kept_beside_the_journal_and_checked(tmp_path):
    from wordlebot.app.opener_journal import Journal
    from wordlebot.search.tree_search import INF

    path = tmp_path / "j.csv"
    journal = Journal.start(path, {"keep": 3, "hard": True}, resume=False)
    assert journal.estimates() == {}
    journal.keep_estimates({"salet": 11800.0, "xylyl": INF})
    assert Journal.start(path, {"keep": 3, "hard": True}, resume=True).estimates() == {"salet": 11800.0, "xylyl": INF}
    other = Journal.start(tmp_path / "k.csv", {"keep": 4, "hard": True}, resume=False)
    (tmp_path / "k.csv.seed").write_bytes(journal.seed_path.read_bytes())
    assert other.estimates() == {}  # another sweep's totals are not used
    for damaged in (
        b"",
        b'{"sweep": ',
        b"[1, 2]",
        b'{"sweep": {"keep": 3, "hard": true}, "estimates": 7}',
        b"\xff\xfe",
    ):
        journal.seed_path.write_bytes(damaged)
        assert journal.estimates() == {}, damaged  # derived data: computed again
    journal.keep_estimates({"salet": 11800.0})
    journal.finish("done")
    assert not journal.seed_path.exists()


@pytest.mark.parametrize("hard", [False, True])
def test_a_resumed_sweep_reuses_the_seeds_totals(files, hard):
    """The seed's totals of an earlier run are not computed again (only those missing are), and
    the sweep ends with the naive totals of the best words all the same."""
    from naive import optimal_total

    import wordlebot.app.opener_sweep as ops

    keep = 3
    spec = ops.SweepSpec(guesses=files[1], answers=files[3], k=None, memory_mb=64, hard=hard)
    words = ops.first_word_order(spec)[:24]
    kept, seeds = [], []
    first = ops.sweep(
        spec, words, workers=1, keep=keep, seed=12, on_estimates=kept.append, on_seed=lambda n, cpu: seeds.append(n)
    )
    assert seeds == [12] and len(kept) == 1 and sorted(kept[0]) == sorted(words[:12])
    best = sorted((optimal_total(GUESSES, ANSWERS, hard=hard, first=w), w) for w in words)[:keep]
    results = [first]
    for known, computed in ((kept[0], []), ({w: v for w, v in list(kept[0].items())[:5]}, [7])):
        seeds, again = [], []
        results.append(
            ops.sweep(
                spec,
                words,
                workers=1,
                keep=keep,
                seed=12,
                estimates=known,
                on_seed=lambda n, cpu: seeds.append(n),
                on_estimates=again.append,
            )
        )
        assert seeds == computed and (again == [] if not computed else again[0].keys() == kept[0].keys())
    for result in results:
        assert sorted((v, w) for w, (v, e) in result.values.items() if e)[:keep] == best
