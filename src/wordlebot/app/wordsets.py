"""Named word sets and how a command gets its Lexicon.

``classic``   12,972 guesses / 2,315 answers: the standard benchmark.
``nyt``       14,855 guesses, every one a possible answer, weighted by the answer prior
              (the default for real play: nothing is ever ruled out).
``nyt-2309``  14,855 guesses / the NYT's 2022 answer list.
``nyt-3158``  14,855 guesses / the list NYT's WordleBot used in 2023.
``wordfreq``  built offline from wordfreq for any length 4-11; NOT the official lists.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..answers.prior import answer_weights
from ..core import cache_seal, cache_store, clock, data, paths
from ..core.cache_formats import WORDLIST_VERSION
from ..core.cache_seal import read_sealed
from ..core.errors import CacheError, DataError, WordListError
from ..core.feedback import MAX_LENGTH, MIN_LENGTH
from ..core.words import FALLBACK_FIX, Fallback, Lexicon, read_word_file

log = logging.getLogger(__name__)

NAMED: dict[str, tuple[str, str | None]] = {
    "classic": ("classic/guesses.txt", "classic/answers.txt"),
    "nyt": ("nyt/guesses.txt", None),
    "nyt-2309": ("nyt/guesses.txt", "nyt/answers-2309.txt"),
    "nyt-3158": ("nyt/guesses.txt", "nyt/wordlebot-3158.txt"),
}
WORDFREQ = "wordfreq"
NAMES = tuple(NAMED) + (WORDFREQ,)

Notify = Callable[[str], None]


def is_progress(message: str) -> bool:
    """Whether a loader's message reports work under way ("Training the answer model…"), which a
    shell shows while it lasts, rather than a note that stays true ("the history ends …")."""
    return message.rstrip().endswith(("…", "..."))


def load_lexicon(
    name: str = "nyt",
    *,
    data_dir: str | Path | None = None,
    length: int = 5,
    guesses: str | Path | None = None,
    answers: str | Path | None = None,
    auto_fetch: bool = True,
    notify: Notify | None = None,
    progress_factory: Callable[[str], data.Progress] | None = None,
    build_model: bool = False,
    day: dt.date | None = None,
    prefetch_matrix: bool = False,
) -> Lexicon:
    """The Lexicon a command asked for; a weighted set's prior is the one of ``day`` (default
    today), built from the history before that day (``answers.daily``).

    Files given explicitly win; then other word lengths come from wordfreq (the official lists
    are five letters); then the named set from the data folder, fetched on first use when the
    network allows, and otherwise replaced by the wordfreq set with a notice saying how to get
    the official lists (and ``Lexicon.fallback`` saying why, for a screen to keep in view).

    ``prefetch_matrix``: for a caller that goes on to search (an Advisor), a weighted set's
    pattern matrices are built on a background thread while its prior is computed (see
    ``matrix.prefetch``).
    """
    say = notify or (lambda msg: log.warning("%s", msg))
    if guesses is not None or answers is not None:
        if guesses is None:
            raise WordListError("--answers needs --guesses too (the answers must be among the guesses)")
        g = read_word_file(Path(guesses))
        a = read_word_file(Path(answers)) if answers is not None else g
        return Lexicon.from_lists(
            g, a, name=Path(guesses).stem, guess_source=str(guesses), answer_source=str(answers or guesses)
        )
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise WordListError(f"word length {length} is not supported; use {MIN_LENGTH} to {MAX_LENGTH}")
    if name == WORDFREQ or length != 5:
        if name not in (WORDFREQ, "nyt"):
            say(f"the {name} lists are five-letter lists; using the wordfreq set for {length} letters")
        return wordfreq_lexicon(length)
    if name not in NAMED:
        raise WordListError(f"unknown word set {name!r}; choose one of {', '.join(NAMES)}")
    folder = paths.data_dir(data_dir)
    g_file, a_file = NAMED[name]
    needed = [g_file] + ([a_file] if a_file else [])
    if not data.have_official(folder, needed):
        fallback = _fetch_or_say_why(name, folder, needed, auto_fetch, say, progress_factory)
        if fallback is not None:
            return replace(wordfreq_lexicon(length), fallback=fallback)
    g = read_word_file(folder / g_file)
    if a_file is None:
        return _nyt_weighted(
            g, folder, day or clock.today(), build_model=build_model, say=say, prefetch_matrix=prefetch_matrix
        )
    a = read_word_file(folder / a_file)
    return Lexicon.from_lists(g, a, name=name, guess_source=str(folder / g_file), answer_source=str(folder / a_file))


def _fetch_or_say_why(
    name: str,
    folder: Path,
    needed: list[str],
    auto_fetch: bool,
    say: Notify,
    progress_factory: Callable[[str], data.Progress] | None,
) -> Fallback | None:
    """Fetch the official lists the first time they are needed (network and ``auto_fetch``
    allowing); None when they are there now, else why not, said once in full."""
    reason, detail = "not fetched", ""
    if auto_fetch and data.offline():
        reason, detail = "offline", f"; ${data.OFFLINE_ENV} is set, so nothing was downloaded"
    elif auto_fetch:
        say(f"Fetching the official word lists into {folder} (one time)…")
        try:
            results = data.fetch(folder, timeout=10.0, include_history=True, progress_factory=progress_factory)
        except DataError as exc:
            results = [data.FetchResult("*", False, str(exc))]
        failed = [r for r in results if not r.ok]
        if data.have_official(folder, needed):
            for r in failed:  # the lists came, the history did not: play goes on, said once
                say(f"  {r.path}: {r.message}")
            return None
        if failed and all(r.unreachable for r in failed):
            reason, detail = "offline", f"; cannot reach {data.raw_host()}"
        elif failed:
            more = f" and {len(failed) - 1} more" if len(failed) > 1 else ""
            reason, detail = "fetch failed", f"; the download failed ({failed[0].path}: {failed[0].message}){more}"
    message = (
        f"Using a word list built from wordfreq, NOT the official {name} lists (none in {folder}{detail}). "
        f"Get them with: {FALLBACK_FIX} (or point --data-dir / WORDLEBOT_DATA at a folder that has them)."
    )
    say(message)
    return Fallback(name, reason, message)


def _nyt_weighted(
    guesses: list[str],
    folder: Path,
    day: dt.date,
    *,
    build_model: bool = False,
    say: Notify,
    prefetch_matrix: bool = False,
) -> Lexicon:
    """Every valid word a possible answer, weighted by the prior of ``day``: the answer model's,
    or the model-free baseline when there is no model (and it was not asked to build one)."""
    from ..answers.daily import prior_for_day

    if prefetch_matrix:
        from ..core import matrix

        # the matrices depend on the lists only (the cache key leaves the weights out), so they
        # are built while the model trains on the other core
        matrix.prefetch(Lexicon.from_lists(guesses, guesses, name="nyt"))

    prior = prior_for_day(folder, guesses, day, build=build_model, notify=say)
    kind = "the" if prior.model is not None else "a"
    groups = None
    if prior.model is not None and prior.parts is not None:
        from ..answers.odds import answer_groups

        groups = answer_groups(prior.model, prior.parts)
    return Lexicon.from_lists(
        guesses,
        guesses,
        answer_weights(prior.weights),
        name="nyt",
        day=day,
        groups=groups,
        note=f"every valid word is a possible answer, weighted by {kind} {prior.description}",
    )


# Words at least this common (Zipf) may be guessed; at least this common may be the answer.
GUESS_ZIPF = 2.0
ANSWER_ZIPF = 3.0


def wordfreq_lexicon(length: int = 5) -> Lexicon:
    """An offline lexicon from wordfreq's English list: any length 4-11.  wordfreq counts names
    as words (AARON, ACCRA, DUNLOP…), so proper nouns are left out (see ``common_words``) and the
    note says how many."""
    guesses, answers, note = _wordfreq_lists(length)
    return Lexicon.from_lists(list(guesses), list(answers), name=f"wordfreq-{length}", official=False, note=note)


@functools.lru_cache(maxsize=8)
def _wordfreq_lists(length: int) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """The set's guesses, answers and note: from the cache folder, else built and kept there
    (building reads wordfreq's 321,000 words and sieves them: ~2 s of every start otherwise)."""
    path = _wordlist_path(length)
    try:
        doc = read_sealed(path, path.name)  # (sealed with its name: the hash of what it depends on)
        if doc is not None:
            if doc["version"] != WORDLIST_VERSION or doc["length"] != length:
                raise ValueError("made for another version or length")
            guesses, answers, note = doc["guesses"], doc["answers"], doc["note"]
            if not isinstance(note, str) or not all(
                isinstance(w, list) and all(isinstance(x, str) and len(x) == length for x in w)
                for w in (guesses, answers)
            ):
                raise ValueError(f"not lists of {length}-letter words")
            cache_store.touch(path)
            return tuple(guesses), tuple(answers), note
    except (CacheError, ValueError, KeyError, TypeError) as exc:
        cache_seal.set_aside(path, "word list", exc)
    lists = _build_wordfreq_lists(length)
    doc = {
        "version": WORDLIST_VERSION,
        "words": f"wordfreq-{length}",
        "length": length,
        "guesses": list(lists[0]),
        "answers": list(lists[1]),
        "note": lists[2],
    }
    try:
        data.atomic_write_json(path, cache_seal.seal(doc, path.name))
    except DataError:  # a read-only cache folder must not stop play (its check says so once)
        pass
    else:
        cache_store.after_write(path)
    return lists


def _wordlist_path(length: int) -> Path:
    """Named for everything the lists depend on: the length, the thresholds, this code's
    version and the versions of the packages whose data they come from."""
    from importlib.metadata import PackageNotFoundError, version

    def v(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "-"

    key = repr((length, GUESS_ZIPF, ANSWER_ZIPF, WORDLIST_VERSION, v("wordfreq"), v("lemminflect"), v("english-words")))
    return paths.cache_dir() / "wordlists" / f"wordfreq-{length}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"


def _build_wordfreq_lists(length: int) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    import math

    from wordfreq import get_frequency_dict

    freq = get_frequency_dict("en", wordlist="large")
    scored = sorted(
        (
            (math.log10(f) + 9.0, w)
            for w, f in freq.items()
            if len(w) == length and w.isascii() and w.isalpha() and w.islower()
        ),
        key=lambda t: (-t[0], t[1]),
    )
    guesses = sorted(w for z, w in scored if z >= GUESS_ZIPF)
    answers = sorted(w for z, w in scored if z >= ANSWER_ZIPF)
    sieve = common_words()
    kept_guesses = [w for w in guesses if sieve.guessable(w)]
    kept_answers = [w for w in answers if sieve.common(w)]
    gone = [w for w in answers if not sieve.common(w)]
    example = ", ".join(w.upper() for w in gone[:3])
    return (
        tuple(kept_guesses),
        tuple(kept_answers),
        f"built offline from wordfreq: {len(kept_guesses):,} words with Zipf >= {GUESS_ZIPF} may be "
        f"guessed ({len(guesses) - len(kept_guesses):,} names and words no dictionary lists left out), "
        f"{len(kept_answers):,} with Zipf >= {ANSWER_ZIPF} may be the answer ({len(gone):,} left out as "
        f"names or not known as common words{', e.g. ' + example if example else ''}; {sieve.source})",
    )


class WordSieve:
    """Tells common words from names, offline, with maintained sources: the lemma lexicon of
    lemminflect (nouns, verbs, adjectives and adverbs with their inflections, from the NLM's
    SPECIALIST lexicon) and, when installed, two dictionaries of the english-words package:
    Webster's Second International (public domain; a word it lists capitalised only is a name)
    and the GCIDE (Webster's 1913 and WordNet; its headwords are capitalised, so it says only
    whether a word is listed).

    wordfreq counts names as words.  Webster's Second also lists, in lower case, rare senses
    of many names (ABBAS, ALAMO, ALLAN, the last one capitalised too), and names newer than both
    dictionaries (ALWYN, AMOCO, OBAMA) are in neither; so a word only Webster's Second lists is
    an answer when it lists it in lower case only and the GCIDE has it too (AMONG, EVERY, THREE:
    lemminflect has no prepositions, determiners or numbers), and a guess must be listed
    somewhere, or be the regular plural or past of a listed word (BECKS).  Modern words neither dictionary
    has (EMOJI, SCUBA) are left out of the guesses with the names: the price of an offline list
    without names."""

    def __init__(
        self,
        lower: set[str] | None,
        capitalised: set[str] | None,
        lemmas: Callable[[str], bool],
        second: set[str] | None = None,
        stems: Callable[[str], list[str]] | None = None,
    ) -> None:
        self.lower, self.capitalised, self.lemmas = lower, capitalised, lemmas
        self.second = second  # None: no second dictionary
        self.stems = stems or (lambda w: [])

    @property
    def source(self) -> str:
        return (
            "by lemminflect's lexicon, Webster's Second and the GCIDE (english-words)"
            if self.lower is not None
            else "by lemminflect's lexicon (install english-words to keep words like AMONG and to "
            "filter the guesses too)"
        )

    def common(self, word: str) -> bool:
        """A common English word: lemminflect has its lemma, or both dictionaries list it and
        Webster's Second in lower case only."""
        if self.lemmas(word):
            return True
        return (
            self.lower is not None
            and self.capitalised is not None
            and word in self.lower
            and word not in self.capitalised
            and (self.second is None or word in self.second)
        )

    def proper(self, word: str) -> bool:
        """A proper noun: Webster's Second lists it capitalised only, and it is not a common
        word (never true without the dictionaries)."""
        return (
            self.capitalised is not None
            and self.lower is not None
            and word in self.capitalised
            and word not in self.lower
            and not self.lemmas(word)
        )

    def listed(self, word: str) -> bool:
        """Some source lists the word (true for every word without the dictionaries)."""
        if self.lower is None:
            return True
        return (
            self.lemmas(word)
            or word in self.lower
            or (self.capitalised is not None and word in self.capitalised)
            or (self.second is not None and word in self.second)
        )

    def guessable(self, word: str) -> bool:
        """A word that may be guessed: not a name, and listed, or the regular plural or past
        of a listed word that is not a name (BECKS of BECK: a dictionary lists headwords)."""
        if self.proper(word):
            return False
        if self.listed(word):
            return True
        return any(self.listed(base) and not self.proper(base) for base in self.stems(word))


def common_words() -> WordSieve:
    import lemminflect

    from ..answers.filters import regular_stems

    lemmas = lambda w: bool(lemminflect.getAllLemmas(w))  # noqa: E731
    try:
        from english_words import get_english_words_set
    except ImportError:
        return WordSieve(None, None, lemmas)
    words = get_english_words_set(["web2"], alpha=True, lower=False)
    lower = {w for w in words if w.islower()}
    capitalised = {w.lower() for w in words if not w.islower()}
    second = get_english_words_set(["gcide"], alpha=True, lower=True)
    return WordSieve(lower, capitalised, lemmas, second, regular_stems)


def reference_lexicon(words: str, data_dir: str | Path) -> Lexicon:
    """The Lexicon of a word set of the reference tables (``search.published``): a named set, or
    a pair of list files of ``published.LIST_PAIRS``."""
    from ..search.published import LIST_PAIRS

    if words in LIST_PAIRS:
        g, a = LIST_PAIRS[words]
        return load_lexicon(guesses=Path(data_dir) / g, answers=Path(data_dir) / a)
    return load_lexicon(words, data_dir=data_dir)
