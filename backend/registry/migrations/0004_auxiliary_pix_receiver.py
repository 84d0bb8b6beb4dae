"""Whose Pix key receives an auxiliary's fares, a term of the authorization (docs/payments.md).

SQLite adds the column by rebuilding ``registry_auxiliary``, which the compliance-facts triggers of
``dispatch`` 0003 refer to: they are dropped around the rebuild and created again, the same ones.
"""

from importlib import import_module

from django.db import migrations, models

triggers = import_module("dispatch.migrations.0003_compliance_facts_kept_on_the_cab")


class Migration(migrations.Migration):

    dependencies = [
        ('registry', '0003_permit_tolerance_and_judicial_loss'),
        ('dispatch', '0003_compliance_facts_kept_on_the_cab'),
    ]

    operations = [
        migrations.RunPython(triggers.drop_triggers, triggers.create_triggers),
        migrations.AddField(
            model_name='auxiliary',
            name='pix_receiver',
            field=models.CharField(choices=[('driver', 'a do motorista auxiliar'), ('holder', 'sempre a do permissionário')], default='driver', max_length=8, verbose_name='chave Pix que recebe as corridas'),
        ),
        migrations.RunPython(triggers.create_triggers, triggers.drop_triggers),
    ]
