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


# Issue 22: a game's own words are its business too. A consumer names none of them (as a
# word of a name or string, as ``game_names_in`` reads them); ``seen`` is an English word
# as well, so only the view key itself (the string "seen") counts.
GAME_WORDS = {"tiplu", "dublee", "dublees", "tunnela", "tunnelas", "maal", "melding", "farcha"}
GAME_KEYS = {"seen", "table_melding", "exposed_tunnelas"}
# Where a game word is part of a stored format every game's code reads: the chance kind
# of Marriage's tiplu pick, kept in records (``rami.engine.ChanceKind``).
WORDS_ALLOWED = {("engine.py", '"tiplu"')}


def game_words_in(path: Path) -> list[tuple[int, str]]:
    """``(line, token)`` for each NAME/STRING token holding a game's own word or key."""
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
                continue  # a docstring: prose
        key = tok.type == tokenize.STRING and tok.string.strip("\"'") in GAME_KEYS
        if key or _words(tok.string) & GAME_WORDS:
            found.append((tok.start[0], tok.string))
    return found


def test_no_consumer_names_a_games_words() -> None:
    bad = [
        f"{path.relative_to(SRC.parents[1])}:{line}: {text}"
        for path in consumers()
        for line, text in game_words_in(path)
        if (str(path.relative_to(SRC)), text) not in WORDS_ALLOWED
    ]
    assert not bad, "a game's words belong behind its registry hooks:\n" + "\n".join(bad)


def test_the_word_check_catches_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docstrings may say tiplu."""\n'
        "# so may comments: dublee\n"
        'x = view.get("seen")\n'
        "table_melding = 1\n"
        'y = "you have seen it"\n'
        'z = f"a {x} farcha"\n'
        "seen = True\n",
        encoding="utf-8",
    )
    assert [line for line, _ in game_words_in(sample)] == [3, 4, 6]


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


# ---------------------------------------------------------------------- the web client
# The browser's generic pages (src/rami/server/static) name no game either: each game's
# own client code is a module in its package (``WebHooks.client``, served under
# /static/games/NAME/ and named by /api/games). Comments and the text of HTML elements
# (the English fallback of i18n strings) are prose; the i18n JSON files and the rules
# pages are data and are not checked.

STATIC = SRC / "server" / "static"
_JS_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"", "return", "typeof", "case"}


def _quote_end(src: str, i: int) -> int:
    j = i + 1
    while j < len(src) and src[j] != src[i] and src[j] != "\n":
        j += 2 if src[j] == "\\" else 1
    return j + 1


def _expression_end(src: str, j: int) -> int:
    """After the ``}`` closing a template's ``${`` (nested strings and templates skipped)."""
    depth = 0
    while j < len(src):
        ch = src[j]
        if ch in "\"'":
            j = _quote_end(src, j)
            continue
        if ch == "`":
            j = _template_end(src, j)
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return j + 1
            depth -= 1
        j += 1
    return j


def _template_end(src: str, i: int) -> int:
    j = i + 1
    while j < len(src):
        if src[j] == "\\":
            j += 2
        elif src[j] == "`":
            return j + 1
        elif src.startswith("${", j):
            j = _expression_end(src, j + 2)
        else:
            j += 1
    return j


def _regex_end(src: str, i: int) -> int:
    j, in_class = i + 1, False
    while j < len(src) and src[j] != "\n":
        ch = src[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            j += 1
            break
        j += 1
    while j < len(src) and src[j].isalpha():
        j += 1
    return j


def js_code_texts(src: str, first_line: int = 1) -> list[tuple[int, str]]:
    """``(line, text)`` of each identifier, string, template and regex literal of a
    script; comments are dropped."""
    out: list[tuple[int, str]] = []
    i, last = 0, ""
    while i < len(src):
        ch = src[i]
        line = first_line + src.count("\n", 0, i)
        if src.startswith("//", i):
            end = src.find("\n", i)
            i = len(src) if end < 0 else end
            continue
        if src.startswith("/*", i):
            end = src.find("*/", i + 2)
            i = len(src) if end < 0 else end + 2
            continue
        if ch in "\"'`" or (ch == "/" and last in _REGEX_AFTER):
            end = _template_end(src, i) if ch == "`" else _quote_end(src, i)
            if ch == "/":
                end = _regex_end(src, i)
            out.append((line, src[i:end]))
            i, last = end, "x"
            continue
        name = _JS_NAME.match(src, i)
        if name:
            out.append((line, name.group()))
            i, last = name.end(), name.group()
            continue
        if not ch.isspace():
            last = ch
        i += 1
    return out


def html_code_texts(src: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each tag (its attributes) and of the scripts of a page; the
    text between tags and the comments are prose."""
    src = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group().count("\n"), src, flags=re.S)
    out: list[tuple[int, str]] = []
    for m in re.finditer(r"<script\b[^>]*>(.*?)</script>|<[^>]+>", src, flags=re.S | re.I):
        line = 1 + src.count("\n", 0, m.start())
        if m.group(1) is not None:
            out.append((line, m.group()[: m.group().index(">") + 1]))
            out += js_code_texts(m.group(1), line + m.group()[: m.start(1) - m.start()].count("\n"))
        else:
            out.append((line, m.group()))
    return out


def client_files() -> list[Path]:
    """The generic web client: every script and page under server/static."""
    return sorted(p for p in STATIC.rglob("*") if p.suffix in (".js", ".html"))


def client_game_names_in(path: Path) -> list[tuple[int, str]]:
    src = path.read_text(encoding="utf-8")
    texts = js_code_texts(src) if path.suffix == ".js" else html_code_texts(src)
    return [(line, text) for line, text in texts if _words(text) & NAMES]


def test_the_web_client_names_no_game() -> None:
    files = client_files()
    assert any(p.name == "table.js" for p in files) and any(p.name == "score.html" for p in files)
    bad = [
        f"{path.relative_to(SRC.parents[1])}:{line}: {text[:80]}"
        for path in files
        for line, text in client_game_names_in(path)
    ]
    assert not bad, "the web client asks /api/games and the game's module:\n" + "\n".join(bad)


def test_every_game_module_of_the_web_client_sits_in_its_package() -> None:
    import rami.server  # noqa: F401  (the web hooks import the server's helpers)

    for game in GAMES:
        hooks = game.web() if game.web is not None else None
        if hooks is None or hooks.client is None:
            continue
        assert hooks.client.is_dir() and any(hooks.client.glob("*.js")), game.name
        assert STATIC not in hooks.client.parents, game.name


def test_the_client_check_catches_what_it_should(tmp_path: Path) -> None:
    script = tmp_path / "sample.js"
    script.write_text(
        "// comments may say marriage\n"
        "/* and tunisian */\n"
        'if (view.game === "marriage") x();\n'
        "function renderTunisianEntry() {}\n"
        "const u = `/api/score/${g}/tunisian`;\n"
        "const ok = text.split(/\\//g); // marriage\n"
        "const r = /tunisian/.test(s);\n"
        "const url = 'http://x'; const y = `a ${`b ${c}`} marriage`;\n",
        encoding="utf-8",
    )
    assert [line for line, _ in client_game_names_in(script)] == [3, 4, 5, 7, 8]
    page = tmp_path / "sample.html"
    page.write_text(
        "<!-- marriage -->\n"
        '<p data-i18n="tagline">Marriage and Tunisian rami</p>\n'
        '<a href="/rules/marriage/nepali">rules</a>\n'
        "<script>\n// tunisian\nlet g = 'tunisian';\n</script>\n",
        encoding="utf-8",
    )
    assert [line for line, _ in client_game_names_in(page)] == [3, 6]
