"""``rami play``: one person against bots in a terminal (Rich screens, forgiving commands).

``session`` runs the match, ``render`` draws screens from the human seat's view,
``commands`` reads what the person types, ``hints`` asks the solvers about the
person's own cards, ``saves`` keeps a match to resume; the bots are ``rami.bots``.
"""

from __future__ import annotations

from rami.play.session import Session, Settings

__all__ = ["Session", "Settings"]
