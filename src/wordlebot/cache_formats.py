"""Names and versions of the cached files' formats, in a module of their own so that looking at
the cache (``wordlebot cache``) needs neither numpy nor the kernels."""

MATRIX_FORMAT_VERSION = 2
MATRIX_MAGIC = b"WBPMATRX"
MATRIX_HEADER_BYTES = 4096
BOOK_VERSION = 2  # 2: each row (word, value, loss): the weight its strategy loses
WORDLIST_VERSION = 1  # the wordfreq sets' lists (wordsets.py)
