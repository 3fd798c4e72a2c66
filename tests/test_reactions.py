"""Talk (issue 21): the page's reactions are the server's, and each is named in every
language; anything else is refused by the server (tests/test_server_table_extras.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rami.server.protocol import EMOJIS, PHRASES, REACTIONS

STATIC = Path(__file__).resolve().parent.parent / "src" / "rami" / "server" / "static"


def test_the_page_offers_exactly_the_servers_reactions() -> None:
    js = (STATIC / "js" / "table.js").read_text(encoding="utf-8")
    phrases = re.search(r"const REACTIONS = \[([^\]]*)\]", js)
    emojis = re.search(r"const EMOJIS = \{([^}]*)\}", js)
    assert phrases and emojis
    assert tuple(re.findall(r'"(\w+)"', phrases.group(1))) == PHRASES
    assert tuple(re.findall(r"(\w+):", emojis.group(1))) == EMOJIS
    assert REACTIONS == PHRASES + EMOJIS


def test_every_reaction_is_named_in_every_language() -> None:
    for path in sorted((STATIC / "i18n").glob("*.json")):
        strings = json.loads(path.read_text(encoding="utf-8"))
        missing = [k for k in REACTIONS if not strings.get(f"react_{k}")]
        assert not missing, (path.stem, missing)
