"""Word features for the answer model, all computed offline.

- frequency: wordfreq Zipf of the word and of its lemma, frequency rank;
- morphology (lemminflect, data in the wheel): dictionary word, parts of speech, inflection
  tags (plural, past, -ing, 3rd person, comparative) when the word is an inflected form;
- orthography: vowels, distinct letters, doubled and repeated letters, rare letters;
- suffixes: -s, -es, -ies, -ed, -ing, -er, -ly, -y;
- letter by position (5 x 26 one-hot) and character 2- and 3-grams (hashed, with word-boundary
  marks).

``FEATURE_VERSION`` changes whenever a feature changes, so a saved model is never applied to
features it was not trained on.  The sparse block is built as CSR arrays in numpy (no scipy):
the columns are the letter-by-position one-hot, then the FNV-hashed n-grams, a repeated n-gram
counted once.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .logistic import CSR

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
    + ["inflected"]
    + [f"infl_{t}" for t in INFLECTION_TAGS]
    + ["vowels", "distinct", "doubled", "max_repeat", "rare_letters", "y_count", "starts_vowel", "ends_vowel"]
    + [f"suffix_{s}" for s in SUFFIXES]
)


@lru_cache(maxsize=1)
def _freq() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", wordlist="large")


@lru_cache(maxsize=1)
def _ranks() -> dict[str, int]:
    """Frequency rank of each word (0: the commonest, ties in the dictionary's order, as a
    stable sort by frequency gives them); only the classifier's features need it."""
    freq = _freq()
    f = np.fromiter(freq.values(), np.float64, len(freq))
    if np.all(f[1:] <= f[:-1]):
        # wordfreq fills the dictionary bucket by bucket, commonest first: the order is the rank
        # already, and sorting 320,000 entries by a Python key (~0.5 s) is not needed
        return {w: i for i, w in enumerate(freq)}
    order = np.argsort(-f, kind="stable")
    words = list(freq)
    return {words[j]: i for i, j in enumerate(order.tolist())}


def zipf(word: str) -> float:
    """wordfreq Zipf frequency (English, large list); 0 when unknown."""
    f = _freq().get(word)
    return math.log10(f) + 9.0 if f else 0.0


@lru_cache(maxsize=4096)
def _inflections(lemma: str, pos: str) -> dict[str, tuple[str, ...]]:
    # several words share a lemma (cranes, craned): lemminflect deep-copies its entry on each call
    import lemminflect

    found: dict[str, tuple[str, ...]] = lemminflect.getAllInflections(lemma, upos=pos)
    return found


def morphology(word: str) -> dict[str, Any]:
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
            for tag, forms in _inflections(lem, pos).items():
                if word in forms and tag in INFLECTION_TAGS:
                    tags.add(tag)
    return {
        "pos": set(lemmas),
        "lemmas": lemma_set,
        "tags": tags,
        "inflected": bool(lemma_set) and word not in lemma_set,
    }


def dense_features(word: str) -> list[float]:
    freq, ranked = _freq(), _ranks()
    m = morphology(word)
    z = zipf(word)
    z_lemma = max([zipf(lem) for lem in m["lemmas"]], default=z)
    counts = [word.count(c) for c in set(word)]
    row = [
        z,
        z_lemma,
        z_lemma - z,
        math.log1p(ranked.get(word, len(ranked))),
        float(word in freq),
        float(bool(m["pos"])),
    ]
    row += [float(p in m["pos"]) for p in POS]
    row += [float(m["inflected"])] + [float(t in m["tags"]) for t in INFLECTION_TAGS]
    row += [
        float(sum(c in VOWELS for c in word)),
        float(len(set(word))),
        float(any(a == b for a, b in zip(word, word[1:]))),
        float(max(counts)),
        float(sum(c in RARE for c in word)),
        float(word.count("y")),
        float(word[0] in VOWELS),
        float(word[-1] in VOWELS),
    ]
    row += [float(word.endswith(s)) for s in SUFFIXES]
    return row


FNV_OFFSET = 2166136261
FNV_PRIME = 16777619


def _hash(s: str) -> int:
    # A fixed hash (Python's is salted per process): FNV-1a, 32 bits.
    h = FNV_OFFSET
    for ch in s.encode():
        h = ((h ^ ch) * FNV_PRIME) & 0xFFFFFFFF
    return h


def _ngram_hashes(codes: np.ndarray, n: int) -> np.ndarray:
    """FNV-1a of every n-gram of each row of byte ``codes`` (rows x positions): the same values
    as ``_hash`` on the n-gram's text, all rows at once.  (h ^ byte) < 2**32 and the prime
    < 2**25, so the product fits in uint64 before the mask."""
    k = codes.shape[1] - n + 1
    h = np.full((codes.shape[0], k), FNV_OFFSET, np.uint64)
    for t in range(n):
        h = ((h ^ codes[:, t : t + k]) * np.uint64(FNV_PRIME)) & np.uint64(0xFFFFFFFF)
    return h


def sparse_features(words: list[str]) -> CSR:
    """Letter-by-position one-hot, then hashed character 2- and 3-grams of the word between
    boundary marks (^word$), each column once per word."""
    from .logistic import CSR

    length = len(words[0])
    if any(len(w) != length for w in words):
        raise ValueError("the words of a feature matrix must all have the same length")
    if not all(w.isascii() and w.isalpha() and w.islower() for w in words):
        raise ValueError("features are defined for lower-case words of the letters a-z")
    n_pos = 26 * length
    marked = np.frombuffer("".join(f"^{w}$" for w in words).encode(), np.uint8).reshape(len(words), length + 2)
    letters = marked[:, 1:-1].astype(np.int64) - ord("a")
    mask = np.uint64((1 << NGRAM_BITS) - 1)
    cols = np.hstack(
        [26 * np.arange(length) + letters]
        + [n_pos + (_ngram_hashes(marked.astype(np.uint64), n) & mask).astype(np.int64) for n in (2, 3)]
    )
    cols.sort(axis=1)
    # a repeated n-gram (or two n-grams hashed alike) is one column with the value 1
    keep = np.ones(cols.shape, bool)
    keep[:, 1:] = cols[:, 1:] != cols[:, :-1]
    indptr = np.zeros(len(words) + 1, np.int64)
    np.cumsum(keep.sum(axis=1), out=indptr[1:])
    return CSR(indptr, cols[keep], np.ones(int(indptr[-1])), n_pos + (1 << NGRAM_BITS))


def letter_columns(sparse: CSR) -> int:
    """How many of the sparse block's columns, the first ones, are the letter one-hot."""
    return sparse.n_cols - (1 << NGRAM_BITS)


def feature_matrix(words: list[str]) -> tuple[np.ndarray, CSR]:
    dense = np.array([dense_features(w) for w in words], dtype=np.float64)
    return dense, sparse_features(words)


def feature_names(length: int = 5) -> list[str]:
    pos = [f"letter{j + 1}={chr(97 + c)}" for j in range(length) for c in range(26)]
    return list(DENSE_NAMES) + pos + [f"ngram#{i}" for i in range(1 << NGRAM_BITS)]
