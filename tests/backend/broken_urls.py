"""A URLconf whose only view fails: what a visitor or an API client sees on a server error (tests/backend/test_public_pages.py,
tests/backend/test_error_answers.py)."""

from django.db import OperationalError
from django.urls import path
from psycopg_pool import PoolTimeout

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 - looked up in the root URLconf


def broken(request):
    raise RuntimeError("a bug")


def no_connection(request):
    """What Django raises when this process's pool stayed full for DATABASE_POOL_TIMEOUT."""
    try:
        raise PoolTimeout("couldn't get a connection after 5.00 sec")
    except PoolTimeout as exc:
        raise OperationalError(str(exc)) from exc


urlpatterns = [path("quebrado/", broken), path("api/quebrado/", broken),
               path("ocupado/", no_connection), path("api/ocupado/", no_connection)]
