"""Ratings from the passenger's page: own completed ride, once; a report for DIMUTRAN, never a penalty."""

import pytest

from backend.ratings.models import RideRating
from backend.registry.compliance import may_work
from backend.trips.models import Passenger, RideStatus

from .enforcement_helpers import make_ride, passenger_client

pytestmark = pytest.mark.django_db


def rate(passenger, ride, stars, comment=""):
    return passenger_client(passenger).post("/api/ratings/", {"ride": ride.pk, "stars": stars, "comment": comment}, format="json")


def test_a_passenger_rates_their_completed_ride_once(working_cab):
    ride = make_ride(working_cab())
    assert rate(ride.passenger, ride, 5, "Motorista educado.").status_code == 201
    again = rate(ride.passenger, ride, 1)
    assert again.status_code == 400 and "já foi avaliada" in again.json()["ride"][0]
    assert RideRating.objects.get().stars == 5


@pytest.mark.parametrize("stars", [0, 6, "cinco", None])
def test_stars_out_of_range_are_a_400(working_cab, stars):
    ride = make_ride(working_cab())
    assert "stars" in rate(ride.passenger, ride, stars).json()


def test_someone_elses_or_an_unfinished_ride_cannot_be_rated(working_cab):
    ride = make_ride(working_cab())
    stranger = Passenger.objects.create(name="João", phone="32988887777")
    assert "não é sua" in rate(stranger, ride, 3).json()["ride"][0]
    cancelled = make_ride(working_cab(), status=RideStatus.CANCELLED)
    assert "reclamação" in rate(cancelled.passenger, cancelled, 1).json()["ride"][0]
    assert not RideRating.objects.exists()


@pytest.mark.article("Art. 60")
def test_the_report_groups_by_permit_and_never_stops_a_driver(working_cab, dimutran, anonymous, today):
    good, bad = working_cab(), working_cab()
    for stars in (5, 4):
        r = make_ride(good)
        rate(r.passenger, r, stars)
    for stars in (1, 2, 1):
        r = make_ride(bad, passenger=Passenger.objects.create(name="P", phone="32911112222"))
        rate(r.passenger, r, stars)
    rows = dimutran.get("/api/ratings/report/").json()["rows"]
    assert [(row["permit"], row["ratings"], row["low"]) for row in rows] == [(bad.number, 3, 3), (good.number, 2, 0)]
    assert rows[0]["average"] == pytest.approx(1.33, abs=0.01)
    assert may_work(bad.holder, bad)  # a poor average is no penalty (Art. 60: only an auto's procedure is)
    assert anonymous.get("/api/ratings/report/").status_code in (401, 403)
    assert dimutran.get("/api/ratings/report/?since=ontem").status_code == 400


def test_the_admin_lists_ratings_with_the_report(admin_client, working_cab):
    r = make_ride(working_cab())
    rate(r.passenger, r, 2, "<b>demorou</b>")
    page = admin_client.get("/admin/ratings/riderating/")
    text = page.content.decode()
    assert page.status_code == 200 and 'id="rating-report"' in text and "&lt;b&gt;demorou" in text
