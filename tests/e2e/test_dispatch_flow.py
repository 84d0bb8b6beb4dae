"""Radio-taxi dispatch end to end (Art. 66): real websocket clients against a running Daphne."""

import asyncio
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from .client import driver, flushed, free_at, operator, passenger, two_free_cabs

pytestmark = pytest.mark.e2e


def run(coro):
    return asyncio.run(coro)


def trace_around(lat, lon, minutes=6, points=40):
    start = datetime.now(timezone.utc) - timedelta(minutes=minutes)
    return [
        {"t": (start + timedelta(seconds=i * minutes * 60 / points)).isoformat(), "lat": lat - i * 0.0004, "lon": lon + i * 0.0002, "accuracy_m": 8}
        for i in range(points)
    ]


@pytest.mark.article("Art. 66", "Art. 43", "Art. 32")
def test_request_offer_accept_pickup_meter_complete(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]

    async def scenario():
        d = await driver(port, cab["token"])
        snapshot = await d.recv_until("snapshot")
        assert snapshot["cab"]["permit"] == cab["permit"] and snapshot["offer"] is None
        await free_at(d, lat + 0.004, lon)  # ~450 m north of the pickup, away from the rank
        await flushed(world, (cab, lat + 0.004, lon))
        p = await passenger(port, world["passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat, "lon": lon, "address": "Praça Cel. Pacheco de Medeiros"})
        offer = (await d.recv_until("offer", timeout=30))["offer"]  # the first: the offering workers may still be loading
        assert 300 < offer["distance_m"] < 600 and "mais próximo" in offer["reason"]
        await d.send(type="offer_accept", offer_id=offer["id"])
        accepted = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "accepted")
        ride = accepted["ride"]
        assert ride["cvi"]["permit"] == cab["permit"] and ride["driver"]["cmt"].startswith("CMT-E")  # Art. 32
        await d.send(type="ride_arriving", ride_id=ride["id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "arriving")
        await d.send(type="ride_on_board", ride_id=ride["id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "on_board")
        await d.send(type="ride_complete", ride_id=ride["id"], meter_total="14.30", trace=trace_around(lat, lon))
        done = await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "completed")
        assert done["ride"]["fare"] == "14.30"  # Art. 43: the meter's total is the fare
        assert done["ride"]["version"] > accepted["ride"]["version"]
        await d.close(), await p.close()

    run(scenario())


@pytest.mark.article("Art. 66")
def test_decline_and_timeout_pass_the_ride_to_the_next_cab(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]

    async def scenario():
        a, b = await two_free_cabs(port, world)  # a nearer
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat - 0.002, "lon": lon})
        offer_a = (await a.recv_until("offer"))["offer"]
        await a.send(type="offer_decline", offer_id=offer_a["id"])
        offer_b = (await b.recv_until("offer"))["offer"]
        assert offer_b["ride_id"] == offer_a["ride_id"]
        # b lets it expire (3 s in these tests): the ride never goes back to a, and nobody else is free.
        escalated = await p.recv_until("ride_update", timeout=10, where=lambda m: m["ride"]["escalated"])
        assert escalated["ride"]["status"] == "requested"
        await p.send(type="ride_cancel", ride_id=offer_a["ride_id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "cancelled")
        assert not [m for m in a.seen if m.get("type") == "offer" and m["offer"]["id"] != offer_a["id"]]
        for c in (a, b, p):
            await c.close()

    run(scenario())


@pytest.mark.article("Art. 27, §3", "Art. 66")
def test_the_rank_queue_is_served_first(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    at_rank, nearer = world["cabs"][3], world["cabs"][0]

    async def scenario():
        r, n = await driver(port, at_rank["token"]), await driver(port, nearer["token"])
        await r.recv_until("snapshot"), await n.recv_until("snapshot")
        await free_at(r, lat, lon)
        await r.send(type="rank_check_in", rank_id=world["rank_id"])
        checked = await r.recv_until("rank_checked_in")
        assert checked["queue_position"] == 1
        await free_at(n, lat + 0.0012, lon)  # the pickup is between: the free cab is nearer than the rank
        await flushed(world, (at_rank, lat, lon), (nearer, lat + 0.0012, lon))
        p = await passenger(port, world["passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat + 0.0009, "lon": lon})
        offer = (await r.recv_until("offer"))["offer"]
        assert "fila do ponto" in offer["reason"]
        await p.send(type="ride_cancel", ride_id=offer["ride_id"])
        closed = await r.recv_until("offer_closed")
        assert closed["status"] == "withdrawn"
        await r.send(type="rank_check_out")
        await r.recv_until("rank_checked_out")
        for c in (r, n, p):
            await c.close()

    run(scenario())


def test_reconnecting_mid_offer_restores_it(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][1]

    async def scenario():
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")
        await free_at(d, lat + 0.01, lon + 0.01)
        await flushed(world, (cab, lat + 0.01, lon + 0.01))
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat + 0.011, "lon": lon + 0.01})
        offer = (await d.recv_until("offer"))["offer"]
        await d.close()
        again = await driver(port, cab["token"])
        snapshot = await again.recv_until("snapshot")
        assert snapshot["offer"]["id"] == offer["id"]
        await again.send(type="offer_accept", offer_id=offer["id"])
        await again.recv_until("offer_accepted")
        await p.send(type="ride_cancel", ride_id=offer["ride_id"])
        await again.recv_until("ride_cancelled")
        await again.close(), await p.close()

    run(scenario())


@pytest.mark.article("Art. 54, b")
def test_a_suspended_cab_gets_nothing(platform):
    import json
    import urllib.request

    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    suspended, fallback = world["cabs"][2], world["cabs"][3]

    async def scenario():
        s, f = await driver(port, suspended["token"]), await driver(port, fallback["token"])
        await s.recv_until("snapshot"), await f.recv_until("snapshot")
        await free_at(s, lat - 0.03, lon)  # the nearer one
        await free_at(f, lat - 0.036, lon)
        await flushed(world, (suspended, lat - 0.03, lon), (fallback, lat - 0.036, lon))
        today = datetime.now(ZoneInfo("America/Sao_Paulo")).date()  # the law's day: a UTC date runs three hours ahead

        def api(path, body=None):  # DIMUTRAN through the running platform, so its process announces the commit
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method="GET" if body is None else "POST",
                                             headers={"Content-Type": "application/json", "Authorization": f"Token {world['operator']['token']}"})
            return json.loads(urllib.request.urlopen(request).read() or b"{}")

        # A suspension is only the outcome of an auto, its copy, the defence term and the decision (Art. 60-63).
        types = await asyncio.to_thread(api, "/api/infraction-types/?limit=500")
        seal = next(t["id"] for t in types["results"] if t["code"] == "seal_removed")
        holder = (await asyncio.to_thread(api, f"/api/permits/{suspended['permit_id']}/"))["holder"]
        committed = str(today - timedelta(days=15))
        auto = await asyncio.to_thread(api, "/api/autos/", {"permit": suspended["permit_id"], "person": holder, "infractions": [seal],
                                                            "committed_on": committed, "issued_on": committed, "observation": "Selo rompido."})
        await asyncio.to_thread(api, f"/api/autos/{auto['id']}/deliver-copy/", {"delivered_on": committed})
        await asyncio.to_thread(api, f"/api/autos/{auto['id']}/decide/", {
            "decided_on": str(today), "reasoning": "Infração comprovada.",
            "penalties": [{"infraction": seal, "kind": "suspension", "starts_on": str(today), "ends_on": str(today + timedelta(days=5))}]})
        # The open connection is told, with the article, and closed (policy close).
        told = await s.recv_until("suspended")
        assert "Art. 54, b" in [r["article"] for r in told["reasons"]]
        await asyncio.wait_for(s.ws.wait_closed(), 5)
        assert s.ws.close_code == 4008
        p = await passenger(port, world["other_passenger_token"])
        await p.send(type="ride_request", pickup={"lat": lat - 0.031, "lon": lon})
        offer = (await f.recv_until("offer"))["offer"]
        assert not [m for m in s.seen if m.get("type") == "offer"]
        await p.send(type="ride_cancel", ride_id=offer["ride_id"])
        await p.recv_until("ride_update", where=lambda m: m["ride"]["status"] == "cancelled")
        again = await driver(port, suspended["token"])  # a new connection is refused with the reason
        error = await again.recv_until("error")
        assert error["code"] == "not_allowed" and "Art. 54" in error["message"]
        for c in (f, p):
            await c.close()

    run(scenario())


def test_operator_sees_cabs_and_assigns_by_hand(platform):
    world, port = platform.world, platform.ports[0]
    lat, lon = world["centre"]
    cab = world["cabs"][0]

    async def scenario():
        o = await operator(port, world["operator"]["session"])
        await o.recv_until("snapshot")
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")
        await free_at(d, lat + 0.1, lon + 0.1)  # beyond the automatic search: only an operator can send it
        positions = await o.recv_until("positions", where=lambda m: any(c["id"] for c in m["cabs"]))
        assert positions["cabs"][0]["zone"] in {"central", "peripheral", "outside"}
        await o.send(type="ride_create", caller_name="Dona Maria", caller_phone="32988887777", pickup={"lat": lat, "lon": lon})
        created = await o.recv_until("ride_created")
        await o.recv_until("escalation", where=lambda m: m["ride"]["id"] == created["ride_id"])
        await o.send(type="ride_assign", ride_id=created["ride_id"], permit_id=cab["permit_id"])
        await o.recv_until("assigned")
        offer = (await d.recv_until("offer", where=lambda m: "operador" in m["offer"]["reason"]))["offer"]
        assert offer["ride_id"] == created["ride_id"]
        await o.send(type="broadcast", text="Chuva forte na Av. JK")
        assert (await d.recv_until("broadcast"))["text"] == "Chuva forte na Av. JK"
        await o.send(type="ride_cancel", ride_id=created["ride_id"])
        await d.recv_until("offer_closed")
        await o.close(), await d.close()

    run(scenario())


def _in_platform(platform, code: str) -> None:
    """Run ``code`` in a separate Django process on the platform's database (not through the Daphne processes)."""
    import subprocess
    import sys

    from .conftest import ROOT

    subprocess.run([sys.executable, "-c", "import django\ndjango.setup()\n" + code], cwd=ROOT, env=platform.env,
                   check=True, capture_output=True, text=True, timeout=60)


RAW_SQL_SUSPENSION = """
from datetime import timedelta
from django.db import connection
from django.utils import timezone
today = timezone.localdate()
with connection.cursor() as cursor:
    cursor.execute("INSERT INTO registry_suspension (permit_id, starts_on, ends_on, reason) "
                   "VALUES (%s, %s, %s, 'SQL')", [{permit_id}, today - timedelta(days=1), today + timedelta(days=3)])
"""

ADMIN_FAILED_INSPECTION = """
from django.contrib.auth import get_user_model
from django.test import Client
from backend.registry.models import Inspection
inspection = Inspection.objects.filter(vehicle__permit_id={permit_id}).latest("inspected_on", "id")
admin, _ = get_user_model().objects.get_or_create(username="dimutran-e2e", defaults={{"is_staff": True, "is_superuser": True}})
client = Client()
client.force_login(admin)
# The admin adds no suspension (only an auto's decision does) and edits no vistoria's result: it records a failed one.
response = client.post("/admin/registry/inspection/add/", {{
    "vehicle": inspection.vehicle_id, "kind": "extraordinary", "inspected_on": inspection.inspected_on, "result": "failed",
    "seal_number": "", "notes": "reprovado pelo admin"}})
assert response.status_code == 302, response.content.decode()[:2000]
"""


@pytest.mark.article("Art. 54, b", "Art. 38")
@pytest.mark.parametrize("writer, n, article", [(RAW_SQL_SUSPENSION, 0, "Art. 54, b"), (ADMIN_FAILED_INSPECTION, 1, "Art. 38")],
                         ids=["raw_sql", "admin"])
def test_a_suspension_written_outside_the_services_reaches_the_connected_cab(platform, writer, n, article):
    """Whatever writes the registry (raw SQL, the admin), the triggers forget the cab's facts and the background tick tells it."""
    world, port = platform.world, platform.ports[0]
    cab = world["cabs"][n]

    async def scenario():
        d = await driver(port, cab["token"])
        await d.recv_until("snapshot")
        await asyncio.to_thread(_in_platform, platform, writer.format(permit_id=cab["permit_id"]))
        told = await d.recv_until("suspended")
        assert article in [r["article"] for r in told["reasons"]]
        await asyncio.wait_for(d.ws.wait_closed(), 5)
        assert d.ws.close_code == 4008

    run(scenario())
