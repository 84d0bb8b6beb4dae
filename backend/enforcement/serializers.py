"""API shapes of enforcement. Form is checked here; law by the services."""

from django.utils import timezone
from rest_framework import serializers

from backend.registry.models import Permit, Person
from taxilaw import penalties as law
from taxilaw.revocation import RevocationGround

from . import selectors
from .models import PENALTY_KINDS, Appeal, AutoDeInfracao, Complaint, Defence, FinePayment, InfractionType, Penalty, PenaltyDecision


def today():
    return timezone.localdate()


class InfractionTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = InfractionType
        fields = [
            "id", "code", "description", "article", "group", "fine_ufm", "default_penalty", "revocation_if_recidivist",
            "effective_from", "effective_until", "source",
        ]


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


class AppealSerializer(serializers.ModelSerializer):
    instance_display = serializers.CharField(source="get_instance_display", read_only=True)
    result_display = serializers.CharField(source="get_result_display", read_only=True)

    class Meta:
        model = Appeal
        fields = [
            "id", "decision", "instance", "instance_display", "filed_on", "grounds", "deposit_receipt", "deposit_amount",
            "judged_on", "result", "result_display", "judgment_text", "judgment_notified_on",
        ]
        read_only_fields = ["judged_on", "result", "judgment_text", "judgment_notified_on"]


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
    defence = AutoDefenceSerializer(read_only=True)
    decision = DecisionSerializer(read_only=True)
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
    place = serializers.CharField(required=False, allow_blank=True, default="")


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
    instance = serializers.ChoiceField(choices=[(i.value, i.label) for i in law.AppealInstance])
    filed_on = serializers.DateField(default=today)
    grounds = serializers.CharField()
    deposit_receipt = serializers.CharField(required=False, allow_blank=True, default="")
    deposit_amount = serializers.DecimalField(max_digits=10, decimal_places=2, required=False, allow_null=True, default=None)


class AppealJudgeSerializer(serializers.Serializer):
    judged_on = serializers.DateField(default=today)
    granted = serializers.BooleanField()
    judgment_text = serializers.CharField()


class FinePaySerializer(serializers.Serializer):
    paid_on = serializers.DateField(default=today)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    receipt = serializers.CharField()


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
