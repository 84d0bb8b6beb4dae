"""Shared helpers of the ranks/contests API tests."""

from datetime import datetime, time

from django.utils import timezone

CENTRAL = (-42.3660, -21.1324)  # inside the shipped Art. 24 polygon
PERIPHERAL = (-42.4217, -21.0910)  # in Muriaé, away from the centre (Art. 25)
OUTSIDE = (-43.0, -20.0)  # Minas Gerais, but not Muriaé


def refused(response, article):
    assert response.status_code == 400, response.content.decode()
    body = response.json()
    assert article in [r["article"] for r in body["reasons"]], body
    return body


def make_rank(client, name="Ponto", where=PERIPHERAL, category="privativo", **extra):
    data = {"name": name, "lon": where[0], "lat": where[1], "category": category, **extra}
    response = client.post("/api/ranks/", data, format="json")
    assert response.status_code == 201, response.content.decode()
    return response.json()


def at(day, hour=8, minute=0):
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def at_rank(rank):
    """The GPS position of a cab standing at ``rank`` (a model or the API's JSON)."""
    return (rank.lat, rank.lon) if hasattr(rank, "lat") else (rank["lat"], rank["lon"])


def seen_at(permit, position, status="livre"):
    """The server last saw the permit's cab at ``position`` (lat, lon), as the dispatch's position flush leaves it."""
    from dispatch.models import Cab

    Cab.objects.update_or_create(permit=permit, defaults={
        "driver": permit.holder, "status": status, "lat": position[0], "lon": position[1], "position_at": timezone.now()})
