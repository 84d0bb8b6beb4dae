"""The simulator drives a real platform through the websocket protocol: cabs connect and rides get completed."""

import asyncio
import json
import subprocess
import sys
import time

import pytest

from .client import operator
from .conftest import ROOT

pytestmark = pytest.mark.e2e

FIFTH_CAB = "import json; from django.utils import timezone; from tests.e2e import world; print(json.dumps(world.cab(5, timezone.localdate())))"


@pytest.mark.article("Art. 66")
def test_simulator_connects_cabs_and_completes_rides(platform):
    port = platform.ports[0]
    # The world has 4 cabs; the simulator gets 5 (it gives them users and tokens itself when they have none).
    subprocess.run([sys.executable, "-c", FIFTH_CAB], cwd=ROOT, env=platform.env, check=True, capture_output=True)
    sim = subprocess.Popen(
        [sys.executable, "manage.py", "simulate", "--cabs", "5", "--url", f"ws://127.0.0.1:{port}", "--tick", "0.5",
         "--rides-per-minute", "40", "--accept-ratio", "0.9", "--trip-steps", "2", "4", "--approach-steps", "1", "2",
         "--duration", "12", "--report-every", "3", "--reserve", "--seed", "7"],
        cwd=ROOT, env=platform.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )

    async def watch():
        op = await operator(port, platform.world["operator"]["session"])
        await op.recv_until("snapshot")
        # The simulator's 12 s run starts once its Django is up, which takes seconds on a loaded machine:
        # watch from its first cab on line (a bounded wait), not from its process start.
        first_by = time.monotonic() + 60
        while time.monotonic() < first_by:
            try:
                message = json.loads(await asyncio.wait_for(op.ws.recv(), 1.0))
            except asyncio.TimeoutError:
                continue
            if message.get("type") == "cab_update" and message["cab"]["online"]:
                break
        completed, online, started = set(), 0, time.monotonic()
        while time.monotonic() - started < 14 and not (completed and online >= 5):
            try:
                message = json.loads(await asyncio.wait_for(op.ws.recv(), 1.0))
            except asyncio.TimeoutError:
                message = {}
            if message.get("type") == "ride_update" and message["ride"]["status"] == "completed":
                completed.add(message["ride"]["id"])
                assert message["ride"]["fare"]  # the simulated meter's total (Art. 43)
            if time.monotonic() - started > 4 and online < 5:  # a fresh snapshot: who is connected now
                fresh = await operator(port, platform.world["operator"]["session"])
                online = len((await fresh.recv_until("snapshot"))["cabs"])
                await fresh.close()
        await op.close()
        return completed, online

    try:
        completed, online = asyncio.run(watch())
    finally:
        output = sim.communicate(timeout=30)[0]
    assert online == 5, output
    assert completed, output
    assert sim.returncode == 0, output
