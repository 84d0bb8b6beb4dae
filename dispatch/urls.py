from django.urls import path

from .api import PassengerSignupView

urlpatterns = [path("passengers/", PassengerSignupView.as_view(), name="passenger-signup")]
