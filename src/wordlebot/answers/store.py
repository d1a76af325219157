"""Where the stored answer model lives (the one ``wordlebot answers build`` trains).

The model is derived data (it can always be rebuilt from the word lists and the history), so it
is kept in the cache folder, named by the word list it was trained for.  Which model gives the
prior of a day is decided in ``daily.py``.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from .. import cache_store, data
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


def model_path(words: list[str], folder: Path | None = None) -> Path:
    sha = list_fingerprint(words)[:16]
    return (folder or cache_dir()) / "models" / f"answer-model-{sha}.json"


def training_data(data_dir: Path, words: list[str], history: list | None = None) -> TrainingData:
    """The lists and the history (read from ``data_dir`` unless the caller holds it already)."""
    lists = {name: read_word_file(Path(data_dir) / f) for name, f in LIST_FILES.items()
             if (Path(data_dir) / f).is_file()}
    return TrainingData(list(words), data.read_history(Path(data_dir)) if history is None else history, lists)


def build(data_dir: Path, words: list[str], until: dt.date | None = None,
          folder: Path | None = None) -> tuple[AnswerModel, Path]:
    model = train(training_data(data_dir, words), until)
    path = model_path(words, folder)
    model.save(path)
    cache_store.after_write(path)
    return model, path


def load(words: list[str], folder: Path | None = None) -> AnswerModel | None:
    path = model_path(words, folder)
    if not path.exists():
        return None
    try:
        model = AnswerModel.load(path, words)
    except (DataError, KeyError, ValueError, TypeError) as exc:  # broken or old: rebuilt, never fatal
        log.warning("answer model %s is unusable (%s); it will be rebuilt", path, exc)
        return None
    cache_store.touch(path)  # most recently used: the last the cache's size limit removes
    return model
