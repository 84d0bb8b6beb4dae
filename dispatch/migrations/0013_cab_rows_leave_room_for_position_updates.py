"""Half of each page of dispatch_cab left free (PostgreSQL's ``fillfactor``), so the position flush's updates stay
on their page as heap-only tuples: no new entry in any index, the old version pruned without VACUUM.

At 10,000 cabs the flush rewrites 2,000 rows a second. On full pages a tenth of those updates left the page, each
adding an entry to every index; after 300 s the free-cab index was 6x its size and the nearest-cab search 6x
slower (docs/dispatch-benchmark.md, eighth round). Existing pages take the setting as they are rewritten
(``VACUUM FULL dispatch_cab`` applies it at once). SQLite has no such setting: nothing to do there.
"""

from django.db import migrations

CAB_FILLFACTOR = 50


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE dispatch_cab SET (fillfactor = {CAB_FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE dispatch_cab RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ('dispatch', '0012_free_cabs_indexed_by_cell'),
    ]

    operations = [migrations.RunPython(set_fillfactor, reset_fillfactor)]
