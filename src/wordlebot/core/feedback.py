"""Wordle feedback: computing pattern codes, parsing what people type or paste, printing.

A pattern is a plain ``int``: position ``i`` (0-based) weighs ``3**i``; gray 0, yellow 1, green 2.
All green is ``3**length - 1`` (242 for five letters).  Duplicate letters follow the NYT rule:
greens are marked first, then yellows left to right while unmatched copies of the letter remain.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Literal

from .errors import InvalidFeedbackError, InvalidWordError

Pattern = int

GRAY, YELLOW, GREEN = 0, 1, 2
MIN_LENGTH, MAX_LENGTH = 4, 11

EmojiStyle = Literal["dark", "light", "contrast"]

# One symbol per colour and style.  Reading accepts all of them (and the letter/digit forms).
_EMOJI = {
    "dark": ("\u2b1b", "\U0001f7e8", "\U0001f7e9"),  # ⬛ 🟨 🟩
    "light": ("\u2b1c", "\U0001f7e8", "\U0001f7e9"),  # ⬜ 🟨 🟩
    "contrast": ("\u2b1b", "\U0001f7e6", "\U0001f7e7"),  # ⬛ 🟦 🟧
}
_LETTERS = ".YG"

_CHAR_COLOUR: dict[str, int] = {}
for _ch in "0.bBxX-_wW":
    _CHAR_COLOUR[_ch] = GRAY
for _ch in "1yY":
    _CHAR_COLOUR[_ch] = YELLOW
for _ch in "2gG":
    _CHAR_COLOUR[_ch] = GREEN
for _style in _EMOJI.values():
    for _colour, _symbol in enumerate(_style):
        _CHAR_COLOUR[_symbol] = _colour
_CHAR_COLOUR["\u2b1c"] = GRAY  # ⬜ light-theme gray
# Decorations that pasted share grids carry: variation selectors, zero-width joiners, spaces.
_IGNORED = set("\ufe0f\ufe0e\u200d \t")

ACCEPTED_FORMATS = (
    "digits 0/1/2 (20110), letters g/y with . b x - for gray (gy..g, GYBBG, gy--g, gyxxg), "
    "or emoji (\U0001f7e9\U0001f7e8\u2b1b, \u2b1c light theme, \U0001f7e7\U0001f7e6 high contrast)"
)


def all_green(length: int) -> Pattern:
    """The pattern of a solved row: every tile green."""
    return int(3**length) - 1


def pattern_count(length: int) -> int:
    """How many pattern codes exist for words of ``length`` letters."""
    return int(3**length)


def check_word(word: str, length: int | None = None) -> str:
    """Return ``word`` lower-cased if it is a plain a-z word of a supported length, else raise."""
    if not isinstance(word, str):
        raise InvalidWordError(f"expected a word, got {word!r}")
    w = word.strip().lower()
    if not w or not w.isascii() or not w.isalpha():
        raise InvalidWordError(f"{word!r} is not a word: use the letters a-z only")
    if length is not None and len(w) != length:
        raise InvalidWordError(f"{word!r} has {len(w)} letters; this game uses {length}-letter words")
    if not MIN_LENGTH <= len(w) <= MAX_LENGTH:
        raise InvalidWordError(
            f"{word!r} has {len(w)} letters; words of {MIN_LENGTH} to {MAX_LENGTH} letters are supported"
        )
    return w


def feedback(guess: str, answer: str) -> Pattern:
    """The pattern the game shows for ``guess`` when the hidden word is ``answer``.

    >>> feedback("error", "elder")  # 20002: the E and the final R are green, nothing else
    164
    """
    g = check_word(guess)
    a = check_word(answer, len(g))
    return feedback_unchecked(g, a)


def feedback_unchecked(guess: str, answer: str) -> Pattern:
    """``feedback`` without its checks, for words already known to be valid (a lexicon's words,
    rows already parsed): both lower-case a-z of one length, else the result means nothing.

    >>> format_digits(feedback_unchecked("speed", "erase"), 5)
    '10110'
    """
    n = len(guess)
    colours = [GRAY] * n
    unmatched: dict[str, int] = {}
    for i in range(n):
        if guess[i] == answer[i]:
            colours[i] = GREEN
        else:
            unmatched[answer[i]] = unmatched.get(answer[i], 0) + 1
    for i in range(n):
        if colours[i] == GRAY:
            left = unmatched.get(guess[i], 0)
            if left:
                colours[i] = YELLOW
                unmatched[guess[i]] = left - 1
    return colours_to_pattern(colours)


def colours_to_pattern(colours: list[int] | tuple[int, ...]) -> Pattern:
    """Pack per-position colours (0/1/2, first letter first) into a pattern code."""
    code = 0
    for i, c in enumerate(colours):
        code += c * 3**i
    return code


def pattern_to_colours(pattern: Pattern, length: int) -> tuple[int, ...]:
    """Unpack a pattern code into per-position colours, first letter first."""
    if not 0 <= pattern < 3**length:
        raise InvalidFeedbackError(f"pattern code {pattern} is out of range for {length} letters")
    out = []
    for _ in range(length):
        out.append(pattern % 3)
        pattern //= 3
    return tuple(out)


def pattern_code(value: object, length: int) -> Pattern:
    """``value`` as a pattern code of ``length`` letters if it is one: an integer (a numpy one
    too) in range; a bool, a float (1.9, NaN, inf), a list or anything else is refused with
    ``InvalidFeedbackError`` rather than read as a number (``int(True)`` is 1, ``int(1.9)`` 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidFeedbackError(
            f"feedback must be colours as text or a pattern code (an integer), got {value!r}; "
            f"accepted: {ACCEPTED_FORMATS}"
        )
    code = int(value)
    pattern_to_colours(code, length)
    return code


def parse_feedback(text: str, length: int | None = None) -> Pattern:
    """Read feedback in any accepted format (see ``ACCEPTED_FORMATS``) and return its pattern code.

    Raises ``InvalidFeedbackError`` naming the input and the formats accepted.
    """
    if not isinstance(text, str):
        raise InvalidFeedbackError(f"feedback must be text, got {text!r}; accepted: {ACCEPTED_FORMATS}")
    colours = []
    for ch in text.strip():
        if ch in _IGNORED:
            continue
        colour = _CHAR_COLOUR.get(ch)
        if colour is None:
            raise InvalidFeedbackError(f"feedback {text!r}: {ch!r} is not a colour; accepted: {ACCEPTED_FORMATS}")
        colours.append(colour)
    if not colours:
        raise InvalidFeedbackError(f"feedback {text!r} is empty; accepted: {ACCEPTED_FORMATS}")
    if length is not None and len(colours) != length:
        raise InvalidFeedbackError(f"feedback {text!r} has {len(colours)} tiles but the words have {length} letters")
    if not MIN_LENGTH <= len(colours) <= MAX_LENGTH:
        raise InvalidFeedbackError(
            f"feedback {text!r} has {len(colours)} tiles; {MIN_LENGTH} to {MAX_LENGTH} are supported"
        )
    return colours_to_pattern(colours)


def format_digits(pattern: Pattern, length: int) -> str:
    """``"20110"``: one digit per tile, first letter first."""
    return "".join(str(c) for c in pattern_to_colours(pattern, length))


def format_letters(pattern: Pattern, length: int) -> str:
    """``"G.YY."``: G green, Y yellow, ``.`` gray."""
    return "".join(_LETTERS[c] for c in pattern_to_colours(pattern, length))


def format_emoji(pattern: Pattern, length: int, style: EmojiStyle = "dark") -> str:
    """A row of emoji squares as the game's share button prints it."""
    try:
        symbols = _EMOJI[style]
    except KeyError:
        raise ValueError(f"unknown emoji style {style!r}; use one of {', '.join(_EMOJI)}") from None
    return "".join(symbols[c] for c in pattern_to_colours(pattern, length))


@dataclass(frozen=True)
class Feedback:
    """A pattern with its word length: the value object for the edges (CLI, UI, analysis)."""

    code: Pattern
    length: int = 5

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= MAX_LENGTH:
            raise InvalidFeedbackError(f"length {self.length} is outside {MIN_LENGTH}-{MAX_LENGTH}")
        pattern_to_colours(self.code, self.length)  # range check

    @classmethod
    def from_str(cls, text: str, length: int | None = None) -> Feedback:
        code = parse_feedback(text, length)
        n = length if length is not None else _tile_count(text)
        return cls(code, n)

    @classmethod
    def of(cls, guess: str, answer: str) -> Feedback:
        return cls(feedback(guess, answer), len(guess))

    @property
    def solved(self) -> bool:
        return self.code == all_green(self.length)

    def digits(self) -> str:
        return format_digits(self.code, self.length)

    def letters(self) -> str:
        return format_letters(self.code, self.length)

    def emoji(self, style: EmojiStyle = "dark") -> str:
        return format_emoji(self.code, self.length, style)

    def __str__(self) -> str:
        return self.digits()

    def __repr__(self) -> str:
        return f"Feedback.from_str({self.digits()!r})"


def _tile_count(text: str) -> int:
    return sum(1 for ch in text.strip() if ch not in _IGNORED)
