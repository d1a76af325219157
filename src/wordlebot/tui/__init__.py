"""The Textual terminal UI (``wordlebot tui``)."""

from .app import WordlebotApp

__all__ = ["WordlebotApp"]
