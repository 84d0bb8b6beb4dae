"""Drivers and auxiliaries: Art. 1, IV, §5 and §6, Cap. VII (Art. 48, 49, 51, 52)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Optional

from .calendar import is_quarter_end, quarter_end
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .parameters import Parameters
from .split import REGIME_CTPS, REGIME_LAW

#: Art. 48: auxiliaries per permit; 1 for a grandfathered co-owned cab (Art. 14).
MAX_AUXILIARIES = 2
MAX_AUXILIARIES_CO_OWNED = 1

#: Reading of Art. 1, §5 with §6 (docs/readings-registry.md, "Art. 1, §5 and §6: the CTPS employee and the
#: quarterly proof"): §5 obliges the auxiliary to contribute "como autônomo" and to prove it quarterly; an
#: auxiliary employed under the CTPS (§6) is not an autonomous worker, the employer withholds and pays his
#: contribution, so the quarterly proof of an autonomous contribution is not asked of him nor is his
#: authorization cancelled for lacking it. Remove ``REGIME_CTPS`` here if DIMUTRAN decides otherwise.
QUARTERLY_PROOF_EXEMPT_REGIMES: frozenset[str] = frozenset({REGIME_CTPS})

_ONE_DAY = timedelta(days=1)


def may_add_auxiliary(current_active: int, co_owned: bool) -> Decision:
    """Up to 2 auxiliaries per permit holder; 1 in the co-ownership case kept by Art. 14 (Art. 48)."""
    limit = MAX_AUXILIARIES_CO_OWNED if co_owned else MAX_AUXILIARIES
    if current_active < limit:
        return Decision.allow("Art. 48")
    return Decision.refuse(
        Reason(
            "Art. 48",
            "too_many_auxiliaries",
            gettext_noop("O permissionário já tem {current} auxiliar(es); o máximo é {limit} (Art. 48)."),
            {"current": current_active, "limit": limit},
        )
    )


def check_registration_prerequisites(enrolled_with_dimutran: bool, enrolled_social_security: bool) -> Decision:
    """Holders and auxiliaries must be enrolled beforehand with DIMUTRAN and the Previdência Social (Art. 49, Art. 52)."""
    reasons = []
    if not enrolled_with_dimutran:
        reasons.append(
            Reason("Art. 49", "not_enrolled_dimutran", gettext_noop("O motorista deve estar previamente inscrito no órgão competente (Art. 49)."))
        )
    if not enrolled_social_security:
        reasons.append(
            Reason(
                "Art. 49",
                "not_enrolled_social_security",
                gettext_noop("O motorista deve estar previamente inscrito na Previdência Social (Art. 49)."),
            )
        )
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 49", "Art. 52")


def _next_quarter_end(day: date) -> date:
    return quarter_end(day + _ONE_DAY)


def quarterly_proof_required(regime: str = REGIME_LAW) -> bool:
    """Must the auxiliary present the quarterly proof of an autonomous contribution? (Art. 1, §5; Art. 1, §6).

    Yes in the partnership of §3 and under a written contract of §6 (the auxiliary stays autonomous); no
    when he is employed under the CTPS (``QUARTERLY_PROOF_EXEMPT_REGIMES``).
    """
    return regime not in QUARTERLY_PROOF_EXEMPT_REGIMES


def social_security_due(authorized_on: date, last_proof_quarter_end: Optional[date], params: Parameters) -> date:
    """Last day to present the next quarterly social-security proof (Art. 1, §5).

    The quarter to prove is the one after ``last_proof_quarter_end`` or, with
    no proof yet, the quarter of the authorization; the proof is due
    ``social_security_grace_days`` after that quarter ends.
    """
    if last_proof_quarter_end is None:
        quarter = quarter_end(authorized_on)
    else:
        if not is_quarter_end(last_proof_quarter_end):
            raise ValueError("last_proof_quarter_end must be the last day of a quarter")
        quarter = _next_quarter_end(last_proof_quarter_end)
    grace = int(params.as_of("social_security_grace_days", quarter))
    return quarter + timedelta(days=grace)


_CTPS_NO_QUARTERLY_PROOF = Decision.allow("Art. 1, §5", "Art. 1, §6")


def social_security_status(
    authorized_on: date, last_proof_quarter_end: Optional[date], params: Parameters, on: date, regime: str = REGIME_LAW
) -> Decision:
    """Is the auxiliary's quarterly social-security proof up to date? Overdue cancels the authorization (Art. 1, §5).

    ``regime`` is the authorization's §6 regime (``taxilaw.split.REGIMES``): an auxiliary employed under the
    CTPS contributes through the employer, not as an autonomous worker, so no quarterly proof is due from
    him (``quarterly_proof_required``) and the answer is always allowed, citing §5 and §6.
    """
    if not quarterly_proof_required(regime):
        return _CTPS_NO_QUARTERLY_PROOF
    due = social_security_due(authorized_on, last_proof_quarter_end, params)
    if on <= due:
        return Decision.allow("Art. 1, §5")
    return Decision.refuse(
        Reason(
            "Art. 1, §5",
            "social_security_overdue",
            gettext_noop("O comprovante trimestral de recolhimento à Previdência Social venceu em {due}; a autorização do auxiliar está cancelada (Art. 1, §5)."),
            {"due": due},
        )
    )


def cmt_valid(expires_on: Optional[date], on: date) -> Decision:
    """The driver carries a valid CMT, the taxi driver's card (Art. 32, Art. 51)."""
    if expires_on is None:
        return Decision.refuse(
            Reason("Art. 51", "cmt_missing", gettext_noop("O motorista não tem CMT (Carteira de Motorista de Táxi) (Art. 51)."))
        )
    if on <= expires_on:
        return Decision.allow("Art. 32", "Art. 51")
    return Decision.refuse(
        Reason(
            "Art. 51",
            "cmt_expired",
            gettext_noop("A CMT (Carteira de Motorista de Táxi) venceu em {expires_on} (Art. 51)."),
            {"expires_on": expires_on},
        ),
        articles=("Art. 32",),
    )


def auxiliary_enrolment_due(authorized_on: date, params: Parameters) -> date:
    """Last day for the holder to have the auxiliary's matrícula (CMT, Art. 52) made (Art. 50).

    The term is DIMUTRAN's (``auxiliary_enrolment_days``, a dated parameter), counted from the authorization."""
    return authorized_on + timedelta(days=int(params.as_of("auxiliary_enrolment_days", authorized_on)))


def check_auxiliary_enrolment(authorized_on: date, enrolled: bool, params: Parameters, on: date) -> Decision:
    """Has the holder enrolled the auxiliary in time? Past the term without it, the permit is revocable (Art. 50)."""
    due = auxiliary_enrolment_due(authorized_on, params)
    if enrolled or on <= due:
        return Decision.allow("Art. 50", "Art. 52")
    return Decision.refuse(Reason(
        "Art. 50", "auxiliary_not_enrolled",
        gettext_noop("A matrícula do auxiliar (CMT) devia ser providenciada até {due}; a permissão fica sujeita à revogação (Art. 50)."),
        {"due": due},
    ), articles=("Art. 52",))


def may_authorize(permit_active: bool, already_driving: bool, name: str) -> tuple[Decision, Decision]:
    """Only an active permit has auxiliaries (Art. 48), and a professional drives one taxi, as holder or auxiliary
    (Art. 1, IV): the permit's answer, the person's."""
    permit = (refused("Art. 48", "permit_not_active", gettext_noop("Só uma permissão ativa pode ter auxiliares."))
              if not permit_active else Decision.allow("Art. 48"))
    person = (refused("Art. 1, IV", "already_driving", gettext_noop("{name} já conduz um táxi como permissionário ou auxiliar."),
                      name=name)
              if already_driving else Decision.allow("Art. 1, IV"))
    return permit, person


def contract_named(reference: str) -> Decision:
    """A split other than 25/75 needs the written contract with two witnesses, or the CTPS (Art. 1, §6)."""
    if not reference:
        return refused("Art. 1, §6", "contract_required",
                       gettext_noop("Partilha diferente de 25/75 exige contrato escrito com duas testemunhas ou CTPS (Art. 1, §6)."))
    return Decision.allow("Art. 1, §6")


def proof_for_a_quarter(day: date) -> Decision:
    """The Previdência Social is proved quarter by quarter, named by its last day (Art. 1, §5)."""
    if not is_quarter_end(day):
        return refused("Art. 1, §5", "not_quarter_end",
                       gettext_noop("Informe o último dia do trimestre comprovado (31/03, 30/06, 30/09 ou 31/12)."))
    return Decision.allow("Art. 1, §5")


def cmt_dates(issued_on: date, expires_on: date) -> Decision:
    """The CMT the municipality issues (Art. 51) expires after it is issued."""
    if expires_on <= issued_on:
        return refused("Art. 51", "cmt_dates", gettext_noop("A validade da CMT deve ser posterior à emissão."))
    return Decision.allow("Art. 51")
