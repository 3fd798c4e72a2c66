"""The WebSocket's message types and preset reactions, with no third-party import.

Both the server (``rami.server.protocol``, which adds the pydantic models) and the
in-browser solo table (``rami.solo``, on Pyodide, where pydantic is not loaded) check
messages against these, so the two accept exactly the same ones.
"""

from __future__ import annotations

__all__ = ["CLIENT_TYPES", "EMOJIS", "PHRASES", "REACTIONS"]

#: Message types a client may send over the WebSocket.
CLIENT_TYPES = (
    "hello",
    "action",
    "next_deal",
    "start",
    "hint",
    "ping",
    "resume",
    "auto",
    "react",
    "rematch",
    "arrange",
)

#: Preset reactions a seat may send (the page words them in each language): quick
#: phrases, then emoji (the page shows the emoji and names it in the reader's language).
PHRASES = ("hello", "nice", "oops", "hurry", "thanks", "gg")
EMOJIS = ("smile", "laugh", "wow", "sad", "clap", "thumbs_up")
REACTIONS = PHRASES + EMOJIS
