"""What a vehicle offers a passenger who asks for it: a wheelchair ramp or space, a child seat (taxilaw.accessibility).

SQLite adds the columns by rebuilding ``registry_vehicle``, which the compliance-facts triggers of ``dispatch``
0003 refer to: they are dropped around the rebuild and created again, the same ones (as registry 0004 does).
"""

from importlib import import_module

from django.db import migrations, models

triggers = import_module("dispatch.migrations.0003_compliance_facts_kept_on_the_cab")


class Migration(migrations.Migration):

    dependencies = [
        ('registry', '0007_taximeters'),
        ('dispatch', '0003_compliance_facts_kept_on_the_cab'),
    ]

    operations = [
        migrations.RunPython(triggers.drop_triggers, triggers.create_triggers),
        migrations.AddField(
            model_name='vehicle',
            name='child_seat',
            field=models.BooleanField(default=False, verbose_name='cadeirinha infantil'),
        ),
        migrations.AddField(
            model_name='vehicle',
            name='wheelchair_accessible',
            field=models.BooleanField(default=False, verbose_name='acessível para cadeira de rodas'),
        ),
        migrations.RunPython(triggers.create_triggers, triggers.drop_triggers),
    ]
