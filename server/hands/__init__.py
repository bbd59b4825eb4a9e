"""Finished hands: replays, their analysis, and tournaments of many tables."""
