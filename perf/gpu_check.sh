#!/bin/sh
# The GPU machine's side of `make gpu-check` (it may have no make): the carried wheels and wordbench itself into a
# folder of their own, then the check. Run from the repository root: sh perf/gpu_check.sh [gpu_check.py options]
set -e
SITE=${GPU_SITE:-/tmp/wordbench-site}
PY=${PYTHON:-python3}
$PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl
$PY -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --no-cache-dir --upgrade --target "$SITE" .
# What scoring imports, said before any step needs it (a missing one is a wheel to add to GPU_WHEELS in the Makefile).
PYTHONPATH="$SITE" $PY -c "import datasets, nltk, sacremoses, jsonlines, transformers, torch; print('datasets', datasets.__version__, \
'transformers', transformers.__version__, 'torch', torch.__version__)" || echo "gpu_check.sh: a package above is missing" >&2
PYTHONPATH="$SITE" PYTHONUNBUFFERED=1 $PY perf/gpu_check.py "$@"
