"""The rummy family's bots: the levels every rummy game plays by (``levels``), the playouts behind the hard bots
and the analysis (``search``), each game's own where it differs (``pifpaf``, ``pifpaf_hard``, ``cacheta`` and its
levels), and the baselines the arena measures them against."""
