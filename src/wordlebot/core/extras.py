"""Optional parts of the package and the extra that installs each (``pip install 'wordlebot[tui]'``).

The core (library and command line) needs none of them; a command that does calls ``require``
first, so a missing extra is one clear line naming it, never an ImportError traceback.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import WordlebotError

# extra -> (what needs it, the modules it provides); pyproject.toml's optional-dependencies
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tui": ("the terminal UI", ("textual",)),
    "web": ("the web app", ("fastapi", "uvicorn")),
    "bot": ("the browser bot", ("playwright",)),
    "dask": ("the opener sweep", ("dask.distributed",)),
    "plots": ("plotting", ("matplotlib",)),
}


class MissingExtraError(WordlebotError, ImportError):
    """A feature's optional dependencies are not installed; the message names the extra."""

    def __init__(self, extra: str, feature: str, missing: str | None) -> None:
        self.extra = extra
        why = f" ({missing} is not installed)" if missing else ""
        super().__init__(f"{feature} needs the '{extra}' extra{why}: pip install 'wordlebot[{extra}]'")


def require(extra: str, module: str | None = None, *, feature: str | None = None) -> ModuleType:
    """Import ``module`` (default: each module of ``extra``) and return it (the last one), or raise
    ``MissingExtraError`` naming the extra.  Also an installed module whose own dependencies are
    missing counts as missing: importing it is the only reliable check."""
    what, modules = EXTRAS[extra]
    found: ModuleType | None = None
    for name in (module,) if module else modules:
        try:
            found = importlib.import_module(name)
        except ImportError as exc:
            raise MissingExtraError(extra, feature or what, exc.name or name) from exc
    assert found is not None  # (one module or more was named)
    return found
