# The two commands a new user needs: `make run` and `make test`.
# Both create the virtual environment and install what they need.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

ENGINE := src/sevenstud

.PHONY: run test lint typecheck bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || (apt-get update && apt-get install -y python3 python3-venv)
	@$(PYTHON) -m venv --help >/dev/null 2>&1 || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/sevenstud play

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy $(ENGINE)

test: lint $(STAMP)
	$(BIN)/pytest -n auto

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python benchmarks/engine_vs_pokerkit.py
	$(BIN)/python benchmarks/evaluator_vs_pokerkit.py
	$(BIN)/python benchmarks/equity_vs_peers.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
