"""The Django admin for DIMUTRAN (pt-BR). Rule-checked writes go through the API's services (issue #28: one
write path per act): ranks are located by ``create_rank``; designations, check-ins, swaps, contests and their
commissions are the procedures' records, shown read-only here."""

import json
from datetime import date

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from backend.admin_doors import ReadOnlyRecordMixin, ServiceAddForm, ServiceRecordAdmin
from backend.api_errors import LawViolation

from .models import (
    AbsenceJustification,
    Candidate,
    CentralZone,
    CommissionMember,
    Contest,
    ContestDraw,
    ContestRank,
    Rank,
    RankAssignment,
    RankCheckIn,
    RankObservation,
    SwapRequest,
)
from .services import ranks as rank_services


@admin.register(CentralZone)
class CentralZoneAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Uploaded through ``upload_central_zone`` (the API), which validates it and re-zones the ranks (Art. 24)."""

    list_display = ("effective_from", "source", "uploaded_at")
    fields = ("effective_from", "source", "uploaded_at", "polygon")
    readonly_fields = ("uploaded_at", "polygon")

    @admin.display(description=_("polígono (GeoJSON)"))
    def polygon(self, obj):
        """A summary: the document itself is data (street names, coordinates), read by zones/, not by a person."""
        try:
            features = json.loads(obj.geojson).get("features", [None])
        except (ValueError, AttributeError):
            return "—"
        return gettext("%(count)d elemento(s), %(size)s caracteres") % {
            "count": len(features), "size": f"{len(obj.geojson):,}".replace(",", ".")}


class RankAssignmentInline(ReadOnlyRecordMixin, admin.TabularInline):
    model = RankAssignment
    extra = 0


class RankAddForm(ServiceAddForm):
    """Locate a rank in Muriaé (Art. 23); its zone is computed from the central zone in force (Art. 24, 25)."""

    service_of_record = "backend.ranks.services.ranks.create_rank"

    class Meta:
        model = Rank
        fields = ["name", "lon", "lat", "category", "temporary", "opens_on", "closes_on"]


@admin.register(Rank)
class RankAdmin(ServiceRecordAdmin):
    """Located by ``create_rank`` and moved only through the API's ``update_rank`` (the zone follows the place,
    Art. 24, 27); here only the name is edited."""

    add_form = RankAddForm
    editable = ("name",)
    list_display = ("name", "category", "zone", "temporary", "opens_on", "closes_on", "active")
    list_filter = ("category", "zone", "temporary", "active")
    search_fields = ("name",)
    inlines = [RankAssignmentInline]


@admin.register(RankAssignment)
class RankAssignmentAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("permit", "rank", "since", "ended_on")
    list_filter = ("rank",)
    search_fields = ("permit__number", "rank__name")


@admin.register(RankCheckIn)
class RankCheckInAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("permit", "rank", "visitor", "checked_in_at", "checked_out_at")
    list_filter = ("rank", "visitor")
    search_fields = ("permit__number",)
    date_hierarchy = "checked_in_at"


@admin.register(RankObservation)
class RankObservationAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("rank", "start", "end", "empty")
    list_filter = ("rank", "empty")


@admin.register(SwapRequest)
class SwapRequestAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("permit_a", "rank_a", "permit_b", "rank_b", "requested_on", "status", "decided_on")
    list_filter = ("status",)


class ContestRankInline(ReadOnlyRecordMixin, admin.TabularInline):
    model = ContestRank
    extra = 0


class CommissionMemberInline(ReadOnlyRecordMixin, admin.TabularInline):
    model = CommissionMember
    extra = 0


@admin.register(Contest)
class ContestAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """A contest is published, registered, classified and decided through its services (Art. 15-21, 41): its
    publications, date, commission and vacancies are checked there, never typed here."""

    list_display = ("title", "contest_date", "promotion", "status", "result_published_on")
    list_filter = ("status", "promotion")
    search_fields = ("title",)
    inlines = [ContestRankInline, CommissionMemberInline]
    # The edital's publications (Art. 16) as a Brazilian reads them, not the JSON list they are stored as.
    fields = ("title", "publication_dates_display", "contest_date", "promotion", "status", "result_published_on")
    readonly_fields = ("publication_dates_display",)

    @admin.display(description=_("datas de publicação (Art. 16)"))
    def publication_dates_display(self, contest):
        days = [date.fromisoformat(day) for day in contest.publication_dates or ()]
        return ", ".join(day.strftime("%d/%m/%Y") for day in days) or "—"


@admin.register(ContestRank)
class ContestRankAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("contest", "rank", "permits", "order")


@admin.register(CommissionMember)
class CommissionMemberAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("contest", "name", "body")
    list_filter = ("body",)


@admin.register(Candidate)
class CandidateAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    list_display = ("person", "contest", "position", "total_points", "allocated_rank", "excluded", "needs_draw")
    list_filter = ("contest", "excluded")
    search_fields = ("person__full_name", "person__cpf")
    readonly_fields = ("model_year_points", "experience_points", "qualification_points", "total_points", "position",
                       "decided_by", "needs_draw", "allocated_rank", "permit", "excluded", "exclusion_reasons", "registered_at")


@admin.register(ContestDraw)
class ContestDrawAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Draws are recorded through the API (they re-order and re-allocate); here they are read."""

    list_display = ("contest", "drawn_on", "minutes_reference", "recorded_at")
    list_filter = ("contest",)


@admin.register(AbsenceJustification)
class AbsenceJustificationAdmin(ReadOnlyRecordMixin, admin.ModelAdmin):
    """Force majeure for absences from the rank (Art. 9, V): DIMUTRAN accepts or refuses."""

    list_display = ("permit", "start", "end", "status", "decided_on")
    list_filter = ("status",)
    search_fields = ("permit__number", "permit__holder__full_name")
    readonly_fields = ("status", "decided_on", "filed_at")
    actions = ["accept", "refuse"]

    def _decide(self, request, queryset, accept):
        for j in queryset:
            try:
                rank_services.decide_justification(justification=j, accept=accept, on=timezone.localdate())
            except LawViolation as exc:
                self.message_user(request, f"{j}: {exc.detail}", messages.ERROR)

    @admin.action(description=_("Aceitar a força maior (Art. 9, V)"))
    def accept(self, request, queryset):
        self._decide(request, queryset, True)

    @admin.action(description=_("Recusar a justificativa (Art. 9, V)"))
    def refuse(self, request, queryset):
        self._decide(request, queryset, False)
