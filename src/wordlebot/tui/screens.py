"""The settings dialog, the end-of-game analysis and the list of keys."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from ..app.session import Session, SettingsPlan
from ..app.settings import MODES, Settings
from ..app.wordsets import NAMES
from ..core import clipboard
from ..core.errors import WordlebotError
from ..core.feedback import pattern_to_colours
from ..core.text import outcome_cell, sentence
from ..policy.advisor import ALL_STRATEGIES
from ..term.render import TILE_STYLES

GUESS_SPACE_CHOICES = [("any allowed word", "all"), ("only possible answers: every guess can win", "candidates")]
HINT_CHOICES = [
    ("auto: hidden in play mode until F3", "auto"),
    ("always shown", "shown"),
    ("hidden until asked (F3)", "hidden"),
]
# The goals as the settings dialog offers them (advisor.GOAL_TEXT says it in full).
GOAL_LABELS = {
    "streak": "streak: the fewest losses first, then guesses",
    "average": "average: the fewest guesses (a loss: 10 more)",
}


class SettingsScreen(ModalScreen[tuple[SettingsPlan, bool] | None]):
    """Word set (named, files, other lengths), the day (its prior; not saved: a replay is for
    this run), strategy, guesses (any word, or possible answers only), hints, hard mode, guess
    cap, mode.  Apply keeps the game in progress when its rows fit the new settings; when they
    do not, it says why and asks for a second Apply to start a new game."""

    BINDINGS = [("escape", "cancel", "Cancel")]

    def __init__(self, session: Session, plan: Callable[[Settings, str], SettingsPlan]) -> None:
        super().__init__()
        self.session = session
        self.settings = session.settings
        gd = session.game_day
        self.day_text = gd.day.isoformat() if gd is not None and gd.chosen else ""
        self.plan_fn = plan
        self.pending: SettingsPlan | None = None  # a plan that loses the rows, waiting for a second Apply
        self.pending_day: str | None = None

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(id="dialog") as d:
            d.border_title = "Settings"
            with Horizontal(classes="field"):
                yield Label("word set")
                names = list(NAMES) + ([s.words] if s.words not in NAMES else [])
                yield Select([(n, n) for n in names], value=s.words, allow_blank=False, id="words", compact=True)
            with Horizontal(classes="field"):
                yield Label("length")
                yield Input(str(s.length), id="length", restrict=r"[0-9]*", max_length=2, compact=True)
            with Horizontal(classes="field"):
                yield Label("guess file")
                yield Input(
                    s.guesses_file or "", placeholder="(optional) one word per line", id="guesses", compact=True
                )
            with Horizontal(classes="field"):
                yield Label("answer file")
                yield Input(s.answers_file or "", placeholder="(optional)", id="answers", compact=True)
            with Horizontal(classes="field"):
                yield Label("day")
                gd = self.session.game_day
                today = f"today ({gd.day if gd is not None and not gd.chosen else 'the date'})"
                yield Input(
                    self.day_text,
                    placeholder=f"{today}; or YYYY-MM-DD, or a puzzle number",
                    id="day",
                    max_length=24,
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("strategy")
                yield Select(
                    [(n, n) for n in ALL_STRATEGIES], value=s.strategy, allow_blank=False, id="strategy", compact=True
                )
            with Horizontal(classes="field"):
                yield Label("guesses")
                yield Select(
                    GUESS_SPACE_CHOICES, value=s.guess_space, allow_blank=False, id="guess-space", compact=True
                )
            with Horizontal(classes="field"):
                yield Label("hints")
                yield Select(HINT_CHOICES, value=s.hints, allow_blank=False, id="hints", compact=True)
            with Horizontal(classes="field"):
                yield Label("play for")
                yield Select(
                    [(GOAL_LABELS[g], g) for g in GOAL_LABELS], value=s.goal, allow_blank=False, id="goal", compact=True
                )
            with Horizontal(classes="field"):
                yield Label("mode")
                yield Select([(m, m) for m in MODES], value=s.mode, allow_blank=False, id="mode", compact=True)
            with Horizontal(classes="field"):
                yield Label("hard mode")
                yield Select(
                    [("off", False), ("on: every revealed hint must be used", True)],
                    value=s.hard,
                    allow_blank=False,
                    id="hard",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("guess cap")
                yield Input(str(s.max_guesses), id="cap", restrict=r"[0-9]*", max_length=2, compact=True)
            yield Static("Changes keep the game in progress when its rows fit them.", id="settings-error")
            with Horizontal(classes="buttons"):
                yield Button("Apply", variant="primary", id="apply", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def _say(self, text: str, error: bool = True) -> None:
        box = self.query_one("#settings-error", Static)
        box.set_classes("error" if error else "")
        box.update(text)

    def chosen(self) -> Settings | None:
        """The settings the fields hold (None, with the reason shown, when a number is bad)."""
        q = self.query_one

        def number(sel: str, default: int) -> int | str:
            text = q(sel, Input).value.strip()
            try:
                return int(text or default)
            except ValueError:
                return text  # Settings.problems names it

        chosen = Settings(
            words=str(q("#words", Select).value),
            length=number("#length", 5),  # type: ignore[arg-type]  # a bad value: Settings.problems names it
            guesses_file=q("#guesses", Input).value.strip() or None,
            answers_file=q("#answers", Input).value.strip() or None,
            strategy=str(q("#strategy", Select).value),
            hard=bool(q("#hard", Select).value),
            max_guesses=number("#cap", 6),  # type: ignore[arg-type]
            mode=str(q("#mode", Select).value),
            guess_space=str(q("#guess-space", Select).value),
            hints=str(q("#hints", Select).value),
            goal=str(q("#goal", Select).value),
        )
        problems = chosen.problems()  # the same checks as a settings file gets
        if problems:
            self._say("; ".join(problems))
            return None
        return chosen

    @on(Button.Pressed, "#apply")
    def apply(self) -> None:
        new = self.chosen()
        if new is None:
            return
        day = self.query_one("#day", Input).value.strip()
        if new == self.settings and day == self.day_text:
            self.dismiss(None)
            return
        if self.pending is not None and self.pending.settings == new and self.pending_day == day:
            self.dismiss((self.pending, True))  # the second Apply: a new game, as asked
            return
        self.pending = None
        self.query_one("#apply", Button).label = "Apply"
        self._say("checking…", error=False)
        self.query_one("#apply", Button).disabled = True
        self._check(new, day)

    @work(thread=True, exclusive=True)
    def _check(self, new: Settings, day: str) -> None:
        try:
            plan, error = self.plan_fn(new, day), None
        except WordlebotError as exc:
            plan, error = None, str(exc)
        self.pending_day = day
        self.app.call_from_thread(self._checked, plan, error)

    def _checked(self, plan: SettingsPlan | None, error: str | None) -> None:
        self.query_one("#apply", Button).disabled = False
        if plan is None:
            self._say(f"cannot apply: {error}")
            return
        if not plan.loses_rows:
            self.dismiss((plan, False))
            return
        self.pending = plan
        self.query_one("#apply", Button).label = "New game"
        self._say(
            f"The game in progress cannot go on with these settings: {sentence(plan.reason or '')} "
            "Press New game to start one with them, or Cancel to keep playing."
        )

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def _tiles(guess: str, pattern: int) -> Text:
    out = Text()
    for ch, c in zip(guess.upper(), pattern_to_colours(pattern, len(guess))):
        out.append(ch, style=TILE_STYLES[c])
    return out


class AnalysisScreen(ModalScreen[None]):
    """The game rated row by row (skill, luck), a plain-language review of the highlighted row
    with the words still possible after it, and the share grid."""

    BINDINGS = [("escape", "close", "Close"), ("c", "copy", "Copy share grid"), ("n", "new", "New game")]

    def __init__(self, session: Session, answer: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.answer = answer  # known from elsewhere (a pasted share grid's day)
        self.share = session.share()
        self.review: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="analysis") as d:
            d.border_title = "Game analysis"
            yield Static("analysing…", id="summary")
            note = self.session.day_note()  # the replay rule: the answer was another day's
            yield Static(note or "", id="day-note", classes="" if note else "none")
            yield DataTable(id="rows", zebra_stripes=True, cursor_type="row")
            with Horizontal(id="below"):
                yield Static("", id="review")
                yield Static(self.share, id="share")
            with Horizontal(classes="buttons"):
                yield Button("Copy share grid", variant="primary", id="copy", compact=True)
                yield Button("New game", id="new", compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        t = self.query_one("#rows", DataTable)
        t.add_columns("#", "guess", "left", "bot", "bot avg", "yours", "skill", "luck")
        self.analyse()

    @work(thread=True, exclusive=True)
    def analyse(self) -> None:
        try:
            report = self.session.analysis(self.answer)
            review = self.session.review(report)
        except WordlebotError as exc:
            self.app.call_from_thread(self.query_one("#summary", Static).update, f"no analysis: {exc}")
            return
        self.app.call_from_thread(self._show, report, review)

    def _show(self, report, review: list[str]) -> None:
        t = self.query_one("#rows", DataTable)
        self.review = review
        for r in report.rows:
            t.add_row(
                str(r.index),
                _tiles(r.guess, r.pattern),
                f"{r.candidates_before:,}→{r.candidates_after:,}",
                r.best.upper(),
                outcome_cell(r.best_expected, r.best_lose, r.lookahead, 2),
                outcome_cell(r.player_expected, r.player_lose, r.lookahead, 2),
                str(r.skill),
                str(r.luck),
            )
        for k, r in enumerate(report.unrated, start=len(report.rows) + 1):
            t.add_row(str(k), _tiles(r.guess, r.pattern), "off list", "—", "", "", "", "")
        # on the dialog's borders, not in lines of their own: it fills an 80x24 terminal
        risky = any(r.best_lose or r.player_lose for r in report.rows)
        box = self.query_one("#analysis")
        box.border_title = f"Game analysis · the bot plays for the {report.goal}"
        box.border_subtitle = "avg: guesses to finish when solved" + (" · n%: the chance to solve" if risky else "")
        self.query_one("#summary", Static).update(report.summary())
        self._review(0)
        t.focus()

    @on(DataTable.RowHighlighted, "#rows")
    def highlighted(self, message: DataTable.RowHighlighted) -> None:
        self._review(message.cursor_row)

    def _review(self, i: int) -> None:
        text = self.review[i] if 0 <= i < len(self.review) else ""
        self.query_one("#review", Static).update(text + ("\n(↑/↓: the other rows)" if len(self.review) > 1 else ""))

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        result = clipboard.copy(self.share, "share grid", osc52=self.app.copy_to_clipboard)
        self.app.notify(
            result.message, severity="information" if result.copied else "warning", timeout=8 if result.copied else 15
        )

    @on(Button.Pressed, "#new")
    def action_new(self) -> None:
        self.dismiss(None)
        self.app.action_key("ctrl+n")  # type: ignore[attr-defined]  # (the WordlebotApp's)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


class GridScreen(ModalScreen[None]):
    """A pasted share grid whose words are not on the board: how many words fit each row
    against its day's answer, and the bot's own game (grid_analysis.GridReport)."""

    BINDINGS = [("escape", "close", "Close")]

    def __init__(self, session: Session, grid) -> None:
        super().__init__()
        self.session = session
        self.grid = grid

    def compose(self) -> ComposeResult:
        with Vertical(id="grid-report") as d:
            d.border_title = "Share grid"
            yield Static("reading the grid…", id="grid-text")
            yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.read()

    @work(thread=True, exclusive=True)
    def read(self) -> None:
        try:
            rep = self.session.grid_report(self.grid)
            text = "\n".join(
                [rep.headline("enter your rows on the board, then paste the grid again to rate each one")] + rep.lines()
            )
        except WordlebotError as exc:
            text = f"no analysis: {exc}"
        self.app.call_from_thread(self.query_one("#grid-text", Static).update, text)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The keys, in full (F1)."""

    BINDINGS = [("escape", "close", "Close"), ("f1", "close", "Close"), ("q", "close", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="help") as d:
            d.border_title = "Keys"
            yield Static(self.text)
            yield Button("Close", id="close", compact=True)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
