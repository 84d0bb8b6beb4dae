"""The municipality's territory: why a central-zone file (Art. 24) or a place outside the municipality (Art. 25)
is refused.

Art. 24 draws the central zone; the municipality records it as one closed, valid polygon of longitude/latitude
positions lying inside the municipality. ``zones`` measures the geometry (it needs Shapely, which the core does
not import) and asks here for the refusal: the article, the code and the pt-BR message of each ground live in
this table. Nothing here imports Django or Shapely.
"""

from __future__ import annotations

import math
from typing import Any

from .decision import Reason
from .i18n import gettext_noop as _

ARTICLE = "Art. 24"

#: Each ground on which an uploaded central-zone file is refused (Art. 24), by its stable code.
ZONE_FILE_REFUSALS: dict[str, str] = {
    "zone_file_not_object": _("O arquivo da zona central (Art. 24) deve ser um objeto GeoJSON."),
    "zone_file_not_polygon": _("A zona central (Art. 24) deve ser um único polígono (Polygon); recebido: {kind}."),
    "zone_file_no_coordinates": _("O polígono da zona central (Art. 24) não tem coordenadas."),
    "zone_file_invalid": _("O polígono da zona central (Art. 24) é inválido ({detail}); corrija auto-interseções e anéis."),
    "zone_file_empty": _("O polígono da zona central (Art. 24) tem área nula."),
    "zone_file_outside_municipality": _("A zona central (Art. 24) deve estar dentro do município de Muriaé; parte do polígono fica fora dele (até {metres} m além do limite)."),
    "zone_file_not_json": _("O arquivo da zona central (Art. 24) não é um GeoJSON válido: {error}."),
    "zone_file_polygon_count": _("O arquivo da zona central (Art. 24) deve conter exatamente um polígono; contém {count}."),
    "zone_file_ring_too_short": _("O anel {ring} do polígono da zona central (Art. 24) precisa de ao menos 4 posições; tem {count}."),
    "zone_file_ring_open": _("O anel {ring} do polígono da zona central (Art. 24) não está fechado: a primeira e a última posição devem ser iguais."),
    "zone_file_bad_position": _("O anel {ring} do polígono da zona central (Art. 24) tem posições inválidas."),
    "zone_file_not_lonlat": _("As coordenadas da zona central (Art. 24) devem ser longitude/latitude em graus (WGS 84)."),
}


def zone_file_refusal(code: str, **params: Any) -> Reason:
    """Why an uploaded central-zone file is refused (Art. 24): one of :data:`ZONE_FILE_REFUSALS`."""
    return Reason(ARTICLE, code, ZONE_FILE_REFUSALS[code], params)


def outside_municipality(lon: float, lat: float) -> Reason:
    """A place outside the municipality is refused: the taxi service of the law serves only inside it (Art. 25)."""
    return Reason("Art. 25", "outside_municipality",
                  _("O local ({lat}, {lon}) fica fora do município de Muriaé: o serviço de táxi da Lei 1.242/1987 "
                    "atende apenas dentro do município."),
                  {"lat": round(lat, 5) if math.isfinite(lat) else lat, "lon": round(lon, 5) if math.isfinite(lon) else lon})
