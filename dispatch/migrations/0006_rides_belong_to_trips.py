"""Passenger and Ride now belong to the trips app (trips 0001): dispatch forgets them, state only; the tables
and their rows stay. The content types follow, so admin permissions and history keep pointing at them."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = ("ride", "passenger")


def content_types_to(app_label, from_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model in MOVED:
            if not ContentType.objects.filter(app_label=app_label, model=model).exists():
                ContentType.objects.filter(app_label=from_label, model=model).update(app_label=app_label)
    return move


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('dispatch', '0005_one_open_ride_per_passenger'),
        ('enforcement', '0003_complaint_refers_to_trips'),
        ('statements', '0003_statementride_refers_to_trips'),
        ('trips', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='offer',
                    name='ride',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='offers', to='trips.ride'),
                ),
                migrations.DeleteModel(name='Ride'),
                migrations.DeleteModel(name='Passenger'),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to("trips", "dispatch"), content_types_to("dispatch", "trips")),
    ]
