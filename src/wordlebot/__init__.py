"""wordlebot: a Wordle assistant and solver over a Numba core.

>>> from wordlebot import feedback, format_digits
>>> format_digits(feedback("error", "elder"), 5)
'20002'

The errors and the plain feedback functions are imported with the package; the rest (numpy,
Numba and the kernels behind them) when a name is first used, so that ``import wordlebot`` and
the light commands (``wordlebot feedback``, ``--help``, ``data status``) start at once.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .core.errors import (
    CacheError,
    DataError,
    HardModeError,
    InconsistentFeedbackError,
    InvalidFeedbackError,
    InvalidWordError,
    WordlebotError,
    WordListError,
)
from .core.feedback import (
    Feedback,
    Pattern,
    all_green,
    feedback,
    format_digits,
    format_emoji,
    format_letters,
    parse_feedback,
)

__version__ = "0.1.0"

# public name -> the module that defines it, imported on first use
_LAZY = {
    "Advisor": "policy.advisor",
    "Game": "core.game",
    "Row": "core.game",
    "parse_history": "core.game",
    "build_matrix": "core.matrix",
    "pattern_matrix": "core.matrix",
    "TreeSearch": "search.tree_search",
    "SimResult": "policy.simulate",
    "greedy_chooser": "policy.simulate",
    "simulate": "policy.simulate",
    "STRATEGIES": "policy.strategies",
    "Ranked": "policy.strategies",
    "rank": "policy.strategies",
    "Lexicon": "core.words",
    "WordId": "core.words",
    "load_lexicon": "app.wordsets",
    "wordfreq_lexicon": "app.wordsets",
}


if TYPE_CHECKING:  # the names __getattr__ hands out, as type checkers and editors should see them
    from .app.wordsets import load_lexicon, wordfreq_lexicon
    from .core.game import Game, Row, parse_history
    from .core.matrix import build_matrix, pattern_matrix
    from .core.words import Lexicon, WordId
    from .policy.advisor import Advisor
    from .policy.simulate import SimResult, greedy_chooser, simulate
    from .policy.strategies import STRATEGIES, Ranked, rank
    from .search.tree_search import TreeSearch


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'wordlebot' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Advisor",
    "CacheError",
    "DataError",
    "Feedback",
    "Game",
    "HardModeError",
    "InconsistentFeedbackError",
    "InvalidFeedbackError",
    "InvalidWordError",
    "Lexicon",
    "Pattern",
    "Ranked",
    "Row",
    "STRATEGIES",
    "SimResult",
    "WordId",
    "WordListError",
    "WordlebotError",
    "all_green",
    "build_matrix",
    "feedback",
    "format_digits",
    "format_emoji",
    "format_letters",
    "greedy_chooser",
    "load_lexicon",
    "parse_feedback",
    "parse_history",
    "pattern_matrix",
    "rank",
    "simulate",
    "wordfreq_lexicon",
    "TreeSearch",
]
