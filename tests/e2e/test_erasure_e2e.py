"""A passenger's erasure against a real Daphne process (issue 27, point 6): their open socket is told and closed,
and the process's access log never held their name, phone, an address they searched or a receipt's token."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone
from websockets.exceptions import ConnectionClosed

from dispatch import wire

from . import client as ws
from .conftest import Platform

pytestmark = pytest.mark.e2e
NAME, PHONE, HOME = "Marisa Quintela", "32991234567", "Rua Barão do Monte Alto, 417"
FAKE_RECEIPT = "MTIzNDU:1vAbCd:zzSecretTokenPartzz"


@pytest.fixture
def daphne(tmp_path):
    p = Platform(tmp_path)
    p.env["PYTHONUNBUFFERED"] = "1"  # the access log reaches its file line by line, as a host's log collector reads it
    try:
        p.prepare()
        p.start(1)
        yield p
    finally:
        p.stop()


def http(port: int, method: str, path: str, body=None, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Passenger {token}"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_erasure_closes_the_open_socket_and_the_access_log_names_nobody(daphne):
    port = daphne.ports[0]
    status, body = http(port, "POST", "/api/passengers/", {"name": NAME, "phone": PHONE})
    assert status == 201, body
    token = json.loads(body)["token"]
    pickup_at = (timezone.now() + timedelta(days=2)).isoformat()
    status, body = http(port, "POST", "/api/bookings/", {"pickup": {"lat": -21.131, "lon": -42.367, "address": HOME},
                                                         "pickup_at": pickup_at}, token)
    assert status == 201, body
    http(port, "GET", "/api/addresses/?" + urllib.parse.urlencode({"q": HOME}))
    assert http(port, "GET", f"/recibos/{FAKE_RECEIPT}.pdf")[0] == 404

    async def erase_while_connected():
        passenger = await ws.passenger(port, token)
        status, _ = await asyncio.to_thread(http, port, "DELETE", "/api/passengers/me/", None, token)
        assert status == 204
        error = await passenger.recv_until("error")
        assert error["code"] == "session_ended"
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(passenger.ws.recv(), 10)
        return closed.value.rcvd.code

    assert asyncio.run(erase_while_connected()) == wire.SESSION_ENDED
    assert http(port, "GET", "/api/bookings/", token=token)[0] == 401  # the old token is dead

    log_file = daphne.tmp / f"daphne-{port}.log"
    deadline = time.monotonic() + 20
    while "DELETE /api/passengers/me/" not in log_file.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = log_file.read_text()
    assert "DELETE /api/passengers/me/" in log and "GET /recibos/[...].pdf" in log and "/api/addresses/?[...]" in log
    leaks = [s for s in (NAME, *NAME.split(), PHONE, HOME, urllib.parse.quote_plus(HOME), "Barão", "Monte+Alto",
                         FAKE_RECEIPT, "zzSecretTokenPartzz", token) if s in log]
    assert leaks == []
