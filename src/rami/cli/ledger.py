"""``rami ledger``: the scorekeeper in the terminal, for an evening played with real cards.

The same ledger as the web page ``/score`` (issue 15): a JSON document of the players,
the rules and each deal's entries, recomputed from scratch by ``rami.ledger`` (the
calculators of ``rami score``) after every change, so undoing or editing any deal just
works. ``rami ledger new marriage --players Asha,Bikash,Chandra`` starts an evening and
asks for the deals; ``rami ledger`` goes on with it; ``show``, ``export``, ``import``
and ``add`` work without questions (scripts, or a ledger shared from the page). The
ledger lives in ``$XDG_DATA_HOME/rami/ledger.json`` unless ``--file`` says otherwise.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from rami.errors import InputError

ledger_app = typer.Typer(
    help="Keep an evening's points ledger (Marriage or Tunisian rami, real cards).",
    invoke_without_command=True,
)

FileOpt = Annotated[
    Path | None,
    typer.Option("--file", help="The ledger file (default: $XDG_DATA_HOME/rami/ledger.json)."),
]
_NUMBER = re.compile(r"^[+-]?\d+$")


def ledger_path(file: Path | None) -> Path:
    if file is not None:
        return file
    from rami.play.saves import data_dir

    return data_dir() / "ledger.json"


def load(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise InputError(
            f"no ledger at {path}: start one with 'rami ledger new marriage --players A,B,C'"
        )
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path} is not a JSON ledger: {exc}") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path} is not a JSON ledger")
    return doc


def save(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def compute(doc: dict[str, Any]) -> dict[str, Any]:
    from rami.ledger import compute as compute_ledger

    return compute_ledger(doc)


# ---------------------------------------------------------------------------- text


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def standing_text(doc: dict[str, Any], result: dict[str, Any]) -> str:
    """The ledger as a table: one line per deal, the totals, who deals next."""
    names: list[str] = result["players"]
    marriage = result["game"] == "marriage"
    preset = result["rules"].get("preset") if marriage else result["mode"]
    title = "Marriage" if marriage else "Tunisian rami"
    width = max(6, *(len(n) for n in names))
    lines = [f"{title} · {preset} · {len(names)} players · {len(result['deals'])} deals"]
    lines.append(f"{'#':>3}  {'dealer':<{width}}  " + "  ".join(f"{n:>{width}}" for n in names))
    for deal in result["deals"]:
        players = deal["result"]["players"]
        cells = [_signed(p["net"]) if marriage else str(p["points"]) for p in players]
        lines.append(
            f"{deal['number']:>3}  {deal['dealer']:<{width}}  "
            + "  ".join(f"{c:>{width}}" for c in cells)
        )
    totals = [_signed(t) if marriage else str(t) for t in result["totals"]]
    lines.append("-" * len(lines[1]))
    tail = f"   sum {result['sum']}" if marriage else f"   out at {result['limit']}"
    lines.append(f"{'=':>3}  {'':<{width}}  " + "  ".join(f"{t:>{width}}" for t in totals) + tail)
    if not marriage:
        if result["teams"]:
            for team in result["teams"]:
                lines.append(f"  team {' + '.join(team['players'])}: {team['total']}")
        out = [n for n, o in zip(names, result["eliminated"], strict=True) if o]
        if out:
            lines.append(f"  out: {', '.join(out)}")
        if result["game_over"]:
            lines.append(f"Game over: {result['game_winner']} won.")
            return "\n".join(lines)
    elif result["deals"]:
        lines.append(f"  ahead: {', '.join(result['leaders'])}")
    lines.append(f"Next: deal {len(result['deals']) + 1}, dealer {result['next_dealer']}")
    return "\n".join(lines)


def deal_text(result: dict[str, Any], number: int, entry: dict[str, Any]) -> str:
    """One deal: what each player scored and, in Marriage, who pays whom."""
    deal = result["deals"][number - 1]
    lines = [f"Deal {number} (dealer {deal['dealer']})"]
    if result["game"] == "marriage":
        who = entry.get("finisher")
        lines.append(f"  finished: {who}" if who is not None else "  nobody finished")
        for p in deal["result"]["players"]:
            items = f"  ({'; '.join(p['maal_items'])})" if p["maal_items"] else ""
            lines.append(f"  {p['name']}: maal {p['maal']}, net {_signed(p['net'])}{items}")
        for pair in deal["result"]["pairs"]:
            lines.append(f"  {pair['from']} pays {pair['to']} {pair['points']}")
    else:
        who = entry.get("winner")
        lines.append(f"  went out: {who}" if who is not None else "  nobody went out")
        for p in deal["result"]["players"]:
            lines.append(f"  {p['name']}: {p['points']} points, total {p['total']}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- questions


class Asker:
    """Questions one at a time; ``default`` is kept when the answer is empty."""

    def __init__(self, read: Callable[[str], str] = input) -> None:
        self.read = read

    def __call__(self, question: str, default: str = "") -> str:
        shown = f" [{default}]" if default else ""
        answer = self.read(f"{question}{shown}: ").strip()
        return answer or default


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text) if t]


def _maal_answer(text: str, row: dict[str, Any]) -> None:
    """A number, or cards with ``+C`` for a tunnela of C exposed at the deal."""
    if _NUMBER.match(text):
        if int(text):  # 0: no maal, as if no card was given
            row["maal"] = int(text)
        return
    cards: list[str] = []
    exposed: list[str] = []
    for token in _tokens(text):
        if token.startswith("+") and len(token) > 1:
            exposed.append(token[1:])
            cards += [token[1:]] * 3
        else:
            cards.append(token)
    if cards:
        row["cards"] = cards
    if exposed:
        row["exposed_tunnelas"] = exposed


def _maal_default(row: dict[str, Any]) -> str:
    if "maal" in row:
        return str(row["maal"])
    cards = list(row.get("cards", []))
    parts = []
    for t in row.get("exposed_tunnelas", []):
        for _ in range(3):
            cards.remove(t)
        parts.append(f"+{t}")
    return " ".join(cards + parts) or "0"


_STATUS = {"u": None, "s": "melds", "d": "dublees"}


def ask_marriage(
    ask: Asker, names: list[str], rules: dict[str, Any], old: dict[str, Any] | None
) -> dict[str, Any]:
    indian = rules.get("scoring") == "indian"
    old_rows: list[dict[str, Any]] = old["players"] if old else [{} for _ in names]
    tiplu = ask("Tiplu (a card; empty: nobody saw)", (old or {}).get("tiplu") or "")
    rows: list[dict[str, Any]] = []
    choices = "u/s/d" if rules.get("dublees") else "u/s"
    for name, prev in zip(names, old_rows, strict=True):
        was = "u" if not prev.get("seen") else "d" if prev.get("qualified") == "dublees" else "s"
        status = ask(f"{name}: unseen, seen or dublees? ({choices})", was).lower()[:1]
        if status not in _STATUS:
            raise InputError(f"{name}: answer u (unseen), s (seen) or d (dublees)")
        row: dict[str, Any] = {"seen": status != "u"}
        if status != "u":
            row["qualified"] = _STATUS[status]
        _maal_answer(
            ask(
                f"{name}: maal (a number, or cards; +6H = tunnela 6♥ at the deal)",
                _maal_default(prev),
            ),
            row,
        )
        rows.append(row)
    who = ask("Who finished? (a name; empty: nobody)", (old or {}).get("finisher") or "")
    finisher = who if who else None
    if indian:
        for name, row, prev in zip(names, rows, old_rows, strict=True):
            if name == finisher:
                continue
            text = ask(f"{name}: card points left in hand", str(prev.get("hand_points", 0)))
            if not _NUMBER.match(text):
                raise InputError(f"{name}: the card points must be a whole number, not {text!r}")
            row["hand_points"] = int(text)
    return {"tiplu": tiplu or None, "players": rows, "finisher": finisher}


def ask_tunisian(
    ask: Asker, names: list[str], out: list[bool], old: dict[str, Any] | None
) -> dict[str, Any]:
    who = ask("Who went out? (a name; empty: nobody)", (old or {}).get("winner") or "")
    winner = who if who else None
    old_rows: list[Any] = old["players"] if old else [None for _ in names]
    rows: list[Any] = []
    for name, gone, prev in zip(names, out, old_rows, strict=True):
        if gone:
            rows.append(None)
            continue
        if name == winner:
            rows.append({})
            continue
        default = ""
        if isinstance(prev, dict):
            if prev.get("opened") is False:
                default = "-"
            elif "points" in prev:
                default = str(prev["points"])
            elif prev.get("hand"):
                default = " ".join(prev["hand"])
        text = ask(f"{name}: points, or the cards left (JK = joker), or - if not opened", default)
        if text == "-":
            rows.append({"opened": False})
        elif _NUMBER.match(text):
            rows.append({"opened": True, "points": int(text)})
        else:
            rows.append({"opened": True, "hand": _tokens(text)})
    return {"winner": winner, "players": rows}


# ---------------------------------------------------------------------------- the session

HELP = (
    "a: add a deal   e N: edit deal N   d N: delete deal N   u: undo   s N: show deal N   q: quit"
)


def session(
    path: Path, read: Callable[[str], str] = input, write: Callable[[str], None] = print
) -> None:
    """The questions loop: every change is recomputed and saved, a bad one changes nothing."""
    ask = Asker(read)
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
                doc, result = _apply(doc, [d for i, d in enumerate(doc["deals"]) if i != k - 1])
            elif verb in ("u", "undo"):
                if not doc["deals"]:
                    raise InputError("there is no deal to undo")
                doc, result = _apply(doc, doc["deals"][:-1])
            elif verb in ("s", "show"):
                k = _number(arg, doc)
                write(deal_text(result, k, doc["deals"][k - 1]))
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


def _number(arg: str, doc: dict[str, Any]) -> int:
    count = len(doc.get("deals", []))
    if not arg.strip().isdigit() or not 1 <= int(arg) <= count:
        raise InputError(f"give a deal number from 1 to {count}" if count else "no deals yet")
    return int(arg)


def _apply(doc: dict[str, Any], deals: list[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    changed = {**doc, "deals": deals}
    return changed, compute(changed)


def _change(
    doc: dict[str, Any], ask: Asker, result: dict[str, Any], number: int | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    names: list[str] = result["players"]
    old = doc["deals"][number - 1] if number else None
    if result["game"] == "marriage":
        entry = ask_marriage(ask, names, result["rules"], old)
    else:
        index = (number or len(doc["deals"]) + 1) - 1
        out = result["deals"][index - 1]["result"] if index else None
        gone = [p["eliminated"] for p in out["players"]] if out else [False] * len(names)
        if number is None and result["game_over"]:
            raise InputError(f"the game is over: {result['game_winner']} won")
        entry = ask_tunisian(ask, names, gone, old)
    deals = list(doc["deals"])
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
    game: Annotated[str, typer.Argument(help="marriage or tunisian")],
    players: Annotated[str, typer.Option(help="The names in seat order, e.g. Asha,Bikash,Chandra")],
    rules: Annotated[
        str | None,
        typer.Option("--rules", "--mode", help="Marriage: nepali, indian; Tunisian: 1v1, ffa, 2v2"),
    ] = None,
    first_dealer: Annotated[str | None, typer.Option(help="Who deals first (a name)")] = None,
    file: FileOpt = None,
    ask: Annotated[bool, typer.Option(help="Ask for the deals now.")] = True,
) -> None:
    """Start an evening's ledger (the previous one is kept as ledger-previous.json)."""
    from rami.games import get_game

    spec = get_game(game)
    names = [n.strip() for n in players.split(",")]
    doc: dict[str, Any] = {"game": spec.name, "players": names, "deals": []}
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
        print(deal_text(result, _number(str(deal), doc), doc["deals"][deal - 1]))
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
    doc, result = _apply(doc, [*doc.get("deals", []), read_json(source)])
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
    from rami.cli.calc import read_json

    text = source.strip()
    if "#ledger=" in text:
        import base64

        data = text.split("#ledger=", 1)[1]
        try:
            doc = json.loads(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
        except (ValueError, UnicodeDecodeError):
            raise InputError("the link holds no readable ledger") from None
    else:
        doc = read_json(source)
    result = compute(doc)
    path = _file(ctx, file)
    if path.is_file():
        os.replace(path, path.with_name(path.stem + "-previous" + path.suffix))
    save(path, doc)
    print(standing_text(doc, result))
