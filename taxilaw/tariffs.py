"""Decreed taxi tariffs: what is in force, when it must be reviewed, and the
correction tables used between a new decree and the meters' recalibration.

Art. 42 says the bandeirada and the price per kilometre are *tariffed*
(see :mod:`taxilaw.tariff_study` for the computation); Art. 44 says they are
adjusted every six months by decree; Art. 45 says the service is paid "com base
na tarifa decretada" through Bandeira I and II, and §3-§4 allow, with the
Mayor's prior authorization, correction tables for at most 30 days between the
decree and the meters' recalibration (Art. 47, §2).

Money is ``Decimal`` in BRL.  Nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any, Iterable, Mapping, Optional, Sequence

from .calendar import add_months
from .decision import Decision, Reason
from .i18n import gettext_noop as _

CENT = Decimal("0.01")

#: Art. 44: "a cada período de seis meses" (fixed by the law itself).
REVIEW_PERIOD_MONTHS = 6

#: Art. 45, §4: correction tables may be used "no máximo, de 30 dias".
CORRECTION_TABLE_MAX_DAYS = 30

_PRICE_FIELDS = ("bandeirada", "price_km_b1", "price_km_b2", "price_hour_waiting")
_PRICE_ARTICLES = {
    "bandeirada": "Art. 1, VII",
    "price_km_b1": "Art. 45, I",
    "price_km_b2": "Art. 45, II",
    "price_hour_waiting": "Art. 42",
}
_PRICE_LABELS = {
    "bandeirada": _("bandeirada"),
    "price_km_b1": _("preço do quilômetro na Bandeira I"),
    "price_km_b2": _("preço do quilômetro na Bandeira II"),
    "price_hour_waiting": _("preço da hora de espera"),
}


class NoTariffInForce(LookupError):
    """No decreed tariff is in force on the date asked (Art. 45)."""


def _decimal(value: Any) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        # floats are never money: go through their shortest repr
        return Decimal(repr(value))
    return Decimal(str(value))


@dataclass(frozen=True)
class Tariff:
    """A tariff decreed under Art. 44 and charged under Art. 45, I-II.

    ``bandeirada`` is the fixed amount registered at the start of every trip
    (Art. 1, VII); ``price_km_b1``/``price_km_b2`` are the prices of the
    kilometre in Bandeira I and II (Art. 45, I and II); ``price_hour_waiting``
    is the price of an hour charged while the taxi runs slower than the
    crossover speed (``price_hour_waiting / price_km``).  ``decree`` names the
    act that set it (Art. 44: "baixando-se, a seguir, decreto").
    """

    effective_from: date
    bandeirada: Decimal
    price_km_b1: Decimal
    price_km_b2: Decimal
    price_hour_waiting: Decimal
    decree: str

    def __post_init__(self) -> None:
        for name in _PRICE_FIELDS:
            object.__setattr__(self, name, _decimal(getattr(self, name)))

    def price_km(self, flag: int) -> Decimal:
        """Price per km of Bandeira ``flag`` (1 or 2) -- Art. 45, I and Art. 45, II."""
        return self.price_km_b2 if int(flag) == 2 else self.price_km_b1

    def crossover_speed_kmh(self, flag: int) -> Decimal:
        """Speed below which the meter charges time, above which distance (Art. 45)."""
        return self.price_hour_waiting / self.price_km(flag)

    def validate(self) -> Decision:
        """Every price positive and in cents, the decree named (Art. 42, Art. 44, Art. 45)."""
        return validate_tariff(self)

    def to_dict(self) -> dict[str, str]:
        return {
            "effective_from": self.effective_from.isoformat(),
            "bandeirada": str(self.bandeirada),
            "price_km_b1": str(self.price_km_b1),
            "price_km_b2": str(self.price_km_b2),
            "price_hour_waiting": str(self.price_hour_waiting),
            "decree": self.decree,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Tariff":
        eff = data["effective_from"]
        return cls(
            effective_from=eff if isinstance(eff, date) else date.fromisoformat(eff),
            bandeirada=_decimal(data["bandeirada"]),
            price_km_b1=_decimal(data["price_km_b1"]),
            price_km_b2=_decimal(data["price_km_b2"]),
            price_hour_waiting=_decimal(data["price_hour_waiting"]),
            decree=data.get("decree", ""),
        )


def validate_tariff(tariff: Tariff, *, require_b2_not_below_b1: bool = True) -> Decision:
    """Validate a decreed tariff (Art. 42, Art. 44, Art. 45, I-II).

    Refuses a zero or negative price (Art. 42: the prices are *tariffed* from
    the costs, so none can be nil), a price that is not a whole number of
    cents, a tariff with no decree (Art. 44) and -- reading documented in
    docs/readings-tariffs.md -- a Bandeira II kilometre cheaper than the
    Bandeira I one (Art. 45, II is the surcharged regime).
    """
    reasons: list[Reason] = []
    for name in _PRICE_FIELDS:
        value = getattr(tariff, name)
        try:
            finite = value.is_finite()
        except (AttributeError, InvalidOperation):  # pragma: no cover - defensive
            finite = False
        if not finite or value <= 0:
            reasons.append(Reason(
                _PRICE_ARTICLES[name], "tariff_price_not_positive",
                _("O valor de {field} deve ser positivo (informado: {value})."),
                {"field": _PRICE_LABELS[name], "value": str(value)},
            ))
        elif value != value.quantize(CENT, rounding=ROUND_DOWN):
            reasons.append(Reason(
                _PRICE_ARTICLES[name], "tariff_price_not_cents",
                _("O valor de {field} deve estar em centavos (informado: {value})."),
                {"field": _PRICE_LABELS[name], "value": str(value)},
            ))
    if not (tariff.decree or "").strip():
        reasons.append(Reason(
            "Art. 44", "tariff_without_decree",
            _("A tarifa deve indicar o decreto que a fixou."), {},
        ))
    if (require_b2_not_below_b1 and tariff.price_km_b1 > 0 and tariff.price_km_b2 > 0
            and tariff.price_km_b2 < tariff.price_km_b1):
        reasons.append(Reason(
            "Art. 45, II", "tariff_b2_below_b1",
            _("O quilômetro da Bandeira II ({b2}) não pode ser mais barato que o da Bandeira I ({b1})."),
            {"b1": str(tariff.price_km_b1), "b2": str(tariff.price_km_b2)},
        ))
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 42", "Art. 44", "Art. 45, I", "Art. 45, II")


def validate_schedule(tariffs: Iterable[Tariff]) -> Decision:
    """Every tariff valid and no two taking effect the same day (Art. 44)."""
    decisions = []
    seen: dict[date, Tariff] = {}
    for t in tariffs:
        decisions.append(validate_tariff(t))
        if t.effective_from in seen:
            decisions.append(Decision.refuse(Reason(
                "Art. 44", "tariff_duplicate_date",
                _("Duas tarifas entram em vigor no mesmo dia ({day})."),
                {"day": t.effective_from},
            )))
        seen[t.effective_from] = t
    if not decisions:
        return Decision.allow("Art. 44")
    return Decision.all_of(*decisions)


def _as_date(at: date | datetime) -> date:
    if isinstance(at, datetime):
        if at.tzinfo is not None:
            from .flags import local_time  # local import: flags imports tariffs' siblings only

            return local_time(at).date()
        return at.date()
    return at


def tariff_in_force(tariffs: Iterable[Tariff], at: date | datetime) -> Tariff:
    """The decreed tariff in force on ``at`` (Art. 45: "tarifa decretada").

    The latest tariff whose ``effective_from`` is on or before the (Muriaé
    local) date of ``at``.  Raises :class:`NoTariffInForce` if none.
    """
    day = _as_date(at)
    best: Tariff | None = None
    for t in tariffs:
        if t.effective_from <= day and (best is None or t.effective_from >= best.effective_from):
            best = t
    if best is None:
        raise NoTariffInForce(f"no tariff in force on {day.isoformat()}")
    return best


def review_due_on(tariff: Tariff) -> date:
    """The date the next half-yearly adjustment is due (Art. 44)."""
    return add_months(tariff.effective_from, REVIEW_PERIOD_MONTHS)


def review_notice(tariffs: Iterable[Tariff], on: date | datetime, notice_days: int) -> Optional[Reason]:
    """What DIMUTRAN is told on ``on`` about the half-yearly review (Art. 44): from ``notice_days`` before it is due
    (the dated parameter ``tariff_review_notice_days``: time to prepare the study), that it is coming; once due,
    that it is overdue (:func:`review_alert`). None otherwise."""
    alert = review_alert(tariffs, on)
    if not alert:
        return alert.reasons[0]
    current = tariff_in_force(tariffs, _as_date(on))
    due = review_due_on(current)
    if _as_date(on) < due - timedelta(days=notice_days):
        return None
    return Reason(
        "Art. 44", "tariff_review_coming",
        _("O reajuste semestral da tarifa em vigor desde {since} ({decree}) vence em {due}: prepare o estudo e o decreto."),
        {"since": current.effective_from, "decree": current.decree, "due": due},
    )


def review_alert(tariffs: Iterable[Tariff], on: date | datetime) -> Decision:
    """Art. 44 alert: refuses when the tariff in force is older than six months.

    "O reajuste das tarifas taximétricas far-se-á sempre, a cada período de
    seis meses": once six calendar months have passed since the tariff in
    force took effect, the adjustment study and decree are overdue and the
    back office is alerted (the tariff stays in force until a new decree: the
    alert never stops the meters).  Also refuses when no tariff is in force.
    """
    day = _as_date(on)
    try:
        current = tariff_in_force(tariffs, day)
    except NoTariffInForce:
        return Decision.refuse(Reason(
            "Art. 44", "tariff_missing",
            _("Nenhuma tarifa decretada está em vigor em {day}."), {"day": day},
        ))
    due = review_due_on(current)
    if day > due:
        return Decision.refuse(Reason(
            "Art. 44", "tariff_review_overdue",
            _("A tarifa em vigor desde {since} ({decree}) tem mais de seis meses: o reajuste venceu em {due}."),
            {"since": current.effective_from, "decree": current.decree,
             "due": due, "days_overdue": (day - due).days},
        ))
    return Decision.allow("Art. 44")


def apply_correction(meter_total: Any, factor: Any) -> Decimal:
    """What a correction table's ``factor`` makes of a meter reading, truncated to the cent (Art. 45, §3 and Art. 45, §5);
    the phone and the server both call this."""
    return (_decimal(meter_total) * _decimal(factor)).quantize(CENT, rounding=ROUND_DOWN)


@dataclass(frozen=True)
class CorrectionTable:
    """A correction table of Art. 45, §3: converts what a not-yet-recalibrated
    meter shows (old tariff) into the amount due under the new decreed tariff.

    ``factor`` multiplies the meter reading; ``authorization`` names the
    Mayor's prior act; ``valid_from``/``valid_until`` are inclusive local dates.
    """

    tariff: Tariff
    factor: Decimal
    authorization: str
    authorized_on: date
    valid_from: date
    valid_until: date

    def __post_init__(self) -> None:
        object.__setattr__(self, "factor", _decimal(self.factor))

    @classmethod
    def between(cls, old: Tariff, new: Tariff, **kwargs: Any) -> "CorrectionTable":
        """Factor from the Bandeira I kilometre price ratio, to 4 decimals."""
        factor = (new.price_km_b1 / old.price_km_b1).quantize(Decimal("0.0001"))
        return cls(tariff=new, factor=factor, **kwargs)

    @property
    def days(self) -> int:
        return (self.valid_until - self.valid_from).days + 1

    def validate(self) -> Decision:
        """Art. 45, §3 (Mayor's prior authorization, after the decree) and Art. 45, §4 (30 days)."""
        return validate_correction_table(self)

    def apply(self, meter_total: Decimal) -> Decimal:
        """Amount due for a meter reading: truncated to the cent (Art. 45, §5)."""
        return apply_correction(meter_total, self.factor)

    def rows(self, start: Decimal, stop: Decimal, step: Decimal = Decimal("0.10")) -> list[tuple[Decimal, Decimal]]:
        """Printable table lines ``(meter shows, pay)`` from ``start`` to ``stop``."""
        out, value = [], _decimal(start)
        while value <= _decimal(stop):
            out.append((value, self.apply(value)))
            value += _decimal(step)
        return out


def validate_correction_table(table: CorrectionTable) -> Decision:
    """Correction table lawful? (Art. 45, §3 and Art. 45, §4).

    §3: prior authorization of the Mayor, used in the period that, after the
    tariff decree, precedes the meters' recalibration.  §4: that period is at
    most 30 days, counted (inclusively) from the day the decreed tariff takes
    effect -- a table reaching beyond day 30 is refused, not truncated.
    """
    reasons: list[Reason] = []
    if not (table.authorization or "").strip():
        reasons.append(Reason("Art. 45, §3", "correction_not_authorized",
                              _("A tabela de correção exige autorização prévia do Prefeito Municipal."), {}))
    elif table.authorized_on > table.valid_from:
        reasons.append(Reason("Art. 45, §3", "correction_authorization_late",
                              _("A autorização do Prefeito ({authorized}) deve ser anterior ao uso da tabela ({start})."),
                              {"authorized": table.authorized_on, "start": table.valid_from}))
    if table.valid_from < table.tariff.effective_from:
        reasons.append(Reason("Art. 45, §3", "correction_before_decree",
                              _("A tabela de correção só vale após a vigência da tarifa decretada ({since})."),
                              {"since": table.tariff.effective_from}))
    if table.valid_until < table.valid_from:
        reasons.append(Reason("Art. 45, §4", "correction_empty_period",
                              _("O período da tabela de correção termina antes de começar."), {}))
    last_allowed = table.tariff.effective_from + timedelta(days=CORRECTION_TABLE_MAX_DAYS - 1)
    if table.valid_until > last_allowed or table.days > CORRECTION_TABLE_MAX_DAYS:
        reasons.append(Reason("Art. 45, §4", "correction_too_long",
                              _("A tabela de correção pode ser usada por no máximo {max} dias após o decreto (até {last})."),
                              {"max": CORRECTION_TABLE_MAX_DAYS, "last": last_allowed}))
    if table.factor <= 0:
        reasons.append(Reason("Art. 45, §3", "correction_bad_factor",
                              _("O fator de correção deve ser positivo."), {}))
    if reasons:
        return Decision.refuse(*reasons)
    return Decision.allow("Art. 45, §3", "Art. 45, §4")


def correction_applies(table: CorrectionTable, on: date | datetime, *,
                       meter_calibrated_on: date | None = None) -> Decision:
    """May this table be used today for this meter? (Art. 45, §3-§5, Art. 47, §2).

    Only inside its lawful window and only until the meter is recalibrated;
    otherwise the passenger pays exactly what the meter shows (Art. 45, §5).
    """
    valid = validate_correction_table(table)
    if not valid:
        return valid
    day = _as_date(on)
    if not (table.valid_from <= day <= table.valid_until):
        return Decision.refuse(Reason("Art. 45, §5", "correction_out_of_period",
                                      _("Fora do período da tabela de correção: vale o valor do taxímetro."), {}))
    if meter_calibrated_on is not None and meter_calibrated_on <= day:
        return Decision.refuse(Reason("Art. 45, §5", "correction_meter_calibrated",
                                      _("Taxímetro já aferido em {day}: vale o valor do taxímetro."),
                                      {"day": meter_calibrated_on}))
    return Decision.allow("Art. 45, §3", "Art. 45, §4")


# --- demo values -----------------------------------------------------------------

#: Muriaé's published prices (B1 R$ 2,70/km, B2 R$ 3,25/km, R$ 13,00/h); the
#: bandeirada is not published: R$ 5,50 is a documented demo choice
#: (docs/readings-tariffs.md).  The backend seeds its tariff table from this.
MURIAE_DEMO_TARIFF_VALUES: Mapping[str, str] = {
    "effective_from": "2026-01-01",
    "bandeirada": "5.50",
    "price_km_b1": "2.70",
    "price_km_b2": "3.25",
    "price_hour_waiting": "13.00",
    # shown to passengers on receipts and to DIMUTRAN in the admin: Portuguese, as every user-facing text
    "decree": "demonstração: preços publicados pela Prefeitura de Muriaé; bandeirada de R$ 5,50 suposta (substituir pelo decreto em vigor)",
}

MURIAE_DEMO_TARIFF: Tariff = Tariff.from_dict(MURIAE_DEMO_TARIFF_VALUES)
MURIAE_DEMO_TARIFFS: Sequence[Tariff] = (MURIAE_DEMO_TARIFF,)
