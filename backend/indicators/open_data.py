"""Open data (issue 32): the ranks, the fleet's size and compliance, and trip counts by hour and bairro.

Privacy by construction: nothing here names a person or a permit; a trip cell is published only with at least
``MIN_CELL_TRIPS`` trips (LGPD: a small cell could point at one passenger's habit), and only for whole finished
months (overlapping periods could be subtracted to reveal a small cell). Field names are pt-BR (a municipal
open-data portal's readers); the schema is ``SCHEMAS``."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Q

from backend.ranks.models import Rank

from . import fleet as fleet_indicators
from .periods import Period, bucket
from .service import bairro_of_cell, pickup_cells, requests

MIN_CELL_TRIPS = 5  # LGPD small-cell rule of issue 32: a published cell counts at least 5 trips
LICENCE = {"name": "Creative Commons Atribuição 4.0 Internacional (CC BY 4.0)",
           "url": "https://creativecommons.org/licenses/by/4.0/deed.pt_BR"}

SCHEMAS = {
    "pontos": {
        "id": "inteiro: identificador do ponto", "nome": "texto: nome do ponto",
        "categoria": "texto: privativo (Art. 22, I) ou livre (Art. 22, II)",
        "zona": "texto: central (Art. 24) ou periférica (Art. 25)", "provisorio": "booleano (Art. 23, § único)",
        "vagas": "inteiro: permissões titulares do ponto hoje (privativo); 0 num ponto livre",
        "latitude": "número: graus decimais, WGS 84", "longitude": "número: graus decimais, WGS 84",
    },
    "frota": {
        "data": "data (AAAA-MM-DD) da contagem", "permissoes_ativas": "inteiro", "aguardando_termo": "inteiro",
        "podem_trabalhar": "inteiro: permissões ativas cujo titular pode trabalhar hoje",
        "impedidas": "inteiro: permissões ativas impedidas hoje", "motivo": "texto: motivo do impedimento",
        "artigo": "texto: artigo da Lei 1.242/1987", "permissoes": "inteiro: permissões impedidas por esse motivo",
    },
    "viagens": {
        "bairro": "texto: bairro do embarque (ruas do município)", "hora": "inteiro: hora do pedido, 0-23, horário de Brasília",
        "pedidos": f"inteiro: pedidos de táxi no período; células com menos de {MIN_CELL_TRIPS} não são publicadas",
    },
}


def ranks() -> list[dict]:
    """The active ranks with their place and category, and their titulars' count as places."""
    titulars = Count("assignments", filter=Q(assignments__ended_on__isnull=True))  # as ranks.selectors.current_assignments
    out = []
    for rank in Rank.objects.filter(active=True).annotate(vagas=titulars).order_by("name"):
        out.append({"id": rank.pk, "nome": rank.name, "categoria": rank.category, "zona": rank.zone,
                    "provisorio": rank.temporary, "vagas": rank.vagas if rank.category == Rank.Category.PRIVATE else 0,
                    "latitude": round(rank.lat, 6), "longitude": round(rank.lon, 6)})
    return out


def ranks_geojson() -> dict:
    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": row["id"], "geometry": {"type": "Point", "coordinates": [row["longitude"], row["latitude"]]},
         "properties": {k: v for k, v in row.items() if k not in ("latitude", "longitude")}} for row in ranks()]}


def fleet(now: datetime) -> dict:
    """Counts only: the permits by status and the active ones working or blocked, by reason (no permit named)."""
    state = fleet_indicators.fleet(now)
    return {
        "data": now.date().isoformat(), "permissoes_ativas": state["by_status"]["active"],
        "aguardando_termo": state["by_status"]["awaiting_term"], "podem_trabalhar": state["working"],
        "impedidas": state["blocked"],
        "motivos": [{"motivo": r["label"], "artigo": r["article"], "permissoes": r["permits"]}
                    for r in state["blocked_by_reason"]],
    }


def trips_by_bairro_and_hour(period: Period) -> dict:
    """Requests per (bairro of the pickup, local hour), cells under ``MIN_CELL_TRIPS`` left out (and counted)."""
    counts: dict[tuple[str, int], int] = {}
    rows = pickup_cells(requests(period)).annotate(hora=bucket("hour", "requested_at")).values("cy", "cx", "hora") \
        .annotate(n=Count("pk"))
    for row in rows:
        key = (bairro_of_cell(int(row["cy"]), int(row["cx"])), row["hora"])
        counts[key] = counts.get(key, 0) + row["n"]
    published = [{"bairro": b, "hora": h, "pedidos": n} for (b, h), n in sorted(counts.items()) if n >= MIN_CELL_TRIPS]
    return {"inicio": period.first.isoformat(), "fim": period.last.isoformat(), "minimo_por_celula": MIN_CELL_TRIPS,
            "celulas_suprimidas": sum(1 for n in counts.values() if n < MIN_CELL_TRIPS), "celulas": published}


def catalogue() -> dict:
    """The datasets with their formats, fields and published schemas (``esquemas``: Table Schema for the CSV,
    JSON Schema for the JSON/GeoJSON), and the licence (the JSON catalogue and the /dados-abertos/ page)."""
    from .open_schemas import links  # the schemas are built from this module's field descriptions

    return {"licenca": LICENCE, "minimo_por_celula": MIN_CELL_TRIPS, "conjuntos": [
        {"nome": "pontos", "titulo": "Pontos de táxi", "formatos": ["/api/open/ranks.geojson", "/api/open/ranks.csv"],
         "esquema": SCHEMAS["pontos"], "esquemas": links("pontos")},
        {"nome": "frota", "titulo": "Tamanho e regularidade da frota",
         "formatos": ["/api/open/fleet.json", "/api/open/fleet.csv"], "esquema": SCHEMAS["frota"], "esquemas": links("frota")},
        {"nome": "viagens", "titulo": f"Pedidos de táxi por bairro e hora, por mês (células com menos de {MIN_CELL_TRIPS} suprimidas)",
         "formatos": ["/api/open/trips.json", "/api/open/trips.csv"], "esquema": SCHEMAS["viagens"],
         "esquemas": links("viagens")},
    ]}
