"""Running a room: the LAN announcement, the log, systemd, the store's set-up and choice."""
