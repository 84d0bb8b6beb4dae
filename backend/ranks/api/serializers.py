"""Serializers of the ranks API (field names in English, labels in pt-BR)."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from backend.registry.models import Permit, Person
from taxilaw.contests import CommissionBody

from ..models import (
    AbsenceJustification,
    Candidate,
    CentralZone,
    Contest,
    ContestDraw,
    Rank,
    RankAssignment,
    RankCheckIn,
    RankObservation,
    SwapRequest,
)


class RankSerializer(serializers.ModelSerializer):
    zone = serializers.CharField(read_only=True)
    zone_label = serializers.CharField(source="get_zone_display", read_only=True)
    category_label = serializers.CharField(source="get_category_display", read_only=True)
    lon = serializers.FloatField(min_value=-180, max_value=180)
    lat = serializers.FloatField(min_value=-90, max_value=90)

    class Meta:
        model = Rank
        fields = ["id", "name", "lon", "lat", "category", "category_label", "zone", "zone_label", "temporary",
                  "opens_on", "closes_on", "active", "cancelled_on"]
        read_only_fields = ["active", "cancelled_on"]


class AssignSerializer(serializers.Serializer):
    permit = serializers.PrimaryKeyRelatedField(queryset=Permit.objects.all(), label=_("permissão"))
    since = serializers.DateField(label=_("no ponto desde"))


class AssignmentSerializer(serializers.ModelSerializer):
    permit_number = serializers.CharField(source="permit.number", read_only=True)

    class Meta:
        model = RankAssignment
        fields = ["id", "permit", "permit_number", "rank", "since", "ended_on"]


class CheckInRequestSerializer(serializers.Serializer):
    permit = serializers.PrimaryKeyRelatedField(queryset=Permit.objects.all(), label=_("permissão"))
    rank = serializers.PrimaryKeyRelatedField(queryset=Rank.objects.all(), label=_("ponto"))
    at = serializers.DateTimeField(required=False, label=_("chegada (apenas DIMUTRAN; padrão: agora)"))
    correction_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=255,
        label=_("justificativa de correção (apenas DIMUTRAN: um dia passado, sem posição; Art. 9, V)"),
    )


class CheckOutRequestSerializer(serializers.Serializer):
    at = serializers.DateTimeField(required=False, label=_("saída (apenas DIMUTRAN; padrão: agora)"))


class CheckInSerializer(serializers.ModelSerializer):
    class Meta:
        model = RankCheckIn
        fields = ["id", "permit", "vehicle", "rank", "visitor", "checked_in_at", "checked_out_at", "lat", "lon",
                  "correction_reason", "recorded_by"]


class ObservationSerializer(serializers.ModelSerializer):
    empty = serializers.BooleanField(required=False, allow_null=True, default=None,
                                     help_text=_("Omitido: calculado pelos registros de presença (Art. 27, §2)."))

    class Meta:
        model = RankObservation
        fields = ["id", "rank", "start", "end", "empty", "notes"]
        read_only_fields = ["rank"]


class SwapRequestSerializer(serializers.ModelSerializer):
    requested_on = serializers.DateField(required=False)

    class Meta:
        model = SwapRequest
        fields = ["id", "permit_a", "permit_b", "rank_a", "rank_b", "requested_on", "status", "authorized", "decided_on", "decision_text"]
        read_only_fields = ["rank_a", "rank_b", "status", "authorized", "decided_on", "decision_text"]


class SwapDecisionSerializer(serializers.Serializer):
    on = serializers.DateField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class VacancySerializer(serializers.Serializer):
    rank = serializers.PrimaryKeyRelatedField(queryset=Rank.objects.filter(active=True), label=_("ponto"))
    permits = serializers.IntegerField(min_value=1, label=_("número de permissões"))


class CommissionMemberSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    body = serializers.ChoiceField(choices=[(b.value, b.label) for b in CommissionBody])


class ContestSerializer(serializers.ModelSerializer):
    publication_dates = serializers.ListField(child=serializers.DateField(), label=_("datas de publicação (Art. 16)"))
    vacancies = VacancySerializer(many=True)
    commission = CommissionMemberSerializer(many=True)

    class Meta:
        model = Contest
        fields = ["id", "title", "publication_dates", "contest_date", "promotion", "vacancies", "commission", "status", "result_published_on"]
        read_only_fields = ["status", "result_published_on"]

    def to_representation(self, instance):
        return {
            "id": instance.pk,
            "title": instance.title,
            "publication_dates": instance.publication_dates,
            "contest_date": instance.contest_date.isoformat(),
            "promotion": instance.promotion,
            "vacancies": [{"rank": v.rank_id, "rank_name": v.rank.name, "permits": v.permits} for v in instance.vacancies.select_related("rank")],
            "commission": [{"name": m.name, "body": m.body} for m in instance.commission.all()],
            "status": instance.status,
            "result_published_on": instance.result_published_on.isoformat() if instance.result_published_on else None,
        }


class CandidateSerializer(serializers.ModelSerializer):
    person = serializers.PrimaryKeyRelatedField(queryset=Person.objects.all(), label=_("candidato"))
    person_name = serializers.CharField(source="person.full_name", read_only=True)
    permit_number = serializers.CharField(source="permit.number", read_only=True, default=None)
    preferred_ranks = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)

    class Meta:
        model = Candidate
        fields = ["id", "person", "person_name", "model_year", "profession_since", "no_accident_certificate", "dependants",
                  "driver_since", "resident_since", "preferred_ranks", "registered_at", "model_year_points",
                  "experience_points", "qualification_points", "total_points", "position", "decided_by", "needs_draw",
                  "allocated_rank", "permit", "permit_number", "excluded", "exclusion_reasons"]
        read_only_fields = ["registered_at", "model_year_points", "experience_points", "qualification_points", "total_points",
                            "position", "decided_by", "needs_draw", "allocated_rank", "permit", "excluded", "exclusion_reasons"]


class ClassifySerializer(serializers.Serializer):
    published_on = serializers.DateField(required=False)


class PublishResultSerializer(serializers.Serializer):
    result_published_on = serializers.DateField(label=_("publicação do resultado no Órgão Oficial (Art. 3, §1)"))


class DrawSerializer(serializers.ModelSerializer):
    candidates = serializers.ListField(child=serializers.IntegerField(), min_length=2, source="drawn_order",
                                       label=_("candidatos na ordem sorteada"))

    class Meta:
        model = ContestDraw
        fields = ["id", "contest", "candidates", "drawn_on", "minutes_reference", "recorded_at"]
        read_only_fields = ["contest", "recorded_at"]


class JustificationSerializer(serializers.ModelSerializer):
    permit = serializers.PrimaryKeyRelatedField(queryset=Permit.objects.all(), label=_("permissão"))

    class Meta:
        model = AbsenceJustification
        fields = ["id", "permit", "start", "end", "reason", "status", "decided_on", "decision_text", "filed_at"]
        read_only_fields = ["status", "decided_on", "decision_text", "filed_at"]


class JustificationDecisionSerializer(serializers.Serializer):
    on = serializers.DateField(required=False)
    text = serializers.CharField(required=False, allow_blank=True, default="")


class CentralZoneUploadSerializer(serializers.Serializer):
    geojson = serializers.JSONField(label=_("GeoJSON do polígono (Art. 24)"))
    effective_from = serializers.DateField(label=_("vigente a partir de"))
    source = serializers.CharField(max_length=255, label=_("ato normativo / fonte"))


class CentralZoneSerializer(serializers.ModelSerializer):
    class Meta:
        model = CentralZone
        fields = ["id", "effective_from", "source", "uploaded_at"]
