"""Offline address search and reverse lookup over Muriaé's shipped streets and landmarks.

Plain Python (no Django): loaded once (:func:`default_gazetteer`), every index
built at load. Search folds the text (accents, case, abbreviations: ``R. Cel.
Domiciano`` = ``rua coronel domiciano``), takes out a CEP and a house number,
and ranks every street and landmark with rapidfuzz (``token_set_ratio`` over
the words for words missing or swapped, ``ratio`` over the name's core for typos). Reverse lookup finds the nearest street with a Shapely
STRtree in a local metric frame. Work is bounded: the text is cut to
:data:`MAX_QUERY_CHARS` before anything else and to :data:`MAX_WORDS` words.

Data: ``zones/data/streets.geojson`` and ``landmarks.geojson`` built by
``tools/build_gazetteer.py`` (sources and licences in ``zones/data/SOURCE.md``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from rapidfuzz import fuzz, process
from shapely.geometry import Point, shape
from shapely.strtree import STRtree

from taxilaw.decision import Reason
from taxilaw.i18n import gettext_noop as _

from .boundary import inside_municipality, outside_reason
from .geojson import DATA_DIR, load_municipality
from .geometry import METRES_PER_DEGREE_LAT, METRES_PER_DEGREE_LON_EQUATOR
from .names import STREET_TYPES, core, expand, fold, street_type

STREETS_FILE = DATA_DIR / "streets.geojson"
LANDMARKS_FILE = DATA_DIR / "landmarks.geojson"

MAX_QUERY_CHARS = 200  # what a person types for one address; the rest is cut before any work
MAX_WORDS = 8
MAX_RESULTS = 8
MIN_SCORE = 62.0  # score (0-100) below which a name is no suggestion
#: Reverse lookup: no street farther than this is "the" street of a point (metres).
REVERSE_MAX_M = 250.0
#: Reverse lookup: the bairro of a point is voted by the one-bairro streets this close (metres).
BAIRRO_VOTE_M = 400.0
#: Muriaé's CEP range (Correios): 36880-000 to 36888-999; 36880-000 is the city's general CEP.
CEP_FIRST, CEP_LAST, CEP_GENERAL = "36880000", "36888999", "36880000"

ARTICLE = "Art. 25"  # the municipality's streets (Art. 24-25 zones are of the municipality only)
_CEP = re.compile(r"(?<!\d)(\d{5})[-.\s]?(\d{3})(?!\d)")
_KX = METRES_PER_DEGREE_LON_EQUATOR * 0.93278  # cos(21.13 deg): metres per degree of longitude at Muriaé
_KY = METRES_PER_DEGREE_LAT
_SCALE = np.array([_KX, _KY])


class AddressError(ValueError):
    """A point or text that cannot be looked up; ``reason`` renders in pt-BR."""

    def __init__(self, code: str, template: str, **params: Any):
        self.reason = _reason(code, template, **params)
        self.code = code
        super().__init__(self.reason.message)

    @property
    def message(self) -> str:
        return self.reason.message


@dataclass(frozen=True)
class Place:
    id: str  # "rua-12" / "local-3"
    kind: str  # "street" | "landmark"
    name: str
    bairros: tuple[str, ...]
    ceps: tuple[str, ...]
    geometry: dict  # GeoJSON (MultiLineString for a street, Point for a landmark)
    lon: float  # a point on the place (a street: on its line, nearest its centre)
    lat: float

    def as_dict(self) -> dict:
        return {
            "id": self.id, "kind": self.kind, "name": self.name, "bairros": list(self.bairros),
            "ceps": list(self.ceps), "lat": self.lat, "lon": self.lon, "geometry": self.geometry,
        }


@dataclass(frozen=True)
class Suggestion:
    place: Place
    score: float
    label: str  # "Rua Coronel Domiciano, 94 - Centro"
    number: str | None = None

    def as_dict(self) -> dict:
        return {**self.place.as_dict(), "score": round(self.score, 1), "label": self.label, "number": self.number}


@dataclass
class SearchResult:
    query: str  # the text as searched (folded, cut)
    suggestions: list[Suggestion] = field(default_factory=list)
    reason: Reason | None = None  # pt-BR, when there is nothing to suggest or the text was partly understood

    def message(self, translate=str) -> str:
        return self.reason.render(translate) if self.reason else ""

    def as_dict(self, translate=str) -> dict:
        return {"query": self.query, "message": self.message(translate),
                "results": [s.as_dict() for s in self.suggestions]}


@dataclass(frozen=True)
class ReverseResult:
    address: str  # "Rua Coronel Domiciano, bairro Centro"; "" when no street is near
    street: Place | None
    bairro: str
    distance_m: float | None
    reason: Reason | None = None

    def as_dict(self, translate=str) -> dict:
        return {
            "address": self.address, "bairro": self.bairro,
            "message": self.reason.render(translate) if self.reason else "",
            "distance_m": round(self.distance_m, 1) if self.distance_m is not None else None,
            "street": self.street.as_dict() if self.street else None,
        }


def _reason(code: str, template: str, **params: Any) -> Reason:
    return Reason(ARTICLE, code, template, params)


def _label(place: Place, number: str | None) -> str:
    text = place.name + (f", {number}" if number else "")
    return f"{text} - {place.bairros[0]}" if len(place.bairros) == 1 else text


def _key(name: str) -> str:
    """Folded, expanded words without the street type: a shared "rua" is no likeness."""
    words = expand(fold(name).split())
    return " ".join(words[1:] if len(words) > 1 and words[0] in STREET_TYPES else words)


def _metric(geom):
    return shapely.transform(geom, lambda xy: xy * _SCALE)


class Gazetteer:
    """Streets and landmarks, indexed for fuzzy search, CEP and nearest-street lookup."""

    def __init__(self, streets: dict, landmarks: dict, municipality):
        self.municipality = municipality
        shapely.prepare(municipality)
        self.places: list[Place] = []
        lines, line_place = [], []
        self.by_cep: dict[str, list[int]] = {}
        for f in streets["features"]:
            p = f["properties"]
            if not p["name"]:
                continue  # unnamed roads are drawn, never searched
            geom = shape(f["geometry"])
            on_line = geom.interpolate(geom.project(geom.centroid))
            index = len(self.places)
            self.places.append(Place(
                f"rua-{f['id']}", "street", p["name"], tuple(p["bairros"]), tuple(p["ceps"]), f["geometry"],
                round(on_line.x, 6), round(on_line.y, 6)))
            for cep in p["ceps"]:
                self.by_cep.setdefault(cep.replace("-", ""), []).append(index)
            for part in geom.geoms:
                lines.append(_metric(part))
                line_place.append(index)
        for i, f in enumerate(landmarks["features"], start=1):
            lon, lat = f["geometry"]["coordinates"]
            p = f["properties"]
            self.places.append(Place(f"local-{i}", "landmark", p["name"], (), (), f["geometry"], lon, lat))
        self.keys = [_key(p.name) for p in self.places]
        self.cores = [core(p.name) for p in self.places]
        self.kinds = [street_type(p.name) for p in self.places]
        self.tree = STRtree(lines)
        self.line_place = np.array(line_place)
        self.lines = lines

    # -- search -----------------------------------------------------------------------------------

    # Complexity kept: the address search's stages (exact, CEP, fuzzy, bairro), each bounded; documented in docs/maps.md.
    def search(self, text: str, limit: int = MAX_RESULTS) -> SearchResult:  # noqa: C901
        """Ranked suggestions for what a person typed: a street, a place, a CEP, with a house number or not."""
        raw = (text or "")[:MAX_QUERY_CHARS]
        limit = max(1, min(limit, MAX_RESULTS))
        cep = _CEP.search(raw)
        words = expand(fold(_CEP.sub(" ", raw)).split())[:MAX_WORDS]
        number = next((w for w in words if w.isdigit() and len(w) <= 5), None)
        words = list(dict.fromkeys(w for w in words if not w.isdigit()))  # "rua rua rua" is "rua"
        query = " ".join(words)
        result = SearchResult(query=query)
        if cep:
            code = cep.group(1) + cep.group(2)
            found = self.by_cep.get(code, [])
            pretty = f"{code[:5]}-{code[5:]}"
            if found:
                result.suggestions = [
                    Suggestion(self.places[i], 100.0, _label(self.places[i], number), number) for i in found[:limit]]
            elif not CEP_FIRST <= code <= CEP_LAST:
                result.reason = _reason("cep_not_muriae", _(
                    "O CEP {cep} não é de Muriaé (os CEPs de Muriaé vão de 36880-000 a 36888-999)."), cep=pretty)
            elif code == CEP_GENERAL:
                result.reason = _reason("cep_general", _(
                    "{cep} é o CEP geral de Muriaé e não indica a rua: digite o nome da rua ou do local."), cep=pretty)
            else:
                result.reason = _reason("cep_unknown", _("O CEP {cep} não consta da lista de CEPs de Muriaé."), cep=pretty)
            if result.suggestions or not query:
                return result
        if not query:
            result.reason = result.reason or (
                _reason("number_only", _("Digite o nome da rua, além do número.")) if number
                else _reason("empty", _("Digite uma rua, um local ou um CEP de Muriaé.")))
            return result
        kind = street_type(query)
        # token_set_ratio over the words (words missing or swapped) and ratio over the cores
        # (typos inside the distinctive part: "pascoal bernadino" is Paschoal Bernardino)
        # (whole-string ratio blended in: "hospital são paulo" is the hospital before the praça)
        key = _key(query)
        scores: dict[int, float] = {}
        for _k, score, i in process.extract(key, self.keys, scorer=fuzz.token_set_ratio, processor=None,
                                            score_cutoff=MIN_SCORE, limit=limit * 3):
            scores[i] = 0.75 * score + 0.25 * fuzz.ratio(key, self.keys[i])
        for _k, score, i in process.extract(core(query), self.cores, scorer=fuzz.ratio, processor=None,
                                            score_cutoff=MIN_SCORE, limit=limit * 3):
            scores[i] = max(score, scores.get(i, 0.0))
        scores = {i: v for i, v in scores.items() if v >= MIN_SCORE}

        def rank(i: int) -> tuple:
            # the street type typed breaks near-ties ("praça joão pinheiro" before "rua joão pinheiro"),
            # then a name the CEP list knows
            bonus = (2.0 if kind and self.kinds[i] == kind else 0.0) + (1.0 if self.places[i].ceps else 0.0)
            return (-(scores[i] + bonus), i)

        result.suggestions = [
            Suggestion(self.places[i], scores[i], _label(self.places[i], number), number)
            for i in sorted(scores, key=rank)[:limit]]
        if not result.suggestions and not result.reason:
            result.reason = _reason("not_found", _("Nenhuma rua ou local de Muriaé parecido com \u201c{query}\u201d."),
                                    query=query[:60])
        return result

    # -- reverse ----------------------------------------------------------------------------------

    def check_inside(self, lon: float, lat: float) -> None:
        """Raise :class:`AddressError` when the point is outside the municipality of Muriaé."""
        if not inside_municipality(lon, lat):
            reason = outside_reason(lon, lat)
            raise AddressError(reason.code, reason.template, **reason.params)

    def reverse(self, lon: float, lat: float) -> ReverseResult:
        """The nearest street of a point inside the municipality: "Rua X, bairro Y"."""
        self.check_inside(lon, lat)
        here = Point(lon * _KX, lat * _KY)
        hit, dist = self.tree.query_nearest(here, max_distance=REVERSE_MAX_M, return_distance=True, all_matches=False)
        if len(hit) == 0:
            return ReverseResult("", None, "", None, _reason(
                "no_street_near", _("Nenhuma rua conhecida a menos de {metres} m deste ponto."),
                metres=round(REVERSE_MAX_M)))
        street = self.places[int(self.line_place[hit[0]])]
        bairro = self._bairro(here, street)
        address = f"{street.name}, bairro {bairro}" if bairro else street.name
        return ReverseResult(address, street, bairro, float(dist[0]))

    def _bairro(self, here: Point, street: Place) -> str:
        if len(street.bairros) == 1:
            return street.bairros[0]
        near = self.tree.query(here, predicate="dwithin", distance=BAIRRO_VOTE_M)
        votes = Counter(
            b for i in {int(self.line_place[j]) for j in near}
            for b in self.places[i].bairros if len(self.places[i].bairros) == 1
            and (not street.bairros or b in street.bairros))
        return votes.most_common(1)[0][0] if votes else ""


def load_gazetteer() -> Gazetteer:
    return Gazetteer(json.loads(STREETS_FILE.read_text("utf-8")), json.loads(LANDMARKS_FILE.read_text("utf-8")),
                     load_municipality())


@lru_cache(maxsize=1)
def default_gazetteer() -> Gazetteer:
    """The shipped gazetteer, loaded once per process."""
    return load_gazetteer()
