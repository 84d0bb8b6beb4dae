"""Keep the registry's compliance facts on the cab; database triggers forget them on any registry write.

Triggers, not Django signals: they also see queryset ``update()``/``delete()``,
raw SQL, the admin and other processes, inside the writing transaction (a
rollback undoes the forgetting with the write).
"""

from django.db import migrations, models

# registry table -> which cabs a changed row concerns ({row} is NEW or OLD)
CONCERNS = {
    "registry_permit": "permit_id = {row}.id",
    "registry_alvara": "permit_id = {row}.permit_id",
    "registry_vehicle": "permit_id = {row}.permit_id",
    "registry_suspension": "permit_id = {row}.permit_id",
    "registry_auxiliary": "permit_id = {row}.permit_id",
    "registry_inspection": "permit_id = (SELECT permit_id FROM registry_vehicle WHERE id = {row}.vehicle_id)",
    "registry_cmt": "driver_id = {row}.person_id",
    "registry_socialsecurityproof": "permit_id = (SELECT permit_id FROM registry_auxiliary WHERE id = {row}.auxiliary_id)",
}
FORGET = "UPDATE dispatch_cab SET compliance_facts = NULL, facts_epoch = facts_epoch + 1 WHERE {where};"


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, where in CONCERNS.items():
        old, new = FORGET.format(where=where.format(row="OLD")), FORGET.format(where=where.format(row="NEW"))
        if vendor == "postgresql":
            schema_editor.execute(
                f"CREATE OR REPLACE FUNCTION dispatch_forget_facts_{table}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
                f"BEGIN\n  IF TG_OP <> 'INSERT' THEN {old} END IF;\n  IF TG_OP <> 'DELETE' THEN {new} END IF;\n"
                f"  RETURN NULL;\nEND $$;"
            )
            schema_editor.execute(
                f"CREATE TRIGGER dispatch_forget_facts AFTER INSERT OR UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION dispatch_forget_facts_{table}();"
            )
        elif vendor == "sqlite":
            for op, body in (("INSERT", new), ("UPDATE", old + " " + new), ("DELETE", old)):
                schema_editor.execute(
                    f"CREATE TRIGGER dispatch_forget_facts_{table}_{op.lower()} AFTER {op} ON {table} BEGIN {body} END;"
                )
        else:
            raise NotImplementedError(f"compliance-facts triggers for {vendor}")


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table in CONCERNS:
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS dispatch_forget_facts ON {table};")
            schema_editor.execute(f"DROP FUNCTION IF EXISTS dispatch_forget_facts_{table}();")
        else:
            for op in ("insert", "update", "delete"):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS dispatch_forget_facts_{table}_{op};")


class Migration(migrations.Migration):

    dependencies = [
        ("dispatch", "0002_ride_credentials"),
        ("registry", "0002_auxiliary_split_regime"),
    ]

    operations = [
        migrations.AddField(
            model_name="cab",
            name="compliance_facts",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="cab",
            name="facts_epoch",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
