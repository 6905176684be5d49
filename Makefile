# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment and install what they need.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

ENGINE := src/sevenstud

# The engine compiled with mypyc (tools/build_compiled.py) in its own folder; src/ stays pure.
# `make test` runs the rules tests and the PokerKit cross-check a second time against it (or
# skips them, saying why, where no C compiler is found). `make run` never builds it.
COMPILED       := build/compiled
ENGINE_SOURCES := $(shell find $(ENGINE) -type f -not -path '*/__pycache__/*')
COMPILED_TESTS := tests/rules tests/test_crosscheck_pokerkit.py tests/test_compiled.py tests/test_chips.py \
                  tests/test_actions.py tests/test_hand.py tests/test_games.py tests/test_redaction.py \
                  tests/test_table.py tests/test_wire.py tests/test_bots.py tests/test_terminal.py

.PHONY: run test test-compiled compiled lint typecheck docs bench clean

# The engine imports the standard library alone; `make run` installs it with the card room's
# extra (FastAPI, uvicorn, SQLAlchemy, numpy for the equity page ...) and nothing else (no test
# tools); `make test` adds the test extras. Each has its own stamp, so `make run` on a fresh
# clone never waits for PokerKit, mypy and Playwright.
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || (apt-get update && apt-get install -y python3 python3-venv)
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[server]'
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(RUN_STAMP) $(DOCS_STAMP)

$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $@

# The card room at http://127.0.0.1:8000 on an embedded SQLite database (its path is printed);
# `$(BIN)/sevenstud play` is the terminal table.
run: $(RUN_STAMP)
	$(BIN)/sevenstud serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/mypy $(ENGINE) tools

# The documentation site (mkdocs.yml) into site/, warnings as errors: a broken link, a page
# missing from the nav or a docstring mkdocstrings cannot read fails it. About 10 s.
# `$(BIN)/mkdocs serve` shows it while you write.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Rebuilt when any engine source or the build script changes; a build that cannot be made here
# (no C compiler) still succeeds, leaving build/compiled/UNAVAILABLE with the reason, and is
# tried again next time (a compiler may have been installed since).
$(COMPILED)/.built: $(TEST_STAMP) $(ENGINE_SOURCES) tools/build_compiled.py
	$(BIN)/python tools/build_compiled.py --out $(COMPILED)
	test -f $(COMPILED)/UNAVAILABLE || touch $@

compiled: $(COMPILED)/.built

# The compiled build comes first, so that the pure pass's self-play tests (tests/sim/) check the
# compiled engine's figures against the pure engine's where a build could be made.
# The card room's tests start a throwaway PostgreSQL cluster of their own (stopped after):
# tools/postgres.sh installs PostgreSQL's binaries with apt-get where they are missing; the
# browser tests drive Debian's chromium, which tools/chromium.sh installs the same way, and the
# deployment test (docs/deploy.md) puts the room behind Debian's caddy (tools/caddy.sh). pytest's
# testpaths (pyproject.toml) are tests/ and src/sevenstud/: the doctests in the docstrings run
# in the same pass (about 7 s of one core).
test: lint $(TEST_STAMP) compiled
	$(MAKE) docs
	sh tools/postgres.sh
	sh tools/chromium.sh
	sh tools/caddy.sh
	$(BIN)/pytest -n auto -m 'not alone'
	$(BIN)/pytest -m alone
	$(MAKE) test-compiled

test-compiled: compiled
	SEVENSTUD_COMPILED=$(COMPILED) $(BIN)/pytest -n auto -rs $(COMPILED_TESTS)

bench: $(TEST_STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(MAKE) compiled
	$(BIN)/python benchmarks/engine_vs_pokerkit.py --compiled $(COMPILED)
	$(BIN)/python benchmarks/evaluator_vs_pokerkit.py
	$(BIN)/python benchmarks/equity_vs_peers.py

clean:
	rm -rf $(VENV) build site *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
