from django.urls import path

from . import views

urlpatterns = [
    path("reports/driver-cancellations/", views.DriverCancellationReportView.as_view(), name="driver-cancellation-report"),
    path("passengers/me/", views.PassengerErasureView.as_view(), name="passenger-erasure"),
]
