"""The whole admin as a superuser with the demo data (seed_demo and seed_demo_rides): every changelist, add and change
page of every registered model answers without a server error and shows no English outside ``ALLOWED``.

English is detected with a small list of words that the admin, its third-party sections (django-axes) and raw
choice values would show untranslated; a word counts only as a whole word with its case."""

from __future__ import annotations

import html
import json
import re
from datetime import date

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.formats import date_format

pytestmark = pytest.mark.django_db

# "No" is not in the list: it is Portuguese too ("No máximo 30 dias", "No ponto"); "Yes" stands for the pair.
ENGLISH = ("Add", "Change", "Delete", "Save", "Yes", "Date", "Name", "Search", "Filter", "History", "Home", "View",
           "Action", "Today", "Now", "Unknown", "None", "All", "Select", "Log out", "Username", "Password", "Access",
           "Attempt", "Attempts", "Failure", "Failures", "User agent", "IP address", "IP Address", "Path", "Login",
           "Logout", "Time", "passenger", "operator", "street", "rank", "pending", "accepted", "completed", "cancelled",
           "requested", "January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December", "True", "False", "object")
# What may stay: names and codes, not English prose.
ALLOWED = {
    "Login",  # a loanword of Brazilian Portuguese, used by Django's own pt_BR catalogue ("Login", "Fazer login")
}
PATTERN = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in ENGLISH) + r")(?![\w-])")
MONTHS = ("Janeiro", "Fevereiro", "Março", "Abril", "Maio", "Junho", "Julho", "Agosto", "Setembro", "Outubro", "Novembro", "Dezembro")


def visible_text(page: str) -> str:
    """What a person reads: text between tags, button values, titles and placeholders; no scripts or styles."""
    page = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", page, flags=re.S | re.I)
    said = re.findall(r'\b(?:title|placeholder|aria-label)="([^"]*)"', page)
    said += re.findall(r'<input[^>]*type="submit"[^>]*value="([^"]*)"', page)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", page), *said]))


def english_in(text: str) -> list[str]:
    return sorted({m for m in PATTERN.findall(text) if m not in ALLOWED})


@pytest.fixture
def superuser_client(client):
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_rides", verbosity=0)
    client.force_login(get_user_model().objects.create_superuser("crawler", password="x"))
    client.raise_request_exception = False  # a server error is counted as a 5xx, with every other page still opened
    return client


def _pages(model, model_admin):
    opts = model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}"
    yield reverse(f"{name}_changelist")
    try:
        yield reverse(f"{name}_add")
    except NoReverseMatch:
        pass
    first = model_admin.get_queryset(_Request()).order_by("pk").first() if hasattr(model, "pk") else None
    if first is not None:
        yield reverse(f"{name}_change", args=[first.pk])


class _Request:
    """Enough of a request for ``ModelAdmin.get_queryset`` (the superuser sees everything)."""

    class user:
        is_superuser = is_staff = is_active = True


def test_every_admin_page_answers_in_portuguese(superuser_client):
    failures, english = [], {}
    pages = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        pages.extend(_pages(model, model_admin))
    for url in pages:
        response = superuser_client.get(url)
        if response.status_code >= 500:
            failures.append(f"{url}: {response.status_code}")
            continue
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        if response.status_code != 200:
            continue
        text = visible_text(response.content.decode())
        found = english_in(text) + [m for m in MONTHS if re.search(rf"\d de {m} de \d", text)]
        if found:
            english[url] = found
    assert not failures and not english, json.dumps({"5xx": failures, "English": english}, ensure_ascii=False)


@pytest.mark.parametrize("day, written", [(date(2026, 12, 4), "4 de dezembro de 2026"), (date(2027, 3, 1), "1 de março de 2027")])
def test_dates_are_written_as_a_brazilian_writes_them(day, written):
    with translation.override("pt-br"):
        assert date_format(day, "DATE_FORMAT") == written
