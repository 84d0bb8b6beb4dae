"""Pages of the dispatch: /central/ (operators, staff only), /passageiro/ (passengers), /acompanhar/<token>/ (a shared ride)."""

from django.urls import path

from dispatch.web import pages, pwa, safety_views

app_name = "dispatch_web"

urlpatterns = [
    path("central/", pages.console, name="console"),
    path("central/corridas/<int:ride_id>/ofertas.json", pages.ride_offers, name="ride-offers"),
    path("central/turno.json", pages.shift_rides, name="shift-rides"),
    path("central/chamadas.json", pages.caller_history, name="caller-history"),
    path("pontos/filas.json", pages.rank_queues, name="rank-queues"),
    path("passageiro/", pages.passenger, name="passenger"),
    # a ride shared by its passenger (docs/passenger-safety.md): public, read-only, while the ride lasts
    path("acompanhar/<str:token>/", safety_views.follow_page, name="follow"),
    path("acompanhar/<str:token>/estado.json", safety_views.follow_state, name="follow-state"),
    path("passageiro/sw.js", pwa.service_worker, name="service-worker"),
    path("passageiro/manifest.webmanifest", pwa.manifest, name="manifest"),
    path("favicon.ico", pwa.favicon, name="favicon"),
]
