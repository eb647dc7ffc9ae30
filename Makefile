# gamehall — the two commands of the README are `make serve` and `make test`.
# Both install what they need into .venv first (a fresh machine needs only python3 >= 3.11).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGS   ?=

.PHONY: serve test lint typecheck unit soak bench chromium clean screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

## Run the server: every game on its default port, the store in ./gamehall.db.
serve: $(VENV)/.installed
	$(BIN)/gamehall serve $(ARGS)

## Debian's chromium for the browser tests (installed when missing and we are root).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "chromium could not be installed: browser tests will be skipped"; \
	  else echo "no /usr/bin/chromium and not root: browser tests will be skipped"; fi; \
	fi

## Screenshots of every game's browser table (1280x800, 390x844) into docs/screenshots/.
screenshots: $(VENV)/.test-installed chromium
	$(BIN)/python tools/screenshots.py $(ARGS)

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy --strict src/gamehall

unit: $(VENV)/.test-installed
	$(BIN)/python -m pytest -q $(ARGS)

## The whole suite: lint, types, then every test (soak runs excluded).
test: $(VENV)/.test-installed chromium lint typecheck
	$(BIN)/python -m pytest -q $(ARGS)

## Long runs: a million fuzzed frames, thousands of games.
soak: $(VENV)/.test-installed
	$(BIN)/python -m pytest -q -m soak $(ARGS)

bench: $(VENV)/.test-installed
	$(BIN)/python bench/run_all.py $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
