"""Browser guests: the page, its guests' processes, the wheels a friend installs the client from."""
