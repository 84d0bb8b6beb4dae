"""The servers of benchmarks/dispatch_bench.py: the Daphne processes it starts, pins and stops, and what it reads
of their (and the database's and Redis's) CPU in /proc."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.dispatch_bench_fleet import ROOT

CLK = os.sysconf("SC_CLK_TCK")


# --- servers ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK  # utime, stime


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU the whole machine spent busy and in all since boot (/proc/stat; all cores)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / CLK, sum(ticks) / CLK


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return found


def db_backends_cpu(db_name: str | None) -> float:
    """CPU of the PostgreSQL backends serving the benchmark's database (by their process title)."""
    if not db_name:
        return 0.0
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if db_name.encode() not in f.read():
                    continue
            total += cpu_seconds(int(entry))
        except OSError:
            continue
    return total


def redis_pid(url: str) -> int | None:
    try:
        import redis

        pid = redis.Redis.from_url(url).info("server")["process_id"]
        cpu_seconds(pid)
        return pid
    except Exception:
        return None


def server_cores(count: int, pin: str) -> list[int]:
    """The core of each server: ``--pin each``: one each, from the last; ``--pin one``: all on the last core.
    The clients (and what else the machine runs) keep the others."""
    cores = sorted(os.sched_getaffinity(0))
    if pin == "one":
        return [cores[-1]] * count
    return cores[-count:] if pin == "each" and count <= len(cores) else []


class Servers:
    def __init__(self, app: str, count: int, env: dict, tmp: Path, pin: str = ""):
        self.app, self.env, self.tmp = app, env, tmp
        self.cores = server_cores(count, pin)
        self.ports = [free_port() for _ in range(count)]
        self.processes = [self._start(k) for k in range(count)]
        for k in range(count):
            self._wait_listening(k)

    def _start(self, k: int) -> subprocess.Popen:
        port = self.ports[k]
        log = open(self.tmp / f"daphne-{port}.log", "a")
        # pinned with taskset: the server and its offering worker (a child inherits the affinity) on one core
        taskset = ["taskset", "-c", str(self.cores[k])] if self.cores else []
        return subprocess.Popen([*taskset, sys.executable, "-m", "dispatch.transport.server", "-b", "127.0.0.1", "-p", str(port),
                                 "--websocket_connect_timeout", "30", self.app],
                                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def _wait_listening(self, k: int) -> None:
        p, port = self.processes[k], self.ports[k]
        deadline = time.monotonic() + 60
        while True:
            if p.poll() is not None:
                raise RuntimeError(f"daphne exited with {p.returncode}; see {self.tmp}/daphne-{port}.log")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
            if time.monotonic() > deadline:
                raise TimeoutError(port)
            time.sleep(0.02)

    def restart(self, k: int, down: float, while_down=lambda: None) -> tuple[float, float]:
        """Stop server ``k`` as a deploy does (SIGTERM), call ``while_down``, start it again on its port ``down``
        seconds after the SIGTERM (or once it exited, if later). Returns when it was told to stop and when it listened
        again (perf_counter)."""
        stopped = time.perf_counter()
        self.processes[k].terminate()
        self.processes[k].wait(timeout=60)
        while_down()
        time.sleep(max(0.0, stopped + down - time.perf_counter()))
        self.processes[k] = self._start(k)
        self._wait_listening(k)
        return stopped, time.perf_counter()

    def cpu(self) -> float:
        """CPU seconds of the Daphne processes and their children (the offering workers)."""
        return sum(cpu_seconds(pid) for p in self.processes for pid in (p.pid, *children(p.pid)))

    def stop(self):
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
