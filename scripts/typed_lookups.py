"""Count string-keyed lookups (``x["k"]``, ``x.get("k")``) in src/rami and how many of
them mypy checks (the receiver is a TypedDict) — the figure of issue 10's typed boundaries.

Run: ``.venv/bin/python scripts/typed_lookups.py [REPO_ROOT]`` (a few seconds; uses mypy's
build API, so the figures are what ``mypy`` itself knows of each receiver).
"""

from __future__ import annotations

import os
import sys

from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import CallExpr, Expression, IndexExpr, MemberExpr, NameExpr, StrExpr
from mypy.options import Options
from mypy.types import Instance, Type, TypedDictType, UnionType, get_proper_type


def _sources(root: str) -> list[BuildSource]:
    out = []
    for folder, _, files in os.walk(os.path.join(root, "src", "rami")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, os.path.join(root, "src"))[:-3].replace("/", ".")
                out.append(BuildSource(path, module.removesuffix(".__init__")))
    return out


def _typed(t: Type) -> bool:
    t = get_proper_type(t)
    if isinstance(t, TypedDictType):
        return True
    if isinstance(t, UnionType):
        items = [get_proper_type(x) for x in t.items]
        rest = [
            x
            for x in items
            if not (isinstance(x, Instance) and x.type.fullname.endswith("NoneType"))
        ]
        return bool(rest) and all(_typed(x) for x in rest)
    return False


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    options = Options()
    options.export_types = True
    options.ignore_missing_imports = True
    options.incremental = False
    options.mypy_path = [os.path.join(root, "src")]
    types = build.build(_sources(root), options).types
    counts = {"all": [0, 0], "view": [0, 0]}  # [checked, unchecked]

    def count(receiver: Expression) -> None:
        t = types.get(receiver)
        if t is None:
            return
        slot = 0 if _typed(t) else 1
        counts["all"][slot] += 1
        if isinstance(receiver, NameExpr) and "view" in receiver.name.lower():
            counts["view"][slot] += 1

    for e in list(types):
        if isinstance(e, IndexExpr) and isinstance(e.index, StrExpr):
            count(e.base)
        elif (
            isinstance(e, CallExpr)
            and isinstance(e.callee, MemberExpr)
            and e.callee.name == "get"
            and e.args
            and isinstance(e.args[0], StrExpr)
        ):
            count(e.callee.expr)
    for what, (checked, unchecked) in counts.items():
        label = "all receivers" if what == "all" else "receivers named *view*"
        print(f"{label}: {checked} checked by mypy, {unchecked} not")


if __name__ == "__main__":
    main()
