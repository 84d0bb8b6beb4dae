"""The nearest-cab search's index: one partial index on cell for the free connected cabs, in place of
the (status, online, cell) index and the plain ones on cell, which every cell the position flush
rewrites had to update too.

Dropping ``db_index`` with AlterField would remake the table on SQLite, and the compliance-facts
triggers of migration 0003 (on the registry's tables, writing dispatch_cab) refuse that: the plain
indexes are dropped by name instead (Django's names for them; ``_like`` exists on PostgreSQL only).
"""

from django.db import migrations, models

CELL_INDEXES = ("dispatch_cab_cell_3db0316b", "dispatch_cab_cell_3db0316b_like")


def drop_cell_indexes(apps, schema_editor):
    for name in CELL_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def create_cell_indexes(apps, schema_editor):
    quote = schema_editor.quote_name
    schema_editor.execute(f"CREATE INDEX {quote(CELL_INDEXES[0])} ON dispatch_cab (cell)")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX {quote(CELL_INDEXES[1])} ON dispatch_cab (cell varchar_pattern_ops)")


class Migration(migrations.Migration):

    dependencies = [
        ('dispatch', '0011_portuguese_names_of_presence_and_cancellations'),
        ('registry', '0007_taximeters'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='cab',
            name='dispatch_ca_status_66b189_idx',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='cab',
                    name='cell',
                    field=models.CharField(blank=True, max_length=24, verbose_name='célula da grade'),
                ),
            ],
            database_operations=[migrations.RunPython(drop_cell_indexes, create_cell_indexes)],
        ),
        migrations.AddIndex(
            model_name='cab',
            index=models.Index(condition=models.Q(('online', True), ('status', 'livre')), fields=['cell'], name='free_cabs_by_cell'),
        ),
    ]
