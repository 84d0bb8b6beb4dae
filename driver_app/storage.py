"""Small JSON files under the app's directory (token, meter state, sync queue).

Writes are atomic (temp file + rename) so a crash mid-write never corrupts
the state the driver needs after a restart.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class JsonStore:
    """``store.load(name, default)`` / ``store.save(name, data)`` / ``store.delete(name)``."""

    def __init__(self, app_dir: os.PathLike | str):
        self.app_dir = Path(app_dir)

    def path(self, name: str) -> Path:
        return self.app_dir / f"{name}.json"

    def load(self, name: str, default: Any = None) -> Any:
        try:
            with open(self.path(name), encoding="utf-8") as fh:
                return json.load(fh)
        except FileNotFoundError:
            return default
        except (OSError, ValueError):  # unreadable: keep the broken file aside, start clean
            try:
                os.replace(self.path(name), self.path(name).with_suffix(".json.broken"))
            except OSError:
                pass
            return default

    def save(self, name: str, data: Any) -> None:
        self.app_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.app_dir, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False, sort_keys=True)
            os.replace(tmp, self.path(name))
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def delete(self, name: str) -> None:
        try:
            os.unlink(self.path(name))
        except FileNotFoundError:
            pass
