"""The layers: core <- builders <- scorers <- benchmarks. No module imports a layer above its own, builders
import neither torch nor scorers, and no two modules import each other (directly or around a loop), even
through an import inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"wordbench": "wordbench", "builders": "wordbench.builders", "scorers": "wordbench.scorers", "benchmarks": "wordbench.benchmarks"}
LAYER = {"core": 0, "builders": 1, "scorers": 2, "benchmarks": 3}
HEAVY = ("torch", "transformers", "accelerate", "vllm")


def modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYER else "core"


def imports(module: str, path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file, as absolute names."""
    is_package = path.name == "__init__.py"
    base = module.split(".") if is_package else module.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - node.level + 1]
                target = ".".join(anchor + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            out.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import stats` names a module
    return out


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {m: {i for i in imports(m, p) if i in mods and i != m} for m, p in mods.items()}


def test_no_module_imports_a_higher_layer():
    mods = modules()
    wrong = []
    for m, p in mods.items():
        for i in imports(m, p):
            if i.startswith("wordbench") and LAYER[layer(i)] > LAYER[layer(m)]:
                wrong.append(f"{m} -> {i}")
    assert not wrong, wrong


def test_builders_and_core_import_no_model_library():
    wrong = [f"{m} -> {i}" for m, p in modules().items() if layer(m) in ("core", "builders")
             for i in imports(m, p) if i.split(".")[0] in HEAVY]
    assert not wrong, wrong


def test_no_import_cycle():
    g = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(g[m]):
            if state.get(n) == 1:
                cycles.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
    assert not cycles, cycles


def test_the_walk_sees_imports_inside_functions():
    """The checks would miss a hidden import if the walk read module-level imports only."""
    src = "def f():\n    from wordbench.scorers import translate\n"
    tree = ast.parse(src)
    assert any(isinstance(n, ast.ImportFrom) for n in ast.walk(tree))
    mods = modules()
    assert "wordbench.builders.minpairs.builder" in mods and "wordbench.scorers.models.load" in mods
