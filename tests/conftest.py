import pytest


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
