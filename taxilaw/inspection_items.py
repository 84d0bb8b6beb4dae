"""What a vistoria examines and what the holder presents at it (Art. 29-33, Art. 36, Art. 39), and the start of
service it opens (Art. 13, III; Art. 31).

The regulation's planilha (Art. 36) and list of documents (Art. 39) are not available; the items below are the
ones the law itself names (the roof light of Art. 29, the visual communication of Art. 30, 31 and 33, the CVI of
Art. 32, the taximeter of Art. 43) and the ordinary mechanical items of any municipal vistoria (reading in
docs/readings-registry.md). A vistoria is approved only when every item passed and every document was presented.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Mapping, Optional

from .calendar import day_term_end
from .decision import Decision, Reason
from .i18n import gettext_noop as _
from .parameters import Parameters


@dataclass(frozen=True)
class Item:
    code: str
    article: str
    label: str


#: The vistoria's planilha (Art. 36): each item with the article that requires it.
CHECKLIST: tuple[Item, ...] = (
    Item("roof_light", "Art. 29", _("equipamento luminoso sobre a capota com a palavra “TÁXI”")),
    Item("visual_communication", "Art. 31", _("padrões de comunicação visual do regulamento (Art. 30, 31 e 33)")),
    Item("cvi_displayed", "Art. 32", _("CVI afixado ao lado direito do painel, visível ao usuário")),
    Item("taximeter_sealed", "Art. 36", _("taxímetro aferido e lacrado")),
    Item("brakes", "Art. 36", _("freios")),
    Item("tyres", "Art. 36", _("pneus")),
    Item("lights", "Art. 36", _("faróis, lanternas e setas")),
    Item("seat_belts", "Art. 36", _("cintos de segurança")),
    Item("bodywork_interior", "Art. 36", _("lataria, pintura e interior conservados e limpos")),
)

#: The documents the holder presents at the vistoria (Art. 39).
DOCUMENTS: tuple[Item, ...] = (
    Item("crlv", "Art. 39", _("CRLV do veículo, em nome do permissionário (Art. 13, IV)")),
    Item("cnh", "Art. 39", _("CNH do motorista titular")),
    Item("cmt", "Art. 39", _("CMT – Carteira de Motorista de Táxi (Art. 51)")),
    Item("alvara", "Art. 39", _("alvará em vigor (Art. 4)")),
    Item("insurance", "Art. 39", _("comprovante do seguro obrigatório do veículo")),
)

CHECKLIST_CODES = frozenset(i.code for i in CHECKLIST)
DOCUMENT_CODES = frozenset(i.code for i in DOCUMENTS)


def complete_checklist() -> dict[str, bool]:
    """Every item of the planilha passed (a convenience for callers recording an approved vistoria)."""
    return {i.code: True for i in CHECKLIST}


def all_documents() -> dict[str, bool]:
    """Every document of Art. 39 presented."""
    return {i.code: True for i in DOCUMENTS}


def _unknown(given: Mapping[str, bool], known: frozenset[str], article: str) -> list[Reason]:
    return [Reason(article, "inspection_item_unknown", _("Item desconhecido: {code}."), {"code": code})
            for code in sorted(set(given) - known)]


def judge_inspection(checklist: Optional[Mapping[str, bool]], documents: Optional[Mapping[str, bool]]) -> Decision:
    """May the vistoria approve the vehicle? Only with the planilha filled (Art. 36) and every item passed: the roof
    light (Art. 29), the visual communication (Art. 31, Art. 33), the CVI (Art. 32), the mechanical items (Art. 36);
    and every document of Art. 39 presented. A refusal lists each failing item with its article (Art. 38)."""
    checklist, documents = checklist or {}, documents or {}
    reasons = _unknown(checklist, CHECKLIST_CODES, "Art. 36") + _unknown(documents, DOCUMENT_CODES, "Art. 39")
    for item in CHECKLIST:
        if not checklist.get(item.code):
            reasons.append(Reason(item.article, f"inspection_item_{item.code}",
                                  _("Vistoria: item não aprovado ou não examinado: {label} ({article})."),
                                  {"label": item.label, "article": item.article}))
    for doc in DOCUMENTS:
        if not documents.get(doc.code):
            reasons.append(Reason("Art. 39", f"inspection_document_{doc.code}",
                                  _("Vistoria: documento não apresentado: {label} (Art. 39)."), {"label": doc.label}))
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 29", "Art. 31", "Art. 33", "Art. 36", "Art. 39")


def known_items(checklist: Mapping[str, bool], documents: Mapping[str, bool]) -> Decision:
    """A vistoria records only items of the planilha (Art. 36) and documents of Art. 39."""
    reasons = _unknown(checklist, CHECKLIST_CODES, "Art. 36") + _unknown(documents, DOCUMENT_CODES, "Art. 39")
    return Decision.refuse(*reasons) if reasons else Decision.allow("Art. 36", "Art. 39")


def service_start_deadline(term_signed_on: date, params: Parameters, municipal_holidays=()) -> date:
    """Last day to start the service after signing the term (Art. 13, III: "no prazo determinado"; the dated
    parameter ``service_start_days``)."""
    return day_term_end(term_signed_on, int(params.as_of("service_start_days", term_signed_on)), municipal_holidays)


def service_start_status(term_signed_on: Optional[date], started_on: Optional[date], on: date, params: Parameters,
                         municipal_holidays=()) -> Decision:
    """Has the holder started the service within the term (Art. 13, III)? The start is the first approved vistoria
    after the term, the vehicle then meeting the visual communication standards (Art. 31). Past the term without
    it, the permit's obligation is breached: the inquiry of Art. 10 follows (Art. 9, II)."""
    if term_signed_on is None or started_on is not None:
        return Decision.allow("Art. 13, III")
    deadline = service_start_deadline(term_signed_on, params, municipal_holidays)
    if on <= deadline:
        return Decision.allow("Art. 13, III")
    return Decision.refuse(Reason("Art. 13, III", "service_not_started",
                                  _("O serviço não foi iniciado no prazo, que terminou em {deadline} (Art. 13, III)."),
                                  {"deadline": deadline}))


def approved_vistoria() -> dict[str, dict[str, bool]]:
    """The keyword arguments of an approved vistoria: every item passed, every document presented (Art. 36, 39)."""
    return {"checklist": complete_checklist(), "documents": all_documents()}
