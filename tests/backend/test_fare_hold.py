"""A meter total beyond the dated bound is held out of the statements until DIMUTRAN releases it (Art. 43)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from backend.statements import documents, services
from backend.trips.models import Ride
from dispatch.models import Cab
from dispatch.rides import ride_steps as dispatch

from .trip_helpers import PICKUP, on_board, trace  # noqa: F401 (on_board is a fixture)

pytestmark = pytest.mark.django_db


def _staff():
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("dimutran-rev", password="x", is_staff=True))
    return client


@pytest.mark.article("Art. 43")
def test_an_absurd_total_is_held_out_of_the_running_statement_until_released(on_board):
    cab, ride = on_board
    ride = dispatch.ride_complete(ride.pk, cab.pk, Decimal("99999999.99"), trace())
    assert ride.fare_held and ride.meter_disagreement and ride.server_total < Decimal("100")
    assert services.running_statement(cab.permit, cab.driver).gross == Decimal("0")

    answer = _staff().post(f"/api/rides/{ride.pk}/release-fare/")
    assert answer.status_code == 200 and answer.json()["fare_held"] is False and answer.json()["fare_released_at"]
    assert services.running_statement(cab.permit, cab.driver).gross == Decimal("99999999.99")


@pytest.mark.article("Art. 43")
def test_a_disagreement_within_the_bound_is_counted_and_shown(on_board):
    cab, ride = on_board
    dispatch.ride_complete(ride.pk, cab.pk, Decimal("1.00"), trace())  # an undercharge: flagged, never held
    ride.refresh_from_db()
    assert ride.meter_disagreement and not ride.fare_held
    assert services.running_statement(cab.permit, cab.driver).gross == Decimal("1.00")
    [entry] = services.running_statement(cab.permit, cab.driver).ride_lines
    assert entry.meter_disagreement and entry.server_total == ride.server_total  # the statement's own line shows it
    line = documents.ride_line_text(entry)
    assert "diverge" in line and str(ride.server_total).replace(".", ",") in line


@pytest.mark.article("Art. 43")
def test_only_dimutran_releases_and_an_unknown_ride_is_404(on_board, user_for):
    cab, ride = on_board
    ride = dispatch.ride_complete(ride.pk, cab.pk, Decimal("500.00"), trace())
    assert user_for(cab.driver).post(f"/api/rides/{ride.pk}/release-fare/").status_code == 403
    assert _staff().post("/api/rides/999999/release-fare/").status_code == 404
    ride.refresh_from_db()
    assert ride.fare_held


@pytest.mark.django_db(transaction=True)
@pytest.mark.article("Art. 43")
def test_the_driver_is_told_why_the_total_is_held_in_the_answer_frame(working_cab, make_person, settings):
    from asgiref.sync import async_to_sync, sync_to_async

    from dispatch.consumers import DriverConsumer

    from .ws_helpers import connect

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    person = make_person(user=get_user_model().objects.create_user("held-driver", password="x"))
    permit = working_cab(holder=person)

    def board():
        cab = Cab.objects.get(permit=permit)
        return Ride.objects.create(pickup_lat=PICKUP[0], pickup_lon=PICKUP[1], status="on_board", created_by="operator",
                                   cab=cab, permit=permit, driver=person, on_board_at=timezone.now() - timedelta(minutes=4))

    async def scenario():
        driver = await connect(DriverConsumer, "/ws/driver/", person.user, "driver", set())
        await driver.until("snapshot")
        ride = await sync_to_async(board)()
        fixes = [dict(f, t=f["t"].isoformat()) for f in trace()]
        answer = await driver.ask("ride_updated", type="ride_complete", ride_id=ride.pk, meter_total="99999999.99", trace=fixes)
        await driver.ws.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    [reason] = answer["fare_held"]
    assert reason["code"] == "fare_held" and "DIMUTRAN" in reason["message"] and answer["ride"]["status"] == "completed"
