"""A multi-board game's share text, and what its suggestions' cost means in words.

The share text follows the sites' habit: a header with the variant, the score and each board's
solving guess (``X`` for a board lost), then the boards two by two, their rows side by side
until each was solved (a board solved earlier leaves blank tiles, ideographic spaces as wide as
an emoji, so the columns stay aligned)."""

from __future__ import annotations

from ..core.feedback import EmojiStyle, format_emoji
from .game import MultiGame, check_objective

BLANK = "\u3000"  # an ideographic space: as wide as a tile emoji in the fonts that show them
KEYCAPS = {**{d: f"{d}\ufe0f\u20e3" for d in "0123456789"}}


def _keycap(n: int | None) -> str:
    if n is None:
        return "🟥"
    return "".join(KEYCAPS[d] for d in str(n))


def multi_share_text(game: MultiGame, style: EmojiStyle = "dark", per_line: int = 2) -> str:
    """The share text of a game (finished or not): ``Quordle · score 21 (5 3 7 6 of 9)`` (a lost
    board ``X``, the score then ``X`` too: a lost board has no guess number) and the boards."""
    solved = game.solved_at
    n = game.lexicon.length
    marks = " ".join("X" if t is None else str(t) for t in solved)
    score = f"{game.score():g}" if all(t is not None for t in solved) else "X"
    head = f"{game.name}{'*' if game.hard else ''} · score {score} ({marks} of {game.max_guesses})"
    blocks = []
    for start in range(0, game.n_boards, per_line):
        boards = list(range(start, min(start + per_line, game.n_boards)))
        caps = "".join(_keycap(solved[b]) for b in boards)
        lines = [caps]
        for row in game.rows:
            cells = [BLANK * n if (p := row.patterns[b]) is None else format_emoji(p, n, style) for b in boards]
            if all(p is None for p in (row.patterns[b] for b in boards)):
                continue
            lines.append(" ".join(cells).rstrip(BLANK + " "))
        blocks.append("\n".join(lines))
    return head + "\n\n" + "\n\n".join(blocks)


def cost_meaning(objective: str = "score") -> str:
    """What the suggestions' ``cost`` column is, in words (it is not guesses of one board)."""
    check_objective(objective)
    base = (
        "cost: the guesses still needed to solve each open board, this one included, added up over the "
        "open boards (lower is better; a board that would be lost counts a penalty)"
    )
    if objective == "guesses":
        return (
            base + "; near the end, where the rest of the game is searched, it is the guesses until every "
            "board is solved instead"
        )
    return base + "; estimated one guess ahead, exact where the rest of the game was searched (near the end)"
