"""What every part of the server stands on: its refusals, clocks, words and names, the wire mapping, metrics, limits."""
