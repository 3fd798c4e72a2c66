"""The deal kernel (rami.kernel) under Tunisian rami: each verb one rule object, the
legal list the union of the verbs' options, ``apply`` = judgement then play, one seat
check, the event log, JSON and replay, clone (docs/architecture.md, *The deal kernel*).
"""

from __future__ import annotations

import random

import pytest

from rami.engine import Action
from rami.errors import IllegalAction, InputError, NotYourTurn, Reason
from rami.kernel import Deal, Verb
from rami.tunisian.game import PLAY, TunisianState, new_deal
from rami.tunisian.phases import Verb as VerbName
from rami.tunisian.verbs import BY_KIND, BY_PHASE, VERBS


def _random_states(count: int, seed: int = 3) -> list[TunisianState]:
    """Positions of seeded random legal play, of every mode."""
    rng = random.Random(seed)
    out = []
    for mode, seats in (("1v1", 2), ("ffa", 4), ("2v2", 4)):
        state = new_deal({"preset": mode, "max_turns": 80}, seats, rng.randrange(2**31))
        while len(out) < count * (1 + ("1v1", "ffa", "2v2").index(mode)) // 3:
            if state.is_over:
                state = new_deal({"preset": mode, "max_turns": 80}, seats, rng.randrange(2**31))
            out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return out


def test_every_verb_is_one_rule_object_with_its_metadata() -> None:
    """T-2 … T-9: one verb object per ``Action.kind``, carrying its names, help and rules."""
    assert isinstance(TunisianState.__mro__[1], type) and issubclass(TunisianState, Deal)
    assert [v.name for v in VERBS] == [v.value for v in VerbName]
    for verb in VERBS:
        assert isinstance(verb, Verb)
        assert BY_KIND[verb.name] is verb
        assert verb.help and verb.shorthand and verb.rules
        assert all(rule.startswith("T-") for rule in verb.rules)
    assert "lay" in BY_KIND["meld"].aliases


def test_legal_list_is_the_union_of_the_verbs_options_and_each_passes_its_judgement() -> None:
    """The kernel lists the phase's verbs' options in order; each listed move is legal by
    its own verb (``problem`` is None) and by ``check`` (T-2 … T-9)."""
    for state in _random_states(150):
        legal = state.legal_actions()
        union: dict[Action, object] = {}
        for verb in BY_PHASE[state.phase]:
            verb.options(state, union)
        assert list(union) == legal
        for action in legal:
            assert BY_KIND[action.kind].problem(state, action) is None
            assert state.check(action) is None


def test_problem_names_the_rule_and_key_and_apply_changes_nothing() -> None:
    """A refusal is a ``Reason`` with its rule id (T-3: draw first) and key; ``apply``
    raises the same and leaves the deal as it was."""
    state = new_deal("1v1", 2, 5)
    state.apply(state.legal_actions()[0])  # the dealer's first discard (T-2)
    assert state.phase == "draw"
    action = Action.parse("discard 7c")
    problem = BY_KIND["discard"].problem(state, action)
    assert isinstance(problem, Reason)
    assert problem.rule == "T-3" and problem.key == "draw_first"
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.key == "draw_first" and state.to_json() == before
    assert state.check(action) == str(problem)


def test_one_seat_check_and_unknown_verbs() -> None:
    """``apply(action, seat)`` refuses another seat (``NotYourTurn``) on the listed fast
    path as well as the judged path; a verb the game lacks is a one-line refusal."""
    state = new_deal("1v1", 2, 9)
    listed = state.legal_actions()[0]
    other = 1 - (state.to_move or 0)
    with pytest.raises(NotYourTurn):
        state.apply(listed, other)
    with pytest.raises(NotYourTurn):
        state.apply(str(listed), other)
    assert state.check("show 3s 4s 5s") == (
        "unknown action 'show': use draw, take, meld, add, swap or discard"
    )


def test_fast_path_and_judged_path_play_the_same() -> None:
    """A listed move and its text (judged, then played) leave equal deals and logs."""
    rng = random.Random(4)
    fast = new_deal("ffa", 4, 21)
    slow = new_deal("ffa", 4, 21)
    while not fast.is_over and fast.turn < 60:
        legal = fast.legal_actions()
        action = legal[rng.randrange(len(legal))]
        assert fast.apply(action) == slow.apply(str(action))
        assert fast.events == slow.events
        if fast.phase == PLAY:
            assert fast.legal_actions() == slow.legal_actions()
    assert fast.to_json() == slow.to_json()


def test_plain_list_listing_keeps_details_and_equal_moves_play_alike() -> None:
    """The discards end each phase's listing (T-2, T-8) and are appended as a plain list
    (``Verb.extend``); the moves before them keep what ``play`` needs (an ``add``'s or a
    ``swap``'s new meld, T-6, T-7): ``legal_details`` is the verbs' options, and a listed
    move and an equal copy of it (the fast path by equality) play alike."""
    for state in _random_states(120, seed=8):
        union: dict[Action, object] = {}
        for verb in BY_PHASE[state.phase]:
            verb.options(state, union)
        assert state.legal_details() == union
        legal = state.legal_actions()
        for action in {*legal[:3], *legal[-2:]}:
            same, equal = state.clone(), state.clone()
            same.apply(action)
            equal.apply(Action(action.kind, action.cards, action.target))
            assert same.to_json() == equal.to_json() and same.events == equal.events


def test_json_replay_and_clone() -> None:
    """``to_json``/``from_json`` replay the log exactly; a clone is independent; a bad
    saved action is named in one line (``InputError``)."""
    state = _random_states(60)[-1]
    again = TunisianState.from_json(state.to_json())
    assert again.to_json() == state.to_json() and again.events == state.events
    twin = state.clone()
    if not twin.is_over:
        twin.apply(twin.legal_actions()[0])
        assert twin.actions != state.actions
    doc = new_deal("1v1", 2, 3).to_json()
    doc["actions"] = ["draw"]
    with pytest.raises(InputError, match=r"saved action 1 \('draw'\) is illegal"):
        TunisianState.from_json(doc)
    with pytest.raises(InputError, match="not a saved Tunisian rami deal"):
        TunisianState.from_json({**doc, "game": "marriage"})


def test_new_takes_the_shared_builder_arguments() -> None:
    """``new(rules, seats, seed, dealer, *, active)``, as ``new_deal`` (T-1, T-13)."""
    a = TunisianState.new("ffa", 4, 8, 1, active=(True, True, False, True))
    b = new_deal("ffa", 4, 8, 1, active=(True, True, False, True))
    assert a.to_json() == b.to_json() and a.active == (True, True, False, True)
    with pytest.raises(InputError, match="is for 2 seats"):
        TunisianState.new("1v1", 4, 8)
