"""Click commands of the web app and the browser bot, registered on the main CLI."""

from __future__ import annotations


def register(cli) -> None:
    """Add the web and bot commands to the ``wordlebot`` group (none yet)."""
