from django.urls import path

from .addresses import AddressReverseView, AddressSearchView, streets_geojson
from .api import PassengerSignupView
from .payments import ReleaseFareView, RidePaymentView

urlpatterns = [
    path("passengers/", PassengerSignupView.as_view(), name="passenger-signup"),
    path("addresses/", AddressSearchView.as_view(), name="address-search"),
    path("addresses/reverse/", AddressReverseView.as_view(), name="address-reverse"),
    path("geo/streets.geojson", streets_geojson, name="geo-streets"),
    path("rides/<int:ride_id>/payment/", RidePaymentView.as_view(), name="ride-payment"),
    path("rides/<int:pk>/release-fare/", ReleaseFareView.as_view(), name="ride-release-fare"),
]
