"""How long personal data of a trip is kept (LGPD, Lei 13.709/2018, art. 15-16, read with Art. 43, 60, 63 and 66).

The municipality keeps what its acts need for as long as they need it: the fare and who drove it (weekly
statements, Art. 1, §3) stay; the GPS trace, which proves or disproves a fare (Art. 43) and a complaint
(Art. 60), and the offer audit, which shows why a cab was chosen (Art. 66), are kept for the dated periods
``retention_trace_days`` and ``retention_offer_audit_days``; a passenger who has not ridden for
``retention_passenger_days`` is anonymised. The readings are in docs/security.md.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def trace_may_be_purged(*, ended_at: datetime | None, now: datetime, days: int, fare_held: bool,
                        complaint_open: bool) -> bool:
    """May the GPS trace of a ride that ended at ``ended_at`` be erased now?

    Not while its fare waits for DIMUTRAN's review (Art. 43) nor while a complaint about the ride is open
    (Art. 60, Art. 63): the trace is their evidence. Otherwise after ``days``.
    """
    if fare_held or complaint_open:
        return False
    return ended_at is not None and now - ended_at >= timedelta(days=days)


def cutoff(now: datetime, days: int) -> datetime:
    """Records that ended before this instant are past a retention period of ``days``."""
    return now - timedelta(days=days)
