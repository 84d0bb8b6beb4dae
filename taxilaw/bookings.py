"""Advance bookings of the radio-taxi service (Art. 66): a pickup time, dispatched a lead time before it.

The law sets up the radio-taxi service (Art. 66) and leaves its operation to the
regulation (Art. 67); the numbers here are dated parameters (``taxilaw.parameters``):
``booking_lead_minutes`` (dispatch starts this long before the pickup, so that a booking
no cab takes reaches the operators while they can still act), ``booking_min_ahead_minutes``
(sooner than this is a ride asked now) and ``booking_max_ahead_days``.

No Django here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .decision import Decision, Reason
from .i18n import gettext_noop as _

ARTICLE = "Art. 66"


@dataclass(frozen=True)
class BookingParams:
    lead_minutes: int = 15
    min_ahead_minutes: int = 30
    max_ahead_days: int = 30
    max_open_per_passenger: int = 3
    max_per_day_per_passenger: int = 10


DEFAULT_BOOKING_PARAMS = BookingParams()


def booking_params_from_table(table, on, base: BookingParams = DEFAULT_BOOKING_PARAMS) -> BookingParams:
    """The parameters in force on ``on`` from a :class:`taxilaw.parameters.Parameters`; missing ones keep ``base``."""
    def read(name: str, default: int) -> int:
        try:
            return int(table.as_of(name, on))
        except LookupError:
            return default
    return BookingParams(read("booking_lead_minutes", base.lead_minutes),
                         read("booking_min_ahead_minutes", base.min_ahead_minutes),
                         read("booking_max_ahead_days", base.max_ahead_days),
                         read("booking_max_open_per_passenger", base.max_open_per_passenger),
                         read("booking_max_per_day_per_passenger", base.max_per_day_per_passenger))


def dispatch_at(pickup_at: datetime, params: BookingParams = DEFAULT_BOOKING_PARAMS) -> datetime:
    """When dispatch starts looking for the cab of a booking (Art. 66)."""
    return pickup_at - timedelta(minutes=params.lead_minutes)


def check_booking(now: datetime, pickup_at: datetime, params: BookingParams = DEFAULT_BOOKING_PARAMS) -> Decision:
    """May a ride be booked for ``pickup_at`` (aware) at ``now``? (Art. 66)."""
    if pickup_at.tzinfo is None or pickup_at.utcoffset() is None:
        raise ValueError("a booking needs an aware pickup time")
    if pickup_at <= now:  # told as what it is, not as "too soon" (issue #30 item 7)
        return Decision.refuse(Reason(ARTICLE, "booking_in_past", _(
            "A data e a hora escolhidas já passaram; escolha um horário futuro ou peça o táxi agora.")))
    if pickup_at < now + timedelta(minutes=params.min_ahead_minutes):
        return Decision.refuse(Reason(ARTICLE, "booking_too_soon", _(
            "Para embarcar em menos de {minutes} minutos, peça o táxi agora."), {"minutes": params.min_ahead_minutes}))
    if pickup_at > now + timedelta(days=params.max_ahead_days):
        return Decision.refuse(Reason(ARTICLE, "booking_too_far", _(
            "Agendamentos são aceitos até {days} dias antes."), {"days": params.max_ahead_days}))
    return Decision.allow(ARTICLE)


def check_passenger_quota(open_now: int, booked_today: int, params: BookingParams = DEFAULT_BOOKING_PARAMS) -> Decision:
    """May a passenger who holds ``open_now`` bookings not yet dispatched, and made ``booked_today`` today (cancelled
    ones included), book one more? (Art. 66; Art. 67: the operation is the regulation's.) A booking holds a cab of the
    service for its time and the operators' attention: a few at once, for real trips (docs/security.md)."""
    if open_now >= params.max_open_per_passenger:
        return Decision.refuse(Reason(ARTICLE, "booking_too_many_open", _(
            "Você já tem {count} agendamentos aguardando; o limite é {limit} por passageiro. Cancele um para agendar "
            "outro."), {"count": open_now, "limit": params.max_open_per_passenger}))
    if booked_today >= params.max_per_day_per_passenger:
        return Decision.refuse(Reason(ARTICLE, "booking_too_many_today", _(
            "Limite de {limit} agendamentos por dia atingido; tente amanhã ou ligue para a central."),
            {"limit": params.max_per_day_per_passenger}))
    return Decision.allow(ARTICLE)
