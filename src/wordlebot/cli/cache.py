"""``wordlebot cache``: see, clear and bound the cache folder (a thin shell over cache_store)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import click

LABELS = {
    "matrix": "pattern matrices",
    "book": "opening books",
    "model": "answer models",
    "list": "word lists",
    "rating": "first-word totals",
    "temporary": "temporary files",
    "other": "other files",
}


@click.group("cache", invoke_without_command=True)
@click.pass_context
def cache(ctx: click.Context) -> None:
    """What is cached (matrices, opening books, answer models, word lists, exact first-word
    totals), and how much; see 'cache clear' and 'cache limit'.  Everything in it can be computed
    again."""
    if ctx.invoked_subcommand is None:
        _show()


def _show() -> None:
    from ..core import cache_store
    from ..core.paths import CACHE_ENV, cache_dir, cache_problem

    files = cache_store.scan()
    click.echo(f"cache folder: {cache_dir()}")
    problem = cache_problem()
    if problem is not None:
        click.echo(
            f"it cannot be written ({problem}): each run computes its matrices and books again; "
            f"set {CACHE_ENV} to a writable folder"
        )
    if not files:
        click.echo("empty")
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for f in files:
        groups[(f.kind, f.words)].append(f)
    rows = sorted(groups.items(), key=lambda kv: (list(LABELS).index(kv[0][0]), kv[0][1]))
    if rows:
        click.echo(f"{'what':<18} {'word set':<12} {'files':>5} {'size':>10}  last used")
    for (kind, words), fs in rows:
        last = dt.datetime.fromtimestamp(max(f.used for f in fs)).strftime("%Y-%m-%d %H:%M")
        stale = sum(1 for f in fs if not f.current)
        note = f"  ({stale} of an older format: removed at the next write or 'cache clear')" if stale else ""
        click.echo(
            f"{LABELS[kind]:<18} {words:<12} {len(fs):>5} {cache_store.human(sum(f.size for f in fs)):>10}  "
            f"{last}{note}"
        )
    total = sum(f.size for f in files)
    lim = cache_store.limit()
    click.echo(
        f"total {cache_store.human(total)}; limit {cache_store.human(lim)} "
        f"(least recently used files go first; 'wordlebot cache limit SIZE' to change it)"
    )


@cache.command("clear")
@click.option("--words", default=None, help="Only the files of this word set (as 'wordlebot cache' names it).")
@click.option(
    "--kind",
    type=click.Choice(["matrix", "book", "model", "list", "rating"]),
    default=None,
    help="Only pattern matrices, opening books, answer models, word lists or exact first-word totals.",
)
def clear(words: str | None, kind: str | None) -> None:
    """Remove cached files: all, or those of --words or --kind."""
    from ..core import cache_store
    from ..core.paths import cache_problem

    gone = cache_store.clear(kind=kind, words=words) + ([] if words or kind else cache_store.tidy())
    size = sum(f.size for f in gone)
    what = " ".join(x for x in (words, LABELS[kind] if kind else None) if x) or "all"
    click.echo(
        f"removed {len(gone)} file{'s' if len(gone) != 1 else ''} ({cache_store.human(size)}): {what}; "
        "they are computed again when needed"
    )
    left = [f for f in cache_store.scan() if (kind is None or f.kind == kind) and (words is None or f.words == words)]
    if left:
        # (a read-only folder: "removed 0 files" alone left the user guessing why)
        problem = cache_problem()
        why = f"the cache folder cannot be written: {problem}" if problem else "not ours to remove"
        n = len(left)
        raise click.ClickException(
            f"{n} file{'s' if n != 1 else ''} ({cache_store.human(sum(f.size for f in left))}) "
            f"could not be removed ({why})"
        )


@cache.command("limit")
@click.argument("size", required=False)
def limit(size: str | None) -> None:
    """Show or set the cache's size limit: 500M, 2G or none.

    Past it, files are removed least recently used first, at once and after each write."""
    from ..core import cache_store

    if size is None:
        click.echo(f"limit {cache_store.human(cache_store.limit())}")
        return
    try:
        value = cache_store.parse_size(size)
    except cache_store.CacheLimitError as exc:
        raise click.BadParameter(str(exc), param_hint="SIZE") from None
    where = cache_store.set_limit(value)
    gone = cache_store.enforce(value)
    click.echo(
        f"limit {cache_store.human(value)} (kept in {where})"
        + (f"; removed {len(gone)} files ({cache_store.human(sum(f.size for f in gone))})" if gone else "")
    )
