from django.urls import path

from . import api

urlpatterns = [
    path("api/bookings/", api.BookingsView.as_view(), name="bookings"),
    path("api/bookings/<int:pk>/cancel/", api.BookingCancelView.as_view(), name="booking-cancel"),
]
