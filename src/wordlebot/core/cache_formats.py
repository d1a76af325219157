"""Names and versions of the cached files' formats, in a module of their own so that looking at
the cache (``wordlebot cache``) needs neither numpy nor the kernels."""

MATRIX_FORMAT_VERSION = 2
MATRIX_MAGIC = b"WBPMATRX"
MATRIX_HEADER_BYTES = 4096
BOOK_VERSION = 3  # 2: each row (word, value, loss): the weight its strategy loses; 3: sealed (cache_seal.py)
WORDLIST_VERSION = 3  # the wordfreq sets' lists (wordsets.py); 2: names no dictionary lists left out; 3: sealed
ANSWER_MODEL_VERSION = 4  # answers/editor.py's MODEL_VERSION (2: the Spy-EM model, no longer read; 4: sealed)
WORD_FACTS_VERSION = 2  # answers/daily.py's FACTS_VERSION (2: sealed, core/cache_seal.py)
RATING_STORE_VERSION = 1  # the exact first-word totals (app/opener_rating.py's STORE_VERSION)
