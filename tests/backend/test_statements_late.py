"""Rides recorded after their week was closed: flagged and carried, never lost nor rewriting (Lei 1.242/1987, Art. 1, §3)."""

import csv
import importlib
import io
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import Client

from backend.registry.services import auxiliaries
from backend.statements import documents, services
from backend.statements.models import StatementAdjustment, StatementRide, WeekClosure, WeeklyStatement

from .statements_helpers import (  # noqa: F401 (fixture)
    AFTER_WEEK,
    AUTHORIZED_ON,
    MONDAY,
    NEXT_MONDAY,
    SIGNED_ON,
    SP,
    cab_with_aux,
    local,
    ride,
    statement,
)

AFTER_NEXT_WEEK = datetime.combine(NEXT_MONDAY + timedelta(days=7), time(0, 5), SP)


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_late_ride_is_carried_into_the_next_closing_and_the_closed_statement_stays(cab_with_aux):
    permit, _, aux = cab_with_aux
    on_time = ride(permit, aux, "10.06", local(MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    closed = statement(permit, aux)
    # the driver app was offline on Wednesday and synced after the closing
    late = ride(permit, aux, "10.06", local(MONDAY + timedelta(days=2), 18))
    ride(permit, aux, "4.00", local(NEXT_MONDAY, 9))
    closure = services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)

    closed.refresh_from_db()
    assert (closed.gross, closed.rides, closed.auxiliary_part) == (Decimal("10.06"), 1, Decimal("2.52"))  # unchanged
    nxt = statement(permit, aux, NEXT_MONDAY)
    assert (nxt.gross, nxt.rides, nxt.auxiliary_part, nxt.holder_part) == (
        Decimal("4.00"), 1, Decimal("1.00"), Decimal("3.00"))  # the week's own rides, as before
    [adj] = nxt.adjustment_lines
    assert (adj.original_week_start, adj.original_week_end) == (MONDAY, MONDAY + timedelta(days=6))
    assert adj.original_statement == closed and adj.rides == 1 and adj.gross == Decimal("10.06")
    # the week of 16/11 grossed 20,12 in all: 25% = 5,03, of which 2,52 was paid with the closed statement
    assert (adj.settled_gross, adj.auxiliary_part, adj.holder_part) == (Decimal("10.06"), Decimal("2.51"), Decimal("7.55"))
    assert closed.auxiliary_part + adj.auxiliary_part == Decimal("5.03")
    assert (nxt.total_gross, nxt.total_auxiliary_part, nxt.total_holder_part) == (
        Decimal("14.06"), Decimal("3.51"), Decimal("10.55"))
    assert nxt.total_auxiliary_part + nxt.total_holder_part == nxt.total_gross
    # the ride is flagged late, counted once; the closure says how many late rides it carried
    assert StatementRide.objects.get(ride=late).late and StatementRide.objects.get(ride=late).adjustment == adj
    assert not StatementRide.objects.get(ride=on_time).late
    assert closure.late_rides == 1 and WeekClosure.objects.get(week_start=NEXT_MONDAY).late_rides == 1
    assert closed.carried_later_lines == [adj]


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_late_ride_is_carried_once_even_without_rides_in_the_closing_week(cab_with_aux):
    permit, holder, aux = cab_with_aux
    ride(permit, holder, "30.00", local(MONDAY, 8))
    services.close_week(MONDAY, now=AFTER_WEEK)
    ride(permit, aux, "40.00", local(MONDAY, 9))  # the auxiliary had no statement that week
    services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)
    carrier = statement(permit, aux, NEXT_MONDAY)
    assert (carrier.rides, carrier.gross) == (0, Decimal("0.00"))
    [adj] = carrier.adjustment_lines
    assert adj.original_statement is None and adj.settled_gross == Decimal("0.00")
    assert (adj.auxiliary_part, adj.holder_part, adj.agreement) == (Decimal("10.00"), Decimal("30.00"), "law")
    services.close_week(NEXT_MONDAY + timedelta(days=7), now=AFTER_NEXT_WEEK + timedelta(days=7))
    assert StatementAdjustment.objects.count() == 1 and StatementRide.objects.filter(adjustment__isnull=False).count() == 1
    assert not WeeklyStatement.objects.filter(week_start=NEXT_MONDAY + timedelta(days=7)).exists()


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3", "Art. 1, §6")
def test_a_late_ride_keeps_the_terms_of_its_own_week(working_cab, make_person):
    permit = working_cab(signed_on=SIGNED_ON)
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=AUTHORIZED_ON, contract_auxiliary_percent=Decimal("40"),
                                    contract_reference="Contrato 12/2026")
    ride(permit, aux, "50.00", local(MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    ride(permit, aux, "10.00", local(MONDAY, 11))
    ride(permit, permit.holder, "5.00", local(MONDAY, 12))  # the holder's own late ride: not split
    services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)
    [adj] = statement(permit, aux, NEXT_MONDAY).adjustment_lines
    assert (adj.agreement, adj.auxiliary_percent, adj.auxiliary_part, adj.holder_part) == (
        "contract", Decimal("40.00"), Decimal("4.00"), Decimal("6.00"))
    [own] = statement(permit, permit.holder, NEXT_MONDAY).adjustment_lines
    assert (own.role, own.auxiliary_part, own.holder_part) == ("permissionario", Decimal("0.00"), Decimal("5.00"))


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_a_ride_of_a_week_not_yet_closed_is_not_late(cab_with_aux):
    permit, _, aux = cab_with_aux
    ride(permit, aux, "12.00", local(MONDAY, 10))
    services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)  # closed out of order: 16/11 is still open
    assert not StatementAdjustment.objects.exists()
    services.close_week(MONDAY, now=AFTER_NEXT_WEEK)
    s = statement(permit, aux)
    assert s.gross == Decimal("12.00") and s.adjustment_lines == []


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_running_week_shows_late_rides_pending_for_the_next_closing(cab_with_aux, user_for):
    from django.utils import timezone

    permit, holder, aux = cab_with_aux
    last_monday = services.monday_of(timezone.now()) - timedelta(days=7)
    services.close_week(last_monday)
    late = ride(permit, aux, "8.00", datetime.combine(last_monday, time(10), SP))
    running = services.running_statement(permit, aux)
    [adj] = running.adjustment_lines
    assert adj.pk is None and adj.original_week_start == last_monday and adj.auxiliary_part == Decimal("2.00")
    assert "pendente" in documents.adjustment_label(adj)
    assert not StatementRide.objects.filter(ride=late).exists()  # nothing stored by a running week
    [st] = user_for(aux).get("/api/statements/current/").json()["statements"]
    [row] = st["adjustments"]
    assert row["pending"] is True and row["original_week_start"] == last_monday.isoformat()
    assert [r["ride"] for r in row["late_rides"]] == [late.pk]
    assert (st["total_gross"], st["total_auxiliary_part"], st["total_holder_part"]) == ("8.00", "2.00", "6.00")
    rows = services.running_statements_for_permit(permit)
    assert [len(r.adjustment_lines) for r in rows] == [0, 1]  # holder, auxiliary


@pytest.fixture
def carried(cab_with_aux):
    permit, holder, aux = cab_with_aux
    ride(permit, aux, "10.06", local(MONDAY, 10))
    services.close_week(MONDAY, now=AFTER_WEEK)
    late = ride(permit, aux, "10.06", local(MONDAY + timedelta(days=2), 18))
    ride(permit, aux, "4.00", local(NEXT_MONDAY, 9))
    services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)
    return {"permit": permit, "holder": holder, "aux": aux, "late": late,
            "closed": statement(permit, aux), "next": statement(permit, aux, NEXT_MONDAY)}


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_late_rides_in_the_statement_api(carried, user_for):
    client = user_for(carried["aux"])
    body = client.get(f"/api/statements/{carried['next'].pk}/").json()
    assert (body["gross"], body["rides"]) == ("4.00", 1)
    [adj] = body["adjustments"]
    assert adj["pending"] is False and adj["original_week_start"] == "2026-11-16" and adj["original_week_end"] == "2026-11-22"
    assert adj["original_statement"] == carried["closed"].pk
    assert (adj["gross"], adj["auxiliary_part"], adj["holder_part"], adj["settled_gross"]) == ("10.06", "2.51", "7.55", "10.06")
    assert [r["ride"] for r in adj["late_rides"]] == [carried["late"].pk] and adj["late_rides"][0]["fare"] == "10.06"
    assert "registradas após o fechamento" in adj["label"]
    assert (body["late_gross"], body["total_gross"], body["total_auxiliary_part"], body["total_holder_part"]) == (
        "10.06", "14.06", "3.51", "10.55")
    closed = client.get(f"/api/statements/{carried['closed'].pk}/").json()
    assert closed["gross"] == "10.06" and closed["adjustments"] == []
    assert [c["statement"] for c in closed["carried_later"]] == [carried["next"].pk]
    assert closed["carried_later"][0]["week_start"] == NEXT_MONDAY.isoformat()


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_late_rides_in_the_csv_pdf_and_page(carried, user_for):
    user_for(carried["holder"])
    client = Client()
    client.force_login(carried["holder"].user)
    response = client.get(f"/api/statements/{carried['next'].pk}.csv")
    every = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    rows = [r for r in every if r["linha"] in ("semana", "ajuste", "total")]
    assert [r["linha"] for r in rows] == ["semana", "ajuste", "total"]
    assert [r["corrida_lancada_depois"] for r in every if r["linha"] == "corrida"] == ["sim", "não"]
    week, adj, total = rows
    assert (week["valor_bruto"], week["parte_auxiliar"]) == ("4,00", "1,00")
    assert (adj["semana_original_inicio"], adj["semana_original_fim"]) == ("16/11/2026", "22/11/2026")
    assert adj["extrato_original"] == str(carried["closed"].pk) and f"#{carried['late'].pk}" in adj[
        "corridas_registradas_apos_fechamento"]
    assert (adj["valor_bruto"], adj["parte_auxiliar"], adj["parte_permissionario"]) == ("10,06", "2,51", "7,55")
    assert (total["valor_bruto"], total["parte_auxiliar"], total["parte_permissionario"], total["corridas"]) == (
        "14,06", "3,51", "10,55", "2")
    old = list(csv.DictReader(io.StringIO(client.get(f"/api/statements/{carried['closed'].pk}.csv")
                                          .content.decode("utf-8-sig")), delimiter=";"))
    assert old[0]["linha"] == "semana" and "23/11/2026" in old[0]["lancadas_depois_em"]

    lines = dict(documents.lines(carried["next"]))
    label = next(k for k in lines if k.startswith("Ajuste: corridas da semana de 16/11/2026 a 22/11/2026"))
    assert f"nº {carried['closed'].pk}" in label and "R$ 2,51" in lines[label] and f"#{carried['late'].pk}" in lines[label]
    assert lines["Total com ajustes: parte do auxiliar"] == "R$ 3,51"
    assert "lançada(s) no extrato da semana de 23/11/2026" in dict(documents.lines(carried["closed"]))[
        "Corridas registradas após o fechamento"]
    assert client.get(f"/statements/{carried['next'].pk}.pdf").content.startswith(b"%PDF")

    html = client.get("/extratos/").content.decode()
    assert "Ajuste: corridas da semana de 16/11/2026 a 22/11/2026 registradas após o fechamento" in html
    assert "R$ 2,51" in html and "R$ 3,51" in html and "Total com ajustes" in html
    assert "sincronizadas mais tarde" in html


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_migration_counts_the_rides_of_statements_closed_before_it(cab_with_aux):
    """Statements closed before the ride ledger existed: their rides are counted, later-recorded ones are carried."""
    permit, holder, aux = cab_with_aux
    ride(permit, aux, "10.00", local(MONDAY, 10))
    ride(permit, aux, "20.00", local(MONDAY, 11))
    services.close_week(MONDAY, now=AFTER_WEEK)
    StatementRide.objects.all().delete()  # as before the migration: no ledger
    late = ride(permit, aux, "5.00", local(MONDAY, 12))  # recorded after that closing
    migration = importlib.import_module("backend.statements.migrations.0002_late_rides_and_ctps")
    # The models as that migration saw them (Ride was dispatch's then; trips 0001 moved it, same table).
    historical = MigrationLoader(connection).project_state(("statements", "0002_late_rides_and_ctps")).apps
    migration.count_rides_of_closed_statements(historical, None)
    assert StatementRide.objects.count() == 2 and not StatementRide.objects.filter(ride=late).exists()
    services.close_week(NEXT_MONDAY, now=AFTER_NEXT_WEEK)
    [adj] = statement(permit, aux, NEXT_MONDAY).adjustment_lines
    assert adj.gross == Decimal("5.00") and adj.settled_gross == Decimal("30.00")
