"""Admin actions with an intermediate form (Django's pattern): the action renders a page with the selected records
and the act's fields; POSTed back with ``apply``, it calls the act's service once per record, the same service the
API calls (issue #28: one write path per act). A refusal is an admin error message citing its article, never a 500;
what was done is kept in the admin's history (LogEntry) with what staff typed, the justification included."""

from __future__ import annotations

from typing import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.widgets import AdminDateWidget
from django.template.response import TemplateResponse
from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext

from backend.admin_doors import with_article
from backend.api_errors import LawViolation


def admin_act(*, service: str, description):
    """An admin action that does one act of the law through ``service``, the dotted path of the API's own service
    (listed in docs/doors.md; tests/backend/test_doors.py checks that the action calls it)."""

    def mark(func):
        func.service_of_act = service
        return admin.action(description=description)(func)

    return mark


def acts_of(model_admin) -> list[tuple[str, str, str]]:
    """(action's name, its description, its service) for each action of ``model_admin`` declared by ``admin_act``."""
    found = []
    for action in model_admin.actions or ():
        func = getattr(type(model_admin), action) if isinstance(action, str) else action
        if getattr(func, "service_of_act", None):
            found.append((func.__name__, str(func.short_description), func.service_of_act))
    return found


def date_field(label: str, *, today: bool = True, **kwargs) -> forms.DateField:
    """A date typed with the admin's calendar, read and shown as a Brazilian writes it (dd/mm/aaaa)."""
    if today:
        kwargs.setdefault("initial", timezone.localdate)
    return forms.DateField(label=label, widget=AdminDateWidget, **kwargs)


def brazilian(day) -> str:
    return formats.date_format(day, "d/m/Y") if day else "—"


def _typed(form: forms.Form) -> str:
    """What staff typed, for the history: dates the Brazilian way, records by their name."""
    shown = []
    for name, value in form.cleaned_data.items():
        if value in (None, "", False):
            continue
        text = brazilian(value) if hasattr(value, "strftime") else str(value)
        shown.append(f"{form.fields[name].label}: {text}")
    return "; ".join(shown)


def act_with_form(modeladmin, request, queryset, *, form_class: Callable[..., forms.Form], title: str, intro: str,
                  perform: Callable[[object, dict], object], done: Callable[[object], str], single: bool = False):
    """Render ``form_class`` for the selected records; on ``apply``, ``perform(record, cleaned_data)`` each one.
    ``form_class`` is a form class or any callable taking the POSTed data (a form built for the one record).

    ``single``: the act concerns one record (a swap's plate, a transfer's transferee), so exactly one is selected."""
    if single and queryset.count() != 1:
        modeladmin.message_user(request, gettext("Selecione um único registro para este ato."), messages.ERROR)
        return None
    applying = "apply" in request.POST
    form = form_class(request.POST if applying else None)
    for field in form.fields.values():  # as Django's own forms show a label: "Placa:", not "placa:"
        field.label = capfirst(field.label)
    if applying and form.is_valid():
        for record in queryset:
            try:
                result = perform(record, form.cleaned_data)
            except LawViolation as refusal:
                reasons = " ".join(with_article(r) for r in refusal.decision.reasons)
                modeladmin.message_user(request, f"{record}: {reasons}", messages.ERROR)
            else:
                modeladmin.log_change(request, record, f"{title}. {_typed(form)}")
                modeladmin.message_user(request, f"{record}: {done(result)}", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "intro": intro,
        "form": form,
        "queryset": queryset,
        "opts": modeladmin.model._meta,
        "action": request.POST.get("action", ""),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media + form.media,
    }
    return TemplateResponse(request, "admin/act_form.html", context)
