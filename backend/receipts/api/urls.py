from django.urls import path

from . import views

urlpatterns = [
    path("passenger/rides/", views.PassengerRidesView.as_view(), name="passenger-rides"),
    path("passenger/rides/<int:ride_id>/receipt/", views.PassengerReceiptView.as_view(), name="passenger-receipt"),
    path("passenger/rides/<int:ride_id>/receipt.pdf", views.PassengerReceiptPdfView.as_view(), name="passenger-receipt-pdf"),
]
