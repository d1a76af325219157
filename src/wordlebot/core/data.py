"""The data folder: official word lists (fetched, pinned by sha256), the NYT answer history
(fetched, then kept current from the NYT daily endpoint), status, and atomic file writes.

Layout (the same as ``../shared/data``)::

    classic/answers.txt  classic/guesses.txt
    nyt/guesses.txt  nyt/answers-2309.txt  nyt/wordlebot-3158.txt
    history/answers.csv        date,puzzle,word   (puzzle = days since 2021-06-19)

Nothing here is imported by the hot paths; only the CLI and ``wordsets`` call it.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import re
import socket
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from . import clock
from .errors import DataError, HttpError, UnreachableError, WordlebotError

RAW_BASE = "https://raw.githubusercontent.com"
RAW_BASE_ENV = "WORDLEBOT_RAW_BASE"
NYT_BASE = "https://www.nytimes.com/svc/wordle/v2"
NYT_BASE_ENV = "WORDLEBOT_NYT_URL"
OFFLINE_ENV = "WORDLEBOT_OFFLINE"

FIRST_DAY = dt.date(2021, 6, 19)


def puzzle_day(puzzle: int) -> dt.date:
    """The day of an NYT puzzle number (puzzle 0 was FIRST_DAY); ``puzzle_number`` and
    ``HistoryEntry.puzzle`` go the other way."""
    return FIRST_DAY + dt.timedelta(days=puzzle)


def puzzle_number(day: dt.date) -> int:
    """The NYT puzzle number of a day (the inverse of ``puzzle_day``)."""
    return (day - FIRST_DAY).days


HISTORY_FILE = "history/answers.csv"
HISTORY_HEADER = ["date", "puzzle", "word"]

ALEX = "alex1770/wordle/8fd3f1bdf884ff6757c24ad1227dc561fab7787d"
USER_AGENT = "wordlebot/0.1 (+https://github.com/; word-list fetch)"

Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class RemoteFile:
    """One file of the data folder and the public place it comes from."""

    path: str  # relative to the data folder
    source: str  # owner/repo/commit/path under the raw host
    sha256: str | None  # pinned content; None for a living file validated by its structure
    words: int | None
    max_bytes: int
    licence: str

    def url(self, base: str) -> str:
        return f"{base.rstrip('/')}/{self.source}"


OFFICIAL: tuple[RemoteFile, ...] = (
    RemoteFile(
        "classic/answers.txt",
        f"{ALEX}/wordlist_orig_hidden",
        "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
        2315,
        1 << 20,
        "MIT",
    ),
    RemoteFile(
        "classic/guesses.txt",
        f"{ALEX}/wordlist_orig_all",
        "fb66d9b47e0dad70e7c6c886cf76a6f453af3aa75003dcfa129c8326938e7c66",
        12972,
        1 << 20,
        "MIT",
    ),
    RemoteFile(
        "nyt/guesses.txt",
        f"{ALEX}/wordlist_nyt20220830_all",
        "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320",
        14855,
        1 << 20,
        "MIT",
    ),
    RemoteFile(
        "nyt/answers-2309.txt",
        f"{ALEX}/wordlist_nyt20220830_hidden",
        "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32",
        2309,
        1 << 20,
        "MIT",
    ),
    RemoteFile(
        "nyt/wordlebot-3158.txt",
        f"{ALEX}/wordlist_nyt20230701_hidden",
        "3e443482b78dee0f6f8de4f74dbb67537db781524279b1d40ca3353c592b03ce",
        3158,
        1 << 20,
        "MIT",
    ),
)
# The history is a living file (one more word a day), so it is checked by structure, not a hash.
HISTORY_SOURCE = RemoteFile(
    HISTORY_FILE, "willray73-sys/wordle-words/main/public/used_dated.json", None, None, 8 << 20, "MIT"
)


def raw_host(base: str | None = None) -> str:
    """The host the lists are fetched from (``raw.githubusercontent.com`` unless told otherwise)."""
    from urllib.parse import urlsplit

    base = base or os.environ.get(RAW_BASE_ENV) or RAW_BASE
    return urlsplit(base).netloc or base


def offline() -> bool:
    return os.environ.get(OFFLINE_ENV, "") not in ("", "0")


# ---------------------------------------------------------------------------------------------
# Files


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _writable_hint(path: Path) -> str:
    """How to point wordlebot at a writable folder for ``path``: the cache and the data folder
    are chosen differently."""
    from .paths import CACHE_ENV, cache_dir

    try:
        in_cache = Path(path).resolve().is_relative_to(cache_dir().resolve())
    except OSError:
        in_cache = False
    if in_cache:
        return f"Set {CACHE_ENV} to a writable folder"
    return "Choose a writable folder with --data-dir"


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a mix:
    a temporary file in the same folder, fsync, then rename over the target."""
    atomic_write_parts(path, [data])


def atomic_write_parts(
    path: Path,
    parts: Iterable[bytes | memoryview],
    *,
    sync: bool = True,
    what: str = "",
    error: type[WordlebotError] = DataError,
) -> None:
    """``parts`` written one after another to ``path`` as one file that readers see whole or not
    at all: a temporary file in the same folder (so the rename cannot cross file systems), fsync
    unless ``sync`` is off, then rename over the target; on failure the temporary file is removed
    and ``error`` says which file (``what``: e.g. "the matrix cache ") and how to fix it."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # (the writer's pid in the name: a leftover of a killed writer is swept at once; cache_store)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise error(f"cannot write {what}in {path.parent}: {exc.strerror}. {_writable_hint(path)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            for part in parts:
                f.write(part)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise error(f"cannot write {what}{path}: {exc.strerror}") from None


def atomic_write_json(path: Path, doc: object, indent: int | None = None) -> None:
    """``atomic_write`` of a JSON document (one line unless ``indent``), newline-terminated."""
    atomic_write(Path(path), (json.dumps(doc, indent=indent) + "\n").encode())


# ---------------------------------------------------------------------------------------------
# Downloads


DOWNLOAD_DEADLINE = 300.0  # seconds a whole download may take (the lists: ~1 MB in all)
DAY_DEADLINE = 30.0  # seconds one day's answer may take to arrive (a reply of ~200 bytes)
UPDATE_DEADLINE = 600.0  # seconds one run of ``update_history`` may take (``wordlebot bot`` runs it on a timer)


def download(
    url: str,
    *,
    timeout: float = 20.0,
    max_bytes: int = 8 << 20,
    progress: Progress | None = None,
    deadline: float = DOWNLOAD_DEADLINE,
) -> bytes:
    """GET ``url`` and return the body; every failure is a ``DataError`` that says what happened.

    Checks: HTTP status, the size cap, and that the body is as long as Content-Length says
    (a dropped connection otherwise looks like a short but valid file).  ``timeout`` bounds
    each wait for a byte, ``deadline`` the whole download: a server that sends a byte a second
    would otherwise hold it for days under the size cap.
    """
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
    end = time.monotonic() + deadline
    try:
        with urllib.request.urlopen(req, timeout=min(timeout, max(deadline, 0.001))) as resp:
            total_hdr = resp.headers.get("Content-Length")
            total = int(total_hdr) if total_hdr and total_hdr.isdigit() else None
            if total is not None and total > max_bytes:
                raise DataError(f"{url}: {total:,} bytes is over the {max_bytes:,}-byte cap; refused")
            buf = io.BytesIO()
            while True:
                if time.monotonic() > end:
                    raise DataError(f"{url}: not finished within the {deadline:g}-second deadline; nothing stored")
                block = resp.read1(64 * 1024)  # (what has arrived: read() would wait for it all)
                if not block:
                    break
                buf.write(block)
                if buf.tell() > max_bytes:
                    raise DataError(f"{url}: more than the {max_bytes:,}-byte cap; refused")
                if progress:
                    progress(buf.tell(), total)
    except urllib.error.HTTPError as exc:
        raise HttpError(f"{url}: HTTP {exc.code} {exc.reason}", status=exc.code) from None
    except TimeoutError:
        raise DataError(f"{url}: no answer within {timeout:g} s (timed out)") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise DataError(f"{url}: no answer within {timeout:g} s (timed out)") from None
        raise UnreachableError(f"{url}: cannot connect ({reason})") from None
    except (ConnectionError, OSError) as exc:
        # http.client.IncompleteRead and resets arrive here mid-body.
        raise DataError(f"{url}: the connection broke during the download ({exc.__class__.__name__})") from None
    data = buf.getvalue()
    if total is not None and len(data) != total:
        raise DataError(f"{url}: truncated download ({len(data):,} of {total:,} bytes)")
    return data


# ---------------------------------------------------------------------------------------------
# History


@dataclass(frozen=True)
class HistoryEntry:
    date: dt.date
    word: str

    @property
    def puzzle(self) -> int:
        return (self.date - FIRST_DAY).days


_WORD = re.compile(r"[a-z]{5}")


def parse_history_csv(text: str, source: str = HISTORY_FILE) -> list[HistoryEntry]:
    """Read ``date,puzzle,word`` rows; dates must run day by day from the first row."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [c.strip() for c in rows[0]] != HISTORY_HEADER:
        raise DataError(f"{source}: the first line must be 'date,puzzle,word'")
    out: list[HistoryEntry] = []
    for lineno, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != 3:
            raise DataError(f"{source}, line {lineno}: expected date,puzzle,word; got {','.join(row)!r}")
        try:
            day = dt.date.fromisoformat(row[0].strip())
            puzzle = int(row[1])
        except ValueError:
            raise DataError(f"{source}, line {lineno}: bad date or puzzle number {','.join(row)!r}") from None
        word = row[2].strip()
        if not _WORD.fullmatch(word):
            raise DataError(f"{source}, line {lineno}: {word!r} is not a five-letter a-z word")
        entry = HistoryEntry(day, word)
        if puzzle != entry.puzzle:
            raise DataError(f"{source}, line {lineno}: puzzle {puzzle} does not match {day} (expected {entry.puzzle})")
        if out and day != out[-1].date + dt.timedelta(days=1):
            raise DataError(f"{source}, line {lineno}: {day} does not follow {out[-1].date}")
        out.append(entry)
    return out


def format_history_csv(entries: Iterable[HistoryEntry]) -> bytes:
    lines = [",".join(HISTORY_HEADER)]
    lines += [f"{e.date.isoformat()},{e.puzzle},{e.word}" for e in entries]
    return ("\n".join(lines) + "\n").encode("ascii")


def read_history(data_dir: Path) -> list[HistoryEntry]:
    path = Path(data_dir) / HISTORY_FILE
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read ({exc})") from None
    return parse_history_csv(text, str(path))


def history_from_feed_json(data: bytes, source: str) -> list[HistoryEntry]:
    """Convert the public collection's ``used_dated.json`` ({"results": [{date, word}, …]}).

    Its own numbering is not trusted (it has been wrong in places); the puzzle number is derived
    from the date.  Gaps or disorder are refused rather than silently stored.
    """
    try:
        doc = json.loads(data)
        results = doc["results"] if isinstance(doc, dict) else doc
        pairs = [(dt.date.fromisoformat(r["date"]), str(r["word"]).strip().lower()) for r in results]
    except (ValueError, KeyError, TypeError):
        raise DataError(f"{source}: not the expected JSON (a list of {{date, word}})") from None
    pairs.sort()
    out: list[HistoryEntry] = []
    for day, word in pairs:
        if not _WORD.fullmatch(word):
            raise DataError(f"{source}: {day}: {word!r} is not a five-letter word")
        if out and day == out[-1].date:
            continue
        if out and day != out[-1].date + dt.timedelta(days=1):
            raise DataError(f"{source}: the days jump from {out[-1].date} to {day}")
        out.append(HistoryEntry(day, word))
    if not out or out[0].date != FIRST_DAY:
        raise DataError(f"{source}: the history must start on {FIRST_DAY}")
    return out


def shown_entry(entry: HistoryEntry, today: dt.date | None = None) -> str:
    """A history line to print: the word only for a day before ``today`` (default: the real
    today), never for a day that may not have been played yet."""
    today = today or clock.today()
    word = (
        entry.word.upper()
        if entry.date < today
        else "stored (the word is not shown: that day may not have been played yet)"
    )
    return f"{entry.date}  #{entry.puzzle}  {word}"


@dataclass
class UpdateReport:
    added: list[HistoryEntry]
    last: dt.date
    stopped: str  # why the loop ended, in words: "up to date", or the problem met
    # the same as a value: "up to date", "not published" (the next day is not out yet) or "failed"
    reason: str = "up to date"

    @property
    def ok(self) -> bool:
        """Every day that is out has been stored (a day not published yet is no problem)."""
        return self.reason != "failed"


def nyt_solution(base: str, day: dt.date, timeout: float, deadline: float = DAY_DEADLINE) -> str | None:
    """The answer of ``day`` from the NYT endpoint; None when the day is not published (404)."""
    url = f"{base.rstrip('/')}/{day.isoformat()}.json"
    try:
        body = download(url, timeout=timeout, max_bytes=256 * 1024, deadline=deadline)
    except HttpError as exc:
        if exc.status == 404:
            return None
        raise
    try:
        doc = json.loads(body)
        word = str(doc["solution"]).strip().lower()
        printed = doc.get("print_date")
    except (ValueError, KeyError, TypeError):
        raise DataError(f"{url}: malformed reply (no JSON object with a 'solution'); nothing stored") from None
    if not _WORD.fullmatch(word):
        raise DataError(f"{url}: malformed reply: solution {word!r} is not a five-letter word; nothing stored")
    if printed is not None and printed != day.isoformat():
        raise DataError(f"{url}: reply is for {printed!r}, not {day}; nothing stored")
    return word


def update_history(
    data_dir: Path,
    *,
    base: str | None = None,
    until: dt.date | None = None,
    delay: float = 1.0,
    timeout: float = 15.0,
    on_day: Callable[[HistoryEntry], None] | None = None,
    deadline: float = UPDATE_DEADLINE,
) -> UpdateReport:
    """Add the missing days up to ``until`` (default yesterday: today's answer is for today's
    players to find) from the NYT daily endpoint, after the history ``fetch`` downloaded (a
    ``DataError`` says to fetch it first when there is none).

    Each day is saved as soon as it arrives (atomic rewrite of the CSV), so an interrupted run
    resumes where it stopped.  Requests are spaced ``delay`` seconds apart; the run ends after
    ``deadline`` seconds (each day's download within ``DAY_DEADLINE`` and the time left), the
    days stored so far kept.
    """
    end = time.monotonic() + deadline
    base = base or os.environ.get(NYT_BASE_ENV) or NYT_BASE
    until = until or clock.today() - dt.timedelta(days=1)
    path = Path(data_dir) / HISTORY_FILE
    entries = read_history(data_dir)
    if not entries:
        # From the first day that would be 1,800 requests, one a second: the history file of
        # 'data fetch' is one download, and this then adds the days since.
        raise DataError(
            f"there is no answer history in {data_dir} yet: run 'wordlebot data fetch' first "
            "(one download), then 'wordlebot data update' adds the days since"
        )
    day = entries[-1].date + dt.timedelta(days=1)
    added: list[HistoryEntry] = []
    first = True
    while day <= until:
        if not first and delay > 0:
            time.sleep(delay)
        first = False
        left = end - time.monotonic()
        if left <= 0:
            stopped = f"stopped at {day}: the update's {deadline:g}-second deadline passed; run it again to continue"
            return UpdateReport(added, entries[-1].date, stopped, reason="failed")
        try:
            word = nyt_solution(base, day, timeout, deadline=min(DAY_DEADLINE, left))
        except DataError as exc:
            return UpdateReport(added, entries[-1].date, str(exc), reason="failed")
        if word is None:
            return UpdateReport(added, entries[-1].date, f"{day} is not published yet", reason="not published")
        entry = HistoryEntry(day, word)
        entries.append(entry)
        atomic_write(path, format_history_csv(entries))
        added.append(entry)
        if on_day:
            on_day(entry)
        day += dt.timedelta(days=1)
    return UpdateReport(added, entries[-1].date, "up to date")


# ---------------------------------------------------------------------------------------------
# Fetch and status


@dataclass
class FetchResult:
    path: str
    ok: bool
    message: str
    unreachable: bool = False  # failed (or not tried) because the host could not be reached


def _check_word_file(rf: RemoteFile, data: bytes) -> str | None:
    """Why ``data`` is not the pinned file, or None when it is."""
    digest = hashlib.sha256(data).hexdigest()
    if rf.sha256 and digest != rf.sha256:
        return f"checksum mismatch (got sha256 {digest[:12]}…, expected {rf.sha256[:12]}…)"
    return None


def fetch(
    data_dir: Path,
    *,
    base: str | None = None,
    timeout: float = 20.0,
    force: bool = False,
    include_history: bool = True,
    progress_factory: Callable[[str], Progress] | None = None,
    files: tuple[RemoteFile, ...] = OFFICIAL,
    history_source: RemoteFile = HISTORY_SOURCE,
) -> list[FetchResult]:
    """Download the official lists into ``data_dir``; a file already present with the right
    checksum is kept unless ``force``.  A failed or mismatching download leaves the old file as
    it was and is reported in the result."""
    base = base or os.environ.get(RAW_BASE_ENV) or RAW_BASE
    data_dir = Path(data_dir)
    results: list[FetchResult] = []
    unreachable: str | None = None
    for rf in files:
        target = data_dir / rf.path
        if not force and target.exists() and rf.sha256 and sha256_file(target) == rf.sha256:
            results.append(FetchResult(rf.path, True, "already present, checksum verified"))
            continue
        if unreachable:
            results.append(FetchResult(rf.path, False, f"not tried: {unreachable} is unreachable", True))
            continue
        progress = progress_factory(rf.path) if progress_factory else None
        try:
            body = download(rf.url(base), timeout=timeout, max_bytes=rf.max_bytes, progress=progress)
            problem = _check_word_file(rf, body)
            if problem:
                raise DataError(f"{rf.url(base)}: {problem}")
            atomic_write(target, body)
            results.append(FetchResult(rf.path, True, f"downloaded, {len(body):,} bytes, sha256 verified"))
        except DataError as exc:
            if isinstance(exc, UnreachableError):
                unreachable = base
            kept = "the old file is kept" if target.exists() else "nothing was written"
            results.append(FetchResult(rf.path, False, f"{exc}; {kept}", isinstance(exc, UnreachableError)))
    if include_history and unreachable:
        results.append(FetchResult(history_source.path, False, f"not tried: {unreachable} is unreachable", True))
    elif include_history:
        results.append(_fetch_history(data_dir, history_source, base, timeout, progress_factory))
    return results


def _fetch_history(
    data_dir: Path, rf: RemoteFile, base: str, timeout: float, progress_factory: Callable[[str], Progress] | None
) -> FetchResult:
    target = data_dir / rf.path
    progress = progress_factory(rf.path) if progress_factory else None
    try:
        body = download(rf.url(base), timeout=timeout, max_bytes=rf.max_bytes, progress=progress)
        fetched = history_from_feed_json(body, rf.url(base))
        current = read_history(data_dir)
        if len(current) >= len(fetched):
            return FetchResult(rf.path, True, f"kept the local history ({len(current)} days, not older)")
        # The local file may be newer in places (data update); keep its days, append the rest.
        if current and fetched[: len(current)] != current:
            mismatch = next(i for i, (a, b) in enumerate(zip(current, fetched)) if a != b)
            raise DataError(f"the downloaded history disagrees with the local one on {current[mismatch].date}")
        atomic_write(target, format_history_csv(fetched))
        return FetchResult(rf.path, True, f"downloaded, {len(fetched)} days up to {fetched[-1].date}")
    except DataError as exc:
        kept = "the old file is kept" if target.exists() else "nothing was written"
        return FetchResult(rf.path, False, f"{exc}; {kept}", isinstance(exc, UnreachableError))


@dataclass
class FileStatus:
    path: str
    present: bool
    detail: str
    ok: bool


def status(data_dir: Path, today: dt.date | None = None) -> list[FileStatus]:
    data_dir = Path(data_dir)
    today = today or clock.today()
    out: list[FileStatus] = []
    for rf in OFFICIAL:
        p = data_dir / rf.path
        if not p.exists():
            out.append(FileStatus(rf.path, False, "missing (wordlebot data fetch)", False))
            continue
        digest = sha256_file(p)
        age = _age(p)
        if digest == rf.sha256:
            out.append(FileStatus(rf.path, True, f"{rf.words:,} words, sha256 ok, {age}", True))
        else:
            out.append(FileStatus(rf.path, True, f"sha256 {digest[:12]}… differs from the pinned list, {age}", False))
    hp = data_dir / HISTORY_FILE
    if not hp.exists():
        out.append(FileStatus(HISTORY_FILE, False, "missing (wordlebot data fetch)", False))
    else:
        try:
            hist = read_history(data_dir)
        except DataError as exc:
            out.append(FileStatus(HISTORY_FILE, True, f"unreadable: {exc}", False))
        else:
            if hist:
                behind = (today - hist[-1].date).days - 1  # today's answer is not expected yet
                detail = (
                    f"{len(hist):,} days, {hist[0].date} … {hist[-1].date} "
                    f"({behind} day{'s' if behind != 1 else ''} behind; wordlebot data update)"
                    if behind > 0
                    else f"{len(hist):,} days, up to date ({hist[-1].date})"
                )
                out.append(FileStatus(HISTORY_FILE, True, detail, behind <= 7))
            else:
                out.append(FileStatus(HISTORY_FILE, True, "empty", False))
    return out


def _age(path: Path) -> str:
    days = round((time.time() - path.stat().st_mtime) / 86400)
    return "written today" if days == 0 else f"written {days} day{'s' if days != 1 else ''} ago"


def have_official(data_dir: Path, files: Iterable[str]) -> bool:
    return all((Path(data_dir) / f).is_file() for f in files)
