"""The indicators' scheduled work: the nightly rollup (01:30) and the monthly report on the first working day (06:00)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.parameters.selectors import municipal_holidays
from backend.scheduler.jobs import job
from taxilaw.calendar import add_months, next_working_day

from .models import MonthlyReport
from .report import monthly_report_pdf
from .rollup import days_to_roll_up, roll_up_day


def first_working_day(month: date) -> date:
    """The month's first dia útil (taxilaw.calendar: weekends, national, MG and Muriaé's holidays excluded)."""
    return next_working_day(month, municipal_holidays([month.year]))


def report_due(today: date) -> date | None:
    """The month whose report is due on ``today`` (the previous one, from this month's first working day on), or
    None: before the first working day, or when it exists. A scheduler that was down catches up the next day."""
    month = today.replace(day=1)
    previous = add_months(month, -1)
    if today < first_working_day(month) or MonthlyReport.objects.filter(month=previous).exists():
        return None
    return previous


def generate_monthly_report(month: date, now: datetime) -> MonthlyReport | None:
    """Build and keep ``month``'s report once: None when it exists (here or made by another process meanwhile)."""
    pdf = monthly_report_pdf(month, now)
    try:
        with transaction.atomic():
            return MonthlyReport.objects.create(month=month, generated_at=now, pdf=pdf)
    except IntegrityError:
        return None


@job("monthly_report", every=timedelta(days=1), at=timedelta(hours=6), in_steps=True)
def monthly_report(now: datetime) -> str:
    month = report_due(timezone.localdate(now))
    if month is None:
        return ""
    made = generate_monthly_report(month, now)
    return f"relatório mensal {month:%m/%Y} gerado" if made else ""


@job("indicators_rollup", every=timedelta(days=1), at=timedelta(hours=1, minutes=30), in_steps=True)
def indicators_rollup(now: datetime) -> str:
    """The closed days' indicators into the rollup the page reads (``rollup.py``), before the monthly report."""
    days = days_to_roll_up(timezone.localdate(now))
    for day in days:
        roll_up_day(day, now)
    return f"dias consolidados {len(days)}"
