"""Where the answer model lives and how the ``nyt`` word set gets its prior from it.

The model is derived data (it can always be rebuilt from the word lists and the history), so it
is kept in the cache folder, named by the word list it was trained for.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import numpy as np

from .. import data
from ..errors import DataError
from ..paths import cache_dir
from ..words import list_fingerprint, read_word_file
from .model import AnswerModel, TrainingData, train

log = logging.getLogger(__name__)

LIST_FILES = {
    "classic": "classic/answers.txt",
    "nyt-2309": "nyt/answers-2309.txt",
    "wordlebot-3158": "nyt/wordlebot-3158.txt",
}
STALE_DAYS = 7


def model_path(words: list[str], folder: Path | None = None) -> Path:
    sha = list_fingerprint(words)[:16]
    return (folder or cache_dir()) / "models" / f"answer-model-{sha}.json"


def training_data(data_dir: Path, words: list[str]) -> TrainingData:
    lists = {name: read_word_file(Path(data_dir) / f) for name, f in LIST_FILES.items()
             if (Path(data_dir) / f).is_file()}
    return TrainingData(list(words), data.read_history(Path(data_dir)), lists)


def build(data_dir: Path, words: list[str], until: dt.date | None = None,
          folder: Path | None = None) -> tuple[AnswerModel, Path]:
    model = train(training_data(data_dir, words), until)
    path = model_path(words, folder)
    model.save(path)
    return model, path


def load(words: list[str], folder: Path | None = None) -> AnswerModel | None:
    path = model_path(words, folder)
    if not path.exists():
        return None
    try:
        return AnswerModel.load(path, words)
    except (DataError, KeyError, ValueError, TypeError) as exc:  # broken or old: rebuilt, never fatal
        log.warning("answer model %s is unusable (%s); it will be rebuilt", path, exc)
        return None


def prediction_day(history: list[data.HistoryEntry], today: dt.date | None = None) -> dt.date:
    """The day a prior is for: today, or the day after the history's last day if that is later."""
    today = today or dt.date.today()
    return max(today, history[-1].date + dt.timedelta(days=1)) if history else today


def prior_for_today(data_dir: Path, words: list[str], history: list[data.HistoryEntry], *,
                    build_if_missing: bool = False, notify=None,
                    today: dt.date | None = None) -> tuple[np.ndarray | None, str]:
    """The answer prior for ``prediction_day`` and a one-line description; (None, reason) when
    there is no model or history.  ``data_dir`` holds the lists a missing model is built from."""
    say = notify or (lambda m: log.warning("%s", m))
    if not history:
        return None, "no answer history (wordlebot data fetch)"
    model = load(words)
    if model is None and build_if_missing:
        say("Building the answer model from the word lists and the NYT history (once, under a minute)…")
        model, _ = build(Path(data_dir), words)
    if model is None:
        return None, "no answer model yet (wordlebot answers build)"
    on = prediction_day(history, today)
    age = (on - history[-1].date).days
    if age > STALE_DAYS:
        say(f"The answer history ends {history[-1].date} ({age} days ago): run 'wordlebot data update' "
            "and 'wordlebot answers build' to bring the answer model up to date.")
    return model.prior(history, on=on), f"answer model trained to {model.trained_until}, prior for {on}"
