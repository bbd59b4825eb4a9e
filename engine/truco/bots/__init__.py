"""Truco's bots, both games': the bot before levels (``today``), easy (``easy``), the search behind normal, hard and
the analysis (``search``) on the worlds a seat may be in (``worlds``) and a quick model of a hand played out
(``sim``), how often to bluff an envido (``bluffs``), the opponent pool's styles (``pool``) and the baselines
(``baselines``)."""
