"""Means with 95% confidence intervals, and decision-time percentiles.

Intervals use Student's t for small samples (exact table up to 30 degrees of freedom,
then the normal 1.96), computed over *independent* units: in a duplicate tournament the
unit is a group of games sharing one deal, never a single game, because the games of a
group are correlated on purpose.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Estimate", "TimeHistogram", "mean_ci", "proportion_ci"]

# Two-sided 95% quantiles of Student's t, degrees of freedom 1 … 30.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def _t95(df: int) -> float:
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    if df <= 60:
        return 2.000 + (2.042 - 2.000) * (60 - df) / 30
    if df <= 120:
        return 1.980 + (2.000 - 1.980) * (120 - df) / 60
    return 1.96


@dataclass(frozen=True)
class Estimate:
    """A mean, the half-width of its 95% interval, and the number of units behind it."""

    mean: float
    half_width: float
    n: int
    bounds: tuple[float, float] | None = None  # an asymmetric interval (rates)

    @property
    def low(self) -> float:
        return self.bounds[0] if self.bounds else self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.bounds[1] if self.bounds else self.mean + self.half_width

    @property
    def excludes_zero(self) -> bool:
        return self.n > 1 and (self.low > 0 or self.high < 0)

    def to_json(self) -> dict[str, object]:
        finite = math.isfinite(self.half_width)
        return {
            "mean": round(self.mean, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)] if finite else None,
            "n": self.n,
        }

    def text(self, digits: int = 2, signed: bool = True) -> str:
        sign = "+" if signed else ""
        if not math.isfinite(self.half_width):
            return f"{self.mean:{sign}.{digits}f}"
        return f"{self.mean:{sign}.{digits}f} ± {self.half_width:.{digits}f}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` and its 95% interval (infinite width below two values)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, math.inf, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, math.inf, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, _t95(n - 1) * math.sqrt(var / n), n)


def proportion_ci(successes: float, n: int) -> Estimate:
    """A rate and its 95% Wilson interval (``bounds``; ``half_width`` is its larger side)."""
    if n == 0:
        return Estimate(0.0, math.inf, 0)
    p = successes / n
    z = 1.96
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return Estimate(p, max(high - p, p - low), n, (low, high))


class TimeHistogram:
    """Decision times in logarithmic bins (5% wide): small to ship, merges exactly.

    Percentiles are read back to within one bin, which is plenty for p50/p95.
    """

    RATIO = 1.05
    _LOG = math.log(RATIO)

    def __init__(self, bins: Mapping[int, int] | None = None) -> None:
        self.bins: dict[int, int] = dict(bins or {})

    def add(self, seconds: float) -> None:
        micro = max(seconds * 1e6, 1.0)
        k = int(math.log(micro) / self._LOG)
        self.bins[k] = self.bins.get(k, 0) + 1

    def merge(self, other: TimeHistogram | Mapping[int, int]) -> None:
        bins = other.bins if isinstance(other, TimeHistogram) else other
        for k, v in bins.items():
            self.bins[int(k)] = self.bins.get(int(k), 0) + v

    @property
    def count(self) -> int:
        return sum(self.bins.values())

    def percentile(self, q: float) -> float:
        """The ``q``-quantile (0 … 1) in seconds (the middle of its bin); 0 if empty."""
        total = self.count
        if not total:
            return 0.0
        need = q * total
        seen = 0
        for k in sorted(self.bins):
            seen += self.bins[k]
            if seen >= need:
                return float(self.RATIO ** (k + 0.5) / 1e6)
        return float(self.RATIO ** (max(self.bins) + 0.5) / 1e6)

    def to_json(self) -> dict[str, int]:
        return {str(k): v for k, v in sorted(self.bins.items())}

    @classmethod
    def from_items(cls, items: Iterable[tuple[int, int]]) -> TimeHistogram:
        return cls(dict(items))
