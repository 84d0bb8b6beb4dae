"""Admin forms that ask the law core before the admin writes (Art. 20, §2, Art. 28, Art. 48)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext

from backend.api_errors import LawViolation
from taxilaw import auxiliaries as auxiliary_law
from taxilaw import vehicles as vehicle_law
from taxilaw.decision import Decision

from .models import Auxiliary, Permit, Vehicle
from .services.vehicles import check_vehicle_data


def _messages(decision: Decision) -> list[str]:
    return [r.render(gettext) for r in decision.reasons]


class VehicleForm(forms.ModelForm):
    """A vehicle typed in the admin is checked as the services check it (plate, RENAVAM, Art. 14, Art. 28) and, for
    a contest permit, not older than the proposal's model year (Art. 20, §2)."""

    CHECKED = ("plate", "renavam", "model_year", "manufacture_year", "owner_count")

    class Meta:
        model = Vehicle
        fields = ["permit", "plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour", "owner_count",
                  "wheelchair_accessible", "child_seat", "in_service", "in_service_since", "removed_on"]

    def clean(self):
        data = super().clean()
        permit = data.get("permit") or getattr(self.instance, "permit", None)
        if permit is None or any(data.get(k) is None for k in ("plate", "renavam", "model_year", "manufacture_year")):
            return data
        if self.instance.pk is not None and not set(self.CHECKED) & set(self.changed_data):
            return data
        on = timezone.localdate()
        try:
            checked = check_vehicle_data(permit, {k: data[k] for k in self.CHECKED if k in data}, on)
        except LawViolation as refusal:
            raise ValidationError({refusal.field or "model_year": _messages(refusal.decision)}) from None
        decision = vehicle_law.may_register_for_permit(data["model_year"], permit.contest_model_year, on)
        if not decision:
            raise ValidationError({"model_year": _messages(decision)})
        data.update(plate=checked["plate"], renavam=checked["renavam"])
        return data


def _auxiliary_limit(permit: Permit, active: int) -> Decision:
    return auxiliary_law.may_add_auxiliary(active - 1, permit.co_owned_grandfathered) if active else Decision.allow("Art. 48")


class AuxiliaryInlineFormSet(forms.BaseInlineFormSet):
    """The auxiliaries of a permit, counted as the admin would leave them (Art. 48: at most 2, 1 for a co-owned cab)."""

    def clean(self):
        super().clean()
        active = sum(
            1 for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE") and f.cleaned_data.get("status") == Auxiliary.Status.ACTIVE
        )
        decision = _auxiliary_limit(self.instance, active)
        if not decision:
            raise ValidationError(_messages(decision))


class AuxiliaryForm(forms.ModelForm):
    """An authorization made or reactivated in the admin counts the permit's other active auxiliaries (Art. 48)."""

    class Meta:
        model = Auxiliary
        fields = ["permit", "person", "authorized_on", "status", "cancelled_on", "cancel_reason", "split_regime",
                  "contract_auxiliary_percent", "contract_signed_on", "contract_witness_1", "contract_witness_2",
                  "contract_reference", "ctps_number", "ctps_series"]

    def clean(self):
        data = super().clean()
        permit = data.get("permit")
        if permit is not None and data.get("status") == Auxiliary.Status.ACTIVE:
            others = Auxiliary.objects.filter(permit=permit, status=Auxiliary.Status.ACTIVE).exclude(pk=self.instance.pk).count()
            decision = _auxiliary_limit(permit, others + 1)
            if not decision:
                raise ValidationError(_messages(decision))
        return data
