# CardTable — `make run` serves the games, `make test` runs every test (as CI does).
SWIFT ?= swift
PYTHON ?= python3
TSC ?= tsc
SWIFT_FLAGS ?=
HOST ?= 127.0.0.1
PORT ?= 8080
PREFIX ?= /usr/local
# The binary `make install` copies; empty: build it in release first.
BIN ?=
# Where `make cluster` keeps its PostgreSQL, instances and nginx, and nginx's port.
CLUSTER_DIR ?= /tmp/cardtable-cluster
CLUSTER_PORT ?= 8090
CLUSTER_INSTANCES ?= 2

.PHONY: all deps build release install cluster cluster-stop test test-swift test-web test-e2e run-swift-tests run-e2e-tests screenshots run bench lint format clean

all: build

deps: ## Install missing Debian packages and Python test tools.
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

install: ## Install the binary in $(PREFIX)/bin and the web client where it finds it (docs/DEPLOY.md).
	@set -e; bin="$(BIN)"; \
	if [ -z "$$bin" ]; then $(SWIFT) build -c release $(SWIFT_FLAGS); \
	  bin="$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/cardtable"; fi; \
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/cardtable"; \
	install -m 0755 "$$bin" "$(DESTDIR)$(PREFIX)/bin/cardtable"; \
	rm -rf "$(DESTDIR)$(PREFIX)/share/cardtable/web"; \
	cp -R web "$(DESTDIR)$(PREFIX)/share/cardtable/web"; \
	rm -f "$(DESTDIR)$(PREFIX)/share/cardtable/web/jsconfig.json"; \
	echo "installed $(DESTDIR)$(PREFIX)/bin/cardtable and $(DESTDIR)$(PREFIX)/share/cardtable/web"

cluster: release ## PostgreSQL, $(CLUSTER_INSTANCES) instances and nginx on loopback, in $(CLUSTER_DIR) (docs/DEPLOY.md).
	BIN=$$($(SWIFT) build -c release $(SWIFT_FLAGS) --show-bin-path)/cardtable \
	  PORT=$(CLUSTER_PORT) INSTANCES=$(CLUSTER_INSTANCES) scripts/cluster.sh start $(CLUSTER_DIR)

cluster-stop: ## Stops `make cluster` and removes its directory.
	scripts/cluster.sh stop $(CLUSTER_DIR)

# Parallel browser-test workers (pytest-xdist); the suite's tests each use their own pages.
# NB: four on two cores: a worker often waits on a game's timer (Memory's 2 s, Snap!'s
# computers), and a fourth fills that time (docs/ARCHITECTURE.md, on `make test`).
E2E_WORKERS ?= 4
# Where the tests keep their scratch files (databases, browser profiles, save files): in memory
# when the machine has a tmpfs at /dev/shm, since each test server's commit syncs its database
# and a virtual disk makes every sync slow. The tests' files are thrown away either way.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm/cardtable-tests || echo $${TMPDIR:-/tmp})

test: deps test-web ## Every test, as CI runs them: one build, then the Swift tests beside the browser suite.
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@$(MAKE) --no-print-directory -j2 --output-sync=target run-swift-tests run-e2e-tests

test-swift: ## The Swift tests only.
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@$(MAKE) --no-print-directory run-swift-tests

test-web: ## Type-check the browser client's JavaScript (JSDoc types, web/jsconfig.json).
	$(TSC) --noEmit -p web/jsconfig.json

test-e2e: ## The end-to-end tests only (a real server, headless Chromium, tmux).
	$(SWIFT) build $(SWIFT_FLAGS)
	@$(MAKE) --no-print-directory run-e2e-tests

# NB: the run-* targets use what is built; each says how long it took.
run-swift-tests:
	@mkdir -p $(TEST_TMPDIR); start=$$(date +%s); TMPDIR=$(TEST_TMPDIR) $(SWIFT) test --skip-build $(SWIFT_FLAGS); status=$$?; \
	  echo "== swift tests: $$(( $$(date +%s) - start )) s"; exit $$status

run-e2e-tests:
	@mkdir -p $(TEST_TMPDIR); start=$$(date +%s); \
	  TMPDIR=$(TEST_TMPDIR) CARDTABLE_BIN=$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/cardtable \
	  $(PYTHON) -m pytest -q -n $(E2E_WORKERS) e2e; status=$$?; \
	  echo "== e2e tests: $$(( $$(date +%s) - start )) s"; exit $$status

screenshots: deps ## Refresh the README's pictures (docs/screenshots) from the browser tests.
	$(SWIFT) build $(SWIFT_FLAGS)
	CARDTABLE_BIN=$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/cardtable \
	  CARDTABLE_SCREENSHOTS=$(CURDIR)/docs/screenshots $(PYTHON) -m pytest -q e2e -k browser

run: release
	.build/release/cardtable serve --host $(HOST) --port $(PORT)

bench: deps
	$(SWIFT) build -c release
	.build/release/cardtable bench

lint: ## Swift, the web client and the Python test code, each by its formatter and linter.
	$(SWIFT) format lint --strict --parallel -r Sources Tests Package.swift
	$(TSC) --noEmit -p web/jsconfig.json
	$(PYTHON) scripts/lint_web.py
	$(PYTHON) -m ruff check
	$(PYTHON) -m ruff format --check

format: ## Formats what `make lint` checks the format of.
	$(SWIFT) format format -i --parallel -r Sources Tests Package.swift
	$(PYTHON) -m ruff format

clean:
	rm -rf .build
