"""Each game the client knows, a module per game that registers its ``GAME`` with ``client.gamebook``."""
