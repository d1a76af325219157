"""The tree search: its kernels, the search itself, the opening book, decision trees and the
published totals they must reproduce.  It stands on core alone."""
