"""Storage protocols with an embedded default and a server backend for each concern."""
