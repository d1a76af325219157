"""Why a word is as likely as the day's prior says, in a player's words.

A word's probability is its group's share of the day times its share inside the group: "unused
word of the NYT answer list: 86 % of days draw one of these 554 words; SPUNK is 1 in 455 of
them".  The groups are the editor model's (``editor.py``): the unused words of each list, and
the past answers (a repeat).  What moves a word away from an even share of its group is said
as factors ("x1.4: common (Zipf 4.9)"), each the model's own term for that word.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import editor
from .editor import EditorModel, PriorParts

if TYPE_CHECKING:
    from ..core.words import AnswerGroups

PAST = 4  # the group of the past answers, after editor's four
GROUP_LABELS = (
    "unused word of the NYT answer list",
    "unused word of the WordleBot list only (not the NYT's own)",
    "one of the words the NYT removed from the original list",
    "unused word in no answer list",
    "past answer (a repeat)",
)
SHORT_LABELS = ("NYT list", "WordleBot list", "removed word", "in no list", "past answer")


@dataclass(frozen=True)
class Group:
    index: int
    label: str
    short: str
    share: float  # of the day's probability
    words: int

    def text(self) -> str:
        verb = "repeat" if self.index == PAST else "draw"
        noun = "past answers" if self.index == PAST else "words"
        return f"{_pct(self.share)} of days {verb} one of these {self.words:,} {noun}"


@dataclass(frozen=True)
class WordOdds:
    word: str
    p: float
    group: Group
    # (a fact about the word, the factor the model gives it for that fact), largest effect first;
    # frequency against a word of Zipf 4, the others against a word without that fact
    factors: tuple[tuple[str, float], ...]

    @property
    def within(self) -> float:
        """The word's share of its group's probability."""
        return self.p / self.group.share if self.group.share > 0 else 0.0

    def text(self) -> str:
        inside = f"1 in {1 / self.within:,.0f}" if self.within > 0 else "none"
        return (
            f"{self.group.label}: {self.group.text()}; {self.word.upper()}'s chance among them: {inside} "
            f"(even odds would be 1 in {self.group.words:,})"
        )


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %" if x >= 0.095 else f"{100 * x:.1f} %" if x >= 0.00095 else f"{100 * x:.2g} %"


def group_index(parts: PriorParts, facts: editor.WordFacts) -> np.ndarray:
    """Each word's group: editor's list groups for unused words, PAST for past answers."""
    return np.where(parts.used, PAST, facts.group)


def groups(model: EditorModel, parts: PriorParts) -> list[Group]:
    g = group_index(parts, model.facts)
    share = np.bincount(g, weights=parts.weights, minlength=PAST + 1)
    size = np.bincount(g, minlength=PAST + 1)
    return [Group(k, GROUP_LABELS[k], SHORT_LABELS[k], float(share[k]), int(size[k])) for k in range(PAST + 1)]


def word_odds(model: EditorModel, parts: PriorParts, word: str) -> WordOdds:
    """The odds of one word of the list (KeyError for a word not in it)."""
    i = model.words.index(word)
    gi = int(group_index(parts, model.facts)[i])
    group = groups(model, parts)[gi]
    return WordOdds(word, float(parts.weights[i]), group, tuple(_factors(model, parts, i, gi)))


def _factors(model: EditorModel, parts: PriorParts, i: int, gi: int) -> list[tuple[str, float]]:
    f = model.facts
    z = float(f.zipf[i])
    out: list[tuple[str, float]] = []
    if gi == PAST:
        first = next(e.date for e in parts.timeline.entries if e.word == f.words[i])
        years = max((parts.day - first).days / 365.25, 1 / 365.25)
        out.append(
            (
                f"first an answer on {first}",
                math.exp(model.repeat["first_2021"] * (first.year == 2021) + model.repeat["age"] * math.log(years)),
            )
        )
        out.append((f"how common it is (Zipf {z:.1f})", math.exp(model.repeat["freq"] * (z - editor.FREQ_CENTRE))))
    else:
        x = dict(zip(editor.FRESH_STATIC, f.static_features[i]))
        common = sum(model.fresh[k] * x[k] for k in ("freq_nyt", "freq_bot", "freq_other", "rare_nyt", "common_nyt"))
        out.append((f"how common it is (Zipf {z:.1f})", math.exp(common)))
        infl = model.fresh["inflected_bot"] * x["inflected_bot"] + model.fresh["inflected_other"] * x["inflected_other"]
        if infl:
            out.append(("a plural, past or other inflected form", math.exp(infl)))
        if f.blacklisted[i]:
            out.append(("a word the NYT avoids (blacklist)", math.exp(model.fresh["blacklisted"])))
        prev = parts.timeline.entries[-1] if parts.timeline.entries else None
        if prev is not None and (parts.day - prev.date).days == 1:
            w = f.words[i]
            if w[0] == prev.word[0]:
                out.append(
                    (
                        f"starts with {w[0].upper()} as the day before's answer ({prev.word.upper()}) did",
                        math.exp(model.fresh["same_first"]),
                    )
                )
            if w[-1] == prev.word[-1]:
                out.append(
                    (
                        f"ends with {w[-1].upper()} as the day before's answer ({prev.word.upper()}) did",
                        math.exp(model.fresh["same_last"]),
                    )
                )
    return sorted(out, key=lambda t: -abs(math.log(t[1])))


def answer_groups(model: EditorModel, parts: PriorParts) -> AnswerGroups:
    """The day's groups as a Lexicon carries them (for every shell's candidate list)."""
    from ..core.words import AnswerGroups

    gs = groups(model, parts)
    member = group_index(parts, model.facts).astype(np.int8)
    member.setflags(write=False)
    return AnswerGroups(
        tuple(g.label for g in gs),
        tuple(g.short for g in gs),
        tuple(g.text() for g in gs),
        tuple(g.share for g in gs),
        tuple(g.words for g in gs),
        member,
    )
