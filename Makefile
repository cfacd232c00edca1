# Two commands: `make serve` sets everything up and serves on 127.0.0.1:8000;
# `make test` sets everything up and runs the whole test suite. `make check` is the quick inner loop,
# `make screenshots` the pictures the docs show.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
AXE := node_modules/axe-core/axe.min.js
LOCKS := requirements/base.txt requirements/estonian-nodeps.txt
# Every Python package comes from a lock file, pinned with its hashes (requirements/lock.py writes them from
# pyproject.toml: `make lock`; tests/test_lock.py fails when the two disagree). --no-deps: the lock is the whole set.
PIP_LOCKED := $(BIN)/python -m pip install --quiet --require-hashes --no-deps
PIP_TOOLS := pip-tools==7.7.0
# Debian's word lists the language builders read (each wordlists/<folder>/manifest.yaml names its package and version).
LANGUAGE_PACKAGES := wngerman hunspell-de-de iso-codes wspanish hunspell-es wfrench wdutch wpolish witalian wportuguese wdanish

.PHONY: setup build serve test check screenshots lint lock clients bench fuzz clean

# The English lexicons, the only ones `make check` needs: built when missing, never rebuilt by it.
comma := ,
ENGLISH := en-US,en-GB,en-US-common,en-US-large
ENGLISH_BUILT := $(foreach id,$(subst $(comma), ,$(ENGLISH)),build/lexicons/$(id)/meta.json)
# What `make check` leaves out, by the markers conftest.py sets from what each test uses (pyproject.toml lists them).
CHECK_MARKERS := not (browser or postgres or server or processes or lexicons or slow)

# $(call unchanged,COMMAND): runs COMMAND and fails when it changed what the checkout holds (.ci/checkout-state,
# before against after; local changes made before the run are allowed): the tests write only ignored or temporary files.
define unchanged
	@state=$$(mktemp); .ci/checkout-state >"$$state"; \
	$(1); status=$$?; \
	if ! .ci/checkout-state | diff "$$state" - >"$$state.diff"; then \
	  echo "the tests changed the checkout (they may write only ignored or temporary files); before (<) and after (>):"; cat "$$state.diff"; status=1; \
	fi; \
	rm -f "$$state" "$$state.diff"; exit $$status
endef

# The ledger's tables are created or migrated here and again by `wordsvc serve` before it starts.
setup: $(STAMP) $(TEST_STAMP) build
	$(BIN)/wordsvc db upgrade

# The service's own packages (and Debian's myspell-et and unmunch, which give the Estonian solver
# its candidate words: wordlists/et/README.md; and scowl and miscfiles, SCOWL and web2, from which
# wordlists/en/build_scowl.py makes the committed English lists: tests/test_english.py rebuilds them
# and compares); without root or apt the Estonian solver and that check are left out.
$(STAMP): pyproject.toml $(LOCKS)
	if ! command -v unmunch >/dev/null || [ ! -f /usr/share/hunspell/et_EE.dic ] || [ ! -d /usr/share/dict/scowl ] || [ ! -f /usr/share/dict/web2 ] || ! dpkg -s $(LANGUAGE_PACKAGES) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq myspell-et hunspell-tools scowl miscfiles $(LANGUAGE_PACKAGES) >/dev/null) || echo "note: apt-get failed; the Estonian solver index, the English lists' rebuild check and the lexicons built from Debian's lists are skipped"; \
	  else echo "note: no root/apt-get: install myspell-et, hunspell-tools, scowl, miscfiles and $(LANGUAGE_PACKAGES) for the Estonian solver, the English lists' rebuild check and the lexicons built from Debian's lists"; fi; \
	fi
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(PIP_LOCKED) -r requirements/base.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(PIP_LOCKED) -r requirements/estonian-nodeps.txt
	touch $(STAMP)

# What the tests need besides: test runners, linters, schema checkers, Playwright; Debian's postgresql, whose
# initdb and postgres the ledger's tests run as a throwaway server (api_tests/postgres.py); and Debian's
# chromium, which Playwright drives for the console's and the kiosk's tests (api_tests/browser.py; Playwright's
# own browser downloads are never used); and Debian's poppler-utils, whose pdftotext, pdfinfo and pdftoppm read the
# printed documents back (api_tests/test_documents.py). The postgresql package would also start a system cluster we never
# use: a policy-rc.d answering 101, as containers have (made for the install when there is none), keeps it
# from starting, so a start that fails cannot fail the install. Without root or apt those tests are skipped,
# and fail under CI.
$(TEST_STAMP): $(STAMP) $(AXE) requirements/dev.txt
	if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    policy=; if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=made; fi; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null) || echo "note: apt-get failed; the ledger's PostgreSQL tests are skipped (and fail under CI)"; \
	    if [ -n "$$policy" ]; then rm -f /usr/sbin/policy-rc.d; fi; \
	  else echo "note: no root/apt-get: install Debian's postgresql package for the ledger's PostgreSQL tests (skipped without it, failed under CI)"; fi; \
	fi
	if ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "note: apt-get failed; the browser tests are skipped (and fail under CI)"; \
	  else echo "note: no root/apt-get: install Debian's chromium package for the console's and the kiosk's browser tests (skipped without it, failed under CI)"; fi; \
	fi
	if ! command -v pdftotext >/dev/null || ! command -v pdftoppm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null) || echo "note: apt-get failed; the printed documents' tests are skipped (and fail under CI)"; \
	  else echo "note: no root/apt-get: install Debian's poppler-utils (pdftotext, pdfinfo, pdftoppm) for the printed documents' tests (skipped without it, failed under CI)"; fi; \
	fi
	$(PIP_LOCKED) -r requirements/dev.txt
	touch $(TEST_STAMP)

# axe-core, the accessibility checker the browser tests run in the pages: a test tool from npm, pinned by
# package-lock.json, never served. Without npm the browser tests are skipped (failed under CI).
$(AXE): package.json package-lock.json
	if command -v npm >/dev/null; then npm ci --silent --no-audit --no-fund || echo "note: npm ci failed; the browser tests are skipped (and fail under CI)"; \
	else echo "note: no npm: the browser tests need axe-core from npm (skipped without it, failed under CI)"; fi
	touch --no-create $(AXE)

build: $(STAMP)
	$(BIN)/wordsvc build

# Serves as soon as English is built (seconds); `--build` builds the other languages in the
# background and each comes online when its build is done (503 with Retry-After until then).
# At a venue, WORDSVC_HOST=0.0.0.0 make serve answers the players' phones and names the addresses they can open (docs/venue.md).
serve: $(STAMP)
	$(BIN)/wordsvc build --only en-US,en-GB
	$(BIN)/wordsvc serve --build

lint: $(TEST_STAMP)
	$(BIN)/ruff check wordsvc tests api_tests bench wordlists examples clients requirements conftest.py

# The TypeScript and Python clients, generated from the OpenAPI document (rendered in-process, no server needed)
# into build/clients/ by the generators pinned in package-lock.json and pyproject.toml; a generator's warning fails
# it. api_tests/test_clients.py generates them from the server it tests and runs their flows (docs/clients.md).
clients: $(TEST_STAMP)
	$(BIN)/python clients/generate.py

# The package compiled once before the suite: the suite starts hundreds of `wordsvc` processes, and where the environment
# sets PYTHONDONTWRITEBYTECODE (as containers do) each would compile every module again (about 0.9 s a process).
test: setup lint
	$(BIN)/python -m compileall -q wordsvc
	$(call unchanged,$(BIN)/python -m pytest -q tests api_tests)

# The quick inner loop: lint, then the tests that need no browser, no PostgreSQL server, no live server, no child
# process and no built lexicon but English's, nor the slow ones (the markers conftest.py sets), on a pytest-xdist
# worker a CPU, Hypothesis drawing a fifth of its examples. Only tests/: every test of api_tests/ needs a live server.
# Its target is a minute; its figure: docs/performance.md#the-suite. `make test` (and so CI) runs every test.
check: $(TEST_STAMP) | $(ENGLISH_BUILT)
	$(BIN)/ruff check wordsvc tests api_tests bench wordlists examples clients requirements conftest.py
	$(call unchanged,HYPOTHESIS_PROFILE=check $(BIN)/python -m pytest -q -n auto -m "$(CHECK_MARKERS)" tests)

$(ENGLISH_BUILT) &: | $(STAMP)
	$(BIN)/wordsvc build --only $(ENGLISH)

# The pictures of the pages and the printed documents that the README and docs/ show, written into docs/screenshots/
# by the tests that take them (marked `screenshots`; the SQLite runs: the pictures are the same on both back ends).
# In `make test` the same tests take and check them in a temporary folder.
screenshots: setup
	$(BIN)/python -m pytest -q -m "screenshots and not postgres" --screenshots docs/screenshots api_tests

bench: setup
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/resilience.py
	$(BIN)/python bench/lexicons.py
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/work_units.py
	$(BIN)/python bench/search_structures.py
	$(BIN)/python bench/instructions.py
	$(BIN)/python bench/estonian_coverage.py
	$(BIN)/python bench/ledger.py
	$(BIN)/python bench/commit_wait.py
	$(BIN)/python bench/attacks.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/seating_solvers.py
	$(BIN)/python bench/ratings.py
	$(BIN)/python bench/stream.py --one-server
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/play.py

# schemathesis with every check against a live `wordsvc serve` it starts on a free port (api_tests/fuzz.py):
# more than 24,000 generated requests on 76 operations (docs/operations.md, "Fuzzing", has a run's figures). FUZZ_ARGS goes to `schemathesis run`, e.g. FUZZ_ARGS='--seed 1'.
fuzz: setup
	$(BIN)/python -m api_tests.fuzz $(FUZZ_ARGS)

# The lock files again from pyproject.toml, keeping every pin the change does not need to move (requirements/lock.py;
# LOCK_ARGS=--upgrade takes the newest releases pyproject.toml allows). pip-tools is needed only here.
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet $(PIP_TOOLS)
	$(BIN)/python requirements/lock.py $(LOCK_ARGS)

clean:
	rm -rf build $(VENV) node_modules
