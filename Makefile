# Two commands: `make serve` sets everything up and serves on 127.0.0.1:8000;
# `make test` sets everything up and runs the whole test suite.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
REQS := pyproject.toml $(wildcard requirements/*.txt)

.PHONY: setup build serve test lint bench clean

setup: $(STAMP) build

$(STAMP): $(REQS)
	# Debian's myspell-et and unmunch give the Estonian solver its candidate words (wordlists/et/README.md);
	# without root or apt the Estonian solver is left out, the rest builds.
	if ! command -v unmunch >/dev/null || [ ! -f /usr/share/hunspell/et_EE.dic ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq myspell-et hunspell-tools >/dev/null) || echo "note: apt-get failed; the Estonian solver index is skipped"; \
	  else echo "note: no root/apt-get: install myspell-et and hunspell-tools for the Estonian solver"; fi; \
	fi
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	if [ -f requirements/estonian-nodeps.txt ]; then $(BIN)/python -m pip install --quiet --no-deps -r requirements/estonian-nodeps.txt; fi
	if [ -f requirements/estonian.txt ]; then $(BIN)/python -m pip install --quiet -r requirements/estonian.txt; fi
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/wordsvc build

serve: setup
	$(BIN)/wordsvc serve

lint: $(STAMP)
	$(BIN)/ruff check wordsvc tests api_tests bench wordlists

test: setup lint
	$(BIN)/python -m pytest -q tests api_tests

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/lexicons.py
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/search_structures.py
	$(BIN)/python bench/instructions.py
	$(BIN)/python bench/estonian_coverage.py

clean:
	rm -rf build $(VENV)
