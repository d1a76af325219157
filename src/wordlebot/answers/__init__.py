"""The answer model: how likely each valid word is to be the day's answer."""

from .prior import baseline_weights

__all__ = ["baseline_weights"]
