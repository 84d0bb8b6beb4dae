"""A complaint's passenger and ride are the trips app's now (trips 0001): state only, same tables and columns."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('enforcement', '0002_appeal_partial_judgment'),
        ('trips', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='complaint',
                    name='passenger',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='complaints', to='trips.passenger', verbose_name='passageiro'),
                ),
                migrations.AlterField(
                    model_name='complaint',
                    name='ride',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='complaints', to='trips.ride', verbose_name='corrida'),
                ),
            ],
            database_operations=[],
        ),
    ]
