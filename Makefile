# Two entry points: `make run` and `make test`, both from a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint bench clean chromium postgresql accel pure static ladder

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# The RL extra's torch is the CPU build (pinned, installed first: see pyproject.toml).
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev,web,postgres,ray,rl,ladder]'
	touch $(STAMP)

# The main job: the web app (lobby, tables with friends and bots) on http://127.0.0.1:8000
# `make run HOST=0.0.0.0 PORT=8001` lets friends on your network in.
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(STAMP)
	$(BIN)/rami serve --host $(HOST) --port $(PORT)

# Watch a seeded deal of each game between random legal players, in the terminal.
demo: $(STAMP)
	$(BIN)/rami demo marriage --seed 7
	$(BIN)/rami demo tunisian --seed 7

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts setup.py build_support
	$(BIN)/ruff format --check src tests bench scripts setup.py build_support
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (never a downloaded browser build), with the
# Noto fonts so that Nepali and Chinese pages render.
chromium:
	@{ command -v chromium >/dev/null && [ -d /usr/share/fonts/truetype/noto ] && [ -d /usr/share/fonts/opentype/noto ]; } || \
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core fonts-noto-cjk; }

# The server tests also run on a throw-away PostgreSQL cluster made from Debian's binaries.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

# The browser tests inject axe-core, and solo play copies Pyodide (both pinned in
# package.json/package-lock.json): npm installs them into node_modules/ (Debian's npm
# when it is missing).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	@command -v npm >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(AXE)

# Solo play in the browser, no server (issue 26): dist/ for any static host, e.g.
# `python3 -m http.server -d dist` (docs/solo.md); rami as a pure-Python wheel built
# from this checkout.
static: $(STAMP) $(AXE)
	PYTHONPATH=src $(BIN)/python scripts/build_static.py

test: $(STAMP) chromium postgresql $(AXE) lint static
	$(BIN)/pytest

# Every bench runs; the target fails if any of them failed.
bench: $(STAMP) $(AXE)
	$(BIN)/pip install --quiet 'rlcard==1.2.*'  # the peer that bench/rl_env.py compares with
	@failed=""; for f in bench/*.py; do $(BIN)/python $$f || failed="$$failed $$f"; done; \
	if [ -n "$$failed" ]; then echo "failed:$$failed" >&2; exit 1; fi

# The shipped bot ladder (docs/bots.md): `rami ladder` for each game and preset, its
# games kept in build/ladder/*.jsonl (run again to go on), its ratings written to
# src/rami/bots/ladder/GAME-PRESET.json with the command that made them. Hours of CPU at
# these sizes: `make ladder LADDER_GAMES=40 LADDER_LEVELS=easy,medium,hard` is lighter.
LADDER_GAMES ?= 200
LADDER_WORKERS ?= 2
LADDER_LEVELS ?= easy,medium,hard,expert
LADDERS ?= marriage:nepali marriage:indian tunisian:1v1:learned:tunisian_1v1 tunisian:ffa tunisian:2v2
ladder: $(STAMP)
	@mkdir -p build/ladder
	@for spec in $(LADDERS); do \
	  game=$${spec%%:*}; rest=$${spec#*:}; preset=$${rest%%:*}; extra=$${rest#$$preset}; \
	  $(BIN)/rami ladder $$game --preset $$preset --levels $(LADDER_LEVELS)$${extra:+,$${extra#:}} \
	    --games $(LADDER_GAMES) --workers $(LADDER_WORKERS) \
	    --results build/ladder/$$game-$$preset.jsonl \
	    --json src/rami/bots/ladder/$$game-$$preset.json || exit 1; \
	done

# Optional: the hot solver modules compiled with mypyc (needs a C compiler and the Python
# headers; docs/accelerated.md). `rami --version` says which solvers run; `make pure`
# removes the compiled modules again (the pure-Python ones are the reference). From a
# fresh clone it needs the core alone (a venv with rami, mypy and setuptools); in a venv
# with the rl extra (numpy) the RL encoders are compiled too.
accel:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'setuptools>=77' 'mypy>=1.10'
	RAMI_MYPYC=1 $(BIN)/pip install --quiet --no-build-isolation -e .
	$(BIN)/rami --version

pure:
	find src -name '*.so' -delete
	rm -rf build
	-$(BIN)/rami --version

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache node_modules
	find src -name '*.so' -delete
