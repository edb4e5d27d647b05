# Everything a fresh machine needs: `make demo` and `make test` create .venv and install first
# (with the dense-retrieval extra: sentence-transformers and a CPU build of torch).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit install clean bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --upgrade pip
	$(BIN)/python -m pip install -qq -e '.[dev,dense]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/agent demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/agent_overhead.py
	$(BIN)/python benchmarks/eval_throughput.py
	$(BIN)/python benchmarks/bm25_scale.py --sizes 10k,100k,1m
	$(BIN)/python benchmarks/retrieval_quality.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
