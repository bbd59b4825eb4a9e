"""Cacho's bots: the bot before levels (``today``), easy (``easy``), the search behind normal, hard and the analysis
(``search``), the opponent pool's styles (``pool``) and the baselines (``baselines``)."""
