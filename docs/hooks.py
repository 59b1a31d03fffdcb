"""MkDocs hook: the tables a page would otherwise copy are generated from the code's declarations at build time.

A page holds a placeholder comment on a line of its own; the build replaces it:

- ``<!-- wordbench:options NAME -->``: benchmark NAME's builder config keys (``--set``) and scoring options
  (``--option``), each with its type and range, default and help, from the declared specs (``wordbench options NAME``);
- ``<!-- wordbench:model-options -->``: the seq2seq model options (``--model-option``);
- ``<!-- wordbench:limitations NAME -->``: the "Known limitations" its dataset card carries (the registry);
- ``<!-- wordbench:benchmarks -->``: every benchmark with its paper, builder version and summary (``wordbench list``);
- ``<!-- wordbench:faithful -->``: what ``--faithful`` changes, per benchmark; ``<!-- wordbench:sampling -->``: what
  ``--limit`` stratifies by, per benchmark;
- ``<!-- wordbench:figure NAME -->``: the page's figure and how ``docs/figures.py`` draws it (model, sample, options).

Every list of benchmarks comes from the registry (their declarations): these tables, the "Benchmarks" section of the
navigation (``on_config``) and the README's generated blocks (``python docs/hooks.py --readme`` rewrites them;
``tests/test_docs.py`` fails when they drift).

An unknown placeholder fails the build. A figure that `docs/figures.py` has not drawn yet (``make test`` builds the
site without drawing them; ``make docs`` draws them first) is replaced by a note saying how to draw it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API_SRC = ROOT / "build" / "api-src"  # mkdocs.yml: mkdocstrings reads the package from here
SUBPACKAGES = {"benchmarks": "benchmarks", "builders": "builders", "scorers": "scorers"}  # pyproject's package-dir


def lay_out_package() -> None:
    """The package as installed, made of symlinks: wordbench/ with benchmarks/, builders/ and scorers/ inside it."""
    package = API_SRC / "wordbench"
    package.mkdir(parents=True, exist_ok=True)
    wanted = {p.name: p for p in (ROOT / "wordbench").iterdir() if p.suffix == ".py"}
    wanted.update({name: ROOT / folder for name, folder in SUBPACKAGES.items()})
    for entry in package.iterdir():
        if entry.name not in wanted or not entry.is_symlink() or entry.resolve() != wanted[entry.name].resolve():
            entry.unlink()
    for name, target in wanted.items():
        if not (package / name).is_symlink():
            (package / name).symlink_to(target)


lay_out_package()  # at import: before mkdocstrings reads anything


def use_this_checkout() -> None:
    """The tables come from the files the API pages are read from: this checkout's, whatever else is installed
    (mkdocs restores sys.path after loading this module, so this runs before the first import)."""
    if str(API_SRC) not in sys.path:
        sys.path.insert(0, str(API_SRC))

PLACEHOLDER = re.compile(r"^<!-- wordbench:([\w-]+)(?: ([\w-]+))? -->$", re.M)
FIGURE = re.compile(r"^!\[[^\]]*\]\(\.\./figures/([\w-]+)\.png\)$", re.M)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _default(value: str) -> str:
    if "|" in value or "`" in value:
        return _cell(value)
    return f"`{value}`"


def spec_table(cls) -> str:
    from wordbench import spec

    rows = spec.describe(cls)
    if not rows:
        return "None.\n"
    lines = ["| key | type | default | what it does |", "|---|---|---|---|"]
    lines += [f"| `{d.name}` | {_cell(d.type)} | {_default(d.default)} | {_cell(d.help)} |" for d in rows]
    return "\n".join(lines) + "\n"


def options(name: str) -> str:
    from wordbench.benchmarks.registry import get

    bench = get(name)
    return (f"Generated from the declarations in the code (`wordbench options {name}` prints the same), "
            f"builder version {bench.version}.\n\n"
            f"**Builder config** (`wordbench build|publish|score {name} --set KEY=VALUE`):\n\n"
            + spec_table(bench.builder_class.Config)
            + f"\n**Scoring options** (`wordbench score {name} --option KEY=VALUE`):\n\n"
            + spec_table(bench.scorer_class.Options))


def model_options(_: str | None) -> str:
    from wordbench.scorers.models.seq2seq import Seq2SeqOptions

    return spec_table(Seq2SeqOptions)


def limitations(name: str) -> str:
    from wordbench.benchmarks.registry import get

    return get(name).limitations.strip() + "\n"


def _registry():
    from wordbench.benchmarks.registry import REGISTRY

    return REGISTRY


def benchmarks(_: str | None) -> str:
    lines = ["| benchmark | paper | builder version | [kind](adding-a-benchmark.md#a-benchmark-of-a-known-kind-one-declaration-beside-one-data-file) | what it measures |", "|---|---|---|---|---|"]
    lines += [f"| [`{b.name}`](benchmarks/{b.name}.md) | {_cell(b.reference)} | {b.version} | {b.kind_label} | {_cell(b.summary)} |"
              for b in _registry().values()]
    return "\n".join(lines) + "\n"


def faithful(_: str | None) -> str:
    lines = ["| benchmark | what `--faithful` changes |", "|---|---|"]
    lines += [f"| `{b.name}` (`{b.paper}`) | {_cell(b.faithful or 'nothing')} |" for b in _registry().values()]
    return "\n".join(lines) + "\n"


def sampling(_: str | None) -> str:
    lines = ["| benchmark | `--limit` strata |", "|---|---|"]
    lines += [f"| `{b.name}` | {_cell(b.sampling or 'none: one seeded sample')} |" for b in _registry().values()]
    return "\n".join(lines) + "\n"


def figure(name: str) -> str:
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "docs" / "figures.py")
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    return (f"![{name}: {figures.figures()[name].plot}](../figures/{name}.png)\n\n"
            f"Drawn from {figures.how(name)} (SMOLLM2 and MINILM stand for the packaged models' paths, which "
            f"`wordbench models` prints). `python docs/figures.py {name}` "
            f"remakes it (`make docs` remakes every benchmark's); every `wordbench score {name}` run writes the same plot, with "
            f"the others, into its run folder's `plots/`. The sample is small: the figure shows what the scorer draws, not "
            f"the paper's numbers.\n")


def nav_benchmarks() -> list[dict]:
    """The navigation's "Benchmarks" section: each registered benchmark's page, in the registry's order."""
    return [{b.title or b.name: f"benchmarks/{b.name}.md"} for b in _registry().values()
            if (ROOT / "docs" / "benchmarks" / f"{b.name}.md").is_file()]


# --- the README's generated blocks ------------------------------------------------------------------------------
README_BLOCK = re.compile(r"(<!-- wordbench:readme-(\w+) -->\n).*?(<!-- /wordbench:readme-\2 -->)", re.S)


def readme_table() -> str:
    lines = ["| benchmark | paper | what it measures | build, then score | docs |", "|---|---|---|---|---|"]
    for b in _registry().values():
        if b.needs_data:
            run = f"`wordbench score {b.name} --data FILE --model M` ({_cell(b.needs_data)})"
        else:
            run = f"`wordbench build {b.name} --out data/{b.name} && wordbench score {b.name} --data data/{b.name} --model M`"
        lines.append(f"| `{b.name}` | {_cell(b.reference)} | {_cell(b.summary)} | {run} | [page](docs/benchmarks/{b.name}.md) |")
    return "\n".join(lines) + "\n"


def readme_pages() -> str:
    links = ", ".join(f"[{b.name}](docs/benchmarks/{b.name}.md)" for b in _registry().values())
    return (f"- one per benchmark ({links}): build, sources offline and online, config keys (generated from the code's "
            "declarations), scoring, `--faithful`, figures and tables, measured fidelity to the paper with the command for "
            "each figure, known limitations;\n")


README_RENDER = {"table": readme_table, "pages": readme_pages}


def render_readme(text: str) -> str:
    """The README with each generated block (between ``<!-- wordbench:readme-KIND -->`` and its closing comment)
    made anew from the registry."""
    use_this_checkout()
    return README_BLOCK.sub(lambda m: m.group(1) + README_RENDER[m.group(2)]() + m.group(3), text)


RENDER = {"options": options, "model-options": model_options, "limitations": limitations, "benchmarks": benchmarks,
          "faithful": faithful, "sampling": sampling, "figure": figure}


def render(markdown: str, where: str = "") -> str:
    use_this_checkout()

    def one(m: re.Match) -> str:
        kind, arg = m.group(1), m.group(2)
        if kind not in RENDER:
            raise ValueError(f"{where}: unknown placeholder wordbench:{kind}")
        return RENDER[kind](arg)

    return PLACEHOLDER.sub(one, markdown)


def missing_figures(markdown: str) -> str:
    def one(m: re.Match) -> str:
        if (ROOT / "docs" / "figures" / f"{m.group(1)}.png").is_file():
            return m.group(0)
        return (f'!!! note "Figure not drawn in this build"\n    `make docs` (or `python docs/figures.py {m.group(1)}`) draws it '
                f"before building the site.")

    return FIGURE.sub(one, markdown)


def on_config(config, **kwargs):
    """The "Benchmarks" section of ``nav`` from the registry (mkdocs.yml holds it empty)."""
    use_this_checkout()
    for entry in config["nav"]:
        if isinstance(entry, dict) and "Benchmarks" in entry:
            entry["Benchmarks"] = nav_benchmarks()
    return config


def on_page_markdown(markdown, page, config, files, **kwargs):
    return missing_figures(render(markdown, page.file.src_path))


if __name__ == "__main__":  # python docs/hooks.py --readme: rewrite the README's generated blocks
    if sys.argv[1:] != ["--readme"]:
        raise SystemExit("usage: python docs/hooks.py --readme")
    readme = ROOT / "README.md"
    readme.write_text(render_readme(readme.read_text()))
