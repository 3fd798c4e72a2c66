"""The server stays in small parts (issue 22): no class over 400 lines, no function over 120.

Read with ``ast`` over ``src/rami/server``, so a part that grows past the bound fails here
before it grows into one class that runs everything again.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "src" / "rami" / "server"
MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 120


def _sizes() -> list[tuple[str, str, int]]:
    """``(kind, place, lines)`` of every class and function under the server package."""
    found: list[tuple[str, str, int]] = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                place = f"{path.relative_to(SERVER.parent.parent)}:{node.lineno} {node.name}"
                found.append((kind, place, lines))
    return found


def test_the_sizes_are_read() -> None:
    sizes = _sizes()
    assert any(kind == "class" for kind, _, _ in sizes)
    assert len(sizes) > 100  # the walk reaches every module, nested functions too


def test_no_server_class_over_400_lines() -> None:
    big = [
        f"{place}: {n}" for kind, place, n in _sizes() if kind == "class" and n > MAX_CLASS_LINES
    ]
    assert not big, f"classes over {MAX_CLASS_LINES} lines: {big}"


def test_no_server_function_over_120_lines() -> None:
    big = [
        f"{place}: {n}"
        for kind, place, n in _sizes()
        if kind == "function" and n > MAX_FUNCTION_LINES
    ]
    assert not big, f"functions over {MAX_FUNCTION_LINES} lines: {big}"


if __name__ == "__main__":  # the largest of each kind, for a before/after note
    for kind in ("class", "function"):
        print(kind, max((n, place) for k, place, n in _sizes() if k == kind))
