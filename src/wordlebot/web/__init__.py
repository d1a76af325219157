"""The web app: a JSON API and a single page, every asset shipped in the package."""
