"""Tournaments between bots: schedule (``tournament``), statistics (``stats``) and where
the games run (``backends``: local processes or Ray). ``rami simulate`` is the front end."""
