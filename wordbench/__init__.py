"""wordbench: build, publish and score word-level benchmarks for language models.

Packages: ``wordbench.builders`` (datasets), ``wordbench.scorers`` (models and metrics),
``wordbench.benchmarks`` (registry, Hub folders, run folders, signatures, CLI).
"""

__version__ = "0.1.0"
