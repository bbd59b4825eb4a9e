"""Benchmarks: commands that print figures, with ratios against a baseline measured in the same run."""
