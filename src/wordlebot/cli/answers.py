"""``wordlebot answers``: the answer model (build, show, list, evaluate)."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import click
from rich.markup import escape

from ..core import clock
from ..core.errors import DataError
from ..core.extras import require
from ..core.feedback import check_word
from .common import DAY, _folder, _note, err, goal_option, out

ANSWERS_DATE_HELP = "The day (default today): its prior, from the history before it."


@click.group("answers")
def answers_group() -> None:
    """The answer model: how likely each valid word is to be the day's answer."""


def _nyt_words_and_folder():
    from ..core.words import read_word_file

    folder = _folder()
    f = folder / "nyt/guesses.txt"
    if not f.is_file():
        raise DataError(f"the answer model needs the NYT lists; none in {folder} (wordlebot data fetch)")
    return read_word_file(f), folder


@answers_group.command("build")
@click.option(
    "--until",
    type=DAY,
    default=None,
    help="Fit on the history up to this day only (default: yesterday, the history before today).",
)
def answers_build(until) -> None:
    """Fit the answer model on the word lists and the NYT history, and keep it for the next day."""
    from ..answers.daily import build_day_model
    from ..answers.editor import FRESH_DAY, FRESH_LETTERS, FRESH_STATIC, REPEAT_FEATURES

    words, folder = _nyt_words_and_folder()
    until = until or clock.today() - dt.timedelta(days=1)
    with err.status("fitting the answer model…"):
        model, path = build_day_model(folder, words, until)
    m = model.meta
    out.print(
        f"fitted on the history to {model.trained_until}: {m['fresh_choices']:,} fresh answers since "
        f"{m['trained_from']}, {m['repeat_choices']:,} repeats; {'converged' if m['converged'] else 'NOT converged'} "
        f"in {m['newton_steps']} Newton steps, {m['seconds']:.2f} s",
        soft_wrap=True,
    )
    out.print(
        "fresh words (log-odds per unit): "
        + ", ".join(f"{k} {model.fresh[k]:+.2f}" for k in FRESH_STATIC + FRESH_DAY + FRESH_LETTERS),
        soft_wrap=True,
    )
    out.print("repeats: " + ", ".join(f"{k} {model.repeat[k]:+.2f}" for k in REPEAT_FEATURES), soft_wrap=True)
    out.print(f"saved to {path}")


def _day_prior(day: dt.date | None):
    """The prior of ``day`` (default today) from the answer model, fitted if need be."""
    from ..answers.daily import prior_for_day

    words, folder = _nyt_words_and_folder()
    prior = prior_for_day(folder, words, day, build=True, notify=_note)
    if prior.model is None:
        raise DataError(f"no answer model for {prior.day}: {prior.description}")
    err.print(f"[dim]{escape(prior.description)}[/]", soft_wrap=True)
    return prior


@answers_group.command("show")
@click.argument("words", nargs=-1, required=True)
@click.option("--date", "day", type=DAY, default=None, help=ANSWERS_DATE_HELP)
def answers_show(words, day) -> None:
    """Probability of each WORD being the day's answer, and why."""
    from ..answers.odds import word_odds
    from ..answers.prior import answer_weights
    from ..core.words import Lexicon, slip_hint
    from ..policy.explain import rank_text, tie_ranks

    prior = _day_prior(day)
    model, p, on = prior.model, prior.weights, prior.day
    index = {w: i for i, w in enumerate(model.words)}
    first, last = tie_ranks(p)
    last_used = {e.word: e.date for e in prior.history}
    lexicon = None  # for the words one slip away from a word not in the list, the day's likeliest first
    for raw in words:
        w = check_word(raw, 5)
        if w not in index:
            lexicon = lexicon or Lexicon.from_lists(model.words, model.words, answer_weights(p))
            err.print(f"[red]{escape(w.upper() + ': not a valid guess' + slip_hint(lexicon.near(w)))}[/]")
            continue
        i = index[w]
        odds = word_odds(model, prior.parts, w)
        used = f" · last an answer on {last_used[w]}" if w in last_used else ""
        out.print(
            f"[bold]{w.upper()}[/]  P(answer on {on}) = {p[i]:.3g}  ({rank_text(int(first[i]), int(last[i]), len(p))})"
            f"{used}",
            soft_wrap=True,
        )
        out.print(f"    {escape(odds.text())}", soft_wrap=True)
        for what, factor in odds.factors:
            out.print(f"    x{factor:.2f}  {escape(what)}", soft_wrap=True)


@answers_group.command("list")
@click.option("--threshold", type=float, default=None, help="Only words with at least this probability.")
@click.option("--top", type=click.IntRange(1), default=50, show_default=True, help="How many to show.")
@click.option("--date", "day", type=DAY, default=None, help=ANSWERS_DATE_HELP)
def answers_list(threshold, top, day) -> None:
    """The likeliest answers for a day (default today), and each group's share of it."""
    import numpy as np

    from ..answers.odds import group_index, groups
    from ..policy.explain import tie_ranks

    prior = _day_prior(day)
    model, p = prior.model, prior.weights
    for g in groups(model, prior.parts):
        out.print(f"  {g.label}: {g.text()}", soft_wrap=True)
    order = np.argsort(-p, kind="stable")
    if threshold is not None:
        order = order[p[order] >= threshold]
        out.print(f"{order.size:,} words with P >= {threshold:g} (mass {p[order].sum():.3f})")
    first, last = tie_ranks(p)
    member = group_index(prior.parts, model.facts)
    labels = [g.short for g in groups(model, prior.parts)]
    shown = order[:top].tolist()
    width = max((len(f"{first[i]:,}-{last[i]:,}") for i in shown), default=4)
    out.print(f"{'rank':>{width}}  word   P(answer)  group")
    for i in shown:
        rank = f"{first[i]:,}" if first[i] == last[i] else f"{first[i]:,}-{last[i]:,}"
        out.print(f"{rank:>{width}}  {model.words[i].upper()}  {p[i]:9.3g}  {labels[member[i]]}")
    ties: dict[tuple[int, int], list[int]] = {}
    for i in shown:
        if first[i] != last[i]:
            ties.setdefault((int(first[i]), int(last[i])), []).append(i)
    for (a, b), members in ties.items():
        cut = f"; {len(members):,} of them shown" if b - a + 1 > len(members) else ""
        out.print(
            f"ranks {a:,}-{b:,}: {b - a + 1:,} words tie at {p[members[0]]:.3g} (equally likely, listed "
            f"in word-list order{cut})",
            soft_wrap=True,
        )


@answers_group.command("evaluate")
@click.option(
    "--window",
    type=click.IntRange(10, 1000),
    default=120,
    show_default=True,
    help="Days at the end of the history to score, each with the history before it.",
)
@click.option(
    "--play/--no-play",
    default=True,
    show_default=True,
    help="Also play every day of the window with each method (minutes).",
)
@click.option(
    "--plot",
    "plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a calibration plot (PNG; extra 'plots').",
)
@goal_option
def answers_evaluate(window, play, plot, goal) -> None:
    """Time-split backtest of the answer model beside its baselines: log-loss, ranks, recall,
    calibration by group, and real play with the same search."""
    from rich.progress import BarColumn, Progress, TextColumn

    from ..answers import backtest, store

    if plot is not None:
        require("plots", feature="answers evaluate --plot")
    words, folder = _nyt_words_and_folder()
    data = store.training_data(folder, words)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        console=err,
        transient=True,
    ) as prog:
        tasks: dict = {}

        def progress(method, done):
            if method not in tasks:
                tasks[method] = prog.add_task(method, total=min(window, len(data.history)))
            prog.update(tasks[method], completed=done)

        reports, priors = backtest.ranking_backtest(data, window, progress=progress)
        r0 = reports[0]
        out.print(
            f"[bold]ranking[/], {r0.days} days {r0.window[0]} … {r0.window[1]}, each scored with the history "
            f"before it (uniform over all {len(words):,} words: log-loss {math.log(len(words)):.3f})",
            soft_wrap=True,
        )
        out.print(
            f"  {'prior':<8} {'log-loss':>8} {'mean rank':>9} {'median':>7}  recall in the top "
            + " / ".join(f"{k:,}" for k in backtest.TOP_K)
        )
        for r in reports:
            out.print(
                f"  {r.method:<8} {r.log_loss:8.3f} {r.mean_rank:9,.1f} {r.median_rank:7,.1f}  "
                + " / ".join(f"{r.recall[k]:.1%}" for k in backtest.TOP_K)
                + f"  ({escape(r.note)}, {r.seconds:.0f} s)",
                soft_wrap=True,
            )
        out.print(
            "  calibration, the mass each prior gave a group summed over the days, beside the days its answer came from it:"
        )
        for j, g in enumerate(backtest.CALIBRATION_GROUPS):
            out.print(
                f"    {g:<28} happened {reports[0].calibration[j].observed:>4}  predicted "
                + "  ".join(f"{r.method} {r.calibration[j].predicted:6.1f}" for r in reports),
                soft_wrap=True,
            )
        if plot is not None:
            from ..answers.plots import calibration_plot

            calibration_plot(reports, priors, data, plot)
            out.print(f"calibration plot written to {plot}")
        if not play:
            return
        plays = backtest.play_backtest(data, priors, window=window, progress=progress, goal=goal)
    out.print(f"[bold]real play[/], {r0.days} days, the same search for every method, goal {goal}")
    for played in plays:
        dist = " ".join(f"{k}:{v}" for k, v in played.distribution().items())
        out.print(
            f"  {played.name:<15} average {played.average:.4f} · failures {played.failures} "
            f"(unreachable {len(played.unreachable)}) · {dist} · {played.seconds:.0f} s",
            soft_wrap=True,
        )
