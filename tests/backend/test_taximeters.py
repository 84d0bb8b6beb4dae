"""The taxímetro register, its aferição and the fare under a correction table: the phone, configured only from the
server's answer, and the server's recomputation agree to the centavo (Art. 43, Art. 45, §3-§5, Art. 47)."""

from datetime import date, datetime, time, timedelta
from decimal import ROUND_DOWN, Decimal

import pytest
from django.utils import timezone

from backend.api_errors import LawViolation
from backend.registry.selectors import vehicle_in_service
from backend.registry.services import taximeters
from backend.tariffs import services as tariff_services
from backend.tariffs.models import TariffDecree
from taxilaw.meter import Meter
from taxilaw.meter_data import Fix, MeterParams
from taxilaw.tariffs import Tariff

pytestmark = pytest.mark.django_db


def _trace(day: date) -> list[Fix]:
    t0 = timezone.make_aware(datetime.combine(day, time(10)))
    return [Fix(t0 + timedelta(seconds=20 * i), -21.1311 + 0.0018 * i, -42.3676, 8.0) for i in range(21)]


def _phone(answer: dict, trace: list[Fix]) -> Decimal:
    """What the app does: the meter runs the answer's tariff; at the stop the correction table converts the reading."""
    config = answer["meter"]
    meter = Meter(Tariff.from_dict(answer["tariff"]), frozenset(date.fromisoformat(d) for d in config["holidays"]),
                  MeterParams.from_dict(config["params"]))
    meter.start(trace[0].t)
    meter.feed_many(trace)
    total = meter.stop(trace[-1].t).total
    correction = (answer.get("taximeter") or {}).get("correction")
    if correction:
        total = (total * Decimal(correction["factor"])).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    return total


def _new_tariff(effective_from: date) -> TariffDecree:
    return tariff_services.decree_tariff(
        effective_from=effective_from, bandeirada=Decimal("6.00"), price_km_b1=Decimal("3.00"), price_km_b2=Decimal("3.60"),
        price_hour_waiting=Decimal("14.40"), decree="Decreto 40/2026")


def _driver(working_cab, user_for, today):
    permit = working_cab(signed_on=today - timedelta(days=60))  # its taxímetro afered then, for the demo tariff
    return permit, vehicle_in_service(permit), user_for(permit.holder)


@pytest.mark.article("Art. 45, §3", "Art. 45, §4", "Art. 47, §2")
def test_a_cab_awaiting_aferition_charges_its_old_tariff_converted_by_the_table(working_cab, user_for, today):
    permit, vehicle, driver = _driver(working_cab, user_for, today)
    old = TariffDecree.objects.get(effective_from=date(2026, 1, 1))
    decree = _new_tariff(today - timedelta(days=3))
    table = tariff_services.authorize_correction_table(
        tariff=decree, factor=Decimal("1.1111"), authorization="Decreto do Prefeito 41/2026",
        authorized_on=today - timedelta(days=4), valid_from=today - timedelta(days=3), valid_until=today + timedelta(days=26))
    trace = _trace(today)
    answer = driver.get("/api/tariffs/current/", {"at": trace[0].t.isoformat()}).json()
    assert answer["tariff"]["effective_from"] == old.effective_from.isoformat()  # what the taxímetro was afered for
    assert answer["taximeter"]["decision"]["allowed"] and answer["taximeter"]["correction"]["factor"] == "1.1111"
    phone = _phone(answer, trace)
    server = tariff_services.recompute_trip(trace, _reading(answer, trace), regime=taximeters.cab_meter_regime(vehicle, trace[0].t))
    assert server.correction.factor == table.factor and server.server_total == server.phone_total
    assert server.fare_due == phone > server.phone_total


def _reading(answer, trace):
    return _phone({**answer, "taximeter": None}, trace)


@pytest.mark.article("Art. 45, §5", "Art. 47, §2")
def test_a_cab_afered_for_the_new_tariff_charges_it_as_read(working_cab, user_for, today):
    permit, vehicle, driver = _driver(working_cab, user_for, today)
    decree = _new_tariff(today - timedelta(days=3))
    meter = vehicle.taximeters.get()
    taximeters.record_aferition(taximeter=meter, afered_on=today - timedelta(days=1), certificate="INMETRO 77/2026", seal="L-77")
    trace = _trace(today)
    answer = driver.get("/api/tariffs/current/", {"at": trace[0].t.isoformat()}).json()
    assert answer["tariff"]["effective_from"] == decree.effective_from.isoformat() and answer["taximeter"]["correction"] is None
    server = tariff_services.recompute_trip(trace, _phone(answer, trace), regime=taximeters.cab_meter_regime(vehicle, trace[0].t))
    assert server.fare_due == server.server_total == server.phone_total


@pytest.mark.article("Art. 47, §2")
def test_a_cab_not_afered_after_the_grace_gets_no_tariff_to_run(working_cab, user_for, today):
    permit, vehicle, driver = _driver(working_cab, user_for, today)
    _new_tariff(today - timedelta(days=30))  # 30 days of grace: from the decree's day to yesterday
    answer = driver.get("/api/tariffs/current/").json()
    assert answer["tariff"] is None  # the app's meter cannot start (Art. 45, Art. 47, §2)
    assert answer["taximeter"]["decision"]["reasons"][0]["code"] == "taximeter_aferition_overdue"
    assert taximeters.cab_meter_regime(vehicle, today - timedelta(days=1)).decision  # the grace's last day


@pytest.mark.article("Art. 47, §1", "Art. 47, §3")
def test_the_register_refuses_a_second_meter_an_unsealed_aferition_and_a_removal_without_inmetro(working_cab, today):
    permit = working_cab()
    vehicle = vehicle_in_service(permit)
    meter = vehicle.taximeters.get()
    with pytest.raises(LawViolation) as second:
        taximeters.install_taximeter(vehicle=vehicle, serial="X-1", make="Digitax", model="SmartTX", installed_on=today)
    assert second.value.decision.codes == ("taximeter_already_installed",)
    with pytest.raises(LawViolation) as unsealed:
        taximeters.record_aferition(taximeter=meter, afered_on=today, certificate="INMETRO 1", seal="")
    assert unsealed.value.decision.codes == ("aferition_without_seal",)
    with pytest.raises(LawViolation) as removal:
        taximeters.remove_taximeter(taximeter=meter, removed_on=today, inmetro_permission=" ")
    assert removal.value.decision.codes == ("taximeter_removal_without_permission",)
    taximeters.remove_taximeter(taximeter=meter, removed_on=today, inmetro_permission="INMETRO ofício 9/2026")
    replacement = taximeters.install_taximeter(vehicle=vehicle, serial="X-1", make="Digitax", model="SmartTX", installed_on=today)
    assert taximeters.last_aferition_on(vehicle, today) is None  # a new meter needs its own aferição
    assert not taximeters.cab_meter_regime(vehicle, today).decision
    taximeters.record_aferition(taximeter=replacement, afered_on=today, certificate="INMETRO 2", seal="L-2")
    assert taximeters.cab_meter_regime(vehicle, today).decision


@pytest.mark.article("Art. 47, §2")
def test_the_scheduler_tells_the_holder_once_by_when_to_afer_and_not_once_afered(working_cab, today):
    from backend.notices.jobs.registry import taximeter_aferition
    from backend.notices.models import Notice

    permit = working_cab(signed_on=today - timedelta(days=60))
    afered = working_cab(signed_on=today - timedelta(days=60))
    _new_tariff(today - timedelta(days=3))
    taximeters.record_aferition(taximeter=vehicle_in_service(afered).taximeters.get(), afered_on=today,
                                certificate="INMETRO 5/2026", seal="L-5")
    taximeter_aferition(timezone.now())
    taximeter_aferition(timezone.now())
    notice = Notice.objects.get(code="taximeter_aferition_due")
    assert notice.permit == permit and notice.person == permit.holder
    assert (today + timedelta(days=26)).strftime("%d/%m/%Y") in notice.message


@pytest.mark.article("Art. 47, §1", "Art. 47, §3")
def test_the_api_runs_the_register_through_its_services(dimutran, working_cab, user_for, today):
    permit = working_cab()
    vehicle = vehicle_in_service(permit)
    meter = vehicle.taximeters.get()
    second = dimutran.post("/api/taximeters/", {"vehicle": vehicle.pk, "serial": "N-2", "make": "Digitax", "model": "X",
                                                "installed_on": today}, format="json")
    assert second.status_code == 400 and second.json()["reasons"][0]["code"] == "taximeter_already_installed"
    removal = dimutran.post(f"/api/taximeters/{meter.pk}/remove/", {"removed_on": today, "inmetro_permission": ""}, format="json")
    assert removal.status_code == 400
    assert dimutran.post(f"/api/taximeters/{meter.pk}/remove/", {"removed_on": today, "inmetro_permission": "Ofício 3"},
                         format="json").status_code == 200
    new = dimutran.post("/api/taximeters/", {"vehicle": vehicle.pk, "serial": "N-2", "make": "Digitax", "model": "X",
                                             "installed_on": today}, format="json")
    assert new.status_code == 201, new.content
    future = dimutran.post(f"/api/taximeters/{new.json()['id']}/aferitions/",
                           {"afered_on": today + timedelta(days=1), "certificate": "C", "seal": "L"}, format="json")
    assert future.status_code == 400 and future.json()["reasons"][0]["code"] == "aferition_in_future"
    done = dimutran.post(f"/api/taximeters/{new.json()['id']}/aferitions/",
                         {"afered_on": today, "certificate": "INMETRO 8", "seal": "L-8"}, format="json")
    assert done.status_code == 201 and done.json()["aferitions"][0]["seal"] == "L-8"
    holder = user_for(permit.holder)
    assert {m["serial"] for m in holder.get("/api/taximeters/").json()["results"]} == {meter.serial, "N-2"}
    assert holder.post(f"/api/taximeters/{meter.pk}/aferitions/", {"afered_on": today, "certificate": "x", "seal": "y"},
                       format="json").status_code == 403


@pytest.mark.article("Art. 45, §3", "Art. 43")
def test_a_ride_under_a_correction_table_keeps_the_reading_and_charges_the_converted_fare(working_cab, today):
    from backend.receipts.receipts import breakdown
    from backend.trips.models import Ride
    from backend.trips.services import record_finished_trip
    from taxilaw.meter_check import recompute
    from taxilaw.receipt import total

    permit = working_cab(signed_on=today - timedelta(days=60))
    decree = _new_tariff(today - timedelta(days=3))
    tariff_services.authorize_correction_table(
        tariff=decree, factor=Decimal("1.1111"), authorization="Decreto do Prefeito 41/2026",
        authorized_on=today - timedelta(days=4), valid_from=today - timedelta(days=3), valid_until=today + timedelta(days=26))
    fixes = _trace(today)
    old = TariffDecree.objects.get(effective_from=date(2026, 1, 1)).to_law()
    reading = recompute(fixes, old, frozenset(), started_at=fixes[0].t, stopped_at=fixes[-1].t).total  # the phone's meter
    ride = Ride.objects.create(status="on_board", created_by="operator", permit=permit, driver=permit.holder,
                               pickup_lat=-21.1311, pickup_lon=-42.3676, on_board_at=fixes[0].t)
    ride = record_finished_trip(ride, meter_total=reading, stopped_at=fixes[-1].t,
                                trace=[{"t": f.t, "lat": f.lat, "lon": f.lon, "accuracy_m": f.accuracy_m} for f in fixes])
    assert ride.meter_reading == reading and ride.correction_factor == Decimal("1.1111")
    assert ride.fare == (reading * Decimal("1.1111")).quantize(Decimal("0.01"), rounding=ROUND_DOWN) > reading
    assert not ride.meter_disagreement  # the server ran the tariff the taxímetro was afered for
    lines, tariff = breakdown(ride)
    assert tariff == old and total(lines) == ride.fare and lines[-1].code == "correction"
