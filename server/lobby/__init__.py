"""The lobby: the room of tables, where each is served, its listing, invites, a store out of reach."""
