"""The declared options: every Config and Options field is typed, ranged and documented once, and the one
parser refuses what the declaration does not allow, naming the field, in one line."""

from __future__ import annotations

import dataclasses
import math
import typing

import pytest

from wordbench import spec
from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.registry import REGISTRY
from wordbench.errors import ConfigError
from wordbench.scorers.models.seq2seq import Seq2SeqOptions


def declared_classes():
    out = []
    for name, bench in REGISTRY.items():
        out.append((f"{name}.Config", bench.builder_class.Config))
        out.append((f"{name}.Options", bench.scorer_class.Options))
    out.append(("seq2seq.ModelOptions", Seq2SeqOptions))
    return out


CLASSES = declared_classes()


@pytest.mark.parametrize("label,cls", CLASSES, ids=[c[0] for c in CLASSES])
def test_every_field_is_declared_with_help_and_a_valid_default(label, cls):
    assert issubclass(cls, spec.Spec), label
    assert spec.undeclared(cls) == [], f"{label}: fields without help"
    cls()  # the defaults pass their own declaration
    for doc in spec.describe(cls):
        assert doc.type and doc.help and "\n" not in doc.help


def bad_values(field: dataclasses.Field, hint) -> list[str]:
    """Command-line values the declaration must refuse."""
    base, nullable = spec._optional(hint)
    meta = field.metadata
    arms = typing.get_args(base) if typing.get_origin(base) is typing.Union else (base,)
    out = []
    for arm in arms:
        origin = typing.get_origin(arm)
        if arm is bool:
            out += ["maybe", "2"]
        elif arm in (int, float):
            if not any(typing.get_origin(a) is typing.Literal for a in arms):
                out += ["abc"]
            if arm is int and int in arms and float not in arms:
                out += ["1.5"]
            if arm is float and meta.get("finite", True):
                out += ["nan", "inf", "-inf"]
            for key, delta in (("ge", -1), ("gt", 0), ("le", 1), ("lt", 0)):
                if meta.get(key) is not None:
                    b = meta[key]
                    out.append(str(b + delta) if arm is float or float(b).is_integer() else str(math.floor(b) + delta))
        elif origin is typing.Literal:
            if not any(a in (int, float) for a in arms) and not any(typing.get_origin(a) is tuple for a in arms):
                out.append("no-such-choice")
        elif origin is tuple:
            item = typing.get_args(arm)[0]
            if typing.get_origin(item) is typing.Literal:
                out.append("no-such-choice")
            first = str(field.default[0]) if isinstance(field.default, tuple) and field.default else "x"
            out.append(f"{first},,{first}")
            out.append(f"{first},{first}")  # an item twice
        elif arm is str and meta.get("nonempty") and not nullable:
            out.append(" ")
    if meta.get("nonempty") and not nullable and typing.get_origin(base) is tuple:
        out.append("")
    return [v for v in out if v is not None]


def field_cases():
    cases = []
    for label, cls in CLASSES:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            for value in bad_values(f, hints[f.name]):
                cases.append(pytest.param(cls, f.name, value, id=f"{label}.{f.name}={value!r}"))
    return cases


@pytest.mark.parametrize("cls,key,value", field_cases())
def test_a_value_outside_the_declaration_is_refused_naming_the_field(cls, key, value):
    if value == " ":
        value = ""  # a nonempty text field given nothing
    with pytest.raises(ConfigError) as exc:
        spec.parse(cls, [f"{key}={value}"], source="--set")
    message = str(exc.value)
    assert key in message and "\n" not in message, message


def test_the_walk_covers_every_kind_of_check():
    """The generic test above must reach each kind: types, ranges, choices, lists, non-finite numbers."""
    values = [p.values[2] for p in field_cases()]
    for needle in ("nan", "inf", "abc", "1.5", "maybe", "no-such-choice", "-1", "0"):
        assert needle in values, needle
    assert any(",," in v for v in values)


# --- the cases the issue names ----------------------------------------------------------------------------
def config(name):
    return REGISTRY[name].builder_class.Config


@pytest.mark.parametrize("name,items,needle", [
    ("wnlampro", ["rare_below=1000", "frequent_from=10"], "rare_below (1000) must be below frequent_from (10)"),
    ("wnlampro", ["rare_below=nan"], "'rare_below' must be a finite number"),
    ("wnlampro", ["senses=0"], "'senses' must be >= 1"),
    ("wnlampro", ["hypernym_min_targets=30"], "must not exceed hypernym_max_targets"),
    ("vast", ["scale_low=-inf", "scale_high=inf"], "'scale_low' must be a finite number"),
    ("vast", ["scale_low=1"], "give scale_low and scale_high together"),
    ("vast", ["settings=bleached,nope"], "'settings'"),
    ("wnlampro", ["seed=-1"], "'seed' must be >= 0"),
    ("wnlampro", ["seed=12345678901234567890"], "'seed' must be <= 4294967295"),
    ("wnlampro", ["senses=2", "senses=3"], "senses is given twice"),
    ("minpairs", ["phenomena=np_agreement,nope"], "'phenomena'"),
    ("minpairs", ["mt_shares=1,2"], "needs one non-negative share per MT system"),
])
def test_named_config_cases(name, items, needle):
    with pytest.raises(ConfigError) as exc:
        spec.parse(config(name), items)
    assert needle in str(exc.value), str(exc.value)


@pytest.mark.parametrize("value,needle", [("1.5", "'top_p' must be <= 1"), ("nan", "'top_p' must be a finite number"),
                                          ("0", "'top_p' must be > 0")])
def test_tendencies_top_p(value, needle):
    with pytest.raises(ConfigError, match=needle):
        REGISTRY["tendencies"].scorer(top_p=value)


def test_tendencies_beams_and_python_keywords():
    with pytest.raises(ConfigError, match="'beams' must be >= 1"):
        REGISTRY["tendencies"].scorer(beams=0)
    assert REGISTRY["tendencies"].scorer(strategies="nucleus,beam").strategies == ["nucleus", "beam"]
    assert REGISTRY["tendencies"].scorer(strategies=["greedy"]).strategies == ["greedy"]


def test_python_construction_is_checked_like_the_command_line():
    with pytest.raises(ConfigError, match="'senses' must be >= 1"):
        config("wnlampro")(senses=0)
    with pytest.raises(ConfigError, match="'window' expects an integer"):
        config("vast")(window="ten")
    assert config("wnlampro")(rare_below=5).rare_below == 5.0  # an int where a float is declared is widened
    assert config("vast")(union_lexica="a.csv,b.csv").union_lexica == ("a.csv", "b.csv")  # the old comma form


def test_faithful_switch_and_set_must_agree():
    with pytest.raises(ConfigError, match="faithful=False contradicts --faithful"):
        spec.parse(config("wnlampro"), ["faithful=false"], fixed={"faithful": True})
    assert spec.parse(config("wnlampro"), ["faithful=true"], fixed={"faithful": True}).faithful
    assert spec.parse(config("wnlampro"), [], fixed={"faithful": True}).faithful


def test_cli_refuses_repeats_and_contradictions(tmp_path):
    from click.testing import CliRunner

    runner = CliRunner()
    for args, needle in [
        (["build", "wnlampro", "--faithful", "--set", "faithful=false", "--out", str(tmp_path / "x")], "contradicts --faithful"),
        (["build", "wnlampro", "--set", "senses=2", "--set", "senses=3"], "given twice"),
        (["score", "vast", "--model", "x", "--option", "pool=last", "--option", "pool=max"], "given twice"),
        (["score", "vast", "--model", "x", "--faithful", "--option", "faithful=false"], "contradicts --faithful"),
        (["score", "vast", "--model", "x", "--option", "null_pcs=-2"], "'null_pcs'"),
        (["score", "minpairs", "--model", "x", "--model-option", "infill=nope"], "'infill' must be one of"),
    ]:
        result = runner.invoke(cli, args)
        assert result.exit_code == 1 and needle in result.output and "Traceback" not in result.output, (args, result.output)
        assert len([line for line in result.output.splitlines() if line.startswith("Error:")]) == 1


def test_help_and_list_document_every_option():
    from click.testing import CliRunner

    runner = CliRunner()
    help_text = runner.invoke(cli, ["score", "--help"], terminal_width=200).output
    for name, bench in REGISTRY.items():
        for doc in spec.describe(bench.scorer_class.Options):
            assert f"{doc.name}=" in help_text, (name, doc.name)
        listing = runner.invoke(cli, ["list", name]).output
        same = runner.invoke(cli, ["options", name]).output
        assert listing == same
        for doc in spec.describe(bench.builder_class.Config) + spec.describe(bench.scorer_class.Options):
            assert f"  {doc.name}=" in listing and doc.help[:30] in listing.replace("\n      ", " "), (name, doc.name)
    for doc in spec.describe(Seq2SeqOptions):
        assert f"{doc.name}=" in help_text
    for word in ("word_start_only", "null_pcs", "pca_basis", "pool"):
        assert word in help_text
    # --limit's strata come from each scorer (its stratum's docstring, or its limit_help), not from a list by hand
    from wordbench.benchmarks.cli import strata_text

    strata = help_text[help_text.index("--limit samples, stratified by"):]
    for name, bench in REGISTRY.items():
        text = strata_text(bench.scorer_class)
        assert "undocumented" not in text and f"{name}  " in strata and text[:40] in " ".join(strata.split()), name


def test_list_versions_are_the_builders():
    from click.testing import CliRunner

    out = CliRunner().invoke(cli, ["list"]).output
    for name, bench in REGISTRY.items():
        assert f"{name}@{bench.builder_class.version} " in out
        assert bench.builder_class.name == name and bench.scorer_class.name == name


def test_list_version_equals_build_signature_and_card(wnlampro_build):
    """One version, read by `wordbench list`, the build signature and the dataset card alike."""
    from click.testing import CliRunner

    folder, meta = wnlampro_build
    version = REGISTRY["wnlampro"].version
    assert f"wnlampro@{version} " in CliRunner().invoke(cli, ["list"]).output
    assert meta["signature"].startswith(f"wnlampro@{version}|") and meta["builder_version"] == version
    card = (folder / "README.md").read_text()
    assert f"version {version}" in card
    for name, bench in REGISTRY.items():  # every benchmark: the registry holds no version of its own
        assert "version" not in {f.name for f in dataclasses.fields(bench)}
        assert bench.version == bench.builder_class.version


def test_review_cases_are_refused_or_accepted_as_declared(tmp_path):
    """Found by an independent reading: shares may repeat, values are quoted, option rules are declared."""
    cfg = config("minpairs")
    assert spec.parse(cfg, ["references=human,mt", "mt_translations=a.de,b.de", "mt_shares=1,1"]).mt_shares == (1.0, 1.0)
    with pytest.raises(ConfigError) as exc:
        spec.parse(config("wnlampro"), ["cohyponym_path=keyword\nfoo"])
    assert "\n" not in str(exc.value) and "'keyword\\nfoo'" in str(exc.value)
    with pytest.raises(ConfigError, match="vLLM has no beam sampling"):
        REGISTRY["tendencies"].scorer(backend="vllm")
    assert REGISTRY["tendencies"].scorer(backend="vllm", strategies="ancestral,nucleus").options.backend == "vllm"
    with pytest.raises(ConfigError, match="'finetune': corpus .* does not exist"):
        REGISTRY["wordpred"].scorer(finetune=str(tmp_path / "nope.txt"))
    with pytest.raises(ConfigError, match="templates exist in English only"):
        spec.parse(config("vast"), ["language=pt", "settings=aligned"])


def test_cli_review_cases(tiny_models, tmp_path):
    from click.testing import CliRunner

    runner = CliRunner()
    result = runner.invoke(cli, ["list", "nope"])
    assert result.exit_code == 1 and "unknown benchmark 'nope'" in result.output and "Traceback" not in result.output
    # baseline=none is no baseline: the model is then required, and checked first
    result = runner.invoke(cli, ["score", "tendencies", "--model", str(tmp_path / "no-model"), "--option", "baseline=none",
                                 "--out", str(tmp_path / "runs")])
    assert result.exit_code == 1 and "does not exist" in result.output
    result = runner.invoke(cli, ["score", "vast", "--model", str(tiny_models["bert"]), "--option", "layer=99", "--out", str(tmp_path / "r"),
                                 "--data", str(tmp_path / "never-read")])
    assert result.exit_code == 1 and "layer=99" in result.output and "layers 0..2" in result.output


def test_a_keyword_field_is_given_by_the_keyword():
    """A field named after a Python keyword is spelled with a trailing underscore and given as the keyword."""

    @dataclasses.dataclass
    class Cfg(spec.Spec):
        import_: str | None = spec.opt(None, "a folder")
        size: int = spec.opt(1, "a size", ge=1)

    assert spec.parse(Cfg, ["import=here"]).import_ == "here"
    assert spec.parse(Cfg, {"import_": "there"}).import_ == "there"  # Python's own name, from a dict
    assert [d.name for d in spec.describe(Cfg)] == ["import", "size"]
    with pytest.raises(ConfigError, match="given twice"):
        spec.parse(Cfg, ["import=a", "import=b"])
    with pytest.raises(ConfigError, match="valid keys: import, size"):
        spec.parse(Cfg, ["imports=a"])
