"""Street-hail and rank trips: the passenger flagged the cab in the street or took it at the ponto.

There is no dispatched ride to complete, so the driver app reports the whole
trip when it ends (``street_trip_complete``, docs/dispatch-protocol.md) and
the trip becomes a completed :class:`~backend.trips.models.Ride` with
``created_by="street"`` (``"rank"`` when the cab was checked in at a ponto as the trip started, and the
check-in ends then): the weekly statement sums completed rides per permit
and driver (Art. 1, §3), so these fares reach the 25/75 split like dispatched
ones.

The fare is what the phone's meter showed (Art. 43, Art. 45, §5); the server
re-runs the meter over the trace through the same service as ``ride_complete``
(``backend.trips.services.record_finished_trip``) and keeps its total and any
disagreement beside it.

Idempotency: the phone may send the same trip again (a lost answer, the
offline queue after a reconnection).  ``Ride`` has no column for the phone's
trip UUID and this module adds no migration, so a trip is identified by its
cab and its start instant (``on_board_at``): one cab cannot start two trips at
the same instant.  The cab's row is locked first, so two sends of one trip in
different processes are serialized and the second finds the first's ride.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from backend.ranks.services import ranks as rank_services
from backend.trips.models import ACTIVE_RIDE_STATUSES, Ride
from backend.trips.services import record_finished_trip
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements, snapshots
from dispatch.models import Cab
from dispatch.rides import compliance

STREET = "street"  # Ride.created_by of a street-hail trip
RANK = "rank"  # Ride.created_by of a trip taken at a ponto: the cab was checked in there when it started


def record_street_trip(cab_id: int, *, started_at: datetime, stopped_at: datetime, meter_total: Decimal,
                       trace: list[dict]) -> tuple[Ride, bool]:
    """Record a finished street trip once; ``(ride, False)`` when recorded now, ``(ride, True)`` when it already was.

    Refused (:class:`~dispatch.errors.DispatchError`) when the registry did not let the cab's driver work
    when the trip started (``not_allowed``) or when the cab has a dispatched ride in progress (``cab_busy``); a trace the meter
    cannot read raises :class:`~backend.api_errors.LawViolation` (Art. 43).
    """
    with transaction.atomic():
        # No key: two sends of one trip and an accept's status write (FOR NO KEY UPDATE) still take turns on the cab.
        cab = Cab.objects.select_for_update(of=("self",), no_key=True).select_related("permit", "driver").get(pk=cab_id)
        recorded = Ride.objects.select_related("cab", "passenger").filter(
            cab=cab, created_by__in=(STREET, RANK), on_board_at=started_at).first()
        if recorded is not None:  # the same trip sent again: answer as the first time
            return recorded, True
        if cab.driver is None:
            raise DispatchError("no_driver", _("Nenhum motorista conectado a este táxi."))
        # Asked for the trip's start, not for now: a trip the offline queue sends days later was legal or not then.
        decision = compliance.may_work(cab, now=started_at)
        if not decision:
            raise DispatchError("not_allowed", "; ".join(r.render(_) for r in decision.reasons))
        if cab.rides.filter(status__in=ACTIVE_RIDE_STATUSES).exists():
            raise DispatchError("cab_busy", _("Este táxi tem uma corrida da central em andamento; "
                                              "a corrida de rua não foi registrada."))
        at_rank = rank_services.leave_rank_for_trip(permit_id=cab.permit_id, started_at=started_at)
        ride = record_finished_trip(Ride(
            created_by=RANK if at_rank else STREET, cab=cab, permit_id=cab.permit_id, driver=cab.driver,
            credentials=snapshots.credentials(cab.permit, cab.driver),
            pickup_lat=trace[0]["lat"], pickup_lon=trace[0]["lon"],
            destination_lat=trace[-1]["lat"], destination_lon=trace[-1]["lon"],
            accepted_at=started_at, on_board_at=started_at,
        ), meter_total=meter_total, trace=trace, stopped_at=stopped_at)
        announcements.announce(announcements.OPERATORS, wire.RIDE_UPDATE(ride=snapshots.ride(ride)))  # after the commit
    return ride, False


def recorded_frame(trip_id, ride: Ride, duplicate: bool) -> dict:
    """The ``street_trip_recorded`` answer."""
    return wire.STREET_TRIP_RECORDED(
        trip_id=str(trip_id), ride_id=ride.pk,
        fare=str(ride.fare), server_total=str(ride.server_total) if ride.server_total is not None else None,
        meter_disagreement=ride.meter_disagreement, duplicate=duplicate, **snapshots.fare_held(ride),
    )
