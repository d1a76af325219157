"""The answer prior of a day: the one place every shell (CLI, TUI, web, bot) and the analysis get
it from.

The prior of day D is built from what was known on the morning of D: the history entries before
D and the editor model (``editor.py``) fitted on exactly those entries.  What the history file
holds about D and later never changes D's prior, so a morning ``data update`` cannot spoil the
day's play, and a past day is replayed or analysed with the prior its players had.

The model of D is a function of the lists and the history before D, so it is cached under the
fingerprint of both (a small JSON file; the least recently used dropped beyond
``DAY_MODELS_KEPT``).  Fitting takes a fraction of a second; the words' facts (frequencies and
inflections, about 2 s) are cached once per word list in ``models/``.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core import cache_seal, cache_store, clock, data
from ..core.cache_formats import ANSWER_MODEL_VERSION as MODEL_VERSION
from ..core.cache_formats import WORD_FACTS_VERSION as FACTS_VERSION
from ..core.cache_seal import read_sealed
from ..core.data import HistoryEntry
from ..core.errors import CacheError, DataError
from ..core.paths import cache_dir
from ..core.words import list_fingerprint, read_word_file
from . import store
from .editor import EditorModel, PriorParts, WordFacts, fit, history_fingerprint

log = logging.getLogger(__name__)

DAY_MODELS_KEPT = 8  # per-day models kept in the cache folder (each ~0.2 KB of numbers)
STALE_DAYS = 7
BASELINE_LISTS = ("nyt/wordlebot-3158.txt", "nyt/answers-2309.txt", "classic/answers.txt")

Notify = Callable[[str], None]
Trainer = Callable[[WordFacts, list[HistoryEntry]], EditorModel]


@dataclass(frozen=True, eq=False)
class DayPrior:
    """The prior of one day: P(answer on ``day``) for every word of the list."""

    day: dt.date
    weights: np.ndarray  # positive, sums to 1
    history: tuple[HistoryEntry, ...]  # the entries before ``day``: all that the prior knows
    model: EditorModel | None  # None: the model-free baseline prior
    description: str  # one line naming the day and what the model was fitted to
    parts: PriorParts | None = None  # the model's branches (None for the baseline)

    @property
    def trained_until(self) -> dt.date | None:
        return self.model.trained_until if self.model is not None else None


def history_before(history: Sequence[HistoryEntry], day: dt.date) -> list[HistoryEntry]:
    return [e for e in history if e.date < day]


def read_history_or_none(data_dir: Path) -> list[HistoryEntry]:
    """The history, or none when the file is unreadable (a damaged file must not stop play)."""
    try:
        return data.read_history(Path(data_dir))
    except DataError as exc:
        log.warning("%s; the prior ignores the history", exc)
        return []


# ---------------------------------------------------------------------------------------------
# The words' facts


def _lists_key(words: Sequence[str], lists: dict[str, list[str]]) -> str:
    h = hashlib.sha256(list_fingerprint(list(words)).encode())
    for name in sorted(lists):
        h.update(f"{name}:{list_fingerprint(lists[name])}".encode())
    return h.hexdigest()


def facts_path(words: Sequence[str], lists: dict[str, list[str]], folder: Path | None = None) -> Path:
    from importlib.metadata import PackageNotFoundError, version

    def v(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "-"

    key = hashlib.sha256(repr((_lists_key(words, lists), FACTS_VERSION, v("wordfreq"), v("lemminflect"))).encode())
    return (folder or cache_dir()) / "models" / f"word-facts-{key.hexdigest()[:16]}.json"


def _seal_key(path: Path) -> str:
    """What a model or facts file is sealed with (core/cache_seal.py): its name, which is the
    hash of everything it depends on, so a file copied under another's name fails."""
    return path.name


def word_facts(words: Sequence[str], lists: dict[str, list[str]], folder: Path | None = None) -> WordFacts:
    """The words' facts, from the cache folder or built (and kept there)."""
    path = facts_path(words, lists, folder)
    return _word_facts(tuple(words), tuple((k, tuple(v)) for k, v in sorted(lists.items())), str(path))


@functools.lru_cache(maxsize=2)
def _word_facts(words: tuple[str, ...], lists: tuple[tuple[str, tuple[str, ...]], ...], path_text: str) -> WordFacts:
    path = Path(path_text)
    try:
        doc = read_sealed(path, _seal_key(path))
        if doc is not None:
            if doc.get("version") != FACTS_VERSION or doc.get("words_sha256") != list_fingerprint(list(words)):
                raise ValueError("made for another version or word list")
            found = WordFacts.from_json(doc, words)
            cache_store.touch(path)
            return found
    except (CacheError, ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        cache_seal.set_aside(path, "word facts file", exc)
    facts = WordFacts.build(words, {k: list(v) for k, v in lists})
    try:
        doc = {
            "version": FACTS_VERSION,
            "words": "nyt",
            "words_sha256": list_fingerprint(list(words)),
            **facts.to_json(),
        }
        data.atomic_write_json(path, cache_seal.seal(doc, _seal_key(path)))
        cache_store.after_write(path)
    except DataError as exc:  # a read-only cache folder must not stop play
        log.warning("could not save the word facts: %s", exc)
    return facts


# ---------------------------------------------------------------------------------------------
# Per-day models


def day_model_path(
    words: Sequence[str], lists: dict[str, list[str]], before: Sequence[HistoryEntry], folder: Path | None = None
) -> Path:
    """Named for everything the model depends on: the word list, the answer lists, the history
    it is fitted on and the model's version."""
    key = hashlib.sha256(f"{_lists_key(words, lists)}|{history_fingerprint(before)}|{MODEL_VERSION}".encode())
    return (folder or cache_dir()) / "models" / "days" / f"answer-model-{key.hexdigest()[:20]}.json"


def _load_day_model(path: Path, words: Sequence[str], before: Sequence[HistoryEntry]) -> EditorModel | None:
    """The model kept at ``path``; None when there is none, or when it is unusable (not sealed
    for this name, damaged, of another version): then set aside with a note and fitted again."""
    try:
        doc = read_sealed(path, _seal_key(path))
        if doc is None:
            return None
        model = EditorModel.from_json(doc, words, str(path))
    except (CacheError, DataError) as exc:  # broken, edited or old: fitted again
        cache_seal.set_aside(path, "answer model", exc)
        return None
    if model.meta.get("history_sha256") != history_fingerprint(before):
        log.warning("answer model %s was fitted on another history; it will be fitted again", path)
        return None
    cache_store.touch(path)  # most recently used
    return model


def _prune(folder: Path, keep: int) -> None:
    """Drop all but the ``keep`` most recently used per-day models."""
    try:
        files = sorted(folder.glob("answer-model-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for p in files[keep:]:
        try:
            p.unlink()
        except OSError:
            pass


def model_for_day(
    data_dir: Path,
    words: Sequence[str],
    history: Sequence[HistoryEntry],
    day: dt.date,
    *,
    build: bool = False,
    folder: Path | None = None,
    trainer: Trainer | None = None,
    keep: int = DAY_MODELS_KEPT,
) -> EditorModel | None:
    """The editor model fitted on the history before ``day``; None when there is no history
    before the day, or none is cached and ``build`` is off."""
    before = history_before(history, day)
    if not before:
        return None
    lists = store.answer_lists(Path(data_dir))
    path = day_model_path(words, lists, before, folder)
    model = _load_day_model(path, words, before)
    if model is not None or not build:
        return model
    model = (trainer or fit)(word_facts(words, lists, folder), before)
    try:
        data.atomic_write_json(path, cache_seal.seal(model.to_json(), _seal_key(path)))
        _prune(path.parent, keep)
        cache_store.after_write(path)
    except DataError as exc:  # a read-only cache folder must not stop play
        log.warning("could not save the answer model: %s", exc)
    return model


# ---------------------------------------------------------------------------------------------
# The prior


def prior_for_day(
    data_dir: Path,
    words: Sequence[str],
    day: dt.date | None = None,
    *,
    history: Sequence[HistoryEntry] | None = None,
    build: bool = False,
    notify: Notify | None = None,
    folder: Path | None = None,
    trainer: Trainer | None = None,
) -> DayPrior:
    """The prior of ``day`` (default today) for ``words`` from the editor model fitted on the
    history before it, or the model-free baseline when there is none; ``data_dir`` holds the
    lists and the history (``history``: already read)."""
    from .prior import baseline_weights

    day = day or clock.today()
    say = notify or (lambda m: log.warning("%s", m))
    if history is None:
        history = read_history_or_none(Path(data_dir))
    before = history_before(history, day)
    if before and (day - before[-1].date).days > STALE_DAYS:
        say(
            f"The answer history ends {before[-1].date}, {(day - before[-1].date).days:,} days before {day}: "
            "run 'wordlebot data update' to bring it up to date."
        )
    model = model_for_day(data_dir, words, history, day, build=build, folder=folder, trainer=trainer)
    if model is not None:
        parts = model.parts(before, day)
        return DayPrior(
            day,
            parts.weights,
            tuple(before),
            model,
            f"answer model fitted on the history to {model.trained_until}, prior for {day}",
            parts,
        )
    listed: set[str] = set()
    for f in BASELINE_LISTS:
        if (Path(data_dir) / f).is_file():
            listed.update(read_word_file(Path(data_dir) / f))
    why = "no answer history before that day" if not before else "no answer model yet: wordlebot answers build"
    return DayPrior(
        day,
        baseline_weights(words, listed, [e.word for e in before]),
        tuple(before),
        None,
        f"simple prior for {day} ({why})",
    )


def build_day_model(
    data_dir: Path, words: Sequence[str], until: dt.date, folder: Path | None = None
) -> tuple[EditorModel, Path]:
    """Fit the model of the day after ``until`` (on the history up to ``until``) and keep it
    where the prior of that day looks for it: (model, its file)."""
    history = read_history_or_none(Path(data_dir))
    day = until + dt.timedelta(days=1)
    before = history_before(history, day)
    if not before:
        raise DataError(f"no answer history up to {until}: run 'wordlebot data fetch' (or data update) first")
    model = model_for_day(data_dir, words, history, day, build=True, folder=folder)
    assert model is not None  # (build=True fits one)
    return model, day_model_path(words, store.answer_lists(Path(data_dir)), before, folder)
