from django.urls import path

from . import open_views, views

urlpatterns = [
    path("indicators/service/", views.ServiceView.as_view(), name="indicators-service"),
    path("indicators/bairros/", views.BairrosView.as_view(), name="indicators-bairros"),
    path("indicators/permits/", views.PermitsView.as_view(), name="indicators-permits"),
    path("indicators/fleet/", views.FleetView.as_view(), name="indicators-fleet"),
    path("indicators/money/", views.MoneyView.as_view(), name="indicators-money"),
    path("indicators/ranks/", views.RanksView.as_view(), name="indicators-ranks"),
]

urlpatterns += [
    path("open/", open_views.CatalogueView.as_view(), name="open-data"),
    path("open/ranks.geojson", open_views.RanksGeoJSONView.as_view(), name="open-ranks-geojson"),
    path("open/ranks.csv", open_views.RanksCSVView.as_view(), name="open-ranks-csv"),
    path("open/fleet.json", open_views.FleetJSONView.as_view(), name="open-fleet-json"),
    path("open/fleet.csv", open_views.FleetCSVView.as_view(), name="open-fleet-csv"),
    path("open/trips.json", open_views.TripsJSONView.as_view(), name="open-trips-json"),
    path("open/trips.csv", open_views.TripsCSVView.as_view(), name="open-trips-csv"),
    path("open/schemas/<slug:name>.json", open_views.SchemaView.as_view(), name="open-schema"),
]
