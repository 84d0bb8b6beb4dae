"""Issue #29, item 3: every websocket frame is built through its declaration in ``taxiwire`` (``OFFER(offer=...)``,
``inbound.OFFER_ACCEPT(offer_id=...)``), never as a dict literal. This walks the code of the server, the simulator
and the driver app and fails on a dict whose ``"type"`` is a frame's name; there are no exceptions."""

import ast
from pathlib import Path

import pytest

from taxiwire import inbound, outbound

ROOT = Path(__file__).resolve().parents[1]
WALKED = ("dispatch", "backend", "driver_app")
FRAME_TYPES = {f.type for f in outbound.FRAMES} | {f.type for frames in inbound.INBOUND.values() for f in frames.values()}


def frame_literals(source: str) -> list[tuple[int, str]]:
    """(line, type) of each dict literal (``{...}`` or ``dict(type=...)``) whose ``type`` is a frame's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        pairs = []
        if isinstance(node, ast.Dict):
            pairs = [(k.value, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            pairs = [(kw.arg, kw.value) for kw in node.keywords]
        for key, value in pairs:
            if key == "type" and isinstance(value, ast.Constant) and value.value in FRAME_TYPES:
                found.append((node.lineno, value.value))
    return sorted(found)


def test_the_walk_finds_a_frame_literal():
    """The test can fail: a hand-built frame, in either spelling, is found."""
    assert frame_literals('send({"type": "offer_accept", "offer_id": 7})\nx = dict(type="pong")') == [
        (1, "offer_accept"), (2, "pong")]
    assert frame_literals('{"type": "connection", "online": True}') == []  # the app's own event, not a frame


@pytest.mark.parametrize("package", WALKED)
def test_no_frame_is_a_dict_literal(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" in path.parts or "build" in path.parts:
            continue
        offenders += [f"{path.relative_to(ROOT)}:{line}: {kind}" for line, kind in frame_literals(path.read_text("utf-8"))]
    assert offenders == [], "build these frames through taxiwire:\n" + "\n".join(offenders)


def test_the_wire_spells_the_law_cores_vocabularies():
    """taxiwire imports nothing of the project: its copies of the law core's lists must stay the same."""
    from taxilaw.accessibility import FEATURES
    from taxilaw.cancellation import CancelReason
    from taxiwire.bodies import ACCESSIBILITY_NEEDS, CANCEL_REASONS

    assert set(ACCESSIBILITY_NEEDS.values) == set(FEATURES)
    assert set(CANCEL_REASONS.values) == {r.value for r in CancelReason}
