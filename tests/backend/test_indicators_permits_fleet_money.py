"""Per permit, the fleet and money (backend.indicators.permits, fleet, money) on hand-counted fixtures."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from backend.enforcement.models import Complaint
from backend.indicators import fleet, money, permits
from backend.indicators.periods import Period
from backend.ranks.models import Rank, RankAssignment, RankCheckIn
from backend.ratings.models import RideRating
from backend.registry.models import Suspension
from backend.trips.models import DriverCancellation, Passenger
from dispatch.models import Cab, Offer, OfferStatus

from .indicator_fixtures import EMPTY, MONTH_END, local, month_end_rides, ride

pytestmark = pytest.mark.django_db


def _offer(cab, status, at):
    made = Offer.objects.create(ride=ride(at), cab=cab, driver=cab.driver, status=status, expires_at=at, reason="mais próximo")
    Offer.objects.filter(pk=made.pk).update(created_at=at)


def _rated(permit, stars, at):
    passenger = Passenger.objects.create(name="Ana", phone="32999990000")
    done = ride(at, status="completed", permit=permit, driver=permit.holder, passenger=None)
    RideRating.objects.create(ride=done, passenger=passenger, permit=permit, driver=permit.holder, stars=stars)
    RideRating.objects.filter(ride=done).update(rated_at=at)
    return done, passenger


def test_the_offer_statuses_read_are_dispatchs():
    assert set(permits.ACCEPTED_OFFERS + permits.DECLINED_OFFERS + permits.EXPIRED_OFFERS) <= set(OfferStatus.values)
    assert set(permits.ACCEPTED_OFFERS) == {OfferStatus.ACCEPTED, OfferStatus.CANCELLED}


def test_per_permit_offers_acceptance_cancellations_complaints_ratings(working_cab):
    first, second = working_cab(number="TX-0101"), working_cab(number="TX-0102")
    cab1 = Cab.objects.create(permit=first, driver=first.holder)
    cab2 = Cab.objects.create(permit=second, driver=second.holder)
    for status in ("accepted", "declined", "cancelled"):
        _offer(cab1, status, local(2026, 10, 31, 23, 30))
    _offer(cab1, "accepted", local(2026, 10, 30, 23, 59))  # the day before the period
    _offer(cab2, "expired", local(2026, 11, 1, 9, 0))
    absent = DriverCancellation.objects.create(ride=ride(local(2026, 11, 1, 9)), permit=first, driver=first.holder,
                                               reason="passenger_absent", ride_status="arriving")
    DriverCancellation.objects.filter(pk=absent.pk).update(at=local(2026, 11, 1, 9, 10))
    outside = DriverCancellation.objects.create(ride=ride(local(2026, 11, 2, 9)), permit=first, driver=first.holder,
                                                reason="vehicle_problem", ride_status="accepted")
    DriverCancellation.objects.filter(pk=outside.pk).update(at=local(2026, 11, 2, 9, 10))
    done, passenger = _rated(first, 5, local(2026, 10, 31, 12))
    _rated(first, 4, local(2026, 11, 1, 12))
    _rated(second, 1, local(2026, 11, 2, 12))  # after the period
    complaint = Complaint.objects.create(passenger=passenger, ride=done, description="Cobrou a mais.")
    Complaint.objects.filter(pk=complaint.pk).update(filed_at=local(2026, 11, 1, 13))

    rows = {row["permit"]: row for row in permits.permit_indicators(MONTH_END, today=date(2026, 11, 1))}
    assert rows["TX-0101"] == {
        "permit": "TX-0101", "holder": first.holder.full_name, "offers": 3, "accepted": 2, "declined": 1, "expired": 0,
        "acceptance": 0.667, "driver_cancellations": 1, "no_shows": 1, "complaints": 1, "ratings": 2, "stars": 4.5,
        "absences": 0}
    assert rows["TX-0102"] | {"holder": ""} == {
        "permit": "TX-0102", "holder": "", "offers": 1, "accepted": 0, "declined": 0, "expired": 1, "acceptance": 0.0,
        "driver_cancellations": 0, "no_shows": 0, "complaints": 0, "ratings": 0, "stars": None, "absences": 0}
    empty = {row["permit"]: row for row in permits.permit_indicators(EMPTY, today=date(2026, 11, 1))}
    assert empty["TX-0101"]["offers"] == 0 and empty["TX-0101"]["acceptance"] is None and empty["TX-0101"]["stars"] is None


@pytest.mark.article("Art. 9, V")
def test_rank_absences_inside_the_period_across_a_month_end(working_cab):
    permit = working_cab(number="TX-0201")
    rank = Rank.objects.create(name="Ponto da Praça", lon=-42.366, lat=-21.1324, category=Rank.Category.PRIVATE,
                               zone=Rank.Zone.CENTRAL)
    RankAssignment.objects.create(permit=permit, rank=rank, since=date(2026, 10, 29))
    RankCheckIn.objects.create(permit=permit, rank=rank, checked_in_at=local(2026, 10, 31, 23, 0))  # local Saturday
    period = Period(date(2026, 10, 30), date(2026, 11, 2))
    # 30/10 absent, 31/10 present (23:00 local is 02:00 UTC on 01/11), 01/11 and 02/11 absent: 3 days.
    [row] = [r for r in permits.permit_indicators(period, today=date(2026, 11, 2)) if r["permit"] == "TX-0201"]
    assert row["absences"] == 3


def test_fleet_working_blocked_and_why(working_cab, today):
    working, suspended = working_cab(number="TX-0301"), working_cab(number="TX-0302")
    working_cab(number="TX-0303").__class__.objects.filter(number="TX-0303").update(status="revoked")
    Suspension.objects.create(permit=suspended, starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=5),
                              reason="Auto 12/2026")
    answer = fleet.fleet(timezone.now())
    assert answer["working"] == 1 and answer["blocked"] == 1
    assert answer["by_status"]["active"] == 2 and answer["by_status"]["revoked"] == 1
    [blocked] = answer["blocked_permits"]
    assert blocked["permit"] == "TX-0302" and blocked["holder"] == suspended.holder.full_name
    codes = [r["code"] for r in blocked["reasons"]]
    assert answer["blocked_by_reason"] == [{"code": "permit_suspended", "label": "permissão suspensa",
                                            "article": blocked["reasons"][0]["article"], "permits": 1}]
    assert codes == ["permit_suspended"]
    assert working.number not in [b["permit"] for b in answer["blocked_permits"]]


def test_documents_expiring_within_30_days(working_cab, today):
    soon = working_cab(number="TX-0401")
    later = working_cab(number="TX-0402")
    soon.alvaras.update(expires_on=today + timedelta(days=30))  # the last day of the window
    later.alvaras.update(expires_on=today + timedelta(days=31))
    soon.holder.__class__.objects.filter(pk=soon.holder.pk).update(cnh_expires_on=today + timedelta(days=3))
    later.holder.cmts.update(expires_on=today)  # expires today: still inside
    rows = fleet.expiring_documents(today)
    assert [(r["document"], r["permit"], r["person"], r["expires_on"]) for r in rows] == [
        ("cmt", "", later.holder.full_name, today),
        ("cnh", "", soon.holder.full_name, today + timedelta(days=3)),
        ("alvara", "TX-0401", "", today + timedelta(days=30)),
    ]
    assert fleet.expiring_documents(today + timedelta(days=400)) == []


def test_gross_per_local_week_and_held_fares():
    month_end_rides()  # A: completed Saturday 31/10 23:50, R$ 23,45
    ride(local(2026, 11, 1, 22, 0), status="completed", completed_at=local(2026, 11, 1, 22, 30), fare="12.10",
         meter_disagreement=True)  # Sunday 22:30 in Muriaé is Monday 01:30 UTC: still the week of 26/10
    ride(local(2026, 11, 1, 9, 0), status="completed", completed_at=local(2026, 11, 1, 9, 30), fare="10.00",
         fare_held=True)
    weeks = money.gross_by_week(Period(date(2026, 10, 26), date(2026, 11, 8)))
    assert weeks == [
        {"key": date(2026, 10, 26), "rides": 2, "gross": Decimal("35.55"), "disagreements": 1},
        {"key": date(2026, 11, 2), "rides": 0, "gross": Decimal("0.00"), "disagreements": 0},
    ]
    held = money.held_fares()
    assert held == {"rides": 1, "total": Decimal("10.00"), "oldest": local(2026, 11, 1, 9, 30)}
    assert money.gross_by_week(EMPTY) == [{"key": date(2026, 8, 31), "rides": 0, "gross": Decimal("0.00"), "disagreements": 0}]
