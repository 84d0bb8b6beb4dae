from django.db import migrations, models


def record_credentials(apps, schema_editor):
    """Rides accepted before this field existed get the CVI and CMT their cab and driver have now."""
    Ride = apps.get_model("dispatch", "Ride")
    Vehicle = apps.get_model("registry", "Vehicle")
    Cmt = apps.get_model("registry", "Cmt")
    for ride in Ride.objects.filter(permit__isnull=False, driver__isnull=False).select_related("permit", "driver"):
        vehicle = Vehicle.objects.filter(permit=ride.permit, in_service=True).first()
        cmt = Cmt.objects.filter(person=ride.driver).order_by("-expires_on").values_list("number", flat=True).first()
        cvi = {"plate": vehicle.plate, "make": vehicle.make, "model": vehicle.model, "colour": vehicle.colour, "permit": ride.permit.number} if vehicle else None
        ride.credentials = {
            "permit": ride.permit.number,
            "cvi": cvi,
            "driver": {"name": ride.driver.full_name, "cmt": cmt},
        }
        ride.save(update_fields=["credentials"])


class Migration(migrations.Migration):

    dependencies = [
        ('dispatch', '0001_initial'),
        ('registry', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='ride',
            name='credentials',
            field=models.JSONField(blank=True, default=dict, verbose_name='CVI e CMT apresentados (Art. 32)'),
        ),
        migrations.RunPython(record_credentials, migrations.RunPython.noop),
    ]
