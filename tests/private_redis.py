"""A private ``redis-server`` the fault tests may stop and restart (never the shared one on 6379)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """``redis-server`` on a free port, without persistence: a restart loses every key, as a real one without
    a dump does (channels-redis' group memberships included)."""

    def __init__(self):
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed on this machine")
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.answers():
                return
            time.sleep(0.05)
        raise TimeoutError(f"redis-server did not answer on {self.port}")

    def kill(self) -> None:
        """SIGKILL: what a crash or an out-of-memory kill does; its memory is gone."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False
