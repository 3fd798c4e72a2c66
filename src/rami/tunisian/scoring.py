"""Former name of ``rami.tunisian.settle`` (deal scoring, T-10, and elimination, T-13),
kept for code written before both games named their scoring module ``settle``."""

from __future__ import annotations

from rami.tunisian.settle import apply_totals, card_points, deal_points, hand_points, teams_of

__all__ = ["apply_totals", "card_points", "deal_points", "hand_points", "teams_of"]
