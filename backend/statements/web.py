"""/extratos/: the weekly statements page, pt-BR, Django session login (Art. 1, §2-§6)."""

from __future__ import annotations

from datetime import date
from itertools import groupby

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from backend.registry.models import Permit, Person
from taxilaw.split import PERMIT_HOLDER_EXPENSES_NOTE

from . import documents, selectors, services

PAGE_WEEKS = 8


class StatementsLoginView(LoginView):
    """Login for permit holders and drivers (the admin login accepts DIMUTRAN staff only)."""

    template_name = "statements/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        return "/extratos/"


@require_POST
def logout_view(request):
    logout(request)
    return redirect("statements-login")


def _rows(statements):
    """Each statement with its split in words, its late-ride adjustments and, with any, the totals (Art. 1, §3; §6)."""
    rows = []
    for s in statements:
        adjustments = [{"a": a, "label": documents.adjustment_label(a), "detail": documents.adjustment_detail(a, s),
                        "aux": documents.auxiliary_part_text(a)} for a in s.adjustment_lines]
        rows.append({
            "s": s, "split": documents.split_label(s), "aux": documents.auxiliary_part_text(s),
            "adjustments": adjustments,
            "total_aux": documents.auxiliary_part_text(s) if s.agreement == s.Agreement.CTPS else None,
            "carried": [documents.carried_later_text(a) for a in s.carried_later_lines],
            "settlement": documents.settlement_lines(s), "ride_rows": documents.ride_rows(s),
        })
    return rows


@login_required(login_url="/extratos/entrar/")
def statements_page(request):
    """A permit holder reads their own and their auxiliaries' statements week by week; a driver their own (Art. 1, §3)."""
    person = selectors.person_of(request.user)
    qs = selectors.statements_visible_to(request.user).order_by("-week_start", "permit__number", "role", "driver__full_name")
    chosen: date | None = None
    if request.GET.get("semana"):
        try:
            chosen = services.monday_of(date.fromisoformat(request.GET["semana"]))
        except ValueError:
            chosen = None
    all_weeks = list(qs.values_list("week_start", flat=True).distinct().order_by("-week_start"))
    if chosen:
        qs = qs.filter(week_start=chosen)
    else:
        qs = qs.filter(week_start__in=all_weeks[:PAGE_WEEKS])
    weeks = [{"monday": monday, "sunday": items[0].week_end, "rows": _rows(items)}
             for monday, group in groupby(qs, key=lambda s: s.week_start) for items in [list(group)]]

    running = []
    if person is not None:
        now = timezone.now()
        held = selectors.permits_held(person)
        for permit in held:
            running += services.running_statements_for_permit(permit, now)
        for permit in selectors.permits_driven_now(person):
            if permit not in held:
                running.append(services.running_statement(permit, person, now))
    running_rows = _rows(running)
    has_late = any(row["adjustments"] or row["carried"] for rows in [running_rows, *[w["rows"] for w in weeks]]
                   for row in rows)
    context = {
        "person": person,
        "running": running_rows,
        "has_late": has_late,
        "running_monday": services.monday_of(timezone.now()),
        "weeks": weeks,
        "all_weeks": all_weeks,
        "chosen": chosen,
        "note": _(PERMIT_HOLDER_EXPENSES_NOTE),
        "late_note": _(documents.LATE_RIDES_NOTE),
        "total_label": _("Total com ajustes"),
        "is_dimutran": request.user.is_staff,
    }
    return render(request, "statements/statements.html", context)


@login_required(login_url="/extratos/entrar/")
def running_statement_pdf(request, permit_id: int, driver_id: int):
    """The running week of one driver on one permit as a PDF marked provisional (Art. 1, §3): computed now, not stored.

    Seen by that driver, the permit's holder and DIMUTRAN, as the closed statements are."""
    person = selectors.person_of(request.user)
    permit = get_object_or_404(Permit.objects.select_related("holder"), pk=permit_id)
    driver = get_object_or_404(Person, pk=driver_id)
    if not (request.user.is_staff or (person is not None and person.pk in (driver.pk, permit.holder_id))):
        raise Http404
    statement = services.running_statement(permit, driver, timezone.now())
    response = HttpResponse(documents.statement_pdf(statement), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="provisorio-{documents.pdf_filename(statement)}"'
    response["Cache-Control"] = "no-store"  # it changes with every ride
    return response
