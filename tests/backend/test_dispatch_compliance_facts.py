"""Offers ask the law core on facts kept on the cab; any registry write makes the database forget them.

The trigger of migration dispatch.0003 fires whatever writes: a service, the
admin, a queryset ``update()`` (no Django signal), raw SQL. Art. 9 (who may
drive), Art. 4 (alvará), Art. 35/38 (vistoria), Art. 51 (CMT), Art. 54, b
(suspension), Art. 1, §5 (auxiliar's proof).
"""

from datetime import date, timedelta

import pytest
from django.db import connection

from backend.registry.models import Alvara, Auxiliary, Cmt, Inspection, Permit, SocialSecurityProof, Suspension, Vehicle
from backend.registry.services import auxiliaries
from dispatch.models import Cab
from dispatch.rides import cabs, compliance

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cab(working_cab, make_person, today):
    permit = working_cab(signed_on=today - timedelta(days=40))
    assistant = make_person()
    aux = auxiliaries.authorize_auxiliary(permit=permit, person=assistant, on=today - timedelta(days=30))
    auxiliaries.record_social_security_proof(auxiliary=aux, quarter_end=date(today.year - 1, 12, 31), presented_on=today - timedelta(days=20))
    cab = cabs.go_online(permit.holder)
    assert cab.compliance_facts is not None  # kept when the driver connected
    return cab


def _kept(cab):
    return Cab.objects.values_list("compliance_facts", "facts_epoch").get(pk=cab.pk)


WRITES = {
    "registry_permit": lambda p: Permit.objects.filter(pk=p.pk).update(number=p.number),
    "registry_alvara": lambda p: Alvara.objects.filter(permit=p).update(expires_on=date(2020, 1, 1)),
    "registry_vehicle": lambda p: Vehicle.objects.filter(permit=p).update(colour="prata"),
    "registry_inspection": lambda p: Inspection.objects.filter(vehicle__permit=p).update(result=Inspection.Result.FAILED),
    "registry_cmt": lambda p: Cmt.objects.filter(person=p.holder).delete(),
    "registry_suspension": lambda p: Suspension.objects.bulk_create(
        [Suspension(permit=p, starts_on=date(2020, 1, 1), ends_on=date(2099, 1, 1), reason="teste")]),
    "registry_auxiliary": lambda p: Auxiliary.objects.filter(permit=p).update(status=Auxiliary.Status.CANCELLED),
    "registry_socialsecurityproof": lambda p: SocialSecurityProof.objects.filter(auxiliary__permit=p).delete(),
}


@pytest.mark.article("Art. 4", "Art. 9", "Art. 35", "Art. 38", "Art. 51", "Art. 54, b", "Art. 1, §5")
@pytest.mark.parametrize("table", sorted(WRITES))
def test_any_write_to_a_registry_table_the_facts_come_from_forgets_them(cab, table):
    facts, epoch = _kept(cab)
    WRITES[table](cab.permit)
    forgotten, later = _kept(cab)
    assert forgotten is None and later > epoch


def test_every_table_the_facts_are_read_from_has_the_trigger():
    """The facts come from these tables (backend.registry.compliance.compliance_facts): each must forget them."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT DISTINCT event_object_table FROM information_schema.triggers WHERE trigger_name = 'dispatch_forget_facts'")
        else:
            cursor.execute("SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'dispatch_forget_facts_%'")
        assert {row[0] for row in cursor.fetchall()} == set(WRITES)


@pytest.mark.article("Art. 54, b", "Art. 66")
def test_a_cab_suspended_by_a_bulk_write_is_refused_at_the_next_offer(cab, today):
    assert compliance.may_work(Cab.objects.select_related("permit", "driver").get(pk=cab.pk))
    Suspension.objects.bulk_create([Suspension(permit=cab.permit, starts_on=today, ends_on=today + timedelta(days=3), reason="teste")])
    decision = compliance.may_work(Cab.objects.select_related("permit", "driver").get(pk=cab.pk))
    assert not decision and "permit_suspended" in decision.codes


def test_facts_read_before_a_registry_write_are_not_stored_after_it(cab):
    """The reader saw epoch e; a registry write commits meanwhile: what was read is not kept."""
    stale = Cab.objects.select_related("permit", "driver").get(pk=cab.pk)
    Cab.objects.filter(pk=cab.pk).update(compliance_facts=None)  # the next reader must read the registry
    stale.compliance_facts = None
    Alvara.objects.filter(permit=cab.permit).update(expires_on=date(2020, 1, 1))  # the write, after the read of the cab
    compliance.may_work(stale)  # reads the registry, tries to store under the old epoch
    assert _kept(cab)[0] is None
    fresh = Cab.objects.select_related("permit", "driver").get(pk=cab.pk)
    assert "alvara_expired" in compliance.may_work(fresh).codes
    assert _kept(cab)[0] is not None  # now kept, read after the write
