"""A statement line's ride is the trips app's now (trips 0001): state only, same table and column."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('statements', '0002_late_rides_and_ctps'),
        ('trips', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='statementride',
                    name='ride',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='statement_entry', to='trips.ride', verbose_name='corrida'),
                ),
            ],
            database_operations=[],
        ),
    ]
