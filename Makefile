# The README's two commands: `make run` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast test-validity validity setup system venv lint clean bench

run: setup
	$(VENV)/bin/iwr run

# everything but the validity tier: lint, the import contract, unit, browser, Ray and end-to-end tests
# on TEST_JOBS processes (pytest-xdist: a module's tests on one process; tests/conftest.py makes the smoke tasks
# and the baseline run once for all of them)
TEST_JOBS ?= 2
test: setup lint
	$(PY) -m pytest -q -ra -m "not validity" -n $(TEST_JOBS) --dist loadfile

# no browser, no Ray, no system packages: the quick loop while developing (lint and the import contract too)
test-fast: venv lint
	$(PY) -m pytest -q -ra -m "not browser and not validity"

# ruff (rules in pyproject.toml); the import contract between stages runs as a test (tests/test_layers.py)
lint: venv
	$(VENV)/bin/ruff check src tests bench scripts

# the judge's validity proof on the built default suite (slow: builds the suite, judges hundreds of pages)
test-validity: setup
	$(PY) -m pytest -q -ra -m validity

validity: setup
	$(VENV)/bin/iwr validity --out runs/validity

setup: system venv

system:
	@bash scripts/setup-system.sh

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "installing iwrbench and its Python dependencies into $(VENV)"
	@bash -o pipefail -c "$(PY) -m pip install -q -e '.[test,ray,dino]' 2>&1 | { grep -v 'is ignored: it is neither' || true; }"
	@touch $@

bench: setup
	$(PY) bench/judge_speed.py
	$(PY) bench/throughput.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
