"""Write the HTTP part's OpenAPI schema: ``python -m rami.server.openapi [docs/openapi.json]``.

The committed ``docs/openapi.json`` is checked against the app by the server tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rami.server.app import create_app
from rami.server.config import ServerConfig

__all__ = ["schema", "schema_text"]


def schema() -> dict[str, object]:
    """The app's OpenAPI document (no database is opened to build it)."""
    doc: dict[str, object] = create_app(ServerConfig(db_url="sqlite://")).openapi()
    return doc


def schema_text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str]) -> None:
    text = schema_text()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
