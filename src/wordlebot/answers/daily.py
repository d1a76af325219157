"""The answer prior of a day: the one place every shell (CLI, TUI, web, bot) and the analysis get
it from.

The prior of day D is built from what was known on the morning of D: the history entries before
D (which words are already used, how often answers repeat) and an answer model trained only on
the history before D.  What the history file holds about D and later never changes D's prior, so
a morning ``data update`` cannot spoil the day's play, and a past day is replayed or analysed
with the prior its players had.

Which model: the stored one (``wordlebot answers build``) when it was trained before D;
otherwise a model trained on the history before D, from a small cache of per-day models (keyed
by the word list and the last day trained on, least recently used dropped) or trained now.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .. import cache_store, data
from ..data import HistoryEntry
from ..errors import DataError
from ..paths import cache_dir
from ..words import list_fingerprint, read_word_file
from . import store
from .model import AnswerModel, TrainingData, train

log = logging.getLogger(__name__)

DAY_MODELS_KEPT = 4  # per-day models kept in the cache folder (each ~0.3 MB)
STALE_DAYS = 7
BASELINE_LISTS = ("nyt/wordlebot-3158.txt", "nyt/answers-2309.txt", "classic/answers.txt")

Notify = Callable[[str], None]
Trainer = Callable[[TrainingData, dt.date], AnswerModel]


@dataclass(frozen=True, eq=False)
class DayPrior:
    """The prior of one day: P(answer on ``day``) for every word of the list."""

    day: dt.date
    weights: np.ndarray  # positive, sums to 1
    history: tuple[HistoryEntry, ...]  # the entries before ``day``: all that the prior knows
    model: AnswerModel | None  # None: the model-free baseline prior
    description: str  # one line naming the day and what the model was trained to

    @property
    def trained_until(self) -> dt.date | None:
        return self.model.trained_until if self.model is not None else None


def history_before(history: list[HistoryEntry], day: dt.date) -> list[HistoryEntry]:
    return [e for e in history if e.date < day]


def read_history_or_none(data_dir: Path) -> list[HistoryEntry]:
    """The history, or none when the file is unreadable (a damaged file must not stop play)."""
    try:
        return data.read_history(Path(data_dir))
    except DataError as exc:
        log.warning("%s; the prior ignores the history", exc)
        return []


# ---------------------------------------------------------------------------------------------
# Per-day models


def day_model_path(words: list[str], until: dt.date, folder: Path | None = None) -> Path:
    sha = list_fingerprint(words)[:16]
    return (folder or cache_dir()) / "models" / "days" / f"answer-model-{sha}-{until.isoformat()}.json"


def _load_day_model(path: Path, words: list[str], until: dt.date) -> AnswerModel | None:
    if not path.exists():
        return None
    try:
        model = AnswerModel.load(path, words)
    except (DataError, KeyError, ValueError, TypeError) as exc:  # broken or old: retrained
        log.warning("answer model %s is unusable (%s); it will be retrained", path, exc)
        return None
    if model.trained_until != until:
        log.warning("answer model %s was trained to %s, not %s; it will be retrained", path,
                    model.trained_until, until)
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


def model_for_day(data_dir: Path, words: list[str], history: list[HistoryEntry], day: dt.date, *,
                  build: bool = False, notify: Notify | None = None, folder: Path | None = None,
                  trainer: Trainer | None = None, keep: int = DAY_MODELS_KEPT) -> AnswerModel | None:
    """An answer model trained only on history before ``day``; None when there is none (no
    history before the day, or none cached and ``build`` is off)."""
    stored = store.load(words, folder)
    if stored is not None and stored.trained_until < day:
        return stored
    before = history_before(history, day)
    if not before:
        return None
    until = before[-1].date  # the model of any day after the history's end is the same
    path = day_model_path(words, until, folder)
    model = _load_day_model(path, words, until)
    if model is not None or not build:
        return model
    say = notify or (lambda m: log.warning("%s", m))
    as_stored = stored is None and until == history[-1].date  # what 'answers build' would build today
    say(f"Training the answer model on the history up to {until} for the prior of {day} (a few seconds; "
        + ("kept for the days after it)…" if as_stored else "kept for that day)…"))
    model = (trainer or train)(store.training_data(Path(data_dir), words, history), until).stored()
    try:
        saved = store.model_path(words, folder) if as_stored else path
        model.save(saved)
        if not as_stored:
            _prune(path.parent, keep)
        cache_store.after_write(saved)
    except DataError as exc:  # a read-only cache folder must not stop play
        log.warning("could not save the answer model: %s", exc)
    return model


# ---------------------------------------------------------------------------------------------
# The prior


def prior_for_day(data_dir: Path, words: list[str], day: dt.date | None = None, *,
                  history: list[HistoryEntry] | None = None, build: bool = False,
                  notify: Notify | None = None, folder: Path | None = None,
                  trainer: Trainer | None = None) -> DayPrior:
    """The prior of ``day`` (default today) for ``words`` from the model (see ``model_for_day``),
    or the model-free baseline when there is no model; ``data_dir`` holds the lists and the
    history (``history``: already read)."""
    from .prior import baseline_weights

    day = day or dt.date.today()
    say = notify or (lambda m: log.warning("%s", m))
    if history is None:
        history = read_history_or_none(Path(data_dir))
    before = history_before(history, day)
    if before and (day - before[-1].date).days > STALE_DAYS:
        say(f"The answer history ends {before[-1].date}, {(day - before[-1].date).days:,} days before {day}: "
            "run 'wordlebot data update' to bring it up to date.")
    model = model_for_day(data_dir, words, history, day, build=build, notify=say, folder=folder,
                          trainer=trainer)
    if model is not None and before and (before[-1].date - model.trained_until).days > STALE_DAYS:
        say(f"The answer model is trained to {model.trained_until}; 'wordlebot answers build' retrains "
            "it on the newer history.")
    if model is not None:
        return DayPrior(day, model.prior(before, on=day), tuple(before), model,
                        f"answer model trained to {model.trained_until}, prior for {day}")
    listed: set[str] = set()
    for f in BASELINE_LISTS:
        if (Path(data_dir) / f).is_file():
            listed.update(read_word_file(Path(data_dir) / f))
    why = "no answer history before that day" if not before else "no answer model yet: wordlebot answers build"
    return DayPrior(day, baseline_weights(words, listed, [e.word for e in before]), tuple(before), None,
                    f"simple prior for {day} ({why})")
