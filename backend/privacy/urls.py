from django.urls import path

from . import api

urlpatterns = [
    path("passengers/me/", api.PassengerErasureView.as_view(), name="passenger-erasure"),
]
