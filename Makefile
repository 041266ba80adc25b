# The two commands of the README:  `make up`  and  `make test`.
# Everything else here is what they need on a fresh machine: a virtualenv with donto's
# Python dependencies and a Neo4j Community server resolved from Maven Central.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: install up test bench-ingest

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/.installed
	$(BIN)/donto neo4j install

up: install
	$(BIN)/donto up

test: install
	$(BIN)/python -m pytest
