"""Redis down (issue 34): every REST operation still answers without a server error.

The cache (the rate limits) and the channel layer (announcements after a commit) point at a private
``redis-server`` that was started and then killed. Each operation of the schema gets a schema-valid request
per role (schemathesis' positive generation), and the announcements its commit made are sent at the end of the
request, as they would be after a real commit.
"""

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, settings
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from backend.api.throttling import fallback_cache
from tests.private_redis import PrivateRedis

from .test_api_fuzz import tokens, wsgi_in_test_transaction  # noqa: F401 - the fuzz test's roles and WSGI setup


@pytest.fixture(scope="module")
def dead_redis_url():
    redis = PrivateRedis()
    redis.start()
    redis.kill()
    return redis.url


@pytest.fixture
def on_dead_redis(settings, dead_redis_url):  # noqa: F811 - pytest-django's settings fixture
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": dead_redis_url,
                                   "KEY_PREFIX": "dead", "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [{"address": dead_redis_url, "socket_connect_timeout": 2}]}}}
    fallback_cache._retry_at = 0.0  # each test asks the dead cache first, whatever the one before it found
    yield


schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(modes=[GenerationMode.POSITIVE])


@schema.parametrize()
@settings(max_examples=1, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_without_redis(case, tokens, wsgi_in_test_transaction, on_dead_redis,  # noqa: F811
                                               django_capture_on_commit_callbacks):
    for role in ("staff", "driver", "passenger"):
        with django_capture_on_commit_callbacks(execute=True):  # a failed announcement would raise here
            case.call_and_validate(headers={"Authorization": tokens[role]}, checks=[not_a_server_error])


def test_login_is_still_rate_limited_in_the_process_without_redis(db, on_dead_redis, monkeypatch):
    from backend.accounts.api.views import LoginThrottle

    monkeypatch.setattr(LoginThrottle, "rate", "3/min", raising=False)  # instead of LOGIN_RATE, read at import
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    before = fallback_cache.fallbacks
    statuses = [client.post("/api/auth/token/", {"username": "ninguem", "password": "errada"}, format="json").status_code
                for _ in range(4)]
    assert statuses == [400, 400, 400, 429]  # wrong passwords answered, then this process's own count refuses
    assert fallback_cache.fallbacks > before
