"""Multi-board Wordle: Dordle (2 boards, 7 guesses), Quordle (4, 9), Octordle (8, 13), Sedecordle
(16, 21) and beyond.  ``MultiGame`` holds a game's state, ``policy.suggest`` what to play next,
``exact.exact_expected_score`` the optimum of small cases to measure a policy against.  Two
objectives: ``"score"`` (the sum over boards of the guess that solved each) and ``"guesses"``
(the guesses to solve them all).

    >>> from wordlebot import Lexicon
    >>> from wordlebot.multi import MultiGame, suggest
    >>> words = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal"]
    >>> lexicon = Lexicon.from_lists(words, words[:5])         # guesses, answers
    >>> game = MultiGame(lexicon, boards=2)                     # Dordle: 7 guesses
    >>> game.guess("rebut", ["10000", "00010"])                 # one row of colours a board
    MultiRow(guess='rebut', patterns=(1, 27))
    >>> [s.word for s in suggest(game, top=2)]                  # or objective="guesses"
    ['cigar', 'humph']

With the answers given (``MultiGame(lexicon, 2, answers=["cigar", "humph"])``) the game
colours its own rows: ``game.guess("rebut")``.
"""

from .exact import exact_expected_score, policy_expected_score
from .game import OBJECTIVES, VARIANTS, MultiGame, MultiRow, ObjectiveError, check_objective, parse_multi_history
from .policy import MultiSuggestion, solve_time, suggest
from .share import cost_meaning, multi_share_text

__all__ = [
    "MultiGame",
    "MultiRow",
    "MultiSuggestion",
    "OBJECTIVES",
    "ObjectiveError",
    "VARIANTS",
    "check_objective",
    "cost_meaning",
    "exact_expected_score",
    "multi_share_text",
    "parse_multi_history",
    "policy_expected_score",
    "solve_time",
    "suggest",
]
