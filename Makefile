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

.PHONY: help system-deps setup serve test test-slow test-all test-loaded mutate lint protos bench clean

# Create the virtualenv if missing and install the pinned dependencies plus the package (editable).
$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[dev,batch,openspiel]'
	$(BIN)/python -m pip check
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

## Set everything up and run the default test suite (slow cases are deselected and counted, never skipped).
test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

## The long cases only.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

## Every test, default and slow.
test-all: $(STAMP)
	$(BIN)/python -m pytest

## The time-limit tests (`-m timing`) beside 4 busy loops (bounded: the loops stop by themselves after 15 min).
test-loaded: $(STAMP)
	$(BIN)/python -m pytest -m slow tests/test_timing_under_load.py

MUTATE_ARGS ?= --sample 3 --sample-area proto-maps=4 --sample-area validators=7 --sample-area rules=7 --max-minutes 90

## A mutation run over the proof-claim sites, proto mappings, request validators and rules models (tools/mutate.py);
## by default 3-7 mutants a site (seeded, docs/mutation-run.md); results in mutation.json / mutation.md.
mutate: $(STAMP)
	$(BIN)/python -m tools.mutate $(MUTATE_ARGS) --json mutation.json --markdown mutation.md

## ruff over the tree (and buf over the protos when installed).
lint: $(STAMP)
	$(BIN)/ruff check .
	@if command -v buf >/dev/null 2>&1; then cd protos && buf lint; else echo "buf not installed: proto lint covered by tests/test_protos.py"; fi

## Debian packages some tests drive: rsvg-convert (SVG -> PNG) and headless Chromium (book -> PDF/PNG).
## Installed only when missing and when we may (root); the tests that need them fail loudly without them.
system-deps:
	@if command -v rsvg-convert >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends librsvg2-bin chromium >/dev/null; \
	else echo "system-deps: install librsvg2-bin and chromium (Debian) for the picture and book tests"; fi

## Regenerate the protobuf/gRPC Python code (the only way generated code enters the tree).
protos: $(STAMP)
	$(BIN)/python -m tools.genprotos

## Every benchmark suite in one run: tables on stdout, JSON in bench/results/.
bench: $(STAMP)
	$(BIN)/python -m bench

## Remove the virtualenv and build caches.
clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
