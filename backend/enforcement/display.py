"""A complaint's copy of the ride's data as DIMUTRAN reads it in the admin: labels, R$, km, the trace summarized."""

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from backend.receipts.receipts import links
from taxilaw.brazil import br_number, brl
from taxilaw.receipt import trace_summary


def _when(iso):
    value = parse_datetime(iso) if isinstance(iso, str) else None
    return f"{timezone.localtime(value):%d/%m/%Y %H:%M}" if value else "—"


def ride_data_summary(data: dict, ride=None):
    data = data or {}
    trace = [f for f in data.get("trace") or [] if isinstance(f, dict) and "t" in f]
    summary = trace_summary(trace, data.get("distance_m"))
    rows = [
        (_("Permissão"), data.get("permit") or "—"),
        (_("Placa"), data.get("plate") or "—"),
        (_("Motorista"), data.get("driver") or "—"),
        (_("Embarque"), data.get("pickup_address") or "—"),
        (_("Destino"), data.get("destination_address") or "—"),
        (_("Pedida em"), _when(data.get("requested_at"))),
        (_("Embarque às"), _when(data.get("on_board_at"))),
        (_("Concluída em"), _when(data.get("completed_at"))),
        (_("Valor do taxímetro"), brl(data.get("fare")) or "—"),
        (_("Recálculo do servidor"), brl(data.get("server_total")) or "—"),
        (_("Divergência do taxímetro"), _("sim") if data.get("meter_disagreement") else _("não")),
        (_("Trajeto"), _("%(km)s km, %(minutes)s min, %(fixes)s posições de GPS") % {
            "km": br_number(summary.km, 2), "minutes": int(summary.duration_s // 60), "fixes": summary.fixes}),
    ]
    table = format_html("<table>{}</table>", format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows))
    if ride is not None and ride.status == "completed":
        return format_html('{}<p><a href="{}" target="_blank" rel="noopener">{}</a></p>', table, links(ride)["screen"],
                           _("Recibo da corrida"))
    return table
