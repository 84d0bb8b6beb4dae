"""The permit's and the transfer's acts as admin actions with an intermediate form (backend/admin_act_form.py): each
calls the same service as the API (docs/doors.md); the law's refusals come from the service, cited with their article.

- Art. 11, § único: the final judgment that took the vehicle (``revocation.record_judicial_loss``);
- Art. 34, § único: the tolerance of 1 or 3 months (``vehicles.tolerate_vehicle``);
- Art. 34, II: the swap for an older taxi with DIMUTRAN's justification (``vehicles.replace_vehicle(justified=True)``);
- Art. 6-7: the transfer (``transfers.request_transfer``) and its fee (``transfers.pay_transfer_fee``, Art. 6, §5).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_act_form import act_with_form, admin_act, brazilian, date_field
from taxilaw import documents
from taxilaw.transfers import Beneficiary, TransferKind
from taxilaw.vehicles import ToleranceCase

from .models import Person, Vehicle
from .services import revocation as revocation_services
from .services import transfers as transfer_services
from .services import vehicles as vehicle_services

VEHICLE_FIELDS = ("plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour", "owner_count",
                  "wheelchair_accessible", "child_seat")


class _VehicleData(forms.Form):
    """The new taxi's data, as the API's VehicleDataSerializer takes it; the law is the service's (Art. 14, 28, 34)."""

    plate = forms.CharField(label=_("placa"), max_length=8)
    renavam = forms.CharField(label=_("RENAVAM"), max_length=11)
    make = forms.CharField(label=_("marca"), max_length=40)
    model = forms.CharField(label=_("modelo"), max_length=60)
    model_year = forms.IntegerField(label=_("ano-modelo"), min_value=1950, max_value=2100)
    manufacture_year = forms.IntegerField(label=_("ano de fabricação"), min_value=1950, max_value=2100)
    colour = forms.CharField(label=_("cor"), max_length=30)
    owner_count = forms.IntegerField(label=_("número de proprietários (Art. 14)"), min_value=1, max_value=10, initial=1)
    wheelchair_accessible = forms.BooleanField(label=_("acessível para cadeira de rodas"), required=False)
    child_seat = forms.BooleanField(label=_("cadeirinha infantil"), required=False)

    def clean_plate(self):
        # A plate already on a taxi in service is a typing error, not a question of law (the constraint would 500).
        plate = self.cleaned_data["plate"]
        if plate and Vehicle.objects.filter(plate=documents.normalize_plate(plate), in_service=True).exists():
            raise forms.ValidationError(gettext("Já há um táxi em serviço com esta placa."))
        return plate


class JudicialLossForm(forms.Form):
    judgment_final_on = date_field(_("trânsito em julgado da decisão (Art. 11, § único)"), today=False)


class ToleranceForm(forms.Form):
    case = forms.ChoiceField(label=_("caso (Art. 34, § único)"), choices=[
        (ToleranceCase.NOT_OPERATING.value, _("sem operar: até 1 mês")),
        (ToleranceCase.PROVISIONAL_VEHICLE.value, _("com veículo provisório fora do padrão: até 3 meses")),
    ])
    started_on = date_field(_("início da tolerância"))


class JustifiedSwapForm(_VehicleData):
    on = date_field(_("data da troca"))
    justification = forms.CharField(label=_("justificativa aceita pela DIMUTRAN (Art. 34, II)"), widget=forms.Textarea(
        attrs={"rows": 3, "cols": 60}), max_length=1000)

    field_order = ["on", *VEHICLE_FIELDS, "justification"]


TRANSFER_KINDS = [
    (TransferKind.INTER_VIVOS.value, _("entre vivos, após 2 anos (Art. 6, I)")),
    (TransferKind.DEATH.value, _("falecimento do titular (Art. 6, II)")),
    (TransferKind.INCAPACITY.value, _("incapacidade comprovada (Art. 6, III)")),
    (TransferKind.RETIREMENT.value, _("aposentadoria (Art. 6, IV)")),
    (TransferKind.TRANSITIONAL.value, _("regra de transição (Art. 65)")),
]
BENEFICIARIES = [
    ("", "—"),
    (Beneficiary.SPOUSE.value, _("cônjuge")),
    (Beneficiary.HEIR.value, _("herdeiro")),
    (Beneficiary.THIRD_PARTY.value, _("terceiro")),
]


class TransferForm(_VehicleData):
    """What ``request_transfer`` needs; the transferee's taxi is optional (heirs keep the cab in service)."""

    transferee = forms.ModelChoiceField(label=_("cessionário"), queryset=Person.objects.order_by("full_name"))
    kind = forms.ChoiceField(label=_("hipótese (Art. 6)"), choices=TRANSFER_KINDS)
    requested_on = date_field(_("requerida em"))
    beneficiary = forms.ChoiceField(label=_("beneficiário (Art. 6, II)"), choices=BENEFICIARIES, required=False)
    death_date = date_field(_("data do falecimento"), today=False, required=False)
    per_partition_or_court_order = forms.BooleanField(label=_("por partilha ou ordem judicial (Art. 6, II)"), required=False)
    incapacity_proven = forms.BooleanField(label=_("incapacidade comprovada (Art. 6, III)"), required=False)
    retirement_proven = forms.BooleanField(label=_("aposentadoria comprovada (Art. 6, IV)"), required=False)
    fee_paid_on = date_field(_("taxa paga em (Art. 6, §5)"), today=False, required=False)

    field_order = ["transferee", "kind", "requested_on", "beneficiary", "death_date", "per_partition_or_court_order",
                   "incapacity_proven", "retirement_proven", "fee_paid_on", *VEHICLE_FIELDS]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in VEHICLE_FIELDS:  # the transferee's own taxi (Art. 6, I); left blank, the cab in service stays
            self.fields[name].required = False
            self.fields[name].help_text = _("Veículo do cessionário (Art. 6, I): deixe em branco para manter o atual.")
        self.fields["owner_count"].initial = None

    def clean(self):
        data = super().clean()
        if data.get("plate"):
            missing = [n for n in VEHICLE_FIELDS[:7] if data.get(n) in (None, "")]
            for name in missing:
                self.add_error(name, gettext("Informe este dado do veículo do cessionário, ou deixe a placa em branco."))
        return data


class FeePaymentForm(forms.Form):
    paid_on = date_field(_("taxa paga em"))


@admin_act(service="backend.registry.services.revocation.record_judicial_loss",
           description=_("Registrar perda judicial do veículo (Art. 11, § único)"))
def record_judicial_loss(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=JudicialLossForm, title=gettext("Registrar perda judicial do veículo"),
        intro=gettext("O trânsito em julgado da decisão que tomou o veículo: o pedido de substituição deve vir em "
                      "30 dias, com a prova, ou a permissão é revogada (Art. 11, § único)."),
        perform=lambda permit, data: revocation_services.record_judicial_loss(permit=permit, **data),
        done=lambda permit: gettext("perda judicial registrada (trânsito em julgado em %(day)s).")
        % {"day": brazilian(permit.judicial_loss_final_on)},
    )


@admin_act(service="backend.registry.services.vehicles.tolerate_vehicle",
           description=_("Conceder tolerância do veículo (Art. 34, § único)"))
def tolerate_vehicle(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=ToleranceForm, title=gettext("Conceder tolerância do veículo"),
        intro=gettext("Até 1 mês sem operar, ou até 3 meses com veículo provisório; ao fim, sem táxi conforme, "
                      "abre-se o inquérito (Art. 34, § único)."),
        perform=lambda permit, data: vehicle_services.tolerate_vehicle(permit=permit, **data),
        done=lambda permit: gettext("tolerância concedida até %(day)s.") % {"day": brazilian(permit.vehicle_tolerance_until)},
    )


@admin_act(service="backend.registry.services.vehicles.replace_vehicle",
           description=_("Trocar veículo por um mais antigo (com justificativa, Art. 34, II)"))
def replace_vehicle_justified(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=JustifiedSwapForm, single=True,
        title=gettext("Trocar veículo por um mais antigo (com justificativa)"),
        intro=gettext("A troca por um veículo mais antigo que o atual só com justificativa aceita pela DIMUTRAN "
                      "(Art. 34, II); o novo atende ao Art. 28 e ao Art. 14. A justificativa fica no histórico."),
        perform=lambda permit, data: vehicle_services.replace_vehicle(
            permit=permit, on=data["on"], justified=True, **{n: data[n] for n in VEHICLE_FIELDS}),
        done=lambda vehicle: gettext("táxi %(plate)s em serviço desde %(day)s.")
        % {"plate": vehicle.plate, "day": brazilian(vehicle.in_service_since)},
    )


def _request_transfer(permit, data):
    form_data = {k: v for k, v in data.items() if k not in VEHICLE_FIELDS}
    vehicle = {n: data[n] for n in VEHICLE_FIELDS} if data.get("plate") else None
    if vehicle:
        vehicle["owner_count"] = vehicle["owner_count"] or 1
    form_data["beneficiary"] = form_data["beneficiary"] or None
    return transfer_services.request_transfer(permit=permit, vehicle=vehicle, **form_data)


@admin_act(service="backend.registry.services.transfers.request_transfer",
           description=_("Transferir permissão (Art. 6-7)"))
def request_transfer(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=TransferForm, single=True, title=gettext("Transferir permissão"),
        intro=gettext("A transferência nas hipóteses do Art. 6 (e do Art. 65); o alvará do cessionário sai depois "
                      "da taxa paga (Art. 6, §5)."),
        perform=_request_transfer,
        done=lambda transfer: gettext("transferência nº %(pk)s registrada: %(status)s.")
        % {"pk": transfer.pk, "status": transfer.get_status_display()},
    )


@admin_act(service="backend.registry.services.transfers.pay_transfer_fee",
           description=_("Registrar pagamento da taxa (Art. 6, §5)"))
def pay_transfer_fee(modeladmin, request, queryset):
    return act_with_form(
        modeladmin, request, queryset, form_class=FeePaymentForm, title=gettext("Registrar pagamento da taxa"),
        intro=gettext("Paga a taxa, o alvará sai em nome do cessionário (Art. 6, §5)."),
        perform=lambda transfer, data: transfer_services.pay_transfer_fee(transfer=transfer, **data),
        done=lambda transfer: gettext("taxa paga em %(day)s; alvará emitido ao cessionário.")
        % {"day": brazilian(transfer.fee_paid_on)},
    )
