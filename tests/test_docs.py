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


@pytest.mark.parametrize("name", ["wnlampro", "wordpred", "paraphrase", "tendencies", "vast", "minpairs"])
def test_benchmark_page_is_generated_from_the_declarations(name):
    from wordbench import spec
    from wordbench.benchmarks.registry import get

    page = (ROOT / "docs" / "benchmarks" / f"{name}.md").read_text()
    for kind in ("options", "limitations", "figure"):
        assert f"<!-- wordbench:{kind} {name} -->" in page, kind
    assert name in _figures().FIGURES
    rendered = _hooks().render(page, name)
    assert f"](../figures/{name}.png)" in rendered and f"python docs/figures.py {name}" in rendered
    bench = get(name)
    for cls in (bench.builder_class.Config, bench.scorer_class.Options):
        for field in spec.describe(cls):
            assert re.search(rf"^\| `{field.name}` \|", rendered, re.M), (name, field.name)
    assert bench.limitations.strip().splitlines()[0] in rendered
    assert "<!-- wordbench:" not in rendered


def test_an_unknown_placeholder_fails_the_build():
    with pytest.raises(ValueError, match="unknown placeholder"):
        _hooks().render("<!-- wordbench:nope x -->\n", "page.md")


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages == set(re.findall(r":\s+([\w/-]+\.md)$", nav, re.M))
