from django.urls import path

from . import api, web

urlpatterns = [
    path("api/passenger/rides/", api.PassengerRidesView.as_view(), name="passenger-rides"),
    path("api/passenger/rides/<int:ride_id>/receipt/", api.PassengerReceiptView.as_view(), name="passenger-receipt"),
    path("api/passenger/rides/<int:ride_id>/receipt.pdf", api.PassengerReceiptPdfView.as_view(), name="passenger-receipt-pdf"),
    path("recibos/<str:token>.pdf", web.receipt_pdf, name="receipt-pdf"),
    path("recibos/<str:token>/", web.receipt_page, name="receipt-page"),
]
