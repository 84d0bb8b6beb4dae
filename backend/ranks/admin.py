"""The Django admin for DIMUTRAN (pt-BR). Rule-checked writes go through the API's services;
the admin shows everything and edits plain data."""

from django.contrib import admin

from .models import (
    Candidate, CentralZone, CommissionMember, Contest, ContestRank, Rank, RankAssignment, RankCheckIn,
    RankObservation, SwapRequest,
)


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
                       "decided_by", "needs_draw", "allocated_rank", "excluded", "exclusion_reasons", "registered_at")
