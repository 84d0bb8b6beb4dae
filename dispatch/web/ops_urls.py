"""The operations endpoints (``dispatch.web.ops_views``), at the root: what load balancers and scrapers expect."""

from django.urls import path

from dispatch.web import ops_views

urlpatterns = [
    path("healthz", ops_views.healthz, name="healthz"),
    path("readyz", ops_views.readyz, name="readyz"),
    path("metrics", ops_views.metrics, name="metrics"),
]
