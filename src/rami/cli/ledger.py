"""``rami ledger``: the scorekeeper in the terminal, for an evening played with real cards.

The same ledger as the web page ``/score`` (issue 15): a JSON document of the players,
the rules and each deal's entries, recomputed from scratch by ``rami.ledger`` (the
calculators of ``rami score``) after every change, so undoing or editing any deal just
works. ``rami ledger new GAME --players Asha,Bikash,Chandra`` starts an evening and
asks for the deals; ``rami ledger`` goes on with it; ``show``, ``export``, ``import``
and ``add`` work without questions (scripts, or a ledger shared from the page). The
ledger lives in ``$XDG_DATA_HOME/rami/ledger.json`` unless ``--file`` says otherwise.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rami.cli.hooks import Check, LedgerPrompts
from rami.errors import InputError
from rami.games import all_games, game_names, get_game
from rami.wording import count

if TYPE_CHECKING:  # the ledger's calculators load when a ledger is computed
    from rami.ledger import LedgerResult

_PRESETS_HELP = "; ".join(f"{g.title.split()[0]}: {', '.join(g.presets)}" for g in all_games())

ledger_app = typer.Typer(
    help=f"Keep an evening's points ledger ({' or '.join(g.title for g in all_games())}, "
    "real cards).",
    invoke_without_command=True,
)

FileOpt = Annotated[
    Path | None,
    typer.Option("--file", help="The ledger file (default: $XDG_DATA_HOME/rami/ledger.json)."),
]
NUMBER = re.compile(r"^[+-]?\d+$")  # a whole number typed as an answer


def ledger_path(file: Path | None) -> Path:
    if file is not None:
        return file
    from rami.play.saves import data_dir

    return data_dir() / "ledger.json"


def load(path: Path) -> dict[str, object]:
    if not path.is_file():
        raise InputError(
            f"no ledger at {path}: start one with "
            f"'rami ledger new {game_names()[0]} --players A,B,C'"
        )
    from rami.cli.calc import loads

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a JSON ledger: not UTF-8 text") from None
    doc = loads(text, str(path))
    if not isinstance(doc, dict):
        raise InputError(f"{path} is not a JSON ledger")
    return doc


def save(path: Path, doc: Mapping[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def compute(doc: object) -> LedgerResult:
    from rami.ledger import compute as compute_ledger

    return compute_ledger(doc)


def _object(doc: object) -> dict[str, object]:
    """A computed ledger's document (``compute`` refused anything but a JSON object)."""
    assert isinstance(doc, dict)
    return doc


def _deals(doc: Mapping[str, object]) -> list[object]:
    deals = doc.get("deals", [])
    return deals if isinstance(deals, list) else []


def _entry(doc: Mapping[str, object], number: int) -> Mapping[str, object]:
    """Deal ``number``'s entry (1-based) in a computed ledger's document."""
    entry = _deals(doc)[number - 1]
    assert isinstance(entry, dict)
    return entry


# ---------------------------------------------------------------------------- text


def signed(n: int) -> str:
    """A ledger net as the tables write it (+12, -9, 0)."""
    return f"{n:+d}" if n else "0"


def _prompts(game: str) -> LedgerPrompts:
    spec = get_game(game)
    commands = spec.cli() if spec.cli is not None else None
    if commands is None or commands.ledger is None:
        raise InputError(f"{spec.title} has no scorekeeper in the terminal")
    return commands.ledger


def standing_text(doc: Mapping[str, object], result: LedgerResult) -> str:
    """The ledger as a table: one line per deal, the totals, who deals next."""
    spec = get_game(result["game"])
    prompts = _prompts(spec.name)
    names = result["players"]
    chosen = result.get(spec.preset_label)
    preset = chosen.get("preset") if isinstance(chosen, Mapping) else chosen
    width = max(6, *(len(n) for n in names))
    deals = count(len(result["deals"]), "deal")
    lines = [f"{spec.title} · {preset} · {len(names)} players · {deals}"]
    lines.append(f"{'#':>3}  {'dealer':<{width}}  " + "  ".join(f"{n:>{width}}" for n in names))
    for deal in result["deals"]:
        cells = prompts.deal_cells(deal["result"])
        lines.append(
            f"{deal['number']:>3}  {deal['dealer']:<{width}}  "
            + "  ".join(f"{c:>{width}}" for c in cells)
        )
    totals = [signed(t) if spec.signed_points else str(t) for t in result["totals"]]
    lines.append("-" * len(lines[1]))
    tail, after, over = prompts.standing_end(result, names)
    lines.append(f"{'=':>3}  {'':<{width}}  " + "  ".join(f"{t:>{width}}" for t in totals) + tail)
    lines.extend(after)
    if not over:
        lines.append(f"Next: deal {len(result['deals']) + 1}, dealer {result['next_dealer']}")
    return "\n".join(lines)


def deal_text(result: LedgerResult, number: int, entry: Mapping[str, object]) -> str:
    """One deal: what each player scored and, where the game settles pairs, who pays whom."""
    deal = result["deals"][number - 1]
    lines = [f"Deal {number} (dealer {deal['dealer']})"]
    lines.extend(_prompts(result["game"]).deal_lines(deal, entry))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- questions


class Asker:
    """Questions one at a time (``hooks.Ask``); ``default`` is kept when the answer is
    empty, and an answer ``check`` refuses is asked again with the reason."""

    def __init__(
        self, read: Callable[[str], str] = input, write: Callable[[str], None] = print
    ) -> None:
        self.read = read
        self.write = write

    def __call__(self, question: str, default: str = "", check: Check | None = None) -> str:
        shown = f" [{default}]" if default else ""
        while True:
            answer = self.read(f"{question}{shown}: ").strip() or default
            if check is None:
                return answer
            try:
                check(answer)
            except ValueError as exc:
                self.write(f"  not taken: {exc}; answer again")
                continue
            return answer


def tokens(text: str) -> list[str]:
    """The words of an answer (spaces or commas between them)."""
    return [t for t in re.split(r"[\s,]+", text) if t]


# ---------------------------------------------------------------------------- the session

HELP = (
    "a: add a deal   e N: edit deal N   d N: delete deal N   u: undo   s N: show deal N   q: quit"
)


def session(
    path: Path, read: Callable[[str], str] = input, write: Callable[[str], None] = print
) -> None:
    """The questions loop: every change is recomputed and saved, a bad one changes nothing."""
    ask = Asker(read, write)
    doc = load(path)
    result = compute(doc)
    write(standing_text(doc, result))
    while True:
        write(HELP)
        try:
            line = read("> ").strip()
        except EOFError:
            break
        verb, _, arg = line.partition(" ")
        verb = verb.lower()
        if not verb:
            continue
        if verb in ("q", "quit", "exit"):
            break
        try:
            if verb in ("a", "add"):
                doc, result = _change(doc, ask, result, None)
            elif verb in ("e", "edit"):
                doc, result = _change(doc, ask, result, _number(arg, doc))
            elif verb in ("d", "delete"):
                k = _number(arg, doc)
                doc, result = _apply(doc, [d for i, d in enumerate(_deals(doc)) if i != k - 1])
            elif verb in ("u", "undo"):
                if not _deals(doc):
                    raise InputError("there is no deal to undo")
                doc, result = _apply(doc, _deals(doc)[:-1])
            elif verb in ("s", "show"):
                k = _number(arg, doc)
                write(deal_text(result, k, _entry(doc, k)))
                continue
            else:
                raise InputError(f"unknown command {verb!r}")
        except EOFError:
            break
        except ValueError as exc:
            write(f"error: {exc} (nothing changed)")
            continue
        save(path, doc)
        write(standing_text(doc, result))
    save(path, doc)
    write(f"Saved: {path}")


def _number(arg: str, doc: Mapping[str, object]) -> int:
    count = len(_deals(doc))
    if not arg.strip().isdigit() or not 1 <= int(arg) <= count:
        raise InputError(f"give a deal number from 1 to {count}" if count else "no deals yet")
    return int(arg)


def _apply(
    doc: Mapping[str, object], deals: list[object]
) -> tuple[dict[str, object], LedgerResult]:
    changed = {**doc, "deals": deals}
    return changed, compute(changed)


def _change(
    doc: Mapping[str, object], ask: Asker, result: LedgerResult, number: int | None
) -> tuple[dict[str, object], LedgerResult]:
    old = _entry(doc, number) if number else None
    entry = _prompts(result["game"]).ask_deal(ask, doc, result, number, old)
    deals: list[object] = list(_deals(doc))
    if number is None:
        deals.append(entry)
    else:
        deals[number - 1] = entry
    return _apply(doc, deals)


# ---------------------------------------------------------------------------- commands


@ledger_app.callback()
def ledger_main(ctx: typer.Context, file: FileOpt = None) -> None:
    """Go on with the current ledger (questions in the terminal)."""
    ctx.obj = file
    if ctx.invoked_subcommand is None:
        session(ledger_path(file))


def _file(ctx: typer.Context, file: Path | None) -> Path:
    return ledger_path(file if file is not None else ctx.obj)


@ledger_app.command("new")
def ledger_new(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=" or ".join(game_names()))],
    players: Annotated[str, typer.Option(help="The names in seat order, e.g. Asha,Bikash,Chandra")],
    rules: Annotated[
        str | None,
        typer.Option("--rules", "--mode", help=_PRESETS_HELP),
    ] = None,
    first_dealer: Annotated[str | None, typer.Option(help="Who deals first (a name)")] = None,
    file: FileOpt = None,
    ask: Annotated[bool, typer.Option(help="Ask for the deals now.")] = True,
) -> None:
    """Start an evening's ledger (the previous one is kept as ledger-previous.json)."""
    spec = get_game(game)
    names = [n.strip() for n in players.split(",")]
    doc: dict[str, object] = {"game": spec.name, "players": names, "deals": []}
    doc["rules" if spec.preset_label == "rules" else "mode"] = rules or spec.presets[0]
    if first_dealer is not None:
        doc["first_dealer"] = first_dealer
    compute(doc)
    path = _file(ctx, file)
    if path.is_file():
        os.replace(path, path.with_name(path.stem + "-previous" + path.suffix))
    save(path, doc)
    if ask:
        session(path)
    else:
        print(standing_text(doc, compute(doc)))


@ledger_app.command("show")
def ledger_show(
    ctx: typer.Context,
    deal: Annotated[int | None, typer.Argument(help="One deal's details")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the computed ledger as JSON.")
    ] = False,
    file: FileOpt = None,
) -> None:
    """Print the ledger (or one deal: who pays whom)."""
    doc = load(_file(ctx, file))
    result = compute(doc)
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    elif deal is not None:
        print(deal_text(result, _number(str(deal), doc), _entry(doc, deal)))
    else:
        print(standing_text(doc, result))


@ledger_app.command("add")
def ledger_add(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="A JSON file with one deal entry, or -")],
    file: FileOpt = None,
) -> None:
    """Add one deal given as JSON (the entries of docs/score.md)."""
    from rami.cli.calc import read_json

    path = _file(ctx, file)
    doc = load(path)
    doc, result = _apply(doc, [*_deals(doc), read_json(source)])
    save(path, doc)
    print(standing_text(doc, result))


@ledger_app.command("export")
def ledger_export(ctx: typer.Context, file: FileOpt = None) -> None:
    """Print the ledger's JSON (to import on the web page /score or elsewhere)."""
    doc = load(_file(ctx, file))
    compute(doc)
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


@ledger_app.command("import")
def ledger_import(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="A ledger JSON file, - , or a /score share link")],
    file: FileOpt = None,
) -> None:
    """Make a ledger (a JSON file or a link shared from the page) the current one."""
    from rami.cli.calc import loads, read_json

    text = source.strip()
    if "#ledger=" in text:
        import base64

        data = text.split("#ledger=", 1)[1]
        try:
            raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)).decode("utf-8")
        except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
            raise InputError("the link holds no readable ledger") from None
        doc = loads(raw, "the link's ledger")
    else:
        doc = read_json(source)
    result = compute(doc)
    ledger = _object(doc)
    path = _file(ctx, file)
    if path.is_file():
        os.replace(path, path.with_name(path.stem + "-previous" + path.suffix))
    save(path, ledger)
    print(standing_text(ledger, result))
