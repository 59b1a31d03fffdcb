"""Alias of :mod:`wordbench.errors` (the core), kept for old imports."""

from wordbench.errors import ConfigError, DataFormatError, SourceError, WordbenchError, warn  # noqa: F401
