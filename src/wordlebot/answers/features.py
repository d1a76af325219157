"""Word features for the answer model, all computed offline.

- frequency: wordfreq Zipf of the word and of its lemma, frequency rank;
- morphology (lemminflect, data in the wheel): dictionary word, parts of speech, inflection
  tags (plural, past, -ing, 3rd person, comparative) when the word is an inflected form;
- orthography: vowels, distinct letters, doubled and repeated letters, rare letters;
- suffixes: -s, -es, -ies, -ed, -ing, -er, -ly, -y;
- letter by position (5 x 26 one-hot) and character 2- and 3-grams (hashed, with word-boundary
  marks).

``FEATURE_VERSION`` changes whenever a feature changes, so a saved model is never applied to
features it was not trained on.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

FEATURE_VERSION = 1
NGRAM_BITS = 12  # 4,096 hashed n-gram columns
VOWELS = set("aeiou")
RARE = set("jqxzvkw")
INFLECTION_TAGS = ("NNS", "VBD", "VBN", "VBG", "VBZ", "JJR", "JJS")
POS = ("NOUN", "VERB", "ADJ", "ADV")
SUFFIXES = ("s", "es", "ies", "ed", "ing", "er", "ly", "y", "ss")

DENSE_NAMES = (
    ["zipf", "zipf_lemma", "zipf_gap", "log_rank", "in_wordfreq", "in_dictionary"]
    + [f"pos_{p.lower()}" for p in POS]
    + ["inflected"] + [f"infl_{t}" for t in INFLECTION_TAGS]
    + ["vowels", "distinct", "doubled", "max_repeat", "rare_letters", "y_count", "starts_vowel", "ends_vowel"]
    + [f"suffix_{s}" for s in SUFFIXES]
)


@lru_cache(maxsize=1)
def _freq() -> dict:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", wordlist="large")


@lru_cache(maxsize=1)
def _ranks() -> dict:
    """Frequency rank of each word (0: the commonest); only the classifier's features need it."""
    return {w: i for i, (w, _) in enumerate(sorted(_freq().items(), key=lambda kv: -kv[1]))}


def zipf(word: str) -> float:
    """wordfreq Zipf frequency (English, large list); 0 when unknown."""
    f = _freq().get(word)
    return math.log10(f) + 9.0 if f else 0.0


def morphology(word: str) -> dict:
    """Parts of speech, lemmas and, when the word is an inflected form, its inflection tags."""
    import lemminflect

    lemmas = lemminflect.getAllLemmas(word)
    tags: set[str] = set()
    lemma_set: set[str] = set()
    for pos, lems in lemmas.items():
        for lem in lems:
            lemma_set.add(lem)
            if lem == word:
                continue
            for tag, forms in lemminflect.getAllInflections(lem, upos=pos).items():
                if word in forms and tag in INFLECTION_TAGS:
                    tags.add(tag)
    return {"pos": set(lemmas), "lemmas": lemma_set, "tags": tags,
            "inflected": bool(lemma_set) and word not in lemma_set}


def dense_features(word: str) -> list[float]:
    freq, ranked = _freq(), _ranks()
    m = morphology(word)
    z = zipf(word)
    z_lemma = max([zipf(lem) for lem in m["lemmas"]], default=z)
    counts = [word.count(c) for c in set(word)]
    row = [
        z, z_lemma, z_lemma - z,
        math.log1p(ranked.get(word, len(ranked))), float(word in freq), float(bool(m["pos"])),
    ]
    row += [float(p in m["pos"]) for p in POS]
    row += [float(m["inflected"])] + [float(t in m["tags"]) for t in INFLECTION_TAGS]
    row += [
        float(sum(c in VOWELS for c in word)), float(len(set(word))),
        float(any(a == b for a, b in zip(word, word[1:]))), float(max(counts)),
        float(sum(c in RARE for c in word)), float(word.count("y")),
        float(word[0] in VOWELS), float(word[-1] in VOWELS),
    ]
    row += [float(word.endswith(s)) for s in SUFFIXES]
    return row


def _hash(s: str) -> int:
    # A fixed hash (Python's is salted per process): FNV-1a, 32 bits.
    h = 2166136261
    for ch in s.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


def sparse_features(words: list[str]) -> sparse.csr_matrix:
    """Letter-by-position one-hot, then hashed character n-grams."""
    from scipy import sparse  # imported here: loading a model and its prior needs no scipy

    length = len(words[0])
    n_pos = 26 * length
    rows, cols = [], []
    for i, w in enumerate(words):
        for j, c in enumerate(w):
            rows.append(i)
            cols.append(26 * j + ord(c) - 97)
        marked = f"^{w}$"
        for n in (2, 3):
            for k in range(len(marked) - n + 1):
                rows.append(i)
                cols.append(n_pos + (_hash(marked[k:k + n]) & ((1 << NGRAM_BITS) - 1)))
    data = np.ones(len(rows), np.float32)
    m = sparse.csr_matrix((data, (rows, cols)), shape=(len(words), n_pos + (1 << NGRAM_BITS)), dtype=np.float32)
    m.data = np.minimum(m.data, 1.0)  # a repeated n-gram counts once
    return m


def feature_matrix(words: list[str]) -> tuple[np.ndarray, sparse.csr_matrix]:
    dense = np.array([dense_features(w) for w in words], dtype=np.float64)
    return dense, sparse_features(words)


def feature_names(length: int = 5) -> list[str]:
    pos = [f"letter{j + 1}={chr(97 + c)}" for j in range(length) for c in range(26)]
    return list(DENSE_NAMES) + pos + [f"ngram#{i}" for i in range(1 << NGRAM_BITS)]
