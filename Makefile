# The README's two commands: `make run` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast test-validity validity setup system venv lint clean bench

run: setup
	$(VENV)/bin/iwr run

test: setup
	$(PY) -m pytest -q -ra -m "not validity"

# no browser, no system packages: the quick loop while developing
test-fast: venv
	$(PY) -m pytest -q -ra -m "not browser and not validity"

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
