"""The WebSocket's client messages, typed, and the preset reactions; no third-party import.

Both the server (``rami.server.protocol``, which adds the pydantic models) and the
in-browser solo table (``rami.solo``, on Pyodide, where pydantic is not loaded) check
messages against these, so the two accept exactly the same ones.

Each client message type is one frozen dataclass; ``read_message`` makes it from the
decoded JSON object. Its fields hold the JSON values as sent (``object``): the handler
that receives the message checks them, in the order the protocol documents (a
spectator's move is refused as ``spectator`` before its text is looked at).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import ClassVar

__all__ = [
    "CLIENT_MESSAGES",
    "CLIENT_TYPES",
    "EMOJIS",
    "PHRASES",
    "REACTIONS",
    "Arrange",
    "Auto",
    "ClientMessage",
    "Hello",
    "HintRequest",
    "NextDeal",
    "Ping",
    "PlayAction",
    "React",
    "Rematch",
    "Resume",
    "Start",
    "message_ref",
    "read_message",
]

Ref = str | int | None


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A message from a client; ``ref`` is its ``id`` (text or a number), echoed back."""

    TYPE: ClassVar[str]
    ref: Ref

    @classmethod
    def from_json(cls, doc: Mapping[str, object], ref: Ref) -> ClientMessage:
        """The message with each field after ``ref`` read from the JSON key of its name."""
        return cls(ref, *(doc.get(name) for name in _PAYLOADS[cls.TYPE]))


@dataclass(frozen=True, slots=True)
class Hello(ClientMessage):
    """The first message of a socket: the seat's token (none: a spectator)."""

    TYPE = "hello"
    token: object = None


@dataclass(frozen=True, slots=True)
class PlayAction(ClientMessage):
    """Play an action's text for the socket's seat."""

    TYPE = "action"
    action: object = None


@dataclass(frozen=True, slots=True)
class NextDeal(ClientMessage):
    """Deal the next deal once the current one is over."""

    TYPE = "next_deal"


@dataclass(frozen=True, slots=True)
class Start(ClientMessage):
    """Fill the free seats with bots and start play."""

    TYPE = "start"


@dataclass(frozen=True, slots=True)
class HintRequest(ClientMessage):
    """A suggested move for the socket's seat."""

    TYPE = "hint"


@dataclass(frozen=True, slots=True)
class Ping(ClientMessage):
    """Answered with ``pong``."""

    TYPE = "ping"


@dataclass(frozen=True, slots=True)
class Resume(ClientMessage):
    """The seat's player takes their seat back from the bot."""

    TYPE = "resume"


@dataclass(frozen=True, slots=True)
class Auto(ClientMessage):
    """Let a bot play another, absent player's seat."""

    TYPE = "auto"
    seat: object = None


@dataclass(frozen=True, slots=True)
class React(ClientMessage):
    """A preset reaction to everyone at the table."""

    TYPE = "react"
    key: object = None


@dataclass(frozen=True, slots=True)
class Rematch(ClientMessage):
    """A new match with the same seats once this one is over."""

    TYPE = "rematch"


@dataclass(frozen=True, slots=True)
class Arrange(ClientMessage):
    """The solvers' grouping of the seat's own hand."""

    TYPE = "arrange"


#: The client message types by their ``type``, in the order the protocol lists them.
CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    m.TYPE: m
    for m in (
        Hello,
        PlayAction,
        NextDeal,
        Start,
        HintRequest,
        Ping,
        Resume,
        Auto,
        React,
        Rematch,
        Arrange,
    )
}

#: The JSON keys each type reads: its fields after ``ref``.
_PAYLOADS = {
    name: tuple(f.name for f in fields(kind)[1:]) for name, kind in CLIENT_MESSAGES.items()
}

#: Message types a client may send over the WebSocket.
CLIENT_TYPES = tuple(CLIENT_MESSAGES)


def message_ref(doc: Mapping[str, object]) -> Ref:
    """The message's ``id`` if it is text or a number (a boolean or anything else: None)."""
    ref = doc.get("id")
    return ref if isinstance(ref, (str, int)) and not isinstance(ref, bool) else None


def read_message(doc: Mapping[str, object]) -> ClientMessage | None:
    """The typed message of a decoded JSON object; None for an unknown ``type``."""
    kind = doc.get("type")
    made = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    return made.from_json(doc, message_ref(doc)) if made is not None else None


#: Preset reactions a seat may send (the page words them in each language): quick
#: phrases, then emoji (the page shows the emoji and names it in the reader's language).
PHRASES = ("hello", "nice", "oops", "hurry", "thanks", "gg")
EMOJIS = ("smile", "laugh", "wow", "sad", "clap", "thumbs_up")
REACTIONS = PHRASES + EMOJIS
