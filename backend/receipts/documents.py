"""The receipt as a PDF in Portuguese (fpdf2 with DejaVu, as the weekly statements)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from backend.pdf import FONT, new_pdf


def receipt_rows(data: dict) -> list[tuple[str, str]]:
    """(label, value) rows shared by the page and the PDF."""
    times = data["times"]
    rows = [(_("Corrida"), f"nº {data['ride_id']} — {data['status_label']}")]
    for key, label in (("requested", _("Pedida em")), ("on_board", _("Embarque")), ("completed", _("Chegada"))):
        if times.get(key):
            rows.append((label, times[key]["display"]))
    if data["pickup"]:
        rows.append((_("Origem"), data["pickup"]["address"]))
    if data["destination"]:
        rows.append((_("Destino pedido"), data["destination"]["address"]))
    route = data["route"]
    if route["fixes"]:
        rows.append((_("Trajeto"), _("%(km)s km em %(minutes)s min (%(fixes)s posições de GPS)") % {
            "km": route["km_display"], "minutes": route["minutes"], "fixes": route["fixes"]}))
    cvi = data["cvi"]
    if cvi:
        rows.append((_("Veículo (CVI, Art. 32)"), f"{cvi['plate']} — {cvi['make']} {cvi['model']}, {cvi['colour']} — "
                     + _("permissão %(permit)s") % {"permit": cvi["permit"]}))
    paid = data.get("payment")
    if paid:
        rows.append((_("Pagamento"), _("%(method)s, recebido por %(receiver)s") % {
            "method": paid["method_display"], "receiver": paid["receiver"]}))
    driver = data["driver"]
    if driver:
        rows.append((_("Motorista (CMT, Art. 32)"), f"{driver['name']} — CMT {driver.get('cmt') or '—'}"))
    return rows


def receipt_pdf(data: dict) -> bytes:
    pdf = new_pdf(format=(148, 210))  # A5 in mm
    pdf.set_title(f"Recibo da corrida {data['ride_id']}")
    pdf.set_author("Táxis de Muriaé")
    pdf.set_auto_page_break(True, margin=12)
    pdf.add_page()
    width = pdf.epw
    pdf.set_font(FONT, "B", 12)
    pdf.multi_cell(width, 6, _("Táxis de Muriaé — recibo de corrida"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 8)
    pdf.multi_cell(width, 4, _("Serviço de táxi regido pela Lei municipal 1.242/1987"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    cols = (width * 0.34, width * 0.66)
    for label, value in receipt_rows(data):
        pdf.set_font(FONT, "B", 8)
        pdf.cell(cols[0], 5, label, border="B")
        pdf.set_font(FONT, "", 8)
        pdf.multi_cell(cols[1], 5, value, border="B", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(FONT, "B", 9)
    pdf.multi_cell(width, 5, _("Composição do valor (taxímetro)"), new_x="LMARGIN", new_y="NEXT")
    for line in data["lines"]:
        pdf.set_font(FONT, "", 8)
        text = f"{line['label']} ({line['article']})" + (f" — {line['quantity']}" if line["quantity"] else "")
        pdf.cell(width * 0.75, 5, text, border="B")
        pdf.cell(width * 0.25, 5, line["amount_display"], border="B", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "B", 10)
    review = data.get("fare_review")
    pdf.cell(width * 0.75, 7, f"{review['title']}: {_('o taxímetro mostrou (não pague agora)')}" if review
             else _("Total pago (o que o taxímetro mostrou, Art. 43)"))
    pdf.cell(width * 0.25, 7, data["fare_display"], align="R", new_x="LMARGIN", new_y="NEXT")
    if review:
        pdf.set_font(FONT, "", 8)
        pdf.multi_cell(width, 4, review["message"], new_x="LMARGIN", new_y="NEXT")
    _draw_route(pdf, data["route"]["sketch"], width)
    pdf.set_font(FONT, "", 7)
    if data["tariff_decree"]:
        pdf.multi_cell(width, 4, _("Tarifa: %(decree)s") % {"decree": data["tariff_decree"]}, new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(width, 4, f"{_('Emitido em')} {timezone.localtime():%d/%m/%Y %H:%M}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _draw_route(pdf, sketch: str, width: float) -> None:
    """The trace's sketch (the SVG points of the page) drawn as a polyline in a 60 x 32 mm box."""
    if not sketch:
        return
    pdf.ln(3)
    x0, y0, box_w, box_h = pdf.l_margin + (width - 60) / 2, pdf.get_y(), 60, 32
    pdf.set_draw_color(180, 180, 180)
    pdf.rect(x0, y0, box_w, box_h)
    points = [tuple(map(float, p.split(","))) for p in sketch.split()]
    pdf.set_draw_color(20, 90, 200)
    pdf.set_line_width(0.6)
    pdf.polyline([(x0 + x * box_w / 300, y0 + y * box_h / 160) for x, y in points])
    pdf.set_line_width(0.2)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_y(y0 + box_h + 2)


def pdf_filename(ride_id: int) -> str:
    return f"recibo-corrida-{ride_id}.pdf"
