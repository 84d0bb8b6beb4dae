"""The import contract of pyproject.toml ([tool.importlinter]) holds, and it is not a formality: a copy of
the tree with one forbidden import breaks it."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("taxilaw", "backend", "dispatch", "zones", "driver_app")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}  # the packages of ``root``, before the installed ones
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_tree_keeps_the_import_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("module, line, contract", [
    ("taxilaw/split.py", "import django.db", "taxilaw, the law core"),
    ("backend/registry/services/permits.py", "from dispatch import events", "backend apps never import dispatch"),
    ("driver_app/formatting.py", "import shapely", "the driver app imports only taxilaw"),
    ("zones/geojson.py", "import backend.registry.models", "zones (geometry)"),
    ("dispatch/grid.py", "import driver_app.formatting", "dispatch imports backend apps"),
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
