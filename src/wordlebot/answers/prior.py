"""Answer priors for the ``nyt`` word set.

``baseline_weights`` is the model-free prior used until a trained model exists: every one of the
14,855 valid words keeps a positive weight (no answer is ever unreachable), words from the known
answer lists weigh most, past answers are penalised rather than banned (the NYT repeats answers
since 2026-02), and the rest are ranked by how common they are in English.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

# Relative weights.  Why these values: since 2023 nearly all answers come from the WordleBot
# list (3,158 words); ~10 % of recent days repeat one of ~1,700 past answers, which makes a past
# answer about a tenth as likely as an unused list word; a handful of answers came from outside
# every list, so ordinary words keep a small weight that grows with their frequency.
LISTED = 1.0
PAST = 0.1
OTHER_MAX = 0.05
OTHER_MIN = 0.0005


def zipf_of(words: Sequence[str]) -> np.ndarray:
    """wordfreq Zipf frequency (English, large list) of each word; 0 when unknown."""
    from .features import zipf

    return np.array([zipf(w) for w in words])


def baseline_weights(words: Sequence[str], listed: Iterable[str], past: Iterable[str]) -> np.ndarray:
    """Positive weight for every word (normalised to sum 1)."""
    listed_set = set(listed)
    past_set = set(past)
    zipf = zipf_of(words)
    # Ordinary words: logistic in Zipf frequency, centred where common words start (zipf 3).
    other = OTHER_MIN + (OTHER_MAX - OTHER_MIN) / (1.0 + np.exp(-2.0 * (zipf - 3.0)))
    w = np.where([x in listed_set for x in words], LISTED, other)
    w = np.where([x in past_set for x in words], np.minimum(w, PAST), w)
    out: np.ndarray = w / w.sum()
    return out


def answer_weights(prior: np.ndarray) -> np.ndarray:
    """A day's prior as a Lexicon's answer weights: a word the prior rules out (0) keeps a tiny
    weight, so it can still be played and ranked, last."""
    out: np.ndarray = np.maximum(prior, 1e-12)
    return out
