"""The driver sockets this serving process holds, proved against its presence rows (issue 34).

A process stalled longer than its lease (SIGSTOP, a swap storm, a paused VM, a long garbage collection) is
swept by the others: its connection rows deleted, its cabs offline, while its sockets stay open and their
phones say "Central conectada". On its next tick the process learns that its lease lapsed
(``presence.renew``) and reads which of its sockets the dispatcher still sees
(``presence.registered_channels``); every other socket it holds is recorded again as a new connection would
be (the token, the registry's compliance and the one-driver rule checked again: ``auth.rejoin_by_token``),
in the connection batches of ``dispatch.transport.connection_batches`` (at most ``MAX_BATCH`` a statement, one batch at a
time), or closed with the refusal's code. The same audit runs every ``AUDIT_SECONDS`` whatever happened
(rows deleted by hand, a cab taken offline by a race), so no socket stays open while the dispatcher ignores
its cab.

Recorded again rather than closed: closing makes 10,000 phones reconnect at once (handshakes, TLS, a
snapshot each, on every process behind the balancer); recording a held socket again is one row and one
``presence`` frame.
"""

from __future__ import annotations

import time

AUDIT_SECONDS = 15.0

_held: dict[str, tuple[int, object]] = {}  # channel name -> (sequence when recorded, consumer)
_sequence = 0
_audited_at: float | None = None


def hold(consumer) -> None:
    """``consumer``'s socket is recorded (its go-online committed): from now on its row must exist."""
    global _sequence
    _sequence += 1
    _held[consumer.channel_name] = (_sequence, consumer)


def release(channel_name: str) -> None:
    _held.pop(channel_name, None)


def mark() -> int:
    """Taken before reading the rows: a socket recorded after it may not be among them yet."""
    return _sequence


def audit_due() -> bool:
    return _audited_at is None or time.monotonic() - _audited_at >= AUDIT_SECONDS


def heal(mark: int, registered: set[str]) -> list:
    """Each socket recorded before ``mark`` whose row is not ``registered`` (or whose cab is offline) records
    itself again (``consumer.rejoin_soon``); returns those consumers."""
    global _audited_at
    _audited_at = time.monotonic()
    lost = [consumer for sequence, consumer in list(_held.values())
            if sequence <= mark and consumer.channel_name not in registered]
    for consumer in lost:
        consumer.rejoin_soon()
    return lost
