"""The terminal UI for multi-board games (``wordlebot tui --boards 4``): the boards side by side,
each with its rows in colour and how many words are left, the suggestions and which boards they
serve, and one input line a guess: the word, then the colours of each open board.

State lives in ``multi.MultiGame`` and the policy in ``multi.suggest``; this module only shows
them and passes the typed line on (``MultiGame.colours_of`` reads it).  The search runs in a
worker thread, so typing never waits for it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, Static
from textual.worker import get_current_worker

from ..core import clock
from ..core.data import puzzle_number
from ..core.errors import WordlebotError
from ..core.feedback import pattern_to_colours
from ..core.words import Lexicon
from ..multi import MultiGame, check_objective, suggest
from ..multi.simulate import answer_sets

TILE = {0: "bold white on #3a3a3c", 1: "bold white on #b59f3b", 2: "bold white on #538d4e"}
TOP = 5


def board_text(game: MultiGame, b: int, compact: bool) -> Text:
    """Board ``b``'s rows as coloured tiles (one letter a tile when ``compact``), a blank row for
    each guess still to come while it is open."""
    t = Text()
    solved = game.solved_at[b]
    n = game.lexicon.length
    cell = "{}" if compact else " {} "
    for k, row in enumerate(game.rows):
        p = row.patterns[b]
        if p is None:
            break
        for ch, c in zip(row.guess.upper(), pattern_to_colours(p, n)):
            t.append(cell.format(ch), style=TILE[c])
        t.append("\n")
    if solved is None:
        for _ in range(game.guesses_left):
            t.append((cell.format("·") * n) + "\n", style="grey50")
    return t


class MultiBoardApp(App):
    CSS = """
    #boards { height: auto; }
    .board { width: auto; margin: 0 1; height: auto; }
    .board Static { width: auto; }
    .board-title { color: $text-muted; }
    /* the suggestions take the room the boards leave, so the line you type in and its status
       stay in view at 80x24 (the whys of hard mode wrap to two lines: five of them pushed the
       input off the screen) */
    #suggestions { height: 1fr; min-height: 1; margin: 1 1 0 1; }
    #status { height: auto; margin: 0 1; }
    #status.error { color: $error; }
    Input { margin: 0 1; }
    """
    BINDINGS = [
        Binding("tab", "fill", "Suggestion", priority=True),  # before the focus change
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+n", "new_game", "New"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        lexicon: Lexicon,
        boards: int = 4,
        *,
        hard: bool = False,
        play: bool = False,
        answers: Sequence[str] | None = None,
        seed: int | None = None,
        objective: str = "score",
    ) -> None:
        """``play``: against hidden words (``answers``, else drawn at random: distinct, by the
        prior, from ``seed``); each line is then just the word.  Otherwise it assists a game
        played elsewhere."""
        super().__init__()
        self.lexicon = lexicon
        self.n_boards = boards
        self.hard = hard
        self.objective = check_objective(objective)
        self.play = play or answers is not None
        self.fixed_answers = list(answers) if answers is not None else None
        self.rng = random.Random(seed)
        self.game = self._new_game()
        self.rows: list = []  # the suggestions shown
        self.version = 0  # of the game state the suggestions belong to

    def _new_game(self) -> MultiGame:
        if not self.play:
            return MultiGame(self.lexicon, self.n_boards, hard=self.hard)
        answers = self.fixed_answers or answer_sets(self.lexicon, self.n_boards, 1, self.rng.getrandbits(63))[0]
        return MultiGame(self.lexicon, self.n_boards, hard=self.hard, answers=answers)

    @property
    def compact(self) -> bool:
        return self.n_boards > 4

    @property
    def top(self) -> int:
        return 3 if self.compact else TOP  # 13 rows of boards leave room for three in 24 lines

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="boards"):
            for b in range(self.n_boards):
                with Vertical(classes="board"):
                    yield Static("", classes="board-title", id=f"title-{b}")
                    yield Static("", id=f"board-{b}")
        yield Static("", id="suggestions")
        yield Input(
            placeholder="your guess (Tab: the suggestion)"
            if self.play
            else "word, then the colours of each open board: roate 00100 20000 …",
            id="line",
        )
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"wordlebot — {self.game.name}"
        if self.compact:
            self.query_one("#suggestions").styles.margin = (0, 1, 0, 1)
        self.query_one(Input).focus()
        if self.objective == "guesses":  # the title line may be cut short at 80 columns
            self.say("playing for the fewest guesses to solve every board (not the lowest score)")
        self.refresh_view()

    # --- view --------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        g = self.game
        day = g.lexicon.day  # the day whose prior the word set carries (--date, else today)
        day_text = "" if day is None else f" {'today ' if day == clock.today() else ''}{day} #{puzzle_number(day):,}"
        self.sub_title = (
            f"{g.lexicon.name}{day_text} · {g.max_guesses} guesses"
            + (" · hard" if g.hard else "")
            + (" · play" if self.play else "")
            + (" · fewest guesses" if self.objective == "guesses" else "")
        )
        for b in range(g.n_boards):
            solved = g.solved_at[b]
            left = int(g.candidates(b).size)
            if self.compact:  # eight boards in 80 columns: a title as narrow as the tiles
                title = f"{b + 1}:✓{solved}" if solved else f"{b + 1}:{left}"
            else:
                title = f"{b + 1}: in {solved}" if solved else f"{b + 1}: {left:,} left"
            self.query_one(f"#title-{b}", Static).update(title)
            self.query_one(f"#board-{b}", Static).update(board_text(g, b, self.compact))
        self.version += 1
        if g.over:
            lost = [str(b + 1) for b in g.active]
            hidden = (
                "; the words were " + ", ".join(f"{b + 1} {(g.boards[b].answer or '?').upper()}" for b in g.active)
                if self.play and lost
                else ""
            )
            self.query_one("#suggestions", Static).update(
                f"out of guesses: board {', '.join(lost)} not solved; score {g.score():g}{hidden}"
                if lost
                else f"all {g.n_boards} boards solved in {g.guesses_used}: score {g.score():g} (Ctrl+N: a new game)"
            )
            self.rows = []
            return
        self.query_one("#suggestions", Static).update("suggestions: searching…")
        self._search(self.version)

    @work(thread=True, exclusive=True, group="suggest")
    def _search(self, version: int) -> None:
        rows = suggest(self.game, self.top, objective=self.objective)  # a function of the state alone
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show, rows, version)

    def _show(self, rows, version: int) -> None:
        if version != self.version:
            return  # the game changed since: a newer search is on its way
        self.rows = rows
        lines = [f"{i}. {r.word.upper()}  {r.cost:.2f}  {r.why}" for i, r in enumerate(rows, start=1)]
        note = self.game.off_list_note()
        if note:
            lines.append(note)
        self.query_one("#suggestions", Static).update(Text("\n".join(lines)))

    def say(self, message: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.set_classes("error" if error else "")
        status.update(Text(message))

    # --- input -------------------------------------------------------------------------------

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        parts = event.value.split()
        if not parts:
            if self.rows:  # Enter on an empty line: the top suggestion, colours to follow
                event.input.value = self.rows[0].word + ("" if self.play else " ")
                event.input.cursor_position = len(event.input.value)
            return
        word, colours = parts[0], parts[1:]
        try:
            self.lexicon.id(word)  # the word first: a line of colours alone is named as such
        except WordlebotError as exc:
            self.say(f"{exc}; a line is the word played, then the colours", error=True)
            return
        if self.play and colours:
            self.say("in play mode the colours are the game's: type just the word", error=True)
            return
        if not colours and not self.play:
            self.say(f"now the colours {word.upper()} got on each open board, e.g. 00100 20000", error=True)
            return
        try:
            row = self.game.guess(word, None if self.play else self.game.colours_of(colours))
        except WordlebotError as exc:
            self.say(str(exc), error=True)
            return
        event.input.value = ""
        self.say(row.describe())
        self.refresh_view()

    def action_fill(self) -> None:
        if self.rows:
            line = self.query_one(Input)
            line.value = self.rows[0].word + ("" if self.play else " ")
            line.cursor_position = len(line.value)

    def action_undo(self) -> None:
        try:
            self.say(f"took back {self.game.undo().guess.upper()}")
        except WordlebotError as exc:
            self.say(str(exc), error=True)
            return
        self.refresh_view()

    def action_new_game(self) -> None:
        self.game = self._new_game()
        self.say("a new game" + (": new hidden words" if self.play and not self.fixed_answers else ""))
        self.refresh_view()
