"""The upstream functions our code copies or overrides have not changed under us.

``dispatch`` reaches into Daphne's and Channels' internals where their public API has no hook (see
docs/upstream-copies.md for why each one). Those libraries are pinned to a minor version in pyproject.toml, and
each function we copy or override is fingerprinted here: a new release that changes one fails this test with the
name of our code to re-check against the new source. Re-check, then update the fingerprint and the pin together.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import inspect
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent

# upstream "module:qualname" -> (sha256 prefix of its source, our code to re-check when it changes)
FINGERPRINTS = {
    "daphne.server:Server.application_checker": ("ccb688341a7d0bc1", "dispatch.transport.server.IncrementalSweepServer.application_checker"),
    "daphne.server:Server.timeout_checker": ("6b70373a3a77cb2b", "dispatch.transport.server.IncrementalSweepServer.timeout_checker"),
    "daphne.server:Server.protocol_disconnected": ("c1f5fe8cdedc09dc", "dispatch.transport.server.IncrementalSweepServer.protocol_disconnected"),
    "daphne.server:Server.create_application": ("f1e300b4ecf636c8", "dispatch.transport.server.IncrementalSweepServer.create_application"),
    "daphne.server:Server.log_action": ("24dce8ac1282941e", "dispatch.transport.server.IncrementalSweepServer.log_action"),
    "daphne.server:Server.run": ("447c6bd42c62e98c", "dispatch.transport.server.IncrementalSweepServer.ws_factory (set by run)"),
    "daphne.ws_protocol:WebSocketProtocol.onMessage": ("826cc86d0e2aeef0", "dispatch.transport.server.BoundedWebSocketProtocol.onMessage"),
    "channels.consumer:AsyncConsumer.__call__": ("e52238720872dbc3", "dispatch.transport.base_consumer.BaseConsumer.__call__"),
    "channels.consumer:AsyncConsumer.dispatch": ("39f34e7d4fb0f655", "dispatch.transport.base_consumer.BaseConsumer.dispatch"),
    "channels.utils:await_many_dispatch": ("30ef889498560da3", "dispatch.transport.message_loop.dispatch_from"),
    "channels.layers:InMemoryChannelLayer._clean_expired": ("604032dae1cc01d2", "dispatch.transport.channel_layers.ThrottledInMemoryChannelLayer._clean_slice"),
    "channels.layers:InMemoryChannelLayer._remove_from_groups": ("791d451199f668ed", "dispatch.transport.channel_layers.ThrottledInMemoryChannelLayer._clean_slice"),
    "channels_redis.core:RedisChannelLayer.create_pool": ("078b4e157f6e27bc", "dispatch.transport.channel_layers.WaitingPoolRedisChannelLayer.create_pool"),
}

# The distributions whose internals the functions above belong to: each pinned to one minor version.
PINNED = ("channels", "daphne", "channels-redis")


def _resolve(name: str):
    module, qualname = name.split(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def fingerprint(obj) -> str:
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(FINGERPRINTS))
def test_upstream_function_unchanged(name):
    expected, ours = FINGERPRINTS[name]
    assert fingerprint(_resolve(name)) == expected, (
        f"{name} changed upstream: re-check {ours} against its new source (docs/upstream-copies.md), "
        "then update its fingerprint here and the pin in pyproject.toml"
    )


def test_internals_are_pinned_to_a_minor_version():
    """Each distribution above is required as ``>=X.Y[.Z],<X.(Y+1)`` and the installed one satisfies it."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    requirements = {Requirement(d).name: Requirement(d) for d in dependencies}
    for dist in PINNED:
        spec = requirements[dist].specifier
        upper = [s for s in spec if s.operator == "<"]
        lower = [s for s in spec if s.operator == ">="]
        assert upper and lower, f"{dist} is not pinned to a minor version: {spec}"
        major, minor = (int(x) for x in lower[0].version.split(".")[:2])
        assert upper[0].version == f"{major}.{minor + 1}", f"{dist}: {spec} allows more than one minor version"
        assert spec.contains(metadata.version(dist)), f"installed {dist} {metadata.version(dist)} is outside {spec}"


def test_asyncio_queue_keeps_its_deque():
    """``ThrottledInMemoryChannelLayer`` reads a queue's oldest message as Channels does (``queue._queue[0]``)."""
    queue: asyncio.Queue = asyncio.Queue()
    queue.put_nowait((1.0, "message"))
    assert queue._queue[0] == (1.0, "message")
