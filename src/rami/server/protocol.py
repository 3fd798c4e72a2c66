"""The wire format: HTTP request/response models and the WebSocket message vocabulary.

``docs/protocol.md`` describes the same messages for people; the HTTP models also make
the OpenAPI schema (``/openapi.json``). Views are the engine's JSON-ready dicts and are
passed through as they are: the server adds nothing to what a seat may see. Fields that
carry such JSON are typed ``object`` (any JSON in the schema; mypy makes readers narrow).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rami.games import all_games, game_names
from rami.server.messages import CLIENT_TYPES, EMOJIS, PHRASES, REACTIONS

__all__ = [
    "CLIENT_TYPES",
    "EMOJIS",
    "ERROR_CODES",
    "PHRASES",
    "REACTIONS",
    "ActionRequest",
    "BotStrength",
    "CreateTable",
    "CreatedTable",
    "ErrorBody",
    "ErrorMessage",
    "ErrorResponse",
    "GameInfo",
    "HintResponse",
    "Invite",
    "JoinRequest",
    "Joined",
    "LearnedLevel",
    "PresetInfo",
    "ReplayResponse",
    "RulesOption",
    "RulesSummary",
    "SeatInfo",
    "SeatSpec",
    "StateResponse",
    "TableError",
    "TableSummary",
]


#: Error codes, the same over HTTP (in ``{"error": {...}}``) and the WebSocket.
ERROR_CODES = {
    "bad_json": 400,  # the message is not a JSON object
    "bad_message": 400,  # a field is missing or of the wrong type
    "unknown_type": 400,  # no such message type
    "hello_first": 400,  # a WebSocket must send hello before anything else
    "bad_request": 400,  # table set-up that cannot be played (players, options, …)
    "illegal": 409,  # the engine refused the action (the message says why)
    "not_your_turn": 409,
    "conflict": 409,  # another server process stored a move first: the view is updated
    "not_started": 409,  # the table still waits for players
    "deal_not_over": 409,
    "match_over": 409,
    "seat_taken": 409,
    "no_free_seat": 409,
    "spectator": 403,  # a spectator tried to act
    "bad_token": 403,  # the token belongs to no seat of this table
    "bad_invite": 403,  # joining an invite-only table without its invite
    "no_table": 404,
    "no_replay": 404,  # no replay link with that id (counted like a missing table)
    "private": 403,  # the table's creator keeps its replays private
    "not_creator": 403,  # only the table's creator may change that
    "bad_record": 400,  # a .rami record that does not read (the message names the line)
    "no_job": 404,  # no such review
    "busy": 503,  # too many reviews at once
    "too_large": 413,  # a body or message over the size limit
    "headers_too_large": 431,
    "rate_limited": 429,  # too many requests from this client: wait and try again
    "too_many_sockets": 429,  # too many WebSockets from this address or at this table
    "unavailable": 503,  # storage failed: nothing was changed
    "internal": 500,  # a bug on the server's side: nothing was changed
}


class TableError(Exception):
    """A request the server refuses; nothing has changed."""

    def __init__(
        self, code: str, message: str, rule: str | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule  # an engine refusal: the rule id it rests on (e.g. "M-5")
        self.reason = reason  # and its stable name, for the page's own wording

    @property
    def status(self) -> int:
        return ERROR_CODES.get(self.code, 400)

    def to_message(self, ref: object = None) -> ErrorMessage:
        message: ErrorMessage = {
            "type": "error",
            "id": ref,
            "code": self.code,
            "message": self.message,
        }
        if self.rule is not None:
            message["rule"] = self.rule
        if self.reason is not None:
            message["reason"] = self.reason
        return message


class ErrorMessage(TypedDict):
    """The WebSocket ``error`` message; ``id`` echoes the client's message id (any JSON)."""

    type: Literal["error"]
    id: object
    code: str
    message: str
    rule: NotRequired[str]  # ``illegal``: the rule id of the engine's refusal (e.g. "M-5")
    reason: NotRequired[str]  # ``illegal``: a stable name of the reason (e.g. "draw_first")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(_Model):
    code: str = Field(description="one of the error codes of docs/protocol.md")
    message: str = Field(description="one line a person understands")
    rule: str | None = Field(None, description="illegal: the rule id of the refusal (e.g. M-5)")
    reason: str | None = Field(None, description="illegal: a stable name of the reason")


class ErrorResponse(_Model):
    error: ErrorBody


_PRESET_HELP = " or ".join(
    f"{'rules preset' if g.preset_label == 'rules' else g.preset_label} ({g.name})"
    for g in all_games()
)


class SeatSpec(_Model):
    kind: Literal["human", "bot"] = "human"
    level: str | None = Field(None, description="bot level (bots only)")
    name: str | None = Field(None, max_length=40)


class CreateTable(_Model):
    game: str = Field(description=" or ".join(game_names()))
    preset: str | None = Field(None, description=_PRESET_HELP)
    options: dict[str, object] = Field(
        default_factory=dict, description="rule options overriding the preset, by name"
    )
    seats: list[SeatSpec] = Field(description="one entry per seat, in seat order")
    seat: int | None = Field(
        None, description="the seat the creator takes (default: the first human seat)"
    )
    name: str | None = Field(None, max_length=40, description="the creator's name")
    turn_seconds: int | None = Field(
        -1,
        description="seconds a human seat has per move before a bot plays for it; null: no "
        "timer; -1 (default): 60 if the table has several human seats, else none",
    )


class SeatInfo(_Model):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str
    claimed: bool = Field(description="a human seat someone has taken (bots: true)")
    online: bool = Field(description="a player is connected to this seat now")
    auto: bool = Field(False, description="a bot plays this human seat until its player returns")


class ShuffleCommitment(_Model):
    deal: int = Field(description="the deal in play, from 1")
    commitment: str | None = Field(
        description="sha256(seed || salt) of the deal's seed, published before the deal "
        "(docs/records.md)"
    )
    seed: int | None = Field(None, description="the deal's seed, revealed once it is over")
    salt: str | None = Field(None, description="the commitment's salt, revealed with the seed")


class TableSummary(_Model):
    code: str
    game: str
    title: str
    preset: str
    rules: dict[str, object]
    players: int
    status: Literal["waiting", "playing", "over"]
    seats: list[SeatInfo]
    version: int = Field(description="number of events in the table's log")
    created_at: float
    turn_seconds: int | None = Field(None, description="time per move of human seats")
    rematch: str | None = Field(None, description="the code of the rematch table, once made")
    shuffle: ShuffleCommitment | None = Field(
        None, description="the shuffle commitment of the deal in play (verifiable shuffles)"
    )


class CreatedTable(_Model):
    code: str
    url: str = Field(description="the table's page (share it: anyone may join a free seat)")
    seat: int | None
    token: str | None = Field(description="the creator's seat token: keep it secret")
    table: TableSummary
    invite: str = Field(description="the right to take a free seat: share it with friends")
    invite_url: str = Field(description="the table's page with the invite (#invite=…)")


class Invite(_Model):
    invite: str | None = Field(description="the table's invite (None: the table is open)")
    invite_url: str


class JoinRequest(_Model):
    seat: int | None = Field(None, description="the seat to take (default: the first free one)")
    invite: str | None = Field(
        None, max_length=64, description="the table's invite (from its invite link)"
    )
    name: str | None = Field(None, max_length=40)


class Joined(_Model):
    code: str
    seat: int
    token: str
    url: str


class ActionRequest(_Model):
    action: str = Field(max_length=200, description="an action's text, e.g. 'discard 7♣'")


class StateResponse(_Model):
    version: int
    seat: int | None
    table: TableSummary
    view: dict[str, object] = Field(description="the match view of this seat (or the public one)")


class HintResponse(_Model):
    suggestion: str | None = Field(description="a move a bot would play from this seat's view")
    notes: list[dict[str, object]] = Field(
        description="analysis of the seat's own cards: {key, …values} for the page to word"
    )


class RulesOption(_Model):
    name: str
    value: object
    default: object = Field(description="the value in the preset")
    choices: list[object] | None
    type: str
    help: str
    lobby: bool = Field(
        default=True, description="offered in the lobby (false: the preset's shoe and hand)"
    )


class LearnedLevel(_Model):
    level: str = Field(description="a bot seat's level: 'learned:' and the model's name")
    players: int = Field(description="the seat count the shipped model was trained for")


class PointsVsMedium(_Model):
    mean: float = Field(description="points per deal more than medium's (the game's points)")
    ci95: list[float] | None = Field(description="its 95% interval, null below two groups")
    groups: int = Field(description="duplicate groups behind it")


class BotStrength(_Model):
    rating: float = Field(description="OpenSkill rating (mu) from the shipped ladder")
    ci95: list[float] = Field(description="the rating's 95% interval: mu ± 1.96 sigma")
    points_vs_medium: PointsVsMedium | None = Field(
        description="mean points per deal against medium on duplicate deals (null: not measured)"
    )


class PresetInfo(_Model):
    name: str
    players: list[int]
    rules: dict[str, object]
    learned_levels: list[LearnedLevel] = Field(
        default_factory=list,
        description="shipped learned bots that fit this preset, offered beside bot_levels "
        "only at a table of their seat count",
    )
    bot_strength: dict[str, BotStrength] = Field(
        default_factory=dict,
        description="each level's measured strength at this preset (rami ladder, shipped "
        "with rami; docs/bots.md): empty where no ladder ships",
    )


class ClientModules(_Model):
    table: str | None = Field(description="URL of the game's ES module for the table page")
    score: str | None = Field(description="URL of the game's ES module for the scorekeeper")


class GameInfo(_Model):
    name: str
    title: str
    preset_label: str
    presets: list[PresetInfo]
    bot_levels: list[str]
    signed_points: bool = Field(description="scores are signed nets (+12, -9), not points")
    higher_wins: bool = Field(description="the highest total leads (else the lowest)")
    client: ClientModules = Field(description="the game's browser modules: a URL per page, or null")


class RulesSummary(_Model):
    game: str
    title: str
    preset: str
    players: list[int]
    options: list[RulesOption]
    document: str | None = Field(description="the project's rules page (Markdown), if any")


class ReplayResponse(_Model):
    deal: int
    frames: list[dict[str, object]] = Field(
        description="the deal's start, then one per action: seat, move, every hand, pile top"
    )
