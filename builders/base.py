"""The builder contract: a named, versioned recipe whose ``Config`` defaults are the paper's."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path
from typing import Any, ClassVar

import datasets

from .errors import ConfigError
from .sources.base import SourceInfo, sha8


def config_dict(config) -> dict[str, Any]:
    return dataclasses.asdict(config)


def config_hash(config) -> str:
    """8 hex digits over every knob of the config (sorted JSON)."""
    return sha8(json.dumps(config_dict(config), sort_keys=True, default=str))


def parse_overrides(config_cls, overrides: typing.Iterable[str] | dict[str, Any] = ()):
    """Build ``config_cls`` from ``key=value`` strings (or a dict), converting to the field types."""
    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    hints = typing.get_type_hints(config_cls)
    values: dict[str, Any] = {}
    items = overrides.items() if isinstance(overrides, dict) else (_split(o) for o in overrides)
    for key, raw in items:
        if key not in fields:
            raise ConfigError(f"unknown config key '{key}' for {config_cls.__qualname__}; valid keys: {', '.join(fields)}")
        values[key] = _convert(key, raw, hints[key])
    config = config_cls(**values)
    check_config(config)
    return config


POSITIVE = ("window", "reference_tokens", "max_new_tokens")  # sizes that must be >= 1 (besides max_*, *_dim, ...)


def check_config(config) -> None:
    """Ranges every config shares, by field name, then the config's own ``validate()`` (ordered thresholds
    and the like): counts and sizes are non-negative, ``max_*``/``*_dim``/``*_beam``/``*_epochs`` and
    windows positive, ``*_fraction`` in [0, 1). A negative size must not act as a Python slice."""
    hints = typing.get_type_hints(type(config))
    for f in dataclasses.fields(config):
        value, hint = getattr(config, f.name), hints[f.name]
        allowed = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        if value is None:
            if type(None) not in typing.get_args(hint):
                raise ConfigError(f"'{f.name}' cannot be None (expects {allowed[0].__name__})")
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or f.name == "seed":
            continue
        if f.name.endswith("_fraction"):
            if not 0 <= value < 1:
                raise ConfigError(f"'{f.name}' must be in [0, 1), got {value}")
        elif f.name.startswith("max_") or f.name.endswith(("_dim", "_beam", "_epochs")) or f.name in POSITIVE:
            if value < 1:
                raise ConfigError(f"'{f.name}' must be at least 1, got {value}")
        elif int in allowed and value < 0:
            raise ConfigError(f"'{f.name}' must be >= 0, got {value}")
    if hasattr(config, "validate"):
        config.validate()


def _split(override: str) -> tuple[str, str]:
    if "=" not in override:
        raise ConfigError(f"config override '{override}' is not key=value")
    key, value = override.split("=", 1)
    return key.strip(), value.strip()


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def parse_bool(key: str, value: Any) -> bool:
    """A boolean option from a bool or a true/false word; anything else (``flase``) is a one-line error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise ConfigError(f"'{key}' expects true or false, got '{value}'")


def _convert(key: str, raw: Any, hint) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    target = args[0] if args else hint
    if not isinstance(raw, str):
        if raw is None or target not in (bool, int, float, str):
            return raw
        if target is bool:
            return parse_bool(key, raw)
        if target is float and isinstance(raw, (int, float)) and not isinstance(raw, bool):
            return float(raw)
        if target is int and isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if target is str and isinstance(raw, (int, float)) and not isinstance(raw, bool):
            return str(raw)
        raise ConfigError(f"'{key}' expects {target.__name__}, got {raw!r}")
    if raw.lower() in ("none", "null", "") and type(None) in typing.get_args(hint):
        return None
    try:
        if target is bool:
            return parse_bool(key, raw)
        if target in (int, float, str):
            return target(raw)
    except ValueError:
        raise ConfigError(f"'{key}' expects {getattr(target, '__name__', target)}, got '{raw}'") from None
    return raw


class Builder:
    """Base class of the dataset builders. Subclasses set ``name``, ``version``, ``Config`` and implement the hooks."""

    name: ClassVar[str]
    version: ClassVar[str]
    Config: ClassVar[type]
    configs: ClassVar[tuple[str, ...]] = ("default",)

    def sources(self, config) -> list[SourceInfo]:
        """Resolve every external resource the build reads and report its name and version."""
        raise NotImplementedError

    def build(self, config) -> dict[str, datasets.DatasetDict]:
        """Build the data: ``{dataset config name: DatasetDict of splits}``, deterministic for ``config``."""
        raise NotImplementedError

    def summary(self, data: dict[str, datasets.DatasetDict]) -> str:
        """A markdown table describing the built data (printed after a build and put in the card)."""
        return ""

    def export_extra(self, data: dict[str, datasets.DatasetDict], folder: Path) -> list[str]:
        """Write extra files (e.g. the paper's original format) into a published folder; return their names."""
        return []

    def read_file(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """Read data in the benchmark's original published format (if it has one)."""
        raise ConfigError(f"{self.name} has no file format of its own: pass a built or published folder")

    def read_files(self, paths: list[Path]) -> dict[str, datasets.DatasetDict]:
        """Several files of the published format as one dataset (``--data a.txt,b.txt``); one file by default."""
        if len(paths) != 1:
            raise ConfigError(f"{self.name} reads one file at a time: {', '.join(map(str, paths))}")
        return self.read_file(paths[0])

    def read_folder(self, path: Path) -> dict[str, datasets.DatasetDict]:
        """Read a folder in the benchmark's original published layout (if it has one)."""
        raise ConfigError(f"{path} is not a wordbench dataset folder (no signature.json); build or publish one first")
