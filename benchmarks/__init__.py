from wordbench import __version__  # noqa: F401 - the one version, defined in wordbench/__init__.py
