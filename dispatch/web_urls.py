"""Pages of the dispatch: /central/ (operators, staff only) and /passageiro/ (passengers)."""

from django.urls import path

from . import views

app_name = "dispatch_web"

urlpatterns = [
    path("central/", views.console, name="console"),
    path("central/corridas/<int:ride_id>/ofertas.json", views.ride_offers, name="ride-offers"),
    path("central/turno.json", views.shift_rides, name="shift-rides"),
    path("central/chamadas.json", views.caller_history, name="caller-history"),
    path("pontos/filas.json", views.rank_queues, name="rank-queues"),
    path("passageiro/", views.passenger, name="passenger"),
]
