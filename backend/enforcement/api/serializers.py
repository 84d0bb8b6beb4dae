"""API shapes of enforcement. Form is checked here; law by the services."""

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from backend.api.fields import column_length
from backend.registry.models import Permit, Person
from taxilaw import due_process
from taxilaw.revocation import RevocationGround

from .. import selectors
from ..models import (
    PENALTY_KINDS,
    Appeal,
    AutoDeInfracao,
    Complaint,
    Defence,
    FinePayment,
    InfractionType,
    Penalty,
    PenaltyDecision,
    PenaltyReduction,
)


def today():
    return timezone.localdate()


class InfractionTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = InfractionType
        fields = [
            "id", "code", "description", "article", "group", "fine_ufm", "default_penalty", "revocation_if_recidivist",
            "effective_from", "effective_until", "source",
        ]
        read_only_fields = ["effective_until"]  # closed only by the next version (Art. 64; services.catalogue)


class FinePaymentSerializer(serializers.ModelSerializer):
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)

    class Meta:
        model = FinePayment
        fields = ["id", "kind", "kind_display", "paid_on", "amount", "receipt", "refunded_on"]


class PenaltySerializer(serializers.ModelSerializer):
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)
    infraction_code = serializers.CharField(source="infraction.code", read_only=True)
    article = serializers.CharField(source="infraction.article", read_only=True)
    outstanding = serializers.SerializerMethodField()
    payments = FinePaymentSerializer(many=True, read_only=True)
    auto = serializers.IntegerField(source="decision.auto_id", read_only=True)

    class Meta:
        model = Penalty
        fields = [
            "id", "auto", "decision", "infraction", "infraction_code", "article", "kind", "kind_display", "base_amount", "amount",
            "recidivism_of", "starts_on", "ends_on", "suspension", "inquiry", "annulled_on", "outstanding", "payments",
        ]

    def get_outstanding(self, obj) -> str:
        return str(selectors.outstanding(obj))


class PenaltyReductionSerializer(serializers.ModelSerializer):
    """A penalty lightened by a partial judgment (Art. 63, §3): before and after, reasons, deposit refunded (Art. 63, §5)."""

    kind_display = serializers.CharField(source="get_kind_display", read_only=True)
    previous_kind_display = serializers.CharField(source="get_previous_kind_display", read_only=True)

    class Meta:
        model = PenaltyReduction
        fields = [
            "id", "penalty", "previous_kind", "previous_kind_display", "previous_amount", "previous_starts_on", "previous_ends_on",
            "kind", "kind_display", "amount", "starts_on", "ends_on", "involuntary", "serious_consequences", "reasoning",
            "refunded_amount", "articles",
        ]
        read_only_fields = fields


class AppealSerializer(serializers.ModelSerializer):
    instance_display = serializers.CharField(source="get_instance_display", read_only=True)
    result_display = serializers.CharField(source="get_result_display", read_only=True)
    reductions = PenaltyReductionSerializer(many=True, read_only=True)
    archived_inquiries = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    inquiries_to_review = serializers.SerializerMethodField()

    class Meta:
        model = Appeal
        fields = [
            "id", "decision", "instance", "instance_display", "filed_on", "grounds", "deposit_receipt", "deposit_amount",
            "judged_on", "result", "result_display", "judgment_text", "judgment_notified_on", "reductions", "archived_inquiries",
            "inquiries_to_review",
        ]
        read_only_fields = ["judged_on", "result", "judgment_text", "judgment_notified_on"]

    def get_inquiries_to_review(self, obj) -> list[int]:
        """Inquiries that revoked the permit although this judgment took away the revocation that opened them (see the readings)."""
        if obj.result not in (Appeal.Result.GRANTED, Appeal.Result.PARTIAL):
            return []
        return selectors.inquiries_to_review(obj.decision)


class DecisionSerializer(serializers.ModelSerializer):
    penalties = PenaltySerializer(many=True, read_only=True)
    appeals = AppealSerializer(many=True, read_only=True)
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = PenaltyDecision
        fields = [
            "id", "auto", "decided_on", "reasoning", "involuntary", "serious_consequences", "total_fine", "duty_persists",
            "notified_on", "status", "status_display", "articles", "penalties", "appeals",
        ]


class AutoDefenceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Defence
        fields = ["text", "filed_on"]


class AutoSerializer(serializers.ModelSerializer):
    number = serializers.CharField(read_only=True)
    infractions = InfractionTypeSerializer(many=True, read_only=True)
    defence = AutoDefenceSerializer(read_only=True, allow_null=True)  # none until the infractor defends
    decision = DecisionSerializer(read_only=True, allow_null=True)  # none until DIMUTRAN judges
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = AutoDeInfracao
        fields = [
            "id", "number", "origin", "complaint", "permit", "person", "infractions", "committed_on", "issued_on", "place",
            "observation", "copy_delivered_on", "recorded_on", "status", "status_display", "defence", "decision",
        ]


class AutoCreateSerializer(serializers.Serializer):
    permit = serializers.PrimaryKeyRelatedField(queryset=Permit.objects.all())
    person = serializers.PrimaryKeyRelatedField(queryset=Person.objects.all())
    infractions = serializers.PrimaryKeyRelatedField(queryset=InfractionType.objects.all(), many=True)
    committed_on = serializers.DateField()
    issued_on = serializers.DateField(default=today)
    observation = serializers.CharField()
    place = serializers.CharField(required=False, allow_blank=True, default="", max_length=column_length(AutoDeInfracao, "place"))


class DeliverCopySerializer(serializers.Serializer):
    delivered_on = serializers.DateField(default=today)


class AutoDefenceCreateSerializer(serializers.Serializer):
    text = serializers.CharField()
    filed_on = serializers.DateField(default=today)


class PenaltyChoiceSerializer(serializers.Serializer):
    infraction = serializers.PrimaryKeyRelatedField(queryset=InfractionType.objects.all())
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    revocation_ground = serializers.ChoiceField(
        choices=[(g.value, g.label) for g in RevocationGround], default=RevocationGround.BREACH_OF_TERM.value
    )


class AutoDecideSerializer(serializers.Serializer):
    decided_on = serializers.DateField(default=today)
    reasoning = serializers.CharField()
    upheld = serializers.BooleanField(default=True)
    involuntary = serializers.BooleanField(default=False)
    serious_consequences = serializers.BooleanField(default=True)
    penalties = PenaltyChoiceSerializer(many=True, required=False, default=list)


class EnforcementNotifySerializer(serializers.Serializer):
    notified_on = serializers.DateField(default=today)


class AppealCreateSerializer(serializers.Serializer):
    decision = serializers.PrimaryKeyRelatedField(queryset=PenaltyDecision.objects.all())
    instance = serializers.ChoiceField(choices=[(i.value, i.label) for i in due_process.AppealInstance])
    filed_on = serializers.DateField(default=today)
    grounds = serializers.CharField()
    deposit_receipt = serializers.CharField(required=False, allow_blank=True, default="",
                                            max_length=column_length(Appeal, "deposit_receipt"))
    deposit_amount = serializers.DecimalField(max_digits=10, decimal_places=2, required=False, allow_null=True, default=None)


class PenaltyReductionCreateSerializer(serializers.Serializer):
    """One penalty of the decision and what it becomes (provimento parcial, Art. 63, §3)."""

    penalty = serializers.PrimaryKeyRelatedField(queryset=Penalty.objects.all())
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, required=False, allow_null=True, default=None)
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    involuntary = serializers.BooleanField(default=False)
    serious_consequences = serializers.BooleanField(default=True)
    reasoning = serializers.CharField(required=False, allow_blank=True, default="")


JUDGMENT_RESULTS = [(r.value, r.label) for r in Appeal.Result if r != Appeal.Result.PENDING]


class AppealJudgeSerializer(serializers.Serializer):
    """``result`` (upheld / granted / partial); the older ``granted`` boolean still works for the two full outcomes."""

    judged_on = serializers.DateField(default=today)
    result = serializers.ChoiceField(choices=JUDGMENT_RESULTS, required=False)
    granted = serializers.BooleanField(required=False)
    judgment_text = serializers.CharField()
    reductions = PenaltyReductionCreateSerializer(many=True, required=False, default=list)

    def validate(self, data):
        granted_sent = "granted" in getattr(self, "initial_data", {})
        if "result" not in data:
            if not granted_sent:
                raise serializers.ValidationError({"result": [_("Informe o resultado do julgamento: improvido, provido ou provido em parte.")]})
            data["result"] = Appeal.Result.GRANTED.value if data["granted"] else Appeal.Result.UPHELD.value
        elif granted_sent and data["result"] != (Appeal.Result.GRANTED.value if data["granted"] else Appeal.Result.UPHELD.value):
            if not (data["result"] == Appeal.Result.PARTIAL.value and data["granted"]):
                raise serializers.ValidationError({"granted": [_("“granted” contradiz o resultado informado.")]})
        data.pop("granted", None)
        return data


class FinePaySerializer(serializers.Serializer):
    paid_on = serializers.DateField(default=today)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    receipt = serializers.CharField(max_length=column_length(FinePayment, "receipt"))


class ComplaintSerializer(serializers.ModelSerializer):
    status_display = serializers.CharField(source="get_status_display", read_only=True)
    auto = serializers.SerializerMethodField()

    class Meta:
        model = Complaint
        fields = [
            "id", "passenger", "ride", "description", "ride_data", "filed_at", "status", "status_display",
            "triaged_on", "triage_reasoning", "auto",
        ]

    def get_auto(self, obj) -> int | None:
        auto = getattr(obj, "auto", None)
        return auto.pk if auto else None


class ComplaintCreateSerializer(serializers.Serializer):
    ride = serializers.IntegerField()
    description = serializers.CharField()


class ComplaintTriageSerializer(serializers.Serializer):
    issue_auto = serializers.BooleanField()
    reasoning = serializers.CharField(allow_blank=True, default="")
    on = serializers.DateField(default=today)
    infractions = serializers.PrimaryKeyRelatedField(queryset=InfractionType.objects.all(), many=True, required=False, default=list)


class AutoDeadlinesSerializer(serializers.Serializer):
    defence_until = serializers.DateField(allow_null=True)
    appeal_comutram_until = serializers.DateField(allow_null=True)
    appeal_mayor_until = serializers.DateField(allow_null=True)
    judgment_notice_until = serializers.ListField(child=serializers.DateField())
