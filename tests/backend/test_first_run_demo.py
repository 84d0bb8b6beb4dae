"""A newcomer's first run (`make run`: seed_demo, then seed_demo_rides) has something real on every screen, walked as
each user: the permit holder's and the auxiliary's closed weeks with their PDF and CSV and the running week as a
provisional PDF, their Pix keys, the demo passenger's booking, rating and complaint, and a suspension in force, as
DIMUTRAN sees them in the admin (Art. 1, §3; Art. 54, b; Art. 60; Art. 66)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from backend.demo.first_run import DEMO_PASSENGER
from backend.registry.models import Suspension
from backend.trips.models import Passenger

pytestmark = pytest.mark.django_db


def _logged_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _statements_page(client: Client) -> str:
    page = client.get("/extratos/")
    assert page.status_code == 200
    return page.content.decode()


@pytest.mark.article("Art. 1, §3", "Art. 54, b", "Art. 60", "Art. 66")
def test_the_demo_shows_every_screen_something_real():
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_rides", verbosity=0)

    for username in ("permissionario", "auxiliar"):  # the holder and his auxiliary, each with closed weeks
        client = _logged_in(username)
        text = _statements_page(client)
        assert "Nenhum extrato fechado" not in text, username
        pdf = re.search(r'href="(/statements/\d+\.pdf)"', text).group(1)
        csv = re.search(r'href="(/api/statements/\d+\.csv)"', text).group(1)
        assert client.get(pdf)["Content-Type"] == "application/pdf"
        assert client.get(csv)["Content-Type"].startswith("text/csv")
        running = re.search(r'href="(/extratos/em-curso/\d+/\d+\.pdf)"', text).group(1)
        provisional = client.get(running)
        assert provisional.status_code == 200 and provisional["Content-Type"] == "application/pdf"
        token = APIClient()
        token.force_authenticate(get_user_model().objects.get(username=username))
        key = token.get("/api/me/pix-key/")
        assert key.status_code == 200 and key.json().get("key"), (username, key.content)

    passenger = Passenger.objects.get(phone=DEMO_PASSENGER[1])
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Passenger {passenger.token}")
    rides = app.get("/api/passenger/rides/").json()
    assert len(rides["results"] if isinstance(rides, dict) else rides) == 3
    bookings = app.get("/api/bookings/").json()["bookings"]
    assert len(bookings) == 1 and bookings[0]["status"] == "dispatched"

    admin = _logged_in("dimutran")
    assert "Motorista educado e carro limpo" in admin.get("/admin/ratings/riderating/").content.decode()
    assert DEMO_PASSENGER[0] in admin.get("/admin/enforcement/complaint/").content.decode()
    suspensions = admin.get("/admin/registry/suspension/").content.decode()
    assert "TX-093" in suspensions
    today = timezone.localdate()
    assert Suspension.objects.filter(permit__number="TX-093", starts_on__lte=today, ends_on__gte=today).exists()
