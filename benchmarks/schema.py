"""Data checked against the benchmark's declared schema (``Builder.schema``) before any model loads."""

from __future__ import annotations

import datasets
import pyarrow as pa

from wordbench.errors import DataFormatError
from wordbench.text import invisible_char, invisible_re2

NUMERIC = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64")


def _arrow(feature) -> pa.DataType:
    return datasets.Features({"x": feature}).arrow_schema.field("x").type


def _numeric(feature) -> bool:
    return isinstance(feature, datasets.Value) and feature.dtype in NUMERIC


class CheckedData(dict):
    """{config: DatasetDict} as ``check_data`` passed it; ``invisible_text`` counts, per config and free-text column,
    the strings holding a character a model cannot see (kept as published): {config: {column: strings}}."""

    def __init__(self, data=(), invisible_text: dict[str, dict[str, int]] | None = None):
        super().__init__(data)
        self.invisible_text = invisible_text or {}


def invisible_text_line(counts: dict[str, dict[str, int]]) -> str:
    """The counts of ``CheckedData.invisible_text`` in one line; empty when there are none."""
    parts = [f"{config}/{column}: {n:,}" for config, columns in counts.items() for column, n in columns.items()]
    return ("free text holding characters a model cannot see (zero-width, soft hyphen, control, default-ignorable), "
            "kept as published: " + ", ".join(parts)) if parts else ""


def check_data(name: str, schema: dict[str, datasets.Features], data: dict[str, datasets.DatasetDict],
               where: str, labels: dict[str, tuple[str, ...]] | None = None,
               defaults: dict[str, object] | None = None, row_problem=None,
               free_text: frozenset[str] = frozenset()) -> CheckedData:
    """``data`` with every declared column present and of its declared type (numbers of another width are
    cast); a missing config or column, a wrong type, a column with no value, no rows at all, or an id missing or
    repeated is a one-line error naming ``where``. A missing column named in ``defaults`` (one a later builder
    version added) is added with its value: data published before it existed still loads.
    Characters a model cannot see are refused in a compared string column and counted in a ``free_text`` one."""
    if not schema:
        return CheckedData(data)
    invisible: dict[str, dict[str, int]] = {}
    if "default" in schema and "default" not in data:
        raise DataFormatError(f"{where}: no 'default' config of {name} data (found: {', '.join(data) or 'nothing'})")
    out = {}
    for config, dsd in data.items():
        declared = schema.get(config)
        if declared is None:
            out[config] = dsd
            continue
        checked = {}
        for split, ds in dsd.items():
            for column in [c for c in declared if c not in ds.column_names and c in (defaults or {})]:
                ds = ds.add_column(column, [defaults[column]] * len(ds), feature=declared[column])
            missing = [c for c in declared if c not in ds.column_names]
            if missing:
                raise DataFormatError(f"{where}: {config}/{split} lacks the column(s) {', '.join(missing)} that {name} declares")
            for column, feature in declared.items():
                actual = ds.features[column]
                actual_type = _arrow(actual)
                if actual == feature or actual_type == _arrow(feature):
                    continue
                if labels and column in labels and pa.types.is_integer(actual_type):
                    # class ids whose ClassLabel names a tool dropped (a parquet rewritten without its metadata)
                    ds = _names_from_ids(ds, column, labels[column], f"{where}: column '{column}' of {config}/{split}")
                    continue
                if str(actual_type) == "null":  # every value missing
                    raise DataFormatError(f"{where}: column '{column}' of {config}/{split} holds no value at all "
                                          f"({name} declares {_describe(feature)})")
                if (_numeric(actual) and _numeric(feature)) or "null" in str(actual_type):
                    # another number width, or lists that are all empty (arrow types them list<null>)
                    try:
                        ds = ds.cast_column(column, feature)
                    except (ValueError, TypeError, pa.ArrowException) as exc:
                        raise DataFormatError(f"{where}: column '{column}' of {config}/{split} cannot be read as "
                                              f"{_describe(feature)}: {str(exc).splitlines()[0]}") from None
                    continue
                raise DataFormatError(f"{where}: column '{column}' of {config}/{split} is {_describe(actual)}, "
                                      f"but {name} declares {_describe(feature)}")
            checked[split] = ds
        if config == "default" and sum(ds.num_rows for ds in checked.values()) == 0:
            raise DataFormatError(f"{where}: the {config} config of {name} data has no rows")
        if "id" in declared:  # records are keyed by id: two rows with one id would share one record
            seen: dict[str, tuple[str, int]] = {}
            for split, ds in checked.items():
                ids = ds.data.column("id")
                if ids.null_count:
                    raise DataFormatError(f"{where}: {config}/{split} has rows without an id")
                for n, ident in enumerate(ids.to_pylist()):  # the Arrow column at once: a Dataset column reads row by row
                    if ident in seen:
                        first = seen[ident]
                        raise DataFormatError(f"{where}: the id {ident!r} appears twice in the {config} config "
                                              f"({first[0]} row {first[1]} and {split} row {n + 1})")
                    seen[ident] = (split, n + 1)
        strings = [c for c, f in declared.items() if _holds_text(f)]
        for split, ds in checked.items():
            _check_visible(ds, [c for c in strings if c not in free_text], f"{where}: {config}/{split}")
            for column, n in _count_invisible(ds, [c for c in strings if c in free_text]).items():
                counts = invisible.setdefault(config, {})
                counts[column] = counts.get(column, 0) + n
            problem = row_problem(config, ds.data.table) if row_problem else None
            if problem:
                raise DataFormatError(f"{where}: {config}/{split} {problem}")
        out[config] = datasets.DatasetDict(checked)
    return CheckedData(out, invisible)


def _holds_text(feature) -> bool:
    inner = getattr(feature, "feature", feature)  # a sequence's items
    return getattr(inner, "dtype", None) in ("string", "large_string")


def _strings(ds: datasets.Dataset, column: str):
    """The column's strings as one Arrow array (lists flattened)."""
    import pyarrow.compute as pc

    array = ds.data.column(column)
    while pa.types.is_list(array.type) or pa.types.is_large_list(array.type):
        array = pc.list_flatten(array)
    return array


def _check_visible(ds: datasets.Dataset, columns: list[str], where: str) -> None:
    """Every string of ``columns`` (compared or looked up) is text a model can see: a key or target with a zero-width
    space could never be matched and would score as a miss without a word, so it is one line naming the row, the column
    and the character."""
    import pyarrow.compute as pc

    for column in columns:
        if not pc.any(pc.match_substring_regex(_strings(ds, column), invisible_re2())).as_py():  # the common case
            continue
        values = ds[column]
        for n, value in enumerate(values):
            for text in value if isinstance(value, list) else [value]:
                found = invisible_char(text) if isinstance(text, str) else None
                if found:
                    ident = ds[n]["id"] if "id" in ds.column_names else n + 1
                    raise DataFormatError(f"{where} row {n + 1} (id {ident}), column '{column}': {found} in {text!r}; "
                                          "a model never sees it, so the string can never match: remove it from the data")


def _count_invisible(ds: datasets.Dataset, columns: list[str]) -> dict[str, int]:
    """{column: strings holding a character a model cannot see} of free-text ``columns`` (those with none left out)."""
    import pyarrow.compute as pc

    out = {}
    for column in columns:
        n = pc.sum(pc.match_substring_regex(_strings(ds, column), invisible_re2())).as_py() or 0
        if n:
            out[column] = n
    return out


def _names_from_ids(ds: datasets.Dataset, column: str, names: tuple[str, ...], where: str) -> datasets.Dataset:
    ids = ds[column]
    bad = sorted({i for i in ids if i is not None and not 0 <= i < len(names)})
    if bad:
        raise DataFormatError(f"{where} holds class ids {bad[:5]} outside its {len(names)} declared values {list(names)}")
    return _as_strings(ds, column, [None if i is None else names[i] for i in ids])


def _as_strings(ds: datasets.Dataset, column: str, values: list) -> datasets.Dataset:
    """``ds`` with ``column`` replaced by the string ``values``, in its place among the columns."""
    return ds.remove_columns(column).add_column(column, values, feature=datasets.Value("string")).select_columns(ds.column_names)


def published_features(features: datasets.Features, labels: dict[str, tuple[str, ...]]) -> datasets.Features:
    """``features`` with each categorical column a ``ClassLabel`` of its declared values."""
    return datasets.Features({c: datasets.ClassLabel(names=list(labels[c])) if c in labels else f for c, f in features.items()})


def encode_labels(ds: datasets.Dataset, labels: dict[str, tuple[str, ...]]) -> datasets.Dataset:
    """The string columns of ``labels`` as ``ClassLabel`` ids; a value outside the declared ones is an error."""
    for column, names in labels.items():
        if column in ds.column_names and isinstance(ds.features[column], datasets.Value):
            unknown = set(ds.unique(column)) - set(names) - {None}
            if unknown:
                raise DataFormatError(f"column '{column}' holds {sorted(unknown)!r}, not among its declared values {list(names)}")
            ds = ds.cast_column(column, datasets.ClassLabel(names=list(names)))
    return ds


def decode_labels(dsd: datasets.DatasetDict) -> datasets.DatasetDict:
    """Every ``ClassLabel`` column read back as its names (the scorers and the schema work on strings)."""
    out = {}
    for split, ds in dsd.items():
        for column, feature in list(ds.features.items()):
            if isinstance(feature, datasets.ClassLabel):
                names, ids = feature.names, ds.with_format("arrow")[column].to_pylist()  # not int2str per row: ~35 µs each
                bad = next((i for i in ids if i is not None and i >= len(names)), None)
                if bad is not None:
                    raise DataFormatError(f"column '{column}' holds class id {bad}; its declared values are {list(names)}")
                ds = _as_strings(ds, column, [None if i is None or i < 0 else names[i] for i in ids])
        out[split] = ds
    return datasets.DatasetDict(out)


def type_name(feature) -> str:
    """A column's type in words, for the card's Data Fields table."""
    if isinstance(feature, datasets.ClassLabel):
        return "class label: " + ", ".join(f"`{n}`" for n in feature.names)
    return _describe(feature).replace("a list of", "list of")


def _describe(feature) -> str:
    if isinstance(feature, datasets.Value):
        return feature.dtype
    inner = getattr(feature, "feature", None)
    if inner is not None:
        return f"a list of {_describe(inner)}"
    if isinstance(feature, dict):
        return "a struct"
    return type(feature).__name__
