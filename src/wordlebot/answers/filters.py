"""Filters over the valid words: each usable alone or chained, each reporting how many it kept.

A filter returns a mask of the words it keeps and, optionally, a factor that scales the weight
of words it does not ban outright ("penalise instead of ban").  ``chain`` applies several in
turn and reports each one's count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Protocol

import numpy as np

from ..core.data import HistoryEntry
from .features import morphology, zipf


@dataclass
class FilterResult:
    name: str
    keep: np.ndarray  # bool per word
    factor: np.ndarray | None = None  # weight multiplier per word (None: 1)

    @property
    def kept(self) -> int:
        return int(self.keep.sum())


class Filter(Protocol):
    @property
    def name(self) -> str: ...

    def apply(self, words: Sequence[str]) -> FilterResult: ...


@dataclass
class FrequencyFilter:
    """Keep words at least this common (wordfreq Zipf, English)."""

    min_zipf: float = 2.5

    @property
    def name(self) -> str:
        return f"frequency >= {self.min_zipf:g}"

    def apply(self, words: Sequence[str]) -> FilterResult:
        return FilterResult(self.name, np.array([zipf(w) >= self.min_zipf for w in words]))


def regular_stems(w: str) -> list[str]:
    """The words ``w`` would be the plural or past of by the regular rules (-s, -es, -ies, -ed,
    -d, a doubled consonant): candidates, most likely first, whether or not they are words."""
    cands = []
    if w.endswith("ies"):
        cands.append(w[:-3] + "y")
    if w.endswith("es"):
        cands.append(w[:-2])
    if w.endswith("s") and not w.endswith("ss"):
        cands.append(w[:-1])
    if w.endswith("ed"):
        cands += [w[:-2], w[:-1]]
        if len(w) > 3 and w[-3] == w[-4]:
            cands.append(w[:-3])  # hopped -> hop
    return [c for c in cands if c and c != w]


@dataclass
class SuffixFilter:
    """Drop plurals (-s, -es, -ies) and pasts (-ed, -d) whose stem is itself a valid word."""

    valid: frozenset[str]

    name = "no plural/past of a valid word"

    def stem_of(self, w: str) -> str | None:
        return next((c for c in regular_stems(w) if c in self.valid), None)

    def apply(self, words: Sequence[str]) -> FilterResult:
        return FilterResult(self.name, np.array([self.stem_of(w) is None for w in words]))


@dataclass
class InflectionFilter:
    """Drop inflected forms by part-of-speech analysis (lemminflect, offline): plurals, pasts,
    -ing forms, 3rd person, comparatives and superlatives."""

    name = "no inflected forms"

    def apply(self, words: Sequence[str]) -> FilterResult:
        return FilterResult(self.name, np.array([not morphology(w)["tags"] for w in words]))


@dataclass
class ListFilter:
    """Keep only the words of a list (a whitelist)."""

    allowed: frozenset[str]
    label: str = "whitelist"

    @property
    def name(self) -> str:
        return f"in {self.label} ({len(self.allowed):,})"

    def apply(self, words: Sequence[str]) -> FilterResult:
        return FilterResult(self.name, np.array([w in self.allowed for w in words]))


@dataclass
class BlacklistFilter:
    """Ban (or, with a factor, penalise) the words of a list."""

    banned: frozenset[str]
    penalty: float | None = None  # None: ban; else multiply the weight by this
    label: str = "blacklist"

    @property
    def name(self) -> str:
        how = "banned" if self.penalty is None else f"weight x{self.penalty:g}"
        return f"{self.label} ({len(self.banned):,}, {how})"

    def apply(self, words: Sequence[str]) -> FilterResult:
        hit = np.array([w in self.banned for w in words])
        if self.penalty is None:
            return FilterResult(self.name, ~hit)
        return FilterResult(self.name, np.ones(len(words), bool), np.where(hit, self.penalty, 1.0))


@dataclass
class PastAnswersFilter:
    """Past answers: banned, or (the NYT repeats answers since 2026-02) only penalised."""

    history: Sequence[HistoryEntry]
    penalty: float | None = None  # None: ban

    @property
    def name(self) -> str:
        return "past answers " + ("banned" if self.penalty is None else f"x{self.penalty:g}")

    def apply(self, words: Sequence[str]) -> FilterResult:
        past = {e.word for e in self.history}
        return BlacklistFilter(frozenset(past), self.penalty, "past answers").apply(words)


@dataclass
class ThresholdFilter:
    """Keep words whose score (e.g. the classifier's probability) reaches a threshold."""

    scores: np.ndarray
    threshold: float
    label: str = "classifier"

    @property
    def name(self) -> str:
        return f"{self.label} >= {self.threshold:g}"

    def apply(self, words: Sequence[str]) -> FilterResult:
        return FilterResult(self.name, np.asarray(self.scores) >= self.threshold)


def chain(filters: Iterable[Filter], words: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[tuple[str, int]]]:
    """Apply filters in turn: (keep mask, weight factor, [(filter name, words kept after it)])."""
    keep = np.ones(len(words), bool)
    factor = np.ones(len(words))
    report = []
    for f in filters:
        r = f.apply(words)
        keep &= r.keep
        if r.factor is not None:
            factor *= r.factor
        report.append((r.name, int(keep.sum())))
    return keep, factor, report


def default_blacklist() -> frozenset[str]:
    """Slurs and obscenities the NYT does not use as answers (shipped with the package)."""
    text = resources.files("wordlebot.answers").joinpath("blacklist.txt").read_text(encoding="ascii")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
