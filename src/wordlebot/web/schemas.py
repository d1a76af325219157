"""Request bodies of the JSON API.  The bounds here cap the work one request can ask for; what a
word or a feedback means is checked by the library, whose messages say what is wrong."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.feedback import MAX_LENGTH

MAX_ROWS = 10  # guesses a game may have (max_guesses is at most this)
MAX_BODY = 16 * 1024  # bytes of a request body
MAX_HISTORY_TEXT = 600
MAX_FEEDBACK = 4 * MAX_LENGTH  # emoji with variation selectors take two or three characters a tile

WordSetName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        pattern=r"^[A-Za-z0-9._-]+$",
        description="a word set this server offers (GET /api/config)",
    ),
]
Word = Annotated[str, Field(min_length=1, max_length=MAX_LENGTH + 4, description="a guess, letters a-z")]


class RowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    guess: Word
    feedback: str = Field(
        min_length=1, max_length=MAX_FEEDBACK, description="digits 20110, letters gy..g/GYBBG, or emoji 🟩🟨⬛"
    )


History = Annotated[
    Annotated[list[RowIn], Field(max_length=MAX_ROWS)] | Annotated[str, Field(max_length=MAX_HISTORY_TEXT)],
    Field(description='rows played so far: [{"guess": "salet", "feedback": "20110"}, …] or "salet:20110,crony:00210"'),
]


DayText = Annotated[
    str,
    Field(
        max_length=24,
        description='the day whose answer prior to use: "2026-05-19", or a puzzle number ("1795"); default today',
    ),
]


class GameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    history: History = Field(default_factory=list)
    words: WordSetName | None = None
    hard: bool = False
    max_guesses: int = Field(6, ge=1, le=MAX_ROWS)
    date: DayText | None = None


Goal = Literal["streak", "average"]
GOAL_FIELD = (
    "what the search plays for: streak, the smallest chance of losing first, then the fewest "
    "guesses; average, the fewest guesses on average (a lost game counted as ten more)"
)


class SuggestIn(GameIn):
    strategy: str = Field("search", max_length=20, description="search, or a greedy ranker")
    goal: Goal = Field("streak", description=GOAL_FIELD)
    top: int = Field(10, ge=1, le=50, description="how many suggestions")
    candidates: int = Field(100, ge=0, le=1000, description="how many remaining candidates to list")
    puzzle: int | None = Field(None, ge=0, le=1_000_000, description="the day as a puzzle number (instead of date)")
    guess_space: Literal["all", "candidates"] = Field(
        "all",
        description="the guesses suggested: any allowed word, or only the words still possible (every guess can win)",
    )


Style = Literal["dark", "light", "contrast"]


class AnalyzeIn(GameIn):
    answer: Word | None = Field(None, description="the answer, when the game was lost (checked against the rows)")
    puzzle: int | None = Field(None, ge=0, le=1_000_000, description="puzzle number for the share text")
    style: Style = "dark"
    goal: Goal = Field("streak", description=GOAL_FIELD)


class ShareIn(GameIn):
    puzzle: int | None = Field(None, ge=0, le=1_000_000)
    style: Style = "dark"


class GridIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    grid: str = Field(
        min_length=1,
        max_length=2000,
        description='a share grid as the game copies it: "Wordle 1,795 4/6" and its rows of tiles',
    )
    played: (
        Annotated[list[Word], Field(max_length=MAX_ROWS)] | Annotated[str, Field(max_length=MAX_HISTORY_TEXT)] | None
    ) = Field(None, description="the words played, in order (list, or text separated by commas or spaces)")
    history: History | None = Field(
        None, description="the board's rows: their words are used when their colours are the grid's"
    )
    words: WordSetName | None = None
    hard: bool | None = Field(None, description="hard mode (default: the grid's '*')")
    date: DayText | None = None
    style: Style = "dark"


class FeedbackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    guess: Word
    answer: Word


MAX_BOARDS = 8  # Octordle: its first move is the dearest one a request may ask for (~0.5 s)
MAX_MULTI_ROWS = MAX_BOARDS + 5  # Octordle's 13 guesses


class MultiRowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    guess: Word
    feedback: list[Annotated[str, Field(max_length=MAX_FEEDBACK)] | None] = Field(
        max_length=MAX_BOARDS,
        description='the colours on each board, left to right: "20110", "gy..g", '
        'emoji, or null / "-" for a board solved before this guess',
    )


MultiHistory = Annotated[
    Annotated[list[MultiRowIn], Field(max_length=MAX_MULTI_ROWS)]
    | Annotated[str, Field(max_length=MAX_MULTI_ROWS * (MAX_LENGTH + 2 + MAX_BOARDS * (MAX_LENGTH + 1)))],
    Field(
        description='rows played so far: [{"guess": "salet", "feedback": ["20110", "00000", null, "10000"]}, …] '
        'or "salet:20110/00000/-/10000,…"'
    ),
]


class MultiSuggestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    boards: int = Field(4, ge=2, le=MAX_BOARDS, description="2 Dordle, 4 Quordle, 8 Octordle")
    history: MultiHistory = Field(default_factory=list)
    words: WordSetName | None = None
    hard: bool = False
    max_guesses: int | None = Field(
        None, ge=2, le=MAX_MULTI_ROWS, description="the guesses allowed (default: boards + 5)"
    )
    top: int = Field(5, ge=1, le=20, description="how many suggestions")
    candidates: int = Field(12, ge=0, le=100, description="how many candidates to list per board")
    date: DayText | None = None
    objective: Literal["score", "guesses"] = Field(
        "score",
        description="what to minimise: the sum over boards of the guess that solved each, or the "
        "guesses to solve them all",
    )
