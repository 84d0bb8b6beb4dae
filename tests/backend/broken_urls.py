"""A URLconf whose only view fails: what a visitor sees on a server error (tests/backend/test_public_pages.py)."""

from django.urls import path


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("quebrado/", broken)]
