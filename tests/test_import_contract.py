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


def layers_contracts() -> dict[str, list[str]]:
    """Each layers contract's layers, by the marker of its picture in docs/architecture.md."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return {" ".join([*c.get("containers", []), "layers"]): c["layers"] for c in contracts if c["type"] == "layers"}


def test_there_are_the_top_level_and_the_backend_layers():
    assert set(layers_contracts()) == {"layers", "backend layers"}


@pytest.mark.parametrize("marker", ["layers", "backend layers"])
def test_the_architecture_picture_is_the_layers_contract(marker):
    """docs/architecture.md draws each layers contract in its order, one layer per line of its picture."""
    parts = (ROOT / "docs" / "architecture.md").read_text().split(f"<!-- {marker} -->")
    assert len(parts) == 3, f"one picture between two <!-- {marker} --> markers"
    drawn = [line.split("  ")[0].strip() for line in parts[1].splitlines() if line and line[0].isalpha()]
    assert drawn == layers_contracts()[marker]


def copy_tree(tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "static", "fonts"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)


@pytest.mark.parametrize("module, line, contract", [
    ("taxilaw/split.py", "import django.db", "taxilaw, the law core"),
    ("taxiwire/shapes.py", "import django.db", "taxiwire, the wire's declarations"),
    ("taxiwire/inbound.py", "import taxilaw.cancellation", "taxiwire, the wire's declarations"),
    ("backend/registry/services/permits.py", "from dispatch import events", "backend apps never import dispatch"),
    ("driver_app/formatting.py", "import shapely", "the driver app imports only taxilaw"),
    ("zones/geojson.py", "import backend.registry.models", "zones (geometry)"),
    ("dispatch/rides/grid.py", "import driver_app.formatting", "dispatch imports backend apps"),
    ("backend/registry/services/permits.py", "import config.urls", "backend apps never import dispatch"),
    ("dispatch/rides/grid.py", "import config.settings", "the project's layers"),
    ("zones/geojson.py", "import driver_app.formatting", "the project's layers"),
    ("backend/registry/services/permits.py", "import backend.enforcement.selectors", "the backend apps' layers"),
    ("backend/tariffs/services.py", "import backend.registry.selectors", "the backend apps' layers"),
    ("backend/api/permissions.py", "import backend.trips.models", "the backend apps' layers"),
    ("backend/trips/admin.py", "import backend.receipts.receipts", "the backend apps' layers"),
    ("backend/ranks/services/ranks.py", "import backend.trips.models", "the backend apps' layers"),
])
def test_a_forbidden_import_breaks_the_contract(tmp_path, module, line, contract):
    copy_tree(tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text("utf-8") + f"\n{line}  # injected by the test\n", "utf-8")
    result = lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    report = " ".join(result.stdout.split())  # contract names wrap in the report
    assert re.search(re.escape(contract) + r"((?! KEPT ).)*? BROKEN", report), result.stdout


def test_a_backend_app_without_a_place_in_the_layers_breaks_the_contract(tmp_path):
    """The backend contract is exhaustive: a new app must be given its layer (and its line in the picture)."""
    copy_tree(tmp_path)
    (tmp_path / "backend" / "newcomer").mkdir()
    (tmp_path / "backend" / "newcomer" / "__init__.py").write_text("", "utf-8")
    result = lint_imports(tmp_path)
    assert result.returncode != 0 and "backend.newcomer" in result.stdout, result.stdout
