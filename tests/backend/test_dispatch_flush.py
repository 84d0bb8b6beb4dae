"""The once-a-second flush writes every buffered position and tells the operators only if one listens."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone

from dispatch.events import announcements
from dispatch.models import Cab
from dispatch.rides import grid, positions

pytestmark = pytest.mark.django_db
CENTRE = (-21.1311, -42.3676)


@pytest.fixture
def cabs(working_cab, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "dispatch.transport.channel_layers.ThrottledInMemoryChannelLayer"}}
    return [Cab.objects.create(permit=p, driver=p.holder, online=True) for p in (working_cab(), working_cab())]


def _flush(cabs, monkeypatch):
    announced = []
    monkeypatch.setattr(announcements, "announce", lambda group, message: announced.append((group, message["type"])))
    now = timezone.now()
    batch = {cab.pk: (CENTRE[0] + 0.001 * k, CENTRE[1], now) for k, cab in enumerate(cabs)}
    assert positions.flush(batch) == 2
    return announced, batch


def test_positions_are_written_and_not_announced_when_no_operator_listens(cabs, monkeypatch):
    announced, batch = _flush(cabs, monkeypatch)
    assert announced == []
    for cab in Cab.objects.filter(pk__in=batch):
        lat, lon, at = batch[cab.pk]
        assert (cab.lat, cab.lon, cab.position_at, cab.cell) == (lat, lon, at, grid.cell_of(lat, lon))
        assert cab.zone == "central"


def test_an_operator_listening_gets_the_positions(cabs, monkeypatch):
    layer = get_channel_layer()
    async_to_sync(layer.group_add)(announcements.OPERATORS, "operator-channel")
    announced, _batch = _flush(cabs, monkeypatch)
    assert announced == [(announcements.OPERATORS, "positions")]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL storage parameter; CI runs it there")
def test_cab_rows_leave_half_of_each_page_for_the_flush_to_rewrite_them_in_place():
    """The flush rewrites 2,000 cabs a second at 10,000 cabs: on full pages a tenth of those updates left their page,
    each adding an entry to every index, and in 300 s the free-cab index grew sixfold and the nearest-cab search
    slowed sixfold (docs/dispatch-benchmark.md, eighth round). Migration 0013 leaves half of each page free."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'dispatch_cab'")
        assert cursor.fetchone()[0] == ["fillfactor=50"]
