"""The answer lists and the history as the answer models read them.

The models are derived data (they can always be fitted again from the word lists and the
history), so they are kept in the cache folder; which model gives the prior of a day, where it
is kept, and ``wordlebot answers build`` (``daily.build_day_model``) are in ``daily.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..core import data
from ..core.data import HistoryEntry
from ..core.words import read_word_file
from .model import TrainingData

LIST_FILES = {
    "classic": "classic/answers.txt",
    "nyt-2309": "nyt/answers-2309.txt",
    "wordlebot-3158": "nyt/wordlebot-3158.txt",
}


def answer_lists(data_dir: Path) -> dict[str, list[str]]:
    """The published answer lists the data folder holds, by name."""
    return {
        name: read_word_file(Path(data_dir) / f) for name, f in LIST_FILES.items() if (Path(data_dir) / f).is_file()
    }


def training_data(data_dir: Path, words: Sequence[str], history: list[HistoryEntry] | None = None) -> TrainingData:
    """The lists and the history (read from ``data_dir`` unless the caller holds it already)."""
    return TrainingData(
        list(words), data.read_history(Path(data_dir)) if history is None else history, answer_lists(Path(data_dir))
    )
