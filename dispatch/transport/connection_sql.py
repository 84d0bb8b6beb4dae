"""The statements of a connection storm's batches (tokens, cabs, connections), written by hand.

After a restart every driver reconnects at once and the serving process runs thousands of batches
(dispatch.transport.connection_batches). Building and compiling one ORM statement cost it several times what running
it did, under the interpreter lock the event loop needs, whatever the batch's size (docs/dispatch-benchmark.md,
"Measurements by module"). Going online, the first status, going offline and the first question of a driver's
snapshot use these statements instead; every other path keeps the ORM. They run on PostgreSQL and SQLite alike, and
their values are converted as the ORM converts them (a boolean from SQLite's integer, an instant from its text, the
kept facts from JSON text). """

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from backend.registry.models import Permit, Person
from backend.trips.models import ACTIVE_RIDE_STATUSES, Ride
from dispatch.models import Cab, CabConnection, Offer, OfferStatus, ServingProcess

CAB, RIDE, OFFER = Cab._meta.db_table, Ride._meta.db_table, Offer._meta.db_table
PERMIT, PERSON = Permit._meta.db_table, Person._meta.db_table
CONNECTION, PROCESS = CabConnection._meta.db_table, ServingProcess._meta.db_table
TOKEN, USER = Token._meta.db_table, get_user_model()._meta.db_table
# What going online, a status and an announcement read of a cab; any other field loads if asked (deferred).
COLUMNS = ("id", "permit_id", "driver_id", "status", "online", "lat", "lon", "zone", "compliance_facts", "facts_epoch")
_SELECT = ", ".join(f"c.{name}" for name in COLUMNS)
PERSON_COLUMNS = tuple(f.attname for f in Person._meta.concrete_fields)


def marks(values) -> str:
    return ", ".join(["%s"] * len(values))


def _lock_clause() -> str:
    """Locks the cab rows only (PostgreSQL); SQLite's write transaction already holds the whole database.

    ``FOR NO KEY UPDATE``: the batches that take it write the cab's online, status, driver and facts, never its id or
    permit (its keys), so the cab-row writers still exclude each other (one status, one connection count at a time),
    while an offer's INSERT, whose foreign key takes ``FOR KEY SHARE`` on the cab, no longer queues behind a whole
    batch: the 8-process tail of issue 33 (docs/scaling.md). The offer never depended on that wait: its cab was
    chosen before it, and one pending offer per cab is the constraint's, not the lock's."""
    return " FOR NO KEY UPDATE OF c" if connection.features.has_select_for_update_of else ""


def _rows(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _execute(sql: str, params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _instances(model, names, rows) -> list:
    """Rows of ``model``'s columns ``names`` (attnames) as instances, each value converted as the ORM's compiler does
    (``get_converters``); fields not read are deferred."""
    cols = [model._meta.get_field(name).get_col(model._meta.db_table) for name in names]
    converters = [(i, connection.ops.get_db_converters(col) + col.get_db_converters(connection), col) for i, col in enumerate(cols)]
    converters = [(i, convs, col) for i, convs, col in converters if convs]
    found = []
    for row in rows:
        values = list(row)
        for i, convs, col in converters:
            for convert in convs:
                values[i] = convert(values[i], col, connection)
        found.append(model.from_db(connection.alias, names, values))
    return found


def people_for_tokens(keys, issued_after: datetime) -> dict[str, tuple[Person, datetime]]:
    """The person of each of these keys whose user is active and whose token was issued after ``issued_after``, with
    when the token was issued."""
    if not keys:
        return {}
    columns = ", ".join(f"d.{name}" for name in PERSON_COLUMNS)
    sql = (f"SELECT t.key, t.created, {columns} FROM {TOKEN} t JOIN {USER} u ON u.id = t.user_id "
           f"JOIN {PERSON} d ON d.user_id = u.id WHERE t.key IN ({marks(keys)}) AND u.is_active AND t.created > %s")
    rows = _rows(sql, [*keys, _instant(issued_after)])
    issued = [token.created for token in _instances(Token, ("created",), ((created,) for _key, created, *_p in rows))]
    people = _instances(Person, PERSON_COLUMNS, (person for _key, _created, *person in rows))
    return {key: (person, created) for (key, *_rest), person, created in zip(rows, people, issued)}


def lock_by_permit(permit_ids) -> dict[int, Cab]:
    """The cabs of these permits, locked in ascending ids (every path locks in that order: no deadlock), by permit id."""
    if not permit_ids:
        return {}
    sql = f"SELECT {_SELECT} FROM {CAB} c WHERE c.permit_id IN ({marks(permit_ids)}) ORDER BY c.id{_lock_clause()}"
    return {cab.permit_id: cab for cab in _instances(Cab, COLUMNS, _rows(sql, list(permit_ids)))}


def with_names(ids, lock: bool = False) -> dict[int, Cab]:
    """These cabs by id (locked in ascending ids if ``lock``), each with its permit's number and its driver's name:
    what an announcement to the operators shows (``snapshots.cab``)."""
    if not ids:
        return {}
    sql = (f"SELECT {_SELECT}, p.number, d.full_name FROM {CAB} c JOIN {PERMIT} p ON p.id = c.permit_id "
           f"LEFT JOIN {PERSON} d ON d.id = c.driver_id WHERE c.id IN ({marks(ids)}) ORDER BY c.id"
           + (_lock_clause() if lock else ""))
    rows = _rows(sql, list(ids))
    found = {}
    for cab, (*_values, number, full_name) in zip(_instances(Cab, COLUMNS, (row[:-2] for row in rows)), rows):
        cab.permit = Permit.from_db(connection.alias, ("id", "number"), (cab.permit_id, number))
        if cab.driver_id is not None:
            cab.driver = Person.from_db(connection.alias, ("id", "full_name"), (cab.driver_id, full_name))
        found[cab.pk] = cab
    return found


def update(ids, column: str, value) -> None:
    """``column = value`` on these cabs (``online`` or ``status``: a name from the code, never from a frame)."""
    if ids:
        _execute(f"UPDATE {CAB} SET {column} = %s WHERE id IN ({marks(ids)})", [value, *ids])


def busy(ids) -> set[int]:
    """Which of these cabs have a ride under way."""
    if not ids:
        return set()
    sql = f"SELECT cab_id FROM {RIDE} WHERE status IN ({marks(ACTIVE_RIDE_STATUSES)}) AND cab_id IN ({marks(ids)})"
    return {cab_id for (cab_id,) in _rows(sql, [*ACTIVE_RIDE_STATUSES, *ids])}


def with_offer_or_ride(ids) -> set[int]:
    """Which of these cabs have a pending offer or a ride under way (what a driver's snapshot shows)."""
    if not ids:
        return set()
    sql = (f"SELECT cab_id FROM {OFFER} WHERE status = %s AND cab_id IN ({marks(ids)}) UNION "
           f"SELECT cab_id FROM {RIDE} WHERE status IN ({marks(ACTIVE_RIDE_STATUSES)}) AND cab_id IN ({marks(ids)})")
    return {cab_id for (cab_id,) in _rows(sql, [OfferStatus.PENDING, *ids, *ACTIVE_RIDE_STATUSES, *ids])}


def _instant(value: datetime):
    return connection.ops.adapt_datetimefield_value(value)


def live_drivers(cab_ids, now: datetime, this_process: str) -> list[tuple[int, int]]:
    """(cab id, person id) of each connection of these cabs in a process whose lease runs after ``now``, or in
    ``this_process`` (the one asking, alive whatever its lease says)."""
    if not cab_ids:
        return []
    sql = (f"SELECT cc.cab_id, cc.driver_id FROM {CONNECTION} cc JOIN {PROCESS} sp ON sp.name = cc.process_id "
           f"WHERE (sp.lease_until > %s OR sp.name = %s) AND cc.cab_id IN ({marks(cab_ids)})")
    return _rows(sql, [_instant(now), this_process, *cab_ids])


def open_connections(process: str, lease_until: datetime, rows: list[tuple[int, int, str]], now: datetime) -> None:
    """Record sockets, (cab id, person id, channel name) each, of ``process``: its row made first if missing
    (renewing it here would make every connection wait on that one row)."""
    _execute(f"INSERT INTO {PROCESS} (name, lease_until) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
             [process, _instant(lease_until)])
    opened = _instant(now)
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
    params = [value for cab_id, person_id, channel in rows for value in (cab_id, person_id, process, channel, opened)]
    _execute(f"INSERT INTO {CONNECTION} (cab_id, driver_id, process_id, channel_name, opened_at) VALUES {values}", params)


def close_connections(channel_names) -> None:
    if channel_names:
        _execute(f"DELETE FROM {CONNECTION} WHERE channel_name IN ({marks(channel_names)})", list(channel_names))
