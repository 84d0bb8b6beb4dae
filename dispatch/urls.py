from django.urls import path

from .api import PassengerSignupView
from .payments import RidePaymentView

urlpatterns = [
    path("passengers/", PassengerSignupView.as_view(), name="passenger-signup"),
    path("rides/<int:ride_id>/payment/", RidePaymentView.as_view(), name="ride-payment"),
]
