"""wordlebot: a Wordle assistant and solver over a Numba core.

>>> from wordlebot import feedback, format_digits
>>> format_digits(feedback("error", "elder"), 5)
'20002'
"""

from .advisor import Advisor
from .errors import (
    CacheError,
    DataError,
    HardModeError,
    InconsistentFeedbackError,
    InvalidFeedbackError,
    InvalidWordError,
    WordListError,
    WordlebotError,
)
from .feedback import (
    Feedback,
    Pattern,
    all_green,
    feedback,
    format_digits,
    format_emoji,
    format_letters,
    parse_feedback,
)
from .game import Game, Row, parse_history
from .matrix import build_matrix, pattern_matrix
from .search import TreeSearch
from .simulate import SimResult, greedy_chooser, simulate
from .strategies import STRATEGIES, Ranked, rank
from .words import Lexicon, WordId
from .wordsets import load_lexicon, wordfreq_lexicon

__version__ = "0.1.0"

__all__ = [
    "Advisor", "CacheError", "DataError", "Feedback", "Game", "HardModeError", "InconsistentFeedbackError",
    "InvalidFeedbackError", "InvalidWordError", "Lexicon", "Pattern", "Ranked", "Row", "STRATEGIES",
    "SimResult", "WordId", "WordListError", "WordlebotError", "all_green", "build_matrix", "feedback",
    "format_digits", "format_emoji", "format_letters", "greedy_chooser", "load_lexicon", "parse_feedback",
    "parse_history", "pattern_matrix", "rank", "simulate", "wordfreq_lexicon", "TreeSearch",
]
