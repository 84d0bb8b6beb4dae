"""Cabs online: a driver connects and disconnects, changes the cab's status, checks in and out of a rank.

Consumers call these through ``database_sync_to_async``; every change is committed before it is announced
(``dispatch.events.announcements``).
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils.translation import gettext as _

from backend.ranks.models import Rank, RankCheckIn
from backend.ranks.services import ranks as rank_services
from backend.registry import selectors
from backend.registry.models import Permit, Person
from dispatch import wire
from dispatch.errors import DispatchError
from dispatch.events import announcements, snapshots
from dispatch.models import Cab, CabStatus
from dispatch.rides.compliance import may_work
from dispatch.transport import connection_sql, presence

RECHECK_PER_TICK = 100  # connected cabs re-checked per tick after a registry write: bounded work, the rest next tick


def driven_permit(person: Person) -> Permit | None:
    """The active permit this person may drive (their own, or the one they assist)."""
    return selectors.driven_permit(person, (Permit.Status.ACTIVE,))[0]


def go_online(person: Person, channel_name: str | None = None) -> Cab:
    """A driver connects: the registry must allow them to work this cab now, and nobody else may be driving it.

    The connection is recorded (``dispatch.transport.presence``): the cab stays online while any of its sockets is open in a
    live process. The cab's row is locked, so two drivers connecting at once cannot both pass.
    """
    outcome = go_online_many([(person, channel_name)])[0]
    if isinstance(outcome, DispatchError):
        raise outcome
    return outcome


@transaction.atomic
def go_online_many(arrivals: list[tuple[Person, str | None]]) -> list[Cab | DispatchError]:
    """:func:`go_online` for many connections at once (after a restart every driver reconnects): the same checks
    for each, a few statements and one commit for all. Each arrival gets its cab or the error refusing it."""
    outcomes: list = [None] * len(arrivals)
    permits: dict[int, Permit] = {}
    driven = selectors.driven_permits([person for person, _channel in arrivals], (Permit.Status.ACTIVE,))
    for k, (person, _channel) in enumerate(arrivals):
        permit = driven.get(person.pk, (None, None))[0]
        if permit is None:
            outcomes[k] = DispatchError("no_permit", _("Este motorista não está vinculado a uma permissão ativa."))
        else:
            permits[k] = permit
    # Rows locked in one order (the flush and the other paths lock one cab or ascending ids): no deadlock.
    cabs = connection_sql.lock_by_permit(sorted({permit.pk for permit in permits.values()}))
    for permit in permits.values():
        if permit.pk not in cabs:
            # No key: a second connection of the same permit waits here; an offer's foreign key need not.
            cabs[permit.pk] = Cab.objects.select_for_update(no_key=True).get_or_create(permit=permit)[0]
    drivers_connected = presence.drivers_connected([c.pk for c in cabs.values()])  # cab id -> person ids
    online, connections, changed = {}, [], {}
    for k, permit in permits.items():
        person, channel = arrivals[k]
        cab = cabs[permit.pk]
        if drivers_connected.get(cab.pk, set()) - {person.pk}:
            outcomes[k] = DispatchError("cab_in_use", _(
                "Este táxi já está em serviço com outro motorista conectado. "
                "Um táxi é dirigido por uma pessoa de cada vez: peça que ele se desconecte."))
            continue
        known = cab.driver_id == person.pk and cab.compliance_facts is not None
        if cab.driver_id != person.pk:  # the facts kept on the cab were another driver's
            cab.compliance_facts, cab.facts_epoch = None, cab.facts_epoch + 1
        cab.permit, cab.driver = permit, person
        decision = may_work(cab, store=False)
        if not decision:
            outcomes[k] = DispatchError("not_allowed", "; ".join(r.render(_) for r in decision.reasons))
            continue
        if not known:  # a new driver or facts read again: written below (a reconnection storm writes none)
            changed[cab.pk] = cab
        cab.online = True
        drivers_connected.setdefault(cab.pk, set()).add(person.pk)  # a second driver in the same batch is refused
        online[cab.pk] = cab
        connections.append((cab, person.pk, channel or f"direct!{uuid.uuid4().hex}"))
        outcomes[k] = cab
    connection_sql.update(list(online), "online", True)
    Cab.objects.bulk_update(changed.values(), ["driver", "compliance_facts", "facts_epoch"])
    presence.open_connections(connections)
    announcements.announce_each(announcements.OPERATORS, [wire.CAB_UPDATE(cab=snapshots.cab(cab)) for cab in online.values()])
    return outcomes


@transaction.atomic
def go_offline_many(departures: list[tuple[int, str]]) -> list[None]:
    """Sockets closed, (cab id, channel name) each: a cab goes offline only if none of its sockets is left open in
    a live process. Many at once when a network drop or a restart closes them together: one commit for all."""
    # Locked as go_online locks them (ascending ids): a driver reconnecting meanwhile is counted, or waits.
    locked = connection_sql.with_names(sorted({cab_id for cab_id, _channel in departures}), lock=True)
    gone = presence.close_connections(list(locked), [channel for _cab_id, channel in departures])
    _take_offline([cab for pk, cab in locked.items() if pk in gone])
    return [None] * len(departures)


def _take_offline(cabs: list[Cab]) -> None:
    """These cabs (read with their names, ``connection_sql.with_names``) go offline, and the operators are told."""
    connection_sql.update([cab.pk for cab in cabs], "online", False)
    for cab in cabs:
        cab.online = False
    announcements.announce_each(announcements.OPERATORS, [wire.CAB_UPDATE(cab=snapshots.cab(cab)) for cab in cabs])


def sweep_presence() -> bool:
    """Renew this process's lease; take offline the cabs whose process died (no offer reaches them). The tick calls it.
    False when this process's own lease had lapsed (``presence.renew``: its connections may have been swept)."""
    kept = presence.renew()
    with transaction.atomic():
        orphans = presence.orphaned_cabs()
        if orphans:
            locked = connection_sql.with_names(orphans, lock=True)
            # Counted again under the locks: a driver who connected since the search (or a stalled process that
            # recorded its sockets again, dispatch.transport.held_sockets) keeps the cab online.
            gone = presence.without_live_connection(list(locked))
            _take_offline([cab for pk, cab in locked.items() if pk in gone])
    return kept


def set_status(cab_id: int, status: str) -> Cab:
    outcome = set_status_many([(cab_id, status)])[0]
    if isinstance(outcome, DispatchError):
        raise outcome
    return outcome


@transaction.atomic
def set_status_many(changes: list[tuple[int, str]]) -> list[Cab | DispatchError]:
    """:func:`set_status` for many cabs at once (after a restart every driver's first frame is its status): the
    same check for each, a few statements and one commit for all. Each change gets its cab or the refusal."""
    ids = sorted({cab_id for cab_id, _status in changes})
    # Only the cabs' rows are locked, in the order every other path locks them; their permit's number and
    # driver's name come in the same statement for the announcement.
    found = connection_sql.with_names(ids, lock=True)
    busy = connection_sql.busy(ids)
    outcomes: list[Cab | DispatchError] = []
    for cab_id, status in changes:
        cab = found.get(cab_id)
        if cab is None:
            outcomes.append(DispatchError("cab_offline", _("Este táxi não está conectado.")))
        elif cab_id in busy:
            outcomes.append(DispatchError("busy", _("Conclua ou cancele a corrida em andamento antes de mudar a situação.")))
        else:
            cab.status = status
            outcomes.append(cab)
    changed = {cab.pk: cab for cab in outcomes if isinstance(cab, Cab)}
    for status in {cab.status for cab in changed.values()}:
        connection_sql.update([pk for pk, cab in changed.items() if cab.status == status], "status", status)
    announcements.announce_each(announcements.OPERATORS, [wire.CAB_UPDATE(cab=snapshots.cab(cab)) for cab in changed.values()])
    return outcomes


def still_allowed(cab_id: int):
    """Re-check the registry for an open connection (after a suspension or revocation)."""
    return may_work(Cab.objects.select_related("permit", "driver").get(pk=cab_id))


def tell_the_no_longer_allowed(limit: int = RECHECK_PER_TICK) -> list[int]:
    """Re-check connected cabs whose kept facts the database forgot; tell those no longer allowed to work.

    Whatever wrote the registry (a service, the admin, raw SQL, another process), the triggers of migration
    0003 cleared ``compliance_facts`` in the same transaction; this reads the registry again for at most
    ``limit`` such cabs (storing their facts back, so each is checked once per change) and sends each one
    refused ``compliance_changed``: its connection re-checks, sends ``suspended`` and closes. Returns the
    permit ids told.
    """
    forgotten = (Cab.objects.filter(online=True, compliance_facts__isnull=True, driver__isnull=False)
                 .select_related("permit", "driver").order_by("pk")[:limit])
    told = []
    for cab in forgotten:
        if not may_work(cab):
            announcements.announce_compliance_change(cab.permit_id)
            told.append(cab.permit_id)
    return told


def seen(permit_id: int) -> rank_services.CabSeen | None:
    """The cab's last flushed position and whether it serves a ride, for the rank check-in's every door. Its row is
    locked (the check-in's transaction): an accept of the same cab, which locks it too, goes before or after, so a
    check-in never lands on a cab that has just taken a ride. No key: the accept's ``UPDATE … SET status`` takes
    ``FOR NO KEY UPDATE``, which conflicts with this one (the guarantee); an offer's foreign key does not."""
    row = Cab.objects.select_for_update(no_key=True).filter(permit_id=permit_id).values_list("lat", "lon", "status").first()
    if row is None:
        return None
    lat, lon, status = row
    return rank_services.CabSeen(position=(lat, lon) if lat is not None else None,
                                 serving_ride=status in (CabStatus.EN_ROUTE, CabStatus.BUSY))


def rank_check_in(permit_id: int, rank_id: int, position: tuple[float, float] | None = None) -> dict:
    """Check the cab in at a rank where its last GPS fix shows it (Art. 9, V; Art. 22; visitors per Art. 27, §3)
    and give its place in the queue: ``position`` is the connection's latest fix, not flushed yet; without one the
    service reads the cab's row (``seen``)."""
    rank = Rank.objects.filter(pk=rank_id).first()
    if rank is None:
        raise DispatchError("unknown_rank", _("Ponto inexistente."))
    checkin = rank_services.check_in(permit=Permit.objects.get(pk=permit_id), rank=rank, position=position)
    position = RankCheckIn.objects.filter(rank=rank, checked_out_at__isnull=True, checked_in_at__lte=checkin.checked_in_at).count()
    return {"rank_id": rank.pk, "rank": rank.name, "queue_position": position, "visitor": checkin.visitor}


def rank_check_out(permit_id: int) -> None:
    checkin = RankCheckIn.objects.filter(permit_id=permit_id, checked_out_at__isnull=True).first()
    if checkin is None:
        raise DispatchError("not_checked_in", _("O táxi não está em nenhum ponto."))
    rank_services.check_out(checkin=checkin)
