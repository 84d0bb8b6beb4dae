from django.urls import path

from . import views

urlpatterns = [
    path("indicators/service/", views.ServiceView.as_view(), name="indicators-service"),
    path("indicators/bairros/", views.BairrosView.as_view(), name="indicators-bairros"),
    path("indicators/permits/", views.PermitsView.as_view(), name="indicators-permits"),
    path("indicators/fleet/", views.FleetView.as_view(), name="indicators-fleet"),
    path("indicators/money/", views.MoneyView.as_view(), name="indicators-money"),
]
