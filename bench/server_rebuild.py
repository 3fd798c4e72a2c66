"""CPU time of a table's load (stored rows → replayed match) and of its rebuild in memory
(what a refused write or a conflict does), per registered game (issue 22: the server's
log holds typed actions, read once, not text parsed again on each rebuild).

A seeded match of random legal moves (up to 400 per deal, six deals) is stored in a
throw-away SQLite database, then loaded and rebuilt ``--repeat`` times; the best CPU time
of each is printed. Old against new: the server is imported from ``PYTHONPATH``
(``PYTHONPATH=/path/to/other/src python bench/server_rebuild.py``); an older server's
``Store.append_event`` took the event's fields, a newer one the ``EventRecord``.

    python bench/server_rebuild.py --repeat 25
"""

from __future__ import annotations

import argparse
import inspect
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rami.games import Game, game_names, get_game
from rami.server.config import ServerConfig
from rami.server.storage import EventRecord, SeatRecord, Store
from rami.server.tables import TableManager


def _moves(spec: Game, rules: object, players: int, seed: int) -> list[tuple[str, int, str]]:
    match = spec.new_match(rules, players, seed)
    rng = random.Random(seed)
    out: list[tuple[str, int, str]] = []
    for _ in range(6):
        for _ in range(400):
            state = match.current
            seat = state.to_move
            if state.is_over or seat is None:
                break
            out.append(("action", seat, str(match.apply(rng.choice(state.legal_actions()), seat))))
        if not match.current.is_over or match.is_over:
            break
        out.append(("next_deal", 0, ""))
        match.next_deal()
    return out


def _append(store: Store, table_id: int, seq: int, kind: str, seat: int, data: str) -> None:
    if "event" in inspect.signature(store.append_event).parameters:
        store.append_event(table_id, EventRecord.read(seq, kind, seat, data))
    else:  # an older server's signature: the event's fields
        older: Callable[..., None] = store.append_event
        older(table_id, seq, kind, seat, data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        store = Store(url)
        manager = TableManager(store, ServerConfig(db_url=url))
        for name in sorted(game_names()):
            spec = get_game(name)
            rules = {"preset": spec.presets[0]}
            players = spec.players_for(spec.rules_from(rules))[0]
            events = _moves(spec, rules, players, args.seed)
            seats = [SeatRecord(s, "bot", "random", f"bot {s}") for s in range(players)]
            table = store.create_table(name, rules, players, args.seed, "playing", seats)
            for seq, (kind, seat, data) in enumerate(events, 1):
                _append(store, table.id, seq, kind, seat, data)
            load = rebuild = float("inf")
            for _ in range(args.repeat):
                started = time.process_time()
                live = manager._load(table.code)
                load = min(load, time.process_time() - started)
                started = time.process_time()
                live.rebuild()
                rebuild = min(rebuild, time.process_time() - started)
            print(
                f"{name:10} {len(events):5} events  load {load * 1000:7.1f} ms CPU  "
                f"rebuild {rebuild * 1000:7.1f} ms CPU"
            )
        store.close()


if __name__ == "__main__":
    main()
