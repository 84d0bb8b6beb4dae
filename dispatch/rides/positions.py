"""The hot path: positions stay in memory and reach the database in batches.

Each Daphne process buffers the positions of the cabs connected to it and,
about once a second, writes them in one statement (with their grid cell
and their zone, classified in one vectorized call) and sends one aggregated
message to operators and one to each ride whose cab moved.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone

from backend.trips.models import ACTIVE_RIDE_STATUSES, Ride
from dispatch import wire
from dispatch.events import announcements
from dispatch.models import Cab
from dispatch.rides import grid

_ZONE_BY_CODE = {0: "outside", 1: "peripheral", 2: "central"}


class PositionBuffer:
    def __init__(self):
        self._latest: dict[int, tuple[float, float, datetime]] = {}

    def record(self, cab_id: int, lat: float, lon: float, at: datetime | None = None) -> None:
        self._latest[cab_id] = (lat, lon, at or timezone.now())

    def __len__(self) -> int:
        return len(self._latest)

    def take(self) -> dict[int, tuple[float, float, datetime]]:
        """The positions buffered so far, leaving the buffer empty (called on the thread that records)."""
        batch, self._latest = self._latest, {}
        return batch


def flush(batch: dict[int, tuple[float, float, datetime]]) -> int:
    """Write a batch of positions (one query) and announce them; returns how many cabs moved."""
    if not batch:
        return 0
    from backend.ranks.selectors import classifier

    ids = sorted(batch)  # rows locked in one order: two processes' flushes cannot deadlock
    lats = [batch[i][0] for i in ids]
    lons = [batch[i][1] for i in ids]
    zones = [_ZONE_BY_CODE[int(code)] for code in classifier().classify_codes(lons, lats)]
    cells = [grid.cell_of(lat, lon) for lat, lon in zip(lats, lons)]
    _write(ids, lats, lons, [batch[i][2] for i in ids], cells, zones)
    if announcements.listened(announcements.OPERATORS):  # thousands of entries: not built for nobody
        announcements.announce(announcements.OPERATORS, wire.POSITIONS(cabs=[
            {"id": cab_id, "lat": lat, "lon": lon, "zone": zone} for cab_id, lat, lon, zone in zip(ids, lats, lons, zones)
        ]))
    # Rides under way are few: read them all rather than filter by thousands of cab ids.
    for ride_id, cab_id in Ride.objects.filter(status__in=ACTIVE_RIDE_STATUSES).values_list("pk", "cab_id"):
        if cab_id in batch:
            lat, lon, _at = batch[cab_id]
            announcements.announce(announcements.ride_group(ride_id), wire.CAB_POSITION_FRAME(ride_id=ride_id, lat=lat, lon=lon))
    return len(ids)


def _write(ids, lats, lons, ats, cells, zones) -> None:
    """Write the batch in one statement on PostgreSQL (arrays unnested), one prepared UPDATE per row elsewhere.

    Django's bulk_update builds a CASE per row and column, several times the CPU of either. On PostgreSQL each
    column travels as one bound array literal built with ``str.join`` (psycopg's adaptation of a list looks at
    every element, a large share of the write: docs/dispatch-benchmark.md, "Measurements by module"); every value
    is a number, a timestamp or a word of the grid or the zones, none of which an array literal must quote.
    """
    quote = connection.ops.quote_name
    table, columns = quote(Cab._meta.db_table), ("lat", "lon", "position_at", "cell", "zone")
    if connection.vendor == "postgresql":
        import psycopg

        connection.ensure_connection()
        assignments = ", ".join(f"{quote(c)} = v.{quote(c)}" for c in columns)
        arrays = [_array(ids), _array(lats), _array(lons), _array(at.isoformat() for at in ats), _array(cells), _array(zones)]
        with psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(
                f"UPDATE {table} SET {assignments} FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::timestamptz[], "
                f"%s::text[], %s::text[]) AS v(id, lat, lon, position_at, cell, zone) WHERE {table}.{quote('id')} = v.id",
                arrays,
            )
        return
    position_at = Cab._meta.get_field("position_at")
    rows = [(lat, lon, position_at.get_db_prep_value(at, connection), cell, zone, pk)
            for pk, lat, lon, at, cell, zone in zip(ids, lats, lons, ats, cells, zones)]
    sql = "UPDATE {} SET {} WHERE {} = %s".format(table, ", ".join(f"{quote(c)} = %s" for c in columns), quote("id"))
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _array(values) -> str:
    """A PostgreSQL array literal of values whose text needs no quoting (numbers, ISO instants, cells, zones)."""
    return "{" + ",".join(map(str, values)) + "}"


buffer = PositionBuffer()
