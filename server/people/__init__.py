"""People: the players a server remembers (a key, its names, its sessions), and their ratings and records."""
