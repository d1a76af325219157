"""The browser bot: plays a Wordle page with Playwright and the tree search."""
