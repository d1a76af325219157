import datetime as dt
import hashlib
import json

import pytest

from wordlebot.core import clock, data
from wordlebot.core.data import HistoryEntry, RemoteFile
from wordlebot.core.errors import DataError
from wordlebot.core.words import Fallback

WORDS = b"crane\nslate\ntrace\n"


def _registry(content: bytes = WORDS):
    return (
        RemoteFile("mini/words.txt", "owner/repo/abc123/words", hashlib.sha256(content).hexdigest(), 3, 1 << 16, "MIT"),
    )


def _fetch(folder, host, **kw):
    return data.fetch(folder, base=host.url, timeout=2.0, include_history=False, files=_registry(), **kw)


def test_good_download_is_verified_and_written(tmp_path, fake_host):
    fake_host.routes["/owner/repo/abc123/words"] = (200, WORDS, {})
    seen = []
    res = _fetch(tmp_path, fake_host, progress_factory=lambda name: lambda done, total: seen.append((done, total)))
    assert [r.ok for r in res] == [True]
    assert (tmp_path / "mini/words.txt").read_bytes() == WORDS
    assert seen and seen[-1] == (len(WORDS), len(WORDS))
    # present and verified: not downloaded again
    fake_host.requests.clear()
    res = _fetch(tmp_path, fake_host)
    assert res[0].ok and "already present" in res[0].message and fake_host.requests == []


@pytest.mark.parametrize(
    "route,fragment",
    [
        ((200, b"crane\nslate\nTRACE\n", {}), "checksum mismatch"),
        ((200, WORDS[:8], {"length": len(WORDS)}), "truncated download"),
        ((404, b"nope", {}), "HTTP 404"),
        ((200, WORDS, {"delay": 3}), "timed out"),
        ((200, b"x" * (1 << 17), {}), "cap"),
    ],
)
def test_broken_download_keeps_the_old_file(tmp_path, fake_host, route, fragment):
    old = b"old contents\n"
    target = tmp_path / "mini/words.txt"
    target.parent.mkdir(parents=True)
    target.write_bytes(old)
    fake_host.routes["/owner/repo/abc123/words"] = route
    res = data.fetch(tmp_path, base=fake_host.url, timeout=0.5, include_history=False, files=_registry(), force=True)
    assert not res[0].ok
    assert fragment in res[0].message and "the old file is kept" in res[0].message
    assert target.read_bytes() == old
    assert sorted(p.name for p in target.parent.iterdir()) == ["words.txt"]  # no temp file left


def test_unreachable_host_says_so(tmp_path):
    res = data.fetch(tmp_path, base="http://127.0.0.1:9", timeout=1.0, include_history=False, files=_registry())
    assert not res[0].ok and "cannot connect" in res[0].message and "nothing was written" in res[0].message


def _feed(days: int, start=data.FIRST_DAY):
    words = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]
    return {
        "results": [
            {"date": (start + dt.timedelta(d)).isoformat(), "number": 999, "word": words[d % 8]} for d in range(days)
        ]
    }


def test_history_fetch_converts_the_public_feed(tmp_path, fake_host):
    src = RemoteFile("history/answers.csv", "u/r/main/used.json", None, None, 1 << 20, "MIT")
    fake_host.routes["/u/r/main/used.json"] = (200, json.dumps(_feed(5)).encode(), {})
    res = data.fetch(tmp_path, base=fake_host.url, files=(), history_source=src)
    assert res[-1].ok, res[-1].message
    text = (tmp_path / "history/answers.csv").read_text()
    assert text.splitlines()[:3] == ["date,puzzle,word", "2021-06-19,0,cigar", "2021-06-20,1,rebut"]
    # a feed with a gap is refused and nothing changes
    feed = _feed(8)
    del feed["results"][6]
    fake_host.routes["/u/r/main/used.json"] = (200, json.dumps(feed).encode(), {})
    res = data.fetch(tmp_path, base=fake_host.url, files=(), history_source=src)
    assert not res[-1].ok and "jump" in res[-1].message
    assert (tmp_path / "history/answers.csv").read_text() == text


def _nyt(day: dt.date, word: str) -> bytes:
    return json.dumps(
        {"id": 1, "solution": word, "print_date": day.isoformat(), "days_since_launch": 1, "editor": "x"}
    ).encode()


def _seed_history(folder, days=3):
    entries = [
        HistoryEntry(data.FIRST_DAY + dt.timedelta(d), w) for d, w in enumerate(["cigar", "rebut", "sissy"][:days])
    ]
    data.atomic_write(folder / data.HISTORY_FILE, data.format_history_csv(entries))
    return entries


def test_update_adds_days_and_resumes_after_a_malformed_reply(tmp_path, fake_host):
    _seed_history(tmp_path)
    d3, d4, d5 = (data.FIRST_DAY + dt.timedelta(k) for k in (3, 4, 5))
    fake_host.routes[f"/{d3}.json"] = (200, _nyt(d3, "humph"), {})
    fake_host.routes[f"/{d4}.json"] = (200, b"{not json", {})
    rep = data.update_history(tmp_path, base=fake_host.url, until=d5, delay=0)
    assert [e.word for e in rep.added] == ["humph"]
    assert "malformed reply" in rep.stopped and str(d4) in rep.stopped
    assert data.read_history(tmp_path)[-1] == HistoryEntry(d3, "humph")
    # the endpoint recovers: the next run continues from where it stopped
    fake_host.routes[f"/{d4}.json"] = (200, _nyt(d4, "awake"), {})
    fake_host.routes[f"/{d5}.json"] = (200, _nyt(d5, "blush"), {})
    fake_host.requests.clear()
    rep = data.update_history(tmp_path, base=fake_host.url, until=d5, delay=0)
    assert [e.word for e in rep.added] == ["awake", "blush"] and rep.stopped == "up to date"
    assert fake_host.requests == [f"/{d4}.json", f"/{d5}.json"]
    assert [e.puzzle for e in data.read_history(tmp_path)] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "body,fragment",
    [
        (b'{"print_date": "2021-06-22"}', "malformed reply"),
        (b'{"solution": "toolong", "print_date": "2021-06-22"}', "not a five-letter word"),
        (b'{"solution": "humph", "print_date": "2021-06-23"}', "not 2021-06-22"),
        (b"[1, 2]", "malformed reply"),
    ],
)
def test_update_refuses_bad_replies(tmp_path, fake_host, body, fragment):
    _seed_history(tmp_path)
    before = (tmp_path / data.HISTORY_FILE).read_bytes()
    fake_host.routes["/2021-06-22.json"] = (200, body, {})
    rep = data.update_history(tmp_path, base=fake_host.url, until=dt.date(2021, 6, 22), delay=0)
    assert rep.added == [] and fragment in rep.stopped
    assert (tmp_path / data.HISTORY_FILE).read_bytes() == before


def test_update_stops_quietly_at_an_unpublished_day(tmp_path, fake_host):
    _seed_history(tmp_path)
    rep = data.update_history(tmp_path, base=fake_host.url, until=dt.date(2021, 6, 25), delay=0)
    assert rep.added == [] and "not published yet" in rep.stopped


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("date,word\n", "first line"),
        ("date,puzzle,word\n2021-06-19,0,cigar\n2021-06-21,2,rebut\n", "does not follow"),
        ("date,puzzle,word\n2021-06-19,5,cigar\n", "does not match"),
        ("date,puzzle,word\n2021-06-19,0,CIGAR\n", "five-letter"),
    ],
)
def test_history_file_is_validated(text, fragment):
    with pytest.raises(DataError, match=fragment):
        data.parse_history_csv(text)


def test_status_reports_missing_and_stale(tmp_path):
    _seed_history(tmp_path)
    rows = {s.path: s for s in data.status(tmp_path, today=dt.date(2021, 7, 1))}
    assert not rows["classic/answers.txt"].present and "data fetch" in rows["classic/answers.txt"].detail
    hist = rows[data.HISTORY_FILE]
    # 2021-06-22 … 2021-06-30 are missing; the answer of the day itself is not expected yet
    assert hist.present and not hist.ok and "9 days behind" in hist.detail
    rows = {s.path: s for s in data.status(tmp_path, today=dt.date(2021, 6, 22))}
    assert rows[data.HISTORY_FILE].ok and "up to date (2021-06-21)" in rows[data.HISTORY_FILE].detail


def test_status_of_the_official_folder(official):
    rows = data.status(official, today=dt.date(2026, 6, 1))
    assert all(r.ok for r in rows), [r for r in rows if not r.ok]


def test_genuine_pins_fetch_from_a_mirror(tmp_path, fake_host, official):
    """The real registry, served by a local mirror of the official files: every sha256 matches."""
    for rf in data.OFFICIAL:
        fake_host.routes["/" + rf.source] = (200, (official / rf.path).read_bytes(), {})
    res = data.fetch(tmp_path, base=fake_host.url, include_history=False)
    assert all(r.ok for r in res), res
    assert {s.path for s in data.status(tmp_path) if s.ok} >= {rf.path for rf in data.OFFICIAL}


def test_atomic_write_to_unwritable_place_is_explained(tmp_path):
    blocker = tmp_path / "f"
    blocker.write_text("x")
    with pytest.raises(DataError, match="--data-dir"):
        data.atomic_write(blocker / "sub" / "x.txt", b"data")


def test_unreachable_host_is_tried_once(tmp_path):
    two = _registry() + (RemoteFile("mini/b.txt", "owner/repo/abc123/b", "0" * 64, 3, 1 << 16, "MIT"),)
    res = data.fetch(tmp_path, base="http://127.0.0.1:9", timeout=1.0, files=two)
    assert "cannot connect" in res[0].message
    assert all("not tried: http://127.0.0.1:9 is unreachable" in r.message for r in res[1:])
    assert len(res) == 3  # the history too


def test_first_run_fetches_the_lists_itself(tmp_path, fake_host, official, monkeypatch):
    """A command that needs the official lists and finds none fetches them (network allowing)."""
    from wordlebot.app.wordsets import is_progress, load_lexicon

    for rf in data.OFFICIAL:
        fake_host.routes["/" + rf.source] = (200, (official / rf.path).read_bytes(), {})
    monkeypatch.delenv("WORDLEBOT_OFFLINE")
    monkeypatch.setenv("WORDLEBOT_RAW_BASE", fake_host.url)
    notes = []
    lex = load_lexicon("classic", data_dir=tmp_path / "new", notify=notes.append)
    assert lex.official and lex.n_answers == 2315
    assert notes[0].startswith("Fetching the official word lists") and is_progress(notes[0])
    assert (tmp_path / "new/classic/answers.txt").is_file() and lex.fallback is None


def test_offline_first_run_falls_back_with_instructions(tmp_path):
    from wordlebot.app.wordsets import load_lexicon

    notes = []
    lex = load_lexicon("nyt", data_dir=tmp_path / "none", notify=notes.append)
    assert not lex.official and lex.name == "wordfreq-5"
    assert any("wordlebot data fetch" in n for n in notes)


def test_a_fallback_list_says_why_in_one_line(tmp_path, fake_host, monkeypatch):
    """Issue 39: offline, the TUI said "fetching them now (one time)" for the whole session.  The
    fallback lexicon carries why (unreachable, a failed download, not fetched) and the line a
    screen keeps in view: what list, why, the one command that fixes it, in 76 columns."""
    from wordlebot.app.wordsets import is_progress, load_lexicon

    monkeypatch.delenv("WORDLEBOT_OFFLINE")  # the fixture's 127.0.0.1:9 refuses at once
    notes = []
    lex = load_lexicon("nyt", data_dir=tmp_path / "none", notify=notes.append)
    assert lex.fallback.reason == "offline" and lex.fallback.wanted == "nyt"
    assert lex.fallback.line == "wordfreq list, not the official one (offline): run wordlebot data fetch"
    assert [n for n in notes if not is_progress(n)] == [lex.fallback.message]
    assert lex.fallback.message == (
        f"Using a word list built from wordfreq, NOT the official nyt lists (none in {tmp_path / 'none'}; "
        "cannot reach 127.0.0.1:9). Get them with: wordlebot data fetch (or point --data-dir / "
        "WORDLEBOT_DATA at a folder that has them)."
    )
    # the host answers, but not with the lists
    monkeypatch.setenv("WORDLEBOT_RAW_BASE", fake_host.url)
    lex = load_lexicon("classic", data_dir=tmp_path / "none", notify=notes.append)
    assert lex.fallback.reason == "fetch failed" and "HTTP 404" in lex.fallback.message
    assert lex.fallback.line == "wordfreq list, not the official one (fetch failed): run wordlebot data fetch"
    # not asked to fetch (the settings dialog), or told to stay offline
    assert load_lexicon("classic", data_dir=tmp_path / "none", auto_fetch=False).fallback.reason == "not fetched"
    monkeypatch.setenv("WORDLEBOT_OFFLINE", "1")
    lex = load_lexicon("classic", data_dir=tmp_path / "none", notify=notes.append)
    assert lex.fallback.reason == "offline" and "$WORDLEBOT_OFFLINE is set" in lex.fallback.message
    for reason in ("offline", "fetch failed", "not fetched"):
        assert len(Fallback("nyt", reason, "").line) <= 76
    # the lists asked for by name, or another length, are no fallback
    assert load_lexicon("wordfreq").fallback is None and load_lexicon("nyt", length=6).fallback is None


def test_update_stops_at_yesterday_and_never_shows_an_unplayed_answer(tmp_path, fake_host):
    """A morning 'data update' must not spoil the day: by default it stops at yesterday; asked
    for today (or later) it stores the answer without printing the word."""
    from click.testing import CliRunner

    from wordlebot.cli import cli

    today = clock.today()
    entries = [HistoryEntry(today - dt.timedelta(days=k), w) for k, w in ((4, "cigar"), (3, "rebut"), (2, "sissy"))]
    data.atomic_write(tmp_path / data.HISTORY_FILE, data.format_history_csv(entries))
    for k, word in ((-1, "humph"), (0, "awake"), (1, "blush")):
        day = today + dt.timedelta(days=k)
        fake_host.routes[f"/{day}.json"] = (200, _nyt(day, word), {})
    args = ["--data-dir", str(tmp_path), "data", "update", "--endpoint", fake_host.url, "--delay", "0"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    yesterday = today - dt.timedelta(days=1)
    assert fake_host.requests == [f"/{yesterday}.json"]
    assert f"{yesterday}  #{(yesterday - data.FIRST_DAY).days}  HUMPH" in r.output and "up to date" in r.output
    assert data.read_history(tmp_path)[-1] == HistoryEntry(yesterday, "humph")
    r = CliRunner().invoke(cli, args + ["--until", (today + dt.timedelta(days=1)).isoformat()])
    assert r.exit_code == 0, r.output
    assert "AWAKE" not in r.output and "BLUSH" not in r.output
    assert r.output.count("stored (the word is not shown: that day may not have been played yet)") == 2
    assert [e.word for e in data.read_history(tmp_path)[-2:]] == ["awake", "blush"]
    # the library's default is yesterday too
    assert data.update_history(tmp_path, base=fake_host.url, delay=0).added == []


def test_an_unwritable_folder_names_the_right_fix(tmp_path, monkeypatch):
    """A cache file that cannot be written points at WORDLEBOT_CACHE, a data file at --data-dir
    (a file where a folder should be: refused even to root)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(blocker))
    with pytest.raises(data.DataError, match="Set WORDLEBOT_CACHE to a writable folder"):
        data.atomic_write(blocker / "matrix.bin", b"x")
    other = tmp_path / "also-not-a-folder"
    other.write_text("")
    with pytest.raises(data.DataError, match="with --data-dir"):
        data.atomic_write(other / "history.csv", b"x")


def test_a_download_has_an_overall_deadline(fake_host):
    """Issue 41: a server sending a byte a second held a download under the size cap for hours
    (each byte came within the per-read timeout)."""
    fake_host.routes["/slow.txt"] = (200, b"x" * 100, {"trickle": 0.1})
    with pytest.raises(DataError, match="not finished within the 1-second deadline"):
        data.download(fake_host.url + "/slow.txt", timeout=5, deadline=1)
    fake_host.routes["/fast.txt"] = (200, b"x" * 100, {})
    assert data.download(fake_host.url + "/fast.txt", timeout=5, deadline=1) == b"x" * 100


def test_an_update_run_has_an_overall_deadline(tmp_path, fake_host):
    """A trickling day ends the run at its deadline, the days before it stored."""
    _seed_history(tmp_path)
    d3, d4 = (data.FIRST_DAY + dt.timedelta(k) for k in (3, 4))
    fake_host.routes[f"/{d3}.json"] = (200, _nyt(d3, "humph"), {})
    fake_host.routes[f"/{d4}.json"] = (200, _nyt(d4, "awake"), {"trickle": 0.1})
    rep = data.update_history(tmp_path, base=fake_host.url, until=d4, delay=0, deadline=1)
    assert [e.word for e in rep.added] == ["humph"] and not rep.ok
    assert "deadline" in rep.stopped and str(d4) in rep.stopped
    assert data.read_history(tmp_path)[-1] == HistoryEntry(d3, "humph")
