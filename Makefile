# The two commands a new user needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Window tests need an X server; without one, run the suite under a virtual one.
XVFB := $(if $(DISPLAY),,$(shell command -v xvfb-run >/dev/null 2>&1 && echo 'xvfb-run -a -s "-screen 0 1280x1024x24"'))

# Test workers (pytest-xdist): one per core; `make test JOBS=0` runs in one process.
# The window tests (one X server, one focus, real timing) run afterwards, alone and
# one at a time. Exit status 5 is "no test selected" (PYTEST_ARGS naming one file).
JOBS ?= auto

# The bundled plugins (each game's palmish/<game>/plugins/), built once here as a package
# build does (palmish.device.store.prebuilt); remade when a plugin source or the packer changes.
PREBUILT := skins/prebuilt/.built
PLUGIN_SOURCES := $(shell find palmish/*/plugins prc_tools -type f -not -path '*/__pycache__/*' \
	-not -name '*.so' 2>/dev/null) palmish/device/store/prebuilt.py palmish/device/disk/resources.py

.PHONY: run test check static lint typecheck imports sanitize bench clean

# setup.py and the C source too: an existing venv rebuilds the optional C speedups.
$(STAMP): setup.cfg pyproject.toml setup.py prc_tools/_speedups.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

$(PREBUILT): $(STAMP) $(PLUGIN_SOURCES)
	$(BIN)/python -m palmish.device.store.prebuilt skins/prebuilt
	touch $(PREBUILT)

run: $(PREBUILT)
	$(BIN)/palmish $(ARGS)

test: $(PREBUILT) static
	$(XVFB) $(BIN)/python -m pytest -n $(JOBS) --dist loadgroup -m "not window" $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]
	$(XVFB) $(BIN)/python -m pytest -m window $(PYTEST_ARGS) || [ $$? -eq 5 ]

# The quick answer while changing a module (under 90 s on a 2-core machine): the
# static checks and the tests that start no other program and open no window
# (tests marked window, process or slow are left out; tests/conftest.py fails an
# unmarked test that starts a program). Needs no X server. `make test` is the whole suite.
QUICK := not window and not process and not slow

check: $(PREBUILT) static
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup -m "$(QUICK)" $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]

# ruff, mypy and the import contracts: the first step of both `test` and `check`.
static: lint typecheck imports

lint: $(STAMP)
	$(BIN)/ruff check palmish prc_tools tests benchmarks skins docs setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

# The layers of docs/architecture.md, as contracts in .importlinter.
imports: $(STAMP)
	$(BIN)/lint-imports

# The C speedups built with AddressSanitizer + UBSan, running the codec tests (CI runs it).
sanitize: $(STAMP)
	PYTHON=$(BIN)/python bash .ci/sanitize

bench: $(PREBUILT)
	for b in benchmarks/[!_]*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info prc_tools/_speedups*.so skins/prebuilt
