"""The registry's admin add forms: each is a client of the same service the API calls (issue #28, one write path
per act); the form asks nothing of the law itself, the service refuses with its article."""

from __future__ import annotations

from django.utils import timezone

from backend.admin_doors import ServiceAddForm

from .models import Auxiliary, Vehicle


class _Today:
    def service_extras(self) -> dict:
        return {"on": timezone.localdate()}


class VehicleAddForm(_Today, ServiceAddForm):
    """Put a taxi in service today: one per permit (Art. 1, III), Art. 14, Art. 28, Art. 20, §2."""

    service_of_record = "backend.registry.services.vehicles.register_vehicle"

    class Meta:
        model = Vehicle
        fields = ["permit", "plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour", "owner_count",
                  "wheelchair_accessible", "child_seat"]


class AuxiliaryAddForm(_Today, ServiceAddForm):
    """Authorize an auxiliary today: at most 2, 1 for a co-owned cab (Art. 48), enrolled in the Previdência
    (Art. 49), with the regime of the split (Art. 1, §6)."""

    service_of_record = "backend.registry.services.auxiliaries.authorize_auxiliary"

    class Meta:
        model = Auxiliary
        fields = ["permit", "person", "split_regime", "contract_auxiliary_percent", "contract_signed_on",
                  "contract_witness_1", "contract_witness_2", "contract_reference", "ctps_number", "ctps_series",
                  "pix_receiver"]
