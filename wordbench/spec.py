"""Declared options: every builder ``Config`` and scorer ``Options`` field says its type, range and help once.

A field is declared with :func:`opt` (``dataclasses.field`` with metadata); its type annotation gives the kind
(``int``, ``float``, ``bool``, ``str``, ``Literal[...]`` choices, ``tuple[X, ...]`` lists, ``X | None``).
:func:`parse` serves ``--set``, ``--option``, ``--model-option`` and Python keyword arguments alike, and
:class:`Spec` checks a dataclass built directly from Python, so every check is derived from the declaration.
:func:`describe` gives the rows that ``wordbench list``, ``wordbench options`` and ``--help`` print.
"""

from __future__ import annotations

import dataclasses
import json
import keyword
import math
import types
import typing
from typing import Any, Iterable, Literal

from .errors import ConfigError
from .hashing import sha8

SEED_MAX = 2**32 - 1  # numpy's and torch's seeds are 32-bit
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
NONE_WORDS = ("none", "null", "")


MODEL_BOUNDS = {"layers": "the model's top layer", "new_tokens": "the model's positions - 1"}  # ``model_max`` names


def opt(default: Any, help: str, *, ge: float | None = None, gt: float | None = None, le: float | None = None,
        lt: float | None = None, finite: bool = True, nonempty: bool = False, check=None, model_max: str | None = None,
        applies=None) -> Any:
    """A declared field: its default, one line of help, and its range (``ge``/``gt``/``le``/``lt`` bounds,
    ``finite=False`` to admit NaN/inf, ``nonempty`` for a string or list that must hold something, ``check``
    a function ``value -> message | None`` for what a type cannot say, e.g. ``NAME:PATH`` specs). ``model_max``
    (one of ``MODEL_BOUNDS``) is an upper bound that only the model's config knows: the scorer checks it when the
    config is read, before any data or weights load (``Scorer.check_model``). ``applies`` a function ``spec -> reason |
    None`` saying why the option cannot apply given the others (``import`` data runs no rule): a value other than the
    default is then refused, never recorded in a signature as if it had changed something."""
    if model_max is not None and model_max not in MODEL_BOUNDS:
        raise ValueError(f"model_max must be one of {', '.join(MODEL_BOUNDS)}")  # a declaration error, caught by the tests
    meta = {"help": help, "ge": ge, "gt": gt, "le": le, "lt": lt, "finite": finite, "nonempty": nonempty, "check": check,
            "model_max": model_max, "applies": applies}
    return dataclasses.field(default=default, metadata=meta)


def seed_opt(help: str = "seed of every random choice (0 .. 2**32-1)") -> Any:
    return opt(0, help, ge=0, le=SEED_MAX)


def faithful_opt() -> Any:
    return opt(False, "every behaviour of the paper and the authors' code (the --faithful switch)")


def template_problem(template: str, fields: tuple[str, ...] = ("source",)) -> str | None:
    """Why ``template`` is no ``str.format`` template of exactly ``fields`` (None: it is one): unbalanced braces, an
    unknown, indexed or positional field, a format spec, a named field missing. Checked when the options are parsed,
    so a bad prompt is one line before any model loads."""
    import string

    shown = ", ".join("{" + f + "}" for f in fields)
    try:
        parsed = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template) if name is not None]
    except ValueError as exc:
        return f"is not a template ({exc}): a literal brace is written {{{{ or }}}}"
    unknown = sorted({"{" + name + "}" for name, _, _ in parsed if name not in fields})
    if unknown:
        return f"has field(s) {', '.join(unknown)}; it takes {shown} only (a literal brace is written {{{{ or }}}})"
    if any(spec or conv for _, spec, conv in parsed):
        return f"gives {shown} a format spec or conversion; write the field alone"
    missing = [f for f in fields if f not in {name for name, _, _ in parsed}]
    return f"must contain {', '.join('{' + f + '}' for f in missing)}" if missing else None


def parse_bool(key: str, value: Any) -> bool:
    """A boolean option from a bool or a true/false word; anything else (``flase``) is a one-line error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise ConfigError(f"'{key}' expects true or false, got {value!r}")


# --- types ---------------------------------------------------------------------------------------------
def _optional(hint) -> tuple[Any, bool]:
    """(the type without None, whether None is allowed)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        nullable = len(args) < len(typing.get_args(hint))
        return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), nullable
    return hint, False


def type_name(hint) -> str:
    """How ``--help`` names a type: ``int``, ``float >= 0``, ``a|b|c``, ``list of a|b``, ``str or none``."""
    base, nullable = _optional(hint)
    if typing.get_origin(base) is Literal:
        name = "|".join(map(str, typing.get_args(base)))
    elif typing.get_origin(base) is tuple:
        name = "list of " + type_name(typing.get_args(base)[0]) + " (comma-separated)"
    elif typing.get_origin(base) is typing.Union:
        name = " or ".join(type_name(a) for a in typing.get_args(base))
    else:
        name = getattr(base, "__name__", str(base))
    return name + (" or none" if nullable else "")


def _scalar(key: str, raw: Any, hint, meta: dict) -> Any:
    """One value of a plain or ``Literal`` type from a Python value or a command-line string."""
    if typing.get_origin(hint) is Literal:
        choices = typing.get_args(hint)
        for choice in choices:
            if raw == choice or (isinstance(raw, str) and not isinstance(choice, str) and raw.strip() == str(choice)):
                return choice
        raise ConfigError(f"'{key}' must be one of {', '.join(map(str, choices))}, got {raw!r}")
    if hint is bool:
        return parse_bool(key, raw)
    if hint is int:
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise ConfigError(f"'{key}' expects an integer, got {raw!r}")
        try:
            return int(raw.strip()) if isinstance(raw, str) else raw
        except ValueError:
            raise ConfigError(f"'{key}' expects an integer, got {raw!r}") from None
    if hint is float:
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise ConfigError(f"'{key}' expects a number, got {raw!r}")
        try:
            value = float(raw)
        except ValueError:
            raise ConfigError(f"'{key}' expects a number, got {raw!r}") from None
        if meta.get("finite", True) and not math.isfinite(value):
            raise ConfigError(f"'{key}' must be a finite number, got {raw}")
        return value
    if hint is str:
        if not isinstance(raw, str):
            raise ConfigError(f"'{key}' expects text, got {raw!r}")
        return raw
    raise ConfigError(f"'{key}': undeclared option type {hint!r}")  # a declaration error, caught by the tests


def _list(key: str, raw: Any, hint, meta: dict) -> tuple:
    """A ``tuple[X, ...]`` from a comma-separated string or a Python list/tuple; no empty or repeated item."""
    item = typing.get_args(hint)[0]
    if isinstance(raw, str):
        parts = [p.strip() for p in raw.split(",")] if raw.strip() else []
    elif isinstance(raw, (list, tuple)):
        parts = list(raw)
    else:
        raise ConfigError(f"'{key}' expects {type_name(hint)}, got {raw!r}")
    if any(isinstance(p, str) and p == "" for p in parts):
        raise ConfigError(f"'{key}' has an empty item in {raw!r}")
    values = tuple(_value(key, p, item, meta) for p in parts)
    if item not in (int, float) and len(set(values)) < len(values):  # names and choices once; numbers (shares) may repeat
        raise ConfigError(f"'{key}' names an item twice: '{','.join(map(str, values))}'")
    return values


def _value(key: str, raw: Any, hint, meta: dict) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):  # e.g. Literal["paper", "best"] | int: the first arm that fits
        errors = {}
        for arm in typing.get_args(hint):
            try:
                return _value(key, raw, arm, meta)
            except ConfigError as exc:
                errors[arm] = exc
        lists = [str(e) for a, e in errors.items() if typing.get_origin(a) is tuple]
        if lists:  # the list's message names the bad item; the other arms are the alternatives
            others = " or ".join(type_name(a) for a in errors if typing.get_origin(a) is not tuple)
            raise ConfigError(f"{lists[0]} (or {others})")
        raise ConfigError(f"'{key}' expects {type_name(hint)}, got {raw!r}")
    if origin is tuple:
        return _list(key, raw, hint, meta)
    return _scalar(key, raw, hint, meta)


def convert(key: str, raw: Any, hint, meta: dict | None = None) -> Any:
    """``raw`` (a Python value or a command-line string) as the declared type ``hint``, range unchecked."""
    meta = meta or {}
    base, nullable = _optional(hint)
    if raw is None or (nullable and isinstance(raw, str) and raw.strip().lower() in NONE_WORDS):
        if nullable:
            return None
        raise ConfigError(f"'{key}' cannot be none (expects {type_name(hint)})")
    return _value(key, raw, base, meta)


def check_range(key: str, value: Any, meta: dict) -> None:
    """The declared bounds, emptiness and custom check of one converted value."""
    if value is None:
        return
    if meta.get("nonempty") and not value:
        raise ConfigError(f"'{key}' cannot be empty")
    numbers = value if isinstance(value, tuple) else (value,)
    for v in numbers:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        for bound, ok, word in (("ge", lambda b: v >= b, ">="), ("gt", lambda b: v > b, ">"),
                                ("le", lambda b: v <= b, "<="), ("lt", lambda b: v < b, "<")):
            b = meta.get(bound)
            if b is not None and not ok(b):
                raise ConfigError(f"'{key}' must be {word} {_number(b)}, got {v!r}")
    if meta.get("check") is not None:
        message = meta["check"](value)
        if message:
            raise ConfigError(f"'{key}': {message}")


# --- the spec dataclasses --------------------------------------------------------------------------------
class Spec:
    """Base of every declared dataclass: a value set from Python is converted and checked like one from the
    command line (``Config(senses=0)`` is refused), then the class's own ``validate()`` checks relations
    between fields (ordered thresholds and the like)."""

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            value = convert(field_key(f.name), getattr(self, f.name), hints[f.name], f.metadata)
            check_range(field_key(f.name), value, f.metadata)
            object.__setattr__(self, f.name, value)  # frozen dataclasses too: the declared type, e.g. 10 -> 10.0
        self.validate()
        for f in dataclasses.fields(self):
            value, applies = getattr(self, f.name), f.metadata.get("applies")
            if applies is not None and value != f.default and (why := applies(self)):
                raise ConfigError(f"'{field_key(f.name)}={_shown(value)}' cannot apply: {why}; leave it out")

    def validate(self) -> None:
        """Checks between fields; a subclass raises ``ConfigError`` naming them."""


_HINTS: dict[type, dict] = {}


def _hints(cls: type) -> dict:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, include_extras=False)
    return _HINTS[cls]


def split_pair(item: str, source: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"{source} '{item}' is not KEY=VALUE")
    return key.strip(), value.strip()


def field_key(name: str) -> str:
    """The key a field is given by: its name, or for a Python keyword spelled with a trailing underscore (``import_``)
    the keyword itself (``--set import=...``)."""
    return name[:-1] if name.endswith("_") and keyword.iskeyword(name[:-1]) else name


def parse(cls: type, items: Iterable[str] | dict[str, Any] | None = None, *, source: str = "--set",
          fixed: dict[str, Any] | None = None):
    """An instance of the declared dataclass ``cls`` from ``KEY=VALUE`` strings or a dict of Python values.
    An unknown or repeated key is refused, and so is a value that contradicts a command-line switch in
    ``fixed`` (``--faithful --set faithful=false``); the switch's value is then set."""
    fields = {field_key(f.name): f for f in dataclasses.fields(cls)}
    hints = _hints(cls)
    pairs = list(items.items()) if isinstance(items, dict) else [split_pair(i, source) for i in (items or ())]
    values: dict[str, Any] = {}
    for key, raw in pairs:
        if key not in fields and key in {f.name for f in fields.values()}:  # a dict of Python names (import_)
            key = field_key(key)
        if key not in fields:
            what = {"--set": "config key", "--option": "scoring option", "--model-option": "model option"}.get(source, f"{source} key")
            raise ConfigError(f"unknown {what} '{key}' for {_owner(cls)}; valid keys: {', '.join(fields) or 'none'}")
        name = fields[key].name
        if name in values:
            raise ConfigError(f"{source} {key} is given twice: give each key once")
        values[name] = convert(key, raw, hints[name], fields[key].metadata)
    for key, switch in (fixed or {}).items():
        if key in values and values[key] != switch:
            raise ConfigError(f"{source} {key}={values[key]!r} contradicts --{key}: give one of them")
        values[key] = switch
    return cls(**values)


def _owner(cls: type) -> str:
    module = cls.__module__.rsplit(".", 1)[-1]
    return f"{module}.{cls.__qualname__}"


def as_dict(spec) -> dict[str, Any]:
    return dataclasses.asdict(spec)


def spec_hash(spec) -> str:
    """8 hex digits over every field (sorted JSON): the ``cfg:`` part of a signature."""
    return sha8(json.dumps(as_dict(spec), sort_keys=True, default=str))


@dataclasses.dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    default: str
    help: str


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "(empty)"
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) and (value == "" or value != value.strip() or "\n" in value) else str(value)


def _number(b: float) -> str:
    return str(int(b)) if float(b).is_integer() else f"{b:g}"


def _bounds(meta: dict) -> str:
    parts = [f"{word} {_number(meta[k])}" for k, word in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")) if meta.get(k) is not None]
    if meta.get("model_max"):
        parts.append(f"<= {MODEL_BOUNDS[meta['model_max']]}")
    return ", ".join(parts)


def describe(cls: type) -> list[FieldDoc]:
    """One row per declared field: name, type with its range, default, help."""
    hints = _hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        kind = type_name(hints[f.name])
        bounds = _bounds(f.metadata)
        rows.append(FieldDoc(field_key(f.name), kind + (f", {bounds}" if bounds else ""), _shown(f.default), f.metadata.get("help", "")))
    return rows


def help_text(cls: type, indent: str = "  ") -> str:
    """The declared fields as plain text for ``--help`` and ``wordbench options``."""
    return "\n".join(f"{indent}{d.name}={d.default}  ({d.type})\n{indent}    {d.help}" for d in describe(cls))


def undeclared(cls: type) -> list[str]:
    """Fields without help (a declaration the tests refuse)."""
    return [f.name for f in dataclasses.fields(cls) if not f.metadata.get("help")]
