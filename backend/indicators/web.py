"""DIMUTRAN's page of indicators: tables and server-side SVG charts of the selectors, staff only, pt-BR."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format

from backend.api.permissions import is_dimutran

from . import charts, fleet, labels, maps, money, open_data, permits, rank_occupancy, service
from .api.views import PeriodQuery
from .models import MonthlyReport
from .periods import series_grain

BAIRROS_CHARTED = 12
# The time series' words per grain (periods.series_grain): a period up to a quarter by day, a longer one by week.
SERIES_WORDS = {"day": ("dia", "Dia"), "week": ("semana", "Semana (segunda)")}


def _day(d) -> str:
    return date_format(d, "d/m")


def _series_label(grain: str, key) -> str:
    return _day(key) if grain == "day" else f"sem. {_day(key)}"


def _heat(share: float | None) -> tuple[str, int | None]:
    """A table cell of rank occupancy: its text and its shade (0-4; None where the hour is not reached yet)."""
    if share is None:
        return "—", None
    return f"{share * 100:.0f}", min(4, int(share * 5))


def _rank_rows(ranks: list[dict]) -> list[dict]:
    return [{**r, "cells": [_heat(h["occupancy"]) for h in r["hours"]], "total": _heat(r["occupancy"])[0]} for r in ranks]


def _dimutran_only(request):
    """An anonymous visitor to the admin's login (and back); anyone else but DIMUTRAN: 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), "/admin/login/")
    if not is_dimutran(request.user):
        raise PermissionDenied("Apenas a DIMUTRAN vê os indicadores.")
    return None


def monthly_report_pdf(request, year: str, month: str):
    """``/dimutran/relatorios/AAAA-MM.pdf``: the report as it was issued; 404 for a month without one."""
    if refused := _dimutran_only(request):
        return refused
    if not 1 <= int(month) <= 12:
        raise Http404("Mês inválido.")
    report = MonthlyReport.objects.filter(month=date(int(year), int(month), 1)).first()
    if report is None:
        raise Http404("Não há relatório para este mês.")
    response = HttpResponse(bytes(report.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="relatorio-taxis-{report.filename}"'
    return response


def indicators_page(request):
    if refused := _dimutran_only(request):
        return refused
    query = PeriodQuery(data=request.GET)
    error = None
    if not query.is_valid():
        error = " ".join(str(m) for messages in query.errors.values() for m in messages)
        query = PeriodQuery(data={})
        query.is_valid()
    period = query.validated_data["period"]
    now = timezone.now()
    total = service.service_total(period)
    grain = series_grain(period)
    days = service.service(period, grain)
    per, heading = SERIES_WORDS[grain]
    keys = [_series_label(grain, r["key"]) for r in days]
    hours = service.service(period, "hour")
    bairros = service.service_by_bairro(period)
    weeks = money.gross_by_week(period)
    state = fleet.fleet(now)
    ranks = rank_occupancy.rank_occupancy(period, now)
    every = max(1, len(days) // 16)
    context = {
        "title": "Indicadores do serviço de táxi", "period": period, "error": error,
        "cards": [(label, total[key]) for key, label in labels.SERVICE.items()],
        "days": days, "series_title": f"Por {per}", "series_heading": heading, "bairros": bairros, "weeks": weeks, "held": money.held_fares(), "fleet": state,
        "expiring": fleet.expiring_documents(timezone.localdate(now)),
        "permits": permits.permit_indicators(period, timezone.localdate(now)), "permit_labels": labels.PERMIT,
        "ranks": _rank_rows(ranks), "hours": range(24), "reports": MonthlyReport.objects.only("month")[:24],
        "maps": [("Pedidos sem táxi (não atendidos e encaminhados ao operador), por local do embarque",
                  maps.unanswered_map(period)),
                 ("Ocupação dos pontos no período", maps.occupancy_map(ranks))],
        "charts": [
            (f"Pedidos por {per}", charts.bars("chart-requests-day", f"Pedidos por {per}", keys,
                                               [r["requests"] for r in days], every=every)),
            ("Pedidos por hora do dia", charts.bars("chart-requests-hour", "Pedidos por hora do dia",
                                                    [f"{r['key']}h" for r in hours], [r["requests"] for r in hours])),
            (f"Tempo até o táxi chegar, por {per} (média, min)", charts.bars(
                "chart-pickup-wait", "Tempo até o táxi chegar (min)", keys,
                [round(r["pickup_wait_s"] / 60, 1) if r["pickup_wait_s"] else 0 for r in days], unit=" min", every=every)),
            (f"Pedidos não atendidos por {per}", charts.bars(
                "chart-unanswered-day", f"Pedidos não atendidos por {per}", keys,
                [r["unanswered"] + r["escalated"] for r in days], every=every)),
            (f"Pedidos por bairro (os {BAIRROS_CHARTED} maiores)", charts.hbars(
                "chart-bairros", "Pedidos por bairro", [r["bairro"] for r in bairros[:BAIRROS_CHARTED]],
                [r["requests"] for r in bairros[:BAIRROS_CHARTED]])),
            ("Valor bruto por semana (R$)", charts.bars(
                "chart-gross-week", "Valor bruto por semana", [f"sem. {_day(w['key'])}" for w in weeks],
                [float(w["gross"]) for w in weeks], unit="")),
            ("Ocupação dos pontos (% do tempo com ao menos um táxi)", charts.hbars(
                "chart-rank-occupancy", "Ocupação dos pontos", [r["name"] for r in ranks[:BAIRROS_CHARTED]],
                [round(100 * (r["occupancy"] or 0), 1) for r in ranks[:BAIRROS_CHARTED]], unit="%")),
            ("Frota agora", charts.hbars(
                "chart-fleet", "Frota agora", ["Podem trabalhar", *(f"{r['label']} ({r['article']})"
                                                                   for r in state["blocked_by_reason"])],
                [state["working"], *(r["permits"] for r in state["blocked_by_reason"])])),
        ],
    }
    return render(request, "indicators/page.html", context)


def open_data_page(request):
    """The open datasets with their licence and schema: public."""
    return render(request, "indicators/open_data.html", open_data.catalogue())
