"""The Textual app: a board, an on-screen keyboard, the suggestions and the candidates, all
painted from a library Session, which also decides what every key does.

Every key of the board goes to ``Session.press`` through one handler, in the order typed, so
a paste or a burst of keys gives what slow typing gives.  The search runs in a worker thread,
so the screen never freezes; its rows are offered to the session for the position they were
computed for (keys that need them wait for them).  F1 lists the keys.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static
from textual.worker import get_current_worker

from ..app.session import KEYS_HELP, GridUse, Outcome, Session, Settings, SettingsPlan
from ..core.days import GameDay, resolve_day
from ..core.errors import WordlebotError
from ..core.text import format_prob, format_solve, plural
from .screens import AnalysisScreen, GridScreen, HelpScreen, SettingsScreen

# Keys the session handles (a printable character is one too); the rest are the app's bindings.
SESSION_KEYS = frozenset(
    {"enter", "tab", "backspace", "left", "right", "up", "down", "space", "escape", "ctrl+z", "ctrl+n", "f3"}
)
# Start-up notices show this long (they stay in the status line after): long enough to read, short
# enough not to cover the settings dialog for a minute.
NOTICE_SECONDS = 12
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
KEY_STYLES = {-1: "bold black on grey70", 0: "grey50 on grey15", 1: "bold white on #b59f3b", 2: "bold white on #538d4e"}


class Tile(Static):
    """One letter square; clicking it asks the app to cycle its colour."""

    class Clicked(Message):
        def __init__(self, row: int, col: int) -> None:
            super().__init__()
            self.row, self.col = row, col

    def __init__(self, row: int, col: int) -> None:
        super().__init__("   ", classes="tile empty")
        self.row, self.col = row, col

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.row, self.col))

    def show(self, letter: str, state: str, cursor: bool, kind: str) -> None:
        # the cursor is drawn as brackets, so the colour it stands on stays visible
        ch = letter.upper() or " "
        self.update(Text(f"[{ch}]" if cursor else f" {ch} "))  # Text: the brackets are not markup
        self.set_classes(f"tile {state} {kind}" + (" cursor" if cursor else ""))


class Board(Vertical):
    def __init__(self, rows: int, length: int) -> None:
        super().__init__(id="board", classes="compact" if rows > 7 else "")
        self.n_rows, self.length = rows, length

    def compose(self) -> ComposeResult:
        for r in range(self.n_rows):
            with Horizontal(classes="board-row"):
                for c in range(self.length):
                    yield Tile(r, c)

    def paint(self, rows) -> None:
        for t in self.query(Tile):
            row = rows[t.row]
            cell = row.cells[t.col]
            t.show(cell.letter, cell.state, cell.cursor, row.kind)


def keyboard_text(states: dict[str, int]) -> Text:
    """The on-screen keyboard: each letter coloured by what the rows played say of it."""
    out = Text()
    for k, row in enumerate(KEY_ROWS):
        out.append(" " * k)
        for i, ch in enumerate(row):
            out.append(ch.upper(), style=KEY_STYLES[states.get(ch, -1)])
            if i < len(row) - 1:
                out.append(" ")
        if k < len(KEY_ROWS) - 1:
            out.append("\n")
    return out


def columns(items: list[str], width: int) -> str:
    """Items in aligned columns, as many as fit ``width`` (a word and its chance never split)."""
    if not items:
        return ""
    cell = max(map(len, items)) + 2
    per_line = max(1, (width + 2) // cell)
    lines = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return "\n".join("".join(x.ljust(cell) for x in line).rstrip() for line in lines)


def fitting(n: int, width: int, height: int, cell: int) -> int:
    """How many of ``n`` words in cells of ``cell`` columns fill a box of ``width`` x ``height``
    (one line kept for "… and N more" when they do not all fit); 60 before the box is laid out."""
    if height <= 0:
        return min(n, 60)
    per_line = max(1, (width + 2) // cell)
    return n if n <= per_line * height else per_line * max(1, height - 1)


class Candidates(Static):
    """The words still possible, as many as the box holds: drawn again when its size changes
    (the screen's own resize comes before its boxes are laid out again)."""

    def on_resize(self, event: events.Resize) -> None:
        self.app.call_after_refresh(self.app.refresh_view)  # type: ignore[attr-defined]  # (the WordlebotApp's)


class SuggestionTable(DataTable, can_focus=False):
    """The suggestions; a click on a row puts its word in the row being typed.  It never takes
    the focus, so every key goes to the board."""

    class Chosen(Message):
        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    LABELS = ("guess", "avg", "bits", "left", "max", "P(ans)", "ans", "hard")
    # with a guess that may lose: the chance to solve after avg (avg is then the guesses when solved)
    RISKY_LABELS = ("guess", "avg", "solve", "bits", "left", "max", "P(ans)", "ans", "hard")

    async def _on_click(self, event: events.Click) -> None:
        event.prevent_default()
        row = event.style.meta.get("row")
        if isinstance(row, int) and row >= 0:
            self.post_message(self.Chosen(row))

    def show(self, rows: list[tuple[str, ...]]) -> None:
        """Put these rows in, each column as wide as its widest text.  The widths are set here
        rather than measured by the table: measuring on its own, the table once in a few cold
        starts kept the headers' widths, so that ≈3.367 showed as ≈3. (seen in tmux at 80x24)."""
        self.clear(columns=True)
        labels = self.RISKY_LABELS if rows and len(rows[0]) == len(self.RISKY_LABELS) else self.LABELS
        for j, label in enumerate(labels):
            self.add_column(label, width=max([cell_len(label), *(cell_len(row[j]) for row in rows)]))
        for row in rows:
            self.add_row(*row)


class BoardScreen(Screen):
    """The main screen.  Its Tab binding replaces the default focus change (nothing here takes
    the focus), so the footer shows what Tab does."""

    BINDINGS = [Binding("tab", "app.key('tab')", "Suggestion")]


TERMINAL_CHECK_SECONDS = 1.0


def _tty_alive() -> bool:
    """Whether standard input is a terminal that is still there: a hung-up one fails this call
    (EIO), where reading it only returns end of file, over and over."""
    import termios

    try:
        termios.tcgetattr(sys.__stdin__.fileno() if sys.__stdin__ is not None else 0)
        return True
    except (termios.error, OSError, AttributeError, ValueError):  # hung up, closed, none, not a terminal
        return False


class WordlebotApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "wordlebot"
    ENABLE_COMMAND_PALETTE = False
    # The session keys are handled in on_key (in order); these bindings put them in the footer
    # and make the footer clickable.  check_action turns them off while a dialog is open.
    BINDINGS = [
        Binding("enter", "key('enter')", "Play"),
        Binding("ctrl+z", "key('ctrl+z')", "Undo"),
        Binding("ctrl+n", "key('ctrl+n')", "New"),
        Binding("f2", "settings", "Settings"),
        Binding("f3", "key('f3')", "Hints"),
        Binding("f1", "help", "Keys"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        top: int = 8,
        persist: bool = True,
        data_dir: str | Path | None = None,
        notes: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.data_dir = data_dir  # where the settings dialog loads other word lists from
        self.top = top
        self.persist = persist  # save the settings the user changes in the dialog
        self.notes = list(notes or [])  # start-up notices (a stale history, a fallback list…)
        self.message = ""
        self.error = False
        self._hidden_shown = False  # the table was emptied to hide the hints: paint it when shown
        self._search_error: str | None = None  # why the last search gave no suggestion
        self._footer_hints: bool | None = None  # the footer's F3 follows whether the hints are hidden

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        s = self.session
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Board(s.game.max_guesses, s.length)
                yield Static("", id="keyboard")
            with Vertical(id="right"):
                yield Static("suggestions", classes="title", id="sugg-title")
                yield SuggestionTable(id="suggestions", cursor_type="none", zebra_stripes=True)
                yield Static("candidates", classes="title", id="cand-title")
                yield Static("", id="trap")
                yield Candidates("", id="candidates")
        yield Static("", id="notice")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(SuggestionTable)
        table.add_columns(*table.LABELS)
        self._fit_left()
        # Progress lines of the start ("Training the answer model…") are over by now: not news.
        from ..app.wordsets import is_progress

        # A fallback word list is said by the notice line, in view for the whole session (its
        # whole story went to stderr before the screen opened); a toast would only cover it.
        fallback = self.session.lexicon.fallback
        notes = [n for n in self.notes if not is_progress(n) and (fallback is None or n != fallback.message)]
        for note in notes:
            self.notify(note, severity="warning", timeout=NOTICE_SECONDS)
        day = self.session.day_line()  # which day's prior is in use, and how to choose another
        if notes:  # the first one stays in the status line until something else is said
            self.message = notes[0]
            if day:  # (the header keeps the day)
                self.notify(day, timeout=NOTICE_SECONDS)
        else:
            self.message = day or ""
        self.refresh_view()
        self.load_suggestions()
        if not self.is_headless and _tty_alive():
            self.set_interval(TERMINAL_CHECK_SECONDS, self._leave_if_terminal_gone)

    def _leave_if_terminal_gone(self) -> None:
        """Quit once the terminal has gone (its window closed, an ssh link dropped) when no hangup
        signal said so: under `make run`, make takes the signal and the app was left reading a
        dead terminal at full CPU."""
        if not _tty_alive():
            self.exit()

    def get_default_screen(self) -> Screen:
        return BoardScreen(id="_default")

    def _fit_left(self) -> None:
        self.query_one("#left").styles.width = max(21, 4 * self.session.length + 1)

    def _describe(self) -> str:
        s = self.session
        day = s.day_label()
        return (
            f"{s.lexicon.name}{' ' + day if day else ''} · {s.mode} · {s.settings.strategy}"
            f"{' · answers only' if s.settings.guess_space == 'candidates' else ''}"
            f"{' · hard' if s.game.hard else ''} · {s.game.max_guesses} guesses"
        )

    # --- rendering ---------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        s = self.session
        self.sub_title = self._describe()
        if s.hints_shown != self._footer_hints:
            self._footer_hints = s.hints_shown
            self.refresh_bindings()
        boards = self.query(Board)
        if boards and (boards.first().n_rows, boards.first().length) != (s.game.max_guesses, s.length):
            self.call_later(self._rebuild_board)
        elif boards:  # (none for a moment while the board is rebuilt)
            boards.first().paint(s.board())
        self.query_one("#keyboard", Static).update(keyboard_text(s.keyboard()))
        notice = s.notice()
        self.query_one("#notice", Static).update(Text(notice or ""))
        self.query_one("#notice").display = bool(notice)
        status = self.query_one("#status", Static)
        status.set_classes("error" if self.error else ("" if self.message else "hint"))
        status.update(self.message or s.hint())
        if not s.hints_shown:  # spoiler-free: nothing of the words left until asked (F3)
            self.query_one("#cand-title", Static).update("candidates hidden until asked: F3 shows the hints")
            self.query_one("#trap").display = False
            self.query_one("#candidates", Static).update("")
            self._hide_suggestions()
            return
        self.query_one("#cand-title", Static).update(s.candidates_line())
        trap = s.trap()
        self.query_one("#trap", Static).update(trap or "")
        self.query_one("#trap").display = bool(trap)
        n = int(s.game.candidates.size)
        box = self.query_one("#candidates", Static)
        width = box.size.width or 56
        # A word and its chance ("ABODE 0.08%", "<0.01%" at most) and the gap between columns.
        cell = s.length + (7 if s.lexicon.weighted else 0) + 2
        shown = s.candidates(fitting(n, width, box.size.height, cell))
        items = [w.upper() + (f" {format_prob(p) or '<0.01%'}" if s.lexicon.weighted else "") for w, p in shown]
        box.update(columns(items, width) + (f"\n… and {n - len(shown):,} more" if n > len(shown) else ""))
        if self._hidden_shown and s.suggestions_current:  # the hints were just asked for (F3)
            self._paint_suggestions()

    def _hide_suggestions(self) -> None:
        table = self.query_one(SuggestionTable)
        table.clear()
        table.display = False
        if not self.session.over:
            self.query_one("#sugg-title", Static).update("suggestions hidden until asked (F3)")
        self._hidden_shown = True

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_view)

    def say(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        if error:
            self.bell()
        self.refresh_view()

    async def _rebuild_board(self) -> None:
        """A new word length or guess cap needs a board of another shape."""
        s = self.session
        boards = self.query(Board)
        if boards and (boards.first().n_rows, boards.first().length) == (s.game.max_guesses, s.length):
            return  # already rebuilt (two refreshes asked for it)
        await boards.remove()
        await self.query_one("#left").mount(Board(s.game.max_guesses, s.length), before=0)
        self._fit_left()
        self.query_one(Board).paint(s.board())

    def load_suggestions(self) -> None:
        """Search in a worker thread, on a snapshot of the game taken here (the board may change
        meanwhile); the rows are offered to the session for the version they were found for."""
        s = self.session
        table = self.query_one(SuggestionTable)
        table.clear()
        table.display = s.hints_shown
        if s.over:
            self.query_one("#sugg-title", Static).update("game over")
            return
        if s.hints_shown:
            self.query_one("#sugg-title", Static).update("suggestions: searching…")
        else:
            self._hide_suggestions()
        self._search(s.game.copy(), s.version)

    @work(thread=True, exclusive=True, group="suggest")
    def _search(self, game, version: int) -> None:
        error = None
        try:
            rows = self.session.suggestions(self.top, game)
        except WordlebotError as exc:
            rows, error = [], str(exc)
        if get_current_worker().is_cancelled:
            return  # a newer search (after another row) replaced this one: its rows are stale
        self.call_from_thread(self._show_suggestions, rows, version, error)

    def _show_suggestions(self, rows, version: int, error: str | None = None) -> None:
        s = self.session
        if version != s.version:
            return
        self._search_error = error
        outcomes = s.offer(rows, version)
        if s.hints_shown:
            self._paint_suggestions()
        else:
            self._hide_suggestions()
        if outcomes:
            self.handle(outcomes)

    def _paint_suggestions(self) -> None:
        """The suggestions offered for the position on the board, in the table and its title."""
        s = self.session
        error = self._search_error
        self.query_one(SuggestionTable).display = True
        risky = any(r.lose for r in s.offered)
        cells = [
            (
                r.word.upper(),
                # ≈: an estimate past the look-ahead; the guesses when solved, never a penalty
                ("≈" if r.basis == "estimate" else "") + f"{r.expected:.3f}" if r.expected is not None else "",
                *((format_solve(r.lose),) if risky else ()),
                f"{r.bits:.2f}",
                f"{r.expected_left:.1f}",
                str(r.largest),
                format_prob(r.p_answer),
                "✓" if r.can_be_answer else "",
                "✓" if r.hard_legal else "✗",
            )
            for r in s.offered
        ]
        self.query_one(SuggestionTable).show(cells)
        title = self.query_one("#sugg-title", Static)
        if s.game.off_list:
            title.update(f"no suggestions: {s.game.off_list_note}")
        elif error:
            title.update(f"no suggestions: {error}")
        else:
            best = s.offered[0].word.upper() if s.offered else "…"
            estimate = bool(s.offered) and s.offered[0].basis == "estimate"
            # ≈: past the look-ahead the estimate does not count hard mode's limits (optimistic)
            note = (
                "; ≈ may be low in hard mode" if estimate and s.game.hard else "; avg ≈ estimated" if estimate else ""
            )
            # the goal first (what the search plays for), short enough for the panel at 80 columns
            title.update(
                f"{s.settings.goal} · Tab plays {best}{note}"
                if s.advisor.searching
                else f"suggestions (Tab plays {best}{note})"
            )
        self._hidden_shown = False

    # --- input -------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("key", "settings", "help") and self.screen is not self.screen_stack[0]:
            return False
        if action == "key" and parameters == ("f3",):  # in the footer only while the hints are hidden
            return not self.session.hints_shown
        if action == "key" and parameters == ("tab",):  # the top suggestion is a hint too
            return self.session.hints_shown
        return True

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # a dialog is open: its widgets own the keys
        ch = event.character
        if event.key in SESSION_KEYS:
            key = event.key
        elif ch and len(ch) == 1 and ch.isprintable() and not ch.isspace():
            key = ch
        else:
            return  # F1, F2, ctrl+q…: the bindings
        event.prevent_default()
        event.stop()
        self.handle([self.session.press(key)])

    def on_paste(self, event: events.Paste) -> None:
        if self.screen is self.screen_stack[0]:
            event.stop()
            self.handle(self.session.paste(event.text))

    def action_key(self, key: str) -> None:
        """A footer click: the same as the key."""
        self.handle([self.session.press(key)])

    def handle(self, outcomes: list[Outcome]) -> None:
        """Show what the keys did; search again when the game changed; the analysis at the end."""
        if not outcomes:
            return
        grids = [o.grid for o in outcomes if o.grid is not None]
        outcomes = [o for o in outcomes if o.grid is None]
        if outcomes:
            errors = [o for o in outcomes if o.error]
            shown = errors[-1] if errors else outcomes[-1]
            self.say(shown.message, bool(errors))
            if any(o.played for o in outcomes):
                self.load_suggestions()
                if self.session.over and any(o.finished for o in outcomes):
                    self.push_screen(AnalysisScreen(self.session))
        if grids:
            self.take_grid(grids[-1])

    def take_grid(self, grid) -> None:
        """A pasted share grid: its day becomes the game's (the prior of that day, loaded in a
        worker), then its analysis: of the board's rows when they show the grid's colours, else
        of the grid alone when the history has its answer."""
        try:
            use = self.session.use_grid(grid)
        except WordlebotError as exc:
            self.say(f"that share grid cannot be used: {exc}", True)
            return
        self.say(
            f"share grid of Wordle #{use.game_day.puzzle:,}: loading the prior of {use.game_day.day}…"
            if use.new_day
            else use.message()
        )
        self._grid_day(use)

    @work(thread=True, exclusive=True, group="grid")
    def _grid_day(self, use: GridUse) -> None:
        plan = error = None
        try:
            if use.new_day or use.game_day != self.session.game_day:
                plan = self._plan(self.session.settings, use.game_day)
        except WordlebotError as exc:
            error = str(exc)
        self.call_from_thread(self._grid_ready, use, plan, error)

    def _grid_ready(self, use: GridUse, plan: SettingsPlan | None, error: str | None) -> None:
        if error:
            self.say(f"the day of that share grid cannot be loaded: {error}", True)
            return
        if plan is not None:
            if plan.loses_rows:
                self.say(f"the day of that share grid cannot be used with this game: {plan.reason}", True)
                return
            self.session.adopt(plan)
            self.load_suggestions()
        self.say(use.message())
        if use.words:
            self.push_screen(AnalysisScreen(self.session, answer=use.game_day.answer))
        elif use.game_day.answer:
            self.push_screen(GridScreen(self.session, use.grid))

    @on(SuggestionTable.Chosen)
    def suggestion_clicked(self, message: SuggestionTable.Chosen) -> None:
        s = self.session
        if 0 <= message.row < len(s.offered) and not s.over and s.editing is None:
            try:
                s.use_word(s.offered[message.row].word)
            except WordlebotError as exc:
                self.say(str(exc), True)
                return
            self.say("")

    @on(Tile.Clicked)
    def tile_clicked(self, message: Tile.Clicked) -> None:
        self.handle([self.session.click(message.row, message.col)])

    def action_help(self) -> None:
        self.push_screen(HelpScreen(KEYS_HELP))

    def action_settings(self) -> None:
        before = self.session.settings

        def done(result: tuple[SettingsPlan, bool] | None) -> None:
            if result is not None:
                self.apply_plan(result[0], before)

        self.push_screen(SettingsScreen(self.session, self._plan_day), done)

    def _plan_day(self, settings: Settings, day_text: str) -> SettingsPlan:
        """The dialog's plan: the day as typed (a date, a puzzle number, empty for today)."""
        s = self.session
        current = s.game_day
        if (
            current is not None
            and current.chosen
            and day_text.strip() in (current.day.isoformat(), str(current.puzzle))
        ):
            return self._plan(settings, current)
        return self._plan(settings, resolve_day(date=day_text, history=s.history))

    def _plan(self, settings: Settings, game_day: GameDay | None = None) -> SettingsPlan:
        """What the new settings (and day) would do (called on a worker thread)."""

        def note(m: str) -> None:
            self.call_from_thread(self.notify, m, severity="warning", timeout=20)

        gd = game_day or self.session.game_day
        day = gd.day if gd is not None and gd.chosen else None

        def load(new: Settings):
            return new.lexicon(self.data_dir, auto_fetch=False, day=day, notify=note, prefetch_matrix=True)

        return self.session.plan(settings, load, game_day)

    def apply_plan(self, plan: SettingsPlan, before: Settings) -> None:
        """Adopt new settings: the game goes on with its rows when they fit the new rules, else
        (the user confirmed it in the dialog) a new game starts."""
        kept = plan.game is not None
        day_before = self.session.game_day
        self.session.adopt(plan)
        note = Settings.remember(before, plan.settings) if self.persist else None
        if kept:
            msg = f"settings applied; the game goes on ({plural(plan.rows, 'row')} kept)"
        else:
            msg = "settings applied" + ("; a new game" if plan.moves else "")
        gd = self.session.game_day
        if gd is not None and day_before is not None and gd.day != day_before.day:
            msg += f"; {gd.describe()}"
        self.say(msg + (f" ({note})" if note else ""))
        self.load_suggestions()
