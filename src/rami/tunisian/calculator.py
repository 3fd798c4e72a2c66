"""The N-2 scoring calculator and N-3 hand analysis for Tunisian rami."""

from __future__ import annotations

from typing import Any

__all__ = ["analyze", "format_analysis", "score"]


def score(doc: object) -> dict[str, Any]:
    raise NotImplementedError


def analyze(hand: str, threshold: int = 71) -> dict[str, Any]:
    raise NotImplementedError


def format_analysis(result: dict[str, Any], ascii: bool = False) -> str:
    raise NotImplementedError
