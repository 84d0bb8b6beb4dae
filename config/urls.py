from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

admin.site.site_header = "DIMUTRAN · Táxis de Muriaé"
admin.site.site_title = "DIMUTRAN"
admin.site.index_title = "Administração do serviço de táxis (Lei 1.242/1987)"

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),  # who goes where
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its initialiser as a script file: the CSP forbids inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("backend.accounts.api.urls")),
    path("api/", include("backend.registry.api.urls")),
    path("api/", include("dispatch.web.api_urls")),
    path("api/", include("backend.trips.api.urls")),
    path("api/", include("backend.privacy.urls")),
    path("api/", include("backend.ranks.api.urls")),
    path("api/", include("backend.ranks.driver_api")),
    path("", include("backend.ranks.public")),
    path("api/", include("backend.parameters.api.urls")),
    path("api/", include("backend.tariffs.api.urls")),
    path("api/", include("backend.enforcement.api.urls")),
    path("api/", include("backend.notices.api.urls")),
    path("api/", include("backend.payments.api.urls")),
    path("", include("backend.tariffs.report_urls")),
    path("api/", include("backend.statements.api.urls")),
    path("", include("backend.statements.urls")),
    path("api/", include("backend.receipts.api.urls")),
    path("", include("backend.receipts.urls")),
    path("api/", include("backend.ratings.api.urls")),
    path("api/", include("backend.bookings.api.urls")),
    path("api/", include("backend.indicators.api.urls")),
    path("", include("backend.indicators.urls")),
    path("", include("dispatch.web.page_urls")),
    path("", include("dispatch.web.ops_urls")),  # /healthz, /readyz, /metrics (docs/operations.md)
]

handler400 = "backend.error_views.bad_request"
handler403 = "backend.error_views.permission_denied"
handler404 = "backend.error_views.page_not_found"
handler500 = "backend.error_views.server_error"
