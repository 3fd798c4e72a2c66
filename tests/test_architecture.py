"""Consumers go through the registry (issue 10, item 1): outside the game packages and
``rami/games.py`` no code names a registered game or imports a game package.

Every ``.py`` under src/rami is tokenized (``tokenize``): a NAME or STRING token (an
f-string's text too) that holds a game's name as a word fails, and so does an import of
``rami.<game package>``. Comments and docstrings (a string that is a statement by
itself) are prose and may name games. Identifiers are split into words at ``_``, digits
and camel case, so ``marriage_v0`` and ``MarriageEncoder`` count.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from toy_support import games_with_toy

SRC = Path(__file__).resolve().parents[1] / "src" / "rami"
GAMES = games_with_toy()
NAMES = {g.name.lower() for g in GAMES}
PACKAGES = {
    g.rules_from.__module__.split(".")[1]
    for g in GAMES
    if g.rules_from.__module__.startswith("rami.")
}
# Folders of src/rami left out of the check while another part of issue 10 moves them
# (none since the bots' dispatch went through the registry: every consumer is checked).
PENDING: tuple[str, ...] = ()
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_TEXT_TOKENS = {tokenize.NAME, tokenize.STRING}
_TEXT_TOKENS |= {tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set()
_STATEMENT_START = {
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.NL,
}


def consumers() -> list[Path]:
    """Every module outside the game packages, the registry and the pending folders."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).parts
        if parts[0] in PACKAGES or parts == ("games.py",) or parts[0] in PENDING:
            continue
        out.append(path)
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def game_names_in(path: Path) -> list[tuple[int, str]]:
    """``(line, token)`` for each NAME/STRING token naming a game (docstrings skipped)."""
    found = []
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        if t.type != tokenize.COMMENT
    ]
    for i, tok in enumerate(tokens):
        if tok.type not in _TEXT_TOKENS:
            continue
        if tok.type == tokenize.STRING:
            before = tokens[i - 1].type if i else tokenize.ENCODING
            after = tokens[i + 1].type if i + 1 < len(tokens) else tokenize.ENDMARKER
            if before in _STATEMENT_START and after in (tokenize.NEWLINE, tokenize.ENDMARKER):
                continue  # a docstring (or a bare string statement): prose
        if _words(tok.string) & NAMES:
            found.append((tok.start[0], tok.string))
    return found


def game_imports_in(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for each import of a game package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if len(parts) > 1 and parts[0] == "rami" and parts[1] in PACKAGES:
                found.append((node.lineno, name))
                break
    return found


def test_the_check_sees_the_game_packages_and_the_consumers() -> None:
    assert {"marriage", "tunisian"} <= PACKAGES and "toy" in NAMES
    files = consumers()
    assert any(p.name == "tournament.py" for p in files)
    assert not any(p.parent.name in PACKAGES for p in files)


def test_no_consumer_names_a_game() -> None:
    bad = [
        f"{path.relative_to(SRC.parents[1])}:{line}: {text}"
        for path in consumers()
        for line, text in game_names_in(path)
    ]
    assert not bad, "consumers must go through rami.games:\n" + "\n".join(bad)


def test_no_consumer_imports_a_game_package() -> None:
    bad = [
        f"{path.relative_to(SRC.parents[1])}:{line}: import {module}"
        for path in consumers()
        for line, module in game_imports_in(path)
    ]
    assert not bad, "consumers must go through rami.games:\n" + "\n".join(bad)


def test_the_check_catches_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docstrings may say marriage."""\n'
        "# so may comments: tunisian\n"
        "from rami.marriage.rules import rules_from\n"
        'x = "tunisian"\n'
        "marriage_v0 = 1\n"
        "class MarriageEncoder: ...\n"
        'y = f"rami play {x} tunisian"\n'
        "marriages = 2\n",
        encoding="utf-8",
    )
    lines = [line for line, _ in game_names_in(sample)]
    assert lines[:3] == [3, 4, 5] and 6 in lines and 7 in lines and 8 not in lines
    assert game_imports_in(sample) == [(3, "rami.marriage.rules")]
