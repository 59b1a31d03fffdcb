import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(project["tool"]["setuptools"]["packages"])
    found = {"wordbench." + str(p.parent.relative_to(ROOT)).replace("/", ".")
             for top in ("builders", "benchmarks", "scorers") for p in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, f"unlisted packages: {sorted(found - listed)}"
    mapping = project["tool"]["setuptools"]["package-dir"]
    assert {mapping[f"wordbench.{top}"] for top in ("builders", "benchmarks", "scorers")} == {"builders", "benchmarks", "scorers"}


def test_every_data_file_beside_a_module_ships_by_its_kind():
    """package-data names kinds of file, not files: a benchmark's data file beside its builder ships with no edit."""
    from fnmatch import fnmatch

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    data = [p for top in ("builders", "benchmarks", "scorers", "wordbench") for p in (ROOT / top).rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert data and [p for p in data if not any(fnmatch(p.name, g) for g in globs)] == []


def test_builders_do_not_import_torch():
    code = "import sys, wordbench.builders.wnlampro, wordbench.benchmarks.hub, wordbench.benchmarks.registry; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
