"""The documentation's generated parts: every benchmark page holds the placeholders the build fills from the code's
declarations, and the hook renders every declared key (`make docs` / `mkdocs build --strict` builds the site)."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _figures():
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "docs" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_page(name: str) -> None:
    """Benchmark NAME's page renders from the declarations: every config key and option, the limitations, the figure."""
    from wordbench import spec
    from wordbench.benchmarks.contract import page_path
    from wordbench.benchmarks.registry import get

    bench = get(name)
    page = page_path(bench).read_text()
    for kind in ("options", "limitations") + (("figure",) if bench.figure else ()):
        assert f"<!-- wordbench:{kind} {name} -->" in page, kind
    rendered = _hooks().render(page, name)
    if bench.figure:
        assert name in _figures().figures()
        assert f"](../figures/{name}.png)" in rendered and f"python docs/figures.py {name}" in rendered
    for cls in (bench.builder_class.Config, bench.scorer_class.Options):
        for field in spec.describe(cls):
            assert re.search(rf"^\| `{field.name}` \|", rendered, re.M), (name, field.name)
    assert bench.limitations.strip().splitlines()[0] in rendered
    assert "<!-- wordbench:" not in rendered


def registered() -> list[str]:
    from wordbench.benchmarks.registry import REGISTRY

    return list(REGISTRY)


@pytest.mark.parametrize("name", registered())
def test_benchmark_page_is_generated_from_the_declarations(name):
    check_page(name)


def test_every_registered_benchmark_follows_the_contract():
    from wordbench.benchmarks.contract import problems
    from wordbench.benchmarks.registry import REGISTRY

    assert [line for bench in REGISTRY.values() for line in problems(bench)] == []


def test_the_generated_lists_name_every_benchmark():
    """The index and concepts tables, the figure list and the README's blocks come from the registry, in its order."""
    from wordbench.benchmarks.registry import REGISTRY

    hooks = _hooks()
    for table in (hooks.benchmarks(None), hooks.faithful(None), hooks.sampling(None), hooks.readme_table(), hooks.readme_pages()):
        assert [n for n in REGISTRY if f"`{n}`" in table or f"[{n}]" in table] == list(REGISTRY), table
    assert list(_figures().figures()) == [n for n, b in REGISTRY.items() if b.figure]
    readme = (ROOT / "README.md").read_text()
    assert hooks.render_readme(readme) == readme, "the README's generated blocks drifted: run python docs/hooks.py --readme"
    for page in ("index.md", "concepts.md"):
        assert "<!-- wordbench:" in (ROOT / "docs" / page).read_text()
    assert " six " not in readme.split("## Two commands")[0], "the README counts the benchmarks by hand"


def test_an_unknown_placeholder_fails_the_build():
    with pytest.raises(ValueError, match="unknown placeholder"):
        _hooks().render("<!-- wordbench:nope x -->\n", "page.md")


def test_every_page_is_in_the_nav():
    """mkdocs.yml lists every page but the benchmarks', which the build's hook takes from the registry."""
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    generated = {path for entry in _hooks().nav_benchmarks() for path in entry.values()}
    assert re.search(r"^  - Benchmarks: \[\]", nav, re.M)
    assert pages == set(re.findall(r":\s+([\w/-]+\.md)$", nav, re.M)) | generated


def test_the_guide_names_model_methods_and_declaration_fields_that_exist():
    """docs/adding-a-benchmark.md's table of model methods and its Headline / Figure signatures follow the code."""
    import dataclasses
    import re

    from wordbench.declaration import Figure, Headline
    from wordbench.scorers.models.causal import CausalLM
    from wordbench.scorers.models.masked import MaskedLM
    from wordbench.scorers.models.seq2seq import Seq2SeqLM

    guide = (ROOT / "docs" / "adding-a-benchmark.md").read_text()
    named = set(re.findall(r"`model\.(\w+)", guide))
    assert {"sequence_logprobs", "hidden_states", "num_layers", "generate"} <= named
    assert [m for m in named if not any(hasattr(cls, m) for cls in (CausalLM, MaskedLM, Seq2SeqLM))] == []
    for cls in (Headline, Figure):
        fields = [f.name for f in dataclasses.fields(cls)]
        assert f"`{cls.__name__}({fields[0]}, " in guide and all(f in guide for f in fields), cls
