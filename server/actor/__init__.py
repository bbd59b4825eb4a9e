"""The table actor: one table's life, its seats, deals, turns, clocks, playing again and fan-out."""
