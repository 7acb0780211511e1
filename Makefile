# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test bench train install browser clean

# editable_mode=compat puts the checkout on the path: the lab (lab/, not an installed package)
# imports from it and registers its commands (synth, eval, train, ...).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -qq --disable-pip-version-check -e '.[test]' --config-settings editable_mode=compat   # -qq: errors only, so `make demo` ends with the server's address
	touch $(STAMP)

install: $(STAMP)

# Debian's Chromium drives the browser tests (playwright's own download does not work here).
browser: $(CHROMIUM)
$(CHROMIUM):
	$(SUDO) apt-get update -q
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends chromium

# The table-side page on 127.0.0.1:8000, fed by the bundled demo camera replay.
demo: $(STAMP)
	$(VENV)/bin/automa-vision serve --demo

test: $(STAMP) browser
	$(PY) -m pytest

# Speed and the fixtures, then the accuracy goal on the nine held-out goal sets (made on the
# first run, ~4 min on 2 cores; read in ~4 min), then the held-out printed look: still frames
# (cold, calibrated, adapted) and whole games' turns (~1.5 min each).
bench: $(STAMP)
	$(VENV)/bin/automa-vision bench
	$(VENV)/bin/automa-vision eval-sets goal
	$(VENV)/bin/python -m lab.printed_eval --tables 8 --frames 5 --first 940
	$(VENV)/bin/python -m lab.printed_turns --tables 8 --first 940

# Retrain the slot model, its conduit and powerhouse specialist, the dam-height reader and the drop counters on
# freshly generated synthetic images (torch
# is a training-only extra; this exact version installs the CPU build shipped with the machine image).
train: $(STAMP)
	$(PY) -m pip install -q torch==2.13.0 onnx onnxscript
	$(VENV)/bin/automa-vision train
	$(VENV)/bin/automa-vision train --kinds conduit,powerhouse
	$(VENV)/bin/automa-vision train-heights
	$(VENV)/bin/automa-vision train-drops --kind headstream
	$(VENV)/bin/automa-vision train-drops --kind lake --epochs 8

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
