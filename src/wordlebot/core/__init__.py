"""The ground floor: feedback codes, word lists, the game state, the pattern matrix and its cache,
the generic kernels, data files, paths, days and errors.  It imports nothing else of wordlebot."""
