"""A statement as a Brazilian reads it: labels in pt-BR, R$ 1.234,56, dd/mm/aaaa; CSV and PDF (Art. 1, §2-§6)."""

from __future__ import annotations

import csv
import io
import logging

from django.utils import timezone
from django.utils.translation import gettext as _

from backend.pdf import FONT, new_pdf
from backend.tariffs.formatting import br_number, brl

from .models import WeeklyStatement

logging.getLogger("fontTools").setLevel(logging.WARNING)


def plain_amount(value) -> str:
    """``1234.5`` -> ``1234,50``: a spreadsheet in pt-BR reads it as a number."""
    return f"{value:.2f}".replace(".", ",")


def split_label(statement: WeeklyStatement) -> str:
    if statement.role == WeeklyStatement.Role.HOLDER:
        return _("Sem partilha: condução do próprio permissionário (todo o bruto é dele)")
    aux = br_number(statement.auxiliary_percent, 2)
    holder = br_number(100 - statement.auxiliary_percent, 2)
    if statement.agreement == WeeklyStatement.Agreement.CONTRACT:
        ref = f" — {statement.contract_reference}" if statement.contract_reference else ""
        return _("Contrato escrito (Art. 1, §6): auxiliar %(aux)s%% / permissionário %(holder)s%%") % {
            "aux": aux, "holder": holder} + ref
    return _("Lei (Art. 1, §3): auxiliar %(aux)s%% / permissionário %(holder)s%%") % {"aux": aux, "holder": holder}


def lines(statement: WeeklyStatement) -> list[tuple[str, str]]:
    """The statement's lines, label and value, as shown on the page and the PDF (Art. 1, §3)."""
    closed = (timezone.localtime(statement.closed_at).strftime("%d/%m/%Y %H:%M") if statement.closed_at
              else _("semana em curso (extrato provisório)"))
    return [
        (_("Permissão"), statement.permit.number),
        (_("Permissionário"), statement.holder.full_name if statement.holder else "—"),
        (_("Motorista"), statement.driver.full_name),
        (_("Papel"), statement.get_role_display()),
        (_("Semana"), f"{statement.week_start:%d/%m/%Y} a {statement.week_end:%d/%m/%Y}"),
        (_("Corridas concluídas"), str(statement.rides)),
        (_("Valor bruto da semana"), brl(statement.gross)),
        (_("Partilha"), split_label(statement)),
        (_("Parte do auxiliar"), brl(statement.auxiliary_part)),
        (_("Parte do permissionário"), brl(statement.holder_part)),
        (_("Fechamento"), closed),
    ]


CSV_HEADER = [
    "permissao", "permissionario", "motorista", "papel", "semana_inicio", "semana_fim", "corridas",
    "valor_bruto", "percentual_auxiliar", "parte_auxiliar", "parte_permissionario", "forma_partilha",
    "contrato", "fechado_em", "observacao_art_1_par_2",
]


def statement_csv(statement: WeeklyStatement) -> str:
    """One statement as CSV for a pt-BR spreadsheet: ``;`` separated, decimal comma, dates dd/mm/aaaa."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    writer.writerow([
        statement.permit.number,
        statement.holder.full_name if statement.holder else "",
        statement.driver.full_name,
        statement.get_role_display(),
        f"{statement.week_start:%d/%m/%Y}",
        f"{statement.week_end:%d/%m/%Y}",
        statement.rides,
        plain_amount(statement.gross),
        plain_amount(statement.auxiliary_percent),
        plain_amount(statement.auxiliary_part),
        plain_amount(statement.holder_part),
        statement.get_agreement_display(),
        statement.contract_reference,
        timezone.localtime(statement.closed_at).strftime("%d/%m/%Y %H:%M") if statement.closed_at else "",
        _(statement.expenses_note),
    ])
    return out.getvalue()


def csv_filename(statement: WeeklyStatement) -> str:
    return f"extrato-{statement.permit.number}-{statement.week_start:%Y-%m-%d}-{statement.driver_id}.csv"


def statement_pdf(statement: WeeklyStatement) -> bytes:
    """One statement as a PDF in Portuguese (backend.pdf.new_pdf, DejaVu for the accents), with the Art. 1, §2 note."""
    pdf = new_pdf(format="A4")
    pdf.set_title(f"Extrato semanal — {statement.permit.number} — {statement.week_start:%d/%m/%Y}")
    pdf.set_author("Táxis de Muriaé — DIMUTRAN")
    pdf.set_auto_page_break(True, margin=15)
    pdf.add_page()
    width = pdf.epw
    pdf.set_font(FONT, "B", 13)
    pdf.multi_cell(width, 7, _("Serviço de táxis de Muriaé (Lei 1.242/1987)"), new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 7, _("Extrato semanal da partilha do valor bruto (Art. 1, §3)"), new_x="LMARGIN", new_y="NEXT")
    if not statement.closed_at:
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(width, 6, _("Extrato provisório: a semana ainda não terminou."), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(FONT, "", 10)
    cols = (width * 0.35, width * 0.65)
    for label, value in lines(statement):
        pdf.set_font(FONT, "B", 10)
        pdf.cell(cols[0], 7, label, border="B")
        pdf.set_font(FONT, "", 10)
        pdf.multi_cell(cols[1], 7, value, border="B", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font(FONT, "", 9)
    pdf.multi_cell(width, 5, _(statement.expenses_note), new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 5, _("O auxiliar não tem vínculo empregatício com o permissionário (Art. 1, §1) e contribui "
                               "para a Previdência Social como autônomo (Art. 1, §5)."), new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 5, f"{_('Emitido em')} {timezone.localtime():%d/%m/%Y %H:%M}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def pdf_filename(statement: WeeklyStatement) -> str:
    return f"extrato-{statement.permit.number}-{statement.week_start:%Y-%m-%d}-{statement.driver_id}.pdf"
