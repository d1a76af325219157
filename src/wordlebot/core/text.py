"""Plain-text forms of counts and chances that every shell shows alike (the terminal, the TUI,
the web page and the library's own messages): one spelling of "2 rows", "95.2%", "0.0012 %";
and the one rule for a number in JSON (``json_number``)."""

from __future__ import annotations

import math


def format_solve(lose: float | None) -> str:
    """The chance to solve as a table cell: blank when certain (or not measured), ``>99.9%`` and
    ``<0.1%`` near the ends, ``0%`` for none, else one decimal (``95.2%``)."""
    if not lose:
        return ""
    if lose < 0.0005:
        return ">99.9%"
    if lose >= 1.0:
        return "0%"
    if lose > 0.9995:
        return "<0.1%"
    return f"{100 * (1 - lose):.1f}%"


def format_chance(p: float) -> str:
    """A probability as a player reads it: ``0 %``, ``4.76 %``, ``0.0012 %`` (two significant
    digits below 1 %), ``<0.000001 %`` for less."""
    if p <= 0:
        return "0 %"
    pct = 100 * p
    if pct >= 1:
        return f"{pct:.2f} %"
    if pct < 1e-6:
        return "<0.000001 %"
    decimals = 1 - math.floor(math.log10(pct))
    return f"{pct:.{decimals}f} %"


def sentence(text: str) -> str:
    """``text`` ended as a sentence: a full stop unless it ends with one already, or with ? or !
    (a message that ends with "did you mean SLATE or SALTY?" gets no ".")."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!", "…")) else text + "."


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 row``, ``2 rows``, ``1,024 guesses`` (``many``: the plural when not word + s)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def format_prob(p: float) -> str:
    if p <= 0:
        return ""
    if p >= 1e-4:
        return f"{100 * p:.2f}%"
    return "<0.01%"


def outcome_cell(expected: float | None, lose: float, lookahead: int = 0, digits: int = 3) -> str:
    """What a guess leads to, in one cell: the guesses when solved (``≈`` for an estimate) and,
    where below 100 %, the chance to solve: ``1.458 95.2%``; ``0%`` for a guess that cannot."""
    if expected is None:
        return "0%"
    text = ("≈" if lookahead else "") + f"{expected:.{digits}f}"
    return f"{text} {format_solve(lose)}" if lose else text


def json_number(x: float | None) -> float | None:
    """A figure as JSON carries it: JSON has no infinity or NaN, and the search's "never" values
    (1e15 and up stand for an unreachable cost) mean none, so each is null.

    >>> [json_number(v) for v in (1.5, float("inf"), 1e18, None)]
    [1.5, None, None, None]
    """
    if x is None or not math.isfinite(x) or abs(x) >= 1e15:
        return None
    return float(x)
