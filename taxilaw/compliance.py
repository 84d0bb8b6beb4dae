"""The compliance answer: may this driver work this cab now?

Called for every dispatch offer, so it does no I/O, builds nothing on the
allowed path (a shared ``Decision`` is returned) and only allocates reasons
when it refuses.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Optional, Union

from .auxiliaries import cmt_valid, quarterly_proof_required, social_security_status
from .decision import Decision, Reason, refused
from .i18n import gettext_noop
from .parameters import Parameters, default_parameters
from .permits import PermitStatus
from .split import REGIME_LAW
from .vehicles import InspectionResult, inspection_status, may_admit_vehicle

#: Muriaé's civil time (Brazil has had no daylight saving since 2019).
MURIAE_TZ = timezone(timedelta(hours=-3), "America/Sao_Paulo")


class DriverRole(str, enum.Enum):
    PERMISSIONARIO = "permissionario"  # Art. 1, III
    AUXILIAR = "auxiliar"  # Art. 1, IV


@dataclass(frozen=True, slots=True)
class ComplianceFacts:
    """What the registry knows about a driver and a cab at dispatch time."""

    permit_status: PermitStatus
    alvara_expires_on: Optional[date]
    vehicle_model_year: Optional[int]  # None: no taxi in service
    last_inspection_result: Optional[InspectionResult]
    last_inspection_on: Optional[date]
    driver_role: DriverRole
    cmt_expires_on: Optional[date]
    suspensions: tuple[tuple[date, date], ...] = ()  # inclusive ranges (Art. 54, b)
    vehicle_tolerance_until: Optional[date] = None  # provisional stand-in vehicle tolerated (Art. 34, § único)
    auxiliary_authorization_active: bool = False
    auxiliary_authorized_on: Optional[date] = None
    social_security_last_proof_quarter_end: Optional[date] = None
    # The authorization's regime (Art. 1, §6; taxilaw.split.REGIMES): "ctps" owes no quarterly proof (§5).
    auxiliary_split_regime: str = REGIME_LAW


    def to_json(self) -> dict:
        """A JSON-ready copy (dates as ISO strings), e.g. to keep beside the cab it describes."""
        return {name: _json_value(value) for name, value in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict) -> "ComplianceFacts":
        kinds = {
            "permit_status": PermitStatus, "last_inspection_result": InspectionResult, "driver_role": DriverRole,
            "vehicle_model_year": int, "auxiliary_authorization_active": bool, "auxiliary_split_regime": str,
        }
        values: dict[str, Any] = {}
        for field in fields(cls):
            raw = data[field.name]
            if raw is None:
                values[field.name] = None
            elif field.name == "suspensions":
                values[field.name] = tuple((date.fromisoformat(a), date.fromisoformat(b)) for a, b in raw)
            else:
                values[field.name] = kinds.get(field.name, date.fromisoformat)(raw)
        return cls(**values)


def _json_value(value):
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return [_json_value(v) for v in value]
    return value


_ALLOWED = Decision.allow(
    "Art. 4", "Art. 9", "Art. 28", "Art. 35", "Art. 38", "Art. 51", "Art. 54, b"
)
_ALLOWED_AUXILIARY = Decision.allow(
    "Art. 1, IV", "Art. 1, §5", "Art. 4", "Art. 9", "Art. 28", "Art. 35", "Art. 38", "Art. 48", "Art. 51", "Art. 54, b"
)
#: An auxiliary employed under the CTPS: §5's quarterly proof is not asked of him (§6; docs/readings-registry.md).
_ALLOWED_AUXILIARY_CTPS = Decision.allow(
    "Art. 1, IV", "Art. 1, §5", "Art. 1, §6", "Art. 4", "Art. 9", "Art. 28", "Art. 35", "Art. 38", "Art. 48", "Art. 51",
    "Art. 54, b"
)

_STATUS_REASONS = {
    PermitStatus.AWAITING_TERM: Reason(
        "Art. 3", "term_not_signed", gettext_noop("O termo de compromisso ainda não foi assinado; não há alvará (Art. 3, §2).")
    ),
    PermitStatus.LOST: Reason(
        "Art. 3, §1", "permit_lost", gettext_noop("O direito à permissão foi perdido: termo não assinado em 30 dias (Art. 3, §1).")
    ),
    PermitStatus.REVOKED: Reason("Art. 9", "permit_revoked", gettext_noop("A permissão foi revogada (Art. 9, Art. 11).")),
    PermitStatus.EXTINCT: Reason(
        "Art. 4, §3", "permit_extinct", gettext_noop("A permissão está extinta por falta de renovação do alvará (Art. 4, §3).")
    ),
    PermitStatus.WITHDRAWN: Reason("Art. 8", "permit_withdrawn", gettext_noop("A permissão foi devolvida ao Município por desistência (Art. 8).")),
    PermitStatus.SUSPENDED: Reason("Art. 54, b", "permit_suspended", gettext_noop("A permissão está suspensa (Art. 54, b).")),
}

_AUXILIARY_NOT_AUTHORIZED = Reason(
    "Art. 1, IV",
    "auxiliary_not_authorized",
    gettext_noop("O motorista auxiliar não tem autorização ativa do órgão competente (Art. 1, IV e Art. 49)."),
)
_NO_VEHICLE = Reason("Art. 1, III", "no_vehicle", gettext_noop("A permissão não tem táxi em serviço (Art. 1, III)."))

_default_params: Optional[Parameters] = None


def _params() -> Parameters:
    global _default_params
    if _default_params is None:
        _default_params = default_parameters()
    return _default_params


def _resolve(params: Union[Parameters, Callable[[], Parameters], None]) -> Parameters:
    if params is None:
        return _params()
    return params() if callable(params) else params


def local_date(now: Union[datetime, date]) -> date:
    """The calendar day in Muriaé of ``now`` (aware datetimes are converted, naive ones taken as local)."""
    if isinstance(now, datetime):
        if now.tzinfo is not None:
            now = now.astimezone(MURIAE_TZ)
        return now.date()
    return now


# Complexity kept: one check per condition of the law for working today, in the law's order, each with its reason.
def may_work(  # noqa: C901
    facts: ComplianceFacts, now: Union[datetime, date], params: Union[Parameters, Callable[[], Parameters], None] = None
) -> Decision:
    """May this driver work this cab now? Every reason against, each with its article.

    ``params`` may be a function giving the dated parameters: it is called only when a rule needs
    them (an auxiliary's social-security proof), so a holder's answer reads none.

    Permit revoked (Art. 9), extinct (Art. 4, §3), withdrawn (Art. 8) or
    suspended (Art. 54, b); alvará expired (Art. 4); vehicle over 10 years
    (Art. 28, Art. 28, § único) or none in service (Art. 1, III) unless a stand-in is tolerated (Art. 34,
    § único); inspection failed (Art. 38), missing or overdue (Art. 35); CMT
    missing or expired (Art. 51); for an auxiliary, authorization not active
    (Art. 1, IV, Art. 49) or quarterly social-security proof overdue (Art. 1,
    §5; not asked of an auxiliary employed under the CTPS, Art. 1, §6).
    """
    on = local_date(now)
    reasons: list[Reason] = []

    status = facts.permit_status
    if status != PermitStatus.ACTIVE:
        reasons.append(_STATUS_REASONS[PermitStatus(status)])
    elif facts.suspensions:
        for start, end in facts.suspensions:
            if start <= on <= end:
                reasons.append(
                    Reason(
                        "Art. 54, b",
                        "permit_suspended",
                        gettext_noop("A permissão está suspensa de {start} a {end} (Art. 54, b)."),
                        {"start": start, "end": end},
                    )
                )
                break

    expires = facts.alvara_expires_on
    if expires is None or on > expires:
        reasons.append(
            Reason(
                "Art. 4",
                "alvara_expired",
                gettext_noop("O alvará venceu em {expires_on} (Art. 4).") if expires else gettext_noop("Não há alvará em vigor (Art. 4)."),
                {"expires_on": expires} if expires else {},
            )
        )

    # The vehicle, the inspection, the CMT and the auxiliary's proof are each the rule of their own
    # module; only their refusals are collected here.
    tolerated = facts.vehicle_tolerance_until is not None and on <= facts.vehicle_tolerance_until
    if facts.vehicle_model_year is None:
        reasons.append(_NO_VEHICLE)
    elif not tolerated:
        reasons.extend(may_admit_vehicle(facts.vehicle_model_year, on).reasons)
    reasons.extend(inspection_status(facts.last_inspection_result, facts.last_inspection_on, on).reasons)
    reasons.extend(cmt_valid(facts.cmt_expires_on, on).reasons)

    auxiliary = facts.driver_role is DriverRole.AUXILIAR or facts.driver_role == "auxiliar"
    if auxiliary:
        if not facts.auxiliary_authorization_active or facts.auxiliary_authorized_on is None:
            reasons.append(_AUXILIARY_NOT_AUTHORIZED)
        else:
            reasons.extend(
                social_security_status(
                    facts.auxiliary_authorized_on, facts.social_security_last_proof_quarter_end, _resolve(params), on,
                    facts.auxiliary_split_regime,
                ).reasons
            )

    if not reasons:
        if not auxiliary:
            return _ALLOWED
        return _ALLOWED_AUXILIARY if quarterly_proof_required(facts.auxiliary_split_regime) else _ALLOWED_AUXILIARY_CTPS
    return Decision.refuse(*reasons)


def drives_this_cab(drives: bool, name: str, number: str) -> Decision:
    """Only the permit's holder or an authorized auxiliary drives its cab (Art. 9, VI)."""
    if not drives:
        return refused("Art. 9, VI", "not_a_driver_of_this_cab",
                       gettext_noop("{name} não é permissionário nem auxiliar autorizado da permissão {number} (Art. 9, VI)."),
                       name=name, number=number)
    return Decision.allow("Art. 9, VI")
