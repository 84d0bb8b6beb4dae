"""The app's logic imports no Kivy, Django or Shapely; buildozer.spec is phone-ready."""

import configparser
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, json, sys
for name in ["driver_app.viewmodels", "driver_app.session", "driver_app.clients", "driver_app.gps",
             "driver_app.formatting", "driver_app.storage", "driver_app.sound", "driver_app.payment_clients"]:
    importlib.import_module(name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {"django", "kivy", "shapely", "rest_framework"})
print(json.dumps(bad))
"""


def test_view_models_import_no_kivy_django_or_shapely():
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_one_kv_file_per_screen():
    kv = {p.name for p in (ROOT / "driver_app" / "kv").glob("*.kv")}
    assert {"login.kv", "cards.kv", "flag.kv", "meter.kv", "offer.kv", "split.kv"} <= kv


def test_buildozer_spec():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "driver_app" / "buildozer.spec", encoding="utf-8")
    app = cfg["app"]
    perms = {p.strip() for p in app["android.permissions"].split(",")}
    assert {"ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION", "INTERNET", "ACCESS_NETWORK_STATE"} <= perms
    reqs = {r.strip().split("==")[0].lower() for r in app["requirements"].split(",")}
    assert {"kivy", "plyer", "geographiclib", "holidays"} <= reqs and "geopy" not in reqs
    assert "phonenumberslite" in reqs and "phonenumbers" not in reqs  # taxilaw.brazil: the pure-Python, metadata-light build
    assert not reqs & {"shapely", "django", "djangorestframework", "psycopg", "channels"}
    assert (ROOT / "driver_app" / "main.py").exists()
    assert "wav" in {e.strip() for e in app["source.include_exts"].split(",")}  # the offer's chime travels


def test_the_offer_sound_is_package_data():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert "*.wav" in data["*"] and (ROOT / "driver_app" / "sounds" / "offer.wav").stat().st_size < 64_000


@pytest.mark.parametrize("argv", [["--help"]])
def test_cli_help(argv):
    out = subprocess.run([sys.executable, "-m", "driver_app", *argv], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert out.returncode == 0 and "--demo" in out.stdout and "--api" in out.stdout


def test_the_android_staging_copies_every_package_the_app_imports():
    """The APK is built from a staging directory (buildozer.spec's header): the law core and the wire go with the app."""
    import ast

    imported = set()
    for path in (ROOT / "driver_app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
    ours = imported & {"taxilaw", "taxiwire", "backend", "dispatch", "zones", "config"}
    assert ours == {"taxilaw", "taxiwire"}
    staging = next(line for line in (ROOT / "driver_app" / "buildozer.spec").read_text(encoding="utf-8").splitlines()
                   if "cp -r driver_app" in line)
    assert all(f" {package}" in staging for package in ours), staging
