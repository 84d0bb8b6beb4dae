"""Permits and alvarás: Cap. II of Lei 1.242/1987 (Art. 1, III; Art. 2-5, 7, 8, 9 § único, 14)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Collection, Mapping, Optional, Sequence

from .calendar import add_months, add_years, day_term_end
from .decision import Decision, Reason
from .i18n import gettext_noop
from .parameters import Parameters

CENT = Decimal("0.01")

#: Art. 68: the law is in force from its publication; it is dated 28 December 1987.
LAW_IN_FORCE_ON = date(1987, 12, 28)
#: Art. 3, §1: days after the publication of the contest result to sign the term.
TERM_SIGNATURE_DAYS = 30
#: Art. 4: a permit (and its alvará) lasts 1 year.
ALVARA_VALIDITY_YEARS = 1
#: Art. 7: years a cedent may not apply for a new permit.
CEDENT_BAR_YEARS = 2


def to_cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


class PermitStatus(str, enum.Enum):
    """Where a permit stands."""

    AWAITING_TERM = "awaiting_term"  # Art. 3: granted, term not yet signed
    LOST = "lost"  # Art. 3, §1: term not signed in 30 days
    ACTIVE = "active"
    SUSPENDED = "suspended"  # Art. 54, b
    REVOKED = "revoked"  # Art. 9, Art. 11
    EXTINCT = "extinct"  # Art. 4, §3
    WITHDRAWN = "withdrawn"  # Art. 8


# --------------------------------------------------------------------------- grant


@dataclass(frozen=True)
class CandidateFacts:
    """Facts about a person asking for a permit (by contest or transfer)."""

    is_autonomous_professional: bool
    holds_permit: bool = False
    last_ceded_permit_on: Optional[date] = None  # last transfer in which they were the cedent
    had_permit_revoked: bool = False
    social_security_registered: bool = True  # Art. 49
    cnh_expires_on: Optional[date] = None  # Art. 5, I; Art. 9, IV (None: not recorded)


def licence_valid(cnh_expires_on: Optional[date], on: date) -> Decision:
    """The professional's driving licence (CNH) is in force on ``on``: proof of professional qualification
    (Art. 5, I) without which the permit cannot be exercised (Art. 9, IV). An unrecorded expiry is not judged."""
    if cnh_expires_on is None or on <= cnh_expires_on:
        return Decision.allow("Art. 5, I", "Art. 9, IV")
    return Decision.refuse(Reason(
        "Art. 5, I", "cnh_expired",
        gettext_noop("A CNH venceu em {expired}: não há prova de habilitação profissional em vigor (Art. 5, I, Art. 9, IV)."),
        {"expired": cnh_expires_on},
    ), articles=("Art. 9, IV",))


def cedent_bar_ends(ceded_on: date) -> date:
    """Last day of the cedent's bar (Art. 7): 2 years from the transfer."""
    return add_years(ceded_on, CEDENT_BAR_YEARS)


def may_grant_permit(candidate: CandidateFacts, on: date) -> Decision:
    """May a permit be granted to this person on ``on``?

    Art. 1, III and Art. 2: only to autonomous professionals; Art. 2, § único:
    one permit per professional; Art. 7: a cedent is barred for 2 years after
    any transfer; Art. 9, § único: whoever had a permit revoked is barred
    (``had_permit_revoked``: for fault and for ``revocation_bar_years``, ``taxilaw.revocation.revocation_bars``); Art. 49: enrolled with the Previdência Social beforehand; Art. 5, I
    and Art. 9, IV: a CNH in force.
    """
    reasons = []
    if not candidate.is_autonomous_professional:
        reasons.append(
            Reason(
                "Art. 2",
                "not_autonomous_professional",
                gettext_noop("A permissão só é outorgada a motorista profissional autônomo (Art. 1, III e Art. 2)."),
            )
        )
    if candidate.holds_permit:
        reasons.append(
            Reason(
                "Art. 2, § único",
                "already_holds_permit",
                gettext_noop("O candidato já é permissionário; só se outorga uma permissão a cada profissional (Art. 2, § único)."),
            )
        )
    if candidate.last_ceded_permit_on is not None:
        bar_end = cedent_bar_ends(candidate.last_ceded_permit_on)
        if on <= bar_end:
            reasons.append(
                Reason(
                    "Art. 7",
                    "cedent_bar",
                    gettext_noop(
                        "O candidato transferiu permissão em {ceded_on}; está impedido de pleitear nova permissão até {bar_end} (Art. 7)."
                    ),
                    {"ceded_on": candidate.last_ceded_permit_on, "bar_end": bar_end},
                )
            )
    if candidate.had_permit_revoked:
        reasons.append(
            Reason(
                "Art. 9, § único",
                "revoked_before",
                gettext_noop("O candidato teve permissão revogada e fica vedado de explorar o serviço em permissões futuras (Art. 9, § único)."),
            )
        )
    if not candidate.social_security_registered:
        reasons.append(Reason(
            "Art. 49", "not_social_security_registered",
            gettext_noop("O permissionário deve estar previamente inscrito na Previdência Social (Art. 49)."),
        ))
    licence = licence_valid(candidate.cnh_expires_on, on)
    reasons.extend(licence.reasons)
    if reasons:
        return Decision.refuse(*reasons, articles=() if licence else licence.articles)
    return Decision.allow("Art. 1, III", "Art. 2", "Art. 2, § único", "Art. 5, I", "Art. 7", "Art. 9, § único", "Art. 49")


# ------------------------------------------------------------------ term and alvará


def term_signature_deadline(published_on: date, municipal_holidays: Collection[date] = ()) -> date:
    """Last day to sign the term of commitment: 30 days after the result is published (Art. 3, §1)."""
    return day_term_end(published_on, TERM_SIGNATURE_DAYS, municipal_holidays)


def check_term_signature(published_on: date, signed_on: date, municipal_holidays: Collection[date] = ()) -> Decision:
    """Was the term signed in time? Otherwise the right to the permit is lost (Art. 3, §1)."""
    deadline = term_signature_deadline(published_on, municipal_holidays)
    if signed_on < published_on:
        return Decision.refuse(
            Reason(
                "Art. 3, §1",
                "term_before_publication",
                gettext_noop("O termo não pode ser assinado antes da publicação do resultado ({published_on}) (Art. 3, §1)."),
                {"published_on": published_on},
            )
        )
    if signed_on > deadline:
        return Decision.refuse(
            Reason(
                "Art. 3, §1",
                "term_signature_late",
                gettext_noop(
                    "O termo de compromisso devia ser assinado até {deadline} (30 dias da publicação do resultado); o direito à permissão foi perdido (Art. 3, §1)."
                ),
                {"deadline": deadline},
            )
        )
    return Decision.allow("Art. 3", "Art. 3, §1")


def alvara_expiry(issued_on: date) -> date:
    """Last day of validity of an alvará: 1 year from its issue (Art. 4)."""
    return add_years(issued_on, ALVARA_VALIDITY_YEARS)


@dataclass(frozen=True)
class AlvaraTerm:
    issued_on: date
    expires_on: date


def issue_alvara(
    published_on: date, signed_on: date, municipal_holidays: Collection[date] = ()
) -> tuple[Optional[AlvaraTerm], Decision]:
    """The alvará is issued on the day the term is signed (Art. 3, §2), valid 1 year (Art. 4)."""
    decision = check_term_signature(published_on, signed_on, municipal_holidays)
    if not decision:
        return None, decision
    return AlvaraTerm(signed_on, alvara_expiry(signed_on)), Decision.all_of(decision, Decision.allow("Art. 3, §2", "Art. 4"))


# -------------------------------------------------------------------------- renewal


class RenewalStatus(str, enum.Enum):
    ON_TIME = "on_time"
    EARLY = "early"
    LATE = "late"
    EXTINCT = "extinct"


@dataclass(frozen=True)
class RenewalAssessment:
    status: RenewalStatus
    fine_brl: Decimal
    new_expiry: Optional[date]
    decision: Decision


def renewal_window_opens(expires_on: date, params: Parameters) -> date:
    """First day to request renewal under the regulation's "escala" (Art. 4, §1).

    The escala is the dated parameter ``renewal_window_months`` in force on the
    expiry date: the window opens on the 1st of the month that many months back,
    counting the expiry month as the first (1: the month the alvará expires)."""
    months = int(params.as_of("renewal_window_months", expires_on))
    if months < 1:
        raise ValueError("renewal_window_months must be at least 1")
    return add_months(expires_on.replace(day=1), -(months - 1))


def extinction_deadline(expires_on: date, params: Parameters, municipal_holidays: Collection[date] = ()) -> date:
    """Last day a late renewal may be requested before the permit is extinct (Art. 4, §3)."""
    days = int(params.as_of("renewal_extinction_days", expires_on))
    return day_term_end(expires_on, days, municipal_holidays)


def extinct_for_want_of_renewal(
    expires_on: date, on: date, params: Parameters, municipal_holidays: Collection[date] = ()
) -> bool:
    """Whether the permit whose last alvará expired on ``expires_on`` is extinct on ``on`` (Art. 4, §3): past the
    regulation's term without a renewed alvará. A renewal *request* still open (documents missing) is not the
    renewal the article asks for: it does not stop the term, or a request left open would keep a permit forever."""
    return on > extinction_deadline(expires_on, params, municipal_holidays)


def late_renewal_fine(params: Parameters, on: date) -> Decimal:
    """Fine for not requesting renewal in time: ``late_renewal_fine_ufm`` UFM in R$ (Art. 4, §2)."""
    return to_cents(Decimal(params.as_of("late_renewal_fine_ufm", on)) * Decimal(params.as_of("ufm_brl", on)))


def assess_renewal(
    expires_on: date,
    requested_on: date,
    params: Parameters,
    municipal_holidays: Collection[date] = (),
) -> RenewalAssessment:
    """Classify a request to renew the alvará (Art. 4, §1, Art. 4, §2, Art. 4, §3).

    Reading (docs/readings-registry.md): renewal is requested in the month the
    alvará expires, up to the expiry date (on time); before that month it is
    early and not yet received; after the expiry date it is late and fined
    (Art. 4, §2); after ``renewal_extinction_days`` the permit is extinct and
    returns to the municipality (Art. 4, §3). The renewed alvará runs 1 year
    from the old expiry date (Art. 4).
    """
    opens = renewal_window_opens(expires_on, params)
    zero = Decimal("0.00")
    if requested_on < opens:
        decision = Decision.refuse(
            Reason(
                "Art. 4, §1",
                "renewal_early",
                gettext_noop("A renovação do alvará deve ser requerida nos meses fixados pelo órgão competente, a partir de {opens} (Art. 4, §1)."),
                {"opens": opens},
            )
        )
        return RenewalAssessment(RenewalStatus.EARLY, zero, None, decision)
    new_expiry = add_years(expires_on, ALVARA_VALIDITY_YEARS)
    if requested_on <= expires_on:
        return RenewalAssessment(RenewalStatus.ON_TIME, zero, new_expiry, Decision.allow("Art. 4", "Art. 4, §1"))
    last_day = extinction_deadline(expires_on, params, municipal_holidays)
    fine = late_renewal_fine(params, requested_on)
    if requested_on <= last_day:
        return RenewalAssessment(RenewalStatus.LATE, fine, new_expiry, Decision.allow("Art. 4", "Art. 4, §1", "Art. 4, §2"))
    decision = Decision.refuse(
        Reason(
            "Art. 4, §3",
            "permit_extinct",
            gettext_noop(
                "O alvará venceu em {expires_on} e a renovação não foi requerida até {last_day}: a permissão está extinta e retorna ao Município (Art. 4, §3)."
            ),
            {"expires_on": expires_on, "last_day": last_day},
        ),
        articles=("Art. 4, §2",),
    )
    return RenewalAssessment(RenewalStatus.EXTINCT, fine, None, decision)


@dataclass(frozen=True)
class RenewalDocument:
    code: str
    article: str
    label: str


#: Art. 5, I-V: documents that instruct a renewal request.
RENEWAL_DOCUMENTS: tuple[RenewalDocument, ...] = (
    RenewalDocument("professional_license", "Art. 5, I", gettext_noop("Prova de habilitação profissional")),
    RenewalDocument(
        "vehicle_registration_insurance",
        "Art. 5, II",
        gettext_noop("Certificado de registro do veículo, comprovando a propriedade, e do seguro obrigatório de responsabilidade civil"),
    ),
    RenewalDocument("issqn_paid", "Art. 5, III", gettext_noop("Comprovante de pagamento do ISSQN")),
    RenewalDocument("cpf", "Art. 5, IV", gettext_noop("Inscrição no CPF")),
    RenewalDocument(
        "no_fine_debt",
        "Art. 5, V",
        gettext_noop("Prova de inexistência de débito com o Município por multas aplicadas no exercício da permissão"),
    ),
)


def check_renewal_documents(
    states: Mapping[str, bool], extra: Sequence[RenewalDocument] = ()
) -> Decision:
    """Every document of Art. 5, I-V (and any ``extra`` the regulation adds, Art. 5) is presented.

    ``states`` maps a document code to whether it was presented (for
    ``no_fine_debt``, whether the holder owes no fine); a missing code counts
    as not presented. Each missing document is one reason.
    """
    documents = (*RENEWAL_DOCUMENTS, *extra)
    known = {d.code for d in documents}
    unknown = set(states) - known
    if unknown:
        raise ValueError(f"unknown renewal document codes: {sorted(unknown)}")
    reasons = [
        Reason(d.article, f"missing_{d.code}", gettext_noop("Falta o documento: {label} ({article})."), {"label": d.label, "article": d.article})
        for d in documents
        if not states.get(d.code, False)
    ]
    if reasons:
        return Decision.refuse(*reasons, articles=("Art. 5",))
    return Decision.allow("Art. 5", *(d.article for d in documents))


# ---------------------------------------------------------------- co-ownership (14)


def may_register_owners(owner_count: int, grandfathered: bool) -> Decision:
    """Co-ownership of a taxi is forbidden, except cases existing when the law was published (Art. 14)."""
    if owner_count < 1:
        raise ValueError("a vehicle has at least one owner")
    if owner_count == 1 or grandfathered:
        return Decision.allow("Art. 14")
    return Decision.refuse(
        Reason(
            "Art. 14",
            "co_ownership_forbidden",
            gettext_noop("É proibida a copropriedade de veículo de táxi ({owners} proprietários), salvo os casos anteriores à lei (Art. 14)."),
            {"owners": owner_count},
        )
    )


# ------------------------------------------------------- the permit goes back (8, 11)


@dataclass(frozen=True)
class PermitReturn:
    """A permit that returns to the municipality, and what follows from it."""

    status: PermitStatus
    returned_on: date
    refill_by_contest: bool  # Art. 11 / Art. 15: a new holder only by public contest
    indemnity: bool  # Art. 10, §2: never for a revocation
    permanent_bar: bool  # Art. 9, § único: the former holder is barred for good
    decision: Decision


def withdraw_permit(withdrawn_on: date) -> PermitReturn:
    """The holder gives up the permit: it returns to the municipality (Art. 8).

    It is refilled by public contest like any new permit (Art. 15); giving up
    is not a revocation, so no permanent bar (Art. 9, § único) follows.
    """
    return PermitReturn(
        status=PermitStatus.WITHDRAWN,
        returned_on=withdrawn_on,
        refill_by_contest=True,
        indemnity=False,
        permanent_bar=False,
        decision=Decision.allow("Art. 8", "Art. 15"),
    )


def extinguish_permit(extinct_on: date) -> PermitReturn:
    """A permit not renewed in time is extinct and returns to the municipality (Art. 4, §3)."""
    return PermitReturn(
        status=PermitStatus.EXTINCT,
        returned_on=extinct_on,
        refill_by_contest=True,
        indemnity=False,
        permanent_bar=False,
        decision=Decision.allow("Art. 4, §3", "Art. 15"),
    )


__all__ = [
    "ALVARA_VALIDITY_YEARS",
    "AlvaraTerm",
    "CEDENT_BAR_YEARS",
    "CandidateFacts",
    "LAW_IN_FORCE_ON",
    "PermitReturn",
    "PermitStatus",
    "RENEWAL_DOCUMENTS",
    "RenewalAssessment",
    "RenewalDocument",
    "RenewalStatus",
    "TERM_SIGNATURE_DAYS",
    "alvara_expiry",
    "assess_renewal",
    "cedent_bar_ends",
    "check_renewal_documents",
    "check_term_signature",
    "extinction_deadline",
    "extinguish_permit",
    "issue_alvara",
    "late_renewal_fine",
    "extinct_for_want_of_renewal",
    "may_grant_permit",
    "may_register_owners",
    "renewal_window_opens",
    "term_signature_deadline",
    "to_cents",
    "withdraw_permit",
]


def permit_in_status_for(article: str, number: str, status: str) -> Decision:
    """A permit whose status does not allow the act of ``article`` (Art. 3, Art. 4, Art. 8) is refused, naming it."""
    return Decision.refuse(Reason(article, "permit_status",
                                  gettext_noop("A permissão {number} está na situação “{status}”; a operação não é possível."),
                                  {"number": number, "status": status}))
