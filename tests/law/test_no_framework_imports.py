"""The law core is pure Python: importing it never pulls Django, Kivy or Shapely."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, json, pkgutil, sys
import taxilaw
names = ["taxilaw"] + [m.name for m in pkgutil.walk_packages(taxilaw.__path__, "taxilaw.")]
for name in names:
    importlib.import_module(name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {"django", "kivy", "shapely"})
print(json.dumps({"modules": names, "bad": bad}))
"""


@pytest.mark.article("Art. 1")
def test_taxilaw_imports_no_framework():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert "taxilaw.compliance" in report["modules"]
    assert report["bad"] == []
