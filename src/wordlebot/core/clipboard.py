"""Copying text to the clipboard, and saying truthfully what happened.

A terminal program cannot know whether the terminal accepted an OSC 52 "set clipboard"
sequence, so it must not claim a copy it cannot see.  A clipboard command of the system
(pbcopy, wl-copy, xclip, xsel, clip.exe) reports success; OSC 52 is the fallback and is said to
be one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# (command, arguments, environment variable it needs, or None)
Tool = tuple[str, tuple[str, ...], str | None]
TOOLS: tuple[Tool, ...] = (
    ("pbcopy", (), None),
    ("wl-copy", (), "WAYLAND_DISPLAY"),
    ("xclip", ("-selection", "clipboard"), "DISPLAY"),
    ("xsel", ("--clipboard", "--input"), "DISPLAY"),
    ("clip.exe", (), None),
)


@dataclass(frozen=True)
class CopyResult:
    copied: bool  # True: a clipboard command said it copied; False: at best sent as OSC 52
    message: str


def copy(
    text: str, what: str = "text", osc52: Callable[[str], None] | None = None, tools: Sequence[Tool] = TOOLS
) -> CopyResult:
    """Copy ``text`` with the first clipboard command that works; else hand it to ``osc52`` (the
    terminal's clipboard sequence) and say that the terminal may have ignored it."""
    for name, args, needs in tools:
        exe = shutil.which(name)
        if exe is None or (needs and not os.environ.get(needs)):
            continue
        try:
            # xclip and xsel stay in the background to serve the selection: no pipes to wait on
            subprocess.run(
                [exe, *args],
                input=text.encode(),
                check=True,
                timeout=5,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        return CopyResult(True, f"{what} copied to the clipboard ({name})")
    if osc52 is not None:
        osc52(text)
        return CopyResult(
            False,
            f"{what} sent to the terminal's clipboard (OSC 52); not every terminal "
            "accepts it, so if pasting gives nothing, select it with the mouse "
            "(Shift+drag in most terminals)",
        )
    return CopyResult(False, f"no clipboard found: select the {what} with the mouse")
