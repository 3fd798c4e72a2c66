"""Integer action ids (docs/rl.md): a fixed numbering per game and preset, pinned here.

Changing a number below is a breaking change for every saved policy: bump the env
versions (``marriage_v1``, …) and the docs' table together.
"""

from __future__ import annotations

import random

import pytest

from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.games import GAMES, action_from_id, action_space_of, get_game, id_of, legal_action_ids

# (game, preset) -> (size, digest of the whole numbering, first id of each block)
PINNED = {
    ("marriage", "nepali"): (
        312,
        "79aca55101f04e1f",
        {"draw": 0, "take": 1, "pass": 2, "see": 3, "expose": 4, "discard": 56,
         "finish": 108, "dublee": 160, "show": 212},
    ),
    ("marriage", "indian"): (
        26019,
        "457dbd53f1bbd37d",
        {"draw": 0, "take": 1, "pass": 2, "see": 3, "expose": 4, "discard": 56,
         "finish": 108, "dublee": 160, "show": 212, "meld": 581, "add": 25654,
         "takeback": 26018},
    ),
    **{
        ("tunisian", mode): (
            6422,
            "ebb85e68af0e8091",
            {"draw": 0, "take": 1, "discard": 2, "meld": 55, "add": 2642, "swap": 4550},
        )
        for mode in ("1v1", "ffa", "2v2")
    },
}  # fmt: skip


@pytest.mark.parametrize(("game", "preset"), sorted(PINNED))
def test_action_space_is_pinned(game: str, preset: str) -> None:
    spec = get_game(game)
    assert spec.action_space is not None
    space = spec.action_space(preset)
    size, digest, firsts = PINNED[(game, preset)]
    assert space.size == size
    assert space.digest() == digest
    assert {b.verb: b.first for b in space.blocks} == firsts


def test_a_few_ids_by_hand() -> None:
    nepali = get_game("marriage").action_space
    assert nepali is not None
    space = nepali("nepali")
    assert space.id_of(Action.parse("draw")) == 0
    assert space.id_of(Action.parse("discard A♠")) == 56
    assert space.id_of(Action.parse("discard K♣")) == 107
    assert str(space.action_from_id(108)) == "finish A♠"
    tun = get_game("tunisian").action_space
    assert tun is not None
    t = tun("1v1")
    assert t.id_of(Action.parse("discard JK")) == 54
    assert str(t.action_from_id(55)) == "meld A♠ 2♠ 3♠"
    assert t.id_of(Action.parse("add 8♥ @0")) == 2642 + 20
    assert t.id_of(Action.parse("swap A♠ @1")) == 4550 + 52


def test_bad_ids_and_actions_are_clear_errors() -> None:
    state = get_game("tunisian").new_match("1v1", 2, 1).current
    with pytest.raises(IllegalAction, match="outside"):
        action_from_id(state, 10**6)
    with pytest.raises(IllegalAction, match="not in the"):
        id_of(state, "add 8♥ @99")
    with pytest.raises(InputError):
        action_space_of(object())  # type: ignore[arg-type]


TABLES = [
    ("marriage", "nepali", 2),
    ("marriage", "nepali", 5),
    ("marriage", "indian", 3),
    ("marriage", "indian", 7),
    ("tunisian", "1v1", 2),
    ("tunisian", "ffa", 4),
    ("tunisian", "2v2", 4),
]


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_every_legal_action_has_an_id_and_round_trips(game: str, preset: str, players: int) -> None:
    """Random play that prefers melds, lay-offs and shows reaches every verb's block."""
    rng = random.Random(5)
    spec = GAMES[game]
    verbs: set[str] = set()
    for seed in range(6):
        state = spec.new_match({"preset": preset, "max_turns": 120}, players, seed).current
        while not state.is_over:
            ids = legal_action_ids(state)
            assert ids == sorted(id_of(state, a) for a in state.legal_actions())
            assert {action_from_id(state, i) for i in ids} == set(state.legal_actions())
            rich = [a for a in state.legal_actions() if a.kind not in ("discard", "draw", "take")]
            choice = rng.choice(rich) if rich and rng.random() < 0.7 else None
            action = choice or action_from_id(state, rng.choice(ids))
            verbs.add(action.kind)
            state.apply(action)
    assert {"discard", "draw"} <= verbs
    assert verbs & {"meld", "show", "dublee", "finish"}


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_ids_of_by_identity_equals_the_keyed_ids(game: str, preset: str, players: int) -> None:
    """``ids_of`` finds an action object seen before by its identity: the answers equal
    the fields-keyed ids at every position (equal actions built afresh, a generator, a
    cache that starts over at a tiny cap), and a pickled or copied space starts empty."""
    import copy
    import pickle

    rng = random.Random(9)
    spec = GAMES[game]
    space = action_space_of(spec.new_match({"preset": preset}, players, 0).current)
    small = copy.deepcopy(space)
    assert not small._known and small.digest() == space.digest()
    small._known_cap = 40  # starts over every few positions
    longest = 0
    for seed in range(3):
        state = spec.new_match({"preset": preset, "max_turns": 80}, players, seed).current
        while not state.is_over:
            legal = state.legal_actions()
            keyed = [space._fields[(a.kind, a.cards, a.target)] for a in legal]
            fresh = [Action(a.kind, a.cards, a.target) for a in legal]
            assert space.ids_of(legal) == keyed == space.ids_of(legal)
            assert space.ids_of(fresh) == keyed == space.ids_of(iter(legal))
            longest = max(longest, len(legal))
            assert small.ids_of(legal) == keyed and len(small._known) <= max(40, longest)
            state.apply(rng.choice(legal))
    assert {id(a) for a in space._alive} == set(space._known)
    restored = pickle.loads(pickle.dumps(space))
    assert not restored._known and restored.digest() == space.digest()
    assert restored.ids_of(legal) == space.ids_of(legal)
