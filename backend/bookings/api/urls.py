from django.urls import path

from . import views

urlpatterns = [
    path("bookings/", views.BookingsView.as_view(), name="bookings"),
    path("bookings/<int:pk>/cancel/", views.BookingCancelView.as_view(), name="booking-cancel"),
]
