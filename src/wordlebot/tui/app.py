"""The Textual app: a board, the suggestions and the candidates, driven by a library Session.

Keys (the footer shows them): letters type the guess; Backspace deletes; ←/→ pick a tile and
Space cycles its colour (gray → yellow → green; a click on a tile does the same, also on an
earlier row to correct it); Tab puts the top suggestion in the row; Enter submits; Ctrl+Z
undoes; Ctrl+N starts a new game; F2 opens the settings; Ctrl+Q quits.  The search runs in a
worker thread, so the screen never freezes.
"""

from __future__ import annotations

from pathlib import Path

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Footer, Header, LoadingIndicator, Static
from textual.worker import get_current_worker

from ..errors import WordlebotError
from ..feedback import GRAY, GREEN, YELLOW, pattern_to_colours
from ..render import format_prob
from ..session import Session, Settings
from .screens import AnalysisScreen, SettingsScreen

COLOUR_CLASS = {GRAY: "gray", YELLOW: "yellow", GREEN: "green"}


class Tile(Static):
    """One letter square; clicking it asks the app to cycle its colour."""

    class Clicked(Message):
        def __init__(self, row: int, col: int) -> None:
            super().__init__()
            self.row, self.col = row, col

    def __init__(self, row: int, col: int) -> None:
        super().__init__(" ", classes="tile empty")
        self.row, self.col = row, col

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.row, self.col))

    def show(self, letter: str, state: str, cursor: bool = False) -> None:
        self.update(f" {letter.upper() or ' '} ")
        self.set_classes(f"tile {state}" + (" cursor" if cursor else ""))


class Board(Vertical):
    def __init__(self, rows: int, length: int) -> None:
        super().__init__(id="board")
        self.n_rows, self.length = rows, length

    def compose(self) -> ComposeResult:
        for r in range(self.n_rows):
            with Horizontal(classes="board-row"):
                for c in range(self.length):
                    yield Tile(r, c)

    def render_session(self, s: Session, cursor: int) -> None:
        played = s.game.rows
        colours = [pattern_to_colours(row.pattern, s.length) for row in played]
        typing = not s.over
        assist = s.mode == "assist"
        for t in self.query(Tile):
            if t.row < len(played):
                t.show(played[t.row].guess[t.col], COLOUR_CLASS[colours[t.row][t.col]])
            elif t.row == len(played) and typing:
                if t.col < len(s.letters):
                    state = COLOUR_CLASS[s.colours[t.col]] if assist else "typed"
                    t.show(s.letters[t.col], f"pending {state}", cursor=(t.col == cursor and assist))
                else:
                    t.show("", "empty current")
            else:
                t.show("", "empty")


class WordlebotApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "wordlebot"
    # Enter, Tab and Space act on the board even when the suggestion table has the focus;
    # check_action turns them off while a dialog is open so its fields get them.
    BINDINGS = [
        Binding("enter", "submit", "Submit", priority=True),
        Binding("tab", "use_suggestion", "Use suggestion", priority=True),
        Binding("space", "cycle", "Colour", priority=True),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+n", "new_game", "New game"),
        Binding("f2", "settings", "Settings"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, session: Session, *, top: int = 8, persist: bool = True,
                 data_dir: str | Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.data_dir = data_dir  # where the settings dialog loads other word lists from
        self.top = top
        self.cursor = 0
        self.persist = persist
        self.current: list = []
        self.message = ""

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Board(self.session.game.max_guesses, self.session.length)
                yield Static("", id="status")
            with Vertical(id="right"):
                yield Static("suggestions", classes="title", id="sugg-title")
                yield LoadingIndicator(id="busy")
                yield DataTable(id="suggestions", cursor_type="row", zebra_stripes=True)
                yield Static("candidates", classes="title", id="cand-title")
                yield Static("", id="candidates")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#suggestions", DataTable)
        table.add_columns("#", "guess", "avg", "bits", "left", "max", "P(ans)", "ans", "hard")
        self.query_one("#busy").display = False
        self.sub_title = self._describe()
        self.refresh_view()
        self.load_suggestions()

    def _describe(self) -> str:
        s = self.session
        mode = "play" if s.mode == "play" else "assist"
        return (f"{s.lexicon.name} · {mode} · {s.settings.strategy}"
                f"{' · hard' if s.game.hard else ''} · {s.game.max_guesses} guesses")

    # --- rendering ---------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        s = self.session
        self.query_one(Board).render_session(s, self.cursor)
        n = int(s.game.candidates.size)
        note = s.game.off_list_note
        self.query_one("#cand-title", Static).update(note or f"{n:,} candidate{'s' if n != 1 else ''} left")
        shown = s.candidates(60)
        text = "  ".join(f"{w.upper()}" + (f" {format_prob(p)}" if s.lexicon.weighted else "") for w, p in shown)
        more = f"  … and {n - len(shown):,} more" if n > len(shown) else ""
        self.query_one("#candidates", Static).update(text + more)
        self.query_one("#status", Static).update(self.message)

    def say(self, message: str, error: bool = False) -> None:
        self.message = message
        status = self.query_one("#status", Static)
        status.set_classes("error" if error else "")
        status.update(message)
        if error:
            self.bell()

    def load_suggestions(self) -> None:
        """Search in a worker thread, on a snapshot of the game taken here (the board may change
        meanwhile); the table updates when it is done."""
        self._search(self.session.game.copy())

    @work(thread=True, exclusive=True, group="suggest")
    def _search(self, game) -> None:
        self.call_from_thread(self._busy, True)
        try:
            rows = self.session.suggestions(self.top, game)
        except WordlebotError as exc:
            self.call_from_thread(self.say, str(exc), True)
            rows = []
        if get_current_worker().is_cancelled:
            return  # a newer search (after another row) replaced this one: its rows are stale
        self.call_from_thread(self._show_suggestions, rows)

    def _busy(self, on_: bool) -> None:
        self.query_one("#busy").display = on_

    def _show_suggestions(self, rows) -> None:
        self._busy(False)
        self.current = rows
        table = self.query_one("#suggestions", DataTable)
        table.clear()
        for i, r in enumerate(rows, start=1):
            mark = "≈" if r.basis == "estimate" else ""  # an estimate past the look-ahead
            table.add_row(str(i), r.word.upper(), f"{mark}{r.expected:.3f}" if r.expected is not None else "",
                          f"{r.bits:.2f}", f"{r.expected_left:.1f}", str(r.largest), format_prob(r.p_answer),
                          "✓" if r.can_be_answer else "", "✓" if r.hard_legal else "✗")
        if self.session.over:
            self.query_one("#sugg-title", Static).update("game over")
        elif self.session.game.off_list:
            self.query_one("#sugg-title", Static).update(f"no suggestions: {self.session.game.off_list_note}")
        else:
            best = rows[0].word.upper() if rows else "…"
            note = "; avg ≈ estimated" if rows and rows[0].basis == "estimate" else ""
            self.query_one("#sugg-title", Static).update(f"suggestions (Tab plays {best}{note})")

    # --- input -------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("submit", "use_suggestion", "cycle", "undo", "new_game", "settings") and self.screen_stack \
                and self.screen is not self.screen_stack[0]:
            return False
        return True

    @on(DataTable.RowSelected, "#suggestions")
    def suggestion_clicked(self, message: DataTable.RowSelected) -> None:
        if 0 <= message.cursor_row < len(self.current) and not self.session.over:
            self._guard(lambda: self.session.use_word(self.current[message.cursor_row].word))
            self.cursor = 0
            self.refresh_view()

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # a dialog is open: its widgets own the keys
        s = self.session
        if event.character and len(event.character) == 1 and event.character.isalpha() and event.character.isascii():
            self._guard(lambda: s.type_letter(event.character))
            self.cursor = max(0, len(s.letters) - 1)
            event.stop()
        elif event.key == "backspace":
            s.backspace()
            self.cursor = max(0, len(s.letters) - 1)
            event.stop()
        elif event.key in ("left", "right") and s.letters:
            step = -1 if event.key == "left" else 1
            self.cursor = (self.cursor + step) % len(s.letters)
            event.stop()
        elif event.key in ("up", "down", "1", "2", "0") and s.letters and s.mode == "assist":
            event.stop()
        else:
            return
        self.refresh_view()

    def _guard(self, fn) -> bool:
        try:
            fn()
            return True
        except WordlebotError as exc:
            self.say(str(exc), error=True)
            return False

    @on(Tile.Clicked)
    def tile_clicked(self, message: Tile.Clicked) -> None:
        s = self.session
        if message.row < len(s.game.rows):
            if self._guard(lambda: s.cycle_played(message.row, message.col)):
                self.say(f"row {message.row + 1} corrected")
                self.refresh_view()
                self.load_suggestions()
        elif message.row == len(s.game.rows) and message.col < len(s.letters):
            self.cursor = message.col
            self._guard(lambda: s.cycle(message.col))
            self.refresh_view()

    def action_cycle(self) -> None:
        if self.session.letters:
            self._guard(lambda: self.session.cycle(self.cursor))
            self.refresh_view()

    def action_use_suggestion(self) -> None:
        if self.current and not self.session.over:
            self._guard(lambda: self.session.use_word(self.current[0].word))
            self.cursor = 0
            self.refresh_view()

    def action_submit(self) -> None:
        s = self.session
        if not self._guard(s.submit):
            return
        self.cursor = 0
        if s.game.solved:
            self.say(f"Solved in {len(s.game.rows)}!")
        elif s.over:
            answer = f" The word was {s.secret.upper()}." if s.secret else ""
            self.say(f"Out of guesses.{answer}")
        else:
            self.say(s.game.off_list_note or "")
        self.refresh_view()
        if s.over:
            self._show_suggestions([])
            self.push_screen(AnalysisScreen(s))
        else:
            self.load_suggestions()

    def action_undo(self) -> None:
        if self._guard(self.session.undo):
            self.cursor = 0
            self.say("undone")
            self.refresh_view()
            self.load_suggestions()

    def action_new_game(self) -> None:
        self.session.new_game()
        self.cursor = 0
        self.say("new game")
        self.refresh_view()
        self.load_suggestions()

    def action_settings(self) -> None:
        def done(settings: Settings | None) -> None:
            if settings is None:
                return
            self.apply_settings(settings)

        self.push_screen(SettingsScreen(self.session.settings), done)

    def apply_settings(self, settings: Settings) -> None:
        """Rebuild the session for new settings (a new word list or strategy means a new game).
        The advisor is kept when the word list and strategy are the same: its searches keep
        their tables and opening books."""
        old = self.session.settings
        lexicon, advisor = self.session.lexicon, self.session.advisor
        if (settings.words, settings.length, settings.guesses_file, settings.answers_file) != \
                (old.words, old.length, old.guesses_file, old.answers_file):
            try:
                lexicon = settings.lexicon(self.data_dir, auto_fetch=False, day=self.session.day,
                                           notify=lambda m: self.notify(m, severity="warning"))
            except WordlebotError as exc:
                self.say(str(exc), error=True)
                return
            advisor = None
        if settings.strategy != old.strategy:
            advisor = None
        self.session = Session(lexicon, settings, advisor=advisor, day=self.session.day)
        if self.persist:
            settings.save()
        self.cursor = 0
        self.sub_title = self._describe()
        self.call_later(self._rebuild_board)
        self.say("settings applied")
        self.load_suggestions()

    async def _rebuild_board(self) -> None:
        """A new word length or guess cap needs a board of another shape."""
        await self.query_one(Board).remove()
        await self.query_one("#left").mount(Board(self.session.game.max_guesses, self.session.length), before=0)
        self.refresh_view()
