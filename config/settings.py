"""Django settings, read from the environment.

Defaults are the safe, production ones: DEBUG off, no secret key unless
``DJANGO_SECRET_KEY`` is given, HTTPS-only cookies and HSTS. ``make run`` and
the test suite ask for development explicitly (``DJANGO_DEBUG=1``). Storage
defaults to the embedded engines (SQLite, the in-memory channel layer);
``DATABASE_URL`` selects PostgreSQL (psycopg 3) and ``REDIS_URL`` selects
channels-redis for several Daphne processes.
"""

import ipaddress
import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE

from backend.api.docs_pt_br import TAGS as API_TAGS_PT_BR  # pure data: no Django import

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TAXI_VAR_DIR", BASE_DIR / "var"))


def env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("DJANGO_SECRET_KEY must be set unless DJANGO_DEBUG=1 (development)")
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# Proxies in front of Daphne that append to X-Forwarded-For; 0: believe only the socket's address.
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0"))

# Served over HTTPS (by a TLS proxy in front of Daphne) unless told otherwise: cookies only over HTTPS,
# HTTP redirected, HSTS for a year. DJANGO_HTTPS=0 for a trial on plain http://127.0.0.1.
HTTPS = env_flag("DJANGO_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
# Health checks and scrapes come over plain http from inside the host or the container network (docs/operations.md).
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SILENCED_SYSTEM_CHECKS = [
    # HSTS preload binds every subdomain of the municipality's domain for years: the city's IT decides
    # it for the domain, not this application.
    "security.W021",
]
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # only a trusted proxy sets it

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "backend.accounts.axes_app.AxesPtBrConfig",  # django-axes, named in pt-BR in the admin
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "csp",
    "backend.accounts",
    "backend.parameters",
    "backend.registry",
    "backend.ranks",
    "backend.tariffs",
    "backend.enforcement",
    "backend.statements",
    "backend.trips",
    "backend.receipts",
    "backend.ratings",
    "backend.bookings",
    "backend.notices",
    "backend.scheduler",
    "backend.payments",
    "backend.indicators",
    "backend.demo",  # the seed_demo commands (no models)
    "dispatch",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Static files answered inside the stack, below every middleware that sets a security header (CSP,
    # nosniff, X-Frame-Options, Referrer-Policy, COOP), so they carry the same headers as pages.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "backend.error_views.DatabaseBusyMiddleware",  # no database connection to be had: 503, not 500
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out admin login
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "backend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # Dispatch writes from several coroutines: wait for the lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django turns psycopg's prepared statements off (None, for connection poolers; there is none): a threshold
    # never reached prepares only the statements that ask for it (prepare=True: the nearest-cab search), and
    # their generic plan is kept (PostgreSQL's "auto" re-planned the search at each call, ~30% of its time).
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["prepare_threshold"] = sys.maxsize
    options["options"] = f"{options.get('options', '')} -c plan_cache_mode=force_generic_plan".strip()
    # A connection budget per process (psycopg's pool, through Django's pool option): at most DATABASE_POOL_SIZE
    # connections, each back in the pool at the end of its request or database call, whatever the number of threads
    # (ASGI's per-request threads, Channels', the tick's). A request that finds them all busy waits up to
    # DATABASE_POOL_TIMEOUT seconds, then gets a 503 (backend.error_views). The arithmetic: docs/operations.md.
    DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0"))
    if DATABASE_POOL_SIZE:
        if DATABASES["default"]["CONN_MAX_AGE"]:
            raise RuntimeError("DATABASE_POOL_SIZE and DATABASE_CONN_MAX_AGE exclude each other: a pooled connection "
                               "goes back to the pool after each request; leave DATABASE_CONN_MAX_AGE unset")
        options["pool"] = {"min_size": 1, "max_size": DATABASE_POOL_SIZE,
                           "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "5")),
                           "max_idle": 60}  # connections above min_size idle this long are closed

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # A pool that waits for a free connection instead of failing (dispatch.transport.channel_layers), sized by the arithmetic
            # of docs/operations.md: each command holds a connection one round trip, Redis runs one at a time.
            "BACKEND": "dispatch.transport.channel_layers.WaitingPoolRedisChannelLayer",
            "CONFIG": {
                # redis-py 8 times out idle blocking reads unless told not to.
                # A Redis that does not answer a connection fails it within seconds instead of TCP's minutes.
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "socket_connect_timeout": 2,
                           "max_connections": int(os.environ.get("REDIS_LAYER_CONNECTIONS", "64"))}],
                "pool_timeout": float(os.environ.get("REDIS_LAYER_POOL_TIMEOUT", "10")),
                "capacity": 5000,
                "expiry": 60,
            },
        }
    }
    # The API's rate limits (login, sign-up, address search) count in Redis too, so several Daphne processes
    # share one count per client instead of each allowing the rate.
    # Without Redis they count in each process (backend.api.throttling), after at most a second's wait.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "muriae"),
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "dispatch.transport.channel_layers.ThrottledInMemoryChannelLayer"}}

# Password guessing (django-axes): after AXES_FAILURE_LIMIT failures an account, and separately an
# address, is locked out for AXES_COOLOFF_TIME, on the admin login and on /api/auth/token/ alike;
# attempts live in the database, so every Daphne process sees them.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no banner on every start; failures still reach the log
AXES_CLIENT_IP_CALLABLE = "backend.accounts.client_ip.client_ip"
AXES_LOCKOUT_CALLABLE = "backend.accounts.lockout.lockout_response"
# An API token (REST and the drivers' websocket) lives this long after its login.
AUTH_TOKEN_TTL = timedelta(hours=int(os.environ.get("AUTH_TOKEN_TTL_HOURS", "24")))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "pt-br"
LANGUAGES = [("pt-br", "Português (Brasil)"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "backend" / "locale"]
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise serves the collected files (STATIC_ROOT) and, like Django's static handler did, the apps' own
# (finders), so a checkout serves its assets without collectstatic.
WHITENOISE_USE_FINDERS = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "/admin/login/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "backend.accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "backend.api.schema.AppTaggedAutoSchema",
    "EXCEPTION_HANDLER": "backend.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "backend.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "NUM_PROXIES": TRUSTED_PROXIES,  # throttles identify clients as backend.accounts.client_ip does
    "DEFAULT_THROTTLE_RATES": {"login": os.environ.get("LOGIN_RATE", "20/min")},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Táxi Muriaé API",
    "DESCRIPTION": "Serviço de táxis de Muriaé (Lei 1.242/1987): registro, despacho, pontos e tarifas.",
    "VERSION": "0.1.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TAGS": API_TAGS_PT_BR,  # pt-BR, with one summary per operation (backend.api.docs_pt_br)
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "backend.api.docs_pt_br.pt_br_summaries"],
}

# Content-Security-Policy (django-csp): no inline or foreign script on any page, so a text that slipped
# through as HTML still cannot run. Inline <style> stays allowed: the printable reports carry their CSS
# inline, and a style cannot run script; every user text is escaped anyway.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF],  # the passenger page's service worker (/passageiro/sw.js)
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# LOG_FORMAT=json: one JSON object per line (python-json-logger), for a log collector; default: plain text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Paths in log lines lose their query strings and receipt tokens (django.request's "Not Found: /recibos/...").
    "filters": {"redact_paths": {"()": "backend.log_paths.RedactPaths"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(threadName)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid",
                              "threadName": "thread"},
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_paths"],
                             **({"formatter": "json"} if LOG_FORMAT == "json" else {})}},
    # Django's default handlers on "django" (a DEBUG console, mail_admins) would write those lines unfiltered:
    # its records go to the root's handler instead.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Radio-taxi dispatch (Art. 66)
DISPATCH_OFFER_SECONDS = int(os.environ.get("DISPATCH_OFFER_SECONDS", "20"))
DISPATCH_TICK_SECONDS = float(os.environ.get("DISPATCH_TICK_SECONDS", "1.0"))
# A serving process whose tick has not renewed its lease for this long is dead: its cabs go offline (dispatch.transport.presence).
DISPATCH_PROCESS_LEASE_SECONDS = float(os.environ.get("DISPATCH_PROCESS_LEASE_SECONDS", "5"))
# The central's phone, shown to a passenger whose ride no cab took (empty: the page names no number).
DISPATCH_CENTRAL_PHONE = os.environ.get("DISPATCH_CENTRAL_PHONE", "")
# Worker processes that make offers beside each Daphne process (dispatch.rides.offer_workers); 0: threads of the process.
DISPATCH_OFFER_PROCESSES = int(os.environ.get("DISPATCH_OFFER_PROCESSES", "2"))

# Operations (docs/operations.md): who may read /metrics without a staff session, and how old the scheduler's
# heartbeat may be before /readyz fails (it checks every 30 s; four checks missed; 0: reported, not required).
METRICS_ALLOWED_NETWORKS = [ipaddress.ip_network(n.strip()) for n in
                            os.environ.get("METRICS_ALLOWED_NETWORKS", "127.0.0.1/32,::1/128").split(",") if n.strip()]
READYZ_SCHEDULER_MAX_AGE_SECONDS = float(os.environ.get("READYZ_SCHEDULER_MAX_AGE_SECONDS", "120"))
