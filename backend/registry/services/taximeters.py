"""The register of taxímetros and their INMETRO aferições (Art. 47); the tariff a cab's meter charges (Art. 45, §3-§5)."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from backend.api_errors import require
from backend.tariffs import selectors as tariff_selectors
from taxilaw import taximeters as law

from ..models import Taximeter, TaximeterAferition, Vehicle


def installed_taximeter(vehicle: Vehicle, on: date | None = None) -> Taximeter | None:
    """The taxímetro installed in the cab on ``on`` (default today)."""
    on = on or timezone.localdate()
    return (vehicle.taximeters.filter(installed_on__lte=on).exclude(removed_on__lt=on)
            .order_by("-installed_on", "-id").first())


def last_aferition_on(vehicle: Vehicle | None, on: date | None = None) -> date | None:
    """The last aferição, on or before ``on``, of the taxímetro installed in the cab that day (Art. 47, §1)."""
    meter = installed_taximeter(vehicle, on) if vehicle is not None else None
    if meter is None:
        return None
    aferitions = meter.aferitions.all()
    if on is not None:
        aferitions = aferitions.filter(afered_on__lte=on)
    return aferitions.order_by("-afered_on").values_list("afered_on", flat=True).first()


def cab_meter_regime(vehicle: Vehicle | None, at: date | datetime | None = None) -> law.MeterRegime:
    """What the cab's meter charges at ``at``: its afered tariff and the correction of its reading, or a refusal."""
    day = tariff_selectors._day(at)
    return tariff_selectors.meter_regime(last_aferition_on(vehicle, day), day)


def check_installation(vehicle: Vehicle, make: str, serial: str) -> None:
    """One taxímetro per cab (Art. 47, §3) and one register entry per device; used by the service and the admin."""
    cab, device = law.may_install(vehicle.taximeters.filter(removed_on__isnull=True).exists(),
                                  Taximeter.objects.filter(make=make, serial=serial).exists(), make, serial)
    require(cab, "serial")
    require(device, "serial")


@transaction.atomic
def install_taximeter(*, vehicle: Vehicle, serial: str, make: str, model: str, installed_on: date,
                      installer: str = "") -> Taximeter:
    """Register the taxímetro installed in a cab; one at a time (Art. 47, §3: the old one leaves only with INMETRO's
    permission, recorded by :func:`remove_taximeter`)."""
    Vehicle.objects.select_for_update().get(pk=vehicle.pk)
    check_installation(vehicle, make, serial)
    return Taximeter.objects.create(vehicle=vehicle, serial=serial, make=make, model=model, installer=installer,
                                    installed_on=installed_on)


@transaction.atomic
def remove_taximeter(*, taximeter: Taximeter, removed_on: date, inmetro_permission: str) -> Taximeter:
    """The taxímetro leaves the cab with INMETRO's permission (Art. 47, §3)."""
    taximeter = Taximeter.objects.select_for_update().get(pk=taximeter.pk)
    permission, day = law.may_remove(inmetro_permission, taximeter.removed_on is not None, taximeter.installed_on, removed_on)
    require(permission, "inmetro_permission")
    require(day, "removed_on")
    taximeter.removed_on = removed_on
    taximeter.save(update_fields=["removed_on"])
    return taximeter


def equip_afered(vehicle: Vehicle, *, installed_on: date, serial: str, on: date | None = None) -> TaximeterAferition:
    """Install a taxímetro and record its aferição for the tariff in force (the demo data and the tests' cabs)."""
    on = on or timezone.localdate()
    meter = install_taximeter(vehicle=vehicle, serial=serial, make="Digitax", model="SmartTX", installed_on=installed_on,
                              installer="Oficina credenciada (demo)")
    in_force = tariff_selectors.tariff_decree_in_force(on)
    afered_on = max(installed_on, in_force.effective_from) if in_force else installed_on
    return record_aferition(taximeter=meter, afered_on=min(afered_on, on), certificate=f"INMETRO-{serial}", seal=f"L-{serial}")


@transaction.atomic
def record_aferition(*, taximeter: Taximeter, afered_on: date, certificate: str, seal: str) -> TaximeterAferition:
    """Register an INMETRO aferição (Art. 47, §1-§2) once the law core accepts it."""
    taximeter = Taximeter.objects.select_for_update().get(pk=taximeter.pk)
    require(law.may_record_aferition(afered_on, certificate, seal, taximeter.installed_on, taximeter.removed_on,
                                     timezone.localdate()), "afered_on")
    return TaximeterAferition.objects.create(taximeter=taximeter, afered_on=afered_on, certificate=certificate.strip(),
                                             seal=seal.strip())
