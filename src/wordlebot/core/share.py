"""The text a finished game's share button copies: ``Wordle 1,234 4/6*`` and its emoji rows."""

from __future__ import annotations

from .feedback import EmojiStyle, format_emoji
from .game import Row


def share_grid(
    rows: list[Row],
    *,
    solved: bool,
    max_guesses: int = 6,
    hard: bool = False,
    puzzle: int | None = None,
    style: EmojiStyle = "dark",
) -> str:
    """The text the game's share button copies: ``Wordle 1,234 4/6*`` and the emoji rows."""
    score = str(len(rows)) if solved else "X"
    number = f" {puzzle:,}" if puzzle is not None else ""
    head = f"Wordle{number} {score}/{max_guesses}{'*' if hard else ''}"
    body = "\n".join(format_emoji(r.pattern, r.length, style) for r in rows)
    return f"{head}\n\n{body}"
