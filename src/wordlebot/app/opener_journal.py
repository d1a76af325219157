"""The journal of an opener sweep: a CSV that grows as results arrive, so that a sweep of hours
(an opener proof on the 14,855 NYT words) can stop at any moment and go on later with
``wordlebot openers --resume``.

    # wordlebot openers journal 1
    # sweep: {"guesses": "…", "answers": "…", "hard": false, "max_guesses": 6, "search": "exact", "keep": 1, "margin": 0.5}
    word,total,exact,seconds
    salet,7920,1,2.41
    xylyl,7984,0,0.03
    # seed: 200 words, 28.490 CPU-s
    # complete: 12972 first words, best salet 7920

A row is written once a word is evaluated: ``exact`` 1 is the word's total, 0 a proof that the
total is at least that value (the bound the word was refuted against, or more); ``inf``: the
word cannot win within the guess cap (hard mode).  A refutation against a proven bound is final
(bounds only fall as a sweep goes on, so it stays valid after a resume); one against a hard-mode
sweep's provisional bound (see opener_sweep) is final only if that bound proves high enough,
else the word is evaluated again and has a second row: the last one counts, and its seconds are
the sum of both.  A seed line records the CPU time of a run's seed (see opener_sweep), and the
seed's totals are kept beside the journal (``F.csv.seed``, JSON, for the same sweep line) so that
a resumed sweep does not compute them again: derived data, ignored when missing, damaged or of
another sweep, and removed when the sweep completes.  Rows are
appended whole and synced batch by batch; a row cut short by a crash is dropped when the journal
is read again.  The sweep line names what the rows depend on: resuming with other lists, rules,
search or ``keep`` is refused (their rows would not hold).  When the sweep completes, the file is
rewritten (atomically): the exact totals best first, then the bounded words, and a ``complete``
line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import WordlebotError
from ..search.kernels import INF

MAGIC = "# wordlebot openers journal 1"
COLUMNS = "word,total,exact,seconds"


class JournalError(WordlebotError, ValueError):
    """A journal that cannot be resumed (another sweep's, or not a journal at all)."""


@dataclass(frozen=True)
class JournalState:
    """Where a journaled sweep stands: what ``--resume`` starts from, and what a stop kept (a
    proof runs for hours in the background, so both are said in words, not only drawn in a
    progress bar that a log does not show)."""

    words: int
    exact: int  # words with their exact total
    bounded: int  # words proven to need at least a bound
    failing: int  # words that cannot win within the guess cap
    best: tuple[str, float] | None
    max_guesses: int

    def describe(self) -> str:
        parts = [f"{self.exact:,} exact" + (f", best {self.best[0].upper()} {self.best[1]:g}" if self.best else "")]
        if self.bounded:
            parts.append(f"{self.bounded:,} proven >= a bound")
        if self.failing:
            parts.append(f"{self.failing:,} cannot win within {self.max_guesses} guesses")
        return f"{self.words:,} first words ({'; '.join(parts)})"


@dataclass
class Journal:
    path: Path
    sweep: dict[str, Any]  # what the rows depend on (lists, rules, search, keep, margin)
    rows: dict[str, tuple[float, bool, float]] = field(default_factory=dict)  # word -> (total, exact, seconds)
    complete: bool = False
    seeds: list[tuple[int, float]] = field(default_factory=list)  # each run's seed: (words, CPU-s)

    @classmethod
    def start(cls, path: Path, sweep: dict[str, Any], *, resume: bool) -> Journal:
        """A new journal at ``path``, or (``resume``) the one there, checked against ``sweep``.
        Never overwrites a journal it was not asked to resume."""
        path = Path(path)
        if not resume:
            if path.exists():
                raise JournalError(f"{path} exists: add --resume to go on with its sweep, or give another --out")
            journal = cls(path, dict(sweep))
            journal._write_all()
            return journal
        if not path.exists():
            raise JournalError(f"there is no journal to resume at {path}; run without --resume to start one")
        journal = cls.read(path)
        if journal.sweep != sweep:
            diff = ", ".join(
                f"{k} {journal.sweep.get(k)!r} there, {sweep.get(k)!r} now"
                for k in sorted(set(sweep) | set(journal.sweep))
                if journal.sweep.get(k) != sweep.get(k)
            )
            raise JournalError(
                f"{path} is the journal of another sweep ({diff}); resume it with the same "
                "options, or give another --out"
            )
        return journal

    @classmethod
    def read(cls, path: Path) -> Journal:
        raw = Path(path).read_bytes()
        if raw and not raw.endswith(b"\n"):  # a row cut short by a crash: dropped, and cut off the file
            raw = raw[: raw.rfind(b"\n") + 1]
            with open(path, "r+b") as f:
                f.truncate(len(raw))
        try:
            lines = raw.decode().splitlines()
        except UnicodeDecodeError:
            raise JournalError(f"{path} is not an openers journal (not text)") from None
        if not lines or lines[0] != MAGIC:
            raise JournalError(f"{path} is not an openers journal (its first line is not {MAGIC!r})")
        sweep = None
        journal = cls(Path(path), {})
        for n, line in enumerate(lines[1:], start=2):
            if line.startswith("# sweep: "):
                try:
                    sweep = json.loads(line[len("# sweep: ") :])
                except ValueError:
                    raise JournalError(f"{path}, line {n}: the sweep line is damaged") from None
            elif line.startswith("# complete"):
                journal.complete = True
            elif line.startswith("# seed: "):
                try:
                    n_words, secs = line[len("# seed: ") :].split(",")
                    journal.seeds.append((int(n_words.split()[0]), float(secs.split()[0])))
                except (ValueError, IndexError):
                    raise JournalError(f"{path}, line {n}: the seed line is damaged") from None
            elif line.startswith("#") or line == COLUMNS or not line:
                continue
            else:
                try:
                    word, total, exact, seconds = line.split(",")
                    journal._set(word, float(total), exact == "1", float(seconds))
                except ValueError:
                    raise JournalError(f"{path}, line {n}: {line!r} is not a row ({COLUMNS})") from None
        if not isinstance(sweep, dict):
            raise JournalError(f"{path} has no sweep line")
        journal.sweep = sweep
        return journal

    def add(self, rows: list[tuple[str, float, bool, float]]) -> None:
        """Append rows (word, total, exact, seconds), whole, and sync them to disk."""
        for word, total, exact, seconds in rows:
            self._set(word, total, exact, seconds)
        text = "".join(_row(w, t, e, s) for w, t, e, s in rows)
        with open(self.path, "a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    def _set(self, word: str, total: float, exact: bool, seconds: float) -> None:
        # a word evaluated again (see the module's text): its last result, all of its time
        earlier = self.rows.get(word)
        self.rows[word] = (total, exact, seconds + (earlier[2] if earlier else 0.0))

    def add_seed(self, n_words: int, seconds: float) -> None:
        """Record a run's seed (its CPU time belongs to the sweep's), synced like a row."""
        self.seeds.append((n_words, seconds))
        with open(self.path, "a") as f:
            f.write(_seed(n_words, seconds))
            f.flush()
            os.fsync(f.fileno())

    @property
    def seed_path(self) -> Path:
        return self.path.with_name(self.path.name + ".seed")

    def estimates(self) -> dict[str, float]:
        """The seed's totals kept by an earlier run of this sweep (word -> total), or none."""
        try:
            doc = json.loads(self.seed_path.read_text())
            if doc["sweep"] != self.sweep:
                return {}
            return {str(w): (INF if v is None else float(v)) for w, v in doc["estimates"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}  # derived data: computed again

    def keep_estimates(self, estimates: dict[str, float]) -> None:
        """Keep the seed's totals beside the journal (replacing any), written whole."""
        from ..core.data import atomic_write_json

        atomic_write_json(
            self.seed_path,
            {"sweep": self.sweep, "estimates": {w: (None if v >= INF else v) for w, v in estimates.items()}},
        )

    def finish(self, note: str) -> None:
        """Rewrite the journal best first, ending with ``# complete: note``; the seed's totals
        are no longer needed."""
        self.complete = True
        self._write_all(note)
        self.seed_path.unlink(missing_ok=True)

    def state(self) -> JournalState:
        exact = [(v, w) for w, (v, e, _) in self.rows.items() if e]
        failing = sum(1 for v, e, _ in self.rows.values() if not e and v >= INF)
        best = min(exact, default=None)
        return JournalState(
            words=len(self.rows),
            exact=len(exact),
            bounded=len(self.rows) - len(exact) - failing,
            failing=failing,
            best=(best[1], best[0]) if best else None,
            max_guesses=int(self.sweep.get("max_guesses", 6)),
        )

    def cpu_seconds(self) -> float:
        return sum(s for _, _, s in self.rows.values()) + sum(s for _, s in self.seeds)

    def _write_all(self, note: str | None = None) -> None:
        from ..core.data import atomic_write

        # exact totals first, best first; then the bounded words (see SweepResult.ranking)
        ranked = sorted(self.rows.items(), key=lambda kv: (not kv[1][1], kv[1][0], kv[0]))
        text = (
            f"{MAGIC}\n# sweep: {json.dumps(self.sweep, sort_keys=True)}\n{COLUMNS}\n"
            + "".join(_row(w, t, e, s) for w, (t, e, s) in ranked)
            + "".join(_seed(n, s) for n, s in self.seeds)
            + (f"# complete: {note}\n" if note is not None else "")
        )
        atomic_write(self.path, text.encode())


def _seed(n_words: int, seconds: float) -> str:
    return f"# seed: {n_words} words, {seconds:.3f} CPU-s\n"


def _row(word: str, total: float, exact: bool, seconds: float) -> str:
    # a first word proven unable to win within the cap (hard mode) has no total
    shown = "inf" if total >= INF else f"{total:.15g}"
    return f"{word},{shown},{int(exact)},{seconds:.3f}\n"
