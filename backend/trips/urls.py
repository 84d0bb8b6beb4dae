from django.urls import path

from . import api

urlpatterns = [
    path("reports/driver-cancellations/", api.DriverCancellationReportView.as_view(), name="driver-cancellation-report"),
    path("rides/<int:pk>/release-fare/", api.ReleaseFareView.as_view(), name="ride-release-fare"),
    path("passengers/me/", api.PassengerErasureView.as_view(), name="passenger-erasure"),
]
