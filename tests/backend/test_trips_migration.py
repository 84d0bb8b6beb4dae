"""trips 0001 takes Passenger and Ride over from dispatch without touching the tables: a database built by
the migrations before it keeps its rides, their offers and its constraints."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("dispatch", "0005_one_open_ride_per_passenger"), ("enforcement", "0002_appeal_partial_judgment"),
          ("statements", "0002_late_rides_and_ctps")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.article("Art. 66")
@pytest.mark.django_db(transaction=True)
def test_rides_and_passengers_move_to_trips_with_their_rows():
    old = _migrate(BEFORE)
    passenger = old.get_model("dispatch", "Passenger").objects.create(name="Ana", phone="32999990000", token="t" * 32)
    ride = old.get_model("dispatch", "Ride").objects.create(passenger=passenger, pickup_lat=-21.13, pickup_lon=-42.37,
                                                           status="requested", fare="12.34")

    new = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    Ride, Passenger = new.get_model("trips", "Ride"), new.get_model("trips", "Passenger")
    kept = Ride.objects.get(pk=ride.pk)
    assert (kept.passenger_id, str(kept.fare), Passenger.objects.get(pk=passenger.pk).name) == (passenger.pk, "12.34", "Ana")
    assert new.get_model("dispatch", "Offer")._meta.get_field("ride").related_model is Ride
    # The constraint made by dispatch 0005 still holds on the kept table: one open ride per passenger.
    with pytest.raises(IntegrityError), transaction.atomic():
        Ride.objects.create(passenger_id=passenger.pk, pickup_lat=-21.13, pickup_lon=-42.37, status="offered")

    assert not ContentType.objects.filter(app_label="dispatch", model__in=["ride", "passenger"]).exists()
