"""One write path per act (issue #28): the admin is a client of the services, never a second door to the law.

Every registered ModelAdmin is one of three kinds, and ``tests/backend/test_doors.py`` proves which:

- a record shown read-only (``ReadOnlyRecordMixin``: no add, change or delete) or whose law-governed fields are
  all read-only, the act being an admin action that calls the service;
- a save through a named service: ``service_of_record`` is the dotted path of the callable its save calls (the
  same one the API calls);
- plain data the law does not govern: ``plain_data`` says why.

``tools/doors_table.py`` writes docs/doors.md (model -> service, endpoint -> service) from these declarations.
"""

from __future__ import annotations

from importlib import import_module

from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from backend.api_errors import LawViolation


class ReadOnlyRecordMixin:
    """Written only by its procedure's services (API or admin actions): shown, never added, edited or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def resolve(path: str):
    """The callable named by a dotted path, looked up at call time (so the walk's test can stand in for it)."""
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def with_article(reason) -> str:
    """The refusal as DIMUTRAN reads it, with the article that decides it."""
    text = reason.render(gettext)
    return text if reason.article in text else f"{text} ({reason.article})"


class _DryRun(Exception):
    """Undoes a service's writes once it accepted the data: the form only asks."""


class ServiceAddForm(forms.ModelForm):
    """An add form whose data the record's service checks, in a savepoint that is rolled back; the admin's
    ``save_model`` then calls the service for real. ``service_of_record`` names it; ``service_extras`` adds what
    the form does not type (the date of the act: today)."""

    service_of_record: str

    def service_extras(self) -> dict:
        return {}

    def service(self, **data):
        return resolve(self.service_of_record)(**data, **self.service_extras())

    def service_data(self) -> dict:
        return {k: self.cleaned_data[k] for k in self.Meta.fields if k in self.cleaned_data}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            with transaction.atomic():
                self.service(**self.service_data())
                raise _DryRun
        except _DryRun:
            pass
        except LawViolation as refusal:
            field = refusal.field if refusal.field in self.fields else NON_FIELD_ERRORS
            raise ValidationError({field: [with_article(r) for r in refusal.decision.reasons]}) from None
        return data


class ServiceRecordAdmin(admin.ModelAdmin):
    """Added through ``add_form``'s service; on change only ``editable`` fields (plain data) may be edited; never deleted."""

    add_form: type[ServiceAddForm]
    editable: tuple[str, ...] = ()
    service_of_record: str

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.service_of_record = cls.add_form.service_of_record

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = self.add_form
            kwargs["fields"] = self.add_form.Meta.fields
        return super().get_form(request, obj, **kwargs)

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": self.add_form.Meta.fields})]
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return tuple(f.name for f in self.model._meta.fields if f.name not in ("id", *self.editable))

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
        else:
            form.instance = form.service(**form.service_data())

    def has_delete_permission(self, request, obj=None):
        return False


# Admins this project registers without owning their class (Django's, django-axes', DRF's), and the two whose
# legal amounts become dated acts in issue #28's class 3: declared here, with why.
DECLARED = {
    "auth.Group": "accounts: who may act, not what the law decides",
    "auth.User": "accounts: who may act, not what the law decides",
    "authtoken.TokenProxy": "API tokens of the accounts",
    "axes.AccessAttempt": "django-axes' record of sign-in attempts",
    "axes.AccessLog": "django-axes' record of sign-ins",
    "axes.AccessFailureLog": "django-axes' record of failed sign-ins",
    "parameters.DatedParameter": "legal amounts and terms: dated, sourced acts (issue #28, class 3)",
    "parameters.MunicipalHoliday": "the municipal calendar is data DIMUTRAN maintains, sourced per day (Art. 45, II)",
    "enforcement.InfractionType": "the catalogue of infractions and their amounts: dated acts (issue #28, class 3)",
}


class _Superuser:
    is_active = is_staff = is_superuser = True

    def has_perm(self, *args) -> bool:
        return True

    def has_module_perms(self, *args) -> bool:
        return True


def superuser_request():
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = _Superuser()
    return request


def editable_fields(model_admin, request) -> list[str]:
    """The fields an existing record's change form lets staff type."""
    if not model_admin.has_change_permission(request):
        return []
    obj = model_admin.model()
    return sorted(model_admin.get_form(request, obj).base_fields)


def door_of(model_admin, request=None) -> tuple[str, str]:
    """(kind, detail) of one ModelAdmin: how what it writes reaches the database (docs/doors.md)."""
    request = request or superuser_request()
    label = model_admin.model._meta.label
    adds, changes = model_admin.has_add_permission(request), model_admin.has_change_permission(request)
    if getattr(model_admin, "service_of_record", None):
        return "service", model_admin.service_of_record
    if not adds and not changes:
        return "read-only", "no add, change or delete; acts are admin actions or API calls to the services"
    if not adds and not editable_fields(model_admin, request):
        return "read-only", "every field read-only; acts are admin actions or API calls to the services"
    if getattr(model_admin, "plain_data", None):
        return "plain data", model_admin.plain_data
    if label in DECLARED:
        return "declared", DECLARED[label]
    return "undeclared", "a second door to the law: declare a service, make it read-only or say why"
