import pytest


@pytest.fixture(autouse=True, scope="session")
def _offers_on_threads():
    """In-process tests make offers on threads: a worker process could not see their test database.

    The end-to-end tests' Daphne processes keep the default, a worker process (``dispatch.rides.offer_workers``).
    """
    from django.conf import settings

    settings.DISPATCH_OFFER_PROCESSES = 0


@pytest.fixture(autouse=True, scope="session")
def _no_lockout_by_default():
    """django-axes needs the request in authenticate(), which the test client's login() does not pass.

    tests/backend/test_auth_api.py turns it back on; the end-to-end Daphne processes keep it on.
    """
    from django.conf import settings

    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    """Password hashing is deliberately slow; tests need users, not strong hashes."""
    if "django_db_setup" in request.fixturenames or request.node.get_closest_marker("django_db"):
        settings = request.getfixturevalue("settings")
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _portuguese_by_default():
    """A request with ``Accept-Language: en`` leaves English active in the test's thread: start every test in pt-BR."""
    from django.conf import settings
    from django.utils import translation

    if settings.configured:
        translation.activate(settings.LANGUAGE_CODE)
    yield


def pytest_collection_modifyitems(items):
    """schemathesis 4.32 on pytest 9 gives every operation's test the same node id (without its ``[GET /api/...]``).

    pytest-xdist schedules tests by node id: one of the 171 API fuzz tests would run and the others silently not.
    The node id gets the item's name back (pytest has no public setter for it).

    ``make test`` runs two pytest-xdist workers grouped (``--dist loadgroup``): each file is one group, so a module's
    fixtures (a seeded demo, a schema) are built once, and every end-to-end file is in one group, ``e2e``, so at most
    one set of Daphne processes and browsers runs at a time while the other worker runs the in-process tests.
    """
    from _pytest.nodeid import NodeId

    for item in items:
        if not item.nodeid.endswith("::" + item.name):
            item._id = NodeId.parse(f"{item.nodeid.rpartition('::')[0]}::{item.name}")
        path = item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group("e2e" if path.startswith("tests/e2e/") else path))
