"""What to play and how it went: the greedy rankers, the advisor, explanations, game analysis and
simulation.  It stands on core and search."""
