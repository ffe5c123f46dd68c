# campsolver: two commands on a fresh machine, `make serve` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 50051
# Connect, gRPC-Web and the web table (http://$(HOST):$(HTTP_PORT)/); empty: gRPC only.
HTTP_PORT ?= 8080
WORKERS ?= 2
PROTO_FILES := $(wildcard protos/campsolver/v1/*.proto)
# Debian packages `make test` needs, as command=package: rsvg-convert renders every puzzle SVG to PNG, headless
# Chromium prints the batch puzzle book and drives the web table's browser tests (Playwright runs Debian's
# /usr/bin/chromium, no driver). Serving needs none. `make test SYSTEM_DEPS=` skips the check (those tests fail).
SYSTEM_DEPS ?= rsvg-convert=librsvg2-bin chromium=chromium
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get
# The packages of SYSTEM_DEPS whose command is missing (evaluated when a recipe that uses it runs).
missing_packages = $(strip $(foreach pair,$(SYSTEM_DEPS),$(if $(shell command -v $(firstword $(subst =, ,$(pair))) \
	2>/dev/null),,$(lastword $(subst =, ,$(pair))))))

.PHONY: help system-deps setup serve test test-slow test-all test-loaded mutate lint protos bench clean

# Create the virtualenv if missing and install the pinned dependencies plus the package (editable).
# A Debian python3 without its venv module (python3-venv) gets it installed as root, else one line says so.
$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { echo "setup: campsolver \
	needs Python 3.11 or newer as $(PYTHON) (make PYTHON=python3.11 ...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) >/dev/null 2>&1 || { rm -rf $(VENV); \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then echo "setup: installing python3-venv (apt-get)"; \
	$(APT_GET) update -qq && $(APT_GET) install -y -qq --no-install-recommends python3-venv >/dev/null && \
	$(PYTHON) -m venv $(VENV); else echo "setup: $(PYTHON) cannot create a virtualenv; install the Debian package \
	python3-venv with \`sudo apt-get install -y python3-venv\`"; exit 1; fi; }
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[dev,batch,openspiel]'
	$(BIN)/python -m pip check
	@# Compile the Campsite bounds' loops once (numba caches them beside their source; a later import loads them).
	$(BIN)/python -c 'import campsolver.solver.campsite.kernels'
	@touch $(STAMP)

## Every target with what it does (the `## ` lines above each target).
help:
	@awk '/^## /{text = text substr($$0, 4) " "; next} /^[a-z-]+:/ && text {split($$0, t, ":"); printf "  %-12s %s\n", t[1], text} {text = ""}' $(MAKEFILE_LIST)

## Create the virtualenv and install the pinned dependencies and the package (editable).
setup: $(STAMP)

## Set everything up and start the gRPC service on $(HOST):$(PORT), and Connect, gRPC-Web and the web table on
## http://$(HOST):$(HTTP_PORT)/ (HTTP_PORT= for gRPC only).
serve: $(STAMP)
	$(BIN)/campsolver serve --host $(HOST) --port $(PORT) --workers $(WORKERS) $(if $(HTTP_PORT),--http-port $(HTTP_PORT))

## Set everything up (the Debian packages the tests drive included, see system-deps) and run the default test
## suite (slow cases are deselected and counted, never skipped) on TEST_WORKERS processes, each taking whole
## modules (`TEST_WORKERS=0`: one process).
TEST_WORKERS ?= 2
test: system-deps $(STAMP)
	$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile

## The long cases only.
test-slow: system-deps $(STAMP)
	$(BIN)/python -m pytest -m slow

## Every test, default and slow.
test-all: system-deps $(STAMP)
	$(BIN)/python -m pytest

## The time-limit tests (`-m timing`) beside 4 busy loops (bounded: the loops stop by themselves after 15 min).
test-loaded: system-deps $(STAMP)
	$(BIN)/python -m pytest -m slow tests/test_timing_under_load.py

MUTATE_ARGS ?= --sample 3 --sample-area proto-maps=4 --sample-area validators=7 --sample-area rules=7 --max-minutes 90

## A mutation run over the proof-claim sites, proto mappings, request validators, rules models, chance draws, HTTP
## codes, OpenSpiel information states, supplies and standard-error claims (tools/mutate.py);
## by default 3-7 mutants a site (seeded, docs/mutation-run.md); results in mutation.json / mutation.md.
mutate: $(STAMP)
	$(BIN)/python -m tools.mutate $(MUTATE_ARGS) --json mutation.json --markdown mutation.md

## ruff check and ruff format --check over the tree (and buf over the protos when installed).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@if command -v buf >/dev/null 2>&1; then cd protos && buf lint; else echo "buf not installed: proto lint covered by tests/test_protos.py"; fi

## The Debian packages the tests drive (SYSTEM_DEPS: rsvg-convert, headless Chromium), only those missing: as
## root apt-get installs them quietly; otherwise one line names them and the command, and make stops at once.
system-deps:
	$(if $(missing_packages),$(if $(filter 0,$(shell id -u)),$(if $(shell command -v apt-get 2>/dev/null),,$(error \
	system-deps: install the packages $(missing_packages) with your system's package manager, or run \
	`make test SYSTEM_DEPS=` without the tests that drive them)),$(error \
	system-deps: the tests need the Debian packages $(missing_packages); install them with `sudo apt-get update && \
	sudo apt-get install -y --no-install-recommends $(missing_packages)` (or run `sudo make system-deps`))))
	@$(if $(missing_packages),echo "system-deps: installing $(missing_packages) (apt-get)" && \
	$(APT_GET) update -qq && $(APT_GET) install -y -qq --no-install-recommends $(missing_packages) >/dev/null,:)

## Regenerate the protobuf/gRPC Python code (the only way generated code enters the tree).
protos: $(STAMP)
	$(BIN)/python -m tools.genprotos

## Every benchmark suite in one run: tables on stdout, JSON in bench/results/.
bench: $(STAMP)
	$(BIN)/python -m bench

## Remove the virtualenv and build caches.
clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
