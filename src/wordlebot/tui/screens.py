"""The settings dialog and the end-of-game analysis screen."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Switch

from ..advisor import ALL_STRATEGIES
from ..errors import WordlebotError
from ..feedback import format_emoji
from ..session import MODES, Settings
from ..wordsets import NAMES


class SettingsScreen(ModalScreen[Settings | None]):
    """Word set (named, files, other lengths), strategy, hard mode, guess cap, mode."""

    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(id="dialog"):
            yield Label("Settings", classes="title")
            with Horizontal(classes="field"):
                yield Label("word set")
                names = list(NAMES) + ([s.words] if s.words not in NAMES else [])
                yield Select([(n, n) for n in names], value=s.words, allow_blank=False, id="words", compact=True)
            with Horizontal(classes="field"):
                yield Label("length")
                yield Input(str(s.length), id="length", restrict=r"[0-9]*", max_length=2, compact=True)
            with Horizontal(classes="field"):
                yield Label("guess file")
                yield Input(s.guesses_file or "", placeholder="(optional) one word per line", id="guesses", compact=True)
            with Horizontal(classes="field"):
                yield Label("answer file")
                yield Input(s.answers_file or "", placeholder="(optional)", id="answers", compact=True)
            with Horizontal(classes="field"):
                yield Label("strategy")
                yield Select([(n, n) for n in ALL_STRATEGIES], value=s.strategy, allow_blank=False, id="strategy", compact=True)
            with Horizontal(classes="field"):
                yield Label("mode")
                yield Select([(m, m) for m in MODES], value=s.mode, allow_blank=False, id="mode", compact=True)
            with Horizontal(classes="field"):
                yield Label("hard mode")
                yield Switch(value=s.hard, id="hard")
            with Horizontal(classes="field"):
                yield Label("guess cap")
                yield Input(str(s.max_guesses), id="cap", restrict=r"[0-9]*", max_length=2, compact=True)
            yield Static("", id="settings-error")
            with Horizontal(classes="buttons"):
                yield Button("Apply", variant="primary", id="apply", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    @on(Button.Pressed, "#apply")
    def apply(self) -> None:
        q = self.query_one
        try:
            length = int(q("#length", Input).value or 5)
            cap = int(q("#cap", Input).value or 6)
        except ValueError:
            length, cap = -1, -1
        if not 4 <= length <= 11 or not 2 <= cap <= 10:
            q("#settings-error", Static).update("length must be 4-11 and the guess cap 2-10")
            return
        self.dismiss(Settings(
            words=str(q("#words", Select).value), length=length,
            guesses_file=q("#guesses", Input).value.strip() or None,
            answers_file=q("#answers", Input).value.strip() or None,
            strategy=str(q("#strategy", Select).value), hard=q("#hard", Switch).value, max_guesses=cap,
            mode=str(q("#mode", Select).value),
        ))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class AnalysisScreen(ModalScreen[None]):
    """The game rated row by row (skill, luck) and its share grid, ready to copy."""

    BINDINGS = [("escape", "close", "Close"), ("c", "copy", "Copy share grid"), ("n", "new", "New game")]

    def __init__(self, session) -> None:
        super().__init__()
        self.session = session
        self.share = session.share()

    def compose(self) -> ComposeResult:
        with Vertical(id="analysis"):
            yield Label("Game analysis", classes="title")
            yield Static("analysing…", id="summary")
            yield DataTable(id="rows", zebra_stripes=True)
            yield Static(self.share, id="share")
            with Horizontal(classes="buttons"):
                yield Button("Copy share grid", variant="primary", id="copy", compact=True)
                yield Button("New game", id="new", compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        t = self.query_one("#rows", DataTable)
        t.add_columns("#", "guess", "tiles", "left", "bot", "bot avg", "your avg", "skill", "luck")
        self.analyse()

    @work(thread=True, exclusive=True)
    def analyse(self) -> None:
        try:
            report = self.session.analysis()
        except WordlebotError as exc:
            self.app.call_from_thread(self.query_one("#summary", Static).update, f"no analysis: {exc}")
            return
        self.app.call_from_thread(self._show, report)

    def _show(self, report) -> None:
        t = self.query_one("#rows", DataTable)
        n = self.session.length
        for r in report.rows:
            t.add_row(str(r.index), r.guess.upper(), format_emoji(r.pattern, n),
                      f"{r.candidates_before:,}→{r.candidates_after:,}", r.best.upper(), f"{r.best_expected:.2f}",
                      f"{r.player_expected:.2f}", str(r.skill), str(r.luck))
        for k, r in enumerate(report.unrated, start=len(report.rows) + 1):
            t.add_row(str(k), r.guess.upper(), format_emoji(r.pattern, n), "off list", "—", "", "", "", "")
        self.query_one("#summary", Static).update(report.summary())

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.share)
        self.app.notify("share grid copied")

    @on(Button.Pressed, "#new")
    def action_new(self) -> None:
        self.dismiss(None)
        self.app.action_new_game()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
