"""API shapes of the registry. Writes are validated here for form, and by the services for law."""

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from taxilaw.permits import RENEWAL_DOCUMENTS
from taxilaw.revocation import RevocationGround
from taxilaw.split import BAD_PERCENT
from taxilaw.transfers import Beneficiary, TransferKind
from taxilaw.vehicles import ToleranceCase

from ..models import (
    Alvara,
    Auxiliary,
    Cmt,
    Inspection,
    Permit,
    Person,
    Renewal,
    RevocationInquiry,
    SocialSecurityProof,
    Suspension,
    Transfer,
    Vehicle,
)


def today():
    return timezone.localdate()


class PersonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Person
        fields = ["id", "full_name", "cpf", "cnh", "cnh_expires_on", "phone", "is_autonomous_professional", "social_security_registered"]
        # Documents arrive as people type them ("529.982.247-25"); the service normalizes and checks them.
        extra_kwargs = {"cpf": {"validators": [], "max_length": 14}, "cnh": {"validators": [], "max_length": 14}}


class AlvaraSerializer(serializers.ModelSerializer):
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)

    class Meta:
        model = Alvara
        fields = ["id", "kind", "kind_display", "issued_on", "expires_on"]


class VehicleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Vehicle
        fields = [
            "id", "permit", "plate", "renavam", "make", "model", "model_year", "manufacture_year", "colour",
            "owner_count", "wheelchair_accessible", "child_seat", "in_service", "in_service_since", "removed_on",
        ]
        read_only_fields = ["in_service", "in_service_since", "removed_on"]


class VehicleDataSerializer(serializers.Serializer):
    """A vehicle to put in service (registration, replacement, transfer)."""

    plate = serializers.CharField(max_length=8)
    renavam = serializers.CharField(max_length=11)
    make = serializers.CharField(max_length=40)
    model = serializers.CharField(max_length=60)
    model_year = serializers.IntegerField(min_value=1950, max_value=2100)
    manufacture_year = serializers.IntegerField(min_value=1950, max_value=2100)
    colour = serializers.CharField(max_length=30)
    owner_count = serializers.IntegerField(min_value=1, max_value=10, default=1)
    wheelchair_accessible = serializers.BooleanField(default=False)  # taxilaw.accessibility
    child_seat = serializers.BooleanField(default=False)


class VehicleRegisterSerializer(VehicleDataSerializer):
    permit = serializers.PrimaryKeyRelatedField(queryset=Permit.objects.all())
    on = serializers.DateField(default=today)


class VehicleReplaceSerializer(VehicleDataSerializer):
    justified = serializers.BooleanField(default=False, help_text=_("Justificativa aceita pela DIMUTRAN (Art. 34, II)."))
    on = serializers.DateField(default=today)


class PermitSerializer(serializers.ModelSerializer):
    holder_name = serializers.CharField(source="holder.full_name", read_only=True, default=None)
    status_display = serializers.CharField(source="get_status_display", read_only=True)
    alvara = serializers.SerializerMethodField()
    vehicle = serializers.SerializerMethodField()

    class Meta:
        model = Permit
        fields = [
            "id", "number", "holder", "holder_name", "status", "status_display", "origin", "result_published_on",
            "term_signed_on", "held_since", "contest_model_year", "co_owned_grandfathered", "ended_on", "alvara", "vehicle",
        ]
        read_only_fields = ["status", "origin", "term_signed_on", "held_since", "ended_on"]

    @extend_schema_field(AlvaraSerializer(allow_null=True))
    def get_alvara(self, permit):
        alvara = permit.alvaras.order_by("-expires_on").first()
        return AlvaraSerializer(alvara).data if alvara else None

    @extend_schema_field(VehicleSerializer(allow_null=True))
    def get_vehicle(self, permit):
        vehicle = permit.vehicles.filter(in_service=True).first()
        return VehicleSerializer(vehicle).data if vehicle else None


class SignTermSerializer(serializers.Serializer):
    signed_on = serializers.DateField(default=today)


class DocumentsField(serializers.DictField):
    child = serializers.BooleanField()

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        known = {d.code for d in RENEWAL_DOCUMENTS}
        unknown = sorted(set(value) - known)
        if unknown:
            raise serializers.ValidationError(
                _("Documentos desconhecidos: %(codes)s. Válidos: %(valid)s.") % {"codes": ", ".join(unknown), "valid": ", ".join(sorted(known))}
            )
        return value


class RenewalRequestSerializer(serializers.Serializer):
    requested_on = serializers.DateField(default=today)
    documents = DocumentsField(default=dict)


class RenewalDocumentsSerializer(serializers.Serializer):
    documents = DocumentsField(default=dict)
    late_fine_paid = serializers.BooleanField(default=False)


class RenewalSerializer(serializers.ModelSerializer):
    documents = serializers.SerializerMethodField()
    missing = serializers.SerializerMethodField()
    alvara = AlvaraSerializer(read_only=True)

    class Meta:
        model = Renewal
        fields = ["id", "permit", "requested_on", "timing", "late_fine_brl", "late_fine_paid_on", "status", "documents", "missing", "alvara"]

    @extend_schema_field(inline_serializer("RenewalDocument", {
        "code": serializers.CharField(), "article": serializers.CharField(), "label": serializers.CharField(),
        "presented": serializers.BooleanField()}, many=True))
    def get_documents(self, renewal):
        labels = {d.code: (d.article, d.label) for d in RENEWAL_DOCUMENTS}
        return [
            {"code": code, "article": labels[code][0], "label": labels[code][1], "presented": presented}
            for code, presented in renewal.documents.order_by("id").values_list("code", "presented")
        ]

    @extend_schema_field(inline_serializer("MissingDocument", {
        "article": serializers.CharField(), "code": serializers.CharField(), "message": serializers.CharField()}, many=True))
    def get_missing(self, renewal):
        from ..services.permits import renewal_checklist

        return [r.as_dict() for r in renewal_checklist(renewal).reasons]


class DateSerializer(serializers.Serializer):
    on = serializers.DateField(default=today)


class TransferRequestSerializer(serializers.Serializer):
    transferee = serializers.PrimaryKeyRelatedField(queryset=Person.objects.all())
    kind = serializers.ChoiceField(choices=[k.value for k in TransferKind])
    requested_on = serializers.DateField(default=today)
    beneficiary = serializers.ChoiceField(choices=[b.value for b in Beneficiary], required=False, allow_null=True)
    death_date = serializers.DateField(required=False, allow_null=True)
    per_partition_or_court_order = serializers.BooleanField(default=False)
    incapacity_proven = serializers.BooleanField(default=False)
    retirement_proven = serializers.BooleanField(default=False)
    fee_paid_on = serializers.DateField(required=False, allow_null=True)
    vehicle = VehicleDataSerializer(required=False, allow_null=True)


class JudicialLossSerializer(serializers.Serializer):
    judgment_final_on = serializers.DateField()
    requested_on = serializers.DateField(default=today)
    proof_presented = serializers.BooleanField()
    vehicle = VehicleDataSerializer()


class JudicialLossRecordSerializer(serializers.Serializer):
    judgment_final_on = serializers.DateField(help_text=_("Data do trânsito em julgado da decisão que tomou o veículo (Art. 11, § único)."))


class ToleranceSerializer(serializers.Serializer):
    case = serializers.ChoiceField(
        choices=[(c.value, label) for c, label in (
            (ToleranceCase.NOT_OPERATING, _("sem operar: até 1 mês")),
            (ToleranceCase.PROVISIONAL_VEHICLE, _("com veículo provisório: até 3 meses")),
        )],
        help_text=_("O caso da tolerância (Art. 34, § único)."),
    )
    started_on = serializers.DateField(default=today, help_text=_("Início da tolerância."))


class PermitActsSerializer(serializers.ModelSerializer):
    """The permit after an act that dates it: the tolerance's end (Art. 34, § único), the judgment's (Art. 11)."""

    class Meta:
        model = Permit
        fields = ["id", "number", "status", "vehicle_tolerance_until", "judicial_loss_final_on"]
        read_only_fields = fields


class TransferSerializer(serializers.ModelSerializer):
    class Meta:
        model = Transfer
        fields = [
            "id", "permit", "cedent", "transferee", "kind", "beneficiary", "requested_on", "death_date",
            "fee_brl", "fee_paid_on", "status", "completed_on",
        ]


class PaidOnSerializer(serializers.Serializer):
    paid_on = serializers.DateField(default=today)


class InquiryOpenSerializer(serializers.Serializer):
    ground = serializers.ChoiceField(choices=[(g.value, g.label) for g in RevocationGround])
    facts = serializers.CharField()
    opened_on = serializers.DateField(default=today)


class SummonsSerializer(serializers.Serializer):
    summoned_on = serializers.DateField(default=today)
    record = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")


class InquirySerializer(serializers.ModelSerializer):
    awaiting_summons = serializers.SerializerMethodField()
    defence_deadline = serializers.SerializerMethodField()

    class Meta:
        model = RevocationInquiry
        fields = [
            "id", "permit", "ground", "facts", "opened_on", "awaiting_summons", "summoned_on", "summons_record",
            "defence_deadline", "defence_filed_on", "defence", "decided_on", "outcome", "decision_text",
        ]

    @extend_schema_field(serializers.BooleanField())
    def get_awaiting_summons(self, inquiry):
        return inquiry.summoned_on is None and inquiry.outcome == RevocationInquiry.Outcome.PENDING

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_defence_deadline(self, inquiry):
        from ..services.revocation import defence_deadline

        return defence_deadline(inquiry)


class DefenceSerializer(serializers.Serializer):
    defence = serializers.CharField()
    filed_on = serializers.DateField(default=today)


class DecideSerializer(serializers.Serializer):
    revoke = serializers.BooleanField()
    decided_on = serializers.DateField(default=today)
    decision_text = serializers.CharField()


class InspectionSerializer(serializers.ModelSerializer):
    # The planilha (Art. 36) and the documents presented (Art. 39): {code: bool}, codes of taxilaw.inspection_items.
    checklist = serializers.DictField(child=serializers.BooleanField(), required=False, default=dict)
    documents = serializers.DictField(child=serializers.BooleanField(), required=False, default=dict)

    class Meta:
        model = Inspection
        fields = [
            "id", "vehicle", "kind", "inspected_on", "result", "seal_number", "valid_until", "fee_brl",
            "fee_due_on", "fee_paid_on", "notes", "checklist", "documents",
        ]
        read_only_fields = ["valid_until", "fee_brl", "fee_due_on", "fee_paid_on"]


class AuxiliarySerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.full_name", read_only=True)
    # Art. 1, §6: the regime and its data, checked by the service (taxilaw.split.check_regime, one message per
    # field). Written as given; read as the regime in force (Auxiliary.regime: a percentage registered with only
    # its contract's reference reads "contract").
    split_regime = serializers.ChoiceField(choices=Auxiliary.SplitRegime.choices, required=False)

    class Meta:
        model = Auxiliary
        fields = [
            "id", "permit", "person", "person_name", "authorized_on", "status", "cancelled_on", "cancel_reason",
            "contract_auxiliary_percent", "contract_reference",
            "split_regime", "contract_signed_on", "contract_witness_1", "contract_witness_2", "ctps_number", "ctps_series",
            "pix_receiver",
        ]
        read_only_fields = ["status", "cancelled_on", "cancel_reason"]
        extra_kwargs = {
            "authorized_on": {"required": False},
            "contract_auxiliary_percent": {"min_value": 0, "max_value": 100},
        }

    def validate_contract_auxiliary_percent(self, value):
        """Art. 1, §6: an agreed share strictly between 0 and 100 (taxilaw.split.check_regime)."""
        if value is not None and not (0 < value < 100):
            raise serializers.ValidationError(_(BAD_PERCENT).format(pct=value))
        return value

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["split_regime"] = instance.regime
        return data


class PixReceiverSerializer(serializers.Serializer):
    pix_receiver = serializers.ChoiceField(choices=Auxiliary.PixReceiver.choices)


class SocialSecurityProofSerializer(serializers.ModelSerializer):
    class Meta:
        model = SocialSecurityProof
        fields = ["id", "auxiliary", "quarter_end", "presented_on"]
        read_only_fields = ["auxiliary"]
        extra_kwargs = {"presented_on": {"required": False}}
        validators = []


class CancelSerializer(serializers.Serializer):
    on = serializers.DateField(default=today)
    reason = serializers.CharField(max_length=255)


class CmtSerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.full_name", read_only=True)

    class Meta:
        model = Cmt
        fields = ["id", "person", "person_name", "number", "issued_on", "expires_on"]


class SuspensionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Suspension
        fields = ["id", "permit", "starts_on", "ends_on", "reason"]

    def validate(self, data):
        if data["ends_on"] < data["starts_on"]:
            raise serializers.ValidationError({"ends_on": _("O fim deve ser igual ou posterior ao início.")})
        return data


class ReasonSerializer(serializers.Serializer):
    article = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class ComplianceSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    articles = serializers.ListField(child=serializers.CharField())
    reasons = ReasonSerializer(many=True)


class MeSerializer(serializers.Serializer):
    """GET /api/me/: the logged-in driver's cards (backend.registry.api.cards.driver_cards)."""

    person = inline_serializer("MePerson", {"id": serializers.IntegerField(), "full_name": serializers.CharField()})
    cmt = inline_serializer("MeCmt", {
        "number": serializers.CharField(), "issued_on": serializers.DateField(), "expires_on": serializers.DateField(),
        "role": serializers.CharField(allow_null=True), "permit": serializers.CharField(allow_null=True)}, allow_null=True)
    cvi = inline_serializer("MeCvi", {
        "plate": serializers.CharField(), "make": serializers.CharField(), "model": serializers.CharField(),
        "model_year": serializers.IntegerField(), "colour": serializers.CharField(), "permit": serializers.CharField(),
        "rank": serializers.CharField(allow_null=True), "seal_number": serializers.CharField(allow_null=True),
        "seal_valid_until": serializers.DateField(allow_null=True)}, allow_null=True)
    compliance = ComplianceSerializer(allow_null=True)
