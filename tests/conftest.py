"""Shared fixtures: ``db_url`` runs a server test on SQLite and on a real PostgreSQL;
``browser`` is Debian's Chromium under Playwright, one per test module.

The PostgreSQL cluster is started once per session (tests/pg_cluster.py) the first time
a test asks for it. ``make test`` installs Debian's ``postgresql`` when it is missing;
elsewhere the PostgreSQL cases are skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    from pg_cluster import Cluster, pg_bin

    found = pg_bin()
    if found is None:
        pytest.skip("PostgreSQL is not installed (make test installs Debian's postgresql)")
    pytest.importorskip("psycopg")
    cluster = Cluster(found)
    cluster.start()
    # the servers' key file (rami.server.secret), shared by the processes of a test and
    # kept out of the user's data folder: the cluster's own folder
    before = os.environ.get("RAMI_SECRET_FILE")
    os.environ["RAMI_SECRET_FILE"] = str(cluster.dir / "server.secret")
    try:
        yield cluster
    finally:
        if before is None:
            os.environ.pop("RAMI_SECRET_FILE", None)
        else:
            os.environ["RAMI_SECRET_FILE"] = before
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or a new database on the test cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rami.db'}"
    cluster = request.getfixturevalue("pg_cluster")
    url: str = cluster.new_database()
    return url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (never a downloaded build) under Playwright, one per test module;
    the browser tests skip themselves when either is missing."""
    playwright = pytest.importorskip("playwright.sync_api")
    from browser_support import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed (make test installs Debian's chromium)")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
