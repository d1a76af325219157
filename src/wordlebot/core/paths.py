"""Where wordlebot keeps things: the data folder (word lists, history, models) and the cache."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "wordlebot"
DATA_ENV = "WORDLEBOT_DATA"
CACHE_ENV = "WORDLEBOT_CACHE"
CONFIG_ENV = "WORDLEBOT_CONFIG"


def user_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--data-dir`` when given, then ``$WORDLEBOT_DATA``, then the user data folder."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    return user_data_dir()


def cache_dir() -> Path:
    """``$WORDLEBOT_CACHE`` or the user cache folder: the matrices and opening tables live here."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def config_dir() -> Path:
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def cache_problem() -> str | None:
    """Why the cache folder cannot be written (``"/x/.cache/wordlebot: Permission denied"``), or
    None when it can."""
    import tempfile

    d = cache_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=d)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"{d}: {exc.strerror or exc}"
    return None


def use_temporary_cache() -> Path:
    """Point this process's cache at a new temporary folder, removed at exit (for a run whose
    cache folder cannot be written: the matrices and books are then kept for this run only)."""
    import atexit
    import shutil
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="wordlebot-cache-"))
    os.environ[CACHE_ENV] = str(d)
    atexit.register(shutil.rmtree, d, ignore_errors=True)
    return d
