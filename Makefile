# Two entry points: `make run` and `make test`, both from a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint bench clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,web,ray]'
	touch $(STAMP)

# The main job: the web app (lobby, tables with friends and bots) on http://127.0.0.1:8000
run: $(STAMP)
	$(BIN)/rami serve

# Watch a seeded deal of each game between random legal players, in the terminal.
demo: $(STAMP)
	$(BIN)/rami demo marriage --seed 7
	$(BIN)/rami demo tunisian --seed 7

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

# The browser test drives Debian's Chromium (never a downloaded browser build).
chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

test: $(STAMP) chromium lint
	$(BIN)/pytest

bench: $(STAMP)
	for f in bench/*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
