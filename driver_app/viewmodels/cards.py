"""The driver's cards shown to passengers and inspectors: the CMT (Art. 51)
and the cab's CVI (Art. 32), with expiry warnings.

They come from ``/api/me/``, read off the UI thread: "Carregando os cartões…" meanwhile; offline, the copy
saved on the phone and when it was saved, with "Tentar de novo"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Optional

from taxilaw.brazil import br_date, parse_date
from taxilaw.flags import local_time

from .base import Observable

WARN_DAYS = 30

ROLE_LABELS = {"permissionario": "Permissionário", "auxiliar": "Motorista auxiliar"}


@dataclass(frozen=True)
class Warning_:
    level: str  # "expired" | "soon"
    text: str
    article: str


def _expiry(what: str, article: str, until: Optional[date], today: date, feminine: bool) -> Optional[Warning_]:
    if until is None:
        return None
    days = (until - today).days
    if days < 0:
        return Warning_("expired", f"{what} {'vencida' if feminine else 'vencido'} desde {br_date(until)}", article)
    if days == 0:
        return Warning_("soon", f"{what} vence hoje ({br_date(until)})", article)
    if days <= WARN_DAYS:
        return Warning_("soon", f"{what} vence em {days} {'dia' if days == 1 else 'dias'} ({br_date(until)})", article)
    return None


class CardsViewModel(Observable):
    cmt_title = "CMT – Carteira de Motorista de Táxi"
    cvi_title = "CVI – Cartão de Identificação do Veículo"

    def __init__(self) -> None:
        super().__init__()
        self.full_screen = False
        self.loaded = False
        self.loading = False
        self.unreachable = ""  # why the server's copy was not had ("Sem conexão"): the cards are the saved copy
        self.saved_at: Optional[datetime] = None
        self.name = ""
        self.initials = ""
        self.photo_url: Optional[str] = None
        self.cmt_number = ""
        self.cmt_issued = ""
        self.cmt_valid_until = ""
        self.cmt_permit = ""
        self.role = ""
        self.role_label = ""
        self.has_cmt = False
        self.has_cvi = False
        self.plate = ""
        self.make_model = ""
        self.model_year = ""
        self.colour = ""
        self.cvi_permit = ""
        self.rank: Optional[str] = None
        self.seal_number = ""
        self.seal_valid_until = ""
        self.compliance_allowed: Optional[bool] = None
        self.compliance_reasons: list[str] = []
        self.warnings: list[Warning_] = []

    def begin_loading(self) -> None:
        self.loading = True
        self.changed()

    def load(self, me: Optional[dict[str, Any]], today: date, unreachable: str = "",
             saved_at: Optional[datetime] = None) -> None:
        """Show ``me``: the server's answer, or (``unreachable`` says why) the copy saved at ``saved_at``."""
        self.loading, self.unreachable, self.saved_at = False, unreachable, saved_at
        me = me or {}
        person = me.get("person") or {}
        self.name = person.get("full_name", "")
        parts = [p for p in self.name.split() if p[:1].isalpha()]
        self.initials = (parts[0][0] + (parts[-1][0] if len(parts) > 1 else "")).upper() if parts else "?"
        self.photo_url = person.get("photo_url")
        cmt = me.get("cmt")
        cvi = me.get("cvi")
        self.has_cmt, self.has_cvi = bool(cmt), bool(cvi)
        self.warnings = []
        cmt = cmt or {}
        self.cmt_number = cmt.get("number") or ""
        self.cmt_issued = br_date(cmt.get("issued_on"))
        self.cmt_valid_until = br_date(cmt.get("expires_on"))
        self.cmt_permit = cmt.get("permit") or ""
        self.role = cmt.get("role") or ""
        self.role_label = ROLE_LABELS.get(self.role, "")
        cvi = cvi or {}
        self.plate = cvi.get("plate") or ""
        self.make_model = " ".join(x for x in (cvi.get("make"), cvi.get("model")) if x)
        self.model_year = str(cvi.get("model_year") or "")
        self.colour = cvi.get("colour") or ""
        self.cvi_permit = cvi.get("permit") or ""
        self.rank = cvi.get("rank")
        self.seal_number = cvi.get("seal_number") or ""
        self.seal_valid_until = br_date(cvi.get("seal_valid_until"))
        if not self.has_cmt:
            self.warnings.append(Warning_("expired", "Sem CMT emitida", "Art. 51"))
        else:
            w = _expiry("CMT", "Art. 51", parse_date(cmt.get("expires_on")), today, feminine=True)
            if w:
                self.warnings.append(w)
        if self.has_cvi:
            if not cvi.get("seal_valid_until"):
                self.warnings.append(Warning_("expired", "Veículo sem selo de vistoria válido", "Art. 37"))
            else:
                w = _expiry("Selo de vistoria", "Art. 37", parse_date(cvi.get("seal_valid_until")), today,
                            feminine=False)
                if w:
                    self.warnings.append(w)
        compliance = me.get("compliance")
        self.compliance_allowed = None if compliance is None else bool(compliance.get("allowed"))
        self.compliance_reasons = [r.get("message", "") for r in (compliance or {}).get("reasons", [])]
        self.loaded = True
        self.changed()

    # -- display ------------------------------------------------------------------------

    @property
    def status_text(self) -> str:
        if self.loading:
            return "Carregando os cartões…"
        if not self.unreachable:
            return ""
        if self.saved_at is None:
            return f"{self.unreachable}: nenhum cartão salvo neste aparelho."
        return f"{self.unreachable}: dados salvos em {local_time(self.saved_at).strftime('%d/%m/%Y às %H:%M')}"

    @property
    def can_retry(self) -> bool:
        return bool(self.unreachable) and not self.loading

    @property
    def rank_text(self) -> str:
        return self.rank or "—"

    @property
    def model_text(self) -> str:
        return f"{self.make_model} {self.model_year}".strip()

    @property
    def warning_texts(self) -> list[str]:
        return [w.text for w in self.warnings]

    @property
    def compliance_text(self) -> str:
        if self.compliance_allowed is None:
            return "Sem permissão vinculada"
        if self.compliance_allowed:
            return "Apto a trabalhar"
        return "Impedido: " + "; ".join(self.compliance_reasons)

    def toggle_full_screen(self) -> None:
        self.full_screen = not self.full_screen
        self.changed()
