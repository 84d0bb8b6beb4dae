"""Printable tariff study report (Art. 42, archived under Art. 44): HTML and PDF, DIMUTRAN only."""

import logging
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from backend.api.permissions import is_dimutran
from backend.pdf import new_pdf
from taxilaw.brazil import br_number, brl

from .models import TariffStudy

# fpdf2 subsets the font with fontTools, which logs every pruned table at INFO
logging.getLogger("fontTools").setLevel(logging.WARNING)


def dimutran_required(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_dimutran(request.user):
            raise PermissionDenied(_("Apenas a DIMUTRAN pode ver o estudo tarifário."))
        return view(request, *args, **kwargs)

    return wrapped


def format_line(line: dict) -> str:
    """A study line's value as a Brazilian reads it (R$ 1.234,56; 0,1234 R$/km)."""
    unit = line.get("unit", "")
    if unit in ("R$", "R$/mês"):
        return brl(line["value"])
    if unit == "":
        return br_number(line["value"])
    return f"{br_number(line['value'])} {unit}"


def report_context(study: TariffStudy) -> dict:
    items = {i.item: i for i in study.items.all()}
    return {
        "study": study,
        "items": items,
        "lines": [{**line, "display": format_line(line)} for line in study.lines],
        "warnings": study.warnings,
        "proposed": [
            (_("Bandeirada"), "Art. 1, VII", brl(study.proposed_bandeirada)),
            (_("Quilômetro, Bandeira I"), "Art. 45, I", brl(study.proposed_km_b1)),
            (_("Quilômetro, Bandeira II"), "Art. 45, II", brl(study.proposed_km_b2)),
            (_("Hora de espera"), "Art. 42", brl(study.proposed_hour_waiting)),
        ],
        "generated_at": timezone.localtime(),
    }


@dimutran_required
def study_report_html(request, pk):
    study = get_object_or_404(TariffStudy.objects.prefetch_related("items"), pk=pk)
    return render(request, "tariffs/study_report.html", report_context(study))


def render_study_pdf(study: TariffStudy) -> bytes:
    ctx = report_context(study)
    pdf = new_pdf(format="A4")
    pdf.set_title(f"Estudo tarifário — {study.reference}")
    pdf.set_author("DIMUTRAN — Prefeitura Municipal de Muriaé")
    pdf.set_auto_page_break(True, margin=15)
    pdf.add_page()
    width = pdf.epw

    pdf.set_font("DejaVu", "B", 13)
    pdf.multi_cell(width, 7, _("Prefeitura Municipal de Muriaé — DIMUTRAN"), new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 7, _("Estudo tarifário do serviço de táxis (Lei 1.242/1987, Art. 42)"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    pdf.multi_cell(width, 6, f"{_('Referência')}: {study.reference}", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 6, f"{_('Vigência proposta')}: {study.effective_from:%d/%m/%Y}", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 6, f"{_('Veículo padrão (Art. 1, IX)')}: {study.vehicle_description} — {brl(study.vehicle_value)}",
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    pdf.set_font("DejaVu", "B", 11)
    pdf.cell(width, 7, _("Cálculo"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 9)
    cols = (width * 0.58, width * 0.24, width * 0.18)
    for line in ctx["lines"]:
        pdf.cell(cols[0], 6, line["label"][:70], border="B")
        pdf.cell(cols[1], 6, line["display"], border="B", align="R")
        pdf.cell(cols[2], 6, line["article"], border="B", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    pdf.set_font("DejaVu", "B", 11)
    pdf.cell(width, 7, _("Tarifa proposta"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    for label, article, value in ctx["proposed"]:
        pdf.cell(cols[0], 6, label, border="B")
        pdf.cell(cols[1], 6, value, border="B", align="R")
        pdf.cell(cols[2], 6, article, border="B", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    if ctx["warnings"]:
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(width, 6, _("Avisos"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", "", 9)
        for w in ctx["warnings"]:
            pdf.multi_cell(width, 5, f"{w['article']}: {w['message']}", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    pdf.set_font("DejaVu", "", 8)
    pdf.multi_cell(width, 4, _("A remuneração do capital (item j) não pode exceder 12% ao ano do valor do veículo padrão "
                               "(Art. 42, parágrafo único). A tarifa proposta só vigora após decreto (Art. 44)."),
                   new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 4, f"{_('Emitido em')} {ctx['generated_at']:%d/%m/%Y %H:%M}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


@dimutran_required
def study_report_pdf(request, pk):
    study = get_object_or_404(TariffStudy.objects.prefetch_related("items"), pk=pk)
    response = HttpResponse(render_study_pdf(study), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="estudo-tarifario-{study.pk}.pdf"'
    return response
