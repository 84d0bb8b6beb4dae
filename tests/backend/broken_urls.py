"""A URLconf whose only view fails: what a visitor or an API client sees on a server error (tests/backend/test_public_pages.py,
tests/backend/test_error_answers.py)."""

from django.urls import path

from backend.urls import handler400, handler403, handler404, handler500  # noqa: F401 - looked up in the root URLconf


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("quebrado/", broken), path("api/quebrado/", broken)]
