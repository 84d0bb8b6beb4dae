from django.urls import path

from . import api

urlpatterns = [
    path("reports/driver-cancellations/", api.DriverCancellationReportView.as_view(), name="driver-cancellation-report"),
]
