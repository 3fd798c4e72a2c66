"""List reads of another module's private fields in src/rami (issue 22: none should remain).

A *private cross-module read* is ``x._name`` (not a dunder) where ``x`` is not ``self``
or ``cls`` and ``_name`` is defined in some other module of src/rami but not in the
reading module itself (a class attribute, a ``self._name = …`` assignment, a slot, a
module-level name), or ``from rami.x import _name``. Names defined in the reading module
too are taken as its own (the read may be of its own class). ``--counts`` also prints
the issue's other figures (``Any``, ``dict[str, Any]``, ``# type: ignore``), counted as
``grep -c`` counts them (lines).

Run: ``python scripts/private_reads.py [--counts] [REPO_ROOT]`` (one line per read:
``path:line: reader._name (defined in module, …)``, then the total). The test
``tests/test_private_reads.py`` keeps the list from growing.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PrivateRead", "counts", "private_reads"]

_OWN = {"self", "cls"}


@dataclass(frozen=True, order=True)
class PrivateRead:
    """One read: where (path relative to src/rami, line), the expression and the owners."""

    path: str
    line: int
    expr: str
    owners: tuple[str, ...]

    @property
    def key(self) -> str:
        """What the allow-list of the test holds: ``path: expr`` (no line numbers)."""
        return f"{self.path}: {self.expr}"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.expr} (defined in {', '.join(self.owners)})"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.Module) -> set[str]:
    """The private names a module defines: module and class level, ``self._x =``, slots
    (``other._x = …`` is a write into another module's field, not a definition)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        for target in targets:
            for t in ast.walk(target):
                if isinstance(t, ast.Name):
                    names.add(t.id)
                elif (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id in _OWN
                ):
                    names.add(t.attr)  # ``other._x = …`` writes another's field
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            for c in ast.walk(node.value):
                if isinstance(c, ast.Constant) and isinstance(c.value, str):
                    names.add(c.value)
    return {n for n in names if _private(n)}


def _modules(src: Path) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(src.rglob("*.py")):
        yield path.relative_to(src).as_posix(), ast.parse(path.read_text(), str(path))


def _module_name(path: str) -> str:
    return "rami." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def private_reads(root: Path) -> list[PrivateRead]:
    """Every private cross-module read under ``root``/src/rami, sorted."""
    src = root / "src" / "rami"
    trees = dict(_modules(src))
    owners: dict[str, set[str]] = defaultdict(set)
    own: dict[str, set[str]] = {}
    for path, tree in trees.items():
        own[path] = _defined(tree)
        for name in own[path]:
            owners[name].add(_module_name(path))
    found: list[PrivateRead] = []
    for path, tree in trees.items():
        mine = own[path]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                name = node.attr
                if name in mine or name not in owners:
                    continue
                if isinstance(node.value, ast.Name) and node.value.id in _OWN:
                    continue
                expr = f"{ast.unparse(node.value)}.{name}"
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rami"):
                names = [a.name for a in node.names if _private(a.name)]
                if not names:
                    continue
                name, expr = names[0], f"from {node.module} import {', '.join(names)}"
            else:
                continue
            reader = _module_name(path)
            where = tuple(sorted(owners.get(name, set()) - {reader})) or (str(node.module),)
            found.append(PrivateRead(path, node.lineno, expr, where))
    return sorted(found)


def counts(root: Path) -> dict[str, int]:
    """The issue's figures over src/rami's ``.py`` files, in lines as ``grep -c`` counts."""
    patterns = {
        "Any": re.compile(r"Any\b"),
        "dict[str, Any]": re.compile(r"dict\[str, Any\]"),
        "type: ignore": re.compile(r"type: ignore"),
    }
    out = dict.fromkeys(patterns, 0)
    for path in (root / "src" / "rami").rglob("*.py"):
        for line in path.read_text().splitlines():
            for label, pattern in patterns.items():
                out[label] += bool(pattern.search(line))
    return out


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    root = Path(args[0]) if args else Path(__file__).resolve().parents[1]
    reads = private_reads(root)
    for read in reads:
        print(read)
    print(f"{len(reads)} private cross-module reads")
    if "--counts" in argv:
        for label, n in counts(root).items():
            print(f"{n} lines with {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
