"""A driver who gives up an accepted ride before the passenger boards (Art. 1, X; Art. 9, VII).

Refusing the service is "lock-out" (Art. 1, X), a ground to revoke the permit (Art. 9, VII) that DIMUTRAN
judges; the law fixes no automatic penalty, so a cancellation with a stated reason is allowed and recorded
for DIMUTRAN's report. Only the reasons below are accepted, each with what happens to the ride next:

* ``passenger_absent``: the driver arrived and waited ``no_show_wait_minutes`` (a dated parameter), and the server
  still sees the cab at the pickup (``taxilaw.arrival``); the ride ends;
* ``passenger_asked``: the passenger asked by phone to cancel; the ride ends;
* ``vehicle_problem``: the cab cannot go; the ride is offered to the next cab.

The readings are in docs/readings-dispatch.md.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

from .arrival import at_pickup
from .decision import Decision, Reason
from .i18n import gettext_noop as _

ARTICLES = ("Art. 1, X", "Art. 9, VII")


class CancelReason(str, enum.Enum):
    PASSENGER_ABSENT = "passenger_absent"
    PASSENGER_ASKED = "passenger_asked"
    VEHICLE_PROBLEM = "vehicle_problem"


#: pt-BR labels, for the app's list and the report.
REASON_LABELS = {
    CancelReason.PASSENGER_ABSENT: _("Passageiro não apareceu"),
    CancelReason.PASSENGER_ASKED: _("Passageiro pediu para cancelar (telefone)"),
    CancelReason.VEHICLE_PROBLEM: _("Problema no veículo"),
}

#: What the passenger reads after "O motorista cancelou a corrida: " (never the code; issue #30 item 7).
PASSENGER_WORDS = {
    CancelReason.PASSENGER_ABSENT: _("ele não encontrou você no embarque depois de esperar o tempo previsto"),
    CancelReason.PASSENGER_ASKED: _("você pediu para cancelar"),
    CancelReason.VEHICLE_PROBLEM: _("o táxi teve um problema e não pode ir"),
}


def reason_for_passenger(reason: str) -> str:
    """A driver's reason code (Art. 1, X; Art. 9, VII) as the passenger reads it; any other text unchanged."""
    code = parse_reason(reason)
    return PASSENGER_WORDS[code] if code is not None else reason


#: What becomes of the ride: offered to the next cab, or ended.
REOFFER = "reoffer"
END = "end"
NEXT_STEP = {
    CancelReason.PASSENGER_ABSENT: END,
    CancelReason.PASSENGER_ASKED: END,
    CancelReason.VEHICLE_PROBLEM: REOFFER,
}

#: Ride states in which the driver may still give it up: before the passenger boards.
BEFORE_BOARDING = ("accepted", "arriving")


@dataclass(frozen=True)
class DriverCancelFacts:
    reason: str
    ride_status: str
    arrived_at: Optional[datetime]  # when the driver said "Cheguei" (ride ``arriving``), else None
    now: datetime
    no_show_wait_minutes: int
    distance_to_pickup_m: Optional[float]  # from the cab's last position known to the server; None: none known
    arrival_radius_m: float


def parse_reason(value: object) -> Optional[CancelReason]:
    try:
        return CancelReason(value)
    except ValueError:
        return None


def no_show_ready_at(arrived_at: datetime, wait_minutes: int) -> datetime:
    """When a driver who arrived at ``arrived_at`` may record the passenger absent."""
    return arrived_at + timedelta(minutes=wait_minutes)


def may_driver_cancel(facts: DriverCancelFacts) -> Decision:
    """Allowed before boarding with a known reason; a no-show only after arriving, waiting the set time, and with
    the cab still at the pickup (``taxilaw.arrival.at_pickup``)."""
    reason = parse_reason(facts.reason)
    if reason is None:
        return Decision.refuse(Reason("Art. 1, X", "unknown_reason", _("Escolha um motivo da lista para cancelar a corrida.")))
    if facts.ride_status not in BEFORE_BOARDING:
        return Decision.refuse(Reason("Art. 1, X", "not_before_boarding", _("Só é possível cancelar antes de o passageiro embarcar.")))
    if reason is CancelReason.PASSENGER_ABSENT:
        if facts.arrived_at is None:
            return Decision.refuse(Reason("Art. 1, X", "not_arrived", _("Avise que chegou ao passageiro antes de registrar a ausência.")))
        ready = no_show_ready_at(facts.arrived_at, facts.no_show_wait_minutes)
        if facts.now < ready:
            left = max(1, int((ready - facts.now).total_seconds() + 59) // 60)
            return Decision.refuse(Reason(
                "Art. 1, X", "wait_more",
                _("Aguarde o passageiro por {minutes} minutos após chegar (faltam {left} min)."),
                {"minutes": facts.no_show_wait_minutes, "left": left},
            ))
        there = at_pickup(facts.distance_to_pickup_m, facts.arrival_radius_m)
        if not there:
            return there
    return Decision.allow(*ARTICLES)
