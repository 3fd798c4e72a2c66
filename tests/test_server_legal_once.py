"""A position's legal actions are computed once per version, whoever asks: the bot to
move, the broadcast of the mover's view and a hint all read the deal's cached list
(issue 23: about 1 ms of Python per move under load; T-3/M-3: the legal actions)."""

from __future__ import annotations

import pytest

from rami.games import get_game
from rami.server.hints import hint_for
from rami.tunisian.game import TunisianState


def test_bot_broadcast_and_hint_share_one_computation_per_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = TunisianState._list_legal

    def counted(self: TunisianState) -> object:
        calls.append(id(self))
        return real(self)

    monkeypatch.setattr(TunisianState, "_list_legal", counted)
    spec = get_game("tunisian")
    match = spec.new_match(spec.rules_from({"preset": "1v1"}), 2, 11)
    for _ in range(6):  # a few versions: each position computes its legal actions once
        seat = match.current.to_move
        assert seat is not None
        before = len(calls)
        bot_view = match.view(seat)  # the bot's view (TableManager._bot_turn)
        pushed = match.view(seat)  # the broadcast to that seat's socket
        hint = hint_for("tunisian", match.view(seat), "greedy", 1)
        assert pushed["legal_actions"] == bot_view["legal_actions"]
        assert hint["suggestion"] in bot_view["legal_actions"]
        match.view(1 - seat)  # the other seat's view has no legal actions to compute
        match.view(None)
        assert len(calls) - before == 1
        match.apply(str(bot_view["legal_actions"][0]), seat)
