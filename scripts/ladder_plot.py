"""Draw the shipped bot ladder (``src/rami/bots/ladder/*.json``) as an SVG for docs/bots.md.

One panel per game and preset: each level's OpenSkill rating (a dot) with its 95% interval
(a bar). Plain SVG text, no plotting library::

    python scripts/ladder_plot.py [OUT.svg]      # default docs/ladder.svg
    python scripts/ladder_plot.py --markdown     # the table of docs/bots.md
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LADDERS = ROOT / "src" / "rami" / "bots" / "ladder"
COLOURS = {"easy": "#2e7d32", "medium": "#1565c0", "hard": "#c62828", "expert": "#6a1b9a"}
LEFT, RIGHT, ROW, TITLE, WIDTH = 190, 30, 22, 30, 720


def panels() -> list[tuple[str, list[tuple[str, float, float, float]]]]:
    """``(title, [(level, rating, low, high)…])`` per shipped ladder, levels by rating."""
    out = []
    for path in sorted(LADDERS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        rows = [
            (level, float(s["rating"]), float(s["ci95"][0]), float(s["ci95"][1]))
            for level, s in doc["strength"].items()
        ]
        rows.sort(key=lambda r: -r[1])
        groups = doc.get("groups_per_pair")
        out.append((f"{doc['game']} {doc['preset']} ({groups} groups a pair)", rows))
    return out


def svg(data: list[tuple[str, list[tuple[str, float, float, float]]]]) -> str:
    lo = min(r[2] for _, rows in data for r in rows)
    hi = max(r[3] for _, rows in data for r in rows)
    lo, hi = 5 * (lo // 5), 5 * (hi // 5 + 1)
    span = WIDTH - LEFT - RIGHT

    def x(v: float) -> float:
        return LEFT + (v - lo) / (hi - lo) * span

    height = sum(TITLE + ROW * len(rows) for _, rows in data) + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13" '
        'role="img" aria-labelledby="t">',
        '<title id="t">rami\'s bot levels: OpenSkill ratings with 95% intervals, '
        "per game and preset</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
    ]
    y = 0.0
    for title, rows in data:
        y += TITLE
        parts.append(f'<text x="8" y="{y - 8:.0f}" font-weight="bold">{escape(title)}</text>')
        for level, rating, low, high in rows:
            y += ROW
            mid = y - ROW / 2
            colour = COLOURS.get(level, "#555")
            parts.append(
                f'<text x="{LEFT - 8}" y="{mid + 4:.0f}" text-anchor="end">{escape(level)}</text>'
            )
            parts.append(
                f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{mid:.1f}" y2="{mid:.1f}" '
                f'stroke="{colour}" stroke-width="3"/>'
            )
            parts.append(f'<circle cx="{x(rating):.1f}" cy="{mid:.1f}" r="5" fill="{colour}"/>')
            parts.append(
                f'<text x="{x(high) + 6:.1f}" y="{mid + 4:.0f}" fill="#333">{rating:.1f}</text>'
            )
    axis = y + 12
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{axis}" y2="{axis}" stroke="#333"/>')
    for tick in range(int(lo), int(hi) + 1, 5):
        at = f"{x(tick):.1f}"
        parts.append(f'<line x1="{at}" x2="{at}" y1="{axis}" y2="{axis + 5}" stroke="#333"/>')
        parts.append(f'<text x="{x(tick):.1f}" y="{axis + 18}" text-anchor="middle">{tick}</text>')
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="0" y2="{axis}" stroke="#eee"/>'
        )
    parts.append(f'<text x="8" y="{axis + 18}" fill="#333">rating (mu ± 1.96 sigma)</text></svg>')
    # grid lines first so that bars and dots are drawn over them
    grid = [p for p in parts if 'stroke="#eee"' in p]
    rest = [p for p in parts if 'stroke="#eee"' not in p]
    return "\n".join(rest[:3] + grid + rest[3:]) + "\n"


def markdown() -> str:
    """The shipped figures as the Markdown table of docs/bots.md."""
    rows = [
        "| game, preset | level | rating (95% interval) | points a deal against medium "
        "(95% interval) | groups a pair |",
        "|---|---|---|---|---|",
    ]
    for path in sorted(LADDERS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        better = "higher" if doc.get("higher_wins", True) else "lower"
        where = f"{doc['game']} `{doc['preset']}` ({doc['points']}, {better} is better)"
        for level, s in sorted(doc["strength"].items(), key=lambda kv: -kv[1]["rating"]):
            vs = s.get("points_vs_medium")
            if vs is None:
                text = "–"
            elif level == doc.get("reference", "medium"):
                text = "0 (the reference)"
            else:
                ci = vs.get("ci95")
                text = f"{vs['mean']:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
                if ci and (ci[0] > 0 or ci[1] < 0):
                    text = f"**{text}**"
            low, high = s["ci95"]
            rows.append(
                f"| {where} | `{level}` | {s['rating']:.1f} [{low:.1f}, {high:.1f}] | {text} "
                f"| {doc['groups_per_pair']} |"
            )
            where = ""
    return "\n".join(rows) + "\n"


def main(argv: list[str]) -> None:
    if argv == ["--markdown"]:
        print(markdown(), end="")
        return
    out = Path(argv[0]) if argv else ROOT / "docs" / "ladder.svg"
    out.write_text(svg(panels()), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
