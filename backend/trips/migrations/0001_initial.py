"""The trips app takes over dispatch's Passenger and Ride: state only. The tables (dispatch_passenger,
dispatch_ride), their rows, constraints and indexes, and the triggers of dispatch 0003 stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('dispatch', '0005_one_open_ride_per_passenger'),
        ('registry', '0002_auxiliary_split_regime'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Passenger',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, verbose_name='nome')),
                        ('phone', models.CharField(db_index=True, max_length=20, verbose_name='telefone')),
                        ('token', models.CharField(editable=False, max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'verbose_name': 'passageiro',
                        'verbose_name_plural': 'passageiros',
                        'db_table': 'dispatch_passenger',
                    },
                ),
                migrations.CreateModel(
                    name='Ride',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('caller_name', models.CharField(blank=True, max_length=120, verbose_name='nome de quem ligou')),
                        ('caller_phone', models.CharField(blank=True, max_length=20, verbose_name='telefone de quem ligou')),
                        ('created_by', models.CharField(default='passenger', max_length=16, verbose_name='origem')),
                        ('pickup_lat', models.FloatField()),
                        ('pickup_lon', models.FloatField()),
                        ('pickup_address', models.CharField(blank=True, max_length=200, verbose_name='endereço de embarque')),
                        ('destination_lat', models.FloatField(blank=True, null=True)),
                        ('destination_lon', models.FloatField(blank=True, null=True)),
                        ('destination_address', models.CharField(blank=True, max_length=200, verbose_name='destino')),
                        ('status', models.CharField(choices=[('requested', 'solicitada'), ('offered', 'oferecida'), ('accepted', 'aceita'), ('arriving', 'táxi a caminho'), ('on_board', 'passageiro a bordo'), ('completed', 'concluída'), ('cancelled', 'cancelada')], default='requested', max_length=12, verbose_name='situação')),
                        ('version', models.PositiveIntegerField(default=1)),
                        ('escalated', models.BooleanField(default=False, verbose_name='sem táxi: encaminhada ao operador')),
                        ('requested_at', models.DateTimeField(auto_now_add=True)),
                        ('offered_at', models.DateTimeField(blank=True, null=True)),
                        ('accepted_at', models.DateTimeField(blank=True, null=True)),
                        ('arriving_at', models.DateTimeField(blank=True, null=True)),
                        ('on_board_at', models.DateTimeField(blank=True, null=True)),
                        ('completed_at', models.DateTimeField(blank=True, null=True)),
                        ('cancelled_at', models.DateTimeField(blank=True, null=True)),
                        ('cancelled_by', models.CharField(blank=True, max_length=16)),
                        ('cancel_reason', models.CharField(blank=True, max_length=255)),
                        ('fare', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, verbose_name='tarifa (Art. 43)')),
                        ('server_total', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True)),
                        ('meter_disagreement', models.BooleanField(default=False)),
                        ('distance_m', models.FloatField(blank=True, null=True)),
                        ('trace', models.JSONField(blank=True, default=list)),
                        ('credentials', models.JSONField(blank=True, default=dict, verbose_name='CVI e CMT apresentados (Art. 32)')),
                        ('cab', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rides', to='dispatch.cab')),
                        ('driver', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rides_driven', to='registry.person')),
                        ('passenger', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rides', to='trips.passenger')),
                        ('permit', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rides', to='registry.permit')),
                    ],
                    options={
                        'verbose_name': 'corrida',
                        'verbose_name_plural': 'corridas',
                        'db_table': 'dispatch_ride',
                        'ordering': ['-requested_at'],
                        'indexes': [models.Index(fields=['status'], name='dispatch_ri_status_14abf5_idx'), models.Index(fields=['permit', 'completed_at'], name='dispatch_ri_permit__d9f642_idx')],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('status__in', ['accepted', 'arriving', 'on_board'])), fields=('cab',), name='one_active_ride_per_cab'), models.UniqueConstraint(condition=models.Q(('status__in', ['requested', 'offered', 'accepted', 'arriving', 'on_board'])), fields=('passenger',), name='one_open_ride_per_passenger')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
