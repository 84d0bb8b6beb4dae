"""The monthly report for the Câmara and the mayor: the month's indicators, charts, and the trend (PDF, fpdf2).

Aggregates only (no permit, driver or passenger is named: the report leaves DIMUTRAN); each figure is one of the
selectors' (docs/indicators.md). Bars are drawn with fpdf2's rectangles: no plotting library, no image files."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from backend.pdf import FONT, new_pdf
from taxilaw.brazil import br_number, brl, percent
from taxilaw.calendar import add_months

from . import fleet, labels, money, rank_occupancy, service
from .periods import Period

logging.getLogger("fontTools").setLevel(logging.WARNING)
TREND_MONTHS = 6  # the month and the five before it
MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro"]
BAR = (29, 78, 216)  # the page's blue
GREY = (107, 114, 128)


def month_period(month: date) -> Period:
    return Period(month, add_months(month, 1) - timedelta(days=1))


def month_name(month: date) -> str:
    return f"{MONTHS[month.month - 1]} de {month.year}"


def report_data(month: date, now: datetime) -> dict:
    """Every figure the report prints, for ``month`` (its first day) as of ``now``."""
    period = month_period(month)
    trend = Period(add_months(month, -(TREND_MONTHS - 1)), period.last)
    weeks = money.gross_by_week(period)
    gross = sum((w["gross"] for w in weeks), start=Decimal("0.00"))
    return {
        "month": month, "period": period, "now": now,
        "total": service.service_total(period),
        "previous": service.service_total(month_period(add_months(month, -1))),
        "days": service.service(period, "day"), "hours": service.service(period, "hour"),
        "trend": service.service(trend, "month"), "bairros": service.service_by_bairro(period)[:10],
        "ranks": rank_occupancy.rank_occupancy(period, now), "weeks": weeks, "gross": gross,
        "fleet": fleet.fleet(now),
    }


def _number(value) -> str:
    if value is None:
        return "—"
    return br_number(value, 1).removesuffix(",0") if isinstance(value, float) else br_number(value, 0)


def _change(now, before) -> str:
    if now is None or before is None:
        return "—"
    if not before:
        return "—" if not now else "novo"
    return percent((now - before) / before, 0, signed=True)


class Report:
    """Writes the report's sections on an fpdf2 document, top to bottom."""

    def __init__(self, data: dict):
        self.data = data
        self.pdf = new_pdf(orientation="P", unit="mm", format="A4")
        self.pdf.set_auto_page_break(True, margin=15)
        self.pdf.set_title(f"Relatório mensal dos táxis — {month_name(data['month'])}")
        self.pdf.set_author("Táxis de Muriaé — DIMUTRAN")

    def heading(self, text: str, size: int = 12):
        self.pdf.ln(2)
        self.pdf.set_font(FONT, "B", size)
        self.pdf.multi_cell(self.pdf.epw, 7, text, new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_font(FONT, "", 9)

    def note(self, text: str):
        self.pdf.set_font(FONT, "", 8)
        self.pdf.set_text_color(*GREY)
        self.pdf.multi_cell(self.pdf.epw, 4, text, new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.set_font(FONT, "", 9)

    def table(self, head: list[str], rows: list[list[str]], widths: list[float]):
        self.pdf.set_font(FONT, "B", 8)
        for i, (text, w) in enumerate(zip(head, widths)):
            self.pdf.cell(w, 6, text, border="B", align="R" if i else "L")
        self.pdf.ln()
        self.pdf.set_font(FONT, "", 8)
        for row in rows:
            for i, (text, w) in enumerate(zip(row, widths)):
                self.pdf.cell(w, 5, text, border="B", align="R" if i else "L")
            self.pdf.ln()

    def bars(self, title: str, labels_: list[str], values: list[float], height: float = 45, every: int = 1):
        """A vertical bar chart drawn with rectangles, the top value and each ``every``-th label written."""
        pdf = self.pdf
        if pdf.get_y() + height + 16 > pdf.h - pdf.b_margin:
            pdf.add_page()
        self.pdf.set_font(FONT, "B", 9)
        pdf.cell(pdf.epw, 6, title, new_x="LMARGIN", new_y="NEXT")
        left, top, width = pdf.l_margin + 10, pdf.get_y() + 2, pdf.epw - 10
        peak = max(values, default=0) or 1
        step = width / max(len(values), 1)
        pdf.set_draw_color(*GREY)
        pdf.line(left, top + height, left + width, top + height)
        pdf.set_font(FONT, "", 6)
        pdf.text(pdf.l_margin, top + 2, _number(peak if isinstance(peak, float) else int(peak)))
        pdf.text(pdf.l_margin, top + height, "0")
        pdf.set_fill_color(*BAR)
        for i, (label, value) in enumerate(zip(labels_, values)):
            h = height * (value or 0) / peak
            if h > 0:
                pdf.rect(left + i * step + step * 0.15, top + height - h, step * 0.7, h, style="F")
            if i % every == 0:
                pdf.text(left + i * step + step * 0.1, top + height + 3.5, label)
        pdf.set_y(top + height + 6)

    def build(self) -> bytes:
        self.cover()
        self.service_section()
        self.trend_section()
        self.places_section()
        self.money_fleet_section()
        return bytes(self.pdf.output())

    def cover(self):
        d, pdf = self.data, self.pdf
        pdf.add_page()
        self.heading("Serviço de táxis de Muriaé (Lei 1.242/1987)", 14)
        self.heading(f"Relatório mensal dos indicadores — {month_name(d['month'])}", 12)
        self.note(f"DIMUTRAN, para a Câmara Municipal e o Prefeito. Período: {d['period'].first:%d/%m/%Y} a "
                  f"{d['period'].last:%d/%m/%Y}, dias inteiros no horário de Brasília. Gerado em "
                  f"{timezone.localtime(d['now']):%d/%m/%Y %H:%M}. Somente dados agregados: nenhuma pessoa, "
                  "permissão ou placa é identificada. Definições: docs/indicators.md.")

    def service_section(self):
        d = self.data
        self.heading("1. O serviço no mês")
        rows = [[label, _number(d["total"][key]), _number(d["previous"][key]), _change(d["total"][key], d["previous"][key])]
                for key, label in labels.SERVICE.items()]
        self.table(["Indicador", "No mês", "Mês anterior", "Variação"], rows, [100, 30, 30, 30])
        self.pdf.ln(3)
        every = max(1, len(d["days"]) // 16)
        self.bars("Pedidos por dia", [f"{r['key']:%d}" for r in d["days"]], [r["requests"] for r in d["days"]], every=every)
        self.bars("Pedidos sem táxi por dia (não atendidos e encaminhados ao operador)",
                  [f"{r['key']:%d}" for r in d["days"]], [r["unanswered"] + r["escalated"] for r in d["days"]], 30, every)
        self.bars("Pedidos por hora do dia", [f"{r['key']}h" for r in d["hours"]], [r["requests"] for r in d["hours"]],
                  every=2)

    def trend_section(self):
        d = self.data
        self.pdf.add_page()
        self.heading(f"2. Tendência: os últimos {TREND_MONTHS} meses")
        short = [f"{MONTHS[r['key'].month - 1][:3]}/{r['key']:%y}" for r in d["trend"]]
        self.bars("Pedidos por mês", short, [r["requests"] for r in d["trend"]], 40)
        self.bars("Tempo médio até o táxi chegar (min)", short,
                  [round((r["pickup_wait_s"] or 0) / 60, 1) for r in d["trend"]], 30)
        rows = [[m, _number(r["requests"]), _number(r["served"]), _number(r["unanswered"] + r["escalated"]),
                 _number(r["no_shows"]), _number(r["pickup_wait_s"])] for m, r in zip(short, d["trend"])]
        self.table(["Mês", "Pedidos", "Atendidos", "Sem táxi", "Não apareceu", "Chegada (s)"], rows, [40, 30, 30, 30, 30, 30])

    def places_section(self):
        d = self.data
        self.heading("3. Bairros e pontos")
        rows = [[r["bairro"][:40], _number(r["requests"]), _number(r["served"]), _number(r["unanswered"] + r["escalated"]),
                 _number(r["pickup_wait_s"])] for r in d["bairros"]]
        self.table(["Bairro do embarque (10 maiores)", "Pedidos", "Atendidos", "Sem táxi", "Chegada (s)"], rows,
                   [90, 25, 25, 25, 25])
        self.pdf.ln(3)
        ranks = d["ranks"][:12]
        self.bars("Ocupação dos pontos (% do tempo com ao menos um táxi)", [r["name"][:14] for r in ranks],
                  [round(100 * (r["occupancy"] or 0), 1) for r in ranks], 35)
        self.note("Ocupação: das presenças registradas no ponto (Art. 9, V), a parcela do tempo do mês com ao menos "
                  "um táxi no ponto.")

    def money_fleet_section(self):
        d = self.data
        self.heading("4. Valor bruto e frota")
        rows = [[f"{w['key']:%d/%m/%Y}", _number(w["rides"]), brl(w["gross"]), _number(w["disagreements"])] for w in d["weeks"]]
        self.table(["Semana (segunda-feira)", "Corridas", "Valor bruto", "Divergências do taxímetro"], rows, [70, 30, 40, 50])
        self.note(f"Valor bruto das corridas concluídas no mês: {brl(d['gross'])} (uma semana que atravessa o início ou o fim do "
                  "mês conta só os dias do mês).")
        state = d["fleet"]
        self.pdf.ln(2)
        rows = [["Podem trabalhar", _number(state["working"])], ["Impedidas", _number(state["blocked"])]] + [
            [f"  {r['label']} ({r['article']})", _number(r["permits"])] for r in state["blocked_by_reason"]]
        self.table([f"Frota em {timezone.localtime(d['now']):%d/%m/%Y}", "Permissões"], rows, [120, 30])


def monthly_report_pdf(month: date, now: datetime | None = None) -> bytes:
    return Report(report_data(month, now or timezone.now())).build()
