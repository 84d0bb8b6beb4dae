"""Every admin page DIMUTRAN opens answers: the changelist, the add page and one change page of every registered
model, as a superuser, on the demo data of ``seed_demo`` (none may be a 500); an empty add form posted back
is refused or answered, never a crash (the four add forms of issue #28: a decision, an offer, a ride, a
driver's cancellation)."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db(transaction=False)


def _pages(model):
    opts = model._meta
    yield reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    yield reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    first = model._default_manager.order_by("pk").first()
    if first is not None:
        yield reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk])


def test_every_admin_page_answers_without_a_server_error():
    admin_client = Client(raise_request_exception=False)
    admin_client.force_login(get_user_model().objects.create_superuser("crawler", "c@example.com", "x"))
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    broken = []
    for model in admin.site._registry:
        for url in _pages(model):
            status = admin_client.get(url).status_code
            if status >= 500:
                broken.append((url, status))
        add = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add")
        status = admin_client.post(add, {"_save": "Salvar"}).status_code
        if status >= 500:
            broken.append(("POST " + add, status))
    assert not broken, broken
