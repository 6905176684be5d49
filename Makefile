# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment and install what they need.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

ENGINE := src/sevenstud

.PHONY: run test lint typecheck bench clean

# The engine imports the standard library alone: `make run` installs the package and nothing
# else (no numpy, no test tools); `make test` adds the test extras. Each has its own stamp, so
# `make run` on a fresh clone never waits for PokerKit, mypy and numpy.
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || (apt-get update && apt-get install -y python3 python3-venv)
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/sevenstud play

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy $(ENGINE)

test: lint $(TEST_STAMP)
	$(BIN)/pytest -n auto

bench: $(TEST_STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/engine_vs_pokerkit.py
	$(BIN)/python benchmarks/evaluator_vs_pokerkit.py
	$(BIN)/python benchmarks/equity_vs_peers.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
