"""The terminal UI's settings: what the user chose in its dialog, remembered between runs in a
JSON file in the config folder.  A damaged file is never fatal: its usable values are kept, the
bad ones reported and replaced by their defaults, the file itself kept aside."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ..core.errors import WordlebotError
from ..core.paths import config_dir
from ..core.words import Lexicon
from ..policy.advisor import ALL_STRATEGIES, DEFAULT_GOAL, DEFAULT_STRATEGY, GOALS

MODES = ("assist", "play")
# What the guesses may be: any allowed word, or only the words still possible (the player who
# wants every guess to have a chance to win; the search then never plays a word that cannot be
# the answer).
GUESS_SPACES = ("all", "candidates")
# When the hints (suggestions, the words left and their count, a hard-mode trap) show: ``auto``
# hides them in play mode until asked (F3), where seeing the candidates would give the hidden
# word away, and shows them in assist mode, whose whole point is the advice; ``shown`` and
# ``hidden`` decide for both modes.
HINTS = ("auto", "shown", "hidden")
LENGTHS = (4, 11)  # word lengths the settings accept
CAPS = (2, 10)  # guess caps the settings accept (as the command line's --max-guesses)


Check = Callable[[object], str | None]  # a value -> what is wrong with it, or None


def _whole(lo: int, hi: int) -> Check:
    def check(v: object) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"not a whole number {lo}-{hi}"
        return None if lo <= v <= hi else f"out of range {lo}-{hi}"

    return check


def _one_of(choices: Sequence[str]) -> Check:
    return lambda v: None if isinstance(v, str) and v in choices else f"not one of {', '.join(choices)}"


def _file(v: object) -> str | None:
    return None if v is None or (isinstance(v, str) and v.strip()) else "not a file name"


def _flag(v: object) -> str | None:
    return None if isinstance(v, bool) else "not true or false"


@dataclass
class Settings:
    """What the user chose in the settings dialog, remembered between runs (a JSON file in the
    config folder).  The flags of one run (``wordlebot tui --play --hard``) change that run only:
    see ``changed`` and ``remember``."""

    words: str = "nyt"
    length: int = 5
    guesses_file: str | None = None
    answers_file: str | None = None
    strategy: str = DEFAULT_STRATEGY
    hard: bool = False
    max_guesses: int = 6
    mode: str = "assist"
    guess_space: str = "all"
    hints: str = "auto"
    goal: str = DEFAULT_GOAL  # what the search plays for (advisor.GOALS)

    @staticmethod
    def _checks() -> dict[str, Check]:
        return {
            "words": lambda v: None if isinstance(v, str) and v.strip() else "not a word set name",
            "length": _whole(*LENGTHS),
            "guesses_file": _file,
            "answers_file": _file,
            "strategy": _one_of(ALL_STRATEGIES),
            "hard": _flag,
            "max_guesses": _whole(*CAPS),
            "mode": _one_of(MODES),
            "guess_space": _one_of(GUESS_SPACES),
            "hints": _one_of(HINTS),
            "goal": _one_of(GOALS),
        }

    def hints_hidden(self) -> bool:
        """Whether the hints wait to be asked for (see HINTS)."""
        return self.hints == "hidden" or (self.hints == "auto" and self.mode == "play")

    @classmethod
    def path(cls) -> Path:
        return config_dir() / "tui.json"

    @classmethod
    def from_json(cls, doc: object) -> tuple[Settings, list[str]]:
        """Settings from a parsed JSON document: every bad value replaced by its default and
        named in the problems (unknown keys are ignored: a newer version may have written them)."""
        if not isinstance(doc, dict):
            return cls(), [f"it holds {type(doc).__name__ if doc is not None else 'null'}, not an object of settings"]
        from .wordsets import NAMES as names

        out, problems = cls(), []
        for name, check in cls._checks().items():
            if name in doc:
                why = check(doc[name])
                if why:
                    problems.append(f"{name} {json.dumps(doc[name])} is {why}")
                else:
                    setattr(out, name, doc[name])
        if out.words not in names and out.guesses_file is None:
            problems.append(
                f"words {json.dumps(out.words)} is not one of {', '.join(names)} (and no guess file is given)"
            )
            out.words = cls.words
        return out, problems

    def problems(self) -> list[str]:
        """What is wrong with these values, each checked as a settings file's would be (empty when
        nothing is).  Whether the word set exists is the loader's to say: a dialog may offer a set
        of its session's own."""
        values = asdict(self)
        return [
            f"{name} {json.dumps(values[name])} is {why}"
            for name, check in self._checks().items()
            if (why := check(values[name]))
        ]

    @classmethod
    def read(cls, path: Path | None = None) -> tuple[Settings, list[str]]:
        """The saved settings and the notes a user should read about them.  A missing file
        means the defaults.  A damaged one (not JSON, not an object, bad values) is never fatal:
        its usable values are kept, the others replaced by their defaults and named in a note,
        the file itself is kept aside as ``tui.json.bad`` and the usable values written back."""
        path = cls.path() if path is None else Path(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(), []
        except OSError as exc:
            return cls(), [f"cannot read the settings file {path} ({exc.strerror}): using the defaults"]
        try:
            settings, problems = cls.from_json(json.loads(raw.decode("utf-8")))
        except ValueError as exc:  # not UTF-8, not JSON
            settings, problems = cls(), [f"it is not valid JSON ({exc})"]
        if not problems:
            return settings, []
        aside = path.with_name(path.name + ".bad")
        try:
            os.replace(path, aside)
            kept = f"the file is kept as {aside}"
        except OSError as exc:
            kept = f"it could not be kept aside ({exc.strerror})"
        note = (
            f"settings file {path}: {'; '.join(problems)}. Using the defaults for "
            f"{'these' if len(problems) > 1 else 'it'}; {kept}."
        )
        failed = settings.save(path)
        return settings, [note] + ([failed] if failed else [])

    @classmethod
    def load(cls) -> Settings:
        """The saved settings (the defaults where the file is missing or damaged; see ``read``)."""
        return cls.read()[0]

    def save(self, path: Path | None = None) -> str | None:
        """Write the file; a note saying why not when it cannot be written (a read-only config
        folder must not stop play), else None."""
        from ..core.data import atomic_write_json

        try:
            atomic_write_json(self.path() if path is None else Path(path), asdict(self), indent=1)
        except WordlebotError as exc:
            return f"the settings were not saved: {exc}"
        return None

    def changed(self, **values: Any) -> Settings:
        """A copy with ``values`` (None values leave a field as it is): a run's flags."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})

    @staticmethod
    def remember(before: Settings, after: Settings, path: Path | None = None) -> str | None:
        """Save what the user changed (the fields where ``after`` differs from ``before``) over
        the saved settings, so that the flags of this run, part of ``before``, are not saved.
        Returns a note when the file cannot be written."""
        saved, _ = Settings.read(path)
        for f in fields(Settings):
            if getattr(after, f.name) != getattr(before, f.name):
                setattr(saved, f.name, getattr(after, f.name))
        return saved.save(path)

    @property
    def lists(self) -> tuple[str, int, str | None, str | None]:
        """What names the word lists (a change means loading other lists)."""
        return (self.words, self.length, self.guesses_file, self.answers_file)

    def lexicon(self, data_dir: str | Path | None = None, **options: Any) -> Lexicon:
        """The word lists these settings name (``options``: more load_lexicon arguments), loaded
        the same way at start-up and from the settings dialog."""
        from .wordsets import load_lexicon

        return load_lexicon(
            self.words,
            data_dir=data_dir,
            length=self.length,
            guesses=self.guesses_file,
            answers=self.answers_file,
            **options,
        )
