"""Statements that fill themselves: the scheduler `make run` starts closes an ended week, and /extratos/ offers it.

Issue 18, item 7: nothing but the scheduler closes the week here (no `close_weeks` command, no service call).
"""

import csv
import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from backend.registry.services import auxiliaries
from backend.statements.models import WeeklyStatement
from backend.statements.services import monday_of

from .statements_helpers import ride


@pytest.mark.django_db
@pytest.mark.article("Art. 1, §3")
def test_the_scheduler_closes_last_week_and_the_page_offers_its_pdf_and_csv(working_cab, make_person, user_for, today):
    last_monday = monday_of(timezone.localdate()) - timedelta(days=7)
    permit = working_cab(signed_on=last_monday - timedelta(days=60))
    aux = make_person()
    auxiliaries.authorize_auxiliary(permit=permit, person=aux, on=last_monday - timedelta(days=30))
    completed = timezone.localtime().replace(hour=10, minute=0, second=0, microsecond=0) - timedelta(days=7)
    ride(permit, aux, "40.00", completed)
    user_for(permit.holder)
    assert not WeeklyStatement.objects.exists()

    call_command("scheduler", "--once", stdout=io.StringIO())  # one check, as `make run`'s scheduler does every 30 s

    statement = WeeklyStatement.objects.get(permit=permit, driver=aux, week_start=last_monday)
    client = Client()
    client.force_login(permit.holder.user)
    html = client.get("/extratos/").content.decode()
    sunday = last_monday + timedelta(days=6)
    assert f"Semana de {last_monday:%d/%m/%Y} a {sunday:%d/%m/%Y}" in html
    assert f"/api/statements/{statement.pk}.csv" in html and f"/statements/{statement.pk}.pdf" in html
    assert "R$ 40,00" in html and "R$ 10,00" in html  # the ride's fare and the auxiliary's 25 %
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/statements/{statement.pk}.csv").content.decode("utf-8-sig")),
                               delimiter=";"))
    assert [r["corrida_tarifa"] for r in rows if r["linha"] == "corrida"] == ["40,00"]
    assert client.get(f"/statements/{statement.pk}.pdf").content.startswith(b"%PDF")
    # Once per period, however many processes ask: a second check closes nothing more.
    call_command("scheduler", "--once", stdout=io.StringIO())
    assert WeeklyStatement.objects.filter(week_start=last_monday).count() == WeeklyStatement.objects.count()
