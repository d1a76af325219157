"""Deprecated: decision trees moved to ``wordlebot.search.tree``; this name re-exports them."""

import warnings

from .search.tree import *  # noqa: F401,F403
from .search.tree import TreeSummary, paths_of  # noqa: F401

warnings.warn("wordlebot.tree moved to wordlebot.search.tree; import it from there", DeprecationWarning, stacklevel=2)
