"""The Django admin for DIMUTRAN (pt-BR). Rule-checked writes go through the API's services;
the admin shows everything and edits plain data."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from backend.api_errors import LawViolation

from .admin_forms import ContestForm
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
class CentralZoneAdmin(admin.ModelAdmin):
    list_display = ("effective_from", "source", "uploaded_at")
    readonly_fields = ("uploaded_at",)


class RankAssignmentInline(admin.TabularInline):
    model = RankAssignment
    extra = 0
    autocomplete_fields = ("permit",)


@admin.register(Rank)
class RankAdmin(admin.ModelAdmin):
    list_display = ("name", "category", "zone", "temporary", "opens_on", "closes_on", "active")
    list_filter = ("category", "zone", "temporary", "active")
    search_fields = ("name",)
    readonly_fields = ("zone", "created_at")
    inlines = [RankAssignmentInline]


@admin.register(RankAssignment)
class RankAssignmentAdmin(admin.ModelAdmin):
    list_display = ("permit", "rank", "since", "ended_on")
    list_filter = ("rank",)
    search_fields = ("permit__number", "rank__name")
    autocomplete_fields = ("permit", "rank")


@admin.register(RankCheckIn)
class RankCheckInAdmin(admin.ModelAdmin):
    list_display = ("permit", "rank", "visitor", "checked_in_at", "checked_out_at")
    list_filter = ("rank", "visitor")
    search_fields = ("permit__number",)
    date_hierarchy = "checked_in_at"


@admin.register(RankObservation)
class RankObservationAdmin(admin.ModelAdmin):
    list_display = ("rank", "start", "end", "empty")
    list_filter = ("rank", "empty")


@admin.register(SwapRequest)
class SwapRequestAdmin(admin.ModelAdmin):
    list_display = ("permit_a", "rank_a", "permit_b", "rank_b", "requested_on", "status", "decided_on")
    list_filter = ("status",)


class ContestRankInline(admin.TabularInline):
    model = ContestRank
    extra = 0


class CommissionMemberInline(admin.TabularInline):
    model = CommissionMember
    extra = 0


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    form = ContestForm  # the publication dates one per line, not raw JSON
    list_display = ("title", "contest_date", "promotion", "status", "result_published_on")
    list_filter = ("status", "promotion")
    search_fields = ("title",)
    inlines = [ContestRankInline, CommissionMemberInline]


@admin.register(ContestRank)
class ContestRankAdmin(admin.ModelAdmin):
    list_display = ("contest", "rank", "permits", "order")


@admin.register(CommissionMember)
class CommissionMemberAdmin(admin.ModelAdmin):
    list_display = ("contest", "name", "body")
    list_filter = ("body",)


@admin.register(Candidate)
class CandidateAdmin(admin.ModelAdmin):
    list_display = ("person", "contest", "position", "total_points", "allocated_rank", "excluded", "needs_draw")
    list_filter = ("contest", "excluded")
    search_fields = ("person__full_name", "person__cpf")
    readonly_fields = ("model_year_points", "experience_points", "qualification_points", "total_points", "position",
                       "decided_by", "needs_draw", "allocated_rank", "permit", "excluded", "exclusion_reasons", "registered_at")


@admin.register(ContestDraw)
class ContestDrawAdmin(admin.ModelAdmin):
    """Draws are recorded through the API (they re-order and re-allocate); here they are read."""

    list_display = ("contest", "drawn_on", "minutes_reference", "recorded_at")
    list_filter = ("contest",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AbsenceJustification)
class AbsenceJustificationAdmin(admin.ModelAdmin):
    """Force majeure for absences from the rank (Art. 9, V): DIMUTRAN accepts or refuses."""

    list_display = ("permit", "start", "end", "status", "decided_on")
    list_filter = ("status",)
    search_fields = ("permit__number", "permit__holder__full_name")
    autocomplete_fields = ("permit",)
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
