"""The monthly report (issue 32): built by the scheduler on the first working day of the month for the month before
(not before, once), downloadable by DIMUTRAN only, with the month's figures and the trend."""

import subprocess
from datetime import date

import pytest
from django.contrib.auth import get_user_model

from backend.indicators.jobs import first_working_day
from backend.indicators.models import MonthlyReport
from backend.scheduler.jobs import run_due

from .indicator_fixtures import local, month_end_rides

pytestmark = pytest.mark.django_db


def tick(*when):
    return run_due(local(*when), only={"monthly_report"})


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def test_the_first_working_day_of_november_2026_is_the_third():
    """Taxilaw's calendar: 01/11/2026 is a Sunday, 02/11 Finados (a national holiday)."""
    assert first_working_day(date(2026, 11, 1)) == date(2026, 11, 3)
    assert first_working_day(date(2026, 12, 1)) == date(2026, 12, 1)


def test_the_scheduler_builds_last_months_report_on_the_first_working_day_once():
    month_end_rides()
    tick(2026, 11, 1, 8, 0)  # Sunday
    tick(2026, 11, 2, 8, 0)  # Finados
    tick(2026, 11, 3, 5, 0)  # the working day, before the job's hour (06:00)
    assert not MonthlyReport.objects.exists()
    [run] = tick(2026, 11, 3, 8, 0)
    assert run.summary == "relatório mensal 10/2026 gerado"
    [report] = MonthlyReport.objects.all()
    assert (report.month, report.generated_at) == (date(2026, 10, 1), local(2026, 11, 3, 8, 0))
    tick(2026, 11, 3, 9, 0)
    tick(2026, 11, 4, 8, 0)
    tick(2026, 11, 30, 8, 0)
    assert MonthlyReport.objects.get().generated_at == local(2026, 11, 3, 8, 0)  # once
    text = pdf_text(bytes(report.pdf))
    assert "Relatório mensal dos indicadores — outubro de 2026" in text
    assert "Pedidos por dia" in text and "Tendência: os últimos 6 meses" in text and "out/26" in text
    assert "R$ 23,45" in text  # ride A's fare, completed at 23:50 on 31/10: October's gross
    assert "TX-" not in text  # aggregates only: no permit named


def test_a_scheduler_that_was_down_catches_up_the_next_day():
    tick(2026, 12, 2, 8, 0)  # 01/12 (Tuesday) missed
    assert MonthlyReport.objects.get().month == date(2026, 11, 1)


def test_only_dimutran_downloads_the_report(client, working_cab):
    tick(2026, 11, 3, 8, 0)
    url = "/dimutran/relatorios/2026-10.pdf"
    assert client.get(url).status_code == 302  # to the login
    user = get_user_model().objects.create_user("motorista", password="x")
    holder = working_cab().holder
    holder.user = user
    holder.save()
    client.force_login(user)
    assert client.get(url).status_code == 403
    client.force_login(get_user_model().objects.create_superuser("dimutran", password="x"))
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF") and "2026-10.pdf" in answer["Content-Disposition"]
    assert client.get("/dimutran/relatorios/2026-09.pdf").status_code == 404
    assert client.get("/dimutran/relatorios/2026-13.pdf").status_code == 404
    assert url in client.get("/dimutran/indicadores/").content.decode()  # listed on the page
