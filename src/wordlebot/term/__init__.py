"""The rich terminal shell: the interactive loops (assist, play, multi-board assist) and the
renderers of library values as tables and tiles."""
