"""The application: word sets by name, settings, the interactive session shells render, one-off
preparation and the opener sweeps.  It composes every library layer; no shell is imported here."""
