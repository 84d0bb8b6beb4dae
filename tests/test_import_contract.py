"""The import contract of pyproject.toml ([tool.importlinter]) holds, and it is not a formality: a copy of
the tree with one forbidden import breaks it."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("taxilaw", "taxiwire", "config", "backend", "dispatch", "zones", "driver_app")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}  # the packages of ``root``, before the installed ones
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_tree_keeps_the_import_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_architecture_picture_is_the_layers_contract():
    """docs/architecture.md draws the layers in the contract's order, one per line of its picture."""
    layers = next(c["layers"] for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
                  if c["type"] == "layers")
    picture = (ROOT / "docs" / "architecture.md").read_text().split("<!-- layers -->")[1]
    drawn = [line.split("  ")[0].strip() for line in picture.splitlines() if line and line[0].isalpha()]
    assert drawn == layers


@pytest.mark.parametrize("module, line, contract", [
    ("taxilaw/split.py", "import django.db", "taxilaw, the law core"),
    ("taxiwire/shapes.py", "import django.db", "taxiwire, the wire's declarations"),
    ("taxiwire/inbound.py", "import taxilaw.cancellation", "taxiwire, the wire's declarations"),
    ("backend/registry/services/permits.py", "from dispatch import events", "backend apps never import dispatch"),
    ("driver_app/formatting.py", "import shapely", "the driver app imports only taxilaw"),
    ("zones/geojson.py", "import backend.registry.models", "zones (geometry)"),
    ("dispatch/grid.py", "import driver_app.formatting", "dispatch imports backend apps"),
    ("backend/registry/services/permits.py", "import config.urls", "backend apps never import dispatch"),
    ("dispatch/grid.py", "import config.settings", "the project's layers"),
    ("zones/geojson.py", "import driver_app.formatting", "the project's layers"),
])
def test_a_forbidden_import_breaks_the_contract(tmp_path, module, line, contract):
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "static", "fonts"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text("utf-8") + f"\n{line}  # injected by the test\n", "utf-8")
    result = lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    report = " ".join(result.stdout.split())  # contract names wrap in the report
    assert re.search(re.escape(contract) + r"((?! KEPT ).)*? BROKEN", report), result.stdout
