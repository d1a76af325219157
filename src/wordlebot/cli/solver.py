"""The solver over whole word lists: ``simulate``, ``tree``, ``verify-tree`` and ``openers``."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

from .common import (
    EXIT_ERROR,
    _folder,
    _needs_plots,
    day_line,
    err,
    goal_option,
    lexicon_options,
    needs,
    objective_option,
    out,
    search_options,
    sigterm_stops,
    strategy_options,
)

if TYPE_CHECKING:
    from ..app.opener_rating import OpenerRating, RatingBounds
    from ..app.opener_sweep import Standing

OPENERS_LOG_SECONDS = 600.0  # openers: how often a line says how far it got when stderr is a log


@click.command()
@click.option("--first", default=None, help="Opening guess (default: the strategy's own choice).")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N answers.")
@click.option(
    "--max-guesses",
    type=click.IntRange(1, 20),
    default=6,
    show_default=True,
    help="A game needing more guesses counts as lost.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    callback=_needs_plots,
    help="Write a histogram PNG here (needs the 'plots' extra).",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the summary and every game's guesses as JSON here.",
)
@click.option(
    "--boards",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Multi-board games (2 Dordle, 4 Quordle, 8 Octordle, …): the policy and the baselines "
    "on the same seeded random answer sets.",
)
@click.option("--games", type=click.IntRange(1), default=200, show_default=True, help="With --boards: how many games.")
@click.option("--seed", type=int, default=0, show_default=True, help="With --boards: the answer sets' seed.")
@objective_option
@goal_option
@lexicon_options
@strategy_options
@search_options
def simulate(
    first,
    hard,
    limit,
    max_guesses,
    plot,
    json_path,
    boards,
    games,
    seed,
    objective,
    goal,
    lexicon,
    game_day,
    strategy,
    guess_space,
    k,
    memory,
) -> None:
    """Play every answer of the word set with a strategy and report the statistics; with
    --boards, play multi-board games with the policy and the baselines."""
    import numpy as np

    line = day_line(lexicon, game_day)  # (the nyt set's answers are weighted by that day's prior)
    if line:
        out.print(line)

    if boards > 1:
        given = click.get_current_context().get_parameter_source("max_guesses") != click.core.ParameterSource.DEFAULT
        _simulate_multi(
            lexicon, boards, games, seed, max_guesses if given else None, json_path, objective, plot, bool(hard)
        )
        return

    from ..core.matrix import pattern_matrix
    from ..policy.simulate import advisor_chooser, greedy_chooser, search_chooser
    from ..policy.simulate import simulate as run

    matrix = pattern_matrix(lexicon)
    first_id = lexicon.id(first) if first else None
    targets = np.arange(min(limit, lexicon.n_answers) if limit else lexicon.n_answers, dtype=np.int32)
    if strategy == "exact":
        from ..policy.advisor import FAIL_COSTS
        from ..search.tree_search import TreeSearch

        search = TreeSearch(
            lexicon,
            k=None,
            hard=hard,
            max_guesses=max_guesses,
            weights="prior" if lexicon.weighted else None,
            guess_space=guess_space,
            memory_mb=memory,
            fail_cost=FAIL_COSTS[goal],
        )
        chooser = search_chooser(search)
        if first_id is None:  # the games wait on it with no progress to show: say so
            err.print(
                f"The exact search proves the first move on all {lexicon.n_answers:,} answers before the"
                " first game ends: seconds on a small set, minutes on a big one (--first WORD fixes it).",
                soft_wrap=True,
            )
    elif strategy == "search":
        from ..policy.advisor import Advisor
        from ..term.render import prepare_book

        advisor = Advisor(lexicon, strategy="search", guess_space=guess_space, matrix=matrix, k=k, goal=goal)
        prepare_book(err, advisor, advisor.new_game(hard=hard, max_guesses=max_guesses))
        chooser = advisor_chooser(advisor, hard=hard, max_guesses=max_guesses)
    else:
        chooser = greedy_chooser(lexicon, matrix, strategy, hard=hard, guess_space=guess_space)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} games"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as prog:
        task = prog.add_task("games", total=int(targets.size))
        result = run(
            lexicon,
            matrix,
            chooser,
            targets=targets,
            first=first_id,
            hard=hard,
            max_guesses=max_guesses,
            strategy_name=strategy,
            guess_space=guess_space,
            progress=lambda n: prog.advance(task, n),
            goal=goal if strategy in ("search", "exact") else "",
        )
    from ..term.render import print_simulation

    print_simulation(out, result)
    if plot:
        result.plot(plot)
        out.print(f"plot written to {plot}")
    if json_path:
        result.to_json(json_path)
        out.print(f"JSON written to {json_path}")


def _simulate_multi(
    lexicon,
    boards: int,
    games: int,
    seed: int,
    max_guesses: int | None,
    json_path,
    objective: str,
    plot_path,
    hard: bool,
) -> None:
    from rich.progress import BarColumn, Progress, TextColumn
    from rich.table import Table

    from ..core.matrix import pattern_matrix
    from ..multi import VARIANTS
    from ..multi.simulate import answer_sets, choosers
    from ..multi.simulate import simulate as run

    matrix = pattern_matrix(lexicon)
    sets = answer_sets(lexicon, boards, games, seed)
    results = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        console=err,
        transient=True,
    ) as prog:
        for name, chooser in choosers(lexicon, matrix, objective).items():
            task = prog.add_task(name, total=games)
            results.append(
                run(
                    lexicon,
                    boards,
                    chooser,
                    sets,
                    name=name,
                    max_guesses=max_guesses,
                    matrix=matrix,
                    hard=hard,
                    progress=functools.partial(prog.advance, task),
                )
            )
    cap = results[0].max_guesses
    table = Table(
        title=f"{VARIANTS.get(boards, f'{boards} boards')} on {lexicon.name}"
        f"{' (hard mode)' if hard else ''}: {games:,} games, {cap} guesses, seed {seed}"
    )
    for col in ("chooser", "mean score", "mean guesses", "games lost", "per move (median / max)"):
        table.add_column(col, justify="left" if col == "chooser" else "right")
    for r in results:
        med, worst = r.move_ms()
        table.add_row(
            r.chooser,
            f"{r.mean:.3f}",
            f"{r.mean_finished:.3f}",
            f"{100 * r.failure_rate:.1f} %",
            f"{med:.0f} / {worst:.0f} ms",
        )
    out.print(table)
    out.print(
        f"The policy plays for the {objective}; one-step: the policy without its endgame search. "
        "score: the sum over boards of the guess that solved each (a board not solved counts "
        f"{cap + 1}); guesses: those that solved them all (a lost game counts {cap} and one per board "
        "left).",
        soft_wrap=True,
    )
    if plot_path:
        from ..multi.simulate import plot

        plot(results, plot_path, title=str(table.title))
        out.print(f"plot written to {plot_path}")
    if json_path:
        from ..core.data import atomic_write

        doc = {
            "words": lexicon.name,
            "boards": boards,
            "hard": hard,
            "games": games,
            "seed": seed,
            "objective": objective,
            "results": [r.to_dict() for r in results],
        }
        atomic_write(Path(json_path), json.dumps(doc, indent=1).encode())
        out.print(f"JSON written to {json_path}")


@click.command("tree")
@click.option("--first", default=None, help="Opening guess (default: the search's own best).")
@click.option("--hard", is_flag=True, help="Hard mode (the exact NYT rule).")
@click.option(
    "--max-guesses",
    type=click.IntRange(2, 10),
    default=6,
    show_default=True,
    help="Guess cap: every answer must be found within it.",
)
@click.option("--exact", is_flag=True, help="Search every guess at every node: a proven optimal tree.")
@click.option(
    "--prior",
    "use_prior",
    is_flag=True,
    help="Minimise expected guesses under the word set's answer prior (default: the total over answers).",
)
@click.option(
    "--fail-cost",
    type=click.FloatRange(1),
    default=None,
    help="Allow unfound answers at this cost each instead of requiring all within the cap.",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the tree in the paths format (one line per answer) here.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the tree as nested JSON here.",
)
@click.option("--threads", type=click.IntRange(1, 64), default=2, show_default=True, help="Threads to search on.")
@lexicon_options
@search_options
def tree_cmd(
    first, hard, max_guesses, exact, use_prior, fail_cost, out_path, json_path, threads, lexicon, k, memory
) -> None:
    """Build the whole strategy as a decision tree; print total, average, max and distribution."""
    import time

    from ..search import tree as tr
    from ..search.tree_search import TreeSearch

    if use_prior and not lexicon.weighted:
        raise click.UsageError(f"the {lexicon.name} word set has no prior; drop --prior")
    search = TreeSearch(
        lexicon,
        k=None if exact else k,
        hard=hard,
        max_guesses=max_guesses,
        weights="prior" if use_prior else None,
        memory_mb=memory,
        threads=threads,
        fail_cost=fail_cost,
    )
    first_id = lexicon.id(first) if first else None
    t0 = time.perf_counter()
    with err.status("searching…"):
        try:
            node = search.tree(first_id)
        except ValueError as exc:
            raise click.ClickException(f"{exc} (allow failures with --fail-cost, or raise --max-guesses)") from None
    seconds = time.perf_counter() - t0
    paths = tr.paths_of(lexicon, node)
    summary = tr.TreeSummary.of(paths)
    first_word = lexicon.guesses[node.guess]
    kind = "exact" if exact else f"near-optimal k={k}"
    _print_tree_summary(lexicon, summary, first_word, hard, kind, seconds, node.value if use_prior else None)
    meta = tr.header(
        lexicon,
        summary,
        words=lexicon.name,
        hard=hard,
        max_guesses=max_guesses,
        search=kind,
        first=first_word,
        weighted_value=node.value if use_prior else None,
    )
    if out_path:
        tr.write_paths(out_path, paths, meta)
        out.print(f"paths written to {out_path}")
    if json_path:
        tr.write_json(json_path, {"meta": meta, "tree": tr.tree_json(lexicon, node)})
        out.print(f"JSON written to {json_path}")


def _print_tree_summary(lexicon, summary, first_word, hard, kind, seconds, expected) -> None:
    mode = "hard" if hard else "normal"
    out.print(f"[bold]{lexicon.name}[/] · {mode} · {kind} · first {first_word.upper()}")
    line = (
        f"total {summary.total:,} · average {summary.average:.4f} · max {summary.max} · "
        f"distribution {summary.distribution_text()}"
    )
    if expected is not None:
        line += f" · expected guesses (prior) {expected:.4f}"
    out.print(line + f" · {seconds:.2f} s", soft_wrap=True)


@click.command("verify-tree")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--hard", is_flag=True, default=None, help="Check hard-mode legality (default: as the file's header says)."
)
@click.option(
    "--max-guesses",
    type=click.IntRange(1, 20),
    default=None,
    help="Guess cap to check (default: as the file's header says, else 6).",
)
@lexicon_options
def verify_tree(file, hard, max_guesses, lexicon) -> None:
    """Replay every answer through a tree file and check consistency, legality and totals."""
    from ..search import tree as tr

    meta, rows = tr.read_paths(file)
    rep = tr.verify_paths(lexicon, meta, rows, hard=hard, max_guesses=max_guesses)
    s = rep.summary
    if rep.ok and s is not None:
        out.print(
            f"[green]OK[/] {file}: {s.games:,} answers · total {s.total:,} · average {s.average:.4f} · "
            f"max {s.max} · distribution {s.distribution_text()}"
        )
        return
    for p in rep.problems:
        err.print(f"[red]problem:[/] {escape(p)}", soft_wrap=True)
    err.print(f"[bold red]Error:[/] {file} failed verification ({len(rep.problems)} problem(s) shown)")
    sys.exit(EXIT_ERROR)


@click.command()
@click.option("--exact", is_flag=True, help="Exact search, and prove which first word is best.")
@click.option("--top", type=click.IntRange(1, 100000), default=10, show_default=True, help="How many to show.")
@click.option(
    "--candidates",
    type=click.IntRange(1),
    default=None,
    help="Evaluate only the N most promising first words (default: 100; all with --exact).",
)
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--max-guesses", type=click.IntRange(2, 10), default=6, show_default=True, help="Guess cap.")
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Dask scheduler to run on (default: a LocalCluster on this machine).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=2,
    show_default=True,
    help="Threads of the LocalCluster (one worker process: its threads share one table).",
)
@click.option(
    "--keep",
    type=click.IntRange(1),
    default=None,
    help="Exact totals of the N best first words, a proven lower bound for every other "
    "(default: 1 with --exact, --top otherwise).",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Journal every evaluated word (word, total, exact, seconds) as CSV here, as results "
    "arrive; rewritten ranked (exact totals first) when it completes.  Until then the "
    "seed's totals are kept beside it (FILE.seed), for --resume.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Go on with the sweep journaled at --out (same lists and options): its words are not "
    "evaluated again (in hard mode, but those refuted against a provisional bound that "
    "proved too low); a stop (Ctrl+C) loses only the words being searched then.",
)
@click.option(
    "--word",
    "rate_words",
    multiple=True,
    metavar="WORD",
    help="With --exact: the exact total of this first word (repeat for more), its rank among the "
    "first words rated so far and the gap to the best; on this machine, --workers threads, no "
    "Dask.  Totals are kept in the cache and fed by --exact sweeps too.",
)
@needs("dask", unless="rate_words")
@lexicon_options
@search_options
def openers(
    exact,
    top,
    candidates,
    hard,
    max_guesses,
    scheduler,
    workers,
    keep,
    out_path,
    resume,
    rate_words,
    lexicon,
    k,
    memory,
) -> None:
    """Rank first words by tree search on Dask; with --exact, prove the best one.  A long sweep
    (an opener proof takes an hour or more) can be stopped and resumed: --out FILE --resume.
    With --exact --word W: how good is W, exactly."""
    import time

    from ..app.opener_journal import Journal
    from ..app.opener_rating import OpenerStore
    from ..app.opener_sweep import SweepSpec, first_word_order, sweep
    from ..core.words import list_fingerprint

    if lexicon.weighted:
        raise click.UsageError(
            "openers ranks by total guesses over an answer list; use --words classic, "
            "nyt-2309 or nyt-3158 (or --guesses/--answers)"
        )
    params = click.get_current_context().params
    spec = SweepSpec(
        words=params["words"],
        length=params["length"],
        data_dir=str(_folder()),
        guesses=_resolved(params["guesses"]),
        answers=_resolved(params["answers"]),
        hard=hard,
        max_guesses=max_guesses,
        k=None if exact else k,
        memory_mb=memory,
    )
    if rate_words:
        _rate(spec, lexicon, rate_words, exact, workers, dict(out_path=out_path, resume=resume, keep=keep,
              candidates=candidates, scheduler=scheduler))  # fmt: skip
        return
    if resume and out_path is None:
        raise click.UsageError("--resume goes on with the journal named by --out")
    keep = keep or (1 if exact else top)
    journal = None
    if out_path is not None:
        journal = Journal.start(
            out_path,
            {
                "guesses": list_fingerprint(lexicon.guesses)[:16],
                "answers": list_fingerprint(lexicon.answers)[:16],
                "hard": hard,
                "max_guesses": max_guesses,
                "search": "exact" if exact else f"k={k}",
                "keep": keep,
                "margin": 0.5,
            },
            resume=resume,
        )
    words = first_word_order(spec)
    if candidates or not exact:
        words = words[: candidates or 100]
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    if journal is not None and journal.rows:
        err.print(f"resuming {out_path}: {journal.state().describe()}", soft_wrap=True)
    with Progress(
        TextColumn("first words"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        TextColumn("best {task.fields[best]}"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as prog:
        done = {} if journal is None else {w: (v, e) for w, (v, e, _) in journal.rows.items()}
        state = {"best": None if journal is None else journal.state().best}

        def shown(best):
            return f"{best[0].upper()} {best[1]:g}" if best else "…"

        # resumed: the journal's best and count from the start
        task = prog.add_task(
            "sweep", total=len(words), best=shown(state["best"]), completed=sum(w in done for w in words)
        )

        counted = set(done)
        logged = [time.monotonic()]

        found = dict(done)  # what a stop keeps in the store of exact totals (see below)

        def seen(word, value, is_exact):
            found[word] = (value, is_exact)
            if is_exact and (state["best"] is None or value < state["best"][1]):
                state["best"] = (word, value)
                prog.update(task, best=shown(state["best"]))
            if word not in counted:  # a word refuted against a provisional bound may come again
                counted.add(word)
                prog.advance(task)
            if not err.is_terminal and time.monotonic() - logged[0] >= OPENERS_LOG_SECONDS:
                logged[0] = time.monotonic()  # a log has no progress bar: a line now and then
                err.print(
                    f"{time.strftime('%H:%M:%S')} {prog.tasks[0].completed:,}/{len(words):,} first "
                    f"words, best {shown(state['best'])}"
                )

        kept: dict[str, Any] = (
            {}
            if journal is None
            else dict(
                on_batch=journal.add,
                on_seed=journal.add_seed,
                estimates=journal.estimates(),
                on_estimates=journal.keep_estimates,
            )
        )
        store = OpenerStore.open(lexicon, hard, max_guesses) if exact else None
        try:
            with sigterm_stops():
                result = sweep(
                    spec, words, scheduler=scheduler, workers=workers, keep=keep, done=done, on_result=seen, **kept
                )
        except KeyboardInterrupt:
            if store is not None:  # the exact totals the stopped sweep found are kept
                store.record_sweep(found, complete=False)
            if journal is not None:  # said in words: a background run's log shows no progress bar
                prog.stop()
                err.print(
                    f"stopped: {journal.state().describe()} kept in {out_path}; the same command with --resume goes on"
                    if journal.rows
                    else f"stopped before any first word was journaled in {out_path}; the same command "
                    "with --resume starts it again",
                    soft_wrap=True,
                )
            raise
    if store is not None:  # ratings of single words read the totals (and a full sweep's bounds)
        store.record_sweep(result.values, complete=len(words) >= lexicon.n_guesses)
    standing = result.standing()
    kind = "exact" if exact else f"near-optimal k={k}"
    earlier = f"; {len(done):,} from the journal" if done else ""
    out.print(
        f"[bold]{lexicon.name}[/] · {'hard' if hard else 'normal'} · {kind} · "
        f"{len(words):,} first words in {result.seconds:.1f} s "
        f"({result.cpu_seconds:.1f} CPU-s on {'the scheduler at ' + scheduler if scheduler else f'{workers} threads'}"
        f"{earlier})"
    )
    for line in standing_lines(standing, top, max_guesses, exact):
        out.print(line)
    best = result.best
    if exact and best:
        worse = sum(1 for w, (v, e) in result.values.items() if w != best[0] and (not e or v > best[1]))
        out.print(f"proven: {best[0].upper()} = {best[1]:g} is optimal; {worse:,} other first words cannot do better")
    if journal is not None:
        best_note = f", best {best[0]} {best[1]:g}" if best else ""
        journal.finish(f"{len(words):,} first words{best_note}, {journal.cpu_seconds():.1f} CPU-s in all")
        out.print(f"written to {out_path}")


def standing_lines(standing: Standing, top: int, max_guesses: int, exact: bool) -> list[str]:
    """The ranking as lines: a place for each word whose place is proven, a range for an exact
    total that words only bounded may still beat, and the bounded words counted, never placed."""
    lines = []
    for p in standing.places[:top]:
        if p.proven:
            lines.append(f"{p.first:>4}  {p.word.upper()}  {p.total:g}")
        else:
            lines.append(
                f"   ?  {p.word.upper()}  {p.total:g}  (place {p.first:,} to {p.last:,}: "
                f"{p.last - p.first:,} first words only bounded below it may beat it)"
            )
    if standing.bounded:
        kind = "exact" if exact else "near-optimal"
        winnable = standing.bounded - standing.unwinnable
        parts = []
        if winnable:
            parts.append(f"{winnable:,} proven to need at least {standing.lowest_bound:g}")
        if standing.unwinnable:
            parts.append(f"{standing.unwinnable:,} proven unable to win within {max_guesses} guesses")
        lines.append(
            f"not ranked: {standing.bounded:,} first words have no {kind} total, only a bound "
            f"({'; '.join(parts)}; each word's own bound is in the --out CSV); "
            f"--keep N gives the N best their {kind} totals"
        )
    return lines


def _rate(spec, lexicon, words, exact, workers, sweep_options) -> None:
    """openers --exact --word: rate each word (app/opener_rating.py) and say where it stands."""
    from ..app.opener_rating import rate_first_words

    if not exact:
        raise click.UsageError("--word gives a first word's exact total: add --exact")
    given = [f"--{name.replace('_path', '').replace('_', '-')}" for name, v in sweep_options.items() if v]
    if given:
        raise click.UsageError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for a sweep of all first words; "
            "--word rates the words given"
        )
    for w in words:
        lexicon.id(w)  # an unknown word, with the near ones, before anything is printed
    mode = "hard" if spec.hard else "normal"
    out.print(
        f"[bold]{lexicon.name}[/] · {mode} · exact · {lexicon.n_answers:,} answers, "
        f"at most {spec.max_guesses} guesses · {workers} thread{'s' if workers > 1 else ''}"
    )
    from ..term.render import ElapsedStatus

    told: list[RatingBounds] = []  # the last is of the word being searched (those before are done)
    shown: set[str] = set()  # the words whose ratings are printed

    def tell(b: RatingBounds) -> None:  # a word that takes a while: what is known at once
        told.append(b)
        err.print(bounds_line(b, spec.max_guesses), soft_wrap=True)

    def show(r: OpenerRating) -> None:  # each total as soon as it is known
        shown.add(r.word)
        with status.paused():
            for line in rating_lines(r, spec.max_guesses):
                out.print(line, soft_wrap=True)

    status = ElapsedStatus(err, f"searching {', '.join(w.upper() for w in words)}…")
    try:
        with sigterm_stops(), status:
            ratings = rate_first_words(spec, words, threads=workers, lexicon=lexicon, on_bounds=tell, on_rating=show)
    except KeyboardInterrupt:
        if told and told[-1].word not in shown:  # (the totals found before the stop are kept)
            err.print(f"stopped: {bounds_line(told[-1], spec.max_guesses, short=True)}", soft_wrap=True)
        raise
    if ratings and not ratings[-1].best_proven:
        out.print(
            "(the best is not proven: no --exact sweep of every first word has finished for these lists and rules)",
            soft_wrap=True,
        )


def bounds_line(b: RatingBounds, max_guesses: int, short: bool = False) -> str:
    """A word's bounds in words (see RatingBounds): the near-optimal total first (what the player
    asked, to within a little), then the proven floor, and why the exact total takes longer."""
    word = b.word.upper()
    if b.lower is None:
        return f"{word} cannot find every answer within {max_guesses} guesses (proven by its parts' bounds)"
    if b.upper is None:
        text = (
            f"{word}: the near-optimal search finds no way to win within {max_guesses} guesses after it; "
            f"if there is one, it takes at least {b.lower:,} guesses in all"
        )
    else:
        assert b.upper_mean is not None
        text = (
            f"{word} at most {b.upper:,} guesses in all (average {b.upper_mean:.4f}: a near-optimal "
            f"strategy after it), at least {b.lower:,} (proven)"
        )
    if short:
        return text + "; no exact total"
    return (
        f"{text}; in {b.seconds:.1f} s. The exact total takes longer: its biggest part holds "
        f"{b.biggest:,} of the {b.answers:,} answers (Ctrl+C stops; exact totals found are kept)"
    )


def rating_lines(r: OpenerRating, max_guesses: int) -> list[str]:
    """A rating in words: the total, then its rank among the words rated so far (never a bare
    rank: a place among all first words only where a finished sweep proves it) and the gap."""
    took = "known from an earlier run" if r.cached else f"{r.seconds:.1f} s"
    word = r.word.upper()
    if r.total is None:
        return [f"{word} cannot find every answer within {max_guesses} guesses ({took})"]
    lines = [f"{word} {r.total:,} guesses in all, average {r.mean:.4f} ({took})"]
    assert r.best is not None and r.rank is not None
    best = f"{r.best[0].upper()} {r.best[1]:,}"
    if r.place_proven:
        where = f"place {r.rank:,} among all first words (proven: a finished --exact sweep bounds every other word)"
    else:
        where = (
            f"rank {r.rank:,} of the {r.known:,} first words rated so far"
            if r.known > 1
            else "the only first word rated so far"
        )
    if r.gap == 0:
        gap = "the proven best" if r.best_proven else "the best rated so far"
        if r.best[0] != r.word:
            gap += f", tied with {best}"
    elif r.best_proven:
        gap = f"{r.gap:,} guesses more than the proven best, {best}"
    else:
        gap = f"{r.gap:,} guesses more than the best rated so far, {best}"
    lines.append(f"  {where}" if r.known == 1 and not r.best_proven else f"  {where}; {gap}")
    return lines


def _resolved(path: Path | None) -> str | None:
    """A file option as an absolute path (the sweep's workers may run in another folder)."""
    return str(Path(path).resolve()) if path is not None else None
