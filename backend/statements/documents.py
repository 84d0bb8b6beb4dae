"""A statement as a Brazilian reads it: labels in pt-BR, R$ 1.234,56, dd/mm/aaaa; CSV and PDF (Art. 1, §2-§6)."""

from __future__ import annotations

import csv
import io
import logging

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from backend.csv_cells import SafeWriter
from backend.pdf import FONT, new_pdf
from taxilaw.brazil import br_number, brl, plain_amount
from taxilaw.settlement import METHOD_LABELS, METHOD_UNRECORDED, PARTY_AUXILIARY, PARTY_HOLDER, PAYMENT_METHODS

from .models import StatementAdjustment, StatementRide, WeeklyStatement

logging.getLogger("fontTools").setLevel(logging.WARNING)


def contract_details(statement: WeeklyStatement) -> str:
    """The written contract of Art. 1, §6 as recorded: reference, date, the two witnesses."""
    parts = [statement.contract_reference] if statement.contract_reference else []
    if statement.contract_signed_on:
        parts.append(_("assinado em %(date)s") % {"date": f"{statement.contract_signed_on:%d/%m/%Y}"})
    if statement.contract_witnesses:
        first, *others = statement.contract_witnesses  # Art. 1, §6: two witnesses (validated when recorded)
        names = _("%(first)s e %(second)s") % {"first": first, "second": others[-1]} if others else first
        parts.append(_("testemunhas: %(names)s") % {"names": names})
    return " — ".join(parts)


def split_label(statement: WeeklyStatement) -> str:
    if statement.role == WeeklyStatement.Role.HOLDER:
        return _("Sem partilha: condução do próprio permissionário (todo o bruto é dele)")
    if statement.agreement == WeeklyStatement.Agreement.CTPS:
        return _("Sem partilha: auxiliar empregado do permissionário com CTPS nº %(number)s, série %(series)s "
                 "(Art. 1, §6); a remuneração segue o contrato de trabalho") % {
            "number": statement.ctps_number or "—", "series": statement.ctps_series or "—"}
    aux = br_number(statement.auxiliary_percent, 2)
    holder = br_number(100 - statement.auxiliary_percent, 2)
    if statement.agreement == WeeklyStatement.Agreement.CONTRACT:
        details = contract_details(statement)
        ref = f" — {details}" if details else ""
        return _("Contrato escrito (Art. 1, §6): auxiliar %(aux)s%% / permissionário %(holder)s%%") % {
            "aux": aux, "holder": holder} + ref
    return _("Lei (Art. 1, §3): auxiliar %(aux)s%% / permissionário %(holder)s%%") % {"aux": aux, "holder": holder}


def auxiliary_part_text(row: WeeklyStatement | StatementAdjustment) -> str:
    """The auxiliary's part in R$, or why there is none under the CTPS (Art. 1, §6)."""
    if row.agreement == WeeklyStatement.Agreement.CTPS:
        return _("não se aplica (empregado com CTPS)")
    return brl(row.auxiliary_part)


CTPS_NOTE = gettext_noop(
    "O auxiliar é empregado do permissionário com registro em CTPS (Art. 1, §6): não há partilha do valor bruto "
    "e a remuneração segue o contrato de trabalho."
)

LATE_RIDES_NOTE = gettext_noop(
    "Ajuste: corridas concluídas numa semana já fechada e registradas depois do fechamento (por exemplo, "
    "sincronizadas mais tarde pelo aplicativo). O extrato fechado não é alterado: as corridas entram no "
    "primeiro fechamento seguinte, com a partilha da semana em que foram feitas (Art. 1, §3)."
)


def adjustment_label(adjustment: StatementAdjustment) -> str:
    """"Ajuste: corridas da semana de … registradas após o fechamento", naming the closed statement (Art. 1, §3)."""
    label = _("Ajuste: corridas da semana de %(start)s a %(end)s registradas após o fechamento") % {
        "start": f"{adjustment.original_week_start:%d/%m/%Y}", "end": f"{adjustment.original_week_end:%d/%m/%Y}"}
    if adjustment.original_statement_id:
        label += " " + _("(extrato fechado nº %(id)s)") % {"id": adjustment.original_statement_id}
    if adjustment.pk is None:
        label += " " + _("— pendente: será lançado no próximo fechamento")
    return label


def ride_line_text(entry) -> str:
    """One counted ride: ``#12 (18/11/2026 10:00, R$ 10,00)``, and the server's figure when the meter disagreed (Art. 43)."""
    text = f"#{entry.ride_id} ({timezone.localtime(entry.completed_at):%d/%m/%Y %H:%M}, {brl(entry.fare)}"
    if entry.meter_disagreement and entry.server_total is not None:
        text += ", " + _("taxímetro diverge do recálculo do servidor: %(server)s") % {"server": brl(entry.server_total)}
    return text + ")"


def late_rides_text(adjustment: StatementAdjustment) -> str:
    """The late rides one by one (:func:`ride_line_text`)."""
    return "; ".join(ride_line_text(entry) for entry in adjustment.ride_list)


def adjustment_detail(adjustment: StatementAdjustment, statement: WeeklyStatement | None = None) -> str:
    """Rides, gross and the parts of an adjustment line, with the rides themselves."""
    if adjustment.role == WeeklyStatement.Role.HOLDER or adjustment.agreement == WeeklyStatement.Agreement.CTPS:
        text = _("%(rides)s corrida(s), valor bruto %(gross)s, sem partilha") % {
            "rides": adjustment.rides, "gross": brl(adjustment.gross)}
    else:
        text = _("%(rides)s corrida(s), valor bruto %(gross)s: auxiliar %(aux)s / permissionário %(holder)s") % {
            "rides": adjustment.rides, "gross": brl(adjustment.gross), "aux": brl(adjustment.auxiliary_part),
            "holder": brl(adjustment.holder_part)}
    if statement is not None and adjustment.holder_id and adjustment.holder_id != statement.holder_id:
        text += "; " + _("permissionário da semana original: %(name)s") % {"name": adjustment.holder.full_name}
    rides = late_rides_text(adjustment)
    return f"{text}; {rides}" if rides else text


def carried_later_text(adjustment: StatementAdjustment) -> str:
    """On a closed statement: where rides of its week recorded after its closing were carried."""
    return _("%(rides)s corrida(s) desta semana registrada(s) após o fechamento, lançada(s) no extrato da semana "
             "de %(start)s (nº %(id)s)") % {"rides": adjustment.rides, "start": f"{adjustment.statement.week_start:%d/%m/%Y}",
                                           "id": adjustment.statement_id}


def party_names(statement: WeeklyStatement) -> dict[str, str]:
    """The two partners of an auxiliary's statement by name (Art. 1, §3)."""
    holder = statement.holder.full_name if statement.holder else _("permissionário")
    return {PARTY_AUXILIARY: statement.driver.full_name, PARTY_HOLDER: holder}


def received_text(settlement, party: str) -> str:
    """"R$ 600,00 (dinheiro R$ 200,00; Pix R$ 400,00)": what a partner received, by method."""
    parts = [f"{_(METHOD_LABELS[m])} {brl(settlement.received(party, m))}"
             for m in (*PAYMENT_METHODS, METHOD_UNRECORDED) if settlement.received(party, m)]
    total = brl(settlement.received(party))
    return f"{total} ({'; '.join(parts)})" if parts else total


def transfer_text(statement: WeeklyStatement) -> str:
    """The single transfer that settles the week: who pays whom, how much (Art. 1, §3-§6)."""
    settlement = statement.settlement
    if settlement is None:
        return ""
    if settlement.payer is None:
        return _("Nada a transferir: cada um já recebeu a sua parte.")
    names = party_names(statement)
    return _("%(payer)s paga %(amount)s a %(payee)s") % {
        "payer": names[settlement.payer], "amount": brl(settlement.amount), "payee": names[settlement.payee]}


def settlement_lines(statement: WeeklyStatement) -> list[tuple[str, str]]:
    """Who received what by method and the transfer; none for the holder's own driving (no partner)."""
    settlement = statement.settlement
    if settlement is None:
        return []
    return [
        (_("Recebido pelo auxiliar"), received_text(settlement, PARTY_AUXILIARY)),
        (_("Recebido pelo permissionário"), received_text(settlement, PARTY_HOLDER)),
        (_("Acerto da semana"), transfer_text(statement)),
    ]


def payment_text(entry: StatementRide) -> str:
    """"Pix (recebido pelo permissionário)": how the fare was paid and which partner received it."""
    method = entry.get_method_display()
    if entry.method == METHOD_UNRECORDED:
        return _("não informado (em mãos do motorista)")
    if not entry.collector:
        return method
    return _("%(method)s (recebido pelo %(party)s)") % {"method": method, "party": entry.get_collector_display()}


def disagreement_text(entry: StatementRide) -> str:
    """Art. 43: the meter's fare against the server's recomputation, when they disagree; empty otherwise."""
    if not entry.meter_disagreement:
        return ""
    server = brl(entry.server_total) if entry.server_total is not None else "—"
    return _("taxímetro %(fare)s; recálculo %(server)s") % {"fare": brl(entry.fare), "server": server}


def ride_rows(statement: WeeklyStatement) -> list[dict]:
    """The statement's rides as lines: time, fare, origin, payment, any meter disagreement, late or not.

    ``payment_short`` and ``recomputed`` are the narrow forms of the PDF's table."""
    return [{
        "ride": entry.ride_id, "time": f"{timezone.localtime(entry.completed_at):%d/%m/%Y %H:%M}",
        "fare": brl(entry.fare), "origin": entry.get_origin_display() if entry.origin else "—",
        "payment": payment_text(entry), "disagreement": disagreement_text(entry), "late": entry.late,
        "payment_short": (f"{entry.get_method_display()} ({entry.get_collector_display()})" if entry.collector
                          else entry.get_method_display()),
        "recomputed": (_("%(server)s (diverge)") % {"server": brl(entry.server_total)}
                       if entry.meter_disagreement and entry.server_total is not None
                       else (_("diverge") if entry.meter_disagreement else "—")),
    } for entry in statement.ride_lines]


def lines(statement: WeeklyStatement) -> list[tuple[str, str]]:
    """The statement's lines, label and value, as shown on the page and the PDF (Art. 1, §3).

    Late rides carried here (adjustments) follow the week's own parts, then the totals to pay."""
    closed = (timezone.localtime(statement.closed_at).strftime("%d/%m/%Y %H:%M") if statement.closed_at
              else _("semana em curso (extrato provisório)"))
    out = [
        (_("Permissão"), statement.permit.number),
        (_("Permissionário"), statement.holder.full_name if statement.holder else "—"),
        (_("Motorista"), statement.driver.full_name),
        (_("Papel"), statement.get_role_display()),
        (_("Semana"), f"{statement.week_start:%d/%m/%Y} a {statement.week_end:%d/%m/%Y}"),
        (_("Corridas concluídas"), str(statement.rides)),
        (_("Valor bruto da semana"), brl(statement.gross)),
        (_("Partilha"), split_label(statement)),
        (_("Parte do auxiliar"), auxiliary_part_text(statement)),
        (_("Parte do permissionário"), brl(statement.holder_part)),
    ]
    adjustments = statement.adjustment_lines
    for adjustment in adjustments:
        out.append((adjustment_label(adjustment), adjustment_detail(adjustment, statement)))
    if adjustments:
        out += [
            (_("Total com ajustes: valor bruto"), brl(statement.total_gross)),
            (_("Total com ajustes: parte do auxiliar"),
             auxiliary_part_text(statement) if statement.agreement == WeeklyStatement.Agreement.CTPS
             else brl(statement.total_auxiliary_part)),
            (_("Total com ajustes: parte do permissionário"), brl(statement.total_holder_part)),
        ]
    out += settlement_lines(statement)
    for adjustment in statement.carried_later_lines:
        out.append((_("Corridas registradas após o fechamento"), carried_later_text(adjustment)))
    out.append((_("Fechamento"), closed))
    return out


CSV_HEADER = [
    "permissao", "permissionario", "motorista", "papel", "semana_inicio", "semana_fim", "corridas",
    "valor_bruto", "percentual_auxiliar", "parte_auxiliar", "parte_permissionario", "forma_partilha",
    "contrato", "fechado_em", "observacao_art_1_par_2",
    # Art. 1, §6 (contract and CTPS) and late rides (Art. 1, §3): "linha" is semana, ajuste or total.
    "contrato_data", "contrato_testemunhas", "ctps_numero", "ctps_serie", "linha", "semana_original_inicio",
    "semana_original_fim", "extrato_original", "corridas_registradas_apos_fechamento", "lancadas_depois_em",
    # Each ride (linha = corrida) and the settlement (linha = acerto): docs/payments.md.
    "corrida", "corrida_concluida_em", "corrida_tarifa", "corrida_origem", "corrida_pagamento",
    "corrida_recebida_por", "corrida_total_servidor", "corrida_divergencia_taximetro", "corrida_lancada_depois",
    "acerto_descricao", "acerto_valor",
]
RIDE_COLUMNS = 9
SETTLEMENT_COLUMNS = 2


def statement_csv(statement: WeeklyStatement) -> str:
    """One statement as CSV for a pt-BR spreadsheet: ``;`` separated, decimal comma, dates dd/mm/aaaa.

    The week's own row (``linha`` = ``semana``), then one row per adjustment
    (late rides of a closed week, ``ajuste``) and, when there are any, the
    ``total`` row of what is paid with this statement."""
    out = io.StringIO()
    writer = _PaddedWriter(SafeWriter(csv.writer(out, delimiter=";", lineterminator="\r\n")))
    writer.writerow(CSV_HEADER)
    closed = timezone.localtime(statement.closed_at).strftime("%d/%m/%Y %H:%M") if statement.closed_at else ""
    holder_name = statement.holder.full_name if statement.holder else ""
    common = [statement.permit.number, holder_name, statement.driver.full_name]
    week = [f"{statement.week_start:%d/%m/%Y}", f"{statement.week_end:%d/%m/%Y}"]
    carried = " | ".join(carried_later_text(a) for a in statement.carried_later_lines)
    writer.writerow([
        *common,
        statement.get_role_display(),
        *week,
        statement.rides,
        plain_amount(statement.gross),
        plain_amount(statement.auxiliary_percent),
        plain_amount(statement.auxiliary_part),
        plain_amount(statement.holder_part),
        statement.get_agreement_display(),
        statement.contract_reference,
        closed,
        _(statement.expenses_note),
        f"{statement.contract_signed_on:%d/%m/%Y}" if statement.contract_signed_on else "",
        "; ".join(statement.contract_witnesses or []),
        statement.ctps_number,
        statement.ctps_series,
        "semana", "", "", "", "", carried,
    ])
    adjustments = statement.adjustment_lines
    for adjustment in adjustments:
        writer.writerow([
            statement.permit.number,
            adjustment.holder.full_name if adjustment.holder else holder_name,
            statement.driver.full_name,
            adjustment.get_role_display(),
            *week,
            adjustment.rides,
            plain_amount(adjustment.gross),
            plain_amount(adjustment.auxiliary_percent),
            plain_amount(adjustment.auxiliary_part),
            plain_amount(adjustment.holder_part),
            adjustment.get_agreement_display(),
            "", closed, _(statement.expenses_note), "", "", "", "",
            "ajuste",
            f"{adjustment.original_week_start:%d/%m/%Y}",
            f"{adjustment.original_week_end:%d/%m/%Y}",
            adjustment.original_statement_id or "",
            late_rides_text(adjustment),
            "",
        ])
    if adjustments:
        writer.writerow([
            *common, statement.get_role_display(), *week,
            statement.rides + sum(a.rides for a in adjustments),
            plain_amount(statement.total_gross), "",
            plain_amount(statement.total_auxiliary_part),
            plain_amount(statement.total_holder_part),
            "", "", closed, _(statement.expenses_note), "", "", "", "",
            "total", "", "", "", "", "",
        ])
    empty = [""] * (CSV_HEADER.index("corrida"))
    for entry in statement.ride_lines:
        row = empty.copy()
        row[:3] = common
        row[CSV_HEADER.index("linha")] = "corrida"
        writer.writerow(row + [
            entry.ride_id, f"{timezone.localtime(entry.completed_at):%d/%m/%Y %H:%M}", plain_amount(entry.fare),
            entry.get_origin_display() if entry.origin else "", entry.get_method_display(),
            entry.get_collector_display() if entry.collector else "",
            plain_amount(entry.server_total) if entry.server_total is not None else "",
            "sim" if entry.meter_disagreement else "não", "sim" if entry.late else "não",
        ])
    settlement = statement.settlement
    if settlement is not None:
        for label, value in (
            *((_("Recebido pelo auxiliar (%(method)s)") % {"method": _(METHOD_LABELS[m])},
               settlement.received(PARTY_AUXILIARY, m)) for m in (*PAYMENT_METHODS, METHOD_UNRECORDED)),
            *((_("Recebido pelo permissionário (%(method)s)") % {"method": _(METHOD_LABELS[m])},
               settlement.received(PARTY_HOLDER, m)) for m in (*PAYMENT_METHODS, METHOD_UNRECORDED)),
            (transfer_text(statement), settlement.amount),
        ):
            row = empty.copy()
            row[:3] = common
            row[CSV_HEADER.index("linha")] = "acerto"
            writer.writerow(row + [""] * RIDE_COLUMNS + [label, plain_amount(value)])
    return out.getvalue()


class _PaddedWriter:
    """Every CSV row as wide as the header: older rows leave the ride and settlement columns empty."""

    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row):
        self.writer.writerow(list(row) + [""] * (len(CSV_HEADER) - len(row)))


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
    rides = ride_rows(statement)
    if rides:
        pdf.ln(4)
        pdf.set_font(FONT, "B", 11)
        pdf.multi_cell(width, 7, _("Corridas"), new_x="LMARGIN", new_y="NEXT")
        heads = (_("Nº"), _("Concluída em"), _("Tarifa"), _("Origem"), _("Pagamento (quem recebeu)"),
                 _("Recálculo (Art. 43)"))
        widths = [w * width for w in (0.07, 0.19, 0.11, 0.13, 0.30, 0.20)]
        pdf.set_font(FONT, "B", 8)
        for head, w in zip(heads, widths, strict=True):
            pdf.cell(w, 6, head, border="B")
        pdf.ln()
        pdf.set_font(FONT, "", 8)
        for r in rides:
            late = " " + _("(ajuste)") if r["late"] else ""
            cells = (str(r["ride"]), r["time"] + late, r["fare"], r["origin"], r["payment_short"], r["recomputed"])
            for cell, w in zip(cells, widths, strict=True):
                pdf.cell(w, 6, cell, border="B")
            pdf.ln()
    pdf.ln(4)
    pdf.set_font(FONT, "", 9)
    pdf.multi_cell(width, 5, _(statement.expenses_note), new_x="LMARGIN", new_y="NEXT")
    if statement.agreement == WeeklyStatement.Agreement.CTPS:
        pdf.multi_cell(width, 5, _(CTPS_NOTE), new_x="LMARGIN", new_y="NEXT")
    else:
        pdf.multi_cell(width, 5, _("O auxiliar não tem vínculo empregatício com o permissionário (Art. 1, §1) e contribui "
                                   "para a Previdência Social como autônomo (Art. 1, §5)."), new_x="LMARGIN", new_y="NEXT")
    if statement.adjustment_lines or statement.carried_later_lines:
        pdf.multi_cell(width, 5, _(LATE_RIDES_NOTE), new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 5, f"{_('Emitido em')} {timezone.localtime():%d/%m/%Y %H:%M}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def pdf_filename(statement: WeeklyStatement) -> str:
    return f"extrato-{statement.permit.number}-{statement.week_start:%Y-%m-%d}-{statement.driver_id}.pdf"
