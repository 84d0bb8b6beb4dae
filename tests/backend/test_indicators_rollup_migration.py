"""indicators 0003 splits the rollup per (day, hour, bairro) into per (day, hour) and per (day, bairro) by summing
the rolled rows: a database rolled up before it keeps its figures without rebuilding a day."""

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("indicators", "0002_indicators_rollup")]
ZERO = {"escalated": 0, "unanswered": 0, "cancelled_operator": 0, "cancelled_driver": 0, "no_shows": 0}


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_rolled_rows_are_summed_per_hour_and_per_bairro():
    old = _migrate(BEFORE).get_model("indicators", "ServiceRollup")
    day = date(2026, 10, 31)
    for hour, bairro, requests, served, offer_us, offered in [(8, "Centro", 2, 1, 40_000_000, 2),
                                                              (8, "São Gotardo", 1, 0, 0, 0),
                                                              (23, "Centro", 3, 3, 30_000_000, 3)]:
        old.objects.create(day=day, hour=hour, bairro=bairro, requests=requests, served=served, cancelled_passenger=1,
                           offer_wait_total=offer_us, offer_wait_n=offered, **ZERO)
    new = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    hours = new.get_model("indicators", "ServiceHourRollup").objects.filter(day=day).order_by("hour")
    assert [(h.hour, h.requests, h.served, h.cancelled_passenger, h.offer_wait_total, h.offer_wait_n) for h in hours] == [
        (8, 3, 1, 2, 40_000_000, 2), (23, 3, 3, 1, 30_000_000, 3)]
    bairros = new.get_model("indicators", "ServiceBairroRollup").objects.filter(day=day).order_by("bairro")
    assert [(b.bairro, b.requests, b.served, b.cancelled_passenger, b.offer_wait_total) for b in bairros] == [
        ("Centro", 5, 4, 2, 70_000_000), ("São Gotardo", 1, 0, 1, 0)]
