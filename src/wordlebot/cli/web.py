"""Click commands of the web app and the browser bot, registered on the main CLI:
``wordlebot web``, ``wordlebot bot`` and ``wordlebot last``.  FastAPI, uvicorn and Playwright
(the 'web' and 'bot' extras) are imported only when a command runs."""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path

import click

from ..core import clock
from ..core.errors import WordlebotError
from ..core.extras import require
from .common import DAY, DEFAULT_WORDS, WORD_SETS, _folder, check_cache, lexicon_options

# ---------------------------------------------------------------------------------------------
# web


def listen(host: str, port: int) -> socket.socket:
    """A listening socket, or a clear error (port taken, unknown host)."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise WordlebotError(f"cannot listen on {host}:{port}: {why}; choose another --port or --host") from None
    return sock


def named_sources(folder: Path, *, build_model: bool = True) -> dict:
    """The named word sets as the engine's loaders: each loads its lists from ``folder`` with the
    prior of the day asked for."""
    from ..app.wordsets import NAMES, load_lexicon

    def loader(name):
        return lambda notes, day: load_lexicon(
            name, data_dir=folder, notify=notes.append, build_model=build_model, day=day, prefetch_matrix=True
        )

    return {n: loader(n) for n in NAMES}


@click.command("web")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; the default is reachable from this machine only.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port, printed at start).",
)
@click.option(
    "--words",
    type=WORD_SETS,
    default=DEFAULT_WORDS,
    show_default=True,
    help="Word set the page starts with; the others can be chosen in the page.",
)
@click.option(
    "--guesses",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Serve only this list of allowed guesses (one word a line) instead of the named sets.",
)
@click.option(
    "--answers",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Possible answers for --guesses (default: the guesses).",
)
@click.option(
    "--prepare",
    type=click.Choice(["all", "default"]),
    default="all",
    show_default=True,
    help="Word sets prepared at start-up: the starting one first, then the others in the "
    "background ('default': the starting one only; the others when first asked for).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Searches run at once (default: the number of CPU cores).",
)
@click.option(
    "--cache",
    "cache_size",
    type=click.IntRange(0, 1_000_000),
    default=4096,
    show_default=True,
    help="Answers kept for states asked again (0: search every time).",
)
@click.option(
    "--date",
    "day",
    type=DAY,
    default=None,
    help="Serve this day for good (its answer prior, built from the history before it; "
    "default: each request's today, following the clock).",
)
def web(
    host: str,
    port: int,
    words: str,
    guesses: Path | None,
    answers: Path | None,
    prepare: str,
    workers: int | None,
    cache_size: int,
    day,
) -> None:
    """Serve the web app: a page with the board, suggestions, candidates and analysis, and its JSON API.

    The starting word set is prepared first (progress on stderr; /api/health says when it
    is ready); until then the page shows the progress."""
    _serve(host, port, words, guesses, answers, prepare, workers, cache_size, day)


def _serve(host, port, words, guesses, answers, prepare, workers, cache_size, day) -> None:
    import os

    require("web")
    from ..app.wordsets import load_lexicon
    from ..web.app import create_app, loopback_hosts
    from ..web.server import serve
    from ..web.service import Engine

    check_cache()
    folder = _folder()
    if guesses is not None or answers is not None:
        lex = load_lexicon(guesses=guesses, answers=answers)
        sources, default = {lex.name: lex}, lex.name
    else:
        sources, default = named_sources(folder), words
    from ..core import data

    engine = Engine(
        sources,
        default,
        cache_size=cache_size,
        clock=(lambda: day) if day else clock.today,
        workers=workers or min(os.cpu_count() or 2, 8),
        history=lambda: data.read_history(folder),
    )
    engine.log = _progress
    hosts = loopback_hosts(host)
    app = create_app(engine, hosts=hosts)
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"wordlebot web: serving http://{shown}:{bound}/ (word set {default}; Ctrl-C to stop)")
    if hosts is None:
        click.echo(
            f"note: listening on {host}, which is not a loopback address: other machines can reach this server",
            err=True,
        )
    sys.stdout.flush()
    engine.start(default, others=prepare == "all")
    serve(app, sock)


def _progress(line: str) -> None:
    click.echo(f"wordlebot web: {line}", err=True)


# ---------------------------------------------------------------------------------------------
# bot, last


@click.command("bot")
@click.option("--url", default=None, help="Page to play (default: the NYT Wordle page).")
@click.option("--headless", is_flag=True, help="Run the browser without a window (automatic when there is no display).")
@click.option("--first", default=None, help="Opening word (default: the search's own choice).")
@click.option("--hard", is_flag=True, help="Play hard mode: every revealed hint is used.")
@click.option("--verbose", is_flag=True, help="Log every step with a timestamp.")
@click.option(
    "--result-path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to save the result as JSON (default: bot/last.json in the data folder).",
)
@click.option("--notify", "notify_flag", is_flag=True, help="Send a desktop notification (notify-send) at the end.")
@click.option("--demo", is_flag=True, help="Play the local replica page (served on 127.0.0.1) instead of a real page.")
@click.option("--answer", default=None, help="With --demo: the answer (default: a random answer of the word set).")
@click.option(
    "--browser",
    default=None,
    metavar="PATH",
    help="Chromium executable (default: $WORDLEBOT_CHROMIUM, then /usr/bin/chromium…).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(1, 300),
    default=15.0,
    show_default=True,
    help="Seconds to wait for the page at each step.",
)
@click.option(
    "--screenshot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Save a screenshot of the page at the end (PNG).",
)
@lexicon_options(lazy=True)
def bot(
    url, headless, first, hard, verbose, result_path, notify_flag, demo, answer, browser, timeout, screenshot, lexicons
) -> None:
    """Play Wordle in a browser with the near-optimal search, until solved or out of rows.

    The answer history is brought up to yesterday first (from the NYT endpoint, as 'data
    update' does), so that today's prior knows every earlier answer."""
    require("bot")
    from ..bot import player
    from ..bot.browser import has_display

    if demo and url:
        raise click.UsageError("--demo plays the local replica; do not give --url with it")
    if answer and not demo:
        raise click.UsageError("--answer only applies to --demo")
    if not demo:
        ok, message = player.refresh_history(_folder(), today=lexicons.day)
        click.echo(f"{'' if ok else 'note: '}{message}", err=True)
    lexicon = lexicons.load()
    if not headless and not has_display():
        click.echo("note: no display found; running the browser headless", err=True)
        headless = True
    handler = _timestamped_log() if verbose else None
    try:
        if demo:
            result = _play_demo(
                lexicon,
                answer,
                headless=headless,
                hard=hard,
                first=first,
                browser=browser,
                timeout=timeout,
                screenshot=screenshot,
            )
        else:
            result = player.run(
                url or player.NYT_URL,
                lexicon,
                headless=headless,
                hard=hard,
                first=first,
                browser=browser,
                timeout=timeout,
                screenshot=screenshot,
            )
    except WordlebotError as exc:
        if notify_flag:
            player.notify("wordlebot: the game could not be played", str(exc))
        raise
    finally:
        if handler is not None:
            _drop_handler(handler)
    path = result_path or player.default_result_path(_folder())
    player.save_result(result, path)
    _echo_result(result)
    click.echo(f"result saved to {path}")
    if notify_flag:
        player.notify("wordlebot", f"{result.summary()}\n{result.grid()}")


def _echo_result(result) -> None:
    """What ``bot`` and ``last`` print of a result: the summary, the grid, the refused words."""
    click.echo(result.summary())
    click.echo(result.grid())
    if result.refused:
        click.echo(f"refused by the page: {', '.join(w.upper() for w in result.refused)}")


def _play_demo(lexicon, answer, **kwargs):
    import random

    from ..bot import player
    from ..bot.replica import ReplicaServer

    if answer:
        answer = lexicon.guesses[lexicon.id(answer)]
    else:
        answer = random.choice(lexicon.answers)
    with ReplicaServer(lexicon.guesses) as replica:
        return player.run(replica.url(answer), lexicon, **kwargs)


class _Stamped(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")


def _timestamped_log() -> logging.Handler:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Stamped())
    for name in ("wordlebot.bot", "wordlebot.policy.advisor"):
        lg = logging.getLogger(name)
        lg.addHandler(handler)
        lg.setLevel(logging.INFO)
        lg.propagate = False
    return handler


def _drop_handler(handler: logging.Handler) -> None:
    for name in ("wordlebot.bot", "wordlebot.policy.advisor"):
        lg = logging.getLogger(name)
        lg.removeHandler(handler)
        lg.setLevel(logging.NOTSET)
        lg.propagate = True


@click.command("last")
@click.option(
    "--result-path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The result file to read (default: bot/last.json in the data folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the saved JSON as it is.")
def last(result_path: Path | None, as_json: bool) -> None:
    """Print the last result the browser bot saved (date, answer, guesses, colours, time)."""
    from ..bot import player

    path = result_path or player.default_result_path(_folder())
    result = player.load_result(path)
    if as_json:
        click.echo(result.to_json(), nl=False)
        return
    _echo_result(result)
    click.echo(f"played on {result.url}")
