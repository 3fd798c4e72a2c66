"""The players' rules guides (issue 28): one per game and preset, in every language of the
web app, served by the rules page; the complete rules travel in the built package.

- Each preset's guide (``static/rules/GAME.PRESET.LANG.md``, with the game's shared
  ``GAME.LANG.md``) is served in each of the six languages, is that preset's own (its
  heading differs from the other presets'), is a real translation (not the English text),
  and states the rules players hit (M-3, M-4, M-5, M-10, M-15, T-3, T-4, T-8, T-9) with
  the same card examples in every language.
- A wheel built from the checkout holds the complete rules documents (docs/rules-*.md,
  copied by setup.py) and the guides; the server reads the packaged copy first.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from rami.games import GAMES
from rami.server import ServerConfig, create_app, rules_info

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "rami" / "server" / "static"
LANGS = sorted(p.stem for p in (STATIC / "i18n").glob("*.json"))
PRESETS = [(spec.name, preset) for spec in GAMES.values() for preset in spec.presets]

#: A script each language is written in (a copy of the English guide would fail).
SCRIPT = {
    "ar": "[\u0600-\u06ff]",
    "ne": "[\u0900-\u097f]",
    "ru": "[\u0400-\u04ff]",
    "zh": "[\u4e00-\u9fff]",
    "fr": "[éèàç]",
    "en": "[a-z]",
}

#: Card examples every language's guide carries, written as on the table, with the rule
#: each illustrates (the preset's own page plus the game's shared page).
MUST_SHOW: dict[tuple[str, str], tuple[str, ...]] = {
    # M-4: no K-A-2, two identical cards and a wild card are no meld; M-3: a tunnela
    # exposed at the deal; M-8: a finish example.
    ("marriage", "nepali"): ("K♠ A♠ 2♠", "5♠ 5♠ W", "6♥ 6♥ 6♥", "5♦", "21", "20"),
    # M-4; M-10: the finish reached by the steps (J♠ 7♦ K♠, 7♦ as Q♠); M-15: cap 14.
    ("marriage", "indian"): ("K♠ A♠ 2♠", "5♠ 5♠ W", "J♠ 7♦ K♠", "14"),
    # T-4: no K-A-2, one joker, no same card twice; T-6: the opening example; T-13.
    ("tunisian", "1v1"): ("K♠ A♠ 2♠", "7♠ 7♠ JK", "8♠ 8♦ 8♣", "701"),
    ("tunisian", "ffa"): ("K♠ A♠ 2♠", "7♠ 7♠ JK", "8♠ 8♦ 8♣", "701"),
    ("tunisian", "2v2"): ("K♠ A♠ 2♠", "7♠ 7♠ JK", "8♠ 8♦ 8♣", "1001"),
}


#: Nepali writes numbers in Devanagari digits.
DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("guides") / "rami.db"
    with TestClient(create_app(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0))) as c:
        yield c


def guide(client: TestClient, game: str, preset: str, lang: str) -> tuple[str, str]:
    """What rules.js shows: the preset's page, then the game's shared page."""
    own = client.get(f"/static/rules/{game}.{preset}.{lang}.md")
    shared = client.get(f"/static/rules/{game}.{lang}.md")
    assert own.status_code == 200, f"no {lang} guide for {game} {preset}"
    assert shared.status_code == 200, f"no {lang} shared guide for {game}"
    return own.text, shared.text


def heading(text: str) -> str:
    first = text.splitlines()[0]
    assert first.startswith("# "), first
    return first[2:]


def test_there_are_six_languages_and_five_presets() -> None:
    assert LANGS == ["ar", "en", "fr", "ne", "ru", "zh"]
    assert len(PRESETS) == 5


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_each_preset_has_its_own_guide_in_each_language(
    client: TestClient, game: str, preset: str, lang: str
) -> None:
    own, shared = guide(client, game, preset, lang)
    assert client.get(f"/rules/{game}/{preset}").status_code == 200
    others = {heading(guide(client, game, p, lang)[0]) for g, p in PRESETS if g == game}
    assert len(others) == len([p for g, p in PRESETS if g == game]), "two presets share a guide"
    text = (own + "\n" + shared).translate(DIGITS)
    assert re.search(SCRIPT[lang], heading(own) + shared), f"{lang} guide not in its script"
    if lang != "en":
        english = guide(client, game, preset, "en")
        assert heading(own) != heading(english[0]) and shared != english[1]
    for example in MUST_SHOW[(game, preset)]:
        assert example in text, f"{game} {preset} {lang}: {example!r} missing"
    assert "|---" in text or game == "marriage"  # the scoring table renders as a table
    assert len(text) < 9000, "a guide is a page or two"
    for dev_word in ("rules reference", "engine", "M-1", "T-1"):
        assert dev_word not in text, f"{game} {preset} {lang}: developer text {dev_word!r}"


def test_the_options_a_lobby_offers_are_explained_in_english() -> None:
    """Every option the lobby offers for a game is named (by its lobby label) in the
    game's Table options section."""
    labels = json.loads((STATIC / "i18n" / "en.json").read_text("utf-8"))
    for name in {g for g, _ in PRESETS}:
        shared = (STATIC / "rules" / f"{name}.en.md").read_text("utf-8")
        section = shared[shared.index("## Table options") :]
        preset = next(p for g, p in PRESETS if g == name)
        for opt in rules_info.rules_summary(name, preset)["options"]:  # type: ignore[union-attr]
            if not opt.get("lobby", True):  # type: ignore[union-attr]
                continue  # the shoe and the hand: the command line's and the library's
            key = f"opt_{opt['name']}"  # type: ignore[index]
            label = labels.get(key)
            assert label is None or f"**{label}" in section, f"{name}: {label} unexplained"


def test_a_built_wheel_holds_the_complete_rules_and_the_guides(tmp_path: Path) -> None:
    """setup.py copies docs/rules-*.md into the package: `pip install .` serves them."""
    src = tmp_path / "src"
    src.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "*.pyc")
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "build_support", src / "build_support", ignore=skip)
    shutil.copytree(ROOT / "src", src / "src", ignore=skip)
    (src / "docs").mkdir()
    for doc in (ROOT / "docs").glob("rules-*.md"):
        shutil.copy(doc, src / "docs" / doc.name)
    out = tmp_path / "wheel"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run(
        [*pip, "-w", str(out), str(src)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    (wheel,) = out.glob("rami-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        for game in ("marriage", "tunisian"):
            packaged = zf.read(f"rami/server/rules_docs/rules-{game}.md").decode()
            assert packaged == (ROOT / "docs" / f"rules-{game}.md").read_text("utf-8")
        for game, preset in PRESETS:
            for lang in LANGS:
                assert f"rami/server/static/rules/{game}.{preset}.{lang}.md" in names
        zf.extractall(tmp_path / "site")
    # the installed code, away from any checkout, finds the complete rules
    probe = (
        "from rami.server.rules_info import rules_document as d;"
        "print(d('marriage').splitlines()[0], '|', d('tunisian').splitlines()[0])"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert found.strip() == "# Marriage: the complete rules | " + heading(
        (ROOT / "docs" / "rules-tunisian.md").read_text("utf-8")
    ).join(["# ", ""])


def test_the_server_reads_the_packaged_complete_rules_first(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "rules-marriage.md").write_text("# Marriage: packaged\n", encoding="utf-8")
    monkeypatch.setattr(rules_info, "PACKAGED_DOCS", tmp_path)
    assert client.get("/api/rules/marriage/indian").json()["document"] == "# Marriage: packaged\n"
    # a game without a packaged copy falls back to the checkout's docs/
    assert "T-" in client.get("/api/rules/tunisian/1v1").json()["document"]
