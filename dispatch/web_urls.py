"""Pages of the dispatch: /central/ (operators, staff only) and /passageiro/ (passengers)."""

from django.urls import path

from . import pwa, views

app_name = "dispatch_web"

urlpatterns = [
    path("central/", views.console, name="console"),
    path("central/corridas/<int:ride_id>/ofertas.json", views.ride_offers, name="ride-offers"),
    path("central/chamadas.json", views.caller_history, name="caller-history"),
    path("pontos/filas.json", views.rank_queues, name="rank-queues"),
    path("passageiro/", views.passenger, name="passenger"),
    path("passageiro/sw.js", pwa.service_worker, name="service-worker"),
    path("passageiro/manifest.webmanifest", pwa.manifest, name="manifest"),
    path("favicon.ico", pwa.favicon, name="favicon"),
]
