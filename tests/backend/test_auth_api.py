"""Authentication (issue 14): guessing is throttled and locked out, tokens expire and can be revoked,
and X-Forwarded-For is believed only as far as the configured proxies."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import get_resolver
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from backend.accounts.client_ip import client_ip
from backend.accounts.tokens import ExpiringTokenAuthentication
from dispatch.transport.socket_auth import people_for_tokens

pytestmark = pytest.mark.django_db
URL = "/api/auth/token/"


def handshake_user(key):
    """The websocket handshake's lookup itself, for one key, in this thread: the user of the driver it opens, or None."""
    person = people_for_tokens([key])[0]
    return person.user if person else None


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def lockout(settings):
    settings.AXES_ENABLED = True


@pytest.fixture
def user():
    return get_user_model().objects.create_user("motorista", password="certa-123")


def login(client, username="motorista", password="certa-123", ip="10.0.0.1", **extra):
    return client.post(URL, {"username": username, "password": password}, format="json", REMOTE_ADDR=ip, **extra)


def me(key):
    """GET /api/me/: 401 unless the key authenticates (then 404: this user is no driver)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/me/")


def accepted(key) -> bool:
    return me(key).status_code == 404


def test_each_login_issues_a_fresh_key_that_expires_and_the_old_one_dies(user, settings):
    first = login(APIClient())
    assert first.status_code == 200 and set(first.json()) == {"token", "expires_at"}
    second = login(APIClient()).json()["token"]
    assert second != first.json()["token"]
    assert me(first.json()["token"]).status_code == 401
    assert accepted(second)


def test_an_expired_token_is_refused_by_the_api_and_the_websocket(user, make_person, settings):
    make_person(user=user)  # a driver: the handshake opens only a person's cab
    key = login(APIClient()).json()["token"]
    assert handshake_user(key) == user
    Token.objects.filter(key=key).update(created=Token.objects.get(key=key).created - settings.AUTH_TOKEN_TTL - timedelta(seconds=1))
    answer = me(key)
    assert answer.status_code == 401 and "expirada" in answer.json()["detail"]
    assert handshake_user(key) is None


def test_logout_revokes_the_token(user, make_person):
    make_person(user=user)
    key = login(APIClient()).json()["token"]
    assert handshake_user(key) == user
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.post("/api/auth/logout/").status_code == 204
    assert me(key).status_code == 401
    assert handshake_user(key) is None


def test_a_password_change_revokes_the_token(user):
    key = login(APIClient()).json()["token"]
    user.refresh_from_db()
    user.save(update_fields=["last_login"])  # saving other fields keeps it
    assert accepted(key)
    user.set_password("outra-senha-456")
    user.save()
    assert me(key).status_code == 401
    assert login(APIClient(), password="outra-senha-456").status_code == 200


def test_wrong_password_is_a_clear_400(user):
    answer = login(APIClient(), password="errada")
    assert answer.status_code == 400 and answer.json()["detail"] == "Usuário ou senha incorretos."


def test_guessing_one_account_from_many_addresses_locks_the_account(user, lockout, settings):
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(APIClient(), password=f"chute{n}", ip=f"10.1.0.{n}").status_code == 400
    assert login(APIClient(), password="chute", ip="10.1.1.1").status_code == 429  # the limit-th failure locks
    locked = login(APIClient(), ip="10.9.9.9")  # the right password, from a fresh address
    assert locked.status_code == 429 and "Muitas tentativas" in locked.json()["detail"]


def test_guessing_many_accounts_from_one_address_locks_the_address(user, lockout, settings):
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(APIClient(), username=f"alvo{n}", password="x", ip="10.2.0.1").status_code == 400
    assert login(APIClient(), username="alvo", password="x", ip="10.2.0.1").status_code == 429
    assert login(APIClient(), ip="10.2.0.1").status_code == 429
    assert login(APIClient(), ip="10.2.0.2").status_code == 200  # the account itself is not locked


def test_a_success_before_the_limit_resets_the_accounts_count(user, lockout, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(APIClient(), password="errada", ip="10.6.0.1")
    assert login(APIClient(), ip="10.6.0.1").status_code == 200
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(APIClient(), password="errada", ip="10.6.0.2")
    assert login(APIClient(), ip="10.6.0.2").status_code == 200


def test_the_admin_login_locks_out_too(user, lockout, settings):
    staff = get_user_model().objects.create_user("fiscal", password="certa-123", is_staff=True)
    for n in range(settings.AXES_FAILURE_LIMIT):
        APIClient().post("/admin/login/", {"username": staff.username, "password": f"chute{n}"}, REMOTE_ADDR=f"10.3.0.{n}")
    answer = APIClient().post("/admin/login/", {"username": staff.username, "password": "certa-123"}, REMOTE_ADDR="10.3.9.9")
    assert answer.status_code == 429
    assert "Acesso bloqueado" in answer.content.decode()


def test_login_is_rate_limited_per_address(user):
    for _ in range(20):  # LOGIN_RATE, 20/min
        assert login(APIClient(), password="errada", ip="10.4.0.1").status_code == 400
    assert login(APIClient(), ip="10.4.0.1").status_code == 429
    assert login(APIClient(), ip="10.4.0.2").status_code == 200


def test_the_signup_throttle_ignores_a_forged_forwarded_for():
    client = APIClient()
    statuses = [client.post("/api/passengers/", {"name": "Ana", "phone": "(32) 99999-1234"}, format="json",
                            REMOTE_ADDR="10.5.0.1", HTTP_X_FORWARDED_FOR=f"172.16.0.{n}").status_code for n in range(31)]
    assert statuses[:30] == [201] * 30 and statuses[30] == 429


def test_trusted_proxies_decide_which_forwarded_address_is_believed(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="6.6.6.6, 200.1.2.3")
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "10.0.0.254"
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request) == "200.1.2.3"  # the address our one proxy saw; the client wrote the first
    settings.TRUSTED_PROXIES = 3
    assert client_ip(request) == "10.0.0.254"  # fewer hops than proxies: not believed


def test_no_api_view_accepts_a_token_that_never_expires():
    def views(patterns):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                yield from views(p.url_patterns)
            elif getattr(p.callback, "cls", None) is not None:
                yield p.callback.cls

    found = list(views(get_resolver().url_patterns))
    assert len(found) > 40
    plain = sorted({v.__name__ for v in found for a in v.authentication_classes
                    if issubclass(a, TokenAuthentication) and not issubclass(a, ExpiringTokenAuthentication)})
    assert plain == []
