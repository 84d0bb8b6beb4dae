from django.urls import path

from dispatch.payments import ReleaseFareView, RidePaymentView
from dispatch.web.addresses import AddressReverseView, AddressSearchView, streets_geojson
from dispatch.web.passenger_signup import PassengerSignupView
from dispatch.web.safety_views import RideShareView, RideSosView, SosAckView

urlpatterns = [
    path("passengers/", PassengerSignupView.as_view(), name="passenger-signup"),
    path("addresses/", AddressSearchView.as_view(), name="address-search"),
    path("addresses/reverse/", AddressReverseView.as_view(), name="address-reverse"),
    path("geo/streets.geojson", streets_geojson, name="geo-streets"),
    path("rides/<int:ride_id>/payment/", RidePaymentView.as_view(), name="ride-payment"),
    path("rides/<int:pk>/release-fare/", ReleaseFareView.as_view(), name="ride-release-fare"),
    path("rides/<int:ride_id>/share/", RideShareView.as_view(), name="ride-share"),  # docs/passenger-safety.md
    path("rides/<int:ride_id>/sos/", RideSosView.as_view(), name="ride-sos"),
    path("sos/<int:alert_id>/ack/", SosAckView.as_view(), name="sos-ack"),
]
