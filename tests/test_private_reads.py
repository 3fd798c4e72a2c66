"""No new reads of another module's private fields (issue 22: "no private field read
across modules"). ``scripts/private_reads.py`` lists them; the reads that remain are
allowed below, by place and expression, until their owners give them a public name.
Remove an entry when its read goes; a new read fails here with where it is.

A game's verbs (``<game>/verbs.py``, issue 22's rule objects: ``play(deal, action)``
changes the deal) and the conditions they share (``<game>/conditions.py``) are the deal's
own code in modules of their own: their reads of the deal's fields (the game's
``game.py``, ``rami.kernel``) are not counted.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from private_reads import PrivateRead, private_reads  # noqa: E402

ALLOWED = frozenset(
    {
        # the RL wrappers' step paths read the action space's known ids
        "rl/aec.py: self.space._known",
        "rl/gym_env.py: self.space._known",
        "rl/openspiel.py: space._known",
        # the kernel's own method, called by the game's builder on a new deal
        "tunisian/game.py: blank._seats_from",
    }
)


def _verb_reads_its_deal(read: PrivateRead) -> bool:
    parts = read.path.split("/")
    if len(parts) != 2 or parts[1] not in ("verbs.py", "conditions.py"):
        return False
    deal = {f"rami.{parts[0]}.game", "rami.kernel"}
    return bool(deal & set(read.owners))


def test_no_new_private_reads_across_modules() -> None:
    reads = [r for r in private_reads(ROOT) if not _verb_reads_its_deal(r)]
    new = [str(r) for r in reads if r.key not in ALLOWED]
    assert not new, "private fields read across modules:\n" + "\n".join(new)


def test_the_script_finds_a_read(tmp_path: Path) -> None:
    src = tmp_path / "src" / "rami"
    src.mkdir(parents=True)
    (src / "owner.py").write_text("class A:\n    def __init__(self):\n        self._x = 1\n")
    (src / "reader.py").write_text(
        "def f(a):\n    return a._x\n\ndef g(self):\n    return self._x\n"
    )
    found = private_reads(tmp_path)
    assert [(r.path, r.line, r.expr, r.owners) for r in found] == [
        ("reader.py", 2, "a._x", ("rami.owner",))
    ]
